/**
 * ONNX inference through onnxruntime-web, on one of two backends: `webgpu` (its WebGPU
 * execution provider on Deno's `navigator.gpu`) or `cpu` (its wasm execution provider).
 * The two bundles are imported lazily, so a CPU-only run never touches WebGPU.
 *
 * @module
 */
import { KitError } from "../../errors.ts";

/** Where a model runs. */
export type Backend = "webgpu" | "cpu";

/** Every backend. */
export const BACKENDS: readonly Backend[] = ["webgpu", "cpu"];

type Ort = typeof import("npm:onnxruntime-web@1.30.0");

/**
 * The Vulkan loader behind Deno's WebGPU complains on every adapter request when
 * XDG_RUNTIME_DIR is unset (as in CI and cron jobs): give it a private temporary one.
 */
function ensureRuntimeDir(): void {
  try {
    if (!Deno.env.get("XDG_RUNTIME_DIR")) {
      Deno.env.set("XDG_RUNTIME_DIR", Deno.makeTempDirSync({ prefix: "qa-kit-xdg-" }));
    }
  } catch { /* no env or write permission: the warning stays, nothing else changes */ }
}

/** Returns true when a WebGPU adapter is available (a real GPU or lavapipe). */
export async function hasWebGpu(): Promise<boolean> {
  ensureRuntimeDir();
  try {
    const gpu = (navigator as Navigator & { gpu?: GPU }).gpu;
    return !!gpu && !!(await gpu.requestAdapter());
  } catch {
    return false;
  }
}

/**
 * The default backend: `webgpu` when an adapter exists, else `cpu`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultBackend } from "./session.ts";
 * assert(["webgpu", "cpu"].includes(await defaultBackend()));
 * ```
 */
export async function defaultBackend(): Promise<Backend> {
  return (await hasWebGpu()) ? "webgpu" : "cpu";
}

/** The onnxruntime-web module for a backend. */
export async function ortFor(backend: Backend): Promise<Ort> {
  const ort: Ort = backend === "webgpu"
    ? await import("npm:onnxruntime-web@1.30.0/webgpu") as unknown as Ort
    : await import("npm:onnxruntime-web@1.30.0");
  ort.env.logLevel = "error";
  // one wasm thread: deterministic, and the machines this runs on have few cores
  if (backend === "cpu") ort.env.wasm.numThreads = 1;
  return ort;
}

/** A loaded model on one backend. */
export interface ModelSession {
  /** The backend it runs on. */
  backend: Backend;
  /** Input names of the graph (e.g. `input_ids`, `attention_mask`, `token_type_ids`). */
  inputNames: readonly string[];
  /** Output names of the graph. */
  outputNames: readonly string[];
  /**
   * Runs one padded batch of `batch` rows of `length` tokens each; returns every output
   * as a flat Float32Array with its dims.
   */
  run(
    batch: number,
    length: number,
    inputs: { ids: number[]; mask: number[]; typeIds: number[] },
  ): Promise<Record<string, { data: Float32Array; dims: readonly number[] }>>;
  /** Frees the session. */
  release(): Promise<void>;
}

/**
 * Creates an inference session for ONNX bytes on a backend.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createSession } from "./session.ts";
 * const bytes = await Deno.readFile("tests/fixtures/tiny-model/qa/model.onnx");
 * const s = await createSession(bytes, "cpu");
 * const out = await s.run(1, 3, { ids: [2, 20, 3], mask: [1, 1, 1], typeIds: [0, 0, 0] });
 * assert(out.start_logits.dims[1] === 3);
 * await s.release();
 * ```
 */
export async function createSession(bytes: Uint8Array, backend: Backend): Promise<ModelSession> {
  if (backend === "webgpu" && !(await hasWebGpu())) {
    throw new KitError(
      "no WebGPU adapter (install a GPU driver or mesa-vulkan-drivers for lavapipe), " +
        "or pass --backend cpu",
    );
  }
  const ort = await ortFor(backend);
  let session: Awaited<ReturnType<Ort["InferenceSession"]["create"]>>;
  try {
    session = await ort.InferenceSession.create(bytes, {
      executionProviders: [backend === "webgpu" ? "webgpu" : "wasm"],
      graphOptimizationLevel: "all",
      logSeverityLevel: 3,
    });
  } catch (e) {
    throw new KitError(`cannot load the ONNX model on ${backend}: ${(e as Error).message}`);
  }
  const tensor = (values: number[], batch: number, length: number) =>
    new ort.Tensor("int64", BigInt64Array.from(values, (v) => BigInt(v)), [batch, length]);
  return {
    backend,
    inputNames: session.inputNames,
    outputNames: session.outputNames,
    async run(batch, length, inputs) {
      const feeds: Record<string, InstanceType<Ort["Tensor"]>> = {};
      for (const name of session.inputNames) {
        if (name === "input_ids") feeds[name] = tensor(inputs.ids, batch, length);
        else if (name === "attention_mask") feeds[name] = tensor(inputs.mask, batch, length);
        else if (name === "token_type_ids") feeds[name] = tensor(inputs.typeIds, batch, length);
        else throw new KitError(`the ONNX model wants an input the kit does not know: ${name}`);
      }
      const out = await session.run(feeds);
      const result: Record<string, { data: Float32Array; dims: readonly number[] }> = {};
      for (const [name, t] of Object.entries(out)) {
        if (t.type !== "float32" && t.type !== "float64") {
          throw new KitError(`output ${name} is ${t.type}; the kit reads float32 models only`);
        }
        const data = t.type === "float32"
          ? new Float32Array(await t.getData() as Float32Array)
          : Float32Array.from(await t.getData() as ArrayLike<number>);
        result[name] = { data, dims: t.dims };
        t.dispose();
      }
      return result;
    },
    async release() {
      await session.release();
    },
  };
}
