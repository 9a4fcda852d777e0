import assert from "node:assert/strict";
import {
  heldOutExperiment,
  overfittingWarning,
  precisionAtK,
  type QuestionScorer,
} from "../../lib/stats/heldout.ts";
import { evaluate } from "../../lib/metrics/mod.ts";
import type { Question } from "../../lib/data/types.ts";
import { mulberry32, shuffleInPlace } from "../../lib/stats/random.ts";
import { KitError } from "../../lib/errors.ts";

Deno.test("P@k: unsorted rows, trec_eval tie-break, divides by k", () => {
  const rows = [
    { query: "b", doc: "d1", label: 1, score: 0.5 },
    { query: "a", doc: "x", label: 0, score: 3 },
    { query: "b", doc: "d2", label: 0, score: 0.5 }, // tie: d2 before d1 (docno descending)
    { query: "a", doc: "y", label: 1, score: 2 },
    { query: "a", doc: "z", label: 1, score: 1 },
  ];
  const p2 = precisionAtK(rows, 2);
  assert.equal(p2.perQuery.get("a"), 0.5);
  assert.equal(p2.perQuery.get("b"), 0.5);
  const p1 = precisionAtK(rows, 1);
  assert.equal(p1.perQuery.get("b"), 0); // d2 first
  assert.equal(precisionAtK(rows, 5).perQuery.get("a"), 2 / 5);
  assert.throws(() => precisionAtK([], 5), KitError);
  assert.throws(() => precisionAtK(rows, 0), KitError);
});

Deno.test("P@k agrees with the metric engine's P.5 on shuffled random rows", () => {
  const random = mulberry32(4);
  const rows = [];
  for (let q = 0; q < 30; q++) {
    for (let d = 0; d < 1 + Math.floor(random() * 9); d++) {
      rows.push({
        query: `q${q}`,
        doc: `d${d}`,
        label: random() < 0.3 ? 1 : 0,
        score: Math.floor(random() * 4),
      });
    }
  }
  shuffleInPlace(rows, random);
  const qrels = new Map<string, Map<string, number>>();
  const run = new Map<string, Map<string, number>>();
  for (const r of rows) {
    if (!qrels.has(r.query)) qrels.set(r.query, new Map()), run.set(r.query, new Map());
    qrels.get(r.query)!.set(r.doc, r.label);
    run.get(r.query)!.set(r.doc, r.score);
  }
  const engine = evaluate(qrels, run, ["P.5"]);
  const ours = precisionAtK(rows, 5);
  for (const [q, v] of engine.perQuery) assert.equal(ours.perQuery.get(q), v.P_5);
  assert.ok(Math.abs(ours.mean - engine.summary.P_5) < 1e-12);
});

Deno.test("overfitting warning", () => {
  assert.equal(overfittingWarning(0.3, 0.3), undefined);
  assert.match(overfittingWarning(0.3, 0.31)!, /validation loss 0\.3100 is worse/);
  assert.equal(overfittingWarning(0.3, 0.31, 0.02), undefined);
});

/** Questions whose positive candidate has the feature value `f`; negatives get other values. */
function makeQuestions(prefix: string, n: number, f: number): Question[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${i}`,
    text: `${prefix}${i}`,
    candidates: [0, 1, 2, 3].map((v) => ({ id: `c${v}`, text: String(v), label: v === f ? 1 : 0 })),
  }));
}

Deno.test("held-out protocol: train sees train only, tuned on test, validation once, warning", async () => {
  // The "model" learns the most frequent positive feature value in its training questions,
  // and its setting adds an offset. Train and test agree on value 2, validation has value 3:
  // validation is worse than test -> overfitting warning.
  const split = {
    train: makeQuestions("tr", 20, 2),
    test: makeQuestions("te", 6, 2),
    validation: makeQuestions("va", 4, 3),
  };
  const seenByTrain: string[][] = [];
  const scoredQuestions: string[] = [];
  const train = (qs: Question[], offset: number): QuestionScorer => {
    seenByTrain.push(qs.map((q) => q.id));
    const counts = new Map<string, number>();
    for (const q of qs) {
      for (const c of q.candidates) if (c.label) counts.set(c.text, (counts.get(c.text) ?? 0) + 1);
    }
    const learned = Number([...counts].sort((a, b) => b[1] - a[1])[0][0]) + offset;
    return (q) => {
      scoredQuestions.push(q.id);
      return q.candidates.map((c) => -Math.abs(Number(c.text) - learned));
    };
  };
  const r = await heldOutExperiment({ split, train, configs: [1, 0, -1], k: 1, curve: [0.5, 1] });
  assert.equal(r.best, 0);
  assert.deepEqual(r.tuning.map((t) => t.testPrecision), [0, 1, 0]);
  assert.equal(r.test.precision, 1);
  assert.equal(r.validation.precision, 0);
  assert.equal(r.validation.loss, 1);
  assert.match(r.warning!, /overfitted/);
  for (const ids of seenByTrain) assert.ok(ids.every((id) => id.startsWith("tr")));
  // Validation questions are scored by one scorer pass for P@k and one for the loss only.
  assert.equal(scoredQuestions.filter((id) => id.startsWith("va")).length, 2 * 4);
  assert.deepEqual(r.curve.map((p) => p.trainQueries), [10, 20]);
  assert.ok(r.curve.every((p) => p.trainLoss === 0 && p.testLoss === 0));
  await assert.rejects(
    () => heldOutExperiment({ split: { ...split, validation: [] }, train, configs: [0] }),
    KitError,
  );
});
