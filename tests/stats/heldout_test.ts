import "../quick.ts";
import assert from "node:assert/strict";
import {
  type CandidateScorer,
  heldOutExperiment,
  overfittingWarning,
  scoreSlice,
} from "../../lib/stats/heldout.ts";
import { evaluate, qrelsFromQuestions, runFromScores } from "../../lib/metrics/mod.ts";
import type { Question } from "../../lib/data/types.ts";
import { mulberry32 } from "../../lib/stats/random.ts";
import { KitError } from "../../lib/errors.ts";

Deno.test("scoreSlice: the metric engine's values, trec_eval tie-break, any measure", async () => {
  // Tied scores: trec_eval orders d2 before d1 (docno descending), so the correct d1 is 2nd.
  const tied = {
    id: "t",
    text: "",
    candidates: [{ id: "d1", text: "", label: 1 }, { id: "d2", text: "", label: 0 }],
  };
  assert.equal((await scoreSlice([tied], () => [0.5, 0.5], "map")).value, 0.5);
  assert.equal((await scoreSlice([tied], () => [0.5, 0.5], "P.1")).value, 0);
  assert.equal((await scoreSlice([tied], () => [0.5, 0.5], "P.5")).perQuery.get("t"), 0.2);
  // Random questions and scores: per-question values equal evaluate's on the same run.
  const random = mulberry32(3);
  const qs: Question[] = Array.from({ length: 25 }, (_, i) => ({
    id: `q${i}`,
    text: "",
    candidates: Array.from({ length: 1 + Math.floor(random() * 8) }, (_, j) => ({
      id: `d${j}`,
      text: "",
      label: random() < 0.3 ? 1 : 0,
    })),
  }));
  const scores = qs.map((q) => q.candidates.map(() => Math.floor(random() * 3)));
  const byId = new Map(qs.map((q, i) => [q.id, scores[i]]));
  const ours = await scoreSlice(qs, (q) => byId.get(q.id)!, "map");
  const engine = evaluate(qrelsFromQuestions(qs), runFromScores(qs, scores.flat()), ["map"]);
  for (const [q, v] of engine.perQuery) assert.equal(ours.perQuery.get(q), v.map);
  assert.equal(ours.value, engine.summary.map);
  await assert.rejects(() => scoreSlice([], () => [], "map"), KitError);
  await assert.rejects(() => scoreSlice([tied], () => [1], "map"), /1 scores for 2 candidates/);
});

Deno.test("overfitting warning: only when test lies above validation's interval", () => {
  assert.equal(overfittingWarning(0.6, { value: 0.55, upper: 0.6 }, "map"), undefined);
  assert.match(overfittingWarning(0.7, { value: 0.5, upper: 0.65 }, "map")!, /test map 0\.7000/);
  assert.throws(() => overfittingWarning(NaN, { value: 0.5, upper: 0.6 }, "map"), KitError);
});

/** Questions whose positive candidate has the feature value `f`; negatives get other values. */
function makeQuestions(prefix: string, n: number, f: number): Question[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${i}`,
    text: `${prefix}${i}`,
    candidates: [0, 1, 2, 3].map((v) => ({ id: `c${v}`, text: String(v), label: v === f ? 1 : 0 })),
  }));
}

Deno.test("held-out protocol: train sees train only, chosen on test, validation once, warning", async () => {
  // The "model" learns the most frequent positive feature value in its training questions,
  // and its setting adds an offset. Train and test agree on value 2, validation has value 3:
  // validation is worse than test beyond its interval -> overfitting warning.
  const split = {
    train: makeQuestions("tr", 20, 2),
    test: makeQuestions("te", 6, 2),
    validation: makeQuestions("va", 4, 3),
  };
  const seenByTrain: string[][] = [];
  const scored: string[] = [];
  const train = (qs: Question[], offset: number): CandidateScorer => {
    seenByTrain.push(qs.map((q) => q.id));
    const counts = new Map<string, number>();
    for (const q of qs) {
      for (const c of q.candidates) if (c.label) counts.set(c.text, (counts.get(c.text) ?? 0) + 1);
    }
    const learned = Number([...counts].sort((a, b) => b[1] - a[1])[0][0]) + offset;
    return (q) => {
      scored.push(q.id);
      return q.candidates.map((c) => -Math.abs(Number(c.text) - learned));
    };
  };
  const r = await heldOutExperiment({ split, train, configs: [1, 0, -1], curve: [0.5, 1] });
  assert.equal(r.measure, "map");
  assert.equal(r.best, 0);
  assert.equal(r.tied, false);
  // Offsets +-1 put the positive second (its neighbours tie, docno descending decides).
  assert.equal(r.tuning[1].test, 1);
  assert.ok(r.tuning[0].test < 1 && r.tuning[2].test < 1);
  assert.equal(r.test.value, 1);
  // Learned 2, validation's positive is 3: ranked 2nd after 2 -> AP 0.5 on every question.
  assert.equal(r.validation.value, 0.5);
  assert.deepEqual([r.validation.lower, r.validation.upper], [0.5, 0.5]);
  assert.match(r.warning!, /above the 95% interval/);
  for (const ids of seenByTrain) assert.ok(ids.every((id) => id.startsWith("tr")));
  // Validation questions are scored once, by the chosen model only.
  assert.equal(scored.filter((id) => id.startsWith("va")).length, 4);
  assert.deepEqual(r.curve.map((p) => p.trainQueries), [10, 20]);
  assert.ok(r.curve.every((p) => p.train === 1 && p.test === 1));
  const best = Array.from(await r.bestScorer(split.validation[0]), (x) => x + 0);
  assert.deepEqual(best, [-2, -1, 0, -1]);
});

Deno.test("held-out protocol: tied settings are reported; bad input is a KitError", async () => {
  const split = {
    train: makeQuestions("tr", 4, 1),
    test: makeQuestions("te", 2, 1),
    validation: makeQuestions("va", 2, 1),
  };
  const constant = () => (q: Question) => q.candidates.map(() => 0);
  const r = await heldOutExperiment({ split, train: constant, configs: ["a", "b"] });
  assert.equal(r.tied, true);
  assert.equal(r.best, "a");
  assert.equal(r.warning, undefined);
  await assert.rejects(
    () => heldOutExperiment({ split: { ...split, validation: [] }, train: constant }),
    /validation slice is empty/,
  );
  await assert.rejects(() => heldOutExperiment({ split, train: constant, configs: [] }), KitError);
  await assert.rejects(
    () => heldOutExperiment({ split, train: constant, curve: [1.5] }),
    /curve shares/,
  );
});
