/**
 * Held-out evaluation of a learned ranker, model-agnostic: the model is a `train` callback
 * that returns a scorer. The protocol (AI-Powered Search, ch. 10) names three slices of the
 * judged questions, split by question: fit on **train**, evaluate and pick settings on
 * **test**, and score the chosen model on **validation** once, at the end. (Most machine
 * learning texts swap the last two names: they tune on "validation" and keep "test" for
 * the end. The roles are what matter.)
 *
 * Every number is a trec_eval measure computed by `lib/metrics` (`evaluate`), MAP by
 * default: it depends on the whole ranking of every question. (P@5 does not: a question
 * with five candidates or fewer gets the same P@5 from every ranking of them.)
 *
 * The final check compares validation with test. The slices are small (AI-Powered Search
 * keeps ten questions for validation), so the warning is raised only when the test value
 * lies above the 95% bootstrap interval of the validation value: a smaller drop is within
 * what drawing other questions would give.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import type { Question } from "../data/types.ts";
import { evaluate } from "../metrics/evaluate.ts";
import { qrelsFromQuestions, runFromScores } from "../metrics/convert.ts";
import { bootstrapCI, DEFAULT_BOOTSTRAP_SAMPLES } from "./significance.ts";

/** Scores the candidates of one question (same order as `question.candidates`). */
export type CandidateScorer = (
  question: Question,
) => ArrayLike<number> | Promise<ArrayLike<number>>;

/** Trains a scorer on questions, with a setting (a hyperparameter, a feature set, ...). */
export type Trainer<C> = (
  questions: Question[],
  config: C,
) => CandidateScorer | Promise<CandidateScorer>;

/** A measure on a set of questions: its mean and each question's value. */
export interface SliceScore {
  /** The mean over the questions (trec_eval's `all` line). */
  value: number;
  /** Question id to value. */
  perQuery: Map<string, number>;
}

/**
 * Scores `questions` with `scorer` and evaluates the ranking with the trec_eval measure
 * `measure` (e.g. `map`, `P.1`, `recip_rank`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoreSlice } from "./heldout.ts";
 * const q = { id: "q", text: "?", candidates: [
 *   { id: "a", text: "", label: 0 }, { id: "b", text: "", label: 1 }] };
 * const r = await scoreSlice([q], () => [0.9, 0.1], "map");
 * assert(r.value === 0.5 && r.perQuery.get("q") === 0.5);
 * ```
 */
export async function scoreSlice(
  questions: readonly Question[],
  scorer: CandidateScorer,
  measure = "map",
): Promise<SliceScore> {
  if (questions.length === 0) throw new KitError("cannot evaluate an empty slice");
  const scores: number[] = [];
  for (const q of questions) {
    const s = await scorer(q);
    if (s.length !== q.candidates.length) {
      throw new KitError(
        `question ${q.id}: scorer returned ${s.length} scores for ${q.candidates.length} candidates`,
      );
    }
    for (let i = 0; i < s.length; i++) scores.push(s[i]);
  }
  const r = evaluate(qrelsFromQuestions(questions), runFromScores(questions, scores), [measure], {
    warn: false,
  });
  const name = r.measures[0];
  return {
    value: r.summary[name],
    perQuery: new Map([...r.perQuery].map(([q, v]) => [q, v[name]])),
  };
}

/**
 * The overfitting warning: the value on test (where settings were chosen) lies above the
 * upper bound of the validation value's interval. Returns the message, or undefined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { overfittingWarning } from "./heldout.ts";
 * assert(overfittingWarning(0.70, { value: 0.55, upper: 0.65 }, "map")!.startsWith("warning"));
 * assert(overfittingWarning(0.70, { value: 0.60, upper: 0.80 }, "map") === undefined);
 * ```
 */
export function overfittingWarning(
  test: number,
  validation: { value: number; upper: number },
  measure: string,
): string | undefined {
  if (![test, validation.value, validation.upper].every(Number.isFinite)) {
    throw new KitError(`values must be finite (test ${test}, validation ${validation.value})`);
  }
  if (test <= validation.upper) return undefined;
  return `warning: test ${measure} ${test.toFixed(4)} is above the 95% interval of the ` +
    `validation ${measure} (${validation.value.toFixed(4)}, up to ${
      validation.upper.toFixed(4)
    }): the settings may fit the test slice rather than new questions`;
}

/** One point of a learning curve. */
export interface CurvePoint {
  /** Training questions used (the first ones of the train slice). */
  trainQueries: number;
  /** The measure on those training questions. */
  train: number;
  /** The measure on the test slice. */
  test: number;
}

/** Options of {@link heldOutExperiment}. */
export interface HeldOutOptions<C> {
  /** The three slices (e.g. from `splitByQuery`). */
  split: { train: Question[]; test: Question[]; validation: Question[] };
  /** Trains a scorer on questions with a setting. */
  train: Trainer<C>;
  /** Settings to choose from on the test slice (default: one `undefined` setting). */
  configs?: C[];
  /** The trec_eval measure (default `map`); higher is better. */
  measure?: string;
  /** Training-set sizes for the learning curve, as shares of the train slice (default 0.1, 0.25, 0.5, 1). */
  curve?: number[];
  /** Bootstrap samples of the validation interval (default `DEFAULT_BOOTSTRAP_SAMPLES`, 10,000). */
  samples?: number;
  /** Seed of the bootstrap (default 42). */
  seed?: number;
}

/** The result of {@link heldOutExperiment}. */
export interface HeldOutResult<C> {
  measure: string;
  /** Each setting's value on test, in input order. */
  tuning: { config: C; test: number }[];
  /** The setting with the highest test value (the first on ties). */
  best: C;
  /** Whether the settings tied on test (then the choice says nothing). */
  tied: boolean;
  /** Learning curve of the best setting (trained on growing prefixes of the train slice). */
  curve: CurvePoint[];
  /** Test value of the best setting trained on the whole train slice. */
  test: SliceScore;
  /** Validation value, computed once for the best setting, with its 95% bootstrap interval. */
  validation: SliceScore & { lower: number; upper: number };
  /** The overfitting warning ({@link overfittingWarning}). */
  warning?: string;
  /** The chosen setting's scorer (trained on the whole train slice), for a closer look. */
  bestScorer: CandidateScorer;
}

/**
 * Runs the held-out protocol: for each setting train on train and evaluate on test; pick the
 * setting with the highest test value; record its learning curve; evaluate it on validation
 * once; warn when test lies above validation's interval.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { heldOutExperiment } from "./heldout.ts";
 * const q = (id: string) => ({ id, text: id, candidates: [
 *   { id: "x", text: "no", label: 0 }, { id: "y", text: "long answer here", label: 1 }] });
 * const split = { train: [q("a"), q("b")], test: [q("c")], validation: [q("d")] };
 * // A "model" whose setting is the sign of a length feature.
 * const r = await heldOutExperiment({
 *   split, configs: [-1, 1],
 *   train: (_qs, sign: number) => (question) => question.candidates.map((c) => sign * c.text.length),
 * });
 * assert(r.best === 1 && r.validation.value === 1 && r.warning === undefined);
 * ```
 */
export async function heldOutExperiment<C>(options: HeldOutOptions<C>): Promise<HeldOutResult<C>> {
  const { split, train } = options;
  const measure = options.measure ?? "map";
  const configs = options.configs ?? [undefined as C];
  if (configs.length === 0) throw new KitError("heldOutExperiment needs at least one setting");
  for (const s of ["train", "test", "validation"] as const) {
    if (split[s].length === 0) throw new KitError(`the ${s} slice is empty`);
  }

  const tuning: HeldOutResult<C>["tuning"] = [];
  const scorers: CandidateScorer[] = [];
  const tests: SliceScore[] = [];
  let bestIndex = 0;
  for (const config of configs) {
    const scorer = await train(split.train, config);
    scorers.push(scorer);
    tests.push(await scoreSlice(split.test, scorer, measure));
    tuning.push({ config, test: tests[tests.length - 1].value });
    if (tuning[tuning.length - 1].test > tuning[bestIndex].test) bestIndex = tuning.length - 1;
  }
  const best = configs[bestIndex];

  const curve: CurvePoint[] = [];
  const sizes = [
    ...new Set(
      (options.curve ?? [0.1, 0.25, 0.5, 1]).map((f) => {
        if (!(f > 0 && f <= 1)) throw new KitError(`curve shares must be in (0, 1], got ${f}`);
        return Math.max(1, Math.round(f * split.train.length));
      }),
    ),
  ].sort((a, b) => a - b);
  for (const n of sizes) {
    const part = split.train.slice(0, n);
    const scorer = n === split.train.length ? scorers[bestIndex] : await train(part, best);
    curve.push({
      trainQueries: n,
      train: (await scoreSlice(part, scorer, measure)).value,
      test: n === split.train.length
        ? tests[bestIndex].value
        : (await scoreSlice(split.test, scorer, measure)).value,
    });
  }

  // The validation slice is touched here, once, after every choice is made.
  const v = await scoreSlice(split.validation, scorers[bestIndex], measure);
  const ci = bootstrapCI([...v.perQuery.values()], {
    samples: options.samples ?? DEFAULT_BOOTSTRAP_SAMPLES,
    seed: options.seed ?? 42,
  });
  const validation = { ...v, lower: ci.lower, upper: ci.upper };
  const test = tests[bestIndex];
  const warning = overfittingWarning(test.value, validation, measure);
  return {
    measure,
    tuning,
    best,
    tied: tuning.every((t) => t.test === tuning[0].test),
    curve,
    test,
    validation,
    ...(warning ? { warning } : {}),
    bestScorer: scorers[bestIndex],
  };
}
