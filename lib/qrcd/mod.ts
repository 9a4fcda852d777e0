/**
 * Qur'an QA 2022 (QRCD v1.1): loading the corpus, run files in the official JSON format with
 * the submission checker's rules, the official scorer's pRR / EM / F1@1 with a pluggable
 * clitic segmenter, a per-record breakdown, and an offline baseline.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluateQrcd, loadQrcdSplit, overlapBaseline } from "./mod.ts";
 * const dev = await loadQrcdSplit("dev", { dir: "samples" });
 * const result = evaluateQrcd(dev, overlapBaseline(dev));
 * assert(result.records === dev.length && result.pRR >= 0 && result.pRR <= 1);
 * ```
 *
 * @module
 */
export type { GoldAnswer, PassageQuestion, SpanPrediction, SpanRun } from "./types.ts";
export {
  isQrcdSplit,
  loadQrcd,
  loadQrcdSplit,
  QRCD_FILES,
  qrcdSplitPath,
  qrcdStats,
} from "./load.ts";
export type { QrcdSplit, QrcdStats } from "./load.ts";
export {
  LIGHT_SEGMENTATION,
  lightSegmentToken,
  NO_SEGMENTATION,
  normalizeText,
  removePrefixes,
  removePunctuation,
  SEGMENTERS,
  STOPWORDS,
} from "./normalize.ts";
export type { Segmenter } from "./normalize.ts";
export {
  evaluateQrcd,
  exactMatch,
  isSpanOfPassage,
  MAX_PREDICTIONS,
  recordRows,
  scoreRecord,
  tokenF1,
} from "./metrics.ts";
export type { QrcdEvaluation, RecordRow, RecordScore, ScoredPrediction } from "./metrics.ts";
export {
  checkRunAgainstGold,
  checkRunFileName,
  formatIssue,
  formatSpanRun,
  parseSpanRun,
  readSpanRun,
  RUN_FILE_NAME,
  writeSpanRun,
} from "./runfile.ts";
export type { CheckedRun, RunIssue } from "./runfile.ts";
export { overlapBaseline, questionKeys, rankSpans } from "./baseline.ts";
export type { BaselineOptions } from "./baseline.ts";
export { scoresByQuestion } from "./by_question.ts";
export type { QuestionScores } from "./by_question.ts";
