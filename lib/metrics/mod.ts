/**
 * Ranking metrics with trec_eval's semantics: the measure table, the evaluator,
 * TREC file readers and writers, and trec_eval's output format. The engine behind
 * `evaluateTrecFiles` (qrels index, query tables, run reader, judge) stays internal.
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
export { evaluate } from "./evaluate.ts";
export type { EvalOptions, EvalResult, OutputLine, Qrels, Run } from "./evaluate.ts";
export { evaluateTrecFiles, readQrels, readRun, readRunWithId } from "./evaluate_files.ts";
export type { FileEvalOptions, ReadOptions } from "./evaluate_files.ts";
export { readJsonQrels, readJsonRun } from "./json_files.ts";
export { formatQrels, formatRun, writeQrels, writeRun } from "./write_files.ts";
export type { FileFormat, WriteOptions, WriteRunOptions } from "./write_files.ts";
export { formatCsv, formatJson, formatTrecEval, trecLine } from "./output.ts";
export { DEFAULT_RELEASE, RELEASES, type TrecRelease, trecScore } from "./engine/reading_rules.ts";
export { qrelsFromQuestions, runFromScores } from "./convert.ts";
export { rankDocuments } from "./rank.ts";
export { bestRun, tiedRun, worstRun } from "./reference_runs.ts";
export { DEFAULT_MEASURES, defineMeasure, findMeasure, MEASURES } from "./measures.ts";
export { selectMeasures } from "./measures.ts";
export type { Measure, MeasureOptions, RankedQuery } from "./measures.ts";
// The answer-selection protocol's measures (MAP, MRR, P@1, nDCG@10) and their labels.
export {
  labelLegend,
  MEASURE_NAMES,
  measureLabel,
  PROTOCOL_MEASURES,
} from "./protocol_measures.ts";
export type { MeasureNames, ProtocolMeasure, ProtocolMeasureName } from "./protocol_measures.ts";
