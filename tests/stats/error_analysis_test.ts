/**
 * Error analysis and system summaries, hand-worked: trec_eval's order (ties by id descending)
 * decides the top candidate and the first correct rank; a missing question, an id that is not a
 * candidate; the differences and failures orders; a system's mean over runs against the engine.
 */
import "../quick.ts";
import assert from "node:assert/strict";
import { failures, largestDifferences, questionOutcome } from "../../lib/stats/error_analysis.ts";
import { summarizeRuns } from "../../lib/stats/systems.ts";
import { queryValues } from "../../lib/stats/query_set.ts";
import { evaluate, qrelsFromQuestions } from "../../lib/metrics/mod.ts";
import type { Question } from "../../lib/data/types.ts";

const q = (id: string, labels: number[]): Question => ({
  id,
  text: `question ${id}?`,
  candidates: labels.map((label, i) => ({ id: `${id}-${i}`, text: `sentence ${id}-${i}`, label })),
});

Deno.test("questionOutcome: ties by id descending, missing questions, unknown ids", () => {
  const question = q("Q1", [1, 0, 0]);
  // Q1-0 (correct) ties with Q1-2 at the top: trec_eval ranks Q1-2 first (larger id).
  const o = questionOutcome(question, new Map([["Q1-0", 0.5], ["Q1-1", 0.1], ["Q1-2", 0.5]]));
  assert.deepEqual(o.top, { id: "Q1-2", text: "sentence Q1-2", correct: false });
  assert.equal(o.firstCorrectRank, 2);
  assert.deepEqual(o.correct, [{ id: "Q1-0", text: "sentence Q1-0" }]);
  const missing = questionOutcome(question, undefined);
  assert.equal(missing.inRun, false);
  assert.equal(missing.top, undefined);
  const unknown = questionOutcome(question, new Map([["X", 9], ["Q1-0", 1]]));
  assert.match(unknown.top!.text, /X is not a candidate of this question/);
  assert.equal(unknown.firstCorrectRank, 2);
  // No correct candidate ranked: rank 0.
  assert.equal(questionOutcome(question, new Map([["Q1-1", 1]])).firstCorrectRank, 0);
});

Deno.test("largestDifferences and failures: order and contents", () => {
  const questions = [q("Q1", [1, 0]), q("Q2", [0, 1, 0]), q("Q3", [1, 0, 0, 0]), q("Q4", [1, 0])];
  const qrels = qrelsFromQuestions(questions);
  const runA = new Map([
    ["Q1", new Map([["Q1-0", 2], ["Q1-1", 1]])], // AP 1
    ["Q2", new Map([["Q2-0", 3], ["Q2-1", 2], ["Q2-2", 1]])], // AP 1/2
    ["Q3", new Map([["Q3-0", 1], ["Q3-1", 2], ["Q3-2", 3], ["Q3-3", 4]])], // AP 1/4
    // Q4 missing: 0
  ]);
  const runB = new Map([
    ["Q1", new Map([["Q1-0", 1], ["Q1-1", 2]])], // AP 1/2
    ["Q2", new Map([["Q2-0", 3], ["Q2-1", 2], ["Q2-2", 1]])], // AP 1/2
    ["Q3", new Map([["Q3-0", 4], ["Q3-1", 2], ["Q3-2", 3], ["Q3-3", 1]])], // AP 1
    ["Q4", new Map([["Q4-0", 1], ["Q4-1", 0]])], // AP 1
  ]);
  const values = (run: typeof runA) =>
    queryValues(qrels, run, ["map"], { complete: true }).perQuery;
  const a = { run: runA, values: values(runA) }, b = { run: runB, values: values(runB) };
  const d = largestDifferences(questions, a, b);
  // |differences|: Q3 0.75, Q4 1, Q1 0.5, Q2 0 (left out).
  assert.deepEqual(d.map((x) => [x.a.id, x.difference]), [["Q4", -1], ["Q3", -0.75], ["Q1", 0.5]]);
  assert.equal(d[0].a.inRun, false);
  assert.equal(d[0].b.top!.correct, true);
  assert.equal(largestDifferences(questions, a, b, { limit: 1 }).length, 1);
  const f = failures(questions, a);
  // A's top is wrong on Q2 (first correct at 2), Q3 (at 4), and Q4 is missing: missing first.
  assert.equal(f.count, 3);
  assert.equal(f.of, 4);
  assert.deepEqual(f.worst.map((o) => [o.id, o.firstCorrectRank, o.value]), [
    ["Q4", 0, 0],
    ["Q3", 4, 0.25],
    ["Q2", 2, 0.5],
  ]);
});

Deno.test("summarizeRuns: means over runs equal the engine's -c means; intervals; spread", () => {
  const questions = [q("Q1", [1, 0]), q("Q2", [0, 1, 0]), q("Q3", [1, 0, 0])];
  const qrels = qrelsFromQuestions(questions);
  const runs = [
    new Map([["Q1", new Map([["Q1-0", 2], ["Q1-1", 1]])], [
      "Q2",
      new Map([["Q2-1", 1], ["Q2-0", 0]]),
    ]]),
    new Map([["Q1", new Map([["Q1-0", 1], ["Q1-1", 2]])], ["Q3", new Map([["Q3-0", 1]])]]),
  ];
  const measures = ["map", "recip_rank"];
  const per = runs.map((r) => queryValues(qrels, r, measures, { complete: true, warn: false }));
  const s = summarizeRuns(per.map((p) => p.perQuery), measures, { bootstrap: { samples: 500 } });
  const engine = runs.map((r) =>
    evaluate(qrels, r, measures, { complete: true, warn: false }).summary
  );
  assert.equal(s.queries, 3);
  assert.equal(s.runs, 2);
  assert.deepEqual(s.measures.map.runs!.perRun, engine.map((e) => e.map));
  assert.ok(Math.abs(s.measures.map.mean - (engine[0].map + engine[1].map) / 2) < 1e-15);
  assert.ok(
    s.measures.map.ci!.lower <= s.measures.map.mean &&
      s.measures.map.mean <= s.measures.map.ci!.upper,
  );
  // One run: the engine's mean exactly, no spread.
  const one = summarizeRuns([per[0].perQuery], measures);
  assert.equal(one.measures.map.mean, engine[0].map);
  assert.equal(one.measures.map.runs, undefined);
  assert.throws(() => summarizeRuns([per[0].perQuery], ["P_1"]), /no values for the measure 'P_1'/);
});
