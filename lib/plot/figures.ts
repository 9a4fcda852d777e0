/**
 * Plotly figure builders for the kit's plots. A figure is plain JSON (`{data, layout}`,
 * Plotly's own schema), so it can be displayed in a notebook, saved, or tested without a
 * browser. The builders cover what the notebooks draw: distributions (histogram),
 * per-system summaries with error bars (bar), relations between two per-question
 * quantities (scatter) and curves over a parameter (line).
 *
 * @module
 */
import { KitError } from "../errors.ts";

/** One Plotly trace (Plotly's schema: `type`, `x`, `y`, ...). */
export type Trace = Record<string, unknown>;

/** A Plotly figure: traces and a layout. */
export interface Figure {
  /** The traces, drawn in order. */
  data: Trace[];
  /** Axis titles, size, fonts, ... */
  layout: Record<string, unknown>;
}

/** Options every builder takes. */
export interface FigureOptions {
  /** Figure title. */
  title?: string;
  /** x-axis title. */
  xTitle?: string;
  /** y-axis title. */
  yTitle?: string;
  /** Height in pixels (default 380). */
  height?: number;
  /** Width in pixels (default: the container's width). */
  width?: number;
  /** x-axis range. */
  xRange?: [number, number];
  /** y-axis range. */
  yRange?: [number, number];
}

/** A font list that covers Latin and Arabic script (Debian `fonts-noto-core`). */
export const FONT_FAMILY =
  "Noto Sans, Noto Sans Arabic, Noto Naskh Arabic, DejaVu Sans, sans-serif";

function baseLayout(options: FigureOptions): Record<string, unknown> {
  const axis = (title: string | undefined, range: [number, number] | undefined) => ({
    ...(title ? { title: { text: title } } : {}),
    ...(range ? { range } : {}),
    automargin: true,
  });
  return {
    ...(options.title ? { title: { text: options.title } } : {}),
    xaxis: axis(options.xTitle, options.xRange),
    yaxis: axis(options.yTitle, options.yRange),
    height: options.height ?? 380,
    ...(options.width ? { width: options.width } : {}),
    margin: { l: 60, r: 20, t: options.title ? 50 : 20, b: 50 },
    font: { family: FONT_FAMILY },
    legend: { orientation: "h", y: -0.2 },
  };
}

function checkNumbers(values: readonly number[], what: string): void {
  for (const v of values) {
    if (typeof v !== "number" || Number.isNaN(v)) {
      throw new KitError(`${what}: expected numbers, found ${String(v)}`);
    }
  }
}

/** Options of {@link histogram}. */
export interface HistogramOptions extends FigureOptions {
  /**
   * Bin width. With it the kit bins the values itself, as NumPy does: bins
   * `[start + i * binSize, start + (i + 1) * binSize)`, the last one closed, ending at the
   * first edge at or above the largest value (so values in [0, 1] with width 0.1 give ten
   * bins, the last [0.9, 1]). Every series shares the bins. Without it Plotly picks bins.
   */
  binSize?: number;
  /** Left edge of the first bin (default: the smallest value). */
  start?: number;
  /** Normalize each series to fractions instead of counts. */
  fraction?: boolean;
}

/**
 * Counts of `values` in `bins` bins of width `size` from `start` (NumPy's rule: each bin
 * is half-open except the last, which is closed). A value outside the bins is an error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { binCounts } from "./figures.ts";
 * assert.deepEqual(binCounts([0, 0.5, 1, 1], 0, 0.5, 2), [1, 3]);
 * ```
 */
export function binCounts(
  values: readonly number[],
  start: number,
  size: number,
  bins: number,
): number[] {
  const counts = new Array(bins).fill(0);
  for (const v of values) {
    // A small tolerance: 0.3 / 0.1 is 2.9999999999999996 in floating point.
    const i = Math.floor((v - start) / size + 1e-9);
    if (i < 0 || i > bins) throw new KitError(`histogram: value ${v} outside the bins`);
    counts[Math.min(i, bins - 1)]++;
  }
  return counts;
}

const round = (x: number) => +x.toPrecision(12);

/**
 * A histogram of one or more series of values with shared bins. Several series are drawn as
 * grouped bars, side by side in each bin (never overlaid: translucent overlays mix into a
 * third colour no legend names).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { histogram } from "./figures.ts";
 * const fig = histogram({ BM25: [0, 0.5, 1, 1], random: [0.1, 0.2] }, { binSize: 0.1, start: 0 });
 * assert(fig.data.length === 2 && (fig.data[0].y as number[]).length === 10);
 * assert((fig.data[0].y as number[])[9] === 2); // the last bin [0.9, 1] holds both 1s
 * assert(fig.layout.barmode === "group" && fig.data[0].opacity === undefined);
 * ```
 */
export function histogram(
  series: Record<string, readonly number[]>,
  options: HistogramOptions = {},
): Figure {
  const entries = Object.entries(series);
  if (entries.length === 0) throw new KitError("histogram: no series");
  const all = entries.flatMap(([name, values]) => {
    checkNumbers(values, `histogram series '${name}'`);
    return values;
  });
  const grouped = entries.length > 1;
  const layout = {
    ...baseLayout({ yTitle: options.fraction ? "fraction" : "count", ...options }),
    barmode: grouped ? "group" : "overlay",
  };
  const size = options.binSize;
  if (!size) {
    return {
      data: entries.map(([name, values]) => ({
        type: "histogram",
        name,
        x: [...values],
        ...(options.fraction ? { histnorm: "probability" } : {}),
      })),
      layout,
    };
  }
  if (!(size > 0)) throw new KitError(`histogram: binSize must be positive, got ${size}`);
  const start = options.start ?? (all.length ? Math.min(...all) : 0);
  const max = all.length ? Math.max(...all) : start;
  const bins = Math.max(1, Math.ceil((max - start) / size - 1e-9));
  const lows = Array.from({ length: bins }, (_, i) => round(start + i * size));
  const ranges = lows.map((lo, i) => `[${lo}, ${round(lo + size)}${i === bins - 1 ? "]" : ")"}`);
  return {
    data: entries.map(([name, values]) => {
      const counts = binCounts(values, start, size, bins);
      return {
        type: "bar",
        name,
        x: lows.map((lo) => round(lo + size / 2)),
        y: options.fraction && values.length ? counts.map((c) => c / values.length) : counts,
        // One series fills its bin; grouped series share it (Plotly splits the bin's width).
        ...(grouped ? {} : { width: size }),
        customdata: ranges,
        hovertemplate: "%{customdata}: %{y}",
      };
    }),
    layout: { ...layout, bargap: grouped ? 0.15 : 0, bargroupgap: 0 },
  };
}

/** One series of a bar chart. */
export interface BarSeries {
  /** Legend name. */
  name: string;
  /** One value per category. */
  values: readonly number[];
  /** Symmetric error (e.g. a standard deviation), one per category. */
  errors?: readonly number[];
  /** Asymmetric interval (e.g. a bootstrap CI): lower and upper bounds per category. */
  interval?: { low: readonly number[]; high: readonly number[] };
}

/**
 * A grouped bar chart: one group per category, one bar per series, optional error bars.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bar } from "./figures.ts";
 * const fig = bar(["MAP", "MRR"], [{ name: "BM25", values: [0.6, 0.62], errors: [0.02, 0.02] }]);
 * assert((fig.data[0].error_y as { array: number[] }).array[1] === 0.02);
 * ```
 */
export function bar(
  categories: readonly string[],
  series: readonly BarSeries[],
  options: FigureOptions = {},
): Figure {
  if (series.length === 0) throw new KitError("bar: no series");
  const data = series.map((s) => {
    if (s.values.length !== categories.length) {
      throw new KitError(
        `bar series '${s.name}': ${s.values.length} values for ${categories.length} categories`,
      );
    }
    checkNumbers(s.values, `bar series '${s.name}'`);
    let error_y: Record<string, unknown> | undefined;
    if (s.errors) {
      checkNumbers(s.errors, `bar series '${s.name}' errors`);
      error_y = { type: "data", array: [...s.errors], visible: true };
    } else if (s.interval) {
      error_y = {
        type: "data",
        symmetric: false,
        array: s.interval.high.map((h, i) => h - s.values[i]),
        arrayminus: s.interval.low.map((l, i) => s.values[i] - l),
        visible: true,
      };
    }
    return {
      type: "bar",
      name: s.name,
      x: [...categories],
      y: [...s.values],
      ...(error_y ? { error_y } : {}),
    };
  });
  return { data, layout: { ...baseLayout(options), barmode: "group" } };
}

/** One series of points. */
export interface PointSeries {
  /** Legend name. */
  name: string;
  /** x coordinates. */
  x: readonly number[];
  /** y coordinates, as many as x. */
  y: readonly number[];
  /** Hover text per point (e.g. the question id). */
  text?: readonly string[];
}

function pointTraces(series: readonly PointSeries[], mode: string, what: string): Trace[] {
  if (series.length === 0) throw new KitError(`${what}: no series`);
  return series.map((s) => {
    if (s.x.length !== s.y.length) {
      throw new KitError(`${what} series '${s.name}': ${s.x.length} x but ${s.y.length} y`);
    }
    checkNumbers(s.x, `${what} series '${s.name}' x`);
    checkNumbers(s.y, `${what} series '${s.name}' y`);
    return {
      type: "scatter",
      mode,
      name: s.name,
      x: [...s.x],
      y: [...s.y],
      ...(s.text ? { text: [...s.text], hoverinfo: "x+y+text" } : {}),
    };
  });
}

/**
 * A scatter plot of one or more point series.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scatter } from "./figures.ts";
 * const fig = scatter([{ name: "q", x: [3, 10], y: [1, 0.2], text: ["q1", "q2"] }]);
 * assert(fig.data[0].mode === "markers");
 * ```
 */
export function scatter(series: readonly PointSeries[], options: FigureOptions = {}): Figure {
  return { data: pointTraces(series, "markers", "scatter"), layout: baseLayout(options) };
}

/**
 * Curves (lines with markers) over a shared parameter, e.g. precision at k for k = 1..10.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { line } from "./figures.ts";
 * const fig = line([{ name: "BM25", x: [1, 2, 3], y: [0.5, 0.4, 0.3] }], { xTitle: "k" });
 * assert(fig.data[0].mode === "lines+markers");
 * ```
 */
export function line(series: readonly PointSeries[], options: FigureOptions = {}): Figure {
  return { data: pointTraces(series, "lines+markers", "line"), layout: baseLayout(options) };
}
