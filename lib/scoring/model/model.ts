/**
 * A Hugging Face model folder loaded for inference: `config.json`, the tokenizer and ONNX
 * weights (`onnx/model.onnx` or `model.onnx`) in a session on the chosen backend.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { KitError } from "../../errors.ts";
import { readJsonFile } from "../../io/json.ts";
import { exists } from "../../io/atomic.ts";
import { type HubOptions, MODEL_FILES, resolveModelDir } from "./hub.ts";
import { type Backend, createSession, defaultBackend, type ModelSession } from "./session.ts";
import { ModelTokenizer } from "./tokenizer.ts";

/** The parts of `config.json` the kit reads. */
export interface ModelConfig {
  model_type?: string;
  architectures?: string[];
  num_labels?: number;
  id2label?: Record<string, string>;
  max_position_embeddings?: number;
}

/** A model ready to run. */
export interface LoadedModel {
  /** The spec it was loaded from (path or repo id). */
  spec: string;
  /** The local folder. */
  dir: string;
  /** Its parsed config.json. */
  config: ModelConfig;
  /** Its tokenizer. */
  tokenizer: ModelTokenizer;
  /** The inference session. */
  session: ModelSession;
  /** Longest input in tokens (from the tokenizer config and position embeddings). */
  maxLength: number;
  /** The first 16 hex digits of the ONNX file's sha256 (part of score-cache keys). */
  weightsDigest: string;
}

/** Options of {@link loadModel}. */
export interface LoadModelOptions extends HubOptions {
  /** Backend (default: `webgpu` when an adapter exists, else `cpu`). */
  backend?: Backend;
  /** Override the longest input in tokens. */
  maxLength?: number;
}

/** The ONNX file of a model folder. */
export async function weightsPath(dir: string): Promise<string> {
  for (const f of MODEL_FILES.weights) if (await exists(`${dir}/${f}`)) return `${dir}/${f}`;
  throw new KitError(
    `no ONNX weights (${MODEL_FILES.weights.join(" or ")}); export the model to ONNX first`,
    { file: dir },
  );
}

/**
 * Loads a model folder (local path or hub repo id) onto a backend.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadModel } from "./model.ts";
 * const m = await loadModel("tests/fixtures/tiny-model/cross-encoder", { backend: "cpu" });
 * assert(m.config.num_labels === 1 && m.maxLength === 128);
 * await m.session.release();
 * ```
 */
export async function loadModel(
  spec: string,
  options: LoadModelOptions = {},
): Promise<LoadedModel> {
  const dir = await resolveModelDir(spec, options);
  const config = (await readJsonFile(`${dir}/config.json`, { expect: "object" })) as ModelConfig;
  const tokenizer = await ModelTokenizer.load(dir);
  const bytes = await Deno.readFile(await weightsPath(dir));
  const backend = options.backend ?? await defaultBackend();
  const session = await createSession(bytes, backend);
  const fromTokenizer = tokenizer.modelMaxLength;
  // RoBERTa-style position ids start after the padding index: two positions fewer
  const offset = ["roberta", "xlm-roberta", "camembert"].includes(config.model_type ?? "") ? 2 : 0;
  const fromConfig = config.max_position_embeddings ? config.max_position_embeddings - offset : 512;
  const maxLength = options.maxLength ??
    Math.min(fromConfig, fromTokenizer ?? fromConfig);
  return {
    spec,
    dir,
    config,
    tokenizer,
    session,
    maxLength,
    weightsDigest: createHash("sha256").update(bytes).digest("hex").slice(0, 16),
  };
}
