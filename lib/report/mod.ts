/**
 * What a notebook of the report uses: its parameters (`KIT_DATA`, `KIT_MODEL`,
 * `KIT_BACKEND`), the corpus folder they name, headline numbers (shown in the notebook
 * and collected onto the report's index page), and the published numbers it compares with.
 *
 * Building the report (headless execution that keeps every output, HTML export, the index
 * page, the PDF and the browser checks) is the `report` command (`lib/cli/report.ts` calls
 * `build.ts`); its parts stay internal to this folder.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { corpusDir, headline, notebookParams } from "./mod.ts";
 * const params = notebookParams({ KIT_DATA: "sample" });
 * assert(corpusDir(params, "wikiqa").endsWith("data/samples"));
 * const shown = headline("WikiQA test", { MAP: 0.6 })[Symbol.for("Jupyter.display")]();
 * assert(String(shown["text/html"]).includes("0.6000"));
 * ```
 *
 * @module
 */
export { corpusDir, DEFAULT_MODEL, notebookParams, scoringModel } from "./params.ts";
export type { KitParams } from "./params.ts";
export { headline, HEADLINE_MIME, headlineBundle, headlinesOf } from "./headline.ts";
export type { Headline } from "./headline.ts";
export {
  PUBLISHED_QRCD_RESULTS,
  PUBLISHED_QRCD_SIZES,
  PUBLISHED_RESULTS,
  PUBLISHED_SIZES,
} from "./published.ts";
export type { PublishedResult, PublishedSize } from "./published.ts";
export { PAGE_SECTIONS, systemsPage } from "./systems_page.ts";
export type { PageSection, SystemsPage, SystemsPageOptions } from "./systems_page.ts";
