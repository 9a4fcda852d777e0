/**
 * Training regimes of the learned ranker, and training over seeds: the pieces of TANDA's
 * protocol (arXiv 1911.04118) that a small model can show.
 *
 * - **target only**: train on the target's training split (WikiQA train, no-all);
 * - **transfer then adapt**: train on a large general set first (TREC-QA TRAIN-ALL), then on
 *   the target starting from those weights (`init`);
 * - **label noise**: a seeded share of the target's training labels flipped before training;
 * - **seeds**: what a seed changes is the order in which SGD visits the examples in every
 *   epoch (and, with noise, which labels flip). Features are computed once per set and
 *   shared by every model trained or scored on it.
 *
 * @module
 */
import { loadSplit } from "../data/mod.ts";
import type { FilterName } from "../data/filters.ts";
import type { As2Dataset, Question } from "../data/types.ts";
import { KitError } from "../errors.ts";
import { evaluate } from "../metrics/evaluate.ts";
import { type EvalResult, type Qrels } from "../metrics/types.ts";
import { qrelsFromQuestions, runFromScores } from "../metrics/convert.ts";
import { writeRun } from "../metrics/write_files.ts";
import { collectionStats } from "./lexical.ts";
import {
  fitLtr,
  LTR_FEATURES,
  type LtrExamples,
  ltrExamples,
  type LtrModel,
  POSITION_FEATURES,
  scoreLtrExamples,
} from "./ltr.ts";
import { addLabelNoise } from "./noise.ts";

/** The training split the learned ranker uses per dataset, with the filter of the protocol. */
export const LTR_TRAINING: Record<
  As2Dataset,
  { split: string; filter: "no-all" | "raw"; positions: boolean }
> = {
  // TANDA's protocol: WikiQA train without all-negative questions; TREC-QA TRAIN-ALL as is.
  // TREC-QA lists positive candidates first: position features would leak the labels.
  wikiqa: { split: "train", filter: "no-all", positions: true },
  trecqa: { split: "train-all", filter: "raw", positions: false },
};

/**
 * The features the ranker trains on for a dataset: all of them on WikiQA, all but the
 * position features on TREC-QA (its files list positive candidates first).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { protocolFeatures } from "./regimes.ts";
 * assert(protocolFeatures("wikiqa").includes("is_first"));
 * assert(!protocolFeatures("trecqa").includes("is_first"));
 * ```
 */
export function protocolFeatures(dataset: As2Dataset): string[] {
  return LTR_FEATURES.filter((f) =>
    LTR_TRAINING[dataset].positions || !POSITION_FEATURES.includes(f)
  );
}

/** A training split loaded once, with its features computed. */
export interface LtrTrainingSet {
  dataset: As2Dataset;
  split: string;
  filter: FilterName;
  /** The questions after the filter. */
  questions: Question[];
  /** Their features (IDF statistics from these questions' candidates) and labels. */
  examples: LtrExamples;
  /** The features the protocol trains on for this dataset ({@link protocolFeatures}). */
  features: string[];
}

/** Where a split comes from: split, filter and corpus folder. */
export interface SplitChoice {
  /** Split (default: the protocol's training split, {@link LTR_TRAINING}). */
  split?: string;
  /** Filter (default: the protocol's, `no-all` for WikiQA, `raw` for TREC-QA). */
  filter?: FilterName;
  /** Corpus folder passed to `loadSplit` (default: the cache, else the samples). */
  dir?: string;
}

/**
 * Loads a training split and computes its features once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadLtrTrainingSet } from "./regimes.ts";
 * const set = await loadLtrTrainingSet("wikiqa", { dir: "samples" });
 * assert(set.split === "train" && set.filter === "no-all");
 * assert(set.examples.count === set.questions.reduce((n, q) => n + q.candidates.length, 0));
 * ```
 */
export async function loadLtrTrainingSet(
  dataset: As2Dataset,
  options: SplitChoice = {},
): Promise<LtrTrainingSet> {
  const split = options.split ?? LTR_TRAINING[dataset].split;
  const filter = options.filter ?? LTR_TRAINING[dataset].filter;
  const { questions } = await loadSplit(dataset, split, { filter, dir: options.dir });
  return {
    dataset,
    split,
    filter,
    questions,
    examples: ltrExamples(questions, { source: `${dataset} ${split} ${filter}` }),
    features: protocolFeatures(dataset),
  };
}

/** Options of {@link trainRanker}. */
export interface TrainRankerOptions {
  /** Seed of the example order in every epoch (default 42). */
  seed?: number;
  /** Share of the training labels to flip first, in [0, 1] (default 0: clean). */
  noise?: number;
  /** Seed that chooses the flipped labels (default: `seed`). */
  noiseSeed?: number;
  /** Start from this model (transfer then adapt); default: zeros (target only). */
  init?: LtrModel;
  /** Passes over the examples (default 30). */
  epochs?: number;
  /** Initial learning rate (default 0.1, decayed as lr / (1 + epoch)). */
  learningRate?: number;
  /** L2 penalty (default 1e-4). */
  l2?: number;
}

/**
 * Trains the ranker on a training set: label noise first when asked for, then SGD from zeros
 * or from `init`, on the features the dataset's protocol allows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadLtrTrainingSet, trainRanker } from "./regimes.ts";
 * const trec = await loadLtrTrainingSet("trecqa", { dir: "samples" });
 * const wiki = await loadLtrTrainingSet("wikiqa", { dir: "samples" });
 * const transferred = trainRanker(trec, { epochs: 2 });
 * const adapted = trainRanker(wiki, { init: transferred, seed: 3, noise: 0.1, epochs: 2 });
 * assert(adapted.stages?.length === 2 && adapted.stages[1].noise?.fraction === 0.1);
 * ```
 */
export function trainRanker(set: LtrTrainingSet, options: TrainRankerOptions = {}): LtrModel {
  const seed = options.seed ?? 42;
  const init = options.init;
  if (init) {
    const outside = init.features.filter((f) => !set.features.includes(f));
    if (outside.length) {
      throw new KitError(
        `the initial model uses ${outside.join(", ")}, which training on ${set.dataset} ` +
          `leaves out` + (LTR_TRAINING[set.dataset].positions
            ? ""
            : " (its files list correct candidates first: position features leak labels)"),
      );
    }
  }
  // No pass over the data: the initial model is the model (score with a saved model as is).
  if (init && options.epochs === 0) return init;
  const noise = options.noise ?? 0;
  const examples = noise === 0
    ? set.examples
    : addLabelNoise(set.examples, noise, options.noiseSeed ?? seed);
  return fitLtr(examples, {
    seed,
    init,
    features: set.features,
    epochs: options.epochs,
    learningRate: options.learningRate,
    l2: options.l2,
  });
}

/** A split to evaluate on, loaded once, with its features and qrels. */
export interface LtrEvaluationSet {
  dataset: As2Dataset;
  split: string;
  filter: FilterName;
  /** The questions after the filter. */
  questions: Question[];
  /** Features with IDF statistics from the raw split (as `scoreSplit` computes them). */
  examples: LtrExamples;
  /** The qrels of the filtered questions. */
  qrels: Qrels;
}

/**
 * Loads a split to evaluate on (default filter `clean`, the protocol's) and computes its
 * features once, with the IDF statistics `score --model ltr` uses (the raw split), so a model
 * evaluated here gets the numbers `deno task score` prints.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadLtrEvaluationSet } from "./regimes.ts";
 * const test = await loadLtrEvaluationSet("wikiqa", "test", { dir: "samples" });
 * assert(test.filter === "clean" && test.qrels.size === test.questions.length);
 * ```
 */
export async function loadLtrEvaluationSet(
  dataset: As2Dataset,
  split: string,
  options: { filter?: FilterName; dir?: string } = {},
): Promise<LtrEvaluationSet> {
  const filter = options.filter ?? "clean";
  const { questions } = await loadSplit(dataset, split, { filter, dir: options.dir });
  const raw = await loadSplit(dataset, split, { filter: "raw", dir: options.dir });
  const stats = collectionStats(raw.questions.flatMap((q) => q.candidates.map((c) => c.text)));
  return {
    dataset,
    split,
    filter,
    questions,
    examples: ltrExamples(questions, { stats, source: `${dataset} ${split} ${filter}` }),
    qrels: qrelsFromQuestions(questions),
  };
}

/**
 * Scores an evaluation set with a model and evaluates the run over every question of the
 * set (`-c`), by default MAP and MRR.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluateRanker, loadLtrEvaluationSet, loadLtrTrainingSet, trainRanker } from "./regimes.ts";
 * const model = trainRanker(await loadLtrTrainingSet("wikiqa", { dir: "samples" }), { epochs: 2 });
 * const r = evaluateRanker(model, await loadLtrEvaluationSet("wikiqa", "test", { dir: "samples" }));
 * assert(r.summary.map > 0 && r.summary.map <= 1);
 * ```
 */
export function evaluateRanker(
  model: LtrModel,
  set: LtrEvaluationSet,
  measures: readonly string[] = ["map", "recip_rank"],
): EvalResult {
  const run = runFromScores(set.questions, scoreLtrExamples(model, set.examples));
  return evaluate(set.qrels, run, measures, { complete: true, warn: false });
}

/** Models of one regime over seeds, each evaluated. */
export interface SeedRuns {
  /** The regime's name. */
  name: string;
  /** The seeds, in order. */
  seeds: number[];
  /** One model per seed. */
  models: LtrModel[];
  /** One evaluation per seed (`perQuery` holds every question of the evaluation set). */
  results: EvalResult[];
}

/**
 * Trains one model per seed with `train` and evaluates each on `test`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadLtrEvaluationSet, loadLtrTrainingSet, overSeeds, trainRanker } from "./regimes.ts";
 * const wiki = await loadLtrTrainingSet("wikiqa", { dir: "samples" });
 * const test = await loadLtrEvaluationSet("wikiqa", "test", { dir: "samples" });
 * const runs = overSeeds("target only", [1, 2, 3], (seed) => trainRanker(wiki, { seed, epochs: 2 }), test);
 * assert(runs.results.length === 3 && runs.models[2].seed === 3);
 * ```
 */
export function overSeeds(
  name: string,
  seeds: readonly number[],
  train: (seed: number) => LtrModel,
  test: LtrEvaluationSet,
  measures: readonly string[] = ["map", "recip_rank"],
): SeedRuns {
  if (seeds.length === 0) throw new KitError(`${name}: no seeds given`);
  if (new Set(seeds).size !== seeds.length) throw new KitError(`${name}: a seed is repeated`);
  const models = seeds.map((s) => train(s));
  return {
    name,
    seeds: [...seeds],
    models,
    results: models.map((m) => evaluateRanker(m, test, measures)),
  };
}

/**
 * Writes one TREC run file per seed (`<folder>/<name>-seed<N>.run`, the name reduced to
 * letters, digits, `.`, `_` and `-`), so the kit's own seeds can go where a user's runs go
 * (`eval stability`, `report --run NAME=PATH1,PATH2,...`). Returns the paths in seed order;
 * existing files are replaced only with `force`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadLtrEvaluationSet, loadLtrTrainingSet, overSeeds, trainRanker, writeSeedRuns } from "./regimes.ts";
 * const wiki = await loadLtrTrainingSet("wikiqa", { dir: "samples" });
 * const test = await loadLtrEvaluationSet("wikiqa", "test", { dir: "samples" });
 * const runs = overSeeds("target only", [1, 2], (seed) => trainRanker(wiki, { seed, epochs: 1 }), test);
 * const paths = await writeSeedRuns(runs, test, await Deno.makeTempDir());
 * assert(paths[1].endsWith("/target_only-seed2.run"));
 * ```
 */
export async function writeSeedRuns(
  runs: SeedRuns,
  test: LtrEvaluationSet,
  folder: string,
  options: { force?: boolean } = {},
): Promise<string[]> {
  const slug = runs.name.replace(/[^\w.-]+/g, "_").replace(/^[.-]/, "_") || "run";
  const paths: string[] = [];
  for (let i = 0; i < runs.seeds.length; i++) {
    const path = `${folder}/${slug}-seed${runs.seeds[i]}.run`;
    const run = runFromScores(test.questions, scoreLtrExamples(runs.models[i], test.examples));
    await writeRun(path, run, { runId: `${slug}-seed${runs.seeds[i]}`, force: options.force });
    paths.push(path);
  }
  return paths;
}
