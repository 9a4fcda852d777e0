/**
 * Per-question values broken down by a property of the question: its question word (as Yang,
 * Yih & Meek 2015 report WikiQA by question type: what, how, who, when, where, ...) or its
 * number of candidates. Numbers only; the report's tables show them.
 *
 * @module
 */
import type { Question } from "../data/types.ts";
import type { PerQueryValues } from "./compare.ts";

/** The question words a question is typed by, in the order groups are listed. */
export const QUESTION_WORDS = ["what", "how", "who", "when", "where", "which", "why"] as const;

/**
 * A question's type: its first question word (`whom`, `whose` count as `who`), else `other`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { questionWord } from "./breakdown.ts";
 * assert.equal(questionWord("how are glacier caves formed?"), "how");
 * assert.equal(questionWord("In 1990, whose song was first?"), "who");
 * assert.equal(questionWord("Name the capital of Peru"), "other");
 * ```
 */
export function questionWord(text: string): string {
  for (const token of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const w = token === "whom" || token === "whose" ? "who" : token;
    if ((QUESTION_WORDS as readonly string[]).includes(w)) return w;
  }
  return "other";
}

/** The candidate-count groups, lowest first: `[low, high]` (inclusive; high Infinity). */
export const CANDIDATE_GROUPS: readonly [number, number][] = [
  [1, 5],
  [6, 10],
  [11, 20],
  [21, Infinity],
];

/**
 * A question's candidate-count group, e.g. `6-10` or `21+`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { candidateGroup } from "./breakdown.ts";
 * assert.equal(candidateGroup(6), "6-10");
 * assert.equal(candidateGroup(40), "21+");
 * ```
 */
export function candidateGroup(n: number): string {
  const g = CANDIDATE_GROUPS.find(([lo, hi]) => n >= lo && n <= hi) ?? CANDIDATE_GROUPS[0];
  return g[1] === Infinity ? `${g[0]}+` : `${g[0]}-${g[1]}`;
}

/** One group of a breakdown. */
export interface BreakdownGroup {
  /** The group's name (`what`, `6-10`, ...). */
  group: string;
  /** Question ids in the group. */
  questions: string[];
  /** Per system: the mean of `measure` over the group's questions (a missing one scores 0). */
  means: Record<string, number>;
}

/**
 * Groups `questions` by `key` and averages each system's per-question `measure` in each
 * group (groups in `order` first, then by name).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { breakdown, questionWord } from "./breakdown.ts";
 * const qs = ["what is x", "who is y", "what is z"].map((text, i) => ({ id: `q${i}`, text, candidates: [] }));
 * const a = new Map([["q0", { map: 1 }], ["q1", { map: 0.5 }], ["q2", { map: 0 }]]);
 * const g = breakdown(qs, new Map([["a", a]]), (q) => questionWord(q.text), "map");
 * assert.deepEqual(g.map((x) => [x.group, x.questions.length, x.means.a]), [["what", 2, 0.5], ["who", 1, 0.5]]);
 * ```
 */
export function breakdown(
  questions: readonly Question[],
  systems: ReadonlyMap<string, PerQueryValues>,
  key: (q: Question) => string,
  measure: string,
  order: readonly string[] = QUESTION_WORDS,
): BreakdownGroup[] {
  const groups = new Map<string, string[]>();
  for (const q of questions) {
    const k = key(q);
    groups.set(k, [...(groups.get(k) ?? []), q.id]);
  }
  const rank = (g: string) => {
    const i = order.indexOf(g);
    return i < 0 ? order.length : i;
  };
  return [...groups].sort(([x], [y]) => rank(x) - rank(y) || (x < y ? -1 : x > y ? 1 : 0))
    .map(([group, ids]) => ({
      group,
      questions: ids,
      means: Object.fromEntries(
        [...systems].map(([name, values]) => [
          name,
          ids.reduce((s, id) => s + (values.get(id)?.[measure] ?? 0), 0) / ids.length,
        ]),
      ),
    }));
}
