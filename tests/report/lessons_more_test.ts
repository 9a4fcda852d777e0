import assert from "node:assert/strict";
import type { Question } from "../../lib/data/types.ts";
import { loadSplit } from "../../lib/data/mod.ts";
import {
  filterCountRows,
  filterFigure,
  perQuestion,
  qrcdByQuestion,
  scoreByKind,
  systemSummary,
  tieRows,
} from "../../lib/report/lessons.ts";
import { batchPlan, pairsOf } from "../../lib/report/lessons_scoring.ts";
import { ltrTrainer, sliceRows } from "../../lib/report/lessons_heldout.ts";
import { evaluateQrcd } from "../../lib/qrcd/mod.ts";
import { loadCrossEncoder } from "../../lib/scoring/mod.ts";
import { splitByQuery } from "../../lib/stats/mod.ts";
import { DEFAULT_MODEL } from "../../lib/report/params.ts";

function q(id: string, labels: number[]): Question {
  return {
    id,
    text: `question ${id}`,
    candidates: labels.map((label, i) => ({ id: `${id}-${i}`, text: `c${i}`, label })),
  };
}

const questions = [q("a", [0, 1, 0]), q("b", [1, 0])];
// a: all three tied; b: the correct candidate first.
const tied = new Map([
  ["a", new Map([["a-0", 1], ["a-1", 1], ["a-2", 1]])],
  ["b", new Map([["b-0", 2], ["b-1", 1]])],
]);

Deno.test("per-question AP and the system summary with bootstrap intervals", () => {
  // trec_eval order in a: a-2, a-1, a-0, so the correct a-1 is 2nd: AP 1/2. b: AP 1.
  assert.deepEqual(perQuestion(questions, tied), [0.5, 1]);
  const [row] = systemSummary({ questions, runs: new Map([["s", tied]]) }, 200);
  assert.equal(row.MAP, 0.75);
  assert.ok((row["MAP low"] as number) >= 0.5 && (row["MAP high"] as number) <= 1);
  assert.ok((row["MAP low"] as number) <= 0.75 && (row["MAP high"] as number) >= 0.75);
});

Deno.test("ties: the range of MAP over the orders of tied candidates", () => {
  const [row] = tieRows({ questions, runs: new Map([["s", tied]]) });
  // a's correct candidate can be 1st, 2nd or 3rd: AP 1, 1/2, 1/3; b is untied: 1.
  assert.equal(row["questions with ties"], 1);
  assert.equal(row["MAP min"], (1 / 3 + 1) / 2);
  assert.equal(row["MAP max"], 1);
  assert.ok(Math.abs((row["MAP expected"] as number) - ((1 + 1 / 2 + 1 / 3) / 3 + 1) / 2) < 1e-12);
  assert.equal(row["MAP (trec_eval)"], 0.75);
});

Deno.test("filter figure and per-kind scores", () => {
  const rows = [
    { system: "x", filter: "raw", map: 0.2 },
    { system: "x", filter: "no-all", map: 0.5 },
    { system: "x", filter: "clean", map: 0.6 },
  ];
  const fig = filterFigure(rows);
  assert.deepEqual(fig.data[0].x, ["raw", "no-all", "clean"]);
  assert.deepEqual(fig.data[0].y, [0.2, 0.5, 0.6]);
  const kinds = scoreByKind(
    [...questions, q("n", [0, 0]), q("p", [1])],
    new Map([
      ...tied,
      ["n", new Map([["n-0", 1], ["n-1", 0]])],
      ["p", new Map([["p-0", 1]])],
    ]),
  );
  const byKind = Object.fromEntries(kinds.map((r) => [r.kind, r["mean AP"]]));
  assert.deepEqual(byKind, { mixed: 0.75, allNegative: 0, allPositive: 1 });
});

Deno.test("filter counts on the samples match a direct count", async () => {
  const rows = await filterCountRows("wikiqa", "samples");
  for (const row of rows) {
    const { questions } = await loadSplit("wikiqa", String(row.split), { dir: "samples" });
    const pos = (x: Question) => x.candidates.filter((c) => c.label > 0).length;
    const mixed = questions.filter((x) => pos(x) > 0 && pos(x) < x.candidates.length).length;
    const noAll = questions.filter((x) => pos(x) > 0).length;
    assert.deepEqual([row.raw, row["no-all"], row.clean], [questions.length, noAll, mixed]);
  }
});

Deno.test("QRCD per question: means over each question's records", () => {
  const rec = (pqId: string, questionId: string, answer: string) => ({
    pqId,
    questionId,
    passageId: pqId.split("_")[0],
    surah: 1,
    verses: "1",
    line: 1,
    passage: "إنا أعطيناك الكوثر. فصل لربك وانحر.",
    question: `q${questionId}`,
    answers: [{ text: answer, start: 0 }],
  });
  const gold = [
    rec("1:1_7", "7", "الكوثر"),
    rec("1:2_7", "7", "وانحر"),
    rec("1:3_8", "8", "الكوثر"),
  ];
  const run = new Map([
    ["1:1_7", [{ answer: "الكوثر", rank: 1, score: 1 }]],
    ["1:2_7", [{ answer: "الكوثر", rank: 1, score: 1 }]],
  ]);
  const rows = qrcdByQuestion(gold, evaluateQrcd(gold, run));
  assert.deepEqual(rows.map((r) => [r["question id"], r.records, r.pRR, r.EM]), [
    ["7", 2, 0.5, 0.5],
    ["8", 1, 0, 0],
  ]);
});

Deno.test({
  name: "batch plan: sorted by length, padded to the longest (tiny model, CPU)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const ce = await loadCrossEncoder(DEFAULT_MODEL, { backend: "cpu", scoreCache: false });
    try {
      const texts = ["a", "a b c d e f", "a b", "a b c d e f g h i j k", "a b c"];
      const pairs = pairsOf([{
        id: "a",
        text: "who",
        candidates: texts.map((text, i) => ({ id: `${i}`, text, label: 0 })),
      }]);
      assert.equal(pairs.length, 5);
      const lengths = pairs.map((p) =>
        ce.model.tokenizer.encodePair(p.question, p.candidate, ce.model.maxLength).ids.length
      ).sort((x, y) => x - y);
      const plan = batchPlan(ce.model, pairs, 2, 1);
      assert.deepEqual(plan.map((r) => r.pairs), [2, 2, 1]);
      assert.deepEqual(plan.map((r) => r["padded length"]), [lengths[1], lengths[3], lengths[4]]);
      const share = 1 - (lengths[0] + lengths[1]) / (2 * lengths[1]);
      assert.ok(Math.abs((plan[0]["padding share"] as number) - share) < 1e-12);
      assert.equal(
        batchPlan(ce.model, pairs, 8, 8)[0]["padded length"],
        Math.ceil(lengths[4] / 8) * 8,
      );
    } finally {
      await ce.close();
    }
  },
});

Deno.test("held-out pieces: slice table and the ranker as a trainer", async () => {
  const pool = Array.from({ length: 20 }, (_, i) => q(`q${i}`, [1, 0, 0]));
  const split = splitByQuery(pool, { counts: { train: 12, test: 5, validation: 3 }, seed: 1 });
  const rows = sliceRows(split);
  assert.deepEqual(rows.map((r) => r.questions), [12, 5, 3]);
  assert.deepEqual(rows.map((r) => r.candidates), [36, 15, 9]);
  const scorer = await ltrTrainer(pool)(split.train, 1e-4);
  const scores = await scorer(split.test[0]);
  assert.equal(scores.length, 3);
  // Position features: the first candidate is always the correct one here, so it wins.
  assert.ok(scores[0] > scores[1] && scores[0] > scores[2]);
});
