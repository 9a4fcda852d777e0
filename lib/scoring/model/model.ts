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
import { type BackendChoice, chooseBackend } from "./backend.ts";
import { createSession, type ModelSession } from "./session.ts";
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
  /**
   * Backend (default `auto`: WebGPU on a hardware adapter, else the native CPU backend, else
   * wasm, which is said on stderr with the reason; see `backend.ts`).
   */
  backend?: BackendChoice;
  /** Intra-op threads of the native CPU backend (default: the CPUs this process may use). */
  threads?: number;
  /** Override the longest input in tokens. */
  maxLength?: number;
}

let fallbackSaid = false;

/**
 * A named backend as is; `auto` resolved, saying on stderr (once per process) when it falls
 * back to wasm because the native CPU backend cannot load.
 */
async function resolveBackend(choice: BackendChoice, threads?: number) {
  if (choice !== "auto") return choice;
  const chosen = await chooseBackend("auto", { threads });
  if (chosen.backend === "wasm" && !fallbackSaid) {
    fallbackSaid = true;
    console.error(chosen.line);
  }
  return chosen.backend;
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
  const backend = await resolveBackend(options.backend ?? "auto", options.threads);
  const session = await createSession(bytes, backend, { threads: options.threads });
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
