import assert from "node:assert/strict";
import type { Question } from "../../lib/data/types.ts";
import { checkLeakage, judgmentSplitLeak, splitByQuery } from "../../lib/stats/mod.ts";
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
