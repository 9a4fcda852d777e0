/**
 * Two regimes trained with the same seeds are paired, not independent: seed i of both sees the
 * same example order (and, under label noise, the same flipped labels), so their per-seed
 * values correlate. Tests that treat the two lists as independent samples (the F test of
 * variances, Welch's t) then waste that pairing and report p-values that are too large.
 *
 * - {@link pairedVarianceTest}: Pitman–Morgan's test of equal variances for paired values.
 * - {@link pairedSeedTests}: both questions at once for two regimes over the same seeds: is
 *   the mean different (paired t over seeds) and is the spread different (Pitman–Morgan), with
 *   the independent F test beside it to show what ignoring the pairing gives.
 *
 * A family of such p-values (several noise levels, several measures) is adjusted with `holm`.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { mean, pairedTTest, sampleSd, type TTestResult } from "./significance.ts";
import { type VarianceRatioResult, varianceRatioTest } from "./seeds_needed.ts";
import { studentTTwoSidedP } from "./special.ts";

/** The result of {@link pairedVarianceTest}. */
export interface PairedVarianceResult {
  /** Number of pairs (seeds). */
  n: number;
  /** var(a) / var(b), sample variances. */
  ratio: number;
  /** Pearson's correlation of a and b (how strongly the seeds pair them). */
  correlation: number;
  /** Pitman–Morgan's t statistic (positive when a varies more). */
  t: number;
  /** Degrees of freedom, n - 2. */
  df: number;
  /** Two-sided p. */
  p: number;
}

function checkPairs(a: readonly number[], b: readonly number[], least: number): void {
  if (a.length !== b.length) {
    throw new KitError(
      `paired values: ${a.length} and ${b.length} values; pair them by seed (seed i of both)`,
    );
  }
  if (a.length < least) throw new KitError(`paired values: give at least ${least} pairs`);
  for (let i = 0; i < a.length; i++) {
    if (!Number.isFinite(a[i]) || !Number.isFinite(b[i])) {
      throw new KitError(`pair ${i + 1} holds a non-finite value (${a[i]}, ${b[i]})`);
    }
  }
}

/** Sum of products of deviations from the means. */
function coSum(x: readonly number[], y: readonly number[]): number {
  const mx = mean(x), my = mean(y);
  let s = 0;
  for (let i = 0; i < x.length; i++) s += (x[i] - mx) * (y[i] - my);
  return s;
}

/**
 * Pitman–Morgan's test of equal variances for paired values (Pitman 1939, Morgan 1939): with F
 * = var(a) / var(b) and r the correlation of a and b,
 * t = (F - 1) sqrt(n - 2) / (2 sqrt(F (1 - r^2))) against Student's t with n - 2 degrees of
 * freedom, two-sided. It equals the test that a + b and a - b are uncorrelated (their
 * covariance is var(a) - var(b)). Pairs are by position: element i of both is the same seed.
 * It assumes the pairs are roughly bivariate normal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairedVarianceTest } from "./paired_seeds.ts";
 * // var(a) = 14/3, var(b) = 2/3 (F = 7), r^2 = 1/28: t = sqrt(8/3); with 2 df p = 1 - 2/sqrt(7)
 * const r = pairedVarianceTest([1, 3, 2, 6], [1, 2, 3, 2]);
 * assert(Math.abs(r.ratio - 7) < 1e-12 && Math.abs(r.t - Math.sqrt(8 / 3)) < 1e-12);
 * assert(Math.abs(r.p - (1 - 2 / Math.sqrt(7))) < 1e-12 && r.df === 2);
 * ```
 */
export function pairedVarianceTest(
  a: readonly number[],
  b: readonly number[],
): PairedVarianceResult {
  checkPairs(a, b, 3);
  const n = a.length, df = n - 2;
  const saa = coSum(a, a), sbb = coSum(b, b), sab = coSum(a, b);
  const correlation = saa > 0 && sbb > 0 ? sab / Math.sqrt(saa * sbb) : NaN;
  if (saa === 0 && sbb === 0) return { n, ratio: NaN, correlation, t: 0, df, p: 1 };
  const ratio = saa / sbb;
  if (saa === 0 || sbb === 0) {
    return { n, ratio, correlation, t: saa > 0 ? Infinity : -Infinity, df, p: 0 };
  }
  const oneMinusR2 = 1 - correlation * correlation;
  // Perfectly correlated values with different variances: the ratio is known without error.
  if (!(oneMinusR2 > 1e-15)) {
    const t = ratio === 1 ? 0 : ratio > 1 ? Infinity : -Infinity;
    return { n, ratio, correlation, t, df, p: t === 0 ? 1 : 0 };
  }
  const t = (ratio - 1) * Math.sqrt(df) / (2 * Math.sqrt(ratio * oneMinusR2));
  return { n, ratio, correlation, t, df, p: studentTTwoSidedP(t, df) };
}

/** The result of {@link pairedSeedTests}: two regimes over the same seeds. */
export interface PairedSeedTests {
  /** Number of seeds. */
  seeds: number;
  /** Mean and sample sd of each regime's per-seed values. */
  meanA: number;
  meanB: number;
  sdA: number;
  sdB: number;
  /** Correlation of the per-seed values (how strongly the shared seeds pair the regimes). */
  correlation: number;
  /** Means: the paired t-test over seeds (mean of a minus mean of b). */
  means: TTestResult;
  /** Spread: Pitman–Morgan's paired test of variances. */
  spread: PairedVarianceResult;
  /** What the F test, treating the regimes as independent, says of the spread (for contrast). */
  spreadIfIndependent: VarianceRatioResult;
}

/**
 * Tests two regimes trained with the same seeds, paired by seed (element i of both lists is
 * seed i): the mean by the paired t-test over seeds, the spread by Pitman–Morgan, and the
 * independent F test beside it to show what ignoring the pairing gives.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairedSeedTests } from "./paired_seeds.ts";
 * const t = pairedSeedTests([0.70, 0.72, 0.71, 0.75], [0.69, 0.70, 0.70, 0.71]);
 * assert(Math.abs(t.means.meanDifference - 0.02) < 1e-12 && t.seeds === 4);
 * assert(t.spread.ratio > 1 && t.spread.p < t.spreadIfIndependent.p);
 * ```
 */
export function pairedSeedTests(a: readonly number[], b: readonly number[]): PairedSeedTests {
  checkPairs(a, b, 3);
  const spread = pairedVarianceTest(a, b);
  return {
    seeds: a.length,
    meanA: mean(a),
    meanB: mean(b),
    sdA: sampleSd(a),
    sdB: sampleSd(b),
    correlation: spread.correlation,
    means: pairedTTest(a, b),
    spread,
    spreadIfIndependent: varianceRatioTest(a, b),
  };
}
