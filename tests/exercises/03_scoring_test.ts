/**
 * Solutions of notebook 03's exercises (notebooks/03-scoring.ipynb), each solved with the
 * kit's public API and checked against a value computed independently (tests/exercises/brute.ts,
 * by hand, or by enumeration; Student's t by quadrature): exercise 1 with the tiny random-weight
 * fixture model on the CPU backend, exercise 2 with the learned ranker trained on WikiQA train,
 * on the bundled samples and on the real WikiQA corpus when it is fetched.
 */
import assert from "node:assert/strict";
import {
  analyzeTies,
  evaluate,
  loadCrossEncoder,
  loadSplit,
  pairedTTest,
  qrelsFromQuestions,
  runFromScores,
  scoreSplit,
  tConfidenceInterval,
  tiedRun,
} from "../../lib/mod.ts";
import { realDataDir } from "../helpers.ts";
import * as brute from "./brute.ts";
import { tQuantile, twoSidedP } from "./brute.ts";

const MODEL = new URL("../fixtures/tiny-model/cross-encoder", import.meta.url).pathname;
const close = (a: number, b: number, eps = 1e-12) =>
  assert.ok(Math.abs(a - b) < eps, `${a} != ${b}`);

// Exercise 1: the running example's AP under the model, ranked by hand.
async function exercise1(dir: string, id: string, byHand: number) {
  const { questions } = await loadSplit("wikiqa", "test", { filter: "clean", dir });
  const q = questions.find((x) => x.id === id)!;
  const ce = await loadCrossEncoder(MODEL, { backend: "cpu", scoreCache: false });
  try {
    const scores = await ce.scorePairs(
      q.candidates.map((c) => ({ question: q.text, candidate: c.text })),
    );
    const kit = evaluate(qrelsFromQuestions([q]), runFromScores([q], scores), ["map"]).summary.map;
    const order = brute.trecOrder(q.candidates.map((c) => c.id), [...scores]);
    close(kit, brute.ap(brute.labelsInOrder(q, order)));
    close(kit, byHand);
  } finally {
    await ce.close();
  }
}

/**
 * A random order's expected AP for n candidates, r of them correct, by enumerating every set of
 * ranks the correct ones can take (all equally likely): the definition, for small n.
 */
function expectedApByEnumeration(n: number, r: number): number {
  let total = 0, orders = 0;
  const rel = new Array(n).fill(0);
  const place = (from: number, left: number) => {
    if (left === 0) {
      total += brute.ap(rel);
      orders++;
      return;
    }
    for (let i = from; i <= n - left; i++) {
      rel[i] = 1;
      place(i + 1, left - 1);
      rel[i] = 0;
    }
  };
  place(0, r);
  return total / orders;
}

/** The exercise's closed form: H_n / n + (R - 1)(n - H_n) / (n (n - 1)). */
function expectedAp(n: number, r: number): number {
  let h = 0;
  for (let k = 1; k <= n; k++) h += 1 / k;
  return h / n + (n > 1 ? (r - 1) * (n - h) / (n * (n - 1)) : 0);
}

// Exercise 2: the paired comparison against a random ranking, by hand: the learned ranker's AP
// (by brute force from its scores; their mean is evaluate's MAP) minus the closed-form expected
// AP per question, the mean, t and the 95% interval (Student's t by quadrature), against the
// notebook's pairedTTest and tConfidenceInterval.
async function exercise2(dir: string) {
  for (let n = 1; n <= 9; n++) {
    for (let r = 1; r <= n; r++) {
      const e = expectedApByEnumeration(n, r);
      assert.ok(Math.abs(expectedAp(n, r) - e) < 1e-12, `n ${n}, R ${r}`);
    }
  }
  // the ranker as the notebook trains it: WikiQA train no-all, seed 42
  const { questions, scores } = await scoreSplit("ltr", "wikiqa", "test", {
    filter: "clean",
    dir,
    seed: 42,
  });
  const perQuestion = brute.scoresPerQuestion(questions, scores);
  const modelAp = questions.map((q, j) =>
    brute.ap(brute.labelsInOrder(q, brute.trecOrder(q.candidates.map((c) => c.id), perQuestion[j])))
  );
  const randomAp = questions.map((q) =>
    expectedAp(q.candidates.length, q.candidates.filter((c) => c.label > 0).length)
  );
  const d = modelAp.map((x, i) => x - randomAp[i]);
  const n = d.length, m = brute.mean(d);
  const sd = Math.sqrt(d.reduce((s, x) => s + (x - m) ** 2, 0) / (n - 1));
  const t = m / (sd / Math.sqrt(n));
  const half = tQuantile(n - 1) * sd / Math.sqrt(n);

  // the notebook's cells: per-question AP from evaluate, random from analyzeTies on a tied run
  const qrels = qrelsFromQuestions(questions);
  const perQuery = evaluate(qrels, runFromScores(questions, scores), ["map"]).perQuery;
  const ties = new Map(
    analyzeTies(qrels, tiedRun(questions)).perQuery.map((x) => [x.query, x.ap.expected]),
  );
  const kitModel = questions.map((q) => perQuery.get(q.id)!.map);
  close(
    evaluate(qrels, runFromScores(questions, scores), ["map"]).summary.map,
    brute.mean(modelAp),
  );
  const kitRandom = questions.map((q) => ties.get(q.id)!);
  kitRandom.forEach((x, i) => close(x, randomAp[i], 1e-12));
  const test = pairedTTest(kitModel, kitRandom);
  const ci = tConfidenceInterval(kitModel.map((x, i) => x - kitRandom[i]));
  close(test.meanDifference, m, 1e-12);
  close(test.t, t, 1e-9);
  close(test.p, twoSidedP(t, n - 1), 1e-7);
  close(ci.lower, m - half, 1e-7);
  close(ci.upper, m + half, 1e-7);
  return { n, meanDifference: m, lower: ci.lower, upper: ci.upper, p: test.p };
}

Deno.test("exercises 03 on the samples", async () => {
  // Q301: the model ranks correct, wrong, correct: AP = (1/1 + 2/3) / 2.
  await exercise1(brute.SAMPLE, brute.RUNNING_EXAMPLE.sample, (1 + 2 / 3) / 2);
  // the ranker's AP minus random's, over the 4 clean sample questions: not significant
  const r = await exercise2(brute.SAMPLE);
  close(r.meanDifference, 0.193125, 1e-6);
  assert.ok(r.p > 0.05);
  // the quantile the worked solution uses for the samples' 4 questions: t(0.975, 3)
  close(tQuantile(3), 3.1824, 5e-5);
});

Deno.test({
  name: "exercises 03 on the real WikiQA corpus",
  ignore: !realDataDir("wikiqa"),
  fn: async () => {
    const dir = realDataDir("wikiqa")!;
    // Q463: the correct candidates at ranks 4 and 6: AP = (1/4 + 2/6) / 2.
    await exercise1(dir, brute.RUNNING_EXAMPLE.real, (1 / 4 + 2 / 6) / 2);
    // the notebook's first paired row: 0.2946 [0.2509, 0.3383], p 1.9e-30
    const r = await exercise2(dir);
    close(r.meanDifference, 0.2946, 5e-5);
    // the quantile the exercise text gives for 237 questions: t(0.975, 236) = 1.9701
    close(tQuantile(r.n - 1), 1.9701, 5e-5);
    assert.ok(r.lower > 0.25 && r.upper < 0.34 && r.p < 1e-20);
  },
});
