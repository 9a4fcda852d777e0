/**
 * Systems with several runs (seeds): how their spread is reported, how many runs a stable
 * mean needs, and how two such systems are compared without trusting one lucky run.
 *
 * Every function takes the per-query values of each run (`PerQueryValues`, e.g.
 * `EvalResult.perQuery` of a run evaluated with `-c`), so the same calls work on runs the kit
 * trained and on a user's run files.
 *
 * - Spread: {@link runStability} (mean, sample sd, min, max of the per-run means).
 * - Runs needed: {@link seedsNeeded} (the t interval of the mean of n runs narrower than a
 *   tolerance) and {@link runningMeans} (the mean of the first k runs as k grows).
 * - Comparison: {@link compareOverRuns} pairs questions on each system's per-question mean
 *   over its runs ({@link meanOverRuns}), then runs the paired test over questions;
 *   {@link singleRunComparisons} shows what comparing one run of each would have said.
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
import { mean, pairedRandomizationTest, sampleSd } from "./significance.ts";
import { regularizedIncompleteBeta, studentTQuantile } from "./special.ts";
import {
  type PlotlyFigure,
  stability,
  type StabilityOptions,
  type StabilityResult,
} from "./stability.ts";
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
 * Spread of one measure over a system's runs: `stability()` of the per-query values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runStability } from "./seeds.ts";
 * const run = (a: number, b: number) => new Map([["q1", { map: a }], ["q2", { map: b }]]);
 * const s = runStability([run(1, 0.5), run(0.5, 0.5)], "map");
 * assert(s.mean === 0.625 && s.min === 0.5 && s.max === 0.75);
 * ```
 */
export function runStability(
  runs: readonly PerQueryValues[],
  measure: string,
  options: StabilityOptions = {},
): StabilityResult {
  return stability(runValues(runs, measure), options);
}

/**
 * How many runs (seeds) make the mean stable: the smallest n >= 2 for which the half-width
 * of the Student-t interval of the mean of n runs, t(1 - (1 - level)/2, n - 1) * sd / sqrt(n),
 * is at most `halfWidth`, with sd the sample sd of the runs at hand. An estimate: sd itself is
 * uncertain (with 10 runs by about a quarter of its value).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { seedsNeeded } from "./seeds.ts";
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
 * I_{d1 f / (d1 f + d2)}(d1 / 2, d2 / 2). It assumes roughly normal per-run values and is
 * sensitive to outliers: read it as a rough guide, not a verdict.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { varianceRatioTest } from "./seeds.ts";
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
 * import { runningMeans } from "./seeds.ts";
 * const r = runningMeans([1, 2, 3]);
 * assert(r[0].mean === 1 && r[0].lower === 1 && r[2].mean === 2);
 * assert(Math.abs(r[2].upper - (2 + 4.302653 / Math.sqrt(3))) < 1e-5);
 * ```
 */
export function runningMeans(perRun: readonly number[], level = 0.95): RunningMean[] {
  const q = 1 - (1 - level) / 2;
  return perRun.map((_, i) => {
    const first = perRun.slice(0, i + 1);
    const m = mean(first);
    const half = i === 0 ? 0 : studentTQuantile(q, i) * sampleSd(first) / Math.sqrt(i + 1);
    return { runs: i + 1, mean: m, lower: m - half, upper: m + half };
  });
}

const COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"];

function rgba(hex: string, alpha: number): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${n >> 16},${(n >> 8) & 255},${n & 255},${alpha})`;
}

/**
 * A Plotly figure of {@link runningMeans} per system: the mean of the first k runs against k,
 * with its t interval as a band.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runningMeanFigure } from "./seeds.ts";
 * const fig = runningMeanFigure({ a: [0.7, 0.71, 0.69] }, "MAP");
 * assert(fig.data.length === 2 && (fig.data[1].x as number[]).length === 3);
 * ```
 */
export function runningMeanFigure(
  bySystem: Record<string, readonly number[]>,
  measure: string,
  level = 0.95,
): PlotlyFigure {
  const data = Object.entries(bySystem).flatMap(([name, perRun], i) => {
    const r = runningMeans(perRun, level);
    const color = COLORS[i % COLORS.length];
    const k = r.map((p) => p.runs);
    return [
      {
        type: "scatter",
        mode: "lines",
        name: `${name} ${Math.round(level * 100)}% interval`,
        x: [...k, ...[...k].reverse()],
        y: [...r.map((p) => p.upper), ...r.map((p) => p.lower).reverse()],
        fill: "toself",
        fillcolor: rgba(color, 0.15),
        line: { color: rgba(color, 0) },
        hoverinfo: "skip",
        showlegend: false,
      },
      {
        type: "scatter",
        mode: "lines+markers",
        name,
        x: k,
        y: r.map((p) => p.mean),
        line: { color },
        hovertemplate: `${name}<br>first %{x} runs: ${measure} %{y:.4f}<extra></extra>`,
      },
    ];
  });
  return {
    data,
    layout: {
      title: { text: `${measure}: mean of the first k runs (band: ${level * 100}% t interval)` },
      xaxis: { title: { text: "runs (seeds) averaged" }, dtick: 1 },
      yaxis: { title: { text: measure } },
      legend: { orientation: "h", y: -0.2 },
      height: 380,
    },
  };
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
    [t.correction === "none" ? "p" : `p (${t.correction})`]: p.pAdjusted,
    [`p <= ${t.alpha}`]: p.significant ? "yes" : "no",
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

/** One group of runs for {@link seedSpreadFigure}: a system's runs at each setting. */
export interface SpreadSeries {
  /** Legend name. */
  name: string;
  /** The setting of each group (e.g. the label-noise percentage). */
  x: readonly number[];
  /** Per setting, the per-run values (e.g. the MAP of each seed). */
  runs: readonly (readonly number[])[];
}

/**
 * A Plotly figure of per-run values against a setting: every run as a point (systems side by
 * side), and each system's mean with a ±1 sample sd bar, joined by a line (TANDA's noise
 * experiment: MAP against the share of flipped labels).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { seedSpreadFigure } from "./seeds.ts";
 * const fig = seedSpreadFigure([{ name: "a", x: [0, 10], runs: [[0.7, 0.72], [0.6, 0.64]] }], "MAP", "noise (%)");
 * assert(fig.data.length === 2 && (fig.data[1].y as number[])[1] === 0.62);
 * ```
 */
export function seedSpreadFigure(
  series: readonly SpreadSeries[],
  measure: string,
  xTitle: string,
): PlotlyFigure {
  if (series.length === 0) throw new KitError("spread figure: no series");
  const xs = [...new Set(series.flatMap((s) => s.x))].sort((p, q) => p - q);
  const step = xs.length > 1 ? Math.min(...xs.slice(1).map((x, i) => x - xs[i])) : 1;
  // Each system gets its own slot around a setting, and its runs spread within the slot, so
  // points neither overlap nor drift into the next setting.
  const slot = step * 0.5 / series.length;
  const data = series.flatMap((s, si) => {
    if (s.x.length !== s.runs.length) {
      throw new KitError(
        `spread figure '${s.name}': ${s.x.length} settings, ${s.runs.length} run lists`,
      );
    }
    const offset = (si - (series.length - 1) / 2) * slot;
    return runTraces(s.name, si, s.x.map((x) => x + offset), s.runs, slot * 0.6, measure, true);
  });
  return {
    data,
    layout: {
      title: { text: `${measure} over runs (points), mean ± sample sd (bars)` },
      xaxis: { title: { text: xTitle }, tickvals: xs, zeroline: false },
      yaxis: { title: { text: measure } },
      legend: { orientation: "h", y: -0.2 },
      height: 400,
    },
  };
}

/**
 * A strip plot of per-run values, one column per system: every run as a point, the mean with a
 * ±1 sample sd bar beside them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { seedStripFigure } from "./seeds.ts";
 * const fig = seedStripFigure({ a: [0.7, 0.72], b: [0.6, 0.61, 0.62] }, "MAP");
 * assert(fig.data.length === 4 && (fig.data[2].x as number[]).length === 3);
 * ```
 */
export function seedStripFigure(
  bySystem: Record<string, readonly number[]>,
  measure: string,
): PlotlyFigure {
  const names = Object.keys(bySystem);
  if (names.length === 0) throw new KitError("strip figure: no system");
  return {
    data: names.flatMap((name, i) =>
      runTraces(name, i, [i], [bySystem[name]], 0.4, measure, false)
    ),
    layout: {
      title: { text: `${measure} per run (points), mean ± sample sd (bar)` },
      xaxis: {
        zeroline: false,
        tickvals: names.map((_, i) => i),
        ticktext: names,
        range: [-0.6, names.length - 0.4],
      },
      yaxis: { title: { text: measure } },
      showlegend: false,
      height: 380,
    },
  };
}

/** The traces of one system: its runs as points around each position, and mean ± sd there. */
function runTraces(
  name: string,
  index: number,
  positions: readonly number[],
  runs: readonly (readonly number[])[],
  spread: number,
  measure: string,
  joined: boolean,
): Record<string, unknown>[] {
  const color = COLORS[index % COLORS.length];
  const px: number[] = [], py: number[] = [];
  runs.forEach((values, i) => {
    values.forEach((v, k) => {
      px.push(positions[i] + (values.length > 1 ? (k / (values.length - 1) - 0.5) * spread : 0));
      py.push(v);
    });
  });
  return [
    {
      type: "scatter",
      mode: "markers",
      name: `${name}: runs`,
      x: px,
      y: py,
      marker: { color: rgba(color, 0.45), size: 6 },
      hovertemplate: `${name}<br>${measure} %{y:.4f}<extra></extra>`,
      showlegend: false,
    },
    {
      type: "scatter",
      mode: joined ? "lines+markers" : "markers",
      name,
      // the mean sits just right of its runs, so the bar does not hide them
      x: joined ? [...positions] : positions.map((p) => p + spread * 0.75),
      y: runs.map((v) => mean(v)),
      error_y: {
        type: "data",
        array: runs.map((v) => (v.length > 1 ? sampleSd(v) : 0)),
        visible: true,
      },
      line: { color },
      marker: { color, size: 9, symbol: joined ? "circle" : "diamond" },
      hovertemplate: `${name}<br>mean ${measure} %{y:.4f}<extra></extra>`,
    },
  ];
}

/**
 * One row per system and measure: runs, mean, sample sd, min and max of the per-run means
 * ({@link runStability}), for a table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { spreadRows } from "./seeds.ts";
 * const run = (v: number) => new Map([["q1", { map: v }]]);
 * const rows = spreadRows({ a: [run(0.7), run(0.8)] }, { map: "MAP" });
 * assert(rows[0].measure === "MAP" && rows[0].runs === 2 && rows[0].max === 0.8);
 * ```
 */
export function spreadRows(
  systems: Record<string, readonly PerQueryValues[]>,
  measures: Record<string, string>,
): Record<string, string | number>[] {
  return Object.entries(systems).flatMap(([system, runs]) =>
    Object.entries(measures).map(([measure, label]) => {
      const s = runStability(runs, measure);
      return {
        system,
        measure: label,
        runs: s.runs,
        mean: s.mean,
        sd: s.sd,
        min: s.min,
        max: s.max,
      };
    })
  );
}

/** The runs of one system under one setting (e.g. a label-noise level). */
export interface SettingRuns {
  /** The setting, as shown (e.g. `10%`). */
  setting: string;
  /** The system's name. */
  system: string;
  /** Per-query values of each run. */
  runs: readonly PerQueryValues[];
}

/**
 * TANDA's robustness layout: one row per setting, for each system and measure `mean ± sd` over
 * its runs, and the relative change of the first measure's mean from the `baseline` setting
 * (e.g. `-1.8%` of MAP at 10% label noise against no noise).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { robustnessRows } from "./seeds.ts";
 * const run = (v: number) => new Map([["q1", { map: v }]]);
 * const rows = robustnessRows([
 *   { setting: "0%", system: "a", runs: [run(0.8), run(0.8)] },
 *   { setting: "10%", system: "a", runs: [run(0.7), run(0.74)] },
 * ], { map: "MAP" }, "0%");
 * assert(rows[1]["a MAP"] === "0.7200 ± 0.0283" && rows[1]["a MAP change"] === "-10.0%");
 * ```
 */
export function robustnessRows(
  cells: readonly SettingRuns[],
  measures: Record<string, string>,
  baseline: string,
): Record<string, string>[] {
  const [first, firstLabel] = Object.entries(measures)[0] ?? [];
  if (first === undefined) throw new KitError("robustness table: no measure");
  const base = new Map(
    cells.filter((c) => c.setting === baseline).map((c) => [c.system, runStability(c.runs, first)]),
  );
  const rows = new Map<string, Record<string, string>>();
  for (const c of cells) {
    const row = rows.get(c.setting) ?? { setting: c.setting };
    rows.set(c.setting, row);
    for (const [m, label] of Object.entries(measures)) {
      const s = runStability(c.runs, m);
      row[`${c.system} ${label}`] = `${s.mean.toFixed(4)} ± ${s.sd.toFixed(4)}`;
    }
    const b = base.get(c.system);
    if (!b) throw new KitError(`robustness table: ${c.system} has no runs at '${baseline}'`);
    const change = (runStability(c.runs, first).mean / b.mean - 1) * 100;
    row[`${c.system} ${firstLabel} change`] = `${change > 0 ? "+" : ""}${change.toFixed(1)}%`;
  }
  return [...rows.values()];
}
