/**
 * From pair scores to per-question score lists and runs: the glue between scorers, which
 * see text, and the evaluator, which sees ids.
 *
 * @module
 */
import type { PairScorer, QuestionInput, QuestionScorer, ScoreOptions } from "./types.ts";

/**
 * Lifts a pair scorer to a question scorer: every candidate of every question is one pair.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { questionScorer } from "./questions.ts";
 * const byLength = {
 *   id: "len",
 *   scorePairs: (ps: { question: string; candidate: string }[]) =>
 *     Promise.resolve(Float32Array.from(ps, (p) => p.candidate.length)),
 * };
 * const [s] = await questionScorer(byLength).scoreQuestions([
 *   { id: "q", text: "?", candidates: [{ id: "a", text: "xx" }, { id: "b", text: "x" }] },
 * ]);
 * assert(s[0] === 2 && s[1] === 1);
 * ```
 */
export function questionScorer(scorer: PairScorer): QuestionScorer {
  return {
    id: scorer.id,
    async scoreQuestions(questions: QuestionInput[], options?: ScoreOptions) {
      const pairs = questions.flatMap((q) =>
        q.candidates.map((c) => ({ question: q.text, candidate: c.text }))
      );
      const flat = await scorer.scorePairs(pairs, options);
      const out: Float32Array[] = [];
      let at = 0;
      for (const q of questions) {
        out.push(flat.slice(at, at + q.candidates.length));
        at += q.candidates.length;
      }
      return out;
    },
  };
}

/** True when `x` is a question scorer (has `scoreQuestions`). */
export function isQuestionScorer(x: PairScorer | QuestionScorer): x is QuestionScorer {
  return typeof (x as QuestionScorer).scoreQuestions === "function";
}

/**
 * Scores every candidate of every question with either kind of scorer and returns a run
 * (`question id -> candidate id -> score`), the shape `lib/metrics` evaluates and writes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { collectionStats, lexicalScorer } from "./lexical.ts";
 * import { scoreRun } from "./questions.ts";
 * const run = await scoreRun(lexicalScorer("wordcnt", collectionStats([])), [
 *   { id: "q1", text: "red dog", candidates: [{ id: "c1", text: "a red dog" }, { id: "c2", text: "cat" }] },
 * ]);
 * assert(run.get("q1")!.get("c1") === 2 && run.get("q1")!.get("c2") === 0);
 * ```
 */
export async function scoreRun(
  scorer: PairScorer | QuestionScorer,
  questions: QuestionInput[],
  options?: ScoreOptions,
): Promise<Map<string, Map<string, number>>> {
  const qs = isQuestionScorer(scorer) ? scorer : questionScorer(scorer);
  const scores = await qs.scoreQuestions(questions, options);
  const run = new Map<string, Map<string, number>>();
  questions.forEach((q, i) => {
    const m = new Map<string, number>();
    q.candidates.forEach((c, j) => m.set(c.id, scores[i][j]));
    run.set(q.id, m);
  });
  return run;
}
