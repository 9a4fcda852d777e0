/**
 * What a notebook of the report uses: its parameters (`KIT_DATA`, `KIT_MODEL`,
 * `KIT_BACKEND`), the corpus folder they name, headline numbers (shown in the notebook
 * and collected onto the report's index page), and the published numbers it compares with;
 * and the systems report: `evaluateSystems(spec)` computes every number of page 00 as plain
 * data, `showSection(report, name)` shows one section of it (docs/report.md).
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
export { corpusDir, DEFAULT_MODEL, notebookParams, scoringModel } from "./notebook/params.ts";
export type { KitParams } from "./notebook/params.ts";
export { headline, HEADLINE_MIME, headlineBundle, headlinesOf } from "./notebook/headline.ts";
export type { Headline } from "./notebook/headline.ts";
export { PUBLISHED_RESULTS, PUBLISHED_SIZES, RELEASED_RUN_SCORES } from "./systems/published.ts";
export type { PublishedResult, PublishedSize } from "./systems/published.ts";
export type { PublishedGap } from "./systems/published.ts";
export { NEAR_PUBLISHED, publishedGaps } from "./systems/published.ts";
// The systems report (page 00): a spec in, every number out as plain data, shown by section.
export { KIT_BASELINES, readSpecFile, resolveSpec } from "./systems/spec.ts";
export type { ResolvedSpec, ResolvedSystem, SpecSystem, SystemsSpec } from "./systems/spec.ts";
export { evaluateSystems, readSystemsReport, SECTIONS } from "./systems/report.ts";
export { chooseCorpus } from "./systems/corpus.ts";
export { SYSTEMS_REPORT_ENV, systemsReportFor } from "./systems/report.ts";
export type { EvaluateSystemsOptions, PairReport, ReportCorpus } from "./systems/report.ts";
export type { ReportSystem, SectionName, SystemsReport } from "./systems/report.ts";
export { sectionItems, showSection } from "./systems/show.ts";
export type { ReleasedRunScore } from "./systems/published.ts";
