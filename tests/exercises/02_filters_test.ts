/**
 * Solutions of notebook 02's exercises (notebooks/02-filters.ipynb), each solved with the kit's
 * public API and checked against a value computed independently (tests/exercises/brute.ts, the
 * TSV read by hand), on the bundled samples and on the real WikiQA corpus when it is fetched.
 */
import assert from "node:assert/strict";
import {
  applyFilter,
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

// Exercise 1: Word Cnt's no-all MAP from its clean MAP and the all-positive count.
async function exercise1(dir: string) {
  const raw = await scoreSplit("lexical:wordcnt", "wikiqa", "test", { filter: "raw", dir });
  const run = runFromScores(raw.questions, raw.scores);
  const mapOn = (filter: "clean" | "no-all") =>
    evaluate(qrelsFromQuestions(applyFilter(raw.questions, filter).questions), run, ["map"], {
      warn: false,
    })
      .summary.map;
  const labels = await brute.wikiqaLabels(dir, "test");
  const allPositive = [...labels.values()].filter((l) => l.every((x) => x === 1)).length;
  const mixed = [...labels.values()].filter((l) => l.includes(1) && l.includes(0)).length;
  const byFormula = (mixed * mapOn("clean") + allPositive) / (mixed + allPositive);
  close(mapOn("no-all"), byFormula);
  // and the clean MAP itself from brute-force AP over trec_eval's order
  const perQuestion = brute.scoresPerQuestion(raw.questions, raw.scores);
  const apClean = raw.questions.flatMap((q, j) => {
    const l = labels.get(q.id)!;
    if (!(l.includes(1) && l.includes(0))) return [];
    return [
      brute.ap(
        brute.labelsInOrder(q, brute.trecOrder(q.candidates.map((c) => c.id), perQuestion[j])),
      ),
    ];
  });
  close(mapOn("clean"), brute.mean(apClean));
}

// Exercise 2: dev questions that clean drops and no-all keeps: the all-positive ones.
async function exercise2(dir: string) {
  const { questions } = await loadSplit("wikiqa", "dev", { filter: "raw", dir });
  const kit = applyFilter(questions, "no-all").report.kept -
    applyFilter(questions, "clean").report.kept;
  const byHand =
    [...(await brute.wikiqaLabels(dir, "dev")).values()].filter((l) => l.every((x) => x === 1))
      .length;
  assert.equal(kit, byHand);
  return kit;
}

// Exercise 3: the best ranking's raw MAP is (mixed + all-positive) / raw.
async function exercise3(dir: string) {
  const { questions } = await loadSplit("wikiqa", "test", { filter: "raw", dir });
  const kit =
    evaluate(qrelsFromQuestions(questions), bestRun(questions), ["map"], { warn: false }).summary
      .map;
  const labels = [...(await brute.wikiqaLabels(dir, "test")).values()];
  close(kit, labels.filter((l) => l.includes(1)).length / labels.length);
  return kit;
}

Deno.test("exercises 02 on the samples", async () => {
  await exercise1(brute.SAMPLE);
  assert.equal(await exercise2(brute.SAMPLE), 1);
  close(await exercise3(brute.SAMPLE), 5 / 6); // Q303 alone has no correct sentence
});

Deno.test({
  name: "exercises 02 on the real WikiQA corpus",
  ignore: !realDataDir("wikiqa"),
  fn: async () => {
    const dir = realDataDir("wikiqa")!;
    await exercise1(dir);
    assert.equal(await exercise2(dir), 4); // 126 no-all - 122 clean
    close(await exercise3(dir), 243 / 633);
  },
});
