/**
 * Evaluating a run held in memory against qrels held in memory ({@link evaluate}, ranx style:
 * plain data in, plain data out), with the per-query computation (`engine/query_evaluator.ts`)
 * and the finish step (`engine/finish.ts`) of the file evaluation (`evaluate_files.ts`).
 *
 * Which queries count follows trec_eval 9.0.8: only queries in both the run and the qrels;
 * run-only queries are skipped with a warning; with `complete` (`trec_eval -c`) the mean is
 * over every qrels query, the ones missing from the run adding 0 (the geometric means add
 * log 0.00001 each; num_rel counts their judgments > 0, as trec_eval 9.0.8 does). `-M`
 * (`maxDocs`) keeps the first documents of each ranking, `-J` (`judgedOnly`) then drops the
 * unjudged ones; both apply here, to every route.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { finishEvaluation } from "./engine/finish.ts";
import { QueryEvaluator } from "./engine/query_evaluator.ts";
import { DEFAULT_RELEASE } from "./release.ts";
import type { EvalOptions, EvalResult, Qrels, QueryJudgments, Run } from "./types.ts";

/**
 * Evaluates a run against qrels (ranx-style entry point; trec_eval semantics). Measure
 * names are trec_eval's (`map`, `P.5,10`, `all_trec`) or ir_measures' (`AP@100`, `nDCG@10`,
 * `P(rel=2)@5`); results are keyed by the names as given.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluate } from "./evaluate.ts";
 * const qrels = new Map([["q1", new Map([["d1", 1], ["d2", 0]])]]);
 * const run = new Map([["q1", new Map([["d1", 0.2], ["d2", 0.9]])]]);
 * const r = evaluate(qrels, run, ["map", "recip_rank", "P.1", "nDCG@10"]);
 * assert(r.summary.map === 0.5 && r.summary.P_1 === 0 && r.summary["nDCG@10"] > 0.6);
 * ```
 */
export function evaluate(
  qrels: Qrels,
  run: Run,
  measures: readonly string[],
  options: EvalOptions = {},
): EvalResult {
  const ev = new QueryEvaluator(measures, options);
  const release = options.release ?? DEFAULT_RELEASE;
  const runOnly: string[] = [];
  for (const [qid, docs] of run) {
    const judgments = qrels.get(qid);
    if (!judgments) {
      runOnly.push(qid);
      continue;
    }
    const docnos = [...docs.keys()];
    const scores = new Float64Array(docnos.length);
    for (let i = 0; i < docnos.length; i++) {
      const s = docs.get(docnos[i])!;
      if (Number.isNaN(s)) {
        throw new KitError(
          `query ${qid}, document ${docnos[i]}: score NaN has no place in trec_eval's order`,
        );
      }
      scores[i] = s;
    }
    ev.addQuery(qid, docnos, scores, digestJudgments(judgments, ev.level), release);
  }
  return finishEvaluation(ev, {
    missing: [...qrels.keys()].filter((qid) => !run.has(qid)),
    judgments: (qid, level) => digestJudgments(qrels.get(qid)!, level),
    runOnly,
    runId: "kit",
  }, options);
}

/** One query's judgments as the measures read them, at a relevance level. */
function digestJudgments(
  judgments: ReadonlyMap<string, number>,
  level: number,
): QueryJudgments {
  let numRel = 0;
  for (const v of judgments.values()) if (v >= 0 && v >= level) numRel++;
  const judged = Float64Array.from(judgments.values()).sort().reverse();
  return { get: (d) => judgments.get(d), numRel, judged };
}
