/**
 * Plots and tables for notebooks: Plotly figure builders, the MIME bundle that shows a
 * figure in every Jupyter frontend and in exported HTML, and HTML tables.
 *
 * @module
 */
export { bar, FONT_FAMILY, histogram, line, scatter } from "./figures.ts";
export type {
  BarSeries,
  Figure,
  FigureOptions,
  HistogramOptions,
  PointSeries,
  Trace,
} from "./figures.ts";
export {
  describeFigure,
  display,
  embedLibraryAgain,
  figureBundle,
  figureHtml,
  libraryScript,
  PLOT_CONFIG,
  PLOTLY_MIME,
  withStaticImage,
} from "./display.ts";
export type { BundleOptions, Displayable, MimeBundle } from "./display.ts";
export { table, tableBundle } from "./table.ts";
export type { Row, TableOptions } from "./table.ts";
export { PLOTLY_SPECIFIER, PLOTLY_VERSION, plotlyJsPath, plotlyJsSource } from "./plotlyjs.ts";
