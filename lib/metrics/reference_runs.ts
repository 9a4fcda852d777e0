/**
 * Runs that bound what any system can score on a set of questions: the best ranking
 * (correct candidates first), the worst (correct ones last) and one with every candidate
 * tied (whose expected value under random tie orders, `analyzeTies` in `lib/stats`, is what a
 * random ranking scores). Evaluated with `evaluate` like any run, they show a measure's
 * ceiling and floor on a slice: where the two meet, the measure cannot see the ranking.
 *
 * @module
 */
import type { Question } from "../data/types.ts";
import type { Run } from "./types.ts";

function runOf(questions: readonly Question[], score: (label: number) => number): Run {
  return new Map(
    questions.map((q) => [q.id, new Map(q.candidates.map((c) => [c.id, score(c.label)]))]),
  );
}

/**
 * The best possible run: each candidate scored by its label, so correct ones come first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluate, qrelsFromQuestions } from "./mod.ts";
 * import { bestRun } from "./reference_runs.ts";
 * const qs = [{ id: "q", text: "?", candidates: [
 *   { id: "a", text: "", label: 0 }, { id: "b", text: "", label: 0 }, { id: "c", text: "", label: 1 }] }];
 * const r = evaluate(qrelsFromQuestions(qs), bestRun(qs), ["map", "P.5"]);
 * assert(r.summary.map === 1 && r.summary.P_5 === 0.2);
 * ```
 */
export function bestRun(questions: readonly Question[]): Run {
  return runOf(questions, (label) => label);
}

/**
 * The worst possible run: correct candidates last.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluate, qrelsFromQuestions } from "./mod.ts";
 * import { worstRun } from "./reference_runs.ts";
 * const qs = [{ id: "q", text: "?", candidates: [
 *   { id: "a", text: "", label: 1 }, { id: "b", text: "", label: 0 }] }];
 * const r = evaluate(qrelsFromQuestions(qs), worstRun(qs), ["map", "P.5"]);
 * assert(r.summary.map === 0.5 && r.summary.P_5 === 0.2);
 * ```
 */
export function worstRun(questions: readonly Question[]): Run {
  return runOf(questions, (label) => -label);
}

/**
 * A run with every candidate tied (score 0). trec_eval breaks the ties by docno, so its
 * value is arbitrary; `analyzeTies` gives the expected value over random orders, i.e. what
 * a random ranking scores.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { qrelsFromQuestions } from "./mod.ts";
 * import { analyzeTies } from "../stats/mod.ts";
 * import { tiedRun } from "./reference_runs.ts";
 * const qs = [{ id: "q", text: "?", candidates: [
 *   { id: "a", text: "", label: 1 }, { id: "b", text: "", label: 0 }] }];
 * assert(analyzeTies(qrelsFromQuestions(qs), tiedRun(qs)).map.expected === 0.75);
 * ```
 */
export function tiedRun(questions: readonly Question[]): Run {
  return runOf(questions, () => 0);
}
