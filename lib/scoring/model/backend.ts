/**
 * Which backend a model runs on. `auto` (the default everywhere: `--backend` of `score` and
 * `report`, `KIT_BACKEND` in the notebooks, `loadModel` without a backend) takes the fastest
 * real one: WebGPU on a hardware adapter; else the native CPU backend (onnxruntime-node on the
 * process's cores); else, where the native addon cannot load, onnxruntime-web's WebAssembly
 * build, saying why. A software WebGPU adapter (lavapipe, llvmpipe, SwiftShader, any fallback
 * adapter) is never chosen by default: it runs a MiniLM-sized model tens of times slower than
 * the native backend on the very cores it emulates a GPU on (docs/performance.md). A named
 * backend is used as named, or is an error saying why it cannot run.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import { type AdapterInfo, webGpuAdapter } from "./adapter.ts";
import { loadNativeOrt, NATIVE_ORT_VERSION, nativeThreadsChoice } from "./native.ts";
import type { CpuAllocation } from "./cpus.ts";
import { type Backend, BACKEND_CHOICES, type BackendChoice } from "./session_types.ts";

export { BACKEND_CHOICES, type BackendChoice, parseBackendChoice } from "./session_types.ts";

/** The backend chosen, and why. */
export interface ChosenBackend {
  /** The backend models will run on. */
  backend: Backend;
  /** What was asked for. */
  requested: BackendChoice;
  /** The WebGPU adapter seen, if any (hardware or software). */
  adapter?: AdapterInfo;
  /** Intra-op threads on `cpu` and `wasm`. */
  threads?: number;
  /** Why this backend, in words. */
  reason: string;
  /** One line saying what runs where and why: commands print it on stderr. */
  line: string;
}

/** How a backend runs, in words: the runtime, and its device or threads. */
function runtimeText(
  backend: Backend,
  adapter: AdapterInfo | undefined,
  threads: CpuAllocation,
): string {
  switch (backend) {
    case "webgpu":
      return `onnxruntime-web 1.30.0 on the WebGPU adapter "${adapter?.description}"` +
        (adapter?.software ? " (a software adapter)" : "");
    case "cpu":
      return `onnxruntime-node ${NATIVE_ORT_VERSION}, native CPU, ${threads.count} intra-op ` +
        `thread${threads.count === 1 ? "" : "s"} (${threads.source})`;
    case "wasm":
      return "onnxruntime-web 1.30.0, WebAssembly, 1 thread";
  }
}

function adapterText(adapter: AdapterInfo | undefined): string {
  if (!adapter) return "no WebGPU adapter";
  const flags = [
    adapter.isFallbackAdapter ? "isFallbackAdapter" : undefined,
    adapter.software && !adapter.isFallbackAdapter ? "a software driver" : undefined,
  ].filter(Boolean);
  return `the WebGPU adapter "${adapter.description}" is software (${flags.join(", ")})`;
}

/**
 * Resolves a backend choice on this machine. `auto`: a hardware WebGPU adapter, else the
 * native CPU backend, else `wasm` (the reason names what failed). A named backend that cannot
 * run here is a `KitError` saying why.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chooseBackend } from "./backend.ts";
 * const chosen = await chooseBackend("auto");
 * // a software adapter (lavapipe in CI) is never the default
 * assert(!(chosen.backend === "webgpu" && chosen.adapter?.software));
 * assert(chosen.line.startsWith(`scoring backend: ${chosen.backend} `));
 * assert.equal((await chooseBackend("wasm")).backend, "wasm");
 * ```
 */
export async function chooseBackend(
  requested: BackendChoice = "auto",
  options: { threads?: number } = {},
): Promise<ChosenBackend> {
  if (!BACKEND_CHOICES.includes(requested)) {
    throw new KitError(
      `unknown backend '${requested}' (one of ${BACKEND_CHOICES.join(", ")})`,
    );
  }
  const adapter = await webGpuAdapter();
  const threads = nativeThreadsChoice(options.threads);
  const done = (backend: Backend, reason: string): ChosenBackend => ({
    backend,
    requested,
    ...(adapter ? { adapter } : {}),
    ...(backend === "webgpu" ? {} : { threads: backend === "cpu" ? threads.count : 1 }),
    reason,
    line: `scoring backend: ${backend} (${runtimeText(backend, adapter, threads)}); ${reason}`,
  });
  if (requested === "webgpu") {
    if (!adapter) {
      throw new KitError(
        "--backend webgpu: no WebGPU adapter (install a GPU driver, or mesa-vulkan-drivers " +
          "for the software lavapipe); --backend cpu runs on the CPU",
      );
    }
    return done(
      "webgpu",
      adapter.software
        ? "asked for; the adapter is software: expect a fraction of the CPU backend's speed"
        : "asked for",
    );
  }
  if (requested === "wasm") return done("wasm", "asked for");
  const native = await loadNativeOrt();
  if (requested === "cpu") {
    if (!native.ort) {
      throw new KitError(
        `--backend cpu: onnxruntime-node ${NATIVE_ORT_VERSION} cannot load here (${native.error}); ` +
          "--backend wasm runs everywhere",
      );
    }
    return done("cpu", "asked for");
  }
  if (adapter && !adapter.software) return done("webgpu", "the default: a hardware WebGPU adapter");
  const why = `${adapterText(adapter)}${adapter ? ", never the default" : ""}`;
  if (native.ort) return done("cpu", `the default here: ${why}`);
  return done(
    "wasm",
    `the fallback here: ${why}, and the native CPU backend cannot load (${native.error})`,
  );
}

/**
 * The backend `auto` picks on this machine (see {@link chooseBackend}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultBackend } from "./backend.ts";
 * assert(["webgpu", "cpu", "wasm"].includes(await defaultBackend()));
 * ```
 */
export async function defaultBackend(): Promise<Backend> {
  return (await chooseBackend("auto")).backend;
}
