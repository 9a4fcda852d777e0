/**
 * Solutions of notebook 03's exercises (notebooks/03-scoring.ipynb), each solved with the
 * kit's public API and checked against a value computed independently (tests/exercises/brute.ts,
 * or by hand), with the tiny random-weight fixture model on the CPU backend, on the bundled
 * samples and on the real WikiQA corpus when it is fetched.
 */
import assert from "node:assert/strict";
import {
  batchPlan,
  evaluate,
  loadCrossEncoder,
  loadSplit,
  pairSegments,
  pairsOf,
  qrelsFromQuestions,
  runFromScores,
  scoreSplit,
} from "../../lib/mod.ts";
import { realDataDir } from "../helpers.ts";
import * as brute from "./brute.ts";

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

// Exercise 2: tokens computed per batch size (padding included), from each pair's length.
async function exercise2(dir: string) {
  const { questions } = await loadSplit("wikiqa", "test", { filter: "clean", dir });
  const pairs = pairsOf(questions, 48);
  const ce = await loadCrossEncoder(MODEL, { backend: "cpu", scoreCache: false });
  try {
    const lengths = pairs.map((p) =>
      pairSegments(ce.model, p.question, p.candidate).reduce((n, s) => n + (s.tokens as number), 0)
    ).sort((a, b) => a - b);
    for (const b of [1, 8, 32]) {
      const kit = batchPlan(ce.model, pairs, b, 1)
        .reduce((n, r) => n + (r.pairs as number) * (r["padded length"] as number), 0);
      let byHand = 0;
      for (let at = 0; at < lengths.length; at += b) {
        const batch = lengths.slice(at, at + b);
        byHand += batch.length * batch[batch.length - 1];
      }
      assert.equal(kit, byHand, `batch ${b}`);
      if (b === 1) assert.equal(kit, lengths.reduce((x, y) => x + y, 0)); // no padding
    }
  } finally {
    await ce.close();
  }
}

// Exercise 3: the model's MAP on the clean test split, by brute force from its scores.
async function exercise3(dir: string) {
  const { questions, scores } = await scoreSplit(MODEL, "wikiqa", "test", {
    filter: "clean",
    dir,
    backend: "cpu",
    scoreCache: false,
  });
  const kit =
    evaluate(qrelsFromQuestions(questions), runFromScores(questions, scores), ["map"]).summary.map;
  const perQuestion = brute.scoresPerQuestion(questions, scores);
  close(
    kit,
    brute.mean(questions.map((q, j) =>
      brute.ap(brute.labelsInOrder(
        q,
        brute.trecOrder(q.candidates.map((c) => c.id), perQuestion[j]),
      ))
    )),
  );
}

Deno.test("exercises 03 on the samples", async () => {
  // Q301: the model ranks correct, wrong, correct: AP = (1/1 + 2/3) / 2.
  await exercise1(brute.SAMPLE, brute.RUNNING_EXAMPLE.sample, (1 + 2 / 3) / 2);
  await exercise2(brute.SAMPLE);
  await exercise3(brute.SAMPLE);
});

Deno.test({
  name: "exercises 03 on the real WikiQA corpus",
  ignore: !realDataDir("wikiqa"),
  fn: async () => {
    const dir = realDataDir("wikiqa")!;
    // Q463: the correct candidates at ranks 4 and 6: AP = (1/4 + 2/6) / 2.
    await exercise1(dir, brute.RUNNING_EXAMPLE.real, (1 / 4 + 2 / 6) / 2);
    await exercise2(dir);
    await exercise3(dir);
  },
});
