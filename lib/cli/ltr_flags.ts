/**
 * The `score` flags that say how `--model ltr` trains: training data, initial model, label
 * noise, epochs, and where to save the model. One table ({@link LTR_FLAGS}, a part of `score`'s
 * option table) is the source of their parsing, their help and the documentation check.
 *
 * @module
 */
import { datasetNames } from "../data/datasets.ts";
import { FILTERS } from "../data/filters.ts";
import { KitError } from "../errors.ts";
import { readLtrModel } from "../scoring/ltr_file.ts";
import type { LtrTrainingChoice } from "../scoring/pipeline.ts";
import { integerFlag, oneOf, str } from "./args.ts";
import type { Parsed } from "./grammar.ts";
import type { Option } from "./command.ts";

/** The training flags of `score --model ltr` (docs/scoring.md says the same). */
export const LTR_FLAGS: readonly Option[] = [
  {
    name: "train-dataset",
    value: datasetNames("as2").join("|"),
    help: "dataset to train on (default: the scored --dataset)",
  },
  {
    name: "train-split",
    value: "S",
    help: "training split (default: train for WikiQA, train-all for TREC-QA)",
  },
  {
    name: "train-filter",
    value: FILTERS.join("|"),
    help: "filter of the training split (default: no-all for WikiQA, raw for TREC-QA)",
  },
  {
    name: "init-model",
    value: "FILE",
    help: "start from a saved model's weights (transfer, then adapt); " +
      "with --epochs 0, score with the saved model as it is",
  },
  {
    name: "noise",
    value: "P",
    help: "flip round(P x training pairs) labels, chosen by --noise-seed, before training " +
      "(P in [0, 1]; default 0)",
  },
  {
    name: "noise-seed",
    value: "N",
    help: "seed choosing the flipped labels (default: --seed)",
  },
  {
    name: "epochs",
    value: "N",
    help: "passes over the training pairs (default 30)",
  },
  {
    name: "save-model",
    value: "FILE",
    help: "write the trained model as JSON (format in docs/scoring.md); " +
      "without --out, train and save only",
  },
];

/** What the flags ask for. */
export interface LtrFlagValues {
  /** How to train. */
  training: LtrTrainingChoice;
  /** Where to save the model, if asked. */
  saveModel?: string;
}

/**
 * Reads the training flags; refuses them for a model other than `ltr`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseFlags } from "./args.ts";
 * import { LTR_FLAGS, readLtrFlags } from "./ltr_flags.ts";
 * const p = parseFlags(["--noise", "0.1", "--train-dataset", "trecqa"], { options: LTR_FLAGS });
 * const f = await readLtrFlags(p, "ltr");
 * assert(f.training.noise === 0.1 && f.training.dataset === "trecqa");
 * await assert.rejects(readLtrFlags(p, "lexical:bm25"), /--train-dataset is an option of --model ltr/);
 * ```
 */
export async function readLtrFlags(p: Parsed, model: string): Promise<LtrFlagValues> {
  const given = LTR_FLAGS.filter((f) => p.values[f.name] !== undefined);
  if (model !== "ltr") {
    if (given.length) {
      throw new KitError(`--${given[0].name} is an option of --model ltr, not of ${model}`);
    }
    return { training: {} };
  }
  const training: LtrTrainingChoice = {};
  const dataset = str(p, "train-dataset");
  if (dataset !== undefined) {
    training.dataset = oneOf(dataset, datasetNames("as2"), "training dataset");
  }
  training.split = str(p, "train-split");
  const filter = str(p, "train-filter");
  if (filter !== undefined) training.filter = oneOf(filter, FILTERS, "training filter");
  const noise = str(p, "noise");
  if (noise !== undefined) {
    const v = Number(noise);
    if (!/^\s*[\d.]+(e-?\d+)?\s*$/i.test(noise) || !(v >= 0 && v <= 1)) {
      throw new KitError(`--noise takes a share of labels between 0 and 1, got '${noise}'`);
    }
    training.noise = v;
  }
  training.noiseSeed = integerFlag(p, "noise-seed", 0);
  training.epochs = integerFlag(p, "epochs", 0);
  const init = str(p, "init-model");
  if (init !== undefined) training.init = await readLtrModel(init);
  return { training, saveModel: str(p, "save-model") };
}
