/**
 * Sessions on onnxruntime-web: its WebGPU execution provider on Deno's `navigator.gpu`
 * (`webgpu`) or its WebAssembly build on one thread (`wasm`). The two bundles are imported
 * lazily, so a run on one never loads the other.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import { webGpuAdapter } from "./adapter.ts";
// Before onnxruntime-web is loaded, which replaces `globalThis.Worker` (web_worker.ts).
import "../../io/web_worker.ts";
import {
  inputValues,
  type ModelSession,
  type SessionInputs,
  type SessionOutputs,
  sessionOutputs,
} from "./session_types.ts";

type Ort = typeof import("npm:onnxruntime-web@1.30.0");

/** The onnxruntime-web module for a backend. */
export async function webOrtFor(backend: "webgpu" | "wasm"): Promise<Ort> {
  const ort: Ort = backend === "webgpu"
    ? await import("npm:onnxruntime-web@1.30.0/webgpu") as unknown as Ort
    : await import("npm:onnxruntime-web@1.30.0");
  ort.env.logLevel = "error";
  // one wasm thread: deterministic and light; the native backend is the multi-threaded CPU path
  if (backend === "wasm") ort.env.wasm.numThreads = 1;
  return ort;
}

/**
 * A session on onnxruntime-web's `webgpu` or `wasm` execution provider.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createWebSession } from "./web.ts";
 * const bytes = await Deno.readFile("tests/fixtures/tiny-model/qa/model.onnx");
 * const s = await createWebSession(bytes, "wasm");
 * const out = await s.run(1, 3, { ids: [2, 20, 3], mask: [1, 1, 1], typeIds: [0, 0, 0] });
 * assert(s.backend === "wasm" && out.start_logits.dims[1] === 3);
 * await s.release();
 * ```
 */
export async function createWebSession(
  bytes: Uint8Array,
  backend: "webgpu" | "wasm",
): Promise<ModelSession> {
  if (backend === "webgpu" && !(await webGpuAdapter())) {
    throw new KitError(
      "no WebGPU adapter (install a GPU driver or mesa-vulkan-drivers for lavapipe), " +
        "or pass --backend cpu",
    );
  }
  const ort = await webOrtFor(backend);
  let session: Awaited<ReturnType<Ort["InferenceSession"]["create"]>>;
  try {
    session = await ort.InferenceSession.create(bytes, {
      executionProviders: [backend],
      graphOptimizationLevel: "all",
      // fatal only: an error comes back as the exception the kit words; at level 3 onnxruntime
      // also printed it in ANSI colours on stderr
      logSeverityLevel: 4,
    });
  } catch (e) {
    throw new KitError(`cannot load the ONNX model on ${backend}: ${(e as Error).message}`);
  }
  const tensor = (values: number[], batch: number, length: number) =>
    new ort.Tensor("int64", BigInt64Array.from(values, (v) => BigInt(v)), [batch, length]);
  return {
    backend,
    ...(backend === "wasm" ? { threads: 1 } : {}),
    inputNames: session.inputNames,
    outputNames: session.outputNames,
    async run(batch: number, length: number, inputs: SessionInputs): Promise<SessionOutputs> {
      const feeds: Record<string, InstanceType<Ort["Tensor"]>> = {};
      for (const name of session.inputNames) {
        feeds[name] = tensor(inputValues(name, inputs), batch, length);
      }
      const out = await session.run(feeds, { logSeverityLevel: 4 });
      // getData() downloads a WebGPU output; each tensor is freed once copied.
      return await sessionOutputs(
        out,
        async (t) => await t.getData() as ArrayLike<number>,
        (t) => t.dispose(),
      );
    },
    async release() {
      await session.release();
    },
  };
}
