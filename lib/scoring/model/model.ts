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
import { inputError } from "../../io/source.ts";
import { readWholeFile } from "../../io/whole_file.ts";
import { type HubOptions, MODEL_FILES, resolveModelDir } from "./hub.ts";
import { type BackendChoice, chooseBackend } from "./backend.ts";
import { createSession, type ModelSession } from "./session.ts";
import { ModelTokenizer } from "./tokenizer.ts";
import { embeddingRows } from "./onnx_proto.ts";

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
  /**
   * What the model is called in run ids and cache file names: the hub repo id it was downloaded
   * as, else its folder's name (the same however the path is spelt).
   */
  name: string;
  /**
   * The sha256 (hex) of every file that decides a score: the ONNX weights, the tokenizer
   * (`tokenizer.json` or `vocab.txt`), `tokenizer_config.json`, `special_tokens_map.json` and
   * `config.json`, each with its name and length. Part of score-cache keys: a model changed in
   * any of them is another model.
   */
  contentDigest: string;
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

/**
 * Refuses a folder whose tokenizer or length does not fit its config: a token id past
 * `vocab_size` or a position past `max_position_embeddings` makes onnxruntime's Gather fail on
 * cpu and wasm, and read past the table (scoring garbage, silently) on WebGPU.
 */
function checkConfigFits(
  dir: string,
  config: ModelConfig,
  tokenizer: ModelTokenizer,
  maxLength: number,
  positions: number,
): void {
  const vocabSize = (config as { vocab_size?: number }).vocab_size;
  const ids = tokenizer.vocabularySize;
  if (vocabSize !== undefined && ids > vocabSize) {
    throw new KitError(
      `the tokenizer (${tokenizer.file}) has token ids up to ${ids - 1}, but config.json's ` +
        `vocab_size is ${vocabSize}: the tokenizer is not this model's`,
      { file: dir },
    );
  }
  if (maxLength > positions) {
    throw new KitError(
      `max length ${maxLength} is above the ${positions} positions of config.json's ` +
        `max_position_embeddings${
          config.max_position_embeddings === positions
            ? ""
            : " (less the 2 RoBERTa-style models reserve)"
        }`,
      { file: dir },
    );
  }
}

/**
 * Refuses weights whose embedding tables are smaller than the tokenizer and length need (a
 * config.json that does not describe its weights); read only where the tables are found.
 */
function checkWeightsFit(
  file: string,
  rows: { words?: number; positions?: number },
  tokenizer: ModelTokenizer,
  positionsNeeded: number,
): void {
  const ids = tokenizer.vocabularySize;
  if (rows.words !== undefined && ids > rows.words) {
    throw new KitError(
      `the word embedding table has ${rows.words} rows, but the tokenizer ` +
        `(${tokenizer.file}) gives ids up to ${ids - 1}: the tokenizer is not these weights'`,
      { file },
    );
  }
  if (rows.positions !== undefined && positionsNeeded > rows.positions) {
    throw new KitError(
      `the position embedding table has ${rows.positions} rows, but inputs of up to ` +
        `${positionsNeeded} positions are fed (config.json's max_position_embeddings or the ` +
        "tokenizer's model_max_length is larger than these weights')",
      { file },
    );
  }
}

/** A session whose run errors are KitErrors naming the model folder (no stack trace). */
function runsNamingFolder(session: ModelSession, dir: string): ModelSession {
  return {
    ...session,
    async run(batch, length, inputs) {
      try {
        return await session.run(batch, length, inputs);
      } catch (e) {
        if (e instanceof KitError) throw e;
        const first = ((e as Error).message ?? String(e)).split("\n")[0];
        throw new KitError(
          `the model failed on a batch of ${batch} × ${length} tokens on ${session.backend}: ` +
            first,
          { file: dir },
          { cause: e },
        );
      }
    },
    release: () => session.release(),
  };
}

/** Whether a file of a model folder is there (a link counts); unreadable: a `KitError`. */
async function present(path: string): Promise<boolean> {
  try {
    return await exists(path);
  } catch (e) {
    throw inputError(e, path);
  }
}

/** The ONNX file of a model folder. */
export async function weightsPath(dir: string): Promise<string> {
  for (const f of MODEL_FILES.weights) if (await present(`${dir}/${f}`)) return `${dir}/${f}`;
  throw new KitError(
    `no ONNX weights (${MODEL_FILES.weights.join(" or ")}); export the model to ONNX first`,
    { file: dir },
  );
}

/** The files of a model folder that decide its scores, in a fixed order, with their bytes. */
async function scoringFiles(dir: string, weights: string) {
  const names = [
    ...MODEL_FILES.required,
    ...(await present(`${dir}/${MODEL_FILES.tokenizer[0]}`)
      ? [MODEL_FILES.tokenizer[0]]
      : [MODEL_FILES.tokenizer[1]]),
    ...MODEL_FILES.optional,
  ];
  const files: { name: string; bytes: Uint8Array }[] = [];
  for (const name of names) {
    if (await present(`${dir}/${name}`)) {
      const kind = (MODEL_FILES.tokenizer as readonly string[]).includes(name)
        ? "tokenizer"
        : "config";
      files.push({ name, bytes: await readWholeFile(`${dir}/${name}`, kind) });
    }
  }
  files.push({
    name: weights.slice(dir.length + 1),
    bytes: await readWholeFile(weights, "weights"),
  });
  return files;
}

/** One digest over files' names, lengths and bytes (a length prefix keeps boundaries apart). */
function digestOf(files: { name: string; bytes: Uint8Array }[]): string {
  const h = createHash("sha256");
  for (const f of files) h.update(`${f.name}\u0000${f.bytes.length}\u0000`).update(f.bytes);
  return h.digest("hex");
}

/** A folder's own name, whatever the path's spelling (`dir`, `dir/`, `../x/dir`). */
async function folderName(dir: string): Promise<string> {
  const real = await Deno.realPath(dir);
  return real.split(/[\\/]/).filter((x) => x !== "").at(-1) ?? "model";
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
  const config =
    (await readJsonFile(`${dir}/config.json`, { expect: "object", kind: "config" })) as ModelConfig;
  const tokenizer = await ModelTokenizer.load(dir);
  const weights = await weightsPath(dir);
  const files = await scoringFiles(dir, weights);
  const bytes = files.at(-1)!.bytes;
  if (bytes.length === 0) {
    throw new KitError("the ONNX file is empty (an interrupted copy or download?)", {
      file: weights,
    });
  }
  const fromTokenizer = tokenizer.modelMaxLength;
  // RoBERTa-style position ids start after the padding index: two positions fewer
  const offset = ["roberta", "xlm-roberta", "camembert"].includes(config.model_type ?? "") ? 2 : 0;
  const fromConfig = config.max_position_embeddings ? config.max_position_embeddings - offset : 512;
  const maxLength = options.maxLength ??
    Math.min(fromConfig, fromTokenizer ?? fromConfig);
  checkConfigFits(dir, config, tokenizer, maxLength, fromConfig);
  const backend = await resolveBackend(options.backend ?? "auto", options.threads);
  let session: ModelSession;
  try {
    session = await createSession(bytes, backend, { threads: options.threads });
  } catch (e) {
    if (!(e instanceof KitError) || e.file !== undefined) throw e;
    throw new KitError(e.problem, { file: weights }, { cause: e });
  }
  try {
    checkWeightsFit(weights, embeddingRows(bytes), tokenizer, maxLength + offset);
  } catch (e) {
    await session.release();
    throw e;
  }
  return {
    spec,
    dir,
    config,
    tokenizer,
    session: runsNamingFolder(session, dir),
    maxLength,
    name: dir === spec ? await folderName(dir) : spec,
    contentDigest: digestOf(files),
  };
}
