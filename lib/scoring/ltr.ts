/**
 * The kit's default model: a learned ranker in the manner of the learning-to-rank example
 * of AI-Powered Search (ch. 10): per-pair features, logistic regression trained on the
 * training split, score = dot(features, weights) + bias, rank by score. It needs no
 * download, trains in about a second and is deterministic for a given seed.
 *
 * @module
 */
import type { Question } from "../data/types.ts";
import { KitError } from "../errors.ts";
import { bm25, type CollectionStats, collectionStats, idf } from "./lexical.ts";
import { ENGLISH_STOPWORDS, words } from "./text.ts";
import type { QuestionInput, QuestionScorer } from "./types.ts";

/** The feature names, in the order of each feature vector. */
export const LTR_FEATURES = [
  "wordcnt",
  "wordcnt_norm",
  "wgtwordcnt",
  "wgtwordcnt_norm",
  "wgtwordcnt_rel",
  "bm25",
  "bm25_rel",
  "bigram_overlap",
  "cand_len",
  "q_len",
  "position",
  "inv_position",
  "is_first",
] as const;

/**
 * Feature vectors of every candidate of one question (row-major, `LTR_FEATURES.length`
 * per candidate). Overlaps use distinct non-stopword question words; `*_norm` divide by
 * what the question could match at most, `*_rel` by the best candidate of the question;
 * `position` is the candidate's relative place in the list (0 first, 1 last).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { collectionStats } from "./lexical.ts";
 * import { LTR_FEATURES, questionFeatures } from "./ltr.ts";
 * const q = { id: "q", text: "red dog", candidates: [{ id: "a", text: "a red dog" }, { id: "b", text: "cat" }] };
 * const f = questionFeatures(q, collectionStats(["a red dog", "cat"]));
 * const at = (c: number, name: string) => f[c * LTR_FEATURES.length + LTR_FEATURES.indexOf(name as never)];
 * assert(at(0, "wordcnt") === 2 && at(0, "wordcnt_norm") === 1 && at(1, "wordcnt") === 0);
 * assert(at(0, "is_first") === 1 && at(1, "position") === 1);
 * ```
 */
export function questionFeatures(q: QuestionInput, stats: CollectionStats): Float64Array {
  const nf = LTR_FEATURES.length;
  const n = q.candidates.length;
  const out = new Float64Array(n * nf);
  const qWords = words(q.text);
  const qTerms = [...new Set(qWords)].filter((w) => !ENGLISH_STOPWORDS.has(w));
  const qIdfSum = qTerms.reduce((s, w) => s + idf(stats, w), 0);
  const qBigrams = new Set(qWords.slice(1).map((w, i) => qWords[i] + " " + w));
  const wgt = new Float64Array(n);
  const bm = new Float64Array(n);
  for (let c = 0; c < n; c++) {
    const cWords = words(q.candidates[c].text);
    const inCand = new Set(cWords);
    let cnt = 0;
    let w = 0;
    for (const t of qTerms) {
      if (inCand.has(t)) {
        cnt++;
        w += idf(stats, t);
      }
    }
    const cBigrams = new Set(cWords.slice(1).map((x, i) => cWords[i] + " " + x));
    let bi = 0;
    for (const g of qBigrams) if (cBigrams.has(g)) bi++;
    wgt[c] = w;
    bm[c] = bm25(q.text, q.candidates[c].text, stats);
    const row = c * nf;
    out[row + 0] = cnt;
    out[row + 1] = qTerms.length ? cnt / qTerms.length : 0;
    out[row + 2] = w;
    out[row + 3] = qIdfSum > 0 ? w / qIdfSum : 0;
    out[row + 5] = bm[c];
    out[row + 7] = qBigrams.size ? bi / qBigrams.size : 0;
    out[row + 8] = Math.log1p(cWords.length);
    out[row + 9] = Math.log1p(qWords.length);
    out[row + 10] = n > 1 ? c / (n - 1) : 0;
    out[row + 11] = 1 / (1 + c);
    out[row + 12] = c === 0 ? 1 : 0;
  }
  const maxW = Math.max(0, ...wgt);
  const maxB = Math.max(0, ...bm);
  for (let c = 0; c < n; c++) {
    out[c * nf + 4] = maxW > 0 ? wgt[c] / maxW : 0;
    out[c * nf + 6] = maxB > 0 ? bm[c] / maxB : 0;
  }
  return out;
}

/**
 * The features that describe where a candidate sits in its list. They are only
 * meaningful where the corpus order is the source's order (WikiQA: sentence order of the
 * Wikipedia summary); TREC-QA files list the positive candidates first, so there they
 * would leak the labels.
 */
export const POSITION_FEATURES: readonly string[] = ["position", "inv_position", "is_first"];

/** A trained ranker: everything needed to score, JSON-serializable. */
export interface LtrModel {
  /** Feature names the weights refer to. */
  features: string[];
  /** Per-feature mean on the training data (features are standardized before the dot). */
  mean: number[];
  /** Per-feature standard deviation on the training data (1 where it was 0). */
  std: number[];
  /** One weight per standardized feature. */
  weights: number[];
  /** The intercept. */
  bias: number;
  /** The seed the training shuffle used. */
  seed: number;
  /** Training pairs seen. */
  trainPairs: number;
}

/** Training settings of {@link trainLtr}. */
export interface LtrTrainOptions {
  /** Seed of the example shuffle (default 42). */
  seed?: number;
  /** Passes over the training pairs (default 30). */
  epochs?: number;
  /** Initial learning rate, decayed as `lr / (1 + epoch)` (default 0.1). */
  learningRate?: number;
  /** L2 penalty on the weights (default 1e-4). */
  l2?: number;
  /** Statistics for the IDF features; default: from the training candidates. */
  stats?: CollectionStats;
  /** Names of the features to use (default: all of {@link LTR_FEATURES}). */
  features?: readonly string[];
}

function featureIndexes(names: readonly string[]): number[] {
  return names.map((n) => {
    const i = (LTR_FEATURES as readonly string[]).indexOf(n);
    if (i < 0) {
      throw new KitError(`unknown ranker feature '${n}' (known: ${LTR_FEATURES.join(", ")})`);
    }
    return i;
  });
}

/**
 * A small, seedable PRNG (mulberry32): the same seed gives the same shuffle everywhere.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mulberry32 } from "./ltr.ts";
 * const a = mulberry32(3), b = mulberry32(3);
 * assert(a() === b() && a() < 1);
 * ```
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Trains the logistic-regression ranker on labelled questions with stochastic gradient
 * descent (examples shuffled by a seeded PRNG, so training is reproducible).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { trainLtr } from "./ltr.ts";
 * const qs = [0, 1, 2, 3].map((i) => ({
 *   id: `q${i}`, text: `who painted picture ${i}`,
 *   candidates: [
 *     { id: "a", text: `the weather is nice ${i}`, label: 0 },
 *     { id: "b", text: `picture ${i} was painted by someone`, label: 1 },
 *   ],
 * }));
 * const m = trainLtr(qs, { seed: 1 });
 * assert(m.weights[m.features.indexOf("wordcnt")] > 0);
 * ```
 */
export function trainLtr(
  questions: Question[],
  options: LtrTrainOptions = {},
): LtrModel {
  const seed = options.seed ?? 42;
  const epochs = options.epochs ?? 30;
  const lr0 = options.learningRate ?? 0.1;
  const l2 = options.l2 ?? 1e-4;
  const stats = options.stats ??
    collectionStats(questions.flatMap((q) => q.candidates.map((c) => c.text)));
  const names = options.features ?? LTR_FEATURES;
  const pick = featureIndexes(names);
  const nf = pick.length;
  const all = LTR_FEATURES.length;
  const rows: Float64Array[] = [];
  const labels: number[] = [];
  for (const q of questions) {
    const f = questionFeatures(q, stats);
    q.candidates.forEach((c, i) => {
      rows.push(Float64Array.from(pick, (j) => f[i * all + j]));
      labels.push(c.label > 0 ? 1 : 0);
    });
  }
  if (rows.length === 0) throw new KitError("cannot train the ranker on zero candidates");
  const mean = new Array(nf).fill(0);
  const std = new Array(nf).fill(0);
  for (const r of rows) for (let j = 0; j < nf; j++) mean[j] += r[j] / rows.length;
  for (const r of rows) for (let j = 0; j < nf; j++) std[j] += (r[j] - mean[j]) ** 2 / rows.length;
  for (let j = 0; j < nf; j++) std[j] = Math.sqrt(std[j]) || 1;
  const x = rows.map((r) => r.map((v, j) => (v - mean[j]) / std[j]));
  const w = new Float64Array(nf);
  let bias = 0;
  const rand = mulberry32(seed);
  const order = rows.map((_, i) => i);
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const k = Math.floor(rand() * (i + 1));
      [order[i], order[k]] = [order[k], order[i]];
    }
    const lr = lr0 / (1 + epoch);
    for (const i of order) {
      const xi = x[i];
      let z = bias;
      for (let j = 0; j < nf; j++) z += w[j] * xi[j];
      const g = 1 / (1 + Math.exp(-z)) - labels[i];
      for (let j = 0; j < nf; j++) w[j] -= lr * (g * xi[j] + l2 * w[j]);
      bias -= lr * g;
    }
  }
  return {
    features: [...names],
    mean,
    std,
    weights: [...w],
    bias,
    seed,
    trainPairs: rows.length,
  };
}

/**
 * A question scorer from a trained model. `stats` are the IDF statistics for the scored
 * questions (default: their own candidates, as BM25 over the candidate pool would use).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ltrScorer, trainLtr } from "./ltr.ts";
 * const train = [{ id: "q", text: "red dog", candidates: [
 *   { id: "a", text: "a red dog", label: 1 }, { id: "b", text: "blue sky", label: 0 }] }];
 * const s = ltrScorer(trainLtr(train));
 * const [scores] = await s.scoreQuestions([{ id: "t", text: "green frog",
 *   candidates: [{ id: "x", text: "sky" }, { id: "y", text: "a green frog" }] }]);
 * assert(scores[1] > scores[0]);
 * ```
 */
export function ltrScorer(model: LtrModel, stats?: CollectionStats): QuestionScorer {
  const pick = featureIndexes(model.features);
  const all = LTR_FEATURES.length;
  return {
    id: `ltr:seed${model.seed}`,
    scoreQuestions(questions, options) {
      const st = stats ??
        collectionStats(questions.flatMap((q) => q.candidates.map((c) => c.text)));
      const out = questions.map((q, qi) => {
        const f = questionFeatures(q, st);
        const s = new Float32Array(q.candidates.length);
        for (let c = 0; c < s.length; c++) {
          let z = model.bias;
          for (let j = 0; j < pick.length; j++) {
            z += model.weights[j] * (f[c * all + pick[j]] - model.mean[j]) / model.std[j];
          }
          s[c] = z;
        }
        if (options?.onProgress && (qi + 1) % 500 === 0) {
          options.onProgress(qi + 1, questions.length);
        }
        return s;
      });
      return Promise.resolve(out);
    },
  };
}
