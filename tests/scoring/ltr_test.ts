import assert from "node:assert/strict";
import { collectionStats } from "../../lib/scoring/lexical.ts";
import {
  LTR_FEATURES,
  ltrScorer,
  mulberry32,
  questionFeatures,
  trainLtr,
} from "../../lib/scoring/ltr.ts";

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

Deno.test("mulberry32 is deterministic per seed", () => {
  const a = mulberry32(7), b = mulberry32(7), c = mulberry32(8);
  const xs = [a(), a(), a()];
  assert.deepEqual(xs, [b(), b(), b()]);
  assert.notDeepEqual(xs, [c(), c(), c()]);
  for (const x of xs) assert.ok(x >= 0 && x < 1);
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
