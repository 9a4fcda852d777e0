/**
 * Protocol checks of a run against an answer-selection split. The AS2 protocol ranks the
 * entire candidate set of every question of the split and averages over all of them
 * (`trec_eval -c`); a run that does otherwise still gets a number, but not the protocol's.
 * These checks say how a run departs from it. `eval as2` prints them and the report shows
 * them on its page; both call {@link checkRunAgainstSplit} and {@link runWarnings}.
 *
 * @module
 */
import { type FilterName, protocolFilter } from "./filters.ts";
import type { Question } from "./types.ts";

/** A question id and a candidate id. */
export interface QuestionCandidate {
  question: string;
  candidate: string;
}

/** How a run departs from the protocol on a split. */
export interface RunCheck {
  /** Questions of the split (after the filter). */
  questions: number;
  /** The filter of the split. */
  filter: FilterName;
  /** The protocol's filter for the split (`clean` for dev and test, `no-all` for training). */
  protocolFilter: FilterName;
  /** Questions of the split the run lacks: they score 0 (`-c`). */
  missingQuestions: string[];
  /** Candidates of questions the run covers that it does not rank (counted as not retrieved). */
  unrankedCandidates: QuestionCandidate[];
  /** Ids the run ranks for a question of the split that are not among its candidates. */
  unknownCandidates: QuestionCandidate[];
  /** Run questions that the split has but its filter drops (ignored). */
  filteredQuestions: string[];
  /** Run questions that are not in the split at all, filtered or not (ignored). */
  unknownQuestions: string[];
}

/** Options of {@link checkRunAgainstSplit}. */
export interface RunCheckOptions {
  /** The filter of the split (default: the protocol's for the split). */
  filter?: FilterName;
  /** The split's name, for the protocol's filter (default `test`). */
  split?: string;
  /** Ids of the split's questions that the filter dropped (told apart from unknown ids). */
  dropped?: Iterable<string>;
}

/**
 * Checks `run` (question id to candidate id to score) against the split's `questions`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkRunAgainstSplit, runWarnings } from "./run_checks.ts";
 * const questions = [
 *   { id: "Q1", text: "", candidates: [{ id: "a", text: "", label: 1 }, { id: "b", text: "", label: 0 }] },
 *   { id: "Q2", text: "", candidates: [{ id: "c", text: "", label: 1 }] },
 * ];
 * const run = new Map([["Q1", new Map([["a", 0.9], ["x", 0.1]])], ["Q9", new Map([["y", 1]])]]);
 * const c = checkRunAgainstSplit(run, questions, { filter: "clean" });
 * assert.deepEqual(c.missingQuestions, ["Q2"]);
 * assert.deepEqual(c.unrankedCandidates, [{ question: "Q1", candidate: "b" }]);
 * assert.deepEqual(c.unknownCandidates, [{ question: "Q1", candidate: "x" }]);
 * assert.deepEqual(c.unknownQuestions, ["Q9"]);
 * assert.equal(runWarnings(c).length, 4);
 * ```
 */
export function checkRunAgainstSplit(
  run: ReadonlyMap<string, ReadonlyMap<string, number>>,
  questions: readonly Question[],
  options: RunCheckOptions = {},
): RunCheck {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const dropped = new Set(options.dropped ?? []);
  const check: RunCheck = {
    questions: questions.length,
    filter: options.filter ?? protocolFilter(options.split ?? "test"),
    protocolFilter: protocolFilter(options.split ?? "test"),
    missingQuestions: [],
    unrankedCandidates: [],
    unknownCandidates: [],
    filteredQuestions: [],
    unknownQuestions: [],
  };
  for (const q of questions) {
    const ranked = run.get(q.id);
    if (!ranked) {
      check.missingQuestions.push(q.id);
      continue;
    }
    const ids = new Set<string>();
    for (const c of q.candidates) {
      ids.add(c.id);
      if (!ranked.has(c.id)) check.unrankedCandidates.push({ question: q.id, candidate: c.id });
    }
    for (const d of ranked.keys()) {
      if (!ids.has(d)) check.unknownCandidates.push({ question: q.id, candidate: d });
    }
  }
  for (const qid of run.keys()) {
    if (byId.has(qid)) continue;
    (dropped.has(qid) ? check.filteredQuestions : check.unknownQuestions).push(qid);
  }
  return check;
}

function examples(ids: readonly string[], max = 3): string {
  return ids.slice(0, max).join(", ") + (ids.length > max ? ", ..." : "");
}

function pairs(list: readonly QuestionCandidate[]): string {
  return examples(list.map((p) => `${p.question}/${p.candidate}`));
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The departures of a check as sentences (empty when the run follows the protocol).
 * Questions the filter drops are not a warning: scoring the whole raw split is fine.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runWarnings } from "./run_checks.ts";
 * const w = runWarnings({ questions: 2, filter: "raw", protocolFilter: "clean", missingQuestions: [], unrankedCandidates: [],
 *   unknownCandidates: [], filteredQuestions: [], unknownQuestions: [] });
 * assert.match(w[0], /filter 'raw'/);
 * ```
 */
export function runWarnings(c: RunCheck): string[] {
  const w: string[] = [];
  if (c.missingQuestions.length) {
    w.push(
      `${plural(c.missingQuestions.length, "question", "questions")} of the split ` +
        `(of ${c.questions}) missing from the run, each scoring 0: ${examples(c.missingQuestions)}`,
    );
  }
  if (c.unrankedCandidates.length) {
    const qs = new Set(c.unrankedCandidates.map((p) => p.question)).size;
    w.push(
      `${plural(c.unrankedCandidates.length, "candidate", "candidates")} of ` +
        `${plural(qs, "question", "questions")} not ranked by the run (the protocol ranks every ` +
        `candidate; they count as not retrieved): ${pairs(c.unrankedCandidates)}`,
    );
  }
  if (c.unknownCandidates.length) {
    w.push(
      `${plural(c.unknownCandidates.length, "ranked id is", "ranked ids are")} not a ` +
        `candidate of its question in the split (they count as incorrect and push the ` +
        `candidates below them down): ${pairs(c.unknownCandidates)}`,
    );
  }
  if (c.unknownQuestions.length) {
    w.push(
      `${plural(c.unknownQuestions.length, "question id", "question ids")} of the run not ` +
        `in the split (ignored; another dataset or split?): ${examples(c.unknownQuestions)}`,
    );
  }
  if (c.filter !== c.protocolFilter) {
    w.push(
      `evaluated with the filter '${c.filter}', not '${c.protocolFilter}' (the protocol's for ` +
        `this split; WikiQA's official -filtered.ref for dev and test): compare only with ` +
        `numbers on the '${c.filter}' setting`,
    );
  }
  return w;
}
