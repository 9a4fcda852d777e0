/**
 * Qur'an QA 2023 Task A (passage retrieval): qrels and run files read and checked as the
 * official submission checker and scorer read them, the official MAP@10 and MRR to the last bit
 * (`QQA23_TaskA_eval.py`, zero-answer rules included) beside the complete protocol, and
 * abstention with its threshold sweep. docs/qqa23.md works each rule through.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluateQqa23, parseQqa23Qrels, parseQqa23Run } from "./mod.ts";
 * const qrels = parseQqa23Qrels("1\t0\t2:1-5\t1\n2\t0\t-1\t1\n");
 * const run = parseQqa23Run("1\tQ0\t2:1-5\t1\t0.9\tme\n2\tQ0\t-1\t1\t0\tme\n");
 * const r = evaluateQqa23(qrels, run);
 * assert.deepEqual(r.official, { map_cut_10: 1, recip_rank: 1, numQ: 2 });
 * assert.deepEqual(r.differences, []);
 * ```
 *
 * @module
 */
// Qrels: questions with answers and zero-answer questions, as the scorer reads them.
export { parseQqa23Qrels, readQqa23Qrels } from "./qrels.ts";
export type { Qqa23Qrels } from "./qrels.ts";
// Run files: the submission checker's rules (refusals) and the kit's warnings.
export { checkQqa23FileName, parseQqa23Run, qqa23RunWarnings, readQqa23Run } from "./run_file.ts";
export { MAX_PASSAGES, SCORE_PATTERN } from "./run_file.ts";
export type { Qqa23Run, Qqa23RunLike, Qqa23RunLine } from "./run_file.ts";
// The official scorer, to the bit, and the complete protocol.
export { evaluateQqa23, numpyMean, numpyPairwiseSum } from "./official.ts";
export type { Qqa23Evaluation, Qqa23Options, Qqa23QuestionRow } from "./official.ts";
export type { Qqa23Summary, Qqa23Values } from "./official.ts";
// Abstention: -1 below a threshold, the sweep, the pick on dev.
export { abstain, abstentionSweep, pickThreshold, sweepThresholds } from "./abstain.ts";
export type { AbstainedRun, AbstainLine, SweepRow } from "./abstain.ts";
// The corpus entry (pinned files, splits), registered by the task (./task.ts).
export { QQA23_DATASET, QQA23_ZIP } from "./dataset.ts";
// Reading the files of an installed corpus.
export {
  isQqa23Split,
  loadQqa23Split,
  QQA23_SPLITS,
  qqa23QrelsPath,
  qqa23SplitFiles,
  qqa23Stats,
  readCollection,
  readQuestions,
} from "./load.ts";
export type {
  Qqa23Question,
  Qqa23Split,
  Qqa23SplitData,
  Qqa23SplitFiles,
  Qqa23SplitStats,
  Qqa23Stats,
} from "./load.ts";
// Lexical retrieval over the whole collection, and its run file.
export {
  ARABIC_STOPWORDS,
  arabicTerms,
  formatQqa23Run,
  normalizeArabic,
  plainDecimal,
  QQA23_MAX_DEPTH,
  QQA23_MODEL_SPECS,
  retrieve,
  scoreQqa23Split,
} from "./retrieve.ts";
export type {
  Qqa23Ranking,
  RankedPassage,
  RetrieveOptions,
  ScoreQqa23Options,
  ScoreQqa23Result,
} from "./retrieve.ts";
