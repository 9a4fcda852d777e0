/**
 * How much of each system's MAP and MRR is tie-breaking: the summary the systems report keeps
 * per system (means over its runs of `analyzeTies`).
 *
 * @module
 */
import type { Qrels, Run } from "../../metrics/mod.ts";
import { analyzeTies, type TieAnalysis } from "../../stats/ties.ts";

/** How far a system's MAP and MRR move over the orders of its tied candidates. */
export interface TieSummary {
  system: string;
  runs: number;
  questionsWithTies: number;
  questionsAffected: number;
  map: { trecEval: number; min: number; max: number; expected: number };
  mrr: { trecEval: number; min: number; max: number; expected: number };
}

/**
 * A system's tie summary: each run analysed over every question of the qrels (`-c`), then the
 * means over its runs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tieSummary } from "./ties_data.ts";
 * const qrels = new Map([["q", new Map([["a", 1], ["b", 0]])]]);
 * const run = new Map([["q", new Map([["a", 1], ["b", 1]])]]); // a tie: b first by docno
 * const t = tieSummary("x", qrels, [run]);
 * assert.deepEqual([t.map.trecEval, t.map.min, t.map.max, t.map.expected], [0.5, 0.5, 1, 0.75]);
 * ```
 */
export function tieSummary(system: string, qrels: Qrels, runs: readonly Run[]): TieSummary {
  const each = runs.map((run) => analyzeTies(qrels, run, { complete: true }));
  const avg = (f: (t: TieAnalysis) => number) => each.reduce((x, t) => x + f(t), 0) / each.length;
  const range = (k: "map" | "mrr") => ({
    trecEval: avg((t) => t[k].trecEval),
    min: avg((t) => t[k].min),
    max: avg((t) => t[k].max),
    expected: avg((t) => t[k].expected),
  });
  return {
    system,
    runs: runs.length,
    questionsWithTies: avg((t) => t.queriesWithTies),
    questionsAffected: avg((t) => t.queriesAffected),
    map: range("map"),
    mrr: range("mrr"),
  };
}
