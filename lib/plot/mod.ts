/**
 * Plots and tables for notebooks: Plotly figure builders, the MIME bundle that shows a
 * figure in every Jupyter frontend and in exported HTML, HTML tables, and `display`, which
 * every notebook output goes through (`await display(x)` returns once the output has left
 * the kernel).
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
  DISPLAY,
  figureBundle,
  figureHtml,
  isFigure,
  LIBRARY_MARK,
  libraryScript,
  NOTE_NO_LIBRARY,
  NOTE_NO_SCRIPTS,
  PLOT_CONFIG,
  PLOTLY_MIME,
  withStaticImage,
} from "./display.ts";
export type { BundleOptions, Displayable, MimeBundle } from "./display.ts";
export { display, embedLibraryAgain, markdown } from "./show.ts";
export type { DisplayOptions, Showable } from "./show.ts";
export { table, tableBundle } from "./table.ts";
export type { Row, TableOptions } from "./table.ts";
export { PLOTLY_SPECIFIER, PLOTLY_VERSION, plotlyJsPath, plotlyJsSource } from "./plotlyjs.ts";
