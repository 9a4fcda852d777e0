/**
 * The native CPU backend: onnxruntime's own CPU execution provider through npm
 * `onnxruntime-node` (a Node-API addon shipped inside the npm package, for Linux x64/arm64,
 * macOS arm64 and Windows x64/arm64), on as many intra-op threads as the process may use.
 * Deno loads the addon through its Node-API support, which needs the `ffi` permission
 * (`--allow-ffi`, part of `--allow-all`, and given to the Jupyter kernel); without it, or on a
 * platform the package has no binary for, {@link loadNativeOrt} says why, and the kit falls
 * back to onnxruntime-web's WebAssembly build (`backend.ts`).
 *
 * @module
 */
import { tmpdir } from "node:os";
import { type CpuAllocation, cpuAllocation } from "./cpus.ts";
import { KitError } from "../../errors.ts";
import {
  inputValues,
  type ModelSession,
  type SessionInputs,
  type SessionOutputs,
  sessionOutputs,
} from "./session_types.ts";

type NativeOrt = typeof import("npm:onnxruntime-node@1.30.0");

/** The onnxruntime-node release the kit pins. */
export const NATIVE_ORT_VERSION = "1.30.0";

/** The native module, or why it cannot load here. */
export type NativeLoad = { ort: NativeOrt; error?: undefined } | { ort?: undefined; error: string };

let loading: Promise<NativeLoad> | undefined;

/**
 * Loads onnxruntime-node once per process; never throws: a failure (no `ffi` permission, no
 * binary for this platform, a missing shared library) comes back as `error`, one line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadNativeOrt } from "./native.ts";
 * const native = await loadNativeOrt();
 * assert(native.ort !== undefined || native.error!.length > 0);
 * ```
 */
export function loadNativeOrt(): Promise<NativeLoad> {
  loading ??= import("npm:onnxruntime-node@1.30.0").then(
    (ort): NativeLoad => {
      ort.env.logLevel = "error";
      return { ort };
    },
    (e): NativeLoad => ({
      error: ((e as Error).message ?? String(e)).split("\n")[0],
    }),
  );
  return loading;
}

/**
 * Intra-op threads of the native backend: `requested` (`--threads`), else the CPUs this
 * process was given ({@link cpuAllocation}: the smallest of `SLURM_CPUS_PER_TASK`, the cgroup
 * quota, the affinity mask and the machine's CPUs), at least 1. onnxruntime's own default,
 * one per physical core of the whole machine, oversubscribes a job that was given a few
 * cores of a large node.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nativeThreads } from "./native.ts";
 * assert(nativeThreads() >= 1 && nativeThreads(3) === 3);
 * ```
 */
export function nativeThreads(requested?: number): number {
  return nativeThreadsChoice(requested).count;
}

/**
 * {@link nativeThreads} with what decided it, in words (`--threads 3`,
 * `SLURM_CPUS_PER_TASK=1`, `CPU affinity`, ...), for the backend line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nativeThreadsChoice } from "./native.ts";
 * assert.deepEqual(nativeThreadsChoice(3), { count: 3, source: "--threads 3" });
 * ```
 */
export function nativeThreadsChoice(requested?: number): CpuAllocation {
  if (requested !== undefined) {
    if (!Number.isInteger(requested) || requested < 1) {
      throw new KitError(`threads must be a positive integer, not ${requested}`);
    }
    return { count: requested, source: `--threads ${requested}` };
  }
  return cpuAllocation();
}

/**
 * Removes the empty `mat-debug-<pid>.log` that libonnxruntime 1.30.0's telemetry layer opens in
 * the temp folder when its first session is created, which would otherwise stay behind after
 * every run (one file per process). It is removed only while empty: anything written to it is
 * kept for whoever wants to read it. On Linux and macOS the library keeps writing to the open
 * (now nameless) file; where an open file cannot be removed (Windows) it stays.
 */
async function removeEmptyTraceLog(): Promise<void> {
  const path = `${tmpdir()}/mat-debug-${Deno.pid}.log`;
  try {
    if ((await Deno.stat(path)).size === 0) await Deno.remove(path);
  } catch {
    // not there (already removed, another layout), or not removable while open
  }
}

/**
 * A session on onnxruntime's native CPU execution provider.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createNativeSession } from "./native.ts";
 * const bytes = await Deno.readFile("tests/fixtures/tiny-model/qa/model.onnx");
 * const s = await createNativeSession(bytes, { threads: 1 });
 * const out = await s.run(1, 3, { ids: [2, 20, 3], mask: [1, 1, 1], typeIds: [0, 0, 0] });
 * assert(s.backend === "cpu" && out.start_logits.dims[1] === 3);
 * await s.release();
 * ```
 */
export async function createNativeSession(
  bytes: Uint8Array,
  options: { threads?: number } = {},
): Promise<ModelSession> {
  const native = await loadNativeOrt();
  if (!native.ort) {
    throw new KitError(
      `backend cpu: onnxruntime-node ${NATIVE_ORT_VERSION} cannot load here (${native.error}); ` +
        "backend wasm runs everywhere",
    );
  }
  const ort = native.ort;
  const threads = nativeThreads(options.threads);
  let session: Awaited<ReturnType<NativeOrt["InferenceSession"]["create"]>>;
  try {
    session = await ort.InferenceSession.create(bytes, {
      executionProviders: ["cpu"],
      graphOptimizationLevel: "all",
      // one graph, run operator after operator; the threads go to each operator's work
      executionMode: "sequential",
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      // Idle pool threads sleep instead of spinning: on a machine that runs anything else (a
      // notebook server, a browser, other jobs) spinning threads take the cores the work
      // needs; measured on 2 loaded cores, 2 spinning threads scored at half the rate of 1.
      extra: { session: { intra_op: { allow_spinning: "0" } } },
      // fatal only: an error comes back as the exception the kit words; at level 3 onnxruntime
      // also printed it in ANSI colours on stderr
      logSeverityLevel: 4,
    });
  } catch (e) {
    throw new KitError(`cannot load the ONNX model on cpu: ${(e as Error).message}`);
  } finally {
    await removeEmptyTraceLog();
  }
  const tensor = (values: number[], batch: number, length: number) =>
    new ort.Tensor("int64", BigInt64Array.from(values, (v) => BigInt(v)), [batch, length]);
  return {
    backend: "cpu",
    threads,
    inputNames: session.inputNames,
    outputNames: session.outputNames,
    async run(batch: number, length: number, inputs: SessionInputs): Promise<SessionOutputs> {
      const feeds: Record<string, InstanceType<NativeOrt["Tensor"]>> = {};
      for (const name of session.inputNames) {
        feeds[name] = tensor(inputValues(name, inputs), batch, length);
      }
      const out = await session.run(feeds, { logSeverityLevel: 4 });
      return await sessionOutputs(out, (t) => t.data as Float32Array | Float64Array);
    },
    async release() {
      await session.release();
    },
  };
}
