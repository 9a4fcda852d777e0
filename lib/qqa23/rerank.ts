/**
 * A transformer cross-encoder on Qur'an QA 2023 Task A: it cannot read all 1,266 passages for
 * every question in reasonable time on a CPU, so it re-ranks BM25's first `depth` passages of
 * each question (default 100; BM25's recall there bounds what it can find) and the run keeps its
 * first 10. A question BM25 matches with no passage is answered `-1` alone, as BM25's own run
 * does; `abstainBelow` reads the cross-encoder's top score. The learned ranker (`ltr`) is not
 * offered: it is trained on answer-selection candidates and their features.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { makeScorer } from "../scoring/pipeline.ts";
import type { Backend } from "../scoring/model/session_types.ts";
import { isQqa23Split, loadQqa23Split, QQA23_SPLITS } from "./load.ts";
import { byTrecOrder, formatQqa23Run, QQA23_MAX_DEPTH, rankingOf, retrieve } from "./retrieve.ts";

/** Options of {@link rerankQqa23Split}. */
export interface RerankOptions {
  /** The folder holding `qqa23/` (default: the cache). */
  dir?: string;
  /** BM25's passages a question the model re-ranks (default 100). */
  depth?: number;
  /** Answer `-1` for a question whose best re-ranked score is below this. */
  abstainBelow?: number;
  /** The run's tag (default: the model spec). */
  tag?: string;
  backend?: Backend;
  threads?: number;
  batchSize?: number;
  /** Score cache folder, or false (default: the kit's cache). */
  scoreCache?: string | false;
}

/** The default number of BM25 passages a cross-encoder re-ranks. */
export const RERANK_DEPTH = 100;

/**
 * Re-ranks BM25's first `depth` passages of every question of a split with a cross-encoder and
 * returns the run's text (as `score` writes it) with its counts.
 *
 * @example
 * ```ts ignore
 * const r = await rerankQqa23Split("models/my-arabic-cross-encoder", "dev", { depth: 50 });
 * await Deno.writeTextFile("team_ce.tsv", r.text);
 * ```
 */
export async function rerankQqa23Split(
  model: string,
  split: string,
  options: RerankOptions = {},
): Promise<{ text: string; questions: number; abstained: number; pairs: number }> {
  if (!isQqa23Split(split)) {
    throw new KitError(`unknown qqa23 split '${split}' (expected: ${QQA23_SPLITS.join(", ")})`);
  }
  const depth = options.depth ?? RERANK_DEPTH;
  if (!Number.isInteger(depth) || depth < 1) {
    throw new KitError(`depth ${depth}: a whole number of passages to re-rank, at least 1`);
  }
  const data = await loadQqa23Split(split, { dir: options.dir });
  const first = retrieve(data.collection, data.questions, { model: "bm25", depth });
  const ready = await makeScorer(model, {
    backend: options.backend,
    threads: options.threads,
    batchSize: options.batchSize,
    scoreCache: options.scoreCache,
  });
  try {
    const text = new Map(data.questions.map((q) => [q.id, q.text]));
    const asked = first.filter((r) => r.passages.length > 0);
    const scores = await ready.scorer.scoreQuestions(asked.map((r) => ({
      id: r.questionId,
      text: text.get(r.questionId)!,
      candidates: r.passages.map((p) => ({ id: p.id, text: data.collection.get(p.id)! })),
    })));
    const reranked = new Map(asked.map((r, i) => [
      r.questionId,
      r.passages.map((p, j) => ({ id: p.id, score: scores[i][j] })).sort(byTrecOrder),
    ]));
    const ranking = first.map((r) =>
      rankingOf(
        r.questionId,
        reranked.get(r.questionId) ?? [],
        QQA23_MAX_DEPTH,
        options.abstainBelow,
      )
    );
    return {
      text: formatQqa23Run(ranking, options.tag ?? model),
      questions: ranking.length,
      abstained: ranking.filter((r) => r.abstained).length,
      pairs: asked.reduce((n, r) => n + r.passages.length, 0),
    };
  } finally {
    await ready.close();
  }
}
