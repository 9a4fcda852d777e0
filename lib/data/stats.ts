/**
 * Split statistics, as in the corpus tables: questions, candidates, positives, and the
 * questions a filter would drop.
 *
 * @module
 */
import type { Question } from "./types.ts";

/** Counts of one split. */
export interface SplitStats {
  questions: number;
  candidates: number;
  positives: number;
  /** Questions whose candidates are all correct (a question without candidates is not counted). */
  allPositive: number;
  /** Questions with candidates, none of them correct. */
  allNegative: number;
  /** Questions without any candidate (TREC-QA has a few). */
  noCandidates: number;
}

/**
 * Counts questions, candidates, positives, all-positive and all-negative questions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitStats } from "./stats.ts";
 * const s = splitStats([{ id: "q", text: "", candidates: [{ id: "a", text: "", label: 1 }] }]);
 * assert(s.allPositive === 1 && s.allNegative === 0 && s.positives === 1);
 * ```
 */
export function splitStats(questions: readonly Question[]): SplitStats {
  const s: SplitStats = {
    questions: 0,
    candidates: 0,
    positives: 0,
    allPositive: 0,
    allNegative: 0,
    noCandidates: 0,
  };
  for (const q of questions) {
    s.questions++;
    s.candidates += q.candidates.length;
    let pos = 0;
    for (const c of q.candidates) if (c.label > 0) pos++;
    s.positives += pos;
    if (q.candidates.length === 0) s.noCandidates++;
    else if (pos === 0) s.allNegative++;
    else if (pos === q.candidates.length) s.allPositive++;
  }
  return s;
}
