/**
 * Saved learned-ranker models: one JSON object per file, so a model trained once (e.g. the
 * transfer step on TREC-QA) can start another training (`score --init-model`) or score later.
 *
 * ```json
 * {
 *   "format": "qa-eval-kit/ltr-model",
 *   "version": 1,
 *   "features": ["wordcnt", ...],        // LTR_FEATURES names, in weight order
 *   "mean": [...], "std": [...],          // standardization, one number per feature
 *   "weights": [...], "bias": -2.1,       // score = bias + sum w_j (f_j - mean_j) / std_j
 *   "seed": 42, "trainPairs": 8672,       // of the last training call
 *   "stages": [{"data": "trecqa train-all raw", "pairs": 53417, "seed": 42, "epochs": 30,
 *               "startEpoch": 0}, ...]      // provenance, first stage first
 * }
 * ```
 *
 * Numbers are written as JSON numbers (shortest round-trip form), so a reloaded model gives
 * bit-identical scores.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { readWholeText } from "../io/whole_file.ts";
import { checkModel, type LtrModel, type LtrStage } from "./ltr.ts";

/** The `format` field of a saved model. */
export const LTR_MODEL_FORMAT = "qa-eval-kit/ltr-model";
/** The version of the saved-model format this kit writes and reads. */
export const LTR_MODEL_VERSION = 1;

/**
 * The JSON text of a saved model.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatLtrModel, parseLtrModel } from "./ltr_file.ts";
 * const m = { features: ["bm25"], mean: [1.5], std: [0.1], weights: [0.3], bias: -1 / 3,
 *   seed: 42, trainPairs: 10 };
 * assert.deepEqual(parseLtrModel(formatLtrModel(m)), m);
 * ```
 */
export function formatLtrModel(model: LtrModel): string {
  checkModel(model);
  return JSON.stringify(
    {
      format: LTR_MODEL_FORMAT,
      version: LTR_MODEL_VERSION,
      features: model.features,
      mean: model.mean,
      std: model.std,
      weights: model.weights,
      bias: model.bias,
      seed: model.seed,
      trainPairs: model.trainPairs,
      ...(model.stages ? { stages: model.stages } : {}),
    },
    null,
    1,
  ) + "\n";
}

/**
 * Parses and checks a saved model; `file` names it in errors.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseLtrModel } from "./ltr_file.ts";
 * assert.throws(() => parseLtrModel('{"format": "other"}', "m.json"), /m.json: not a qa-eval-kit/);
 * ```
 */
export function parseLtrModel(text: string, file = "<memory>"): LtrModel {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new KitError(`not valid JSON (${(e as Error).message})`, { file });
  }
  const o = json as Record<string, unknown>;
  if (!o || typeof o !== "object" || Array.isArray(o) || o.format !== LTR_MODEL_FORMAT) {
    throw new KitError(`not a qa-eval-kit ranker model (no "format": "${LTR_MODEL_FORMAT}")`, {
      file,
    });
  }
  if (o.version !== LTR_MODEL_VERSION) {
    throw new KitError(
      `ranker model version ${JSON.stringify(o.version)} (this kit reads version ` +
        `${LTR_MODEL_VERSION})`,
      { file },
    );
  }
  const model: LtrModel = {
    features: o.features as string[],
    mean: o.mean as number[],
    std: o.std as number[],
    weights: o.weights as number[],
    bias: o.bias as number,
    seed: o.seed as number,
    trainPairs: o.trainPairs as number,
    ...(o.stages !== undefined ? { stages: o.stages as LtrStage[] } : {}),
  };
  try {
    checkModel(model);
    if (!Number.isInteger(model.seed) || !Number.isInteger(model.trainPairs)) {
      throw new KitError("ranker model: seed and trainPairs must be integers");
    }
    if (model.stages !== undefined && !Array.isArray(model.stages)) {
      throw new KitError("ranker model: stages must be a list");
    }
  } catch (e) {
    if (e instanceof KitError) throw new KitError(e.problem, { file });
    throw e;
  }
  return model;
}

/**
 * Reads a saved model.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readLtrModel, writeLtrModel } from "./ltr_file.ts";
 * const path = `${await Deno.makeTempDir()}/m.json`;
 * const m = { features: ["bm25"], mean: [1], std: [2], weights: [3], bias: 0, seed: 1, trainPairs: 4 };
 * await writeLtrModel(path, m);
 * assert.deepEqual(await readLtrModel(path), m);
 * ```
 */
export async function readLtrModel(path: string): Promise<LtrModel> {
  const text = await readWholeText(path, "ranker", { missingOk: true });
  if (text === undefined) throw new KitError("no such ranker model file", { file: path });
  return parseLtrModel(text, path);
}

/**
 * Writes a model atomically (a temporary file, then a rename); an existing file is replaced
 * only with `force`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeLtrModel } from "./ltr_file.ts";
 * const path = `${await Deno.makeTempDir()}/m.json`;
 * const m = { features: ["bm25"], mean: [1], std: [2], weights: [3], bias: 0, seed: 1, trainPairs: 4 };
 * await writeLtrModel(path, m);
 * await assert.rejects(writeLtrModel(path, m), /existing file/);
 * ```
 */
export async function writeLtrModel(
  path: string,
  model: LtrModel,
  options: { force?: boolean } = {},
): Promise<void> {
  await writeFileAtomic(path, formatLtrModel(model), { force: options.force });
}
