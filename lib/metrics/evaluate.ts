/**
 * The evaluation engine: one per-query computation (`QueryEvaluator`) shared by the
 * in-memory entry point {@link evaluate} (ranx style: plain data in, plain data out)
 * and the file evaluator in `trec_files.ts`.
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
import { compareDocnos } from "./rank.ts";
import { checkMissingQueries } from "./engine/reading_rules.ts";
import { DEFAULT_RELEASE } from "./release.ts";
import type { EvalOptions, EvalResult, Qrels, QueryJudgments, Run } from "./types.ts";
import { QueryEvaluator, type ShownForMissing } from "./engine/query_evaluator.ts";

/**
 * Pre-digests one query's qrels for a relevance level.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { digestJudgments } from "./evaluate.ts";
 * const j = digestJudgments(new Map([["d1", 2], ["d2", 0], ["d3", 1], ["d4", -1]]), 1);
 * assert(j.numRel === 2 && j.judged.join() === "2,1,0,-1");
 * ```
 */
export function digestJudgments(
  judgments: ReadonlyMap<string, number>,
  level: number,
): QueryJudgments {
  let numRel = 0;
  for (const v of judgments.values()) if (v >= 0 && v >= level) numRel++;
  const judged = Float64Array.from(judgments.values()).sort().reverse();
  return { get: (d) => judgments.get(d), numRel, judged };
}

/**
 * Emits the run-only warning the way trec_eval users expect to see it: how many, the first five,
 * each shown with at most 60 characters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { warnRunOnly } from "./evaluate.ts";
 * const said: string[] = [];
 * warnRunOnly(["q9", "B".repeat(100)], (m) => said.push(m));
 * assert.equal(
 *   said[0],
 *   `warning: 2 run queries have no relevance judgments and are ignored: q9, ${"B".repeat(60)}... (100 characters)`,
 * );
 * ```
 */
export function warnRunOnly(
  runOnly: readonly string[],
  warn: EvalOptions["warn"],
): void {
  if (runOnly.length === 0 || warn === false) return;
  (warn ?? console.warn)(
    `warning: ${runOnly.length} run quer${
      runOnly.length === 1 ? "y has" : "ies have"
    } no relevance judgments and ${runOnly.length === 1 ? "is" : "are"} ignored: ${
      shownIds(runOnly)
    }`,
  );
}

/**
 * Says which evaluated queries have only negative judgments: trec_eval cannot evaluate them
 * (`QueryEvaluator.allNegativeQueries`), the kit evaluates them with nothing relevant.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { warnAllNegative } from "./evaluate.ts";
 * const said: string[] = [];
 * warnAllNegative(["q3"], (m) => said.push(m));
 * assert.match(said[0], /^warning: 1 query has only negative judgments: q3; trec_eval/);
 * ```
 */
export function warnAllNegative(qids: readonly string[], warn: EvalOptions["warn"]): void {
  if (qids.length === 0 || warn === false) return;
  const one = qids.length === 1;
  (warn ?? console.warn)(
    `warning: ${qids.length} quer${one ? "y has" : "ies have"} only negative judgments: ${
      shownIds(qids)
    }; trec_eval stops on ${one ? "it" : "them"} ("Can't calculate measure", or a crash), the ` +
      `kit evaluates ${one ? "it" : "them"} with nothing relevant`,
  );
}

/** The first five ids, each shown with at most 60 characters (an id of any length is read). */
function shownIds(ids: readonly string[]): string {
  const short = (id: string) =>
    id.length > 60 ? `${id.slice(0, 60)}... (${id.length} characters)` : id;
  return ids.slice(0, 5).map(short).join(", ") + (ids.length > 5 ? ", ..." : "");
}

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
  return evaluateFrom(mapJudgments(qrels), run, measures, options);
}

/**
 * Where {@link evaluateFrom} reads judgments: a `Qrels` Map (`mapJudgments`) or the file
 * engine's index, which can count a docno judged twice in a query the run lacks (trec_eval
 * 9.0.8's `-c` counts such judgments without looking at them).
 */
export interface JudgmentSource {
  /** Whether the qrels judge the query. */
  has(qid: string): boolean;
  /** The judged queries, in file order. */
  queries(): Iterable<string>;
  /** A judged query's judgments at a level; `retrieved`: whether the run ranks the query. */
  digest(qid: string, level: number, retrieved: boolean): QueryJudgments;
}

/**
 * A `Qrels` Map as a {@link JudgmentSource}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mapJudgments } from "./evaluate.ts";
 * const s = mapJudgments(new Map([["q1", new Map([["d1", 2], ["d2", 0]])]]));
 * assert(s.has("q1") && s.digest("q1", 1, true).numRel === 1);
 * ```
 */
export function mapJudgments(qrels: Qrels): JudgmentSource {
  return {
    has: (qid) => qrels.has(qid),
    queries: () => qrels.keys(),
    digest: (qid, level) => digestJudgments(qrels.get(qid)!, level),
  };
}

/**
 * {@link evaluate} on any {@link JudgmentSource} (the file engine reads an unsorted or JSON
 * run this way).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluateFrom, mapJudgments } from "./evaluate.ts";
 * const qrels = mapJudgments(new Map([["q1", new Map([["d1", 1]])]]));
 * const r = evaluateFrom(qrels, new Map([["q1", new Map([["d1", 1]])]]), ["map"]);
 * assert.equal(r.summary.map, 1);
 * ```
 */
export function evaluateFrom(
  qrels: JudgmentSource,
  run: Run,
  measures: readonly string[],
  options: EvalOptions = {},
): EvalResult {
  const ev = new QueryEvaluator(measures, options);
  const release = options.release ?? DEFAULT_RELEASE;
  const runOnlyQueries: string[] = [];
  const digest = (qid: string) => qrels.digest(qid, ev.level, run.has(qid));
  for (const [qid, docs] of run) {
    if (!qrels.has(qid)) {
      runOnlyQueries.push(qid);
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
    ev.addQuery(qid, docnos, scores, digest(qid), release);
  }
  const missing: { qid: string; values: number[]; shown?: ShownForMissing }[] = [];
  const listed = release === "10.0" && options.complete;
  for (const qid of qrels.queries()) {
    if (run.has(qid)) continue;
    const j = digest(qid);
    missing.push({
      qid,
      values: ev.valuesForMissing(j, release),
      shown: listed ? ev.shownForMissing(j) : undefined,
    });
  }
  runOnlyQueries.sort(compareDocnos);
  checkMissingQueries(release, options.complete ?? false, missing.map((m) => m.qid));
  warnRunOnly(runOnlyQueries, options.warn);
  warnAllNegative(ev.allNegativeQueries(), options.warn);
  return ev.result({
    complete: options.complete ?? false,
    runOnlyQueries,
    missing,
    runId: "kit",
    release,
  });
}
