/**
 * The queries a statistic is computed over, the same as `eval trec`'s with the same flags.
 *
 * trec_eval averages over the queries in both the run and the qrels; with `-c` over every
 * qrels query, a query missing from the run adding to each sum what trec_eval adds for it (0
 * for every mean measure; `--trec-eval 10.0`: the values of its stand-in ranking). Significance
 * tests, bootstrap intervals, stability across runs and tie ranges pair or average per-query
 * values, so they need those values for exactly the queries `eval trec` averages over: with
 * `-c` that includes the missing queries, which `EvalResult.perQuery` leaves out (trec_eval
 * 9.0.8 prints no `-q` line for them) and `EvalResult.missingValues` holds.
 * {@link queryValues} (runs in memory) and {@link fileQueryValues} (run files, read as
 * `eval trec` reads them, never whole) give both together, from the one evaluator; their means
 * are `eval trec`'s `all` lines. {@link commonQueries} is the one rule for several runs:
 * the same queries, or with `intersection` those all of them have.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { evaluate } from "../metrics/evaluate.ts";
import { noSharedQueries } from "../metrics/engine/query_evaluator.ts";
import type { EvalResult, Qrels, Run } from "../metrics/types.ts";
import { compareDocnos } from "../metrics/rank.ts";
import { evaluateTrecFiles } from "../metrics/evaluate_files.ts";
import type { TextSource } from "../io/source.ts";
import type { TrecRelease } from "../metrics/release.ts";

/** Query id to (measure name to value), as `compare.ts`' `PerQueryValues` (not imported: it imports this module). */
type PerQueryValues = Map<string, Record<string, number>>;

/** Options of {@link queryValues}. */
export interface QueryValuesOptions {
  /** Every qrels query counts, a missing one as trec_eval `-c` counts it. */
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
  /** Qrels queries the run lacks (counted as trec_eval `-c` counts them with `complete`). */
  missingQueries: string[];
  /** Run queries without judgments (ignored, as trec_eval does). */
  runOnlyQueries: string[];
}

/** An evaluation's per-query values with `-c`'s missing queries added (qid order). */
function valuesOf(r: EvalResult): QueryValues {
  let perQuery: PerQueryValues = r.perQuery;
  if (r.missingValues.size) {
    // 10.0 lists a missing query in perQuery with the values it prints; the summary adds
    // missingValues, and so do the statistics.
    perQuery = new Map([...r.perQuery].filter(([q]) => !r.missingValues.has(q)));
    for (const [q, v] of r.missingValues) perQuery.set(q, v);
    perQuery = new Map([...perQuery].sort((a, b) => compareDocnos(a[0], b[0])));
  }
  return {
    measures: r.measures,
    perQuery,
    summary: r.summary,
    numQ: r.numQ,
    missingQueries: r.missingQueries,
    runOnlyQueries: r.runOnlyQueries,
  };
}

/**
 * Evaluates `run` and returns the per-query values of every query that `eval trec` (and
 * trec_eval) averages over with the same flags; with `complete`, the qrels queries missing
 * from the run are there too, with what trec_eval `-c` adds for them. The means are those of
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
  return valuesOf(evaluate(qrels, run, measures, {
    complete: options.complete,
    relevanceLevel: options.relevanceLevel,
    release: options.release,
    warn: options.warn,
  }));
}

/**
 * {@link queryValues} of a run file (TREC or JSON, gzip too, `-` for standard input) against a
 * qrels file, read as `eval trec` reads them: the run is never held whole, only its per-query
 * values are kept.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileQueryValues } from "./query_set.ts";
 * const bytes = (s: string) => new TextEncoder().encode(s);
 * const qrels = { name: "q", bytes: bytes("q1 0 a 1\nq2 0 b 1\n") };
 * const run = { name: "r", bytes: bytes("q1 Q0 a 1 0.5 x\n") };
 * const c = await fileQueryValues(qrels, run, ["map"], { complete: true });
 * assert.deepEqual([...c.perQuery], [["q1", { map: 1 }], ["q2", { map: 0 }]]);
 * ```
 */
export async function fileQueryValues(
  qrels: TextSource,
  run: TextSource,
  measures: readonly string[],
  options: QueryValuesOptions = {},
): Promise<QueryValues> {
  return valuesOf(
    await evaluateTrecFiles(qrels, run, measures, {
      complete: options.complete,
      relevanceLevel: options.relevanceLevel,
      release: options.release,
      warn: options.warn,
    }),
  );
}

/**
 * The queries several systems are compared or averaged over, sorted (so a pairing, and a seeded
 * test, does not depend on map order): with `same` (the default) every system must have the
 * same queries, else a `KitError` says how to make them so; with `intersection` the queries
 * every system has (`counts` gives each one's number of queries, for a note; `what` names them in
 * messages). No shared query is an error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commonQueries } from "./query_set.ts";
 * const a = new Map([["q1", {}], ["q2", {}]]), b = new Map([["q2", {}]]);
 * assert.throws(() => commonQueries({ a, b }), /systems cover different queries \(a: 2, b: 1; common to all: 1\)/);
 * assert.deepEqual(commonQueries({ a, b }, "intersection").queries, ["q2"]);
 * ```
 */
export function commonQueries(
  systems: Map<string, PerQueryValues> | Record<string, PerQueryValues>,
  mode: "same" | "intersection" = "same",
  what = "systems",
): { queries: string[]; counts: string } {
  const named = systems instanceof Map ? [...systems] : Object.entries(systems);
  const sets = named.map(([, v]) => v);
  const queries = [...sets[0].keys()].filter((q) => sets.every((s) => s.has(q))).sort();
  const counts = named.map(([n, v]) => `${n}: ${v.size}`).join(", ");
  if (mode === "same" && sets.some((s) => s.size !== queries.length)) {
    throw new KitError(
      `${what} cover different queries (${counts}; common to all: ${queries.length}), so ` +
        "their means are over different questions; evaluate every run over the same queries " +
        "(with -c, or complete: true, every qrels query counts, a missing one as trec_eval " +
        'counts it) or use only the queries every run covers (--intersect, or queries: "intersection")',
    );
  }
  if (queries.length === 0) throw new KitError(`the ${what} share no query (${counts})`);
  return { queries, counts };
}

/**
 * Refuses a run that shares no query with the qrels, as `eval trec` does ({@link
 * noSharedQueries}), `-c` or not: counting every qrels query as missing would otherwise give a
 * mean of 0 for a run that was never evaluated. trec_eval 10.0's `-c` is
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
  const seen: string[] = [];
  for (const q of runQueries) {
    if (qrels.has(q)) return;
    seen.push(q);
  }
  const keys = (qrels as { keys?: () => Iterable<string> }).keys?.();
  throw noSharedQueries(options.file, keys ? { run: seen, qrels: keys } : undefined);
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
