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
import { bm25Words, type CollectionStats, collectionStats, idf } from "./lexical.ts";
import { ENGLISH_STOPWORDS, words } from "./text.ts";
import type { QuestionInput, QuestionScorer, ScoredCandidateInput } from "./types.ts";
import { mulberry32, shuffleInPlace } from "../stats/random.ts";

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
    bm[c] = bm25Words(qWords, cWords, stats);
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

/** One training call of a model: what it saw and how (a model trained in two stages has two). */
export interface LtrStage {
  /** What the examples were (e.g. `wikiqa train no-all`); empty when not said. */
  data: string;
  /** Training pairs seen. */
  pairs: number;
  /** Seed of the example shuffle. */
  seed: number;
  /** Passes over the pairs in this call. */
  epochs: number;
  /** The epoch the learning-rate schedule and the shuffle stream started at (0: fresh). */
  startEpoch: number;
  /** Label noise of the examples: the share of labels flipped, and the seed that chose them. */
  noise?: LabelNoise;
}

/** Label noise injected into training examples (see `addLabelNoise` in noise.ts). */
export interface LabelNoise {
  /** Requested share of labels flipped, in [0, 1]. */
  fraction: number;
  /** Seed that chose which labels. */
  seed: number;
  /** Labels flipped: `round(fraction * pairs)`. */
  flipped: number;
}

/** A trained ranker: everything needed to score, JSON-serializable. */
export interface LtrModel {
  /** Feature names the weights refer to. */
  features: string[];
  /** Per-feature mean used to standardize features before the dot product. */
  mean: number[];
  /** Per-feature standard deviation used to standardize (1 where it was 0). */
  std: number[];
  /** One weight per standardized feature. */
  weights: number[];
  /** The intercept. */
  bias: number;
  /** The seed the (last) training shuffle used. */
  seed: number;
  /** Training pairs seen by the last training call. */
  trainPairs: number;
  /** Every training call that led to these weights, first first. */
  stages?: LtrStage[];
}

/**
 * Feature vectors and labels of a set of candidates, computed once so that many models can
 * be trained on them (seeds, label noise) or score them without recomputing features.
 */
export interface LtrExamples {
  /** Every feature of {@link LTR_FEATURES} per example, row-major. */
  x: Float64Array;
  /** Label per example: 1 correct, 0 not. */
  labels: Uint8Array;
  /** Number of examples (candidates). */
  count: number;
  /** What the examples are (e.g. `wikiqa train no-all`), recorded in the models trained on them. */
  source: string;
  /** Set when labels were flipped on purpose. */
  noise?: LabelNoise;
}

/** A question whose candidates may carry labels (unlabelled ones count as 0). */
export interface LabelledQuestionInput extends QuestionInput {
  /** Candidates in corpus order, each with an optional label (1 correct, 0 not). */
  candidates: (ScoredCandidateInput & { label?: number })[];
}

/**
 * The examples of every candidate of `questions`, in question and candidate order.
 * `stats` are the IDF statistics (default: the questions' own candidates).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LTR_FEATURES, ltrExamples } from "./ltr.ts";
 * const ex = ltrExamples([{ id: "q", text: "red dog", candidates: [
 *   { id: "a", text: "a red dog", label: 1 }, { id: "b", text: "cat", label: 0 }] }]);
 * assert(ex.count === 2 && ex.x.length === 2 * LTR_FEATURES.length);
 * assert(ex.labels[0] === 1 && ex.labels[1] === 0);
 * ```
 */
export function ltrExamples(
  questions: readonly LabelledQuestionInput[],
  options: { stats?: CollectionStats; source?: string } = {},
): LtrExamples {
  const stats = options.stats ??
    collectionStats(questions.flatMap((q) => q.candidates.map((c) => c.text)));
  const nf = LTR_FEATURES.length;
  const count = questions.reduce((n, q) => n + q.candidates.length, 0);
  const x = new Float64Array(count * nf);
  const labels = new Uint8Array(count);
  let at = 0;
  for (const q of questions) {
    x.set(questionFeatures(q, stats), at * nf);
    for (const c of q.candidates) {
      labels[at++] = (c.label ?? 0) > 0 ? 1 : 0;
    }
  }
  return { x, labels, count, source: options.source ?? "" };
}

/** Settings of {@link fitLtr} and {@link trainLtr}. */
export interface LtrFitOptions {
  /** Seed of the example shuffle (default 42). */
  seed?: number;
  /** Passes over the training pairs (default 30). */
  epochs?: number;
  /** Initial learning rate, decayed as `lr / (1 + epoch)` (default 0.1). */
  learningRate?: number;
  /** L2 penalty on the weights (default 1e-4). */
  l2?: number;
  /**
   * Names of the features to use (default: the initial model's, else all of
   * {@link LTR_FEATURES}). Every feature of `init` must be among them.
   */
  features?: readonly string[];
  /**
   * Start from this model's weights and bias instead of zeros (transfer, then adapt). Its
   * features keep its standardization (mean and std), as fine-tuning keeps a network's
   * normalization; features it lacks start at weight 0, standardized on the new examples.
   */
  init?: LtrModel;
  /**
   * Continue a schedule: the learning rate and the shuffle stream start at this epoch, as if
   * epochs 0..startEpoch-1 had run (their shuffles are drawn and discarded). Training `a`
   * epochs, then `b` more from that model with `startEpoch: a` on the same examples and seed,
   * gives bit-for-bit the model of `a + b` epochs in one call. Default 0 (a fresh schedule).
   */
  startEpoch?: number;
}

/** Training settings of {@link trainLtr}. */
export interface LtrTrainOptions extends LtrFitOptions {
  /** Statistics for the IDF features; default: from the training candidates. */
  stats?: CollectionStats;
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

function nonNegativeInteger(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new KitError(`${what} must be a non-negative integer, got ${value}`);
  }
  return value;
}

/**
 * Trains the logistic-regression ranker on precomputed examples with stochastic gradient
 * descent: features standardized, examples shuffled each epoch by a seeded PRNG
 * (mulberry32), learning rate `lr / (1 + epoch)`, L2 on the weights. The same examples,
 * options and seed give bit-identical weights.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitLtr, ltrExamples } from "./ltr.ts";
 * const qs = [0, 1, 2, 3].map((i) => ({ id: `q${i}`, text: `who painted picture ${i}`,
 *   candidates: [{ id: "a", text: `the weather is nice ${i}`, label: 0 },
 *     { id: "b", text: `picture ${i} was painted by someone`, label: 1 }] }));
 * const ex = ltrExamples(qs);
 * const twice = fitLtr(ex, { seed: 1, epochs: 2 });
 * const once = fitLtr(ex, { seed: 1, epochs: 1 });
 * const continued = fitLtr(ex, { seed: 1, epochs: 1, init: once, startEpoch: 1 });
 * assert.deepEqual(continued.weights, twice.weights);
 * ```
 */
export function fitLtr(examples: LtrExamples, options: LtrFitOptions = {}): LtrModel {
  const seed = options.seed ?? 42;
  const epochs = nonNegativeInteger(options.epochs ?? 30, "epochs");
  const startEpoch = nonNegativeInteger(options.startEpoch ?? 0, "startEpoch");
  const lr0 = options.learningRate ?? 0.1;
  const l2 = options.l2 ?? 1e-4;
  const init = options.init;
  const names = options.features ?? init?.features ?? LTR_FEATURES;
  const pick = featureIndexes(names);
  if (init) {
    checkModel(init);
    const missing = init.features.filter((f) => !names.includes(f));
    if (missing.length) {
      throw new KitError(
        `the initial model uses feature(s) ${missing.join(", ")} that this training leaves out`,
      );
    }
  }
  const n = examples.count;
  if (n === 0) throw new KitError("cannot train the ranker on zero candidates");
  const nf = pick.length;
  const all = LTR_FEATURES.length;
  const raw = examples.x;
  const labels = examples.labels;
  const mean = new Array(nf).fill(0);
  const std = new Array(nf).fill(0);
  const w = new Float64Array(nf);
  let bias = init?.bias ?? 0;
  for (let j = 0; j < nf; j++) {
    const from = init ? init.features.indexOf(names[j]) : -1;
    if (from >= 0) {
      mean[j] = init!.mean[from];
      std[j] = init!.std[from];
      w[j] = init!.weights[from];
      continue;
    }
    const col = pick[j];
    for (let i = 0; i < n; i++) mean[j] += raw[i * all + col] / n;
    for (let i = 0; i < n; i++) std[j] += (raw[i * all + col] - mean[j]) ** 2 / n;
    std[j] = Math.sqrt(std[j]) || 1;
  }
  const x = new Float64Array(n * nf);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < nf; j++) x[i * nf + j] = (raw[i * all + pick[j]] - mean[j]) / std[j];
  }
  const rand = mulberry32(seed);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let epoch = 0; epoch < startEpoch + epochs; epoch++) {
    shuffleInPlace(order, rand);
    if (epoch < startEpoch) continue;
    const lr = lr0 / (1 + epoch);
    for (const i of order) {
      const row = i * nf;
      let z = bias;
      for (let j = 0; j < nf; j++) z += w[j] * x[row + j];
      const g = 1 / (1 + Math.exp(-z)) - labels[i];
      for (let j = 0; j < nf; j++) w[j] -= lr * (g * x[row + j] + l2 * w[j]);
      bias -= lr * g;
    }
  }
  const stage: LtrStage = {
    data: examples.source,
    pairs: n,
    seed,
    epochs,
    startEpoch,
    ...(examples.noise ? { noise: { ...examples.noise } } : {}),
  };
  return {
    features: [...names],
    mean,
    std,
    weights: [...w],
    bias,
    seed,
    trainPairs: n,
    stages: [...(init?.stages ?? []), stage],
  };
}

/**
 * Trains the logistic-regression ranker on labelled questions: {@link ltrExamples}, then
 * {@link fitLtr} (examples shuffled by a seeded PRNG, so training is reproducible).
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
  return fitLtr(ltrExamples(questions, { stats: options.stats }), options);
}

/**
 * One line saying how a model was trained, stage by stage.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeTraining } from "./ltr.ts";
 * const stage = { data: "wikiqa train no-all", pairs: 8672, seed: 3, epochs: 30, startEpoch: 0,
 *   noise: { fraction: 0.1, seed: 3, flipped: 867 } };
 * assert(describeTraining({ features: [], mean: [], std: [], weights: [], bias: 0, seed: 3,
 *   trainPairs: 8672, stages: [stage] }) ===
 *   "wikiqa train no-all (8672 pairs, 10% = 867 labels flipped with seed 3; seed 3, 30 epochs)");
 * ```
 */
export function describeTraining(model: LtrModel): string {
  const stages = model.stages ?? [];
  if (stages.length === 0) return `${model.trainPairs} pairs, seed ${model.seed}`;
  return stages.map((s) => {
    const noise = s.noise
      ? `, ${+(s.noise.fraction * 100).toFixed(2)}% = ${s.noise.flipped} labels flipped ` +
        `with seed ${s.noise.seed}`
      : "";
    const from = s.startEpoch ? `, from epoch ${s.startEpoch}` : "";
    return `${s.data || "examples"} (${s.pairs} pairs${noise}; seed ${s.seed}, ` +
      `${s.epochs} epochs${from})`;
  }).join(", then ");
}

/**
 * Checks that a model is complete and consistent (known features, one finite weight, mean
 * and positive std per feature, a finite bias); throws a KitError naming the problem.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkModel } from "./ltr.ts";
 * assert.throws(() => checkModel({ features: ["bm25"], mean: [0], std: [0], weights: [1],
 *   bias: 0, seed: 1, trainPairs: 1 }), /std/);
 * ```
 */
export function checkModel(model: LtrModel): void {
  if (!Array.isArray(model.features) || model.features.some((f) => typeof f !== "string")) {
    throw new KitError("ranker model: features must be a list of feature names");
  }
  featureIndexes(model.features);
  if (new Set(model.features).size !== model.features.length) {
    throw new KitError("ranker model: a feature is listed twice");
  }
  const n = model.features.length;
  for (const key of ["mean", "std", "weights"] as const) {
    const v = model[key];
    if (!Array.isArray(v) || v.length !== n) {
      throw new KitError(`ranker model: ${key} must hold ${n} numbers, one per feature`);
    }
    const bad = v.findIndex((x) => typeof x !== "number" || !Number.isFinite(x));
    if (bad >= 0) {
      throw new KitError(`ranker model: ${key}[${bad}] (${model.features[bad]}) is not a number`);
    }
  }
  const flat = model.std.findIndex((s) => !(s > 0));
  if (flat >= 0) {
    throw new KitError(`ranker model: std[${flat}] (${model.features[flat]}) must be positive`);
  }
  if (typeof model.bias !== "number" || !Number.isFinite(model.bias)) {
    throw new KitError("ranker model: bias is not a number");
  }
}

/**
 * Scores precomputed examples with a model: the same numbers {@link ltrScorer} gives for the
 * questions the examples were made from (with the same statistics), without recomputing
 * features. Useful to score one test set with many models (seeds).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ltrExamples, scoreLtrExamples, trainLtr } from "./ltr.ts";
 * const qs = [{ id: "q", text: "red dog", candidates: [
 *   { id: "a", text: "a red dog", label: 1 }, { id: "b", text: "blue sky", label: 0 }] }];
 * const s = scoreLtrExamples(trainLtr(qs), ltrExamples(qs));
 * assert(s.length === 2 && s[0] > s[1]);
 * ```
 */
export function scoreLtrExamples(model: LtrModel, examples: LtrExamples): Float32Array {
  const score = rowScorer(model);
  const out = new Float32Array(examples.count);
  for (let i = 0; i < examples.count; i++) out[i] = score(examples.x, i);
  return out;
}

/** Score of row `i` of a row-major all-features matrix: bias + dot(weights, standardized). */
function rowScorer(model: LtrModel): (f: Float64Array, i: number) => number {
  checkModel(model);
  const pick = featureIndexes(model.features);
  const all = LTR_FEATURES.length;
  return (f, i) => {
    let z = model.bias;
    for (let j = 0; j < pick.length; j++) {
      z += model.weights[j] * (f[i * all + pick[j]] - model.mean[j]) / model.std[j];
    }
    return z;
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
  const score = rowScorer(model);
  return {
    id: `ltr:seed${model.seed}`,
    scoreQuestions(questions, options) {
      const st = stats ??
        collectionStats(questions.flatMap((q) => q.candidates.map((c) => c.text)));
      const out = questions.map((q, qi) => {
        const f = questionFeatures(q, st);
        const s = new Float32Array(q.candidates.length);
        for (let c = 0; c < s.length; c++) s[c] = score(f, c);
        if (options?.onProgress && (qi + 1) % 500 === 0) {
          options.onProgress(qi + 1, questions.length);
        }
        return s;
      });
      return Promise.resolve(out);
    },
  };
}
