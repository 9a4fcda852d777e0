/**
 * Brute-force evaluation: ranks with its own sort, applies `-M` / `-J` and the ir_measures
 * views on plain arrays, runs each table entry's `reference` (its definition written with
 * `measures/brute.ts`, sharing no code with the fast computations) and combines per-query
 * values with its own loops. The property tests and `deno task bench eval` compare the kit's
 * evaluator with this. Slow on purpose (quadratic scans, plain objects); not exported from
 * `mod.ts`.
 *
 * @module
 */
import type { MeasureOptions, ReferenceQuery } from "./measure.ts";
import { selectMeasures } from "./select.ts";
import type { TrecRelease } from "../release.ts";

/** Qrels as plain records: query id to (docno to judgment). */
export type Judgments = Record<string, Record<string, number>>;
/** A run as plain records: query id to (docno to score). */
export type Scores = Record<string, Record<string, number>>;

/**
 * Docnos of a query in trec_eval order (score descending, then docno descending); docnos
 * here are ASCII, where `<` equals strcmp.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { referenceRanking } from "./reference.ts";
 * assert(referenceRanking({ a: 1, b: 2, c: 1 }).join() === "b,c,a");
 * ```
 */
export function referenceRanking(docs: Record<string, number>): string[] {
  const entries = Object.entries(docs);
  entries.sort(([da, sa], [db, sb]) => {
    if (sa !== sb) return sa > sb ? -1 : 1;
    return da === db ? 0 : da > db ? -1 : 1;
  });
  return entries.map(([d]) => d);
}

/** The measures `bench eval` checks (the AS2 protocol's and trec_eval's counts), as `-m` names. */
export const REFERENCE_MEASURES = [
  "num_ret",
  "num_rel",
  "num_rel_ret",
  "map",
  "Rprec",
  "recip_rank",
  "P.1,5",
  "ndcg_cut.3,10",
];

/** Options of {@link referenceEvaluate} (as `EvalOptions`). */
export interface ReferenceOptions {
  complete?: boolean;
  relevanceLevel?: number;
  judgedOnly?: boolean;
  maxDocs?: number;
  numDocs?: number;
  /**
   * 10.0 rounds recall cutoffs, has rbp, rbp_resid and unj and, with `complete`, evaluates a
   * query missing from the run on one unjudged stand-in document (num_ret, utility,
   * rbp_resid and unj then 0), printing its line.
   */
  release?: TrecRelease;
}

/** The stand-in document trec_eval 10.0 ranks for a qrels query missing from the run. */
const STAND_IN = "ceci_nest_pas_un_docno";

/** What {@link referenceEvaluate} returns. */
export interface ReferenceResult {
  numQ: number;
  summary: Record<string, number>;
  perQuery: Record<string, Record<string, number | string>>;
}

/**
 * Evaluates `run` against `qrels` by brute force for the measures named as `-m` takes them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { referenceEvaluate } from "./reference.ts";
 * const r = referenceEvaluate({ q: { a: 1 } }, { q: { a: 1, b: 2 } }, ["map", "P.1"]);
 * assert(r.summary.map === 0.5 && r.summary.P_1 === 0);
 * ```
 */
export function referenceEvaluate(
  qrels: Judgments,
  run: Scores,
  measures: readonly string[],
  options: ReferenceOptions = {},
): ReferenceResult {
  const level = options.relevanceLevel ?? 1;
  const measureOptions: MeasureOptions = {
    numDocs: options.numDocs ?? 0,
    release: options.release ?? "9.0.8",
  };
  const standIn = options.complete && options.release === "10.0";
  const lines = selectMeasures(measures, () => {}, { release: options.release, level })
    .instances.filter((i) => i.measure.aggregate !== "meta");
  const perQuery: Record<string, Record<string, number | string>> = {};
  const queries = standIn
    ? [...new Set([...Object.keys(run), ...Object.keys(qrels)])]
    : Object.keys(run);
  for (const q of queries) {
    if (!(q in qrels)) continue;
    const missing = !(q in run);
    let ranking = missing ? [STAND_IN] : referenceRanking(run[q]);
    if (options.maxDocs !== undefined) ranking = ranking.slice(0, options.maxDocs);
    const judged = (d: string) => d in qrels[q] && qrels[q][d] >= 0;
    if (options.judgedOnly) ranking = ranking.filter(judged);
    const row: Record<string, number | string> = {};
    for (const line of lines) {
      const view = line.view ?? {};
      let judgments = qrels[q];
      if (view.gains) {
        const g = view.gains;
        judgments = Object.fromEntries(
          Object.entries(judgments).map(([d, v]) => [d, g.has(v) ? g.get(v)! : v]),
        );
      }
      const rq: ReferenceQuery = {
        ranking: view.judgedOnly ? ranking.filter(judged) : ranking,
        judgments,
        level: view.level ?? level,
      };
      // 10.0 clears the stand-in's values printed under these exact names, not their
      // parameterised variants (utility_1,-1,0,0, relstring_3, rbp_resid_p=0.5), and every
      // name that starts with unj (strncmp).
      const cleared = missing &&
        (["num_ret", "utility", "relstring", "rbp_resid"].includes(line.label) ||
          line.label.slice(0, 3) === "unj");
      row[line.label] = cleared
        ? (line.measure.aggregate === "none" ? "" : 0)
        : line.measure.reference(rq, line.param as never, measureOptions);
    }
    perQuery[q] = row;
  }
  const evaluated = Object.keys(perQuery);
  const missing = options.complete && !standIn ? Object.keys(qrels).filter((q) => !(q in run)) : [];
  const numQ = evaluated.length + missing.length;
  const summary: Record<string, number> = {};
  for (const line of lines) {
    const m = line.measure;
    if (m.aggregate === "none") continue;
    const values = evaluated.map((q) => perQuery[q][line.label] as number);
    if (m.aggregate === "geometric") {
      // A query missing from the run counts as the floor, 0.00001.
      const logs = [...values, ...missing.map(() => 0)].map((v) => Math.log(Math.max(v, 0.00001)));
      summary[line.label] = Math.exp(logs.reduce((s, x) => s + x, 0) / numQ);
    } else if (m.completeSum && options.complete) {
      // trec_eval's num_rel with -c (both releases): every judgment > 0 of every qrels query.
      summary[line.label] = Object.values(qrels).flatMap((j) => Object.values(j))
        .filter((v) => v > 0).length;
    } else {
      const sum = values.reduce((s, v) => s + v, 0);
      summary[line.label] = m.aggregate === "sum" ? sum : sum / numQ;
    }
  }
  return { numQ, summary, perQuery };
}
