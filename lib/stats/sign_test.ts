/**
 * The sign test of two systems on the same questions: how many questions each wins, how many
 * are ties, and the exact two-sided binomial p of the wins against the losses (ties left
 * out). It asks only "which system is better on more questions", not by how much: a check
 * beside the paired test on the means.
 *
 * @module
 */
import { KitError } from "../errors.ts";

/** Wins, losses and ties of a against b, and the sign test's p. */
export interface SignTestResult {
  /** Questions where a is higher. */
  wins: number;
  /** Questions where b is higher. */
  losses: number;
  /** Questions where they are equal (within `tolerance`). */
  ties: number;
  /**
   * Exact two-sided p: twice the binomial(wins + losses, 1/2) probability of a count at most
   * min(wins, losses), at most 1; 1 when every question is a tie.
   */
  p: number;
}

/**
 * Counts wins, losses and ties of `a` against `b` (paired by position) and runs the exact
 * two-sided sign test on the questions that are not ties.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { signTest } from "./sign_test.ts";
 * // 5 wins, 1 loss, 1 tie: p = 2 * (1 + 6) / 2^6 = 0.21875.
 * const r = signTest([1, 1, 1, 1, 1, 0, 0.5], [0, 0, 0, 0, 0, 1, 0.5]);
 * assert.deepEqual([r.wins, r.losses, r.ties, r.p], [5, 1, 1, 0.21875]);
 * ```
 */
export function signTest(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  options: { tolerance?: number } = {},
): SignTestResult {
  if (a.length !== b.length) {
    throw new KitError(`sign test needs paired values (got ${a.length} and ${b.length})`);
  }
  const tolerance = options.tolerance ?? 1e-12;
  let wins = 0, losses = 0, ties = 0;
  for (let i = 0; i < a.length; i++) {
    if (!Number.isFinite(a[i]) || !Number.isFinite(b[i])) {
      throw new KitError(`pair ${i} holds a non-finite value (${a[i]}, ${b[i]})`);
    }
    const d = a[i] - b[i];
    if (Math.abs(d) <= tolerance) ties++;
    else if (d > 0) wins++;
    else losses++;
  }
  return { wins, losses, ties, p: twoSidedBinomialHalf(Math.min(wins, losses), wins + losses) };
}

/** 2 P(X <= k) for X ~ binomial(n, 1/2), at most 1 (1 when n = 0). */
function twoSidedBinomialHalf(k: number, n: number): number {
  if (n === 0) return 1;
  // The counts C(n, i) by C(n, i + 1) = C(n, i) (n - i) / (i + 1), exact while they fit in
  // 2^53, then divided by 2^n; in logs once the counts would overflow.
  let tail = 0;
  if (n <= 1000) {
    let count = 1;
    for (let i = 0; i <= k; i++) {
      tail += count;
      count = count * (n - i) / (i + 1);
    }
    tail *= 0.5 ** n;
  } else {
    let logTerm = n * Math.log(0.5);
    for (let i = 0; i <= k; i++) {
      tail += Math.exp(logTerm);
      logTerm += Math.log((n - i) / (i + 1));
    }
  }
  return Math.min(1, 2 * tail);
}
