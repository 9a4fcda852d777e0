/**
 * The shape every inference session has, whichever runtime runs it: the kit's three backends
 * (`webgpu`, `cpu`, `wasm`) and one padded batch in, every output out.
 *
 * @module
 */
import { KitError } from "../../errors.ts";

/**
 * Where a model runs: `webgpu`, onnxruntime-web's WebGPU execution provider on Deno's
 * `navigator.gpu`; `cpu`, onnxruntime's native CPU execution provider (npm
 * `onnxruntime-node`) on the process's cores; `wasm`, onnxruntime-web's WebAssembly build on
 * one thread, which loads wherever Deno runs.
 */
export type Backend = "webgpu" | "cpu" | "wasm";

/** Every backend, fastest-first where the hardware has them. */
export const BACKENDS: readonly Backend[] = ["webgpu", "cpu", "wasm"];

/** A backend, or `auto`: the fastest real one (`backend.ts`). */
export type BackendChoice = Backend | "auto";

/** What `--backend` and `KIT_BACKEND` accept. */
export const BACKEND_CHOICES: readonly BackendChoice[] = ["auto", ...BACKENDS];

/** One padded batch: `batch` rows of `length` token ids, attention mask and segment ids. */
export interface SessionInputs {
  /** Token ids, row after row. */
  ids: number[];
  /** 1 for a real token, 0 for padding. */
  mask: number[];
  /** Segment (token type) ids. */
  typeIds: number[];
}

/** Every output of a run as a flat Float32Array with its dims. */
export type SessionOutputs = Record<string, { data: Float32Array; dims: readonly number[] }>;

/** A loaded model on one backend. */
export interface ModelSession {
  /** The backend it runs on. */
  backend: Backend;
  /** Intra-op threads (the native CPU backend; 1 for wasm; absent on WebGPU). */
  threads?: number;
  /** Input names of the graph (e.g. `input_ids`, `attention_mask`, `token_type_ids`). */
  inputNames: readonly string[];
  /** Output names of the graph. */
  outputNames: readonly string[];
  /** Runs one padded batch of `batch` rows of `length` tokens each. */
  run(batch: number, length: number, inputs: SessionInputs): Promise<SessionOutputs>;
  /** Frees the session. */
  release(): Promise<void>;
}

/**
 * The values of a graph input the kit feeds, by the input's name as Hugging Face exports
 * name them; an input it does not know is an error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inputValues } from "./session_types.ts";
 * const inputs = { ids: [101, 7, 102], mask: [1, 1, 1], typeIds: [0, 0, 0] };
 * assert.deepEqual(inputValues("attention_mask", inputs), [1, 1, 1]);
 * assert.throws(() => inputValues("position_ids", inputs), /does not know: position_ids/);
 * ```
 */
export function inputValues(name: string, inputs: SessionInputs): number[] {
  if (name === "input_ids") return inputs.ids;
  if (name === "attention_mask") return inputs.mask;
  if (name === "token_type_ids") return inputs.typeIds;
  throw new KitError(`the ONNX model wants an input the kit does not know: ${name}`);
}

/**
 * A run's outputs as the kit reads them, from either runtime's tensors (onnxruntime-node's and
 * onnxruntime-web's have the same `type` and `dims`; how the values are read differs: `read`):
 * each a Float32Array copy with its dims, made before `free` (when given) frees the tensor. A
 * float64 output is rounded to float32; any other type is an error naming the output.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sessionOutputs } from "./session_types.ts";
 * const out = {
 *   logits: { type: "float64", dims: [2, 1], data: Float64Array.of(0.1, -2) },
 *   start: { type: "float32", dims: [1, 2], data: Float32Array.of(1, 2) },
 * };
 * const got = await sessionOutputs(out, (t) => t.data);
 * assert.deepEqual(got.logits, { data: Float32Array.of(0.1, -2), dims: [2, 1] });
 * assert.notEqual(got.start.data, out.start.data); // a copy
 * const ids = { ids: { type: "int64", dims: [1], data: Float64Array.of(1) } };
 * await assert.rejects(sessionOutputs(ids, (t) => t.data), /output ids is int64; the kit reads float32 models only/);
 * ```
 */
export async function sessionOutputs<T extends { type: string; dims: readonly number[] }>(
  out: Record<string, T>,
  read: (tensor: T) => ArrayLike<number> | Promise<ArrayLike<number>>,
  free?: (tensor: T) => void,
): Promise<SessionOutputs> {
  const result: SessionOutputs = {};
  for (const [name, t] of Object.entries(out)) {
    if (t.type !== "float32" && t.type !== "float64") {
      throw new KitError(`output ${name} is ${t.type}; the kit reads float32 models only`);
    }
    result[name] = { data: new Float32Array(await read(t)), dims: t.dims };
    free?.(t);
  }
  return result;
}

/**
 * Reads a `--backend` or `KIT_BACKEND` value: one of {@link BACKEND_CHOICES}; empty or
 * absent is `auto`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseBackendChoice } from "./session_types.ts";
 * assert.equal(parseBackendChoice(undefined), "auto");
 * assert.equal(parseBackendChoice("wasm"), "wasm");
 * assert.throws(() => parseBackendChoice("gpu", "KIT_BACKEND"), /KIT_BACKEND must be one of auto, webgpu, cpu, wasm, not 'gpu'/);
 * ```
 */
export function parseBackendChoice(value: string | undefined, source = "--backend"): BackendChoice {
  if (value === undefined || value === "") return "auto";
  if (!(BACKEND_CHOICES as readonly string[]).includes(value)) {
    throw new KitError(`${source} must be one of ${BACKEND_CHOICES.join(", ")}, not '${value}'`);
  }
  return value as BackendChoice;
}
