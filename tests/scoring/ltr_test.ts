import "../quick.ts";
import assert from "node:assert/strict";
import { collectionStats } from "../../lib/scoring/lexical.ts";
import {
  fitLtr,
  LTR_FEATURES,
  ltrExamples,
  ltrScorer,
  questionFeatures,
  scoreLtrExamples,
  trainLtr,
} from "../../lib/scoring/ltr.ts";
import { loadSplit } from "../../lib/data/mod.ts";
import { mulberry32 } from "../../lib/stats/random.ts";

const at = (f: Float64Array, c: number, name: (typeof LTR_FEATURES)[number]) =>
  f[c * LTR_FEATURES.length + LTR_FEATURES.indexOf(name)];

Deno.test("features of a hand-worked question", () => {
  const q = {
    id: "q",
    text: "Who founded the city of Rome?",
    candidates: [
      { id: "0", text: "Rome is a city in Italy." },
      { id: "1", text: "Romulus founded the city of Rome." },
      { id: "2", text: "Pasta is popular." },
    ],
  };
  const stats = collectionStats(q.candidates.map((c) => c.text));
  const f = questionFeatures(q, stats);
  // content terms: founded, city, rome
  assert.equal(at(f, 0, "wordcnt"), 2);
  assert.equal(at(f, 1, "wordcnt"), 3);
  assert.equal(at(f, 1, "wordcnt_norm"), 1);
  assert.equal(at(f, 2, "wordcnt"), 0);
  // bigrams of the question: who founded, founded the, the city, city of, of rome (5);
  // candidate 1 holds four of them
  assert.equal(at(f, 1, "bigram_overlap"), 4 / 5);
  assert.equal(at(f, 1, "wgtwordcnt_rel"), 1);
  assert.equal(at(f, 1, "bm25_rel"), 1);
  assert.equal(at(f, 0, "position"), 0);
  assert.equal(at(f, 1, "position"), 0.5);
  assert.equal(at(f, 2, "inv_position"), 1 / 3);
  assert.equal(at(f, 2, "cand_len"), Math.log1p(3));
  assert.equal(at(f, 0, "q_len"), Math.log1p(6));
});

/** Synthetic data where the answer shares the question's rare words and is not first. */
function synthetic(n: number, salt: number) {
  const rand = mulberry32(salt);
  const word = () => "w" + Math.floor(rand() * 500);
  return Array.from({ length: n }, (_, i) => {
    const key = [word(), word(), word()];
    const answerAt = 1 + Math.floor(rand() * 4);
    const candidates = Array.from({ length: 5 }, (_, c) => ({
      id: `c${c}`,
      text: c === answerAt
        ? `${word()} ${key.join(" ")} ${word()}`
        : `${word()} ${key[c % 3]} ${word()} ${word()}`,
      label: c === answerAt ? 1 : 0,
    }));
    return { id: `q${salt}-${i}`, text: `what is ${key.join(" ")}`, candidates };
  });
}

Deno.test("training is deterministic for a seed and learns a separable signal", async () => {
  const train = synthetic(200, 1);
  const m1 = trainLtr(train, { seed: 5, epochs: 10 });
  const m2 = trainLtr(train, { seed: 5, epochs: 10 });
  const m3 = trainLtr(train, { seed: 6, epochs: 10 });
  assert.deepEqual(m1, m2);
  assert.notDeepEqual(m1.weights, m3.weights);
  assert.equal(m1.trainPairs, 1000);
  // the full-overlap feature must carry positive weight
  assert.ok(m1.weights[LTR_FEATURES.indexOf("wordcnt_norm")] > 0);
  const test = synthetic(100, 2);
  const scores = await ltrScorer(m1).scoreQuestions(test);
  let top1 = 0;
  test.forEach((q, i) => {
    const best = scores[i].indexOf(Math.max(...scores[i]));
    if (q.candidates[best].label === 1) top1++;
  });
  assert.ok(top1 >= 95, `top-1 accuracy ${top1}/100`);
});

Deno.test("a model with other features is refused", () => {
  const m = trainLtr(synthetic(5, 3), { epochs: 1 });
  assert.throws(() => ltrScorer({ ...m, features: ["x"] }), /unknown ranker feature 'x'/);
});

/** The SGD of docs/scoring.md written out independently: standardize, shuffle, step. */
function referenceSgd(
  rows: number[][],
  labels: number[],
  start: { mean: number[]; std: number[]; weights: number[]; bias: number },
  seed: number,
  epochs: number,
): { weights: number[]; bias: number } {
  const x = rows.map((r) => r.map((v, j) => (v - start.mean[j]) / start.std[j]));
  const w = [...start.weights];
  let b = start.bias;
  const rand = mulberry32(seed);
  const order = rows.map((_, i) => i);
  for (let e = 0; e < epochs; e++) {
    for (let i = order.length - 1; i > 0; i--) {
      const k = Math.floor(rand() * (i + 1));
      [order[i], order[k]] = [order[k], order[i]];
    }
    const lr = 0.1 / (1 + e);
    for (const i of order) {
      const z = b + w.reduce((s, wj, j) => s + wj * x[i][j], 0);
      const g = 1 / (1 + Math.exp(-z)) - labels[i];
      for (let j = 0; j < w.length; j++) w[j] -= lr * (g * x[i][j] + 1e-4 * w[j]);
      b -= lr * g;
    }
  }
  return { weights: w, bias: b };
}

Deno.test("ltrExamples holds questionFeatures' rows and the labels, in order", () => {
  const qs = synthetic(7, 9);
  const ex = ltrExamples(qs, { source: "synthetic" });
  const stats = collectionStats(qs.flatMap((q) => q.candidates.map((c) => c.text)));
  assert.equal(ex.count, 35);
  assert.equal(ex.source, "synthetic");
  let at = 0;
  for (const q of qs) {
    const f = questionFeatures(q, stats);
    assert.deepEqual([...ex.x.subarray(at * LTR_FEATURES.length, (at + 5) * LTR_FEATURES.length)], [
      ...f,
    ]);
    for (const c of q.candidates) assert.equal(ex.labels[at++], c.label);
  }
});

Deno.test("training from initial weights: the documented SGD, started from those weights", () => {
  const source = ltrExamples(synthetic(30, 11));
  const target = ltrExamples(synthetic(20, 12));
  const features = ["wordcnt", "bm25", "bigram_overlap", "cand_len"];
  const init = fitLtr(source, { seed: 4, epochs: 3, features: features.slice(0, 3) });
  const adapted = fitLtr(target, { seed: 8, epochs: 2, init, features });
  // init's features keep its standardization and weights; the new one starts at 0 with the
  // target's mean and population sd
  const col = (j: number) =>
    Array.from(
      { length: target.count },
      (_, i) => target.x[i * LTR_FEATURES.length + LTR_FEATURES.indexOf(features[j] as never)],
    );
  const m3 = col(3).reduce((a, b) => a + b, 0) / target.count;
  const s3 = Math.sqrt(col(3).reduce((a, b) => a + (b - m3) ** 2, 0) / target.count);
  assert.deepEqual(adapted.mean.slice(0, 3), init.mean);
  assert.deepEqual(adapted.std.slice(0, 3), init.std);
  assert.ok(Math.abs(adapted.mean[3] - m3) < 1e-12 && Math.abs(adapted.std[3] - s3) < 1e-12);
  const rows = Array.from({ length: target.count }, (_, i) => features.map((_, j) => col(j)[i]));
  const ref = referenceSgd(
    rows,
    [...target.labels],
    {
      mean: adapted.mean,
      std: adapted.std,
      weights: [...init.weights, 0],
      bias: init.bias,
    },
    8,
    2,
  );
  ref.weights.forEach((w, j) => assert.ok(Math.abs(w - adapted.weights[j]) < 1e-12, `w${j}`));
  assert.ok(Math.abs(ref.bias - adapted.bias) < 1e-12);
  assert.deepEqual(adapted.stages?.map((s) => [s.pairs, s.seed, s.epochs]), [[150, 4, 3], [
    100,
    8,
    2,
  ]]);
});

Deno.test("training a, then b more epochs from that model equals a + b epochs in one call", () => {
  const ex = ltrExamples(synthetic(40, 13));
  for (const [a, b] of [[1, 1], [3, 4], [0, 2]]) {
    const whole = fitLtr(ex, { seed: 21, epochs: a + b });
    const first = fitLtr(ex, { seed: 21, epochs: a });
    const continued = fitLtr(ex, { seed: 21, epochs: b, init: first, startEpoch: a });
    assert.deepEqual(continued.weights, whole.weights, `${a} + ${b}`);
    assert.equal(continued.bias, whole.bias);
    assert.deepEqual(continued.mean, whole.mean);
  }
  // a fresh schedule from the same weights is another training
  const first = fitLtr(ex, { seed: 21, epochs: 3 });
  assert.notDeepEqual(
    fitLtr(ex, { seed: 21, epochs: 4, init: first }).weights,
    fitLtr(ex, {
      seed: 21,
      epochs: 7,
    }).weights,
  );
  // no learning: the initial model comes back
  const still = fitLtr(ex, { seed: 5, epochs: 3, init: first, learningRate: 0 });
  assert.deepEqual(still.weights, first.weights);
  assert.equal(still.bias, first.bias);
});

Deno.test("fitLtr refuses an initial model with features the training leaves out", () => {
  const ex = ltrExamples(synthetic(5, 14));
  const init = fitLtr(ex, { epochs: 1 });
  assert.throws(
    () => fitLtr(ex, { init, features: ["wordcnt"] }),
    /initial model uses feature\(s\) wordcnt_norm/,
  );
  assert.throws(() => fitLtr(ex, { epochs: -1 }), /epochs must be a non-negative integer/);
  assert.throws(() => fitLtr({ ...ex, count: 0 }), /zero candidates/);
  assert.throws(() => fitLtr(ex, { init: { ...init, std: init.std.map(() => 0) } }), /std\[0\]/);
});

Deno.test("scoreLtrExamples gives ltrScorer's scores, bit for bit", async () => {
  const { questions } = await loadSplit("wikiqa", "test", { filter: "clean", dir: "samples" });
  const train = await loadSplit("wikiqa", "train", { filter: "no-all", dir: "samples" });
  const model = trainLtr(train.questions, { seed: 3 });
  const stats = collectionStats(questions.flatMap((q) => q.candidates.map((c) => c.text)));
  const perQuestion = await ltrScorer(model, stats).scoreQuestions(questions);
  const flat = scoreLtrExamples(model, ltrExamples(questions, { stats }));
  assert.deepEqual([...flat], perQuestion.flatMap((s) => [...s]));
});
