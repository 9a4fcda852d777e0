import assert from "node:assert/strict";
import type { Question } from "../../lib/data/types.ts";
import {
  evaluateUnderFilters,
  filterExamples,
  judgmentSplitLeak,
  precisionAtK,
  questionOverlap,
  questionViews,
} from "../../lib/report/lessons.ts";
import { HEADLINE_MIME, headlineBundle, headlinesOf } from "../../lib/report/headline.ts";
import { corpusDir, notebookParams } from "../../lib/report/params.ts";
import { KitError } from "../../lib/errors.ts";

function q(id: string, labels: number[]): Question {
  return {
    id,
    text: `question ${id}`,
    candidates: labels.map((label, i) => ({ id: `${id}-${i}`, text: `c${i}`, label })),
  };
}

// mixed: correct candidate ranked 2nd of 3 (AP 1/2, RR 1/2); all-negative (AP 0);
// all-positive with 2 candidates (AP 1); mixed ranked first (AP 1).
const questions = [q("a", [0, 1, 0]), q("b", [0, 0]), q("c", [1, 1]), q("d", [1, 0])];
const run = new Map([
  ["a", new Map([["a-0", 3], ["a-1", 2], ["a-2", 1]])],
  ["b", new Map([["b-0", 1], ["b-1", 2]])],
  ["c", new Map([["c-0", 1], ["c-1", 2]])],
  ["d", new Map([["d-0", 5], ["d-1", 1]])],
]);

Deno.test("the same run under raw, no-all and clean (hand-computed MAP/MRR)", () => {
  const rows = evaluateUnderFilters(questions, run);
  assert.deepEqual(rows.map((r) => r.filter), ["raw", "no-all", "clean"]);
  assert.deepEqual(rows.map((r) => r.questions), [4, 3, 2]);
  // raw: (0.5 + 0 + 1 + 1) / 4; no-all drops b: (0.5 + 1 + 1) / 3; clean drops b and c.
  assert.equal(rows[0].map, 2.5 / 4);
  assert.equal(rows[1].map, 2.5 / 3);
  assert.equal(rows[2].map, 1.5 / 2);
  assert.equal(rows[2].recip_rank, 1.5 / 2);
});

Deno.test("first correct rank follows trec_eval order, 0 when none", () => {
  const tied = new Map([["a", new Map([["a-0", 1], ["a-1", 1], ["a-2", 1]])]]);
  // Ties broken by docno descending: a-2, a-1, a-0, so the correct a-1 is 2nd.
  assert.equal(questionViews(questions, tied)[0].firstCorrectRank, 2);
  const views = questionViews(questions, run);
  assert.deepEqual(views.map((v) => v.firstCorrectRank), [2, 0, 1, 1]);
  assert.deepEqual(views.map((v) => v.candidates), [3, 2, 2, 2]);
});

Deno.test("precision at k divides by k", () => {
  const { k, precision } = precisionAtK(questions, run, 3);
  assert.deepEqual(k, [1, 2, 3]);
  // P@1: a 0, b 0, c 1, d 1 -> 0.5. P@3: a 1/3, b 0, c 2/3, d 1/3 -> (4/3)/4.
  assert.equal(precision[0], 0.5);
  assert.ok(Math.abs(precision[2] - (4 / 3) / 4) < 1e-12);
});

Deno.test("judgment split: divided questions counted; by-question overlap is 0 ids", () => {
  const many = Array.from({ length: 200 }, (_, i) => q(`q${i}`, [1, 0, 0, 0, 0]));
  const leak = judgmentSplitLeak(many, 0.2, 7);
  assert.ok(leak.testJudgments > 100 && leak.testJudgments < 300);
  // With 5 candidates and p = 0.2, P(all in test | some in test) = 0.2^5 / (1 - 0.8^5) < 0.1%.
  assert.ok(leak.testQuestionsAlsoInTrain >= leak.testQuestions - 2);
  assert.deepEqual(judgmentSplitLeak(many, 0.2, 7), leak, "same seed, same split");
  const rows = questionOverlap({ train: many.slice(0, 100), test: many.slice(100) });
  assert.equal(rows[0]["shared ids"], 0);
  assert.equal(rows[0]["shared texts"], 0);
});

Deno.test("filter examples name what removes each kind", () => {
  const rows = filterExamples(questions);
  assert.deepEqual(rows.map((r) => [r.kind, r["removed by"]]), [
    ["allNegative", "no-all and clean"],
    ["allPositive", "clean"],
    ["mixed", "kept by every setting"],
  ]);
});

Deno.test("headlines round-trip through a notebook's outputs, order kept", () => {
  const bundle = headlineBundle({ title: "t", numbers: { z: 1, MAP: 0.5, a: "x" } });
  // Through JSON with sorted keys, as nbformat writes notebooks.
  const sorted = JSON.parse(
    JSON.stringify(
      bundle,
      (_k, v) =>
        v && typeof v === "object" && !Array.isArray(v)
          ? Object.fromEntries(
            Object.entries(v).sort(([a], [b]) => a < b ? -1 : 1),
          )
          : v,
    ),
  );
  const nb = {
    cells: [{ outputs: [{ data: { "text/plain": "x" } }] }, { outputs: [{ data: sorted }] }],
  };
  const [h] = headlinesOf(nb);
  assert.equal(h.title, "t");
  assert.deepEqual(Object.keys(h.numbers), ["z", "MAP", "a"]);
  assert.ok(HEADLINE_MIME.startsWith("application/"));
});

Deno.test("notebook parameters: defaults, checks, real data must be fetched", () => {
  assert.deepEqual(notebookParams({}), { data: "sample", backend: "webgpu" });
  assert.deepEqual(notebookParams({ KIT_DATA: "real", KIT_BACKEND: "cpu", KIT_MODEL: "m" }), {
    data: "real",
    backend: "cpu",
    model: "m",
  });
  assert.throws(() => notebookParams({ KIT_DATA: "full" }), /KIT_DATA must be/);
  assert.throws(() => notebookParams({ KIT_BACKEND: "cuda" }), /KIT_BACKEND must be/);
  const saved = Deno.env.get("QA_KIT_DATA_DIR");
  Deno.env.set("QA_KIT_DATA_DIR", "/nonexistent-kit-cache");
  try {
    assert.throws(() => corpusDir({ data: "real", backend: "cpu" }, "wikiqa"), KitError);
    assert.match(corpusDir({ data: "sample", backend: "cpu" }, "wikiqa"), /data\/samples$/);
  } finally {
    if (saved === undefined) Deno.env.delete("QA_KIT_DATA_DIR");
    else Deno.env.set("QA_KIT_DATA_DIR", saved);
  }
});
