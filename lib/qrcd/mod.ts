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
// The corpus: files, splits, statistics.
export { isQrcdSplit, loadQrcd, loadQrcdSplit, QRCD_FILES, qrcdSplitPath } from "./load.ts";
export { qrcdStats } from "./load.ts";
export type { QrcdSplit, QrcdStats } from "./load.ts";
// The official scorer's text rules: normalization and clitic segmenters.
export { LIGHT_SEGMENTATION, lightSegmentToken, NO_SEGMENTATION } from "./normalize.ts";
export { normalizeText, removePrefixes, removePunctuation } from "./normalize.ts";
export { SEGMENTERS, STOPWORDS } from "./normalize.ts";
export type { Segmenter } from "./normalize.ts";
// The official scorer: pRR, EM, F1@1, per record and per question.
export { evaluateQrcd, exactMatch, isSpanOfPassage, MAX_PREDICTIONS } from "./metrics.ts";
export { recordRows, scoreRecord, tokenF1 } from "./metrics.ts";
export type { QrcdEvaluation, RecordRow, RecordScore, ScoredPrediction } from "./metrics.ts";
export { scoresByQuestion } from "./by_question.ts";
export type { QuestionScores } from "./by_question.ts";
// Run files in the official JSON format, with the submission checker's rules.
export { checkRunAgainstGold, checkRunFileName, formatIssue } from "./runfile.ts";
export { formatSpanRun, parseSpanRun, readSpanRun, RUN_FILE_NAME } from "./runfile.ts";
export { writeSpanRun } from "./runfile.ts";
export type { CheckedRun, RunIssue } from "./runfile.ts";
// An offline baseline: word overlap with the question.
export { overlapBaseline, questionKeys, rankSpans } from "./baseline.ts";
export { answerQrcdSplit } from "./answer.ts";
export { checkQrcdLeakage, qrcdQuestionId } from "./leakage.ts";
export type { QrcdLeakageReport, QrcdRecordLike } from "./leakage.ts";
export type { AnswerQrcdOptions } from "./answer.ts";
export type { BaselineOptions } from "./baseline.ts";
// Published sizes and results, and QRCD's part of the systems report (page 00).
export { PUBLISHED_QRCD_RESULTS, PUBLISHED_QRCD_SIZES } from "./published.ts";
export { QRCD_BASELINE, QRCD_REPORT } from "./report_part.ts";
