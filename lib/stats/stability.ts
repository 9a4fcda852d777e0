/**
 * Stability across runs: the property TANDA claims (lower variance across fine-tuning runs).
 * Evaluate N runs of one system (e.g. N seeds), take each run's mean over queries, and report
 * the mean, sample standard deviation, min and max of those N values; a system whose spread
 * exceeds a threshold is flagged.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { mean, sampleSd } from "./significance.ts";

/** Options of {@link spreadOverRuns}. */
export interface StabilityOptions {
  /** Flag the system when its spread exceeds this (default 0.01, i.e. one MAP point). */
  threshold?: number;
  /** Which spread the threshold applies to: `sd` (default) or `range` (max - min). */
  spread?: "sd" | "range";
}

/** Spread of one system over several runs. */
export interface StabilityResult {
  /** Number of runs. */
  runs: number;
  /** Each run's mean over its queries, in input order. */
  perRun: number[];
  /** Mean of the per-run values. */
  mean: number;
  /** Sample standard deviation of the per-run values (divides by N - 1; 0 for one run). */
  sd: number;
  min: number;
  max: number;
  /** max - min. */
  range: number;
  /** The threshold and the spread it was applied to. */
  threshold: number;
  spread: "sd" | "range";
  /** True when the spread exceeds the threshold. */
  unstable: boolean;
}

/**
 * Stability of one system from the per-query values of each of its runs (one array per run,
 * e.g. per-query AP for seeds 1..N). Runs may cover different numbers of queries; each is
 * reduced to its own mean first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { spreadOverRuns } from "./stability.ts";
 * const s = spreadOverRuns([[0.8, 0.6], [0.7, 0.7], [0.9, 0.9]], { threshold: 0.05 });
 * // per-run means 0.7, 0.7, 0.9 -> mean 0.7667, sample sd 0.1155
 * assert(Math.abs(s.sd - 0.2 / Math.sqrt(3)) < 1e-12 && s.unstable);
 * ```
 */
export function spreadOverRuns(
  runsPerQueryValues: ArrayLike<number>[],
  options: StabilityOptions = {},
): StabilityResult {
  if (runsPerQueryValues.length === 0) throw new KitError("stability needs at least one run");
  const threshold = options.threshold ?? 0.01;
  const spread = options.spread ?? "sd";
  if (spread !== "sd" && spread !== "range") {
    throw new KitError(`unknown spread '${spread}' (expected sd or range)`);
  }
  const perRun = runsPerQueryValues.map((values, i) => {
    if (values.length === 0) throw new KitError(`run ${i + 1} has no per-query values`);
    return mean(values);
  });
  const sd = sampleSd(perRun);
  const min = Math.min(...perRun), max = Math.max(...perRun);
  const value = spread === "sd" ? sd : max - min;
  return {
    runs: perRun.length,
    perRun,
    mean: mean(perRun),
    sd,
    min,
    max,
    range: max - min,
    threshold,
    spread,
    unstable: value > threshold,
  };
}
