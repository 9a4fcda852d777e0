/**
 * Reports from the notebooks: headless execution that keeps every output, notebook
 * parameters, headline numbers, HTML export, the index page, the PDF, and the browser
 * checks of the result.
 *
 * @module
 */
export { buildReport, listNotebooks, reportOk } from "./build.ts";
export type { NotebookEntry, ReportOptions, ReportResult } from "./build.ts";
export { executeNotebook, jupyterPython, paramsEnv, RUNNER } from "./execute.ts";
export type { ExecuteOptions, ExecutionResult, NotebookParams } from "./execute.ts";
export { corpusDir, DEFAULT_MODEL, notebookParams, scoringModel } from "./params.ts";
export type { KitParams } from "./params.ts";
export { headline, HEADLINE_MIME, headlineBundle, headlinesOf } from "./headline.ts";
export type { Headline } from "./headline.ts";
export { exportHtml, notebookTitle, TEMPLATES_DIR } from "./export.ts";
export { indexHtml } from "./index_page.ts";
export type { IndexEntry, IndexInfo, IndexSystem } from "./index_page.ts";
export { addStaticImages, figureRenderer, plotlyOutputs } from "./static_images.ts";
export type { FigureRenderer, NotebookJson } from "./static_images.ts";
export { CHROMIUM_ARGS, chromiumPath, launchBrowser, offlinePage } from "./browser.ts";
export type { BrowserSession, PageLog } from "./browser.ts";
export {
  arabicFontFamilies,
  checkPage,
  checkPdf,
  checkStaticImages,
  countTracePixels,
  pageOk,
} from "./check.ts";
export type { FigureCheck, PageCheck, PdfCheck } from "./check.ts";
export { PRINT_WIDTH_PX, printLoadedPage, printPage, unitePdfs } from "./pdf.ts";
