/**
 * Corpora: readers (WikiQA TSV, TREC-QA jacana XML and JSONL), the filter settings,
 * named splits, statistics, and fetching with checksums.
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
export * from "./types.ts";
export * from "./wikiqa.ts";
export * from "./trecqa.ts";
export * from "./filters.ts";
export * from "./splits.ts";
export * from "./stats.ts";
export * from "./paths.ts";
export * from "./manifest.ts";
export * from "./fetch.ts";
export {
  fileSha256,
  fileStamp,
  type InstalledFile,
  type InstallMarkerData,
  readInstallMarker,
  verifyInstalled,
} from "./installed.ts";
export { checkRunAgainstSplit, runWarnings } from "./run_checks.ts";
export type { QuestionCandidate, RunCheck, RunCheckOptions } from "./run_checks.ts";
