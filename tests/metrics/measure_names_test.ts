/**
 * The measure-name table the lessons show (`MEASURE_NAMES`): the trec_eval, ir_measures and
 * ranx names of each row compute the same per-query values (random runs with graded judgments,
 * no tied scores), each label is the one the kit's pages print for the output name, and the
 * output name is the one trec_eval prints.
 */
import "../quick.ts";
import assert from "node:assert/strict";
import { evaluate } from "../../lib/metrics/evaluate.ts";
import { MEASURE_NAMES, measureLabel } from "../../lib/metrics/protocol_measures.ts";
import { mulberry32 } from "../../lib/stats/random.ts";
import type { Qrels, Run } from "../../lib/metrics/types.ts";

function randomCase(seed: number): { qrels: Qrels; run: Run } {
  const random = mulberry32(seed);
  const qrels: Qrels = new Map(), run: Run = new Map();
  for (let q = 0; q < 30; q++) {
    const judged = new Map<string, number>(), scored = new Map<string, number>();
    const n = 1 + Math.floor(random() * 15);
    for (let d = 0; d < n; d++) {
      judged.set(`d${d}`, random() < 0.3 ? 1 + Math.floor(random() * 2) : 0);
      scored.set(`d${d}`, d + random()); // distinct scores: no tie order to disagree on
    }
    qrels.set(`q${q}`, judged);
    run.set(`q${q}`, scored);
  }
  return { qrels, run };
}

Deno.test("measure names: trec_eval's, ir_measures' and ranx's names of a row agree", () => {
  for (const seed of [1, 2, 3]) {
    const { qrels, run } = randomCase(seed);
    for (const m of MEASURE_NAMES) {
      const byTrecEval = evaluate(qrels, run, [m.trecEval]);
      assert.deepEqual(Object.keys(byTrecEval.summary), [m.output], `${m.label}: output name`);
      for (const other of [m.irMeasures, m.ranx]) {
        const r = evaluate(qrels, run, [other]);
        for (const [q, values] of byTrecEval.perQuery) {
          assert.equal(r.perQuery.get(q)![other], values[m.output], `${m.label} as ${other}, ${q}`);
        }
      }
      assert.equal(measureLabel(m.output), m.label);
    }
  }
});
