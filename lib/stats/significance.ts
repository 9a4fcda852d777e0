/**
 * Significance tests and confidence intervals over per-query values. Every function takes
 * plain number arrays (two arrays are paired by position: element i of both is the same
 * query), so the statistics do not depend on how the values were computed.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { DEFAULT_SEED, mulberry32, randomInt, type Seed } from "./random.ts";
import { exactSignFlipCount, signFlipCounts } from "./randomization.ts";
import { studentTQuantile, studentTTwoSidedP } from "./special.ts";

/** Result of a paired two-sided test. */
export interface PairedTestResult {
  /** Mean of a minus mean of b. */
  meanDifference: number;
  /** Two-sided p-value. */
  p: number;
  /** Number of pairs. */
  n: number;
}

/** Result of {@link pairedRandomizationTest}. */
export interface RandomizationResult extends PairedTestResult {
  /** True when all 2^n sign assignments were enumerated (the p-value is exact). */
  exact: boolean;
  /** Sign assignments drawn (or enumerated). */
  trials: number;
}

/** Result of {@link pairedTTest}. */
export interface TTestResult extends PairedTestResult {
  /** The t statistic (mean difference over its standard error). */
  t: number;
  /** Degrees of freedom, n - 1. */
  df: number;
}

function checkPaired(a: ArrayLike<number>, b: ArrayLike<number>): void {
  if (a.length !== b.length) {
    throw new KitError(
      `paired test needs arrays of equal length (got ${a.length} and ${b.length})`,
    );
  }
  if (a.length === 0) throw new KitError("paired test needs at least one pair");
  for (let i = 0; i < a.length; i++) {
    if (!Number.isFinite(a[i]) || !Number.isFinite(b[i])) {
      throw new KitError(`pair ${i} holds a non-finite value (${a[i]}, ${b[i]})`);
    }
  }
}

/**
 * Mean of an array (an empty array is an error, not NaN).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mean } from "./significance.ts";
 * assert(mean([1, 2, 6]) === 3);
 * ```
 */
export function mean(values: ArrayLike<number>): number {
  if (values.length === 0) throw new KitError("mean of an empty list");
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i];
  return s / values.length;
}

/**
 * Sample standard deviation (divides by n - 1); 0 for a single value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sampleSd } from "./significance.ts";
 * assert(Math.abs(sampleSd([2, 4, 4, 4, 5, 5, 7, 9]) - Math.sqrt(32 / 7)) < 1e-12);
 * ```
 */
export function sampleSd(values: ArrayLike<number>): number {
  const n = values.length;
  if (n < 2) return 0;
  const m = mean(values);
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (values[i] - m) ** 2;
  return Math.sqrt(ss / (n - 1));
}

/** Options for {@link pairedRandomizationTest}. */
export interface RandomizationOptions {
  /** Random sign assignments to draw (default 10,000). */
  trials?: number;
  /** Seed of the generator (default 42). */
  seed?: Seed;
  /**
   * Enumerate all 2^n sign assignments when 2^n <= this (default: `trials`), giving the
   * exact p-value.
   */
  exactUpTo?: number;
}

/**
 * Paired randomization (Fisher) test, two-sided, on the mean difference: under the null
 * hypothesis the two systems are exchangeable on each query, so each per-query difference
 * keeps or flips its sign with probability 1/2. The p-value is the share of sign assignments
 * whose |mean difference| is at least the observed one (a relative tolerance of 1e-12
 * absorbs floating-point noise).
 *
 * When 2^n is small enough every assignment is enumerated and p is exact (count / 2^n);
 * otherwise `trials` assignments are drawn and p = (count + 1) / (trials + 1), which counts
 * the observed assignment and so never reports p = 0 (Phipson & Smyth 2010).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairedRandomizationTest } from "./significance.ts";
 * // Differences 1, 1, 1: only the all-plus and all-minus assignments reach |mean| = 1.
 * const r = pairedRandomizationTest([1, 1, 1], [0, 0, 0]);
 * assert(r.exact && r.p === 2 / 8);
 * ```
 */
export function pairedRandomizationTest(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  options: RandomizationOptions = {},
): RandomizationResult {
  checkPaired(a, b);
  const n = a.length;
  const trials = options.trials ?? 10_000;
  if (!(Number.isInteger(trials) && trials > 0)) {
    throw new KitError(`trials must be a positive integer, got ${trials}`);
  }
  const diffs = new Float64Array(n);
  let observed = 0;
  for (let i = 0; i < n; i++) {
    diffs[i] = a[i] - b[i];
    observed += diffs[i];
  }
  const meanDifference = observed / n;
  const exactUpTo = options.exactUpTo ?? trials;
  if (n <= 30 && 2 ** n <= exactUpTo) {
    const total = 2 ** n;
    const p = exactSignFlipCount(diffs) / total;
    return { meanDifference, p, n, exact: true, trials: total };
  }
  const [count] = signFlipCounts([diffs], { trials, seed: options.seed ?? DEFAULT_SEED });
  return { meanDifference, p: (count + 1) / (trials + 1), n, exact: false, trials };
}

/**
 * Paired Student's t-test, two-sided: t = mean(d) / (sd(d) / sqrt(n)) with the sample standard
 * deviation (n - 1) of the differences d, and p from Student's t with n - 1 degrees of freedom.
 * Degenerate cases: all differences equal to 0 give p = 1; equal non-zero differences
 * (sd = 0) give t = ±Infinity and p = 0. Fewer than two pairs is an error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairedTTest } from "./significance.ts";
 * // d = [1, 2, 3]: mean 2, sd 1, t = 2 * sqrt(3); df = 2 has the closed form p = 1 - t / sqrt(2 + t^2).
 * const r = pairedTTest([1, 2, 3], [0, 0, 0]);
 * const t = 2 * Math.sqrt(3);
 * assert(Math.abs(r.p - (1 - t / Math.sqrt(2 + t * t))) < 1e-12);
 * ```
 */
export function pairedTTest(a: ArrayLike<number>, b: ArrayLike<number>): TTestResult {
  checkPaired(a, b);
  const n = a.length;
  if (n < 2) throw new KitError("paired t-test needs at least two pairs");
  const d = Array.from({ length: n }, (_, i) => a[i] - b[i]);
  const m = mean(d);
  const sd = sampleSd(d);
  const df = n - 1;
  if (sd === 0 || sd < 1e-15 * Math.abs(m)) {
    if (m === 0) return { meanDifference: 0, t: 0, df, p: 1, n };
    return { meanDifference: m, t: m > 0 ? Infinity : -Infinity, df, p: 0, n };
  }
  const t = m / (sd / Math.sqrt(n));
  return { meanDifference: m, t, df, p: studentTTwoSidedP(t, df), n };
}

/**
 * The kit's one default number of bootstrap resamples: every interval (`bootstrapCI`, the
 * comparison tables, the held-out validation interval, the systems report) draws this many
 * unless told otherwise.
 */
export const DEFAULT_BOOTSTRAP_SAMPLES = 10_000;

/** Options for {@link bootstrapCI}. */
export interface BootstrapOptions {
  /** Bootstrap resamples (default {@link DEFAULT_BOOTSTRAP_SAMPLES}, 10,000). */
  samples?: number;
  /** Seed of the generator (default 42). */
  seed?: Seed;
  /** Confidence level (default 0.95). */
  level?: number;
}

/** A confidence interval for a mean. */
export interface ConfidenceInterval {
  /** The mean of the values themselves. */
  mean: number;
  /** Lower bound. */
  lower: number;
  /** Upper bound. */
  upper: number;
  /** Confidence level, e.g. 0.95. */
  level: number;
  /** Method: `percentile bootstrap (B samples)` or `t`. */
  method: string;
}

/**
 * Quantile of sorted values by linear interpolation between order statistics
 * (Hyndman & Fan type 7, the default of R and NumPy).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { quantileSorted } from "./significance.ts";
 * assert(quantileSorted([1, 2, 3, 4], 0.5) === 2.5);
 * assert(quantileSorted([1, 2, 3, 4], 1) === 4);
 * ```
 */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) throw new KitError("quantile of an empty list");
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h), hi = Math.ceil(h);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

function checkLevel(level: number): void {
  if (!(level > 0 && level < 1)) throw new KitError(`level must be in (0, 1), got ${level}`);
}

/**
 * Percentile bootstrap confidence interval for the mean of `values` (e.g. per-query AP for
 * MAP, RR for MRR, pRR for QRCD): draw `samples` resamples of n values with replacement,
 * take the mean of each, and report the (1 - level) / 2 and (1 + level) / 2 quantiles
 * (type 7) of those means.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bootstrapCI } from "./significance.ts";
 * const ci = bootstrapCI([0.2, 0.5, 0.9, 1, 0.3], { samples: 2000, seed: 1 });
 * assert(ci.lower <= ci.mean && ci.mean <= ci.upper && ci.level === 0.95);
 * ```
 */
export function bootstrapCI(
  values: ArrayLike<number>,
  options: BootstrapOptions = {},
): ConfidenceInterval {
  const n = values.length;
  if (n === 0) throw new KitError("bootstrap needs at least one value");
  const samples = options.samples ?? DEFAULT_BOOTSTRAP_SAMPLES;
  if (!(Number.isInteger(samples) && samples > 1)) {
    throw new KitError(`samples must be an integer > 1, got ${samples}`);
  }
  const level = options.level ?? 0.95;
  checkLevel(level);
  const random = mulberry32(options.seed ?? DEFAULT_SEED);
  const means = new Float64Array(samples);
  for (let s = 0; s < samples; s++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[randomInt(random, n)];
    means[s] = sum / n;
  }
  means.sort();
  const alpha = (1 - level) / 2;
  return {
    mean: mean(values),
    lower: quantileSorted(means, alpha),
    upper: quantileSorted(means, 1 - alpha),
    level,
    method: `percentile bootstrap (${samples} samples)`,
  };
}

/**
 * Student-t confidence interval for a mean: mean ± t(1 - (1 - level)/2, n - 1) * sd / sqrt(n).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tConfidenceInterval } from "./significance.ts";
 * const ci = tConfidenceInterval([1, 2, 3]);
 * assert(Math.abs(ci.upper - (2 + 4.302653 / Math.sqrt(3))) < 1e-5);
 * ```
 */
export function tConfidenceInterval(
  values: ArrayLike<number>,
  level = 0.95,
): ConfidenceInterval {
  checkLevel(level);
  if (values.length < 2) throw new KitError("t interval needs at least two values");
  const m = mean(values);
  const half = studentTQuantile(1 - (1 - level) / 2, values.length - 1) * sampleSd(values) /
    Math.sqrt(values.length);
  return { mean: m, lower: m - half, upper: m + half, level, method: "t" };
}

/** Multiple-comparison corrections. */
export type Correction = "none" | "bonferroni" | "holm";

/**
 * Bonferroni-adjusted p-values: min(1, m * p).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bonferroni } from "./significance.ts";
 * assert(bonferroni([0.01, 0.04, 0.5]).join() === "0.03,0.12,1");
 * ```
 */
export function bonferroni(pValues: readonly number[]): number[] {
  const m = pValues.length;
  return pValues.map((p) => Math.min(1, p * m));
}

/**
 * Holm-Bonferroni step-down adjusted p-values, in the input order: sort ascending,
 * adjusted p(i) = max over j <= i of min(1, (m - j + 1) * p(j)). Rejecting where the adjusted
 * value is <= alpha is Holm's procedure; it controls the family-wise error like Bonferroni
 * and is never less powerful.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { holm } from "./significance.ts";
 * // Sorted 0.01, 0.02, 0.04 -> 0.03, 0.04, 0.04 (monotone).
 * assert(holm([0.04, 0.01, 0.02]).map((p) => p.toFixed(2)).join() === "0.04,0.03,0.04");
 * ```
 */
export function holm(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0]);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

/**
 * Applies a correction by name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { adjustPValues } from "./significance.ts";
 * assert(adjustPValues([0.2], "holm")[0] === 0.2);
 * ```
 */
export function adjustPValues(pValues: readonly number[], correction: Correction): number[] {
  if (correction === "none") return [...pValues];
  if (correction === "bonferroni") return bonferroni(pValues);
  if (correction === "holm") return holm(pValues);
  throw new KitError(`unknown correction '${correction}' (expected none, bonferroni, holm)`);
}
