/**
 * How many runs (seeds) a stable mean needs: {@link seedsNeeded} (the t interval of the mean
 * of n runs narrower than a tolerance), {@link runningMeans} (the mean of the first k runs as
 * k grows) and {@link varianceRatioTest} (an F test: do two systems' run-to-run spreads
 * differ?).
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { sampleSd, tConfidenceInterval } from "./significance.ts";
import { regularizedIncompleteBeta, studentTQuantile } from "./special.ts";

/**
 * How many runs (seeds) make the mean stable: the smallest n >= 2 for which the half-width
 * of the Student-t interval of the mean of n runs, t(1 - (1 - level)/2, n - 1) * sd / sqrt(n),
 * is at most `halfWidth`, with sd the sample sd of the runs at hand. An estimate: sd itself is
 * uncertain (with 10 runs by about a quarter of its value).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { seedsNeeded } from "./seeds_needed.ts";
 * // sd = 0.01: n = 7 gives t(0.975, 6) * 0.01 / sqrt(7) = 0.00925 <= 0.01; n = 6 gives 0.01049
 * assert(seedsNeeded([0.69, 0.70, 0.71], 0.01) === 7);
 * assert(seedsNeeded([0.7, 0.7], 0.001) === 2);
 * ```
 */
export function seedsNeeded(perRun: readonly number[], halfWidth: number, level = 0.95): number {
  if (perRun.length < 2) throw new KitError("runs needed: give at least two runs");
  if (!(halfWidth > 0)) throw new KitError(`half-width must be positive, got ${halfWidth}`);
  if (!(level > 0 && level < 1)) throw new KitError(`level must be in (0, 1), got ${level}`);
  const sd = sampleSd(perRun);
  const q = 1 - (1 - level) / 2;
  // The half-width falls as n grows (both t and 1/sqrt(n) do): bisect for the first n that fits.
  const fits = (n: number) => studentTQuantile(q, n - 1) * sd / Math.sqrt(n) <= halfWidth;
  let lo = 2, hi = 1e7;
  if (!fits(hi)) {
    throw new KitError(`runs needed: more than 10 million for a half-width of ${halfWidth}`);
  }
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The result of {@link varianceRatioTest}. */
export interface VarianceRatioResult {
  /** sd(a)^2 / sd(b)^2. */
  ratio: number;
  /** Degrees of freedom of a (runs - 1). */
  df1: number;
  /** Degrees of freedom of b. */
  df2: number;
  /** Two-sided p of the F test. */
  p: number;
}

/**
 * Is one system's spread over runs different from another's? The F test of equal variances:
 * F = var(a) / var(b) (sample variances) against Snedecor's F with (n_a - 1, n_b - 1) degrees
 * of freedom, p = 2 min(P(F <= f), P(F >= f)), with the cdf
 * I_{d1 f / (d1 f + d2)}(d1 / 2, d2 / 2). It assumes independent samples with roughly normal
 * per-run values and is sensitive to outliers: read it as a rough guide, not a verdict. Two
 * systems trained with the same seeds are paired, not independent: use `pairedVarianceTest`
 * (Pitman–Morgan) for them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { varianceRatioTest } from "./seeds_needed.ts";
 * // F(2, 2) has the cdf x / (1 + x): variances 4 and 1 give P(F >= 4) = 0.2, p = 0.4
 * const r = varianceRatioTest([0, 2, 4], [0, 1, 2]);
 * assert(r.ratio === 4 && Math.abs(r.p - 0.4) < 1e-12);
 * ```
 */
export function varianceRatioTest(
  a: readonly number[],
  b: readonly number[],
): VarianceRatioResult {
  if (a.length < 2 || b.length < 2) {
    throw new KitError("variance test: give at least two runs each");
  }
  const df1 = a.length - 1, df2 = b.length - 1;
  const va = sampleSd(a) ** 2, vb = sampleSd(b) ** 2;
  if (va === 0 && vb === 0) return { ratio: NaN, df1, df2, p: 1 };
  const ratio = va / vb;
  if (!Number.isFinite(ratio) || ratio === 0) return { ratio, df1, df2, p: 0 };
  const cdf = regularizedIncompleteBeta(df1 * ratio / (df1 * ratio + df2), df1 / 2, df2 / 2);
  return { ratio, df1, df2, p: Math.min(1, 2 * Math.min(cdf, 1 - cdf)) };
}

/** The mean of a system's first k runs, with its t interval. */
export interface RunningMean {
  /** Runs averaged (the first k in input order). */
  runs: number;
  /** Their mean. */
  mean: number;
  /** Lower end of the t interval (equal to the mean for k = 1). */
  lower: number;
  /** Upper end. */
  upper: number;
}

/**
 * The mean of the first k runs for k = 1..N, each with its Student-t interval: how the
 * estimate settles as seeds are added.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runningMeans } from "./seeds_needed.ts";
 * const r = runningMeans([1, 2, 3]);
 * assert(r[0].mean === 1 && r[0].lower === 1 && r[2].mean === 2);
 * assert(Math.abs(r[2].upper - (2 + 4.302653 / Math.sqrt(3))) < 1e-5);
 * ```
 */
export function runningMeans(perRun: readonly number[], level = 0.95): RunningMean[] {
  return perRun.map((_, i) => {
    const first = perRun.slice(0, i + 1);
    if (i === 0) return { runs: 1, mean: first[0], lower: first[0], upper: first[0] };
    const { mean, lower, upper } = tConfidenceInterval(first, level);
    return { runs: i + 1, mean, lower, upper };
  });
}
