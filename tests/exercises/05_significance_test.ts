/**
 * Solutions of notebook 05's exercises (notebooks/05-significance.ipynb), each solved with the
 * kit's public API and checked against a value computed independently (tests/exercises/brute.ts,
 * or by hand), on the bundled samples and on the real WikiQA corpus when it is fetched.
 */
import assert from "node:assert/strict";
import {
  evaluate,
  loadSplit,
  pairedTTest,
  qrelsFromQuestions,
  runFromScores,
  scoreSplit,
  signTest,
  tConfidenceInterval,
} from "../../lib/mod.ts";
import type { Question } from "../../lib/mod.ts";
import { realDataDir } from "../helpers.ts";
import * as brute from "./brute.ts";

const close = (a: number, b: number, eps = 1e-12) =>
  assert.ok(Math.abs(a - b) < eps, `${a} != ${b}`);

/** Per-question AP of a run, in question order. */
function apOf(questions: Question[], scores: ArrayLike<number>): number[] {
  const perQuery = evaluate(
    qrelsFromQuestions(questions),
    runFromScores(questions, Float32Array.from(scores)),
    ["map"],
  ).perQuery;
  return questions.map((q) => perQuery.get(q.id)!.map);
}

/** BM25's per-question AP on WikiQA test clean (the lesson's questions). */
async function bm25(dir: string) {
  const { questions, scores } = await scoreSplit("lexical:bm25", "wikiqa", "test", {
    filter: "clean",
    dir,
  });
  return { questions, ap: apOf(questions, scores) };
}

// Exercise 1: the sign test of ltr against BM25, its p from the binomial by hand.
async function exercise1(dir: string) {
  const base = await bm25(dir);
  const ltr = await scoreSplit("ltr", "wikiqa", "test", { filter: "clean", dir });
  const apLtr = apOf(ltr.questions, ltr.scores);
  const wins = apLtr.filter((x, i) => x > base.ap[i]).length;
  const losses = apLtr.filter((x, i) => x < base.ap[i]).length;
  const n = wins + losses;
  // P(X <= min(wins, losses)) for X ~ Binomial(n, 1/2), by summing C(n, k) / 2^n
  let choose = 1, tail = 0;
  for (let k = 0; k <= Math.min(wins, losses); k++) {
    tail += choose / 2 ** n;
    choose = choose * (n - k) / (k + 1);
  }
  const kit = signTest(apLtr, base.ap);
  assert.deepEqual([kit.wins, kit.losses, kit.ties], [wins, losses, apLtr.length - n]);
  close(kit.p, Math.min(1, 2 * tail), 1e-12);
  return kit;
}

// Exercise 2: ranking by position alone: its MAP by hand, then the t interval of its
// per-question difference from BM25 by hand, which holds 0 exactly when p >= 0.05.
async function exercise2(dir: string) {
  const { questions } = await loadSplit("wikiqa", "test", { filter: "clean", dir });
  const base = await bm25(dir);
  assert.deepEqual(base.questions.map((q) => q.id), questions.map((q) => q.id));
  const position = apOf(questions, questions.flatMap((q) => q.candidates.map((_, i) => -i)));
  const byHand = questions.map((q) => brute.ap(q.candidates.map((c) => c.label > 0 ? 1 : 0)));
  position.forEach((x, i) => close(x, byHand[i]));
  const d = position.map((x, i) => x - base.ap[i]);
  const n = d.length, m = brute.mean(d);
  const sd = Math.sqrt(d.reduce((s, x) => s + (x - m) ** 2, 0) / (n - 1));
  const half = brute.tQuantile(n - 1) * sd / Math.sqrt(n);
  const kit = tConfidenceInterval(d);
  close(kit.lower, m - half, 1e-6);
  close(kit.upper, m + half, 1e-6);
  const t = pairedTTest(position, base.ap);
  close(t.t, m / (sd / Math.sqrt(n)), 1e-9);
  close(t.p, brute.twoSidedP(t.t, n - 1), 1e-6);
  assert.equal(kit.lower <= 0 && kit.upper >= 0, t.p >= 0.05);
  return { map: brute.mean(position), interval: kit, p: t.p };
}

Deno.test("exercises 05 on the samples", async () => {
  // ltr and BM25 each have the higher AP on 2 of the 4 sample questions: p = 1
  const sign = await exercise1(brute.SAMPLE);
  assert.deepEqual([sign.wins, sign.losses, sign.ties, sign.p], [2, 2, 0, 1]);
  const { map } = await exercise2(brute.SAMPLE);
  close(map, (1 + 1 + 1 / 3 + 0.5 * (1 / 1 + 2 / 3)) / 4);
});

Deno.test({
  name: "exercises 05 on the real WikiQA corpus",
  ignore: !realDataDir("wikiqa"),
  fn: async () => {
    const dir = realDataDir("wikiqa")!;
    // ltr's lead over BM25 is clear under the sign test too (95 against 50 on real WikiQA)
    assert.ok((await exercise1(dir)).p < 0.05);
    // the ranking by position alone: no difference from BM25 shown (p about 0.08)
    const { interval, p } = await exercise2(dir);
    assert.ok(interval.lower < 0 && interval.upper > 0 && p > 0.05);
  },
});
