/**
 * The parameters every notebook reads in its first cell. They come from environment
 * variables, so the same notebook runs unchanged interactively (defaults: the bundled
 * samples) and under `deno task report --data real --model M --backend B`, which sets them
 * for the kernel:
 *
 * | variable | values | default |
 * |---|---|---|
 * | `KIT_DATA` | `sample`, `real` | `sample` |
 * | `KIT_MODEL` | a model name of `lib/scoring` | (the notebook's default) |
 * | `KIT_BACKEND` | `auto`, `webgpu`, `cpu`, `wasm` | `auto` |
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import { datasetDir, defaultCacheDir, isInstalled, PROJECT_ROOT } from "../../data/paths.ts";
import type { DatasetName } from "../../data/types.ts";
import { type BackendChoice, parseBackendChoice } from "../../scoring/model/session_types.ts";

/** What a notebook runs on. */
export interface KitParams {
  /** `sample`: the bundled samples; `real`: the fetched corpora. */
  data: "sample" | "real";
  /** Model name, when set. */
  model?: string;
  /** Scoring backend: `auto` (the fastest real one, `chooseBackend`) or a named one. */
  backend: BackendChoice;
}

/**
 * Reads the notebook parameters from the environment (`KIT_DATA`, `KIT_MODEL`,
 * `KIT_BACKEND`), checking their values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notebookParams } from "./params.ts";
 * const p = notebookParams({ KIT_DATA: "sample" });
 * assert(p.data === "sample" && p.backend === "auto");
 * ```
 */
export function notebookParams(
  env: Record<string, string | undefined> = Deno.env.toObject(),
): KitParams {
  const data = env.KIT_DATA || "sample";
  if (data !== "sample" && data !== "real") {
    throw new KitError(`KIT_DATA must be 'sample' or 'real', not '${data}'`);
  }
  const backend = parseBackendChoice(env.KIT_BACKEND, "KIT_BACKEND");
  return { data, backend, ...(env.KIT_MODEL ? { model: env.KIT_MODEL } : {}) };
}

/**
 * The corpus folder for `dataset` under `params`: the samples, or the fetched cache. With
 * `real` data a corpus that was not fetched is an error (never a silent fall-back to the
 * samples).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { corpusDir } from "./params.ts";
 * assert(corpusDir({ data: "sample", backend: "cpu" }, "wikiqa").endsWith("samples"));
 * ```
 */
export function corpusDir(params: KitParams, dataset: DatasetName): string {
  if (params.data === "sample") return datasetDir(dataset, "samples"); // an error by URL
  if (!isInstalled(dataset)) {
    throw new KitError(
      `KIT_DATA=real but ${dataset} is not fetched into ${defaultCacheDir()}: ` +
        `run 'deno task data fetch ${dataset}' first`,
    );
  }
  return datasetDir(dataset);
}

/** The model notebook 3 uses by default: the tiny cross-encoder fixture (random weights). */
export const DEFAULT_MODEL = `${PROJECT_ROOT}/tests/fixtures/tiny-model/cross-encoder`;

/**
 * The transformer model to score with: `KIT_MODEL` (a hub id `owner/name`, or a folder; a
 * relative folder is taken from the project root, since kernels run in `notebooks/`), else
 * the tiny fixture.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoringModel, DEFAULT_MODEL } from "./params.ts";
 * assert(scoringModel({ data: "sample", backend: "cpu" }) === DEFAULT_MODEL);
 * assert(scoringModel({ data: "sample", backend: "cpu", model: "org/m" }) === "org/m");
 * ```
 */
export function scoringModel(params: KitParams): string {
  const m = params.model;
  if (!m) return DEFAULT_MODEL;
  if (m.startsWith("/")) return m;
  try {
    Deno.statSync(`${PROJECT_ROOT}/${m}`);
    return `${PROJECT_ROOT}/${m}`;
  } catch {
    return m;
  }
}
