/**
 * Ranking metrics with trec_eval's semantics: the measure table (`measures/`), the evaluation
 * in memory (`evaluate.ts`) and of files (`evaluate_files.ts`), reading and writing runs and
 * qrels (`read_files.ts`, `write_files.ts`, `json_files.ts`), the output formats (`output.ts`)
 * and the releases reproduced (`release.ts`). The engine behind them (`engine/`: the qrels
 * index, the run reader, the judge, the halves, the WebAssembly parsers) stays internal.
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
// Evaluating: in memory, and files as trec_eval reads them.
export { evaluate } from "./evaluate.ts";
export { evaluateTrecFiles } from "./evaluate_files.ts";
export type { FileEvalOptions } from "./evaluate_files.ts";
export type { EvalOptions, EvalResult, OutputLine, Qrels, Run } from "./types.ts";
export { DEFAULT_RELEASE, RELEASES, type TrecRelease, trecScore } from "./release.ts";
// Runs and qrels: read, written, made from a corpus.
export { readQrels, readRun, readRunWithId } from "./read_files.ts";
export type { ReadOptions } from "./read_files.ts";
export { readJsonQrels, readJsonRun } from "./json_files.ts";
export { formatQrels, formatRun, writeQrels, writeRun } from "./write_files.ts";
export type { FileFormat, WriteOptions, WriteRunOptions } from "./write_files.ts";
export { qrelsFromQuestions, runFromScores } from "./convert.ts";
export { rankDocuments } from "./rank.ts";
export { bestRun, tiedRun, worstRun } from "./reference_runs.ts";
// The output formats: trec_eval's text, JSON, CSV.
export { formatCsv, formatJson, formatTrecEval, trecLine } from "./output.ts";
// The measure table.
export { DEFAULT_MEASURES, findMeasure, MEASURES } from "./measures/table.ts";
export { defineMeasure } from "./measures/measure.ts";
export type { Measure, MeasureOptions, RankedQuery } from "./measures/measure.ts";
export { selectMeasures } from "./measures/select.ts";
// The answer-selection protocol's measures (MAP, MRR, P@1, nDCG@10) and their labels.
export {
  labelLegend,
  MEASURE_NAMES,
  measureLabel,
  PROTOCOL_MEASURES,
} from "./protocol_measures.ts";
export type { MeasureNames, ProtocolMeasure, ProtocolMeasureName } from "./protocol_measures.ts";
