/**
 * ONNX inference on one of three backends: `webgpu` (onnxruntime-web's WebGPU execution
 * provider on Deno's `navigator.gpu`), `cpu` (onnxruntime's native CPU execution provider
 * through onnxruntime-node, on the process's cores) or `wasm` (onnxruntime-web's WebAssembly
 * build, one thread). Each runtime is imported lazily, so a run on one never loads the
 * others. Which one `auto` picks: `backend.ts`.
 *
 * @module
 */
import { createNativeSession } from "./native.ts";
import type { Backend, ModelSession } from "./session_types.ts";
import { createWebSession } from "./web.ts";

export { hasWebGpu } from "./adapter.ts";
export { BACKEND_CHOICES, type BackendChoice, defaultBackend } from "./backend.ts";
export { type Backend, BACKENDS, type ModelSession } from "./session_types.ts";

/**
 * Creates an inference session for ONNX bytes on a backend; `threads` sets the native CPU
 * backend's intra-op threads (default: the CPUs this process may use).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createSession } from "./session.ts";
 * const bytes = await Deno.readFile("tests/fixtures/tiny-model/qa/model.onnx");
 * for (const backend of ["cpu", "wasm"] as const) {
 *   const s = await createSession(bytes, backend);
 *   const out = await s.run(1, 3, { ids: [2, 20, 3], mask: [1, 1, 1], typeIds: [0, 0, 0] });
 *   assert(out.start_logits.dims[1] === 3);
 *   await s.release();
 * }
 * ```
 */
export function createSession(
  bytes: Uint8Array,
  backend: Backend,
  options: { threads?: number } = {},
): Promise<ModelSession> {
  return backend === "cpu" ? createNativeSession(bytes, options) : createWebSession(bytes, backend);
}
