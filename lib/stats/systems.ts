/**
 * A system as the report sees it: one or more runs (e.g. one per seed) evaluated over the
 * same questions. Its value for a measure is the mean over its runs of each run's mean,
 * which (the runs covering the same questions) is also the mean over questions of each
 * question's mean over the runs ({@link meanOverRuns}): the values the significance tests
 * pair. The bootstrap interval resamples questions of those per-question means; with
 * several runs the spread over runs comes from {@link spreadOverRuns} (mean, sample sd, min, max).
 *
 * @module
 */
import { KitError } from "../errors.ts";
import type { PerQueryValues } from "./compare.ts";
import { meanOverRuns } from "./seeds.ts";
import { measureValues } from "./query_set.ts";
import { bootstrapCI, type BootstrapOptions, type ConfidenceInterval } from "./significance.ts";
import { spreadOverRuns, type StabilityResult } from "./stability.ts";

/** One measure of a system. */
export interface MeasureSummary {
  /** Mean over the runs of each run's mean (= mean over questions of the per-question means). */
  mean: number;
  /** Percentile bootstrap interval over questions of the per-question means, when asked for. */
  ci?: ConfidenceInterval;
  /** Spread over runs (mean, sample sd, min, max, per-run means); present with two or more runs. */
  runs?: StabilityResult;
}

/** A system summarized over its runs. */
export interface SystemSummary {
  /** Number of runs. */
  runs: number;
  /** Number of questions (the same for every run). */
  queries: number;
  /** Each question's mean over the runs. */
  perQuery: PerQueryValues;
  /** Measure (output name) to its summary. */
  measures: Record<string, MeasureSummary>;
}

/** Options of {@link summarizeRuns}. */
export interface SummarizeOptions {
  /** Bootstrap intervals (samples, seed, level); none without this. */
  bootstrap?: BootstrapOptions;
  /** Threshold passed to `stability` (default 0.01). */
  threshold?: number;
}

/**
 * Summarizes a system from the per-query values of each of its runs (evaluated over the
 * same questions, e.g. with `queryValues(..., {complete: true})`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { summarizeRuns } from "./systems.ts";
 * const seed1 = new Map([["q1", { map: 1 }], ["q2", { map: 0 }]]);
 * const seed2 = new Map([["q1", { map: 1 }], ["q2", { map: 0.5 }]]);
 * const s = summarizeRuns([seed1, seed2], ["map"]);
 * assert(s.measures.map.mean === 0.625 && s.queries === 2);
 * assert.deepEqual(s.measures.map.runs!.perRun, [0.5, 0.75]);
 * ```
 */
export function summarizeRuns(
  runs: readonly PerQueryValues[],
  measures: readonly string[],
  options: SummarizeOptions = {},
): SystemSummary {
  if (runs.length === 0) throw new KitError("a system needs at least one run");
  const perQuery = meanOverRuns(runs);
  if (perQuery.size === 0) throw new KitError("the system's runs have no evaluated question");
  const out: Record<string, MeasureSummary> = {};
  for (const m of measures) {
    const values = measureValues(perQuery, m);
    if (values.some((v) => typeof v !== "number")) {
      throw new KitError(`no values for the measure '${m}' (use output names such as P_1)`);
    }
    const perRun = runs.map((r) => measureValues(r, m));
    const spread = runs.length > 1
      ? spreadOverRuns(perRun, { threshold: options.threshold })
      : undefined;
    out[m] = {
      mean: spread ? spread.mean : values.reduce((a, b) => a + b, 0) / values.length,
      ...(options.bootstrap ? { ci: bootstrapCI(values, options.bootstrap) } : {}),
      ...(spread ? { runs: spread } : {}),
    };
  }
  return { runs: runs.length, queries: perQuery.size, perQuery, measures: out };
}
