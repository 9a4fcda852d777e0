/**
 * Systems with several runs (seeds) compared without trusting one lucky run.
 *
 * Every function takes the per-query values of each run (`PerQueryValues`, e.g.
 * `EvalResult.perQuery` of a run evaluated with `-c`), so the same calls work on runs the kit
 * trained and on a user's run files.
 *
 * - Spread: {@link measureSpreadOverRuns} (mean, sample sd, min, max of the per-run means).
 * - Comparison: {@link compareOverRuns} pairs questions on each system's per-question mean
 *   over its runs ({@link meanOverRuns}), then runs the paired test over questions;
 *   {@link singleRunComparisons} shows what comparing one run of each would have said.
 *
 * How many runs a stable mean needs is in `seeds_needed.ts`; the tables of notebook 09 in
 * `seed_tables.ts`, its figures in lib/plot (`run_figures.ts`).
 *
 * @module
 */
import { KitError } from "../errors.ts";
import {
  type CompareOptions,
  compareSystems,
  type ComparisonTable,
  type PerQueryValues,
} from "./compare.ts";
import { NOT_TESTED } from "./family.ts";
import { mean, pairedRandomizationTest } from "./significance.ts";
import { spreadOverRuns, type StabilityOptions, type StabilityResult } from "./stability.ts";
import type { Seed } from "./random.ts";

/**
 * The per-query values of a system with several runs: each query's mean over the runs,
 * measure by measure (the runs must cover the same queries: evaluate them with `-c`). The
 * same contract as `meanOverRuns` of the "your own system" report (issue 12).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { meanOverRuns } from "./seeds.ts";
 * const seed1 = new Map([["q1", { map: 1 }], ["q2", { map: 0.5 }]]);
 * const seed2 = new Map([["q1", { map: 0.5 }], ["q2", { map: 0.5 }]]);
 * assert.deepEqual([...meanOverRuns([seed1, seed2])], [["q1", { map: 0.75 }], ["q2", { map: 0.5 }]]);
 * ```
 */
export function meanOverRuns(runs: readonly PerQueryValues[]): PerQueryValues {
  if (runs.length === 0) throw new KitError("a system needs at least one run");
  const first = runs[0];
  runs.forEach((r, i) => {
    const missing = [...first.keys()].find((q) => !r.has(q)) ??
      [...r.keys()].find((q) => !first.has(q));
    if (missing !== undefined) {
      throw new KitError(
        `runs 1 and ${i + 1} of a system cover different queries (${first.size} and ${r.size}, ` +
          `e.g. ${missing}); evaluate every run with -c`,
      );
    }
  });
  const out: PerQueryValues = new Map();
  for (const [q, row] of first) {
    const means: Record<string, number> = {};
    for (const m of Object.keys(row)) {
      let sum = 0;
      for (const r of runs) sum += r.get(q)![m];
      means[m] = sum / runs.length;
    }
    out.set(q, means);
  }
  return out;
}

/** One measure's per-query values of each run (the input `stability` takes). */
function runValues(runs: readonly PerQueryValues[], measure: string): number[][] {
  return runs.map((r, i) =>
    [...r.entries()].map(([q, v]) => {
      const x = v[measure];
      if (typeof x !== "number") throw new KitError(`run ${i + 1}, query ${q}: no ${measure}`);
      return x;
    })
  );
}

/**
 * Spread of one measure over a system's runs: `spreadOverRuns()` of the per-query values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { measureSpreadOverRuns } from "./seeds.ts";
 * const run = (a: number, b: number) => new Map([["q1", { map: a }], ["q2", { map: b }]]);
 * const s = measureSpreadOverRuns([run(1, 0.5), run(0.5, 0.5)], "map");
 * assert(s.mean === 0.625 && s.min === 0.5 && s.max === 0.75);
 * ```
 */
export function measureSpreadOverRuns(
  runs: readonly PerQueryValues[],
  measure: string,
  options: StabilityOptions = {},
): StabilityResult {
  return spreadOverRuns(runValues(runs, measure), options);
}

/** Options of {@link compareOverRuns} (those of `compareSystems`). */
export type CompareOverRunsOptions = CompareOptions;

/**
 * Compares systems that have several runs each: every system's runs are reduced to
 * per-question means ({@link meanOverRuns}), then `compareSystems` runs the paired test over
 * questions (randomization by default, Holm over pairs with more than two systems).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareOverRuns } from "./seeds.ts";
 * const run = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
 * const t = compareOverRuns({
 *   a: [run([1, 1, 1, 1, 1, 1, 1, 1]), run([1, 1, 1, 1, 1, 1, 1, 0])],
 *   b: [run([0, 0, 0, 0, 0, 0, 0, 0]), run([0, 0, 0, 0, 0, 0, 0, 0])],
 * }, ["map"]);
 * assert(t.cells.a.map.mean === 15 / 16 && t.pairs[0].p === 2 / 256);
 * ```
 */
export function compareOverRuns(
  systems: Record<string, readonly PerQueryValues[]> | Map<string, readonly PerQueryValues[]>,
  measures: string[],
  options: CompareOverRunsOptions = {},
): ComparisonTable {
  const entries = systems instanceof Map ? [...systems] : Object.entries(systems);
  return compareSystems(
    new Map(entries.map(([name, runs]) => [name, meanOverRuns(runs)])),
    measures,
    options,
  );
}

/**
 * The rows of a comparison's pairwise tests, for a table: measure, the two systems, their
 * means, the difference, p (adjusted when a correction applies) and the verdict.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { comparisonRows, compareOverRuns } from "./seeds.ts";
 * const run = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
 * const rows = comparisonRows(compareOverRuns({ a: [run([1, 0])], b: [run([0, 0])] }, ["map"]));
 * assert(rows[0].a === "a" && rows[0]["mean a"] === 0.5 && rows[0].p === 1);
 * ```
 */
export function comparisonRows(t: ComparisonTable): Record<string, string | number>[] {
  return t.pairs.map((p) => ({
    measure: p.measure,
    a: p.a,
    b: p.b,
    "mean a": t.cells[p.a][p.measure].mean,
    "mean b": t.cells[p.b][p.measure].mean,
    "a - b": p.meanDifference,
    [t.correction === "none" ? "p" : `p (${t.correction})`]: p.pAdjusted ?? "",
    [`p <= ${t.alpha}`]: p.identical ? NOT_TESTED : p.significant ? "yes" : "no",
  }));
}

/** One run of system a against one run of system b. */
export interface SingleRunComparison {
  /** Index of the run in a's list (and in b's, for `same-index`). */
  runA: number;
  /** Index of the run in b's list. */
  runB: number;
  /** Mean of a's run. */
  meanA: number;
  /** Mean of b's run. */
  meanB: number;
  /** p of the paired randomization test over questions. */
  p: number;
}

/** Options of {@link singleRunComparisons}. */
export interface SingleRunOptions {
  /**
   * Which pairs: run i of a with run i of b (`same-index`, default), every pair (`all`), or
   * the cherry-picked ones (`extremes`: a's best run against b's worst, and a's worst against
   * b's best, by the measure's mean).
   */
  pairs?: "same-index" | "all" | "extremes";
  /** Randomization trials per test (default 10,000). */
  trials?: number;
  /** Seed of the randomization test (default 42). */
  seed?: Seed;
}

/**
 * What comparing a single run of each system says, for many choices of the single run: the
 * paired randomization test over questions for run i of `a` against run i of `b` (or every
 * pair). The spread of these verdicts is the reason to compare over all runs instead.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { singleRunComparisons } from "./seeds.ts";
 * const run = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
 * const c = singleRunComparisons([run([1, 1, 1]), run([0, 0, 0])], [run([0, 0, 0]), run([1, 1, 1])], "map");
 * assert(c.length === 2 && c[0].meanA === 1 && c[1].meanB === 1 && c[0].p === 0.25);
 * ```
 */
export function singleRunComparisons(
  a: readonly PerQueryValues[],
  b: readonly PerQueryValues[],
  measure: string,
  options: SingleRunOptions = {},
): SingleRunComparison[] {
  const pairs = options.pairs ?? "same-index";
  if (pairs === "same-index" && a.length !== b.length) {
    throw new KitError(
      `same-index pairs need as many runs in each system (${a.length}, ${b.length})`,
    );
  }
  const queries = [...meanOverRuns([...a, ...b]).keys()];
  const values = (r: PerQueryValues) => queries.map((q) => r.get(q)![measure]);
  const va = a.map(values), vb = b.map(values);
  const test = (i: number, j: number): SingleRunComparison => ({
    runA: i,
    runB: j,
    meanA: mean(va[i]),
    meanB: mean(vb[j]),
    p: pairedRandomizationTest(va[i], vb[j], { trials: options.trials, seed: options.seed }).p,
  });
  if (pairs === "extremes") {
    const ma = va.map((v) => mean(v)), mb = vb.map((v) => mean(v));
    const best = (m: number[]) => m.indexOf(Math.max(...m));
    const worst = (m: number[]) => m.indexOf(Math.min(...m));
    return [test(best(ma), worst(mb)), test(worst(ma), best(mb))];
  }
  const out: SingleRunComparison[] = [];
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) {
      if (pairs === "all" || i === j) out.push(test(i, j));
    }
  }
  return out;
}
