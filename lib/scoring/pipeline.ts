/**
 * From a model spec to scores of a split: the one call behind `deno task score` and the
 * notebooks. Specs: `lexical:wordcnt`, `lexical:wgtwordcnt`, `lexical:bm25`, `ltr`
 * (the learned ranker, trained on the dataset's training split), or a transformer
 * cross-encoder given by folder path or hub repo id.
 *
 * @module
 */
import { loadSplit } from "../data/mod.ts";
import type { As2Dataset, Question } from "../data/types.ts";
import { KitError } from "../errors.ts";
import {
  type CollectionStats,
  collectionStats,
  LEXICAL_KINDS,
  type LexicalKind,
  lexicalScorer,
} from "./lexical.ts";
import { type LtrModel, ltrScorer } from "./ltr.ts";
import { loadLtrTrainingSet, type SplitChoice, trainRanker } from "./regimes.ts";
import { loadCrossEncoder } from "./model/crossencoder.ts";
import type { BackendChoice } from "./model/session_types.ts";
import { type Shard, shardItems } from "./shard.ts";
import { isQuestionScorer, questionScorer } from "./questions.ts";
import type { PairScorer, ProgressFn, QuestionScorer } from "./types.ts";

/** How the `ltr` spec trains its model (every field optional: the protocol's defaults). */
export interface LtrTrainingChoice extends SplitChoice {
  /** Dataset to train on (default: the scored dataset). */
  dataset?: As2Dataset;
  /** Share of training labels flipped before training (default 0). */
  noise?: number;
  /** Seed choosing the flipped labels (default: the training seed). */
  noiseSeed?: number;
  /** Start from this model's weights (transfer, then adapt). */
  init?: LtrModel;
  /** Passes over the training pairs (default 30). */
  epochs?: number;
}

/** Options of {@link makeScorer}. */
export interface MakeScorerOptions {
  /** The dataset (needed by `ltr`, to find its training split). */
  dataset?: As2Dataset;
  /** Corpus folder passed to `loadSplit` (default: the cache, else the samples). */
  dir?: string;
  /** IDF statistics for lexical and ltr features (default: from the scored questions). */
  stats?: CollectionStats;
  /** Seed of the ranker's training shuffle (default 42). */
  seed?: number;
  /** A trained ranker to use instead of training one. */
  ltrModel?: LtrModel;
  /** How `ltr` trains when no `ltrModel` is given. */
  ltrTraining?: LtrTrainingChoice;
  /** Backend for transformer models (default `auto`: see `model/backend.ts`). */
  backend?: BackendChoice;
  /** Intra-op threads of the native CPU backend (default: the CPUs this process may use). */
  threads?: number;
  /** Pairs per model call for transformer models. */
  batchSize?: number;
  /** Score cache folder, or false to turn it off (transformer models). */
  scoreCache?: string | false;
}

/** A scorer ready for question lists, with a way to free what it holds. */
export interface ReadyScorer {
  /** The scorer. */
  scorer: QuestionScorer;
  /** Frees model sessions (a no-op for lexical and ltr). */
  close(): Promise<void>;
  /** The trained ranker, when the spec was `ltr`. */
  ltrModel?: LtrModel;
}

/**
 * Builds the scorer a spec names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeScorer } from "./pipeline.ts";
 * const { scorer } = await makeScorer("lexical:bm25");
 * const [s] = await scorer.scoreQuestions([{ id: "q", text: "red dog",
 *   candidates: [{ id: "a", text: "a red dog" }, { id: "b", text: "a cat" }] }]);
 * assert(s[0] > s[1]);
 * ```
 */
export async function makeScorer(
  spec: string,
  options: MakeScorerOptions = {},
): Promise<ReadyScorer> {
  if (spec.startsWith("lexical:")) {
    const kind = spec.slice("lexical:".length) as LexicalKind;
    if (!LEXICAL_KINDS.includes(kind)) {
      throw new KitError(
        `unknown lexical scorer '${spec}' (lexical:${LEXICAL_KINDS.join(", lexical:")})`,
      );
    }
    return {
      scorer: statsScorer(spec, (st) => lexicalScorer(kind, st), options.stats),
      close: async () => {},
    };
  }
  if (spec === "ltr") {
    let model = options.ltrModel;
    if (!model) {
      const t = options.ltrTraining ?? {};
      const dataset = t.dataset ?? options.dataset;
      if (!dataset) throw new KitError("the ltr ranker needs a dataset to train on");
      const set = await loadLtrTrainingSet(dataset, { ...t, dir: t.dir ?? options.dir });
      model = trainRanker(set, {
        seed: options.seed,
        noise: t.noise,
        noiseSeed: t.noiseSeed,
        init: t.init,
        epochs: t.epochs,
      });
    }
    return { scorer: ltrScorer(model, options.stats), close: async () => {}, ltrModel: model };
  }
  const ce = await loadCrossEncoder(spec, {
    backend: options.backend,
    threads: options.threads,
    batchSize: options.batchSize,
    scoreCache: options.scoreCache,
  });
  return { scorer: questionScorer(ce), close: () => ce.close() };
}

/** A question scorer whose pair scorer is built from statistics of the scored questions. */
function statsScorer(
  id: string,
  build: (stats: CollectionStats) => PairScorer,
  fixed?: CollectionStats,
): QuestionScorer {
  return {
    id,
    scoreQuestions(questions, options) {
      const stats = fixed ??
        collectionStats(questions.flatMap((q) => q.candidates.map((c) => c.text)));
      const s = build(stats);
      return (isQuestionScorer(s) ? s : questionScorer(s)).scoreQuestions(questions, options);
    },
  };
}

/** Options of {@link scoreSplit}. */
export interface ScoreSplitOptions extends MakeScorerOptions {
  /** Filter of the scored split (default `clean`). */
  filter?: "raw" | "no-all" | "clean";
  /** Progress of the scoring. */
  onProgress?: ProgressFn;
  /** Score only this shard's questions (`shard.ts`); the statistics stay the whole split's. */
  shard?: Shard;
}

/** What {@link scoreSplit} returns. */
export interface ScoredSplit {
  /** The scored questions (after the filter; with a shard, its questions alone). */
  questions: Question[];
  /** How many questions the split has after the filter (all shards together). */
  splitQuestions: number;
  /** One score per candidate, in question and candidate order. */
  scores: Float32Array;
  /** The scorer's id. */
  scorerId: string;
  /** The trained ranker, for `ltr`. */
  ltrModel?: LtrModel;
}

/**
 * Scores every candidate of a split. Lexical and ltr scorers take their IDF statistics
 * from the whole split as distributed (the raw split), so the filter does not change them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoreSplit } from "./pipeline.ts";
 * const r = await scoreSplit("lexical:wordcnt", "wikiqa", "test", { dir: "samples" });
 * assert(r.scores.length === r.questions.reduce((n, q) => n + q.candidates.length, 0));
 * ```
 */
export async function scoreSplit(
  spec: string,
  dataset: As2Dataset,
  split: string,
  options: ScoreSplitOptions = {},
): Promise<ScoredSplit> {
  const loaded = await loadSplit(dataset, split, {
    filter: options.filter ?? "clean",
    dir: options.dir,
  });
  const questions = shardItems(loaded.questions, options.shard, (q) => q.id);
  let stats = options.stats;
  if (!stats && (spec === "ltr" || spec.startsWith("lexical:"))) {
    const raw = await loadSplit(dataset, split, { filter: "raw", dir: options.dir });
    stats = collectionStats(raw.questions.flatMap((q) => q.candidates.map((c) => c.text)));
  }
  const ready = await makeScorer(spec, { ...options, dataset, stats });
  try {
    const perQuestion = await ready.scorer.scoreQuestions(questions, {
      onProgress: options.onProgress,
      batchSize: options.batchSize,
    });
    const total = perQuestion.reduce((n, s) => n + s.length, 0);
    const scores = new Float32Array(total);
    let at = 0;
    for (const s of perQuestion) {
      scores.set(s, at);
      at += s.length;
    }
    return {
      questions,
      splitQuestions: loaded.questions.length,
      scores,
      scorerId: ready.scorer.id,
      ltrModel: ready.ltrModel,
    };
  } finally {
    await ready.close();
  }
}
