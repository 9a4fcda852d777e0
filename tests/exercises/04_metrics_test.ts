/**
 * Solutions of notebook 04's exercises (notebooks/04-metrics.ipynb), each solved with the kit's
 * public API and checked against a value computed independently (tests/exercises/brute.ts, or
 * by hand), on the bundled samples and on the real WikiQA corpus when it is fetched.
 */
import assert from "node:assert/strict";
import {
  bestRun,
  evaluate,
  loadSplit,
  qrelsFromQuestions,
  runFromScores,
  scoreSplit,
} from "../../lib/mod.ts";
import { realDataDir } from "../helpers.ts";
import * as brute from "./brute.ts";

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-12, `${a} != ${b}`);

// Exercise 1: BM25's nDCG@3 on the running example, by hand.
async function exercise1(dir: string, id: string, byHand: number) {
  const { questions, scores } = await scoreSplit("lexical:bm25", "wikiqa", "test", {
    filter: "clean",
    dir,
  });
  const run = runFromScores(questions, scores);
  const kit =
    evaluate(qrelsFromQuestions(questions), run, ["ndcg_cut.3"]).perQuery.get(id)!.ndcg_cut_3;
  const j = questions.findIndex((q) => q.id === id);
  const q = questions[j];
  const order = brute.trecOrder(
    q.candidates.map((c) => c.id),
    brute.scoresPerQuestion(questions, scores)[j],
  );
  close(kit, brute.ndcgAt(brute.labelsInOrder(q, order), 3));
  close(kit, byHand);
}

// Exercise 2: P@5 of the best ranking is the mean of min(R, 5) / 5.
async function exercise2(dir: string) {
  const { questions } = await loadSplit("wikiqa", "test", { filter: "clean", dir });
  const kit = evaluate(qrelsFromQuestions(questions), bestRun(questions), ["P.5"]).summary.P_5;
  const byFormula = brute.mean(
    questions.map((q) => Math.min(q.candidates.filter((c) => c.label > 0).length, 5) / 5),
  );
  close(kit, byFormula);
  assert.ok(kit < 1);
}

Deno.test("exercises 04 on the samples", async () => {
  // Q301: BM25 ranks correct, correct, wrong: nDCG@3 = (1 + 1/log2 3) / (1 + 1/log2 3) = 1.
  await exercise1(brute.SAMPLE, brute.RUNNING_EXAMPLE.sample, 1);
  await exercise2(brute.SAMPLE);
});

Deno.test({
  name: "exercises 04 on the real WikiQA corpus",
  ignore: !realDataDir("wikiqa"),
  fn: async () => {
    const dir = realDataDir("wikiqa")!;
    // Q463: BM25 ranks wrong, correct, wrong on top: nDCG@3 = (1/log2 3) / (1 + 1/log2 3).
    const l3 = 1 / Math.log2(3);
    await exercise1(dir, brute.RUNNING_EXAMPLE.real, l3 / (1 + l3));
    await exercise2(dir);
  },
});
