/**
 * Plots and tables for notebooks, one figure type (`Figure`, Plotly's plain JSON): the
 * builders, the MIME bundle that shows a figure in every Jupyter frontend and in exported
 * HTML, HTML tables, and `display`, which every notebook output goes through
 * (`await display(x)` returns once the output has left the kernel). The embedding details
 * (plotly.js's source, marks and notes the report's checks look for) stay in their modules.
 *
 * @module
 */
// General figures: distributions, bars with error bars, points, curves.
export { bar, histogram, line, scatter } from "./figures.ts";
export type { BarSeries, Figure, FigureOptions } from "./figures.ts";
export type { HistogramOptions, PointSeries, Trace } from "./figures.ts";
// Systems with several runs (seeds): the numbers come from lib/stats.
export { runningMeanFigure, seedSpreadFigure, seedStripFigure } from "./run_figures.ts";
export { stabilityFigure } from "./run_figures.ts";
export type { SpreadSeries } from "./run_figures.ts";
// Showing: every output through `display`; tables; the MIME bundle of a figure.
export { display, embedLibraryAgain, markdown } from "./show.ts";
export type { DisplayOptions, Showable } from "./show.ts";
export { table, tableBundle } from "./table.ts";
export type { Row, TableOptions } from "./table.ts";
export { figureBundle, figureHtml, PLOTLY_MIME } from "./display.ts";
export type { BundleOptions, Displayable, MimeBundle } from "./display.ts";
