/**
 * A small seeded pseudo-random generator, so every statistic that draws random numbers
 * (randomization tests, bootstrap, splits) gives the same answer for the same seed on every
 * machine and every run.
 *
 * The generator is mulberry32 (Tommy Ettinger's 32-bit state generator, public domain):
 * one 32-bit state, period 2^32, fast and good enough for resampling (it passes
 * gjrand's and PractRand's small tests). It is not cryptographic. The seed is any 32-bit
 * integer; a string seed is hashed to one with FNV-1a so "seed: 'wikiqa'" works too.
 *
 * @module
 */
import { KitError } from "../errors.ts";

/** A source of uniform numbers in [0, 1). */
export type Random = () => number;

/** A seed: a 32-bit integer (other numbers are truncated to 32 bits) or a string (hashed). */
export type Seed = number | string;

/** The default seed of every statistic in the kit (documented, so results can be reproduced). */
export const DEFAULT_SEED = 42;

/** FNV-1a hash of a string to a 32-bit unsigned integer. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * A mulberry32 generator seeded with `seed`: each call returns the next number in [0, 1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mulberry32 } from "./random.ts";
 * const a = mulberry32(7), b = mulberry32(7);
 * assert(a() === b() && a() === b());
 * const x = mulberry32("wikiqa")();
 * assert(x >= 0 && x < 1);
 * ```
 */
export function mulberry32(seed: Seed = DEFAULT_SEED): Random {
  let state = seedState(seed);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The generator's 32-bit starting state for a seed. */
function seedState(seed: Seed): number {
  if (typeof seed === "number" && !Number.isFinite(seed)) {
    throw new KitError(`seed must be a finite number or a string, got ${seed}`);
  }
  return typeof seed === "string" ? fnv1a(seed) : (Math.trunc(seed) >>> 0);
}

/**
 * Fills sign bits from {@link mulberry32}'s sequence: `next(out, n, offset)` takes the next `n`
 * draws and sets bit j of byte `offset + g` of `out` when draw 8g + j is below 0.5 (bits past
 * `n` in the last byte are 0). The draws are those of `mulberry32(seed)` called in turn, so a
 * test that flips a sign where `random() < 0.5` flips the same ones, 8 signs a byte and with
 * no number made from the 32 bits (the sign is the draw's top bit).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mulberry32, signBits } from "./random.ts";
 * const next = signBits(7), random = mulberry32(7);
 * const out = new Uint8Array(3);
 * next(out, 20);
 * for (let i = 0; i < 20; i++) assert.equal((out[i >> 3] >> (i & 7)) & 1, random() < 0.5 ? 1 : 0);
 * assert.equal(out[2] >> 4, 0);
 * ```
 */
export function signBits(
  seed: Seed = DEFAULT_SEED,
): (out: Uint8Array, n: number, offset?: number) => void {
  let state = seedState(seed) | 0;
  return (out, n, offset = 0) => {
    for (let g = 0; g * 8 < n; g++) {
      const m = Math.min(8, n - g * 8);
      let byte = 0;
      for (let j = 0; j < m; j++) {
        state = (state + 0x6d2b79f5) | 0;
        let t = Math.imul(state ^ (state >>> 15), state | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        // Below 0.5 is a top bit of 0: (t ^ (t >>> 14)) has t's top bit, so ~t's is the sign.
        byte |= (~t >>> 31) << j;
      }
      out[offset + g] = byte;
    }
  };
}

/**
 * A uniform integer in [0, n) from `random`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mulberry32, randomInt } from "./random.ts";
 * const r = mulberry32(1);
 * const k = randomInt(r, 6);
 * assert(Number.isInteger(k) && k >= 0 && k < 6);
 * ```
 */
export function randomInt(random: Random, n: number): number {
  return Math.floor(random() * n);
}

/**
 * Shuffles `items` in place (Fisher-Yates) with `random` and returns it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mulberry32, shuffleInPlace } from "./random.ts";
 * const xs = shuffleInPlace([1, 2, 3, 4, 5], mulberry32(3));
 * assert([...xs].sort().join() === "1,2,3,4,5");
 * ```
 */
export function shuffleInPlace<T>(items: T[], random: Random): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(random, i + 1);
    const tmp = items[i];
    items[i] = items[j];
    items[j] = tmp;
  }
  return items;
}
