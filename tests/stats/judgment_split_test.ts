import "../quick.ts";
import assert from "node:assert/strict";
import type { Question } from "../../lib/data/types.ts";
import {
  checkLeakage,
  judgmentSplitLeak,
  splitByJudgment,
  splitByQuery,
} from "../../lib/stats/mod.ts";
import { KitError } from "../../lib/errors.ts";

function q(id: string, labels: number[]): Question {
  return {
    id,
    text: `question ${id}`,
    candidates: labels.map((label, i) => ({ id: `${id}-${i}`, text: `c${i}`, label })),
  };
}

Deno.test("judgment split: divided questions counted, seeded; a split by question has none", () => {
  const many = Array.from({ length: 200 }, (_, i) => q(`q${i}`, [1, 0, 0, 0, 0]));
  const leak = judgmentSplitLeak(many, 0.2, 7);
  // 1000 judgments, each to test with p = 0.2: far outside 100..300 would be a broken draw.
  assert.ok(leak.testJudgments > 100 && leak.testJudgments < 300);
  // With 5 candidates and p = 0.2, P(all in test | some in test) = 0.2^5 / (1 - 0.8^5) < 0.1%.
  assert.ok(leak.testQuestionsAlsoInTrain >= leak.testQuestions - 2);
  assert.ok(leak.testQuestionsAlsoInTrain <= leak.testQuestions);
  assert.deepEqual(judgmentSplitLeak(many, 0.2, 7), leak, "same seed, same split");
  assert.notDeepEqual(judgmentSplitLeak(many, 0.2, 8), leak, "another seed, another split");
  // A question with one candidate can never be divided.
  const single = Array.from({ length: 50 }, (_, i) => q(`s${i}`, [1]));
  assert.equal(judgmentSplitLeak(single, 0.5, 1).testQuestionsAlsoInTrain, 0);
  assert.throws(() => judgmentSplitLeak(many, 0, 1), KitError);
  assert.throws(() => judgmentSplitLeak(many, 1, 1), KitError);
  const split = splitByQuery(many, { counts: { train: 150, test: 40, validation: 10 }, seed: 7 });
  assert.ok(checkLeakage(split).clean);
});

Deno.test("splitByJudgment: every judgment on exactly one side, the same draws as judgmentSplitLeak", () => {
  const qs = Array.from({ length: 50 }, (_, i) => ({
    id: `q${i}`,
    text: `question ${i}`,
    candidates: Array.from({ length: 1 + (i % 7) }, (_, j) => ({
      id: `q${i}-${j}`,
      text: "",
      label: j === 0 ? 1 : 0,
    })),
  }));
  const { train, test } = splitByJudgment(qs, 0.3, 5);
  const ids = (side: typeof train) => side.flatMap((q) => q.candidates.map((c) => c.id));
  const all = qs.flatMap((q) => q.candidates.map((c) => c.id));
  assert.deepEqual([...ids(train), ...ids(test)].sort(), [...all].sort());
  assert.equal(new Set([...ids(train), ...ids(test)]).size, all.length);
  for (const side of [train, test]) for (const q of side) assert.ok(q.candidates.length > 0);
  const inTrain = new Set(train.map((q) => q.id));
  const leak = judgmentSplitLeak(qs, 0.3, 5);
  assert.equal(leak.testJudgments, ids(test).length);
  assert.equal(leak.testQuestions, test.length);
  assert.equal(leak.testQuestionsAlsoInTrain, test.filter((q) => inTrain.has(q.id)).length);
  assert.ok(leak.testQuestionsAlsoInTrain > 0);
  assert.throws(() => splitByJudgment(qs, 1, 1), KitError);
});
