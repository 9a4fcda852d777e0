/**
 * QRCD results per question. A QRCD question is asked of several passages (one record
 * each); the official scorer averages over records, so a question with many passages
 * weighs more. Grouping the per-record scores by question shows which questions the mean
 * comes from.
 *
 * @module
 */
import type { QrcdEvaluation } from "./metrics.ts";
import type { PassageQuestion } from "./types.ts";

/** One question's scores: the means over its records. */
export interface QuestionScores {
  questionId: string;
  question: string;
  records: number;
  pRR: number;
  exactMatch: number;
  f1At1: number;
}

/**
 * Per-question means of an evaluation's per-record scores (`gold` in the order the
 * evaluation scored it), best pRR first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluateQrcd } from "./metrics.ts";
 * import { scoresByQuestion } from "./by_question.ts";
 * const rec = (pqId: string, questionId: string) => ({ pqId, questionId, passageId: "p",
 *   surah: 1, verses: "1", line: 1, passage: "إنا أعطيناك الكوثر", question: "?",
 *   answers: [{ text: "الكوثر", start: 12 }] });
 * const gold = [rec("1:1_7", "7"), rec("1:2_7", "7")];
 * const run = new Map([["1:1_7", [{ answer: "الكوثر", rank: 1, score: 1 }]]]);
 * const [q] = scoresByQuestion(gold, evaluateQrcd(gold, run));
 * assert(q.records === 2 && q.pRR === 0.5);
 * ```
 */
export function scoresByQuestion(
  gold: readonly PassageQuestion[],
  evaluation: QrcdEvaluation,
): QuestionScores[] {
  const byQuestion = new Map<string, QuestionScores>();
  evaluation.perRecord.forEach((score, i) => {
    const id = gold[i].questionId;
    const q = byQuestion.get(id) ??
      { questionId: id, question: gold[i].question, records: 0, pRR: 0, exactMatch: 0, f1At1: 0 };
    q.records++;
    q.pRR += score.pRR;
    q.exactMatch += score.exactMatch;
    q.f1At1 += score.f1At1;
    byQuestion.set(id, q);
  });
  return [...byQuestion.values()].map((q) => ({
    ...q,
    pRR: q.pRR / q.records,
    exactMatch: q.exactMatch / q.records,
    f1At1: q.f1At1 / q.records,
  })).sort((a, b) => b.pRR - a.pRR);
}
