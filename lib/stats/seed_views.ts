/**
 * Figures and tables of systems with several runs (notebook 07 and the report): the running
 * mean as runs are added, each run's value around its system's mean, and per-setting spread
 * and robustness tables.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import type { PerQueryValues } from "./compare.ts";
import { mean, sampleSd } from "./significance.ts";
import type { PlotlyFigure } from "./stability.ts";
import { measureSpreadOverRuns } from "./seeds.ts";
import { runningMeans } from "./seeds_needed.ts";

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
 * import { runningMeanFigure } from "./seed_views.ts";
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
 * import { seedSpreadFigure } from "./seed_views.ts";
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
 * import { seedStripFigure } from "./seed_views.ts";
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
 * ({@link measureSpreadOverRuns}), for a table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { spreadRows } from "./seed_views.ts";
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
      const s = measureSpreadOverRuns(runs, measure);
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
 * import { robustnessRows } from "./seed_views.ts";
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
    cells.filter((c) => c.setting === baseline).map((
      c,
    ) => [c.system, measureSpreadOverRuns(c.runs, first)]),
  );
  const rows = new Map<string, Record<string, string>>();
  for (const c of cells) {
    const row = rows.get(c.setting) ?? { setting: c.setting };
    rows.set(c.setting, row);
    for (const [m, label] of Object.entries(measures)) {
      const s = measureSpreadOverRuns(c.runs, m);
      row[`${c.system} ${label}`] = `${s.mean.toFixed(4)} ± ${s.sd.toFixed(4)}`;
    }
    const b = base.get(c.system);
    if (!b) throw new KitError(`robustness table: ${c.system} has no runs at '${baseline}'`);
    const change = (measureSpreadOverRuns(c.runs, first).mean / b.mean - 1) * 100;
    row[`${c.system} ${firstLabel} change`] = `${change > 0 ? "+" : ""}${change.toFixed(1)}%`;
  }
  return [...rows.values()];
}
