/**
 * Figures of systems with several runs (seeds; notebook 09): each run's value around its
 * system's mean, the running mean as runs are added, per-run values against a setting (TANDA's
 * label-noise experiment) and a box per system. The numbers come from lib/stats
 * (`spreadOverRuns`, `runningMeans`); this module only draws them.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { mean, sampleSd } from "../stats/significance.ts";
import type { StabilityResult } from "../stats/stability.ts";
import { runningMeans } from "../stats/seeds_needed.ts";
import type { Figure, Trace } from "./figures.ts";

const COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"];

function rgba(hex: string, alpha: number): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${n >> 16},${(n >> 8) & 255},${n & 255},${alpha})`;
}

/**
 * The y axis of a figure of per-run values: they differ in the third decimal, so the axis is
 * zoomed to them, and its title says where it starts whenever that is not 0 (a bar of 0.68
 * against 0.67 on an axis from 0.66 looks twice as tall).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { zoomedYAxis } from "./run_figures.ts";
 * const axis = zoomedYAxis("MAP", [0.681, 0.69, 0.7]);
 * assert.deepEqual(axis.range, [0.679, 0.702]);
 * assert.equal(axis.title.text, "MAP (axis from 0.679, not 0)");
 * assert.deepEqual(zoomedYAxis("drop", [0, 0.02]).range, [0, 0.022]);
 * ```
 */
export function zoomedYAxis(
  measure: string,
  values: readonly number[],
): { title: { text: string }; range: [number, number] } {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return { title: { text: measure }, range: [0, 1] };
  const lo = Math.min(...finite), hi = Math.max(...finite);
  const pad = Math.max((hi - lo) * 0.1, 0.001);
  const round = (x: number, up: boolean) => (up ? Math.ceil : Math.floor)(x * 1000 - 1e-9) / 1000;
  let low = round(lo - pad, false);
  if (lo >= 0 && low < 0) low = 0; // values near 0: the axis starts at 0
  return {
    title: { text: low > 0 ? `${measure} (axis from ${low}, not 0)` : measure },
    range: [low, round(hi + pad, true)],
  };
}

/**
 * A Plotly figure of {@link runningMeans} per system: the mean of the first k runs against k,
 * with its t interval as a band.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runningMeanFigure } from "./run_figures.ts";
 * const fig = runningMeanFigure({ a: [0.7, 0.71, 0.69] }, "MAP");
 * assert(fig.data.length === 2 && (fig.data[1].x as number[]).length === 3);
 * ```
 */
export function runningMeanFigure(
  bySystem: Record<string, readonly number[]>,
  measure: string,
  level = 0.95,
): Figure {
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
      // The axis spans the runs' own values: the band of the first few runs (a t interval
      // from 2 or 3 values) is far wider and runs off it.
      yaxis: zoomedYAxis(measure, Object.values(bySystem).flat()),
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
 * import { seedSpreadFigure } from "./run_figures.ts";
 * const fig = seedSpreadFigure([{ name: "a", x: [0, 10], runs: [[0.7, 0.72], [0.6, 0.64]] }], "MAP", "noise (%)");
 * assert(fig.data.length === 2 && (fig.data[1].y as number[])[1] === 0.62);
 * ```
 */
export function seedSpreadFigure(
  series: readonly SpreadSeries[],
  measure: string,
  xTitle: string,
): Figure {
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
      yaxis: zoomedYAxis(measure, series.flatMap((s) => s.runs.flatMap(withSd))),
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
 * import { seedStripFigure } from "./run_figures.ts";
 * const fig = seedStripFigure({ a: [0.7, 0.72], b: [0.6, 0.61, 0.62] }, "MAP");
 * assert(fig.data.length === 4 && (fig.data[2].x as number[]).length === 3);
 * ```
 */
export function seedStripFigure(
  bySystem: Record<string, readonly number[]>,
  measure: string,
): Figure {
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
      yaxis: zoomedYAxis(measure, Object.values(bySystem).flatMap(withSd)),
      showlegend: false,
      height: 380,
    },
  };
}

/** The values a system's runs and its mean ± sd bar reach (what the y axis must show). */
function withSd(values: readonly number[]): number[] {
  const m = mean(values), sd = values.length > 1 ? sampleSd(values) : 0;
  return [...values, m - sd, m + sd];
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
): Trace[] {
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
 * A Plotly figure of the per-run values of several systems: one box per system with every run
 * drawn as a point, unstable systems in red.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stabilityFigure } from "./run_figures.ts";
 * import { spreadOverRuns } from "../stats/stability.ts";
 * const fig = stabilityFigure({ tanda: spreadOverRuns([[0.9], [0.91]]), ft: spreadOverRuns([[0.7], [0.9]]) }, "MAP");
 * assert(fig.data.length === 2 && fig.data[1].marker !== undefined);
 * ```
 */
export function stabilityFigure(
  bySystem: Record<string, StabilityResult>,
  measure: string,
): Figure {
  return {
    data: Object.entries(bySystem).map(([name, s]) => ({
      type: "box",
      name: `${name}${s.unstable ? " (unstable)" : ""}`,
      y: s.perRun,
      boxpoints: "all",
      jitter: 0.3,
      pointpos: 0,
      marker: { color: s.unstable ? "#d62728" : "#1f77b4" },
      hovertemplate: `${name}<br>${measure} %{y:.4f}<extra></extra>`,
    })),
    layout: {
      title: { text: `${measure} across runs (mean ± sample sd per system)` },
      yaxis: zoomedYAxis(measure, Object.values(bySystem).flatMap((s) => s.perRun)),
      showlegend: false,
      annotations: Object.entries(bySystem).map(([name, s]) => ({
        x: `${name}${s.unstable ? " (unstable)" : ""}`,
        y: s.max,
        yshift: 14,
        showarrow: false,
        text: `${s.mean.toFixed(4)} ± ${s.sd.toFixed(4)}`,
      })),
    },
  };
}
