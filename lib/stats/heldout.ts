/**
 * Held-out evaluation of a learned ranker, model-agnostic: the model is a `train` callback
 * that returns a scorer. The protocol (AI-Powered Search, ch. 10): fit on train, evaluate
 * and tune on test, and check the validation holdout once at the end, warning when it is
 * worse than the test evaluation (overfitting to the test slice while tuning).
 *
 * @module
 */
import { KitError } from "../errors.ts";
import type { Question } from "../data/types.ts";
import { compareDocnos } from "../metrics/rank.ts";
import type { PlotlyFigure } from "./stability.ts";

/** One judged, scored pair (a row of the book's judgments table). */
export interface ScoredJudgment {
  query: string;
  doc: string;
  label: number;
  score: number;
}

/** P@k over held-out queries. */
export interface PrecisionAtK {
  k: number;
  /** Mean of the per-query values. */
  mean: number;
  /** Query id to P@k. */
  perQuery: Map<string, number>;
}

/**
 * P@k averaged over queries, from judgment rows in any order: rows are grouped by query (no
 * sorted-input assumption), ranked by score descending then doc id descending (trec_eval's
 * tie-break), and P@k = relevant in the top k / k (always divided by k, as trec_eval).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { precisionAtK } from "./heldout.ts";
 * const rows = [
 *   { query: "q2", doc: "a", label: 1, score: 0.1 },
 *   { query: "q1", doc: "a", label: 1, score: 0.9 },
 *   { query: "q2", doc: "b", label: 0, score: 0.8 },
 *   { query: "q1", doc: "b", label: 0, score: 0.2 },
 * ];
 * const p = precisionAtK(rows, 1);
 * assert(p.perQuery.get("q1") === 1 && p.perQuery.get("q2") === 0 && p.mean === 0.5);
 * ```
 */
export function precisionAtK(
  rows: Iterable<ScoredJudgment>,
  k = 5,
  options: { relevanceLevel?: number } = {},
): PrecisionAtK {
  if (!(Number.isInteger(k) && k > 0)) throw new KitError(`k must be a positive integer, got ${k}`);
  const level = options.relevanceLevel ?? 1;
  const byQuery = new Map<string, ScoredJudgment[]>();
  for (const row of rows) {
    if (!Number.isFinite(row.score)) {
      throw new KitError(`query ${row.query}, doc ${row.doc}: score ${row.score} is not finite`);
    }
    const list = byQuery.get(row.query);
    if (list) list.push(row);
    else byQuery.set(row.query, [row]);
  }
  if (byQuery.size === 0) throw new KitError("P@k over no queries");
  const perQuery = new Map<string, number>();
  for (const [q, list] of byQuery) {
    list.sort((a, b) => b.score - a.score || compareDocnos(b.doc, a.doc));
    const hits = list.slice(0, k).filter((r) => r.label >= level).length;
    perQuery.set(q, hits / k);
  }
  let sum = 0;
  for (const v of perQuery.values()) sum += v;
  return { k, mean: sum / perQuery.size, perQuery };
}

/** Scores the candidates of one question (same order as `question.candidates`). */
export type QuestionScorer = (question: Question) => ArrayLike<number> | Promise<ArrayLike<number>>;

/** Trains a scorer on questions, with an optional hyperparameter setting. */
export type Trainer<C> = (
  questions: Question[],
  config: C,
) => QuestionScorer | Promise<QuestionScorer>;

/**
 * Judgment rows of `questions` scored by `scorer` (one row per candidate).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoreQuestions } from "./heldout.ts";
 * const q = { id: "q", text: "?", candidates: [{ id: "a", text: "x", label: 1 }] };
 * const rows = await scoreQuestions([q], () => [0.5]);
 * assert(rows[0].doc === "a" && rows[0].score === 0.5);
 * ```
 */
export async function scoreQuestions(
  questions: readonly Question[],
  scorer: QuestionScorer,
): Promise<ScoredJudgment[]> {
  const rows: ScoredJudgment[] = [];
  for (const q of questions) {
    const scores = await scorer(q);
    if (scores.length !== q.candidates.length) {
      throw new KitError(
        `question ${q.id}: scorer returned ${scores.length} scores for ${q.candidates.length} candidates`,
      );
    }
    q.candidates.forEach((c, i) =>
      rows.push({ query: q.id, doc: c.id, label: c.label, score: scores[i] })
    );
  }
  return rows;
}

/**
 * The overfitting warning: the validation holdout scores a higher loss than the test slice
 * the model was tuned on (by more than `tolerance`). Returns the message, or undefined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { overfittingWarning } from "./heldout.ts";
 * assert(overfittingWarning(0.30, 0.35)!.startsWith("warning"));
 * assert(overfittingWarning(0.30, 0.29) === undefined);
 * ```
 */
export function overfittingWarning(
  testLoss: number,
  validationLoss: number,
  tolerance = 0,
): string | undefined {
  if (!Number.isFinite(testLoss) || !Number.isFinite(validationLoss)) {
    throw new KitError(`losses must be finite (test ${testLoss}, validation ${validationLoss})`);
  }
  if (validationLoss <= testLoss + tolerance) return undefined;
  return `warning: validation loss ${validationLoss.toFixed(4)} is worse than test loss ${
    testLoss.toFixed(4)
  } (tolerance ${tolerance}): the model may be overfitted to the slices it was tuned on`;
}

/** One point of a learning curve. */
export interface CurvePoint {
  /** Training queries used. */
  trainQueries: number;
  /** Loss on the training queries used. */
  trainLoss: number;
  /** Loss on the test slice. */
  testLoss: number;
}

/** Options of {@link heldOutExperiment}. */
export interface HeldOutOptions<C> {
  /** The three slices (e.g. from `splitByQuery`). */
  split: { train: Question[]; test: Question[]; validation: Question[] };
  /** Trains a scorer on questions with a setting. */
  train: Trainer<C>;
  /** Settings to tune over on the test slice (default: one `undefined` setting). */
  configs?: C[];
  /** k of P@k (default 5). */
  k?: number;
  /**
   * Loss of a scorer on questions; default 1 - P@k. A model with its own loss (log loss of
   * a logistic regression) passes it here.
   */
  loss?: (scorer: QuestionScorer, questions: Question[]) => number | Promise<number>;
  /** Training-set sizes for the learning curve, as shares of the train slice (default 0.1, 0.25, 0.5, 1). */
  curve?: number[];
  /** Tolerance of the overfitting warning (default 0). */
  tolerance?: number;
}

/** The result of {@link heldOutExperiment}. */
export interface HeldOutResult<C> {
  /** Each setting's test P@k and loss, in input order. */
  tuning: { config: C; testPrecision: number; testLoss: number }[];
  /** The setting with the lowest test loss (first on ties). */
  best: C;
  /** Learning curve of the best setting (trained on growing prefixes of the train slice). */
  curve: CurvePoint[];
  /** Test P@k and loss of the best setting trained on the whole train slice. */
  test: { precision: number; loss: number };
  /** Validation P@k and loss: computed once, for the best setting only. */
  validation: { precision: number; loss: number };
  /** The overfitting warning, when the validation loss is worse than the test loss. */
  warning?: string;
  k: number;
}

/**
 * Runs the held-out protocol: for each setting train on train and evaluate on test; pick the
 * setting with the lowest test loss; record its learning curve; evaluate it on validation
 * once; warn when validation is worse than test.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { heldOutExperiment } from "./heldout.ts";
 * const q = (id: string) => ({ id, text: id, candidates: [
 *   { id: "long answer here", text: "long answer here", label: 1 }, { id: "no", text: "no", label: 0 }] });
 * const split = { train: [q("a"), q("b")], test: [q("c")], validation: [q("d")] };
 * // A "model" whose setting is the sign of a length feature.
 * const r = await heldOutExperiment({
 *   split, configs: [-1, 1], k: 1,
 *   train: (_qs, sign: number) => (question) => question.candidates.map((c) => sign * c.text.length),
 * });
 * assert(r.best === 1 && r.validation.precision === 1 && r.warning === undefined);
 * ```
 */
export async function heldOutExperiment<C>(options: HeldOutOptions<C>): Promise<HeldOutResult<C>> {
  const { split, train } = options;
  const k = options.k ?? 5;
  const configs = options.configs ?? [undefined as C];
  if (configs.length === 0) throw new KitError("heldOutExperiment needs at least one setting");
  for (const s of ["train", "test", "validation"] as const) {
    if (split[s].length === 0) throw new KitError(`the ${s} slice is empty`);
  }
  const precisionOf = async (scorer: QuestionScorer, qs: Question[]) =>
    precisionAtK(await scoreQuestions(qs, scorer), k).mean;
  const lossOf = options.loss ??
    (async (scorer: QuestionScorer, qs: Question[]) => 1 - await precisionOf(scorer, qs));

  const tuning: HeldOutResult<C>["tuning"] = [];
  let bestIndex = 0;
  const scorers: QuestionScorer[] = [];
  for (const config of configs) {
    const scorer = await train(split.train, config);
    scorers.push(scorer);
    tuning.push({
      config,
      testPrecision: await precisionOf(scorer, split.test),
      testLoss: await lossOf(scorer, split.test),
    });
    if (tuning[tuning.length - 1].testLoss < tuning[bestIndex].testLoss) {
      bestIndex = tuning.length - 1;
    }
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
      trainLoss: await lossOf(scorer, part),
      testLoss: await lossOf(scorer, split.test),
    });
  }

  const finalScorer = scorers[bestIndex];
  const test = { precision: tuning[bestIndex].testPrecision, loss: tuning[bestIndex].testLoss };
  // The validation slice is touched here, once, after every choice is made.
  const validation = {
    precision: await precisionOf(finalScorer, split.validation),
    loss: await lossOf(finalScorer, split.validation),
  };
  const warning = overfittingWarning(test.loss, validation.loss, options.tolerance ?? 0);
  return { tuning, best, curve, test, validation, ...(warning ? { warning } : {}), k };
}

/**
 * A Plotly figure of a learning curve: train and test loss against training queries, with the
 * validation loss as a horizontal line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { learningCurveFigure } from "./heldout.ts";
 * const fig = learningCurveFigure([{ trainQueries: 10, trainLoss: 0.2, testLoss: 0.4 }], 0.45);
 * assert(fig.data.length === 3);
 * ```
 */
export function learningCurveFigure(curve: CurvePoint[], validationLoss?: number): PlotlyFigure {
  const x = curve.map((p) => p.trainQueries);
  const data: Record<string, unknown>[] = [
    {
      type: "scatter",
      mode: "lines+markers",
      name: "train loss",
      x,
      y: curve.map((p) => p.trainLoss),
    },
    {
      type: "scatter",
      mode: "lines+markers",
      name: "test loss",
      x,
      y: curve.map((p) => p.testLoss),
    },
  ];
  if (validationLoss !== undefined) {
    data.push({
      type: "scatter",
      mode: "lines",
      name: "validation loss (once)",
      x: [Math.min(...x), Math.max(...x)],
      y: [validationLoss, validationLoss],
      line: { dash: "dash" },
    });
  }
  return {
    data,
    layout: {
      title: { text: "Learning curve" },
      xaxis: { title: { text: "training queries" } },
      yaxis: { title: { text: "loss" } },
    },
  };
}
