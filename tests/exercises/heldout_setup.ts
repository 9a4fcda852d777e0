/**
 * The held-out setup lessons 07 and 08 share, rebuilt with the public API for their exercise tests.
 *
 * @module
 */
import {
  loadSplit,
  LTR_FEATURES,
  ltrTrainer,
  scoreSlice,
  scoreSplit,
  splitByQuery,
} from "../../lib/mod.ts";
import type { Question } from "../../lib/mod.ts";

/**
 * Notebooks 07 and 08's pool, the whole-pool split (seed 42), the ranker chosen on test among the
 * three settings (collection statistics of train) and BM25's scores, as the lessons compute them.
 */
export async function notebookSetup(dir: string, real: boolean) {
  const splits = real ? ["train"] : ["train", "dev", "test"];
  const pool: Question[] = [];
  for (const s of splits) {
    pool.push(...(await loadSplit("wikiqa", s, { filter: "no-all", dir })).questions);
  }
  const validationSize = Math.min(10, Math.floor(pool.length / 4));
  const testSize = Math.round(pool.length / 5);
  const split = splitByQuery(pool, {
    counts: {
      train: pool.length - testSize - validationSize,
      test: testSize,
      validation: validationSize,
    },
    seed: 42,
  });
  const overlap = [
    "wordcnt",
    "wordcnt_norm",
    "wgtwordcnt",
    "wgtwordcnt_norm",
    "wgtwordcnt_rel",
    "bigram_overlap",
  ];
  const settings = [
    { features: overlap },
    { features: [...overlap, "bm25", "bm25_rel", "cand_len", "q_len"] },
    { features: [...LTR_FEATURES] },
  ];
  const trainer = ltrTrainer(split.train);
  let best: { scorer: ReturnType<typeof trainer>; test: number } | undefined;
  for (const s of settings) {
    const scorer = trainer(split.train, s);
    const test = (await scoreSlice(split.test, scorer, "map")).value;
    if (!best || test > best.test) best = { scorer, test };
  }
  const bm25 = new Map<string, number>();
  for (const s of splits) {
    const r = await scoreSplit("lexical:bm25", "wikiqa", s, { filter: "no-all", dir });
    let at = 0;
    for (const q of r.questions) {
      for (const c of q.candidates) bm25.set(`${q.id}\t${c.id}`, r.scores[at++]);
    }
  }
  return { split, best: best!, bm25 };
}
