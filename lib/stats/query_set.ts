/**
 * The queries a statistic is computed over, the same as `eval trec`'s with the same flags.
 *
 * trec_eval averages over the queries in both the run and the qrels; with `-c` over every
 * qrels query, a query missing from the run counting with the values of an empty ranking
 * (0 for every mean measure). Significance tests, bootstrap intervals, stability across runs
 * and tie ranges pair or average per-query values, so they need those values for exactly
 * the queries `eval trec` averages over: with `-c` that includes the missing queries, which
 * `EvalResult.perQuery` leaves out (trec_eval prints no `-q` line for them).
 * {@link queryValues} gives them, through the one evaluator (`evaluate`): each missing
 * query is evaluated as an empty ranking, which is what `-c` means.
 *
 * @module
 */
import { evaluate, noSharedQueries, type Qrels, type Run } from "../metrics/evaluate.ts";
import type { TrecRelease } from "../metrics/trec_format.ts";
import type { PerQueryValues } from "./compare.ts";

/** Options of {@link queryValues}. */
export interface QueryValuesOptions {
  /** Every qrels query counts, missing ones as an empty ranking (`trec_eval -c`). */
  complete?: boolean;
  /** A judgment counts as relevant when >= this (`-l`, default 1). */
  relevanceLevel?: number;
  /** The trec_eval release reproduced (`--trec-eval`; default 9.0.8: scores as 32-bit floats). */
  release?: TrecRelease;
  /** Where the run-only warning goes (default stderr); `false` silences it. */
  warn?: ((message: string) => void) | false;
  /** The run's name, for the error when it shares no query with the qrels. */
  file?: string;
}

/** Per-query values over the query set `eval trec` averages over. */
export interface QueryValues {
  /** Output names of the measures (`map`, `P_1`, ...). */
  measures: string[];
  /** Query id to values, for every query averaged over (qid order). */
  perQuery: PerQueryValues;
  /** The means (sums for `num_*`), equal to `eval trec`'s `all` lines with the same flags. */
  summary: Record<string, number>;
  /** Number of queries averaged over (`num_q`). */
  numQ: number;
  /** Qrels queries the run lacks (counted as empty rankings with `complete`, else left out). */
  missingQueries: string[];
  /** Run queries without judgments (ignored, as trec_eval does). */
  runOnlyQueries: string[];
}

/**
 * Evaluates `run` and returns the per-query values of every query that `eval trec` (and
 * trec_eval) averages over with the same flags; with `complete`, the qrels queries missing
 * from the run are there too, with the values of an empty ranking. The means are those of
 * `evaluate(qrels, run, measures, {complete})`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { queryValues } from "./query_set.ts";
 * const qrels = new Map([["q1", new Map([["a", 1]])], ["q2", new Map([["b", 1]])]]);
 * const run = new Map([["q1", new Map([["a", 0.5]])]]);
 * const c = queryValues(qrels, run, ["map"], { complete: true });
 * assert.deepEqual([...c.perQuery], [["q1", { map: 1 }], ["q2", { map: 0 }]]);
 * assert(c.summary.map === 0.5 && c.numQ === 2 && c.missingQueries[0] === "q2");
 * assert(queryValues(qrels, run, ["map"]).perQuery.size === 1);
 * ```
 */
export function queryValues(
  qrels: Qrels,
  run: Run,
  measures: readonly string[],
  options: QueryValuesOptions = {},
): QueryValues {
  checkSharedQueries(qrels, run.keys(), options);
  const missingQueries = [...qrels.keys()].filter((q) => !run.has(q)).sort();
  let evaluated = run;
  if (options.complete && missingQueries.length) {
    evaluated = new Map(run);
    for (const q of missingQueries) evaluated.set(q, new Map());
  }
  const r = evaluate(qrels, evaluated, measures, {
    complete: options.complete,
    relevanceLevel: options.relevanceLevel,
    release: options.release,
    warn: options.warn,
  });
  return {
    measures: r.measures,
    perQuery: r.perQuery,
    summary: r.summary,
    numQ: r.numQ,
    missingQueries,
    runOnlyQueries: r.runOnlyQueries,
  };
}

/**
 * Refuses a run that shares no query with the qrels, as `eval trec` does ({@link
 * noSharedQueries}), `-c` or not: padding the qrels queries with empty rankings would
 * otherwise give a mean of 0 for a run that was never evaluated. trec_eval 10.0's `-c` is
 * the one exception (it evaluates every qrels query, as `eval trec --trec-eval 10.0 -c`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkSharedQueries } from "./query_set.ts";
 * const qrels = new Map([["q1", new Map([["a", 1]])]]);
 * checkSharedQueries(qrels, ["q1", "x"]);
 * assert.throws(() => checkSharedQueries(qrels, ["x"], { complete: true, file: "b.run" }), /^KitError: b\.run: no query/);
 * checkSharedQueries(qrels, ["x"], { complete: true, release: "10.0" });
 * ```
 */
export function checkSharedQueries(
  qrels: { has(qid: string): boolean; readonly size: number },
  runQueries: Iterable<string>,
  options: { complete?: boolean; release?: TrecRelease; file?: string } = {},
): void {
  if (options.complete && options.release === "10.0" && qrels.size > 0) return;
  for (const q of runQueries) if (qrels.has(q)) return;
  throw noSharedQueries(options.file);
}

/**
 * One measure's per-query values, in qid order, as `stability`, `bootstrapCI` and the
 * paired tests take them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { measureValues } from "./query_set.ts";
 * assert.deepEqual(measureValues(new Map([["q1", { map: 0.5 }], ["q2", { map: 1 }]]), "map"), [0.5, 1]);
 * ```
 */
export function measureValues(perQuery: PerQueryValues, measure: string): number[] {
  return [...perQuery.values()].map((v) => v[measure]);
}
