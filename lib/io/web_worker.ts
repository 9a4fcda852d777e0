/**
 * The runtime's own Web `Worker` constructor, captured when this module is first evaluated.
 * onnxruntime-web's wasm build (Emscripten) takes Deno for Node and sets `global.Worker` to
 * `node:worker_threads`' Worker when its module is instantiated, and that Worker refuses the
 * module workers the kit starts (`lib/metrics/engine/halves.ts`): "must be an absolute path".
 * `lib/scoring/model/web.ts` imports this module before it loads onnxruntime-web, so a process
 * that scores on `wasm` or `webgpu` and then evaluates large files still gets a Web Worker.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { WebWorker } from "./web_worker.ts";
 * assert.equal(typeof WebWorker, "function");
 * ```
 *
 * @module
 */

/** The Web `Worker` constructor as the runtime gave it. */
export const WebWorker: typeof Worker = globalThis.Worker;
