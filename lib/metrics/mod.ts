/**
 * Ranking metrics with trec_eval's semantics: the measure table, the evaluator,
 * TREC file readers and writers, and trec_eval's output format.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluate } from "./mod.ts";
 * const qrels = new Map([["q1", new Map([["a", 1], ["b", 0]])]]);
 * const run = new Map([["q1", new Map([["a", 0.1], ["b", 0.9]])]]);
 * assert(evaluate(qrels, run, ["recip_rank"]).summary.recip_rank === 0.5);
 * ```
 *
 * @module
 */
export * from "./measures.ts";
export * from "./rank.ts";
export * from "./evaluate.ts";
export * from "./trec_files.ts";
export * from "./format.ts";
export * from "./convert.ts";
export { bestRun, tiedRun, worstRun } from "./reference_runs.ts";
export {
  type FileFormat,
  formatFor,
  formatQrels,
  formatRun,
  type WriteOptions,
  writeQrels,
  writeRun,
  type WriteRunOptions,
} from "./trec_write.ts";
export {
  DEFAULT_RELEASE,
  parseRelease,
  RELEASES,
  type TrecRelease,
  trecScore,
} from "./trec_format.ts";
export { formatScoresJson, isJsonSource, readJsonQrels, readJsonRun } from "./trec_json.ts";
