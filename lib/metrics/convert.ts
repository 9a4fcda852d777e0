/**
 * Converters between the answer-selection model (questions with labelled candidates)
 * and TREC qrels / runs.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import type { Question } from "../data/types.ts";
import type { Qrels, Run } from "./types.ts";

/**
 * The qrels of a split: every candidate of every question, judged with its label.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { qrelsFromQuestions } from "./convert.ts";
 * const q = qrelsFromQuestions([{ id: "Q1", text: "?", candidates: [
 *   { id: "D1-0", text: "a", label: 0 }, { id: "D1-1", text: "b", label: 1 }] }]);
 * assert(q.get("Q1")!.get("D1-1") === 1);
 * ```
 */
export function qrelsFromQuestions(questions: readonly Question[]): Qrels {
  const qrels: Qrels = new Map();
  for (const q of questions) {
    if (qrels.has(q.id)) throw new KitError(`duplicate question id ${q.id}`);
    const docs = new Map<string, number>();
    for (const c of q.candidates) {
      if (docs.has(c.id)) throw new KitError(`question ${q.id}: duplicate candidate id ${c.id}`);
      docs.set(c.id, c.label);
    }
    qrels.set(q.id, docs);
  }
  return qrels;
}

/**
 * A run from one score per candidate, in question order then candidate order (the order
 * `questions.flatMap((q) => q.candidates)` gives). Every candidate must get a finite score,
 * so the run covers the whole candidate set as the AS2 protocol requires.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runFromScores } from "./convert.ts";
 * const qs = [{ id: "Q1", text: "?", candidates: [{ id: "a", text: "", label: 0 }, { id: "b", text: "", label: 1 }] }];
 * const run = runFromScores(qs, [0.1, 0.9]);
 * assert(run.get("Q1")!.get("b") === 0.9);
 * ```
 */
export function runFromScores(questions: readonly Question[], scores: ArrayLike<number>): Run {
  const total = questions.reduce((n, q) => n + q.candidates.length, 0);
  if (scores.length !== total) {
    throw new KitError(`got ${scores.length} scores for ${total} candidates`);
  }
  const run: Run = new Map();
  let i = 0;
  for (const q of questions) {
    const docs = new Map<string, number>();
    for (const c of q.candidates) {
      const s = scores[i++];
      if (!Number.isFinite(s)) {
        throw new KitError(`question ${q.id}, candidate ${c.id}: score ${s} is not finite`);
      }
      docs.set(c.id, s);
    }
    run.set(q.id, docs);
  }
  return run;
}
