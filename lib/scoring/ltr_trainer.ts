/**
 * The learned ranker (`ltr.ts`) as a trainer for the held-out protocol of `lib/stats`
 * (`heldOutExperiment`): given training questions and a setting (which features, how much
 * L2), it returns a scorer of one question at a time.
 *
 * @module
 */
import type { Question } from "../data/types.ts";
import { type CollectionStats, collectionStats } from "./lexical.ts";
import { ltrScorer, trainLtr } from "./ltr.ts";

/** A setting of the ranker to choose on the test slice. */
export interface LtrSetting {
  /** Feature names (default: every feature of `LTR_FEATURES`). */
  features?: readonly string[];
  /** L2 penalty (default 1e-4). */
  l2?: number;
}

/** Scores the candidates of one question, in candidate order. */
export type LtrQuestionScorer = (question: Question) => Promise<Float32Array>;

/**
 * A trainer for `heldOutExperiment`. The IDF statistics come from `pool` (every question
 * of the experiment, labels unused), so a question scores the same whichever slice it is in.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ltrTrainer } from "./ltr_trainer.ts";
 * const q = (id: string) => ({ id, text: `who wrote book ${id}`, candidates: [
 *   { id: "a", text: `book ${id} was written by her`, label: 1 },
 *   { id: "b", text: "the weather", label: 0 }] });
 * const pool = ["1", "2", "3"].map(q);
 * const scorer = await ltrTrainer(pool)(pool.slice(0, 2), { features: ["wordcnt"] });
 * const [right, wrong] = await scorer(pool[2]);
 * assert(right > wrong);
 * ```
 */
export function ltrTrainer(
  pool: readonly Question[],
  seed = 42,
): (questions: Question[], setting: LtrSetting) => LtrQuestionScorer {
  const stats: CollectionStats = collectionStats(
    pool.flatMap((q) => q.candidates.map((c) => c.text)),
  );
  return (questions, setting) => {
    const scorer = ltrScorer(trainLtr(questions, { ...setting, seed, stats }), stats);
    return async (question) => (await scorer.scoreQuestions([question]))[0];
  };
}
