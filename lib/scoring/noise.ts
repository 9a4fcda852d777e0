/**
 * Label noise for training data, as in TANDA's robustness experiment (a share of the target
 * training labels flipped at random, the model retrained, MAP measured on the clean test
 * set). Which labels flip depends only on the number of examples, the share and the seed.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { mulberry32 } from "../stats/random.ts";
import type { LtrExamples } from "./ltr.ts";

/**
 * The indexes of the examples whose labels flip: exactly `round(fraction * count)` distinct
 * indexes in `[0, count)` (halves round up), chosen by a partial Fisher-Yates shuffle driven
 * by mulberry32(`seed`), returned in increasing order. The same arguments always give the
 * same indexes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { noisyIndexes } from "./noise.ts";
 * const a = noisyIndexes(1000, 0.1, 7);
 * assert(a.length === 100 && new Set(a).size === 100);
 * assert.deepEqual(a, noisyIndexes(1000, 0.1, 7));
 * assert(noisyIndexes(5, 0.5, 1).length === 3); // round(2.5) = 3
 * ```
 */
export function noisyIndexes(count: number, fraction: number, seed: number): Uint32Array {
  if (!Number.isInteger(count) || count < 0) {
    throw new KitError(`example count must be a non-negative integer, got ${count}`);
  }
  if (!(fraction >= 0 && fraction <= 1)) {
    throw new KitError(`label noise must be a share between 0 and 1, got ${fraction}`);
  }
  const k = Math.round(fraction * count);
  const rand = mulberry32(seed);
  // Partial Fisher-Yates over a virtual identity array: only touched slots are stored.
  const moved = new Map<number, number>();
  const out = new Uint32Array(k);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(rand() * (count - i));
    const atJ = moved.get(j) ?? j;
    moved.set(j, moved.get(i) ?? i);
    out[i] = atJ;
  }
  return out.sort();
}

/**
 * The same examples with `round(fraction * count)` labels flipped (1 -> 0, 0 -> 1), chosen by
 * {@link noisyIndexes}. The features are shared, not copied; the input is not changed. The
 * result records the noise, and so does every model trained on it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ltrExamples } from "./ltr.ts";
 * import { addLabelNoise } from "./noise.ts";
 * const ex = ltrExamples([{ id: "q", text: "red dog", candidates: [
 *   { id: "a", text: "a red dog", label: 1 }, { id: "b", text: "cat", label: 0 },
 *   { id: "c", text: "sky", label: 0 }, { id: "d", text: "sun", label: 0 }] }]);
 * const noisy = addLabelNoise(ex, 0.25, 3);
 * const changed = noisy.labels.filter((l, i) => l !== ex.labels[i]).length;
 * assert(changed === 1 && noisy.noise?.flipped === 1 && noisy.x === ex.x);
 * ```
 */
export function addLabelNoise(
  examples: LtrExamples,
  fraction: number,
  seed: number,
): LtrExamples {
  if (examples.noise) {
    throw new KitError(`${examples.source || "these examples"} already carry label noise`);
  }
  const flip = noisyIndexes(examples.count, fraction, seed);
  const labels = examples.labels.slice();
  for (const i of flip) labels[i] = labels[i] ? 0 : 1;
  return { ...examples, labels, noise: { fraction, seed, flipped: flip.length } };
}
