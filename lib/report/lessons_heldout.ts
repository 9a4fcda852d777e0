/**
 * Notebook 6's pieces: the golden set a held-out experiment splits, the learned ranker as a
 * trainer for `lib/stats`' held-out protocol, and a table of the slices.
 *
 * @module
 */
import { applyFilter } from "../data/filters.ts";
import { loadSplit } from "../data/splits.ts";
import type { Question } from "../data/types.ts";
import type { Row } from "../plot/table.ts";
import { type CollectionStats, collectionStats } from "../scoring/lexical.ts";
import { ltrScorer, trainLtr } from "../scoring/ltr.ts";
import type { Split } from "../stats/split.ts";
import type { Trainer } from "../stats/heldout.ts";
import type { KitParams } from "./params.ts";

/** The judged questions a held-out experiment splits, and what they are. */
export interface HeldOutPool {
  questions: Question[];
  description: string;
}

/**
 * The golden set: WikiQA's human-labelled train questions that have a correct candidate
 * (`no-all`). The bundled samples are too small for three slices, so in sample mode the
 * sample's train, dev and test questions are pooled.
 */
export async function heldOutPool(params: KitParams, dir: string): Promise<HeldOutPool> {
  if (params.data === "real") {
    const train = await loadSplit("wikiqa", "train", { filter: "no-all", dir });
    return { questions: train.questions, description: "WikiQA train, no-all" };
  }
  const all: Question[] = [];
  for (const split of ["train", "dev", "test"]) {
    all.push(...(await loadSplit("wikiqa", split, { filter: "no-all", dir })).questions);
  }
  return { questions: all, description: "WikiQA samples (train+dev+test), no-all" };
}

/**
 * The learned ranker (`lib/scoring` logistic regression) as a `lib/stats` trainer whose
 * setting is the L2 penalty. IDF statistics are fixed (from `pool`), so a question scores
 * the same whichever slice it is in.
 */
export function ltrTrainer(pool: readonly Question[], seed = 42): Trainer<number> {
  const stats: CollectionStats = collectionStats(
    pool.flatMap((q) => q.candidates.map((c) => c.text)),
  );
  return (questions, l2) => {
    const scorer = ltrScorer(trainLtr(questions, { l2, seed, stats }), stats);
    return async (question) => (await scorer.scoreQuestions([question]))[0];
  };
}

/** Queries, candidates and queries with a correct candidate per slice. */
export function sliceRows(split: Split<Question>): Row[] {
  return (["train", "test", "validation"] as const).map((slice) => ({
    slice,
    questions: split[slice].length,
    candidates: split[slice].reduce((n, q) => n + q.candidates.length, 0),
    "with a correct candidate": split.withPositive[slice],
    "all-negative": split[slice].length - applyFilter(split[slice], "no-all").questions.length,
  }));
}
