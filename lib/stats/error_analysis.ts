/**
 * Error analysis of answer-selection runs, question by question, with the texts an analyst
 * reads: the question, the candidate a system put first, the correct candidate(s), and the
 * rank of the first correct one (trec_eval's order: score descending, ties by id descending).
 * Two views: the questions where two systems differ most ({@link largestDifferences}) and
 * the questions a system gets wrong at rank 1, worst first ({@link failures}).
 *
 * @module
 */
import type { Question } from "../data/types.ts";
import { rankDocuments } from "../metrics/rank.ts";
import type { PerQueryValues } from "./compare.ts";

/** A candidate's id and text. */
export interface CandidateText {
  id: string;
  /** The sentence; for an id that is not a candidate of the question, a note saying so. */
  text: string;
}

/** How one run ranked one question. */
export interface QuestionOutcome {
  /** Question id. */
  id: string;
  /** Question text. */
  question: string;
  /** Candidates of the question in the split. */
  candidates: number;
  /** The correct candidates (label > 0). */
  correct: CandidateText[];
  /** The candidate ranked first, and whether it is correct; undefined when the run lacks the question. */
  top?: CandidateText & { correct: boolean };
  /** 1-based rank of the first correct candidate in the run's ranking; 0 when none is ranked. */
  firstCorrectRank: number;
  /** Whether the run has the question at all (a missing question scores 0 with -c). */
  inRun: boolean;
}

/**
 * How `ranking` (candidate id to score; undefined when the run lacks the question) ranks
 * `question`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { questionOutcome } from "./error_analysis.ts";
 * const q = { id: "Q1", text: "Who?", candidates: [
 *   { id: "a", text: "Ann did.", label: 1 }, { id: "b", text: "Bob.", label: 0 }] };
 * const o = questionOutcome(q, new Map([["a", 0.2], ["b", 0.7]]));
 * assert(o.top!.text === "Bob." && !o.top!.correct && o.firstCorrectRank === 2);
 * assert(questionOutcome(q, undefined).firstCorrectRank === 0);
 * ```
 */
export function questionOutcome(
  question: Question,
  ranking: ReadonlyMap<string, number> | undefined,
): QuestionOutcome {
  const byId = new Map(question.candidates.map((c) => [c.id, c]));
  const correct = question.candidates.filter((c) => c.label > 0).map((c) => ({
    id: c.id,
    text: c.text,
  }));
  const base = {
    id: question.id,
    question: question.text,
    candidates: question.candidates.length,
    correct,
  };
  if (!ranking) return { ...base, firstCorrectRank: 0, inRun: false };
  const ranked = rankDocuments(ranking);
  const first = ranked.findIndex((d) => (byId.get(d)?.label ?? 0) > 0);
  const topId = ranked[0];
  const topCandidate = topId === undefined ? undefined : byId.get(topId);
  return {
    ...base,
    top: topId === undefined ? undefined : {
      id: topId,
      text: topCandidate?.text ?? `(${topId} is not a candidate of this question in the split)`,
      correct: (topCandidate?.label ?? 0) > 0,
    },
    firstCorrectRank: first + 1,
    inRun: true,
  };
}

/** A system for the error analysis: one run's ranking and the values compared. */
export interface AnalyzedSystem {
  /** The run whose rankings are shown (question id to candidate id to score). */
  run: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** Per-question values (e.g. the means over the system's runs). */
  values: PerQueryValues;
}

/** One question where two systems differ. */
export interface Difference {
  /** The first system's outcome. */
  a: QuestionOutcome;
  /** The second system's outcome. */
  b: QuestionOutcome;
  /** The measure's values, and a - b. */
  valueA: number;
  valueB: number;
  difference: number;
}

/** Options of the error-analysis views. */
export interface ErrorAnalysisOptions {
  /** Measure compared (output name; default `map`, i.e. AP per question). */
  measure?: string;
  /** Questions returned (default 10). */
  limit?: number;
}

/**
 * The questions of `questions` where `a` and `b` differ most on a measure (largest
 * |a - b| first; ties by question id), with both systems' outcomes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { largestDifferences } from "./error_analysis.ts";
 * const c = (id: string, label: number) => ({ id, text: id.toUpperCase(), label });
 * const qs = [{ id: "Q1", text: "?", candidates: [c("x", 1), c("y", 0)] },
 *   { id: "Q2", text: "?", candidates: [c("z", 1), c("w", 0)] }];
 * const a = { run: new Map([["Q1", new Map([["x", 1], ["y", 0]])]]), values: new Map([["Q1", { map: 1 }], ["Q2", { map: 0 }]]) };
 * const b = { run: new Map([["Q1", new Map([["x", 0], ["y", 1]])]]), values: new Map([["Q1", { map: 0.5 }], ["Q2", { map: 0 }]]) };
 * const [d] = largestDifferences(qs, a, b, { limit: 1 });
 * assert(d.a.id === "Q1" && d.difference === 0.5 && d.b.top!.text === "Y");
 * ```
 */
export function largestDifferences(
  questions: readonly Question[],
  a: AnalyzedSystem,
  b: AnalyzedSystem,
  options: ErrorAnalysisOptions = {},
): Difference[] {
  const measure = options.measure ?? "map";
  const rows = questions.map((q) => {
    const valueA = a.values.get(q.id)?.[measure] ?? 0;
    const valueB = b.values.get(q.id)?.[measure] ?? 0;
    return { q, valueA, valueB, difference: valueA - valueB };
  }).filter((r) => r.difference !== 0);
  rows.sort((x, y) =>
    Math.abs(y.difference) - Math.abs(x.difference) || (x.q.id < y.q.id ? -1 : 1)
  );
  return rows.slice(0, options.limit ?? 10).map((r) => ({
    a: questionOutcome(r.q, a.run.get(r.q.id)),
    b: questionOutcome(r.q, b.run.get(r.q.id)),
    valueA: r.valueA,
    valueB: r.valueB,
    difference: r.difference,
  }));
}

/** Where a system fails. */
export interface Failures {
  /** Questions whose top-ranked candidate is not correct (or that the run lacks). */
  count: number;
  /** Questions considered. */
  of: number;
  /** The worst of them, with the measure's value: correct answer ranked lowest first. */
  worst: (QuestionOutcome & { value: number })[];
}

/**
 * The questions where `system` puts an incorrect candidate first (or which its run lacks),
 * worst first: missing questions and those with no correct candidate ranked, then by the
 * rank of the first correct candidate (lowest first), then by the measure (lowest first).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failures } from "./error_analysis.ts";
 * const c = (id: string, label: number) => ({ id, text: id, label });
 * const qs = [{ id: "Q1", text: "?", candidates: [c("x", 1), c("y", 0), c("z", 0)] },
 *   { id: "Q2", text: "?", candidates: [c("u", 1), c("v", 0)] }];
 * const run = new Map([["Q1", new Map([["x", 0], ["y", 2], ["z", 1]])], ["Q2", new Map([["u", 1], ["v", 0]])]]);
 * const f = failures(qs, { run, values: new Map([["Q1", { map: 1 / 3 }], ["Q2", { map: 1 }]]) });
 * assert(f.count === 1 && f.of === 2 && f.worst[0].firstCorrectRank === 3);
 * ```
 */
export function failures(
  questions: readonly Question[],
  system: AnalyzedSystem,
  options: ErrorAnalysisOptions = {},
): Failures {
  const measure = options.measure ?? "map";
  const failed = questions
    .map((q) => ({
      ...questionOutcome(q, system.run.get(q.id)),
      value: system.values.get(q.id)?.[measure] ?? 0,
    }))
    .filter((o) => !o.top?.correct);
  const key = (o: QuestionOutcome) => o.firstCorrectRank === 0 ? Infinity : o.firstCorrectRank;
  failed.sort((x, y) => key(y) - key(x) || x.value - y.value || (x.id < y.id ? -1 : 1));
  return {
    count: failed.length,
    of: questions.length,
    worst: failed.slice(0, options.limit ?? 10),
  };
}
