/**
 * The answer-selection filtering settings, as named settings:
 * - `raw`: every question as in the file.
 * - `no-all`: drop questions without a correct candidate ("no all-negative"; TANDA's training
 *   setting and its reported WikiQA sizes 873 / 126 / 243).
 * - `clean`: drop questions without a correct or without an incorrect candidate (the official
 *   `WikiQA-{dev,test}-filtered.ref` files, TREC-QA DEV/TEST 65 / 68).
 * A question without any candidate has neither, so `no-all` and `clean` drop it too.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import type { Question } from "./types.ts";

/** The filter names. */
export const FILTERS = ["raw", "no-all", "clean"] as const;
/** A filter name. */
export type FilterName = typeof FILTERS[number];

/** What a filter did. */
export interface FilterReport {
  filter: FilterName;
  /** Questions before filtering. */
  before: number;
  /** Questions kept. */
  kept: number;
  /** Candidates kept. */
  keptCandidates: number;
  /** Dropped questions by reason (a question is counted under its first reason). */
  dropped: { noCandidates: number; allNegative: number; allPositive: number };
}

/**
 * The filter the protocol uses for a split when none is given: `clean` for dev and test
 * (WikiQA's official `-filtered.ref` files, TREC-QA's clean sets; TANDA counts WikiQA's test set
 * as its 243 `no-all` questions, the filtered file holds 237), `no-all` for
 * the training splits (TANDA trains on "no all-negative"; TREC-QA's TRAIN-ALL has no
 * all-negative question, so there it equals `raw`). Every command uses it as its default.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { protocolFilter } from "./filters.ts";
 * assert.equal(protocolFilter("test"), "clean");
 * assert.equal(protocolFilter("train-all"), "no-all");
 * ```
 */
export function protocolFilter(split: string): FilterName {
  return split === "train" || split === "train-all" ? "no-all" : "clean";
}

/**
 * What kind of question `q` is for the filters: without candidates, with only incorrect ones,
 * with only correct ones, or mixed (`no-all` drops the first two kinds, `clean` all but mixed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { questionKind } from "./filters.ts";
 * const q = (...labels: number[]) => ({
 *   id: "q",
 *   text: "",
 *   candidates: labels.map((label, i) => ({ id: `s${i}`, text: "", label })),
 * });
 * assert.equal(questionKind(q()), "noCandidates");
 * assert.equal(questionKind(q(0, 0)), "allNegative");
 * assert.equal(questionKind(q(1, 1)), "allPositive");
 * assert.equal(questionKind(q(0, 1)), "mixed");
 * ```
 */
export function questionKind(
  q: Question,
): "noCandidates" | "allNegative" | "allPositive" | "mixed" {
  if (q.candidates.length === 0) return "noCandidates";
  let pos = 0;
  for (const c of q.candidates) if (c.label > 0) pos++;
  if (pos === 0) return "allNegative";
  if (pos === q.candidates.length) return "allPositive";
  return "mixed";
}

/**
 * Applies a named filter and reports how many questions it dropped and why.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyFilter } from "./filters.ts";
 * let n = 0;
 * const c = (label: number) => ({ id: `s${n++}`, text: "", label });
 * const qs = [
 *   { id: "a", text: "", candidates: [c(0), c(1)] },
 *   { id: "b", text: "", candidates: [c(0)] },
 *   { id: "c", text: "", candidates: [c(1)] },
 * ];
 * const { questions, report } = applyFilter(qs, "clean");
 * assert(questions.length === 1 && report.dropped.allNegative === 1 && report.dropped.allPositive === 1);
 * ```
 */
export function applyFilter(
  questions: readonly Question[],
  filter: FilterName,
): { questions: Question[]; report: FilterReport } {
  if (!(FILTERS as readonly string[]).includes(filter)) {
    throw new KitError(`unknown filter '${filter}' (expected one of: ${FILTERS.join(", ")})`);
  }
  const dropped = { noCandidates: 0, allNegative: 0, allPositive: 0 };
  const kept: Question[] = [];
  for (const q of questions) {
    const kind = questionKind(q);
    const drop = filter === "raw"
      ? false
      : filter === "no-all"
      ? kind === "noCandidates" || kind === "allNegative"
      : kind !== "mixed";
    if (drop) dropped[kind as keyof typeof dropped]++;
    else kept.push(q);
  }
  return {
    questions: kept,
    report: {
      filter,
      before: questions.length,
      kept: kept.length,
      keptCandidates: kept.reduce((n, q) => n + q.candidates.length, 0),
      dropped,
    },
  };
}

/**
 * One line saying what a filter did, for CLI output and notebooks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeFilter } from "./filters.ts";
 * const line = describeFilter({ filter: "no-all", before: 3, kept: 2, keptCandidates: 9,
 *   dropped: { noCandidates: 0, allNegative: 1, allPositive: 0 } });
 * assert(line.startsWith("no-all: kept 2 of 3 questions"));
 * ```
 */
export function describeFilter(r: FilterReport): string {
  const reasons = [
    r.dropped.noCandidates ? `${r.dropped.noCandidates} without candidates` : "",
    r.dropped.allNegative ? `${r.dropped.allNegative} without a correct answer` : "",
    r.dropped.allPositive ? `${r.dropped.allPositive} with only correct answers` : "",
  ].filter(Boolean);
  return `${r.filter}: kept ${r.kept} of ${r.before} questions (${r.keptCandidates} candidates)` +
    (reasons.length ? `; dropped ${reasons.join(", ")}` : "");
}
