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

/** Both sides of a split by judgment: each question with the candidates drawn to that side. */
export interface JudgmentSplit {
  /** Questions with at least one candidate on the train side, holding only those candidates. */
  train: Question[];
  /** Questions with at least one candidate on the test side, holding only those candidates. */
  test: Question[];
}

/**
 * The wrong split, made: each judgment (question, candidate) goes to test with probability
 * `testFraction` (seeded), so a question's candidates land on both sides. Use it to measure
 * what the mistake does to a number (notebook 11); split by question (`splitByQuery`) to
 * evaluate.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitByJudgment } from "./judgment_split.ts";
 * const qs = [{ id: "q", text: "", candidates: [0, 1, 2, 3].map((i) => ({ id: `${i}`, text: "", label: 0 })) }];
 * const { train, test } = splitByJudgment(qs, 0.5, 1);
 * assert(train[0].candidates.length + test[0].candidates.length === 4);
 * ```
 */
export function splitByJudgment(
  questions: readonly Question[],
  testFraction: number,
  seed: Seed,
): JudgmentSplit {
  if (!(testFraction > 0 && testFraction < 1)) {
    throw new KitError(`testFraction must be in (0, 1), got ${testFraction}`);
  }
  const random = mulberry32(seed);
  const train: Question[] = [], test: Question[] = [];
  for (const q of questions) {
    const sides = q.candidates.map(() => random() < testFraction);
    const trainSide = q.candidates.filter((_, i) => !sides[i]);
    const testSide = q.candidates.filter((_, i) => sides[i]);
    if (trainSide.length) train.push({ ...q, candidates: trainSide });
    if (testSide.length) test.push({ ...q, candidates: testSide });
  }
  return { train, test };
}

/**
 * Splits the judgments of `questions` at random as {@link splitByJudgment} does (the same
 * draws), and counts the test questions that also sit in train.
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
  const { train, test } = splitByJudgment(questions, testFraction, seed);
  const inTrain = new Set(train.map((q) => q.id));
  return {
    testJudgments: test.reduce((n, q) => n + q.candidates.length, 0),
    testQuestions: test.length,
    testQuestionsAlsoInTrain: test.filter((q) => inTrain.has(q.id)).length,
  };
}
