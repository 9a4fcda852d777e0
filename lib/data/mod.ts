/**
 * Corpora: the `DATASETS` table (a corpus is one entry: files and checksums, splits, reader,
 * published sizes), readers (WikiQA TSV, TREC-QA jacana XML and JSONL), the filter settings,
 * named splits, statistics, and fetching with checksums. The fetcher's helpers (checksums,
 * install markers) stay in their modules.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadSplit, splitStats } from "./mod.ts";
 * const { questions } = await loadSplit("trecqa", "dev", { filter: "clean", dir: "samples" });
 * assert(splitStats(questions).questions === questions.length);
 * ```
 *
 * @module
 */
export type { As2Dataset, Candidate, DatasetName, Question } from "./types.ts";
export { readWikiQaTsv } from "./wikiqa.ts";
export { readJacanaXml, readTrecQaJsonl } from "./trecqa.ts";
export { applyFilter, describeFilter, FILTERS, protocolFilter, questionKind } from "./filters.ts";
export type { FilterName, FilterReport } from "./filters.ts";
export { loadSplit, readSplit, splitFile } from "./splits.ts";
export type { LoadedSplit, LoadOptions } from "./splits.ts";
export { splitStats } from "./stats.ts";
export type { SplitStats } from "./stats.ts";
export { datasetDir, defaultCacheDir, isInstalled, SAMPLES_DIR } from "./paths.ts";
export { fetchDataset } from "./fetch.ts";
export { addDataset, datasetNames, DATASETS, findDataset, SPLITS } from "./datasets.ts";
export type { DatasetEntry, FileSpec, PublishedSize, SplitEntry, Upstream } from "./datasets.ts";
export type { FetchOptions, FetchReport } from "./fetch.ts";
export { checkRunAgainstSplit, runWarnings } from "./run_checks.ts";
export type { QuestionCandidate, RunCheck, RunCheckOptions } from "./run_checks.ts";
// Runs as they circulate: mapped to the corpus ids, read and checked for a split.
export { numberingNote, renumberRun } from "./run_numbering.ts";
export type { RenumberedRun, RenumberOptions, RunNumbering, SplitOrder } from "./run_numbering.ts";
export { MIN_SHARED_QUESTIONS, readRunForSplit } from "./split_runs.ts";
export type { SplitRun, SplitRunOptions } from "./split_runs.ts";
