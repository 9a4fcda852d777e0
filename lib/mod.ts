/**
 * The kit's public API: every folder's `mod.ts`, re-exported.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluate, loadSplit, qrelsFromQuestions, runFromScores } from "./mod.ts";
 * const { questions } = await loadSplit("wikiqa", "test", { filter: "clean", dir: "samples" });
 * const scores = questions.flatMap((q) => q.candidates.map((_, i) => -i)); // corpus order
 * const r = evaluate(qrelsFromQuestions(questions), runFromScores(questions, scores), ["map"]);
 * assert.ok(r.summary.map > 0 && r.summary.map <= 1);
 * ```
 *
 * @module
 */
export * from "./errors.ts";
export * from "./data/mod.ts";
export * from "./metrics/mod.ts";
export * from "./qrcd/mod.ts";
export * from "./scoring/mod.ts";
export * from "./stats/mod.ts";
// Both scoring and stats name a type QuestionScorer: scoring's (a model over question lists)
// is the kit-wide one; stats' (a function scoring one question) stays in lib/stats/mod.ts.
export type { QuestionScorer } from "./scoring/mod.ts";
