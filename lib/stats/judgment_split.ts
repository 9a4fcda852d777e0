/**
 * The mistake a split by question prevents: splitting the *judgments* (question, candidate
 * rows) at random. A question's candidates then land on both sides, so a model trains on
 * the very questions it is tested on, and the test ranks only part of each candidate list.
 * This module makes that split and counts the damage; `splitByQuery` is the right split.
 *
 * @module
 */
import type { Question } from "../data/types.ts";
import { KitError } from "../errors.ts";
import { mulberry32, type Seed } from "./random.ts";

/** What a random split of the judgments does to the questions. */
export interface JudgmentSplitLeak {
  /** Judgments put into the test side. */
  testJudgments: number;
  /** Questions with at least one test judgment. */
  testQuestions: number;
  /**
   * Of those, questions whose candidates are divided between train and test: the model
   * trains on the question, and the test ranks only part of its candidate list.
   */
  testQuestionsAlsoInTrain: number;
}

/**
 * Splits the judgments of `questions` at random, each to test with probability
 * `testFraction` (seeded), and counts the test questions that also sit in train.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgmentSplitLeak } from "./judgment_split.ts";
 * const qs = [{ id: "q", text: "", candidates: [0, 1, 2, 3].map((i) => ({ id: `${i}`, text: "", label: 0 })) }];
 * const leak = judgmentSplitLeak(qs, 0.5, 1);
 * assert(leak.testQuestions === 1 && leak.testJudgments >= 1);
 * ```
 */
export function judgmentSplitLeak(
  questions: readonly Question[],
  testFraction: number,
  seed: Seed,
): JudgmentSplitLeak {
  if (!(testFraction > 0 && testFraction < 1)) {
    throw new KitError(`testFraction must be in (0, 1), got ${testFraction}`);
  }
  const random = mulberry32(seed);
  let testJudgments = 0, testQuestions = 0, divided = 0;
  for (const q of questions) {
    let inTest = 0;
    for (let i = 0; i < q.candidates.length; i++) if (random() < testFraction) inTest++;
    testJudgments += inTest;
    if (inTest === 0) continue;
    testQuestions++;
    if (inTest < q.candidates.length) divided++;
  }
  return { testJudgments, testQuestions, testQuestionsAlsoInTrain: divided };
}
