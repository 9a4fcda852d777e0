/**
 * Score normalizations applied to each run, query by query, before fusing, as ranx defines
 * them (`ranx/normalization/*.py`, ranx 0.3.x; https://github.com/AmenRa/ranx). Every
 * denominator is floored at 1e-9 as in ranx, so a query whose scores are all equal maps to 0.
 *
 * @module
 */
import { KitError } from "../errors.ts";

/** The normalizations `fuse --norm` takes. */
export const NORMALIZATIONS = ["min-max", "zmuv", "sum", "rank", "none"] as const;
/** One of {@link NORMALIZATIONS}. */
export type Normalization = typeof NORMALIZATIONS[number];

/**
 * An infinite score given to a normalization it breaks (`min-max`, `zmuv`, `sum`): with `inf`
 * (or `-inf`) among a query's scores, ranx (numpy) computes inf - inf and inf / inf, NaN, for
 * that document (and 0 or NaN for the others); `rank` uses ranks only and `none` keeps the
 * score, so they take it. `index` is the score's place in the list, for the caller to name it.
 */
export class InfiniteScore extends KitError {
  constructor(readonly index: number, readonly score: number, readonly norm: Normalization) {
    super(`score ${score} cannot be placed: ${norm} cannot normalize it (ranx gets NaN)`);
    this.name = "InfiniteScore";
  }
}

/** ranx's floor for denominators. */
const FLOOR = 1e-9;

/**
 * Normalizes one query's scores. `scores` are in rank order (trec_eval's: score descending,
 * ties by docno descending), which `rank` needs; the others do not depend on it.
 * - `min-max`: (s - min) / (max - min);
 * - `zmuv`: (s - mean) / standard deviation (population, as numpy's `std`);
 * - `sum`: (s - min) / (sum - n min), so the shifted scores sum to 1;
 * - `rank`: 1 - i / n for the document at 0-based rank i;
 * - `none`: the scores as they are.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeScores } from "./normalize.ts";
 * assert(normalizeScores([4, 2, 0], "min-max").join() === "1,0.5,0");
 * assert(normalizeScores([4, 2, 0], "rank").join() === [1, 1 - 1 / 3, 1 - 2 / 3].join());
 * assert(normalizeScores([3, 1], "sum").join() === "1,0");
 * assert.throws(() => normalizeScores([Infinity, 1], "min-max"), /cannot normalize/); // ranx: NaN
 * assert(normalizeScores([Infinity, 1], "rank").join() === "1,0.5");
 * ```
 */
export function normalizeScores(scores: readonly number[], norm: Normalization): number[] {
  const n = scores.length;
  if (n === 0 || norm === "none") return [...scores];
  if (norm === "rank") return scores.map((_, i) => 1 - i / n);
  let min = Infinity, max = -Infinity, sum = 0;
  for (let i = 0; i < n; i++) {
    const s = scores[i];
    if (!Number.isFinite(s)) throw new InfiniteScore(i, s, norm);
    if (s < min) min = s;
    if (s > max) max = s;
    sum += s;
  }
  if (norm === "min-max") {
    const d = Math.max(max - min, FLOOR);
    return scores.map((s) => (s - min) / d);
  }
  if (norm === "sum") {
    const d = Math.max(sum - min * n, FLOOR);
    return scores.map((s) => (s - min) / d);
  }
  const mean = sum / n;
  let squares = 0;
  for (const s of scores) squares += (s - mean) ** 2;
  const d = Math.max(Math.sqrt(squares / n), FLOOR);
  return scores.map((s) => (s - mean) / d);
}
