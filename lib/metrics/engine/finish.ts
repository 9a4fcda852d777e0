/**
 * The finish step of every evaluation, in memory (`evaluate`) and of files (each route of
 * `evaluateTrecFiles`), once the run's queries are measured: the qrels queries the run lacks
 * (with `-c` they count, scoring what trec_eval gives them; trec_eval 10.0 stops on them
 * without `-c`), the run's queries the qrels lack (skipped with a warning, as trec_eval skips
 * them), the queries whose judgments are all negative (a warning), then the result and its
 * means (`QueryEvaluator.result`).
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import { compareDocnos } from "../rank.ts";
import { DEFAULT_RELEASE, type TrecRelease } from "../release.ts";
import type { EvalOptions, EvalResult, QueryJudgments } from "../types.ts";
import type { QueryEvaluator, ShownForMissing } from "./query_evaluator.ts";

/** What the finish step needs of the run and the qrels, besides the measured queries. */
export interface RunLeftovers {
  /** The qrels' queries the run lacks, in the qrels' order. */
  missing: Iterable<string>;
  /**
   * A missing query's judgments at a relevance level, read only with `-c` (as trec_eval looks
   * at them only then).
   */
  judgments(qid: string, level: number): Pick<QueryJudgments, "judged" | "numRel">;
  /** The run's queries the qrels lack, in any order. */
  runOnly: string[];
  /** The run's id (the last line's runid of a TREC run). */
  runId: string;
  /** The run's name, for the error when no query is in both. */
  file?: string;
}

/**
 * Finishes an evaluation (see the module comment): what `evaluate` and `evaluateTrecFiles`
 * return.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { finishEvaluation } from "./finish.ts";
 * import { QueryEvaluator } from "./query_evaluator.ts";
 * const ev = new QueryEvaluator(["map"]);
 * ev.addQuery("q1", ["d1"], [1], { get: () => 1, numRel: 1, judged: Float64Array.of(1) });
 * const leftovers = {
 *   missing: ["q2"],
 *   judgments: () => ({ numRel: 1, judged: Float64Array.of(1) }),
 *   runOnly: [],
 *   runId: "r",
 * };
 * assert.equal(finishEvaluation(ev, leftovers, { complete: true }).summary.map, 0.5);
 * ```
 */
export function finishEvaluation(
  ev: QueryEvaluator,
  run: RunLeftovers,
  options: EvalOptions,
): EvalResult {
  const release = options.release ?? DEFAULT_RELEASE;
  const complete = options.complete ?? false;
  const missing: { qid: string; values: number[]; shown?: ShownForMissing }[] = [];
  for (const qid of run.missing) {
    if (!complete) {
      missing.push({ qid, values: [] });
      continue;
    }
    const j = run.judgments(qid, ev.level);
    const values = ev.valuesForMissing(j, release);
    missing.push({ qid, values, shown: release === "10.0" ? ev.shownForMissing(j) : undefined });
  }
  checkMissingQueries(release, complete, missing.map((m) => m.qid));
  const runOnly = run.runOnly.sort(compareDocnos);
  warnRunOnly(runOnly, options.warn);
  warnAllNegative(ev.allNegativeQueries(), options.warn);
  return ev.result({
    complete,
    runOnlyQueries: runOnly,
    missing,
    runId: run.runId,
    release,
    file: run.file,
  });
}

/**
 * trec_eval 10.0 stops when a qrels query has no results in the run and `-c` is not given
 * (9.0.8 skips such a query); in 10.0 mode the kit does the same, saying why.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkMissingQueries } from "./finish.ts";
 * checkMissingQueries("9.0.8", false, ["q2"]); // skipped, as 9.0.8 does
 * assert.throws(() => checkMissingQueries("10.0", false, ["q2"]), /query q2 of the qrels/);
 * ```
 */
export function checkMissingQueries(
  release: TrecRelease,
  complete: boolean,
  missing: readonly string[],
): void {
  if (release !== "10.0" || complete || missing.length === 0) return;
  const more = missing.length > 1 ? ` (and ${missing.length - 1} more)` : "";
  throw new KitError(
    `query ${missing[0]} of the qrels has no results in the run${more}: trec_eval 10.0 stops ` +
      "here; pass -c to score missing queries 0, or evaluate as trec_eval 9.0.8 (the " +
      "default), which skips them",
  );
}

/**
 * Emits the run-only warning the way trec_eval users expect to see it: how many, the first five,
 * each shown with at most 60 characters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { warnRunOnly } from "./finish.ts";
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
 * import { warnAllNegative } from "./finish.ts";
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
