import "../quick.ts";
import assert from "node:assert/strict";
import { evaluateQrcd, scoresByQuestion } from "../../lib/qrcd/mod.ts";

Deno.test("QRCD per question: means over each question's records, best pRR first", () => {
  const rec = (pqId: string, questionId: string, answer: string) => ({
    pqId,
    questionId,
    passageId: pqId.split("_")[0],
    surah: 1,
    verses: "1",
    line: 1,
    passage: "إنا أعطيناك الكوثر. فصل لربك وانحر.",
    question: `q${questionId}`,
    answers: [{ text: answer, start: 0 }],
  });
  const gold = [
    rec("1:1_7", "7", "الكوثر"),
    rec("1:2_7", "7", "وانحر"),
    rec("1:3_8", "8", "الكوثر"),
  ];
  const run = new Map([
    ["1:1_7", [{ answer: "الكوثر", rank: 1, score: 1 }]],
    ["1:2_7", [{ answer: "الكوثر", rank: 1, score: 1 }]],
  ]);
  const rows = scoresByQuestion(gold, evaluateQrcd(gold, run));
  // Question 7: one exact answer (1) and one wrong (0) over two records; 8: no prediction.
  assert.deepEqual(rows.map((r) => [r.questionId, r.records, r.pRR, r.exactMatch, r.f1At1]), [
    ["7", 2, 0.5, 0.5, 0.5],
    ["8", 1, 0, 0, 0],
  ]);
  assert.equal(rows[0].question, "q7");
});
