/**
 * The PyTorch anchor of `bench scoring`: the same MiniLM-L6 shape in PyTorch on the CPU, the
 * framework users' cross-encoders (sentence-transformers) run on, timed in the same benchmark
 * run. The anchor is an outside script (`../shared/tools/anchors/torch_minilm_cpu.py` beside
 * the kit, or `--torch-anchor FILE`), run as it is with Debian's Python
 * (`/usr/bin/python3`, which sees Debian's `python3-torch`); nothing of it is part of the
 * kit. It is run once per batch size with that batch size's mean padded length in the kit, so
 * both sides compute the same tokens, at each thread count asked for; the kit's rows are then
 * compared with the best anchor rate at their batch size.
 *
 * Fairness: OpenBLAS reads `OPENBLAS_CORETYPE` and `OPENBLAS_L2_SIZE`, which some machines set
 * to keep old OpenBLAS builds from crashing and which slow a current one; the anchor runs with
 * both removed from its environment (the kit's own runs are not affected). Debian's torch calls
 * the system BLAS, whose thread pool `torch.set_num_threads` does not size: OpenBLAS would run
 * one thread per core beside a "1 thread" torch, and its spinning threads slow it on a busy
 * machine; `OPENBLAS_NUM_THREADS` is set to the anchor's thread count, so its threads are the
 * ones it says. The BLAS library, kernel and threads torch used are read back with
 * `threadpoolctl` where it is installed.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { PROJECT_ROOT } from "../data/paths.ts";

/** The anchor's default place: the shared tools beside the kit's checkout. */
export const DEFAULT_TORCH_ANCHOR = `${PROJECT_ROOT}/../shared/tools/anchors/torch_minilm_cpu.py`;

/** The Python that sees Debian's `python3-torch`. */
export const DEFAULT_TORCH_PYTHON = "/usr/bin/python3";

/** What one anchor run printed. */
export interface AnchorRun {
  /** Parameters of the anchor's model (the kit's MiniLM-L6 has 22,713,601). */
  parameters: number;
  /** Threads torch ran on. */
  threads: number;
  /** Sequence length of every pair. */
  length: number;
  /** `torch.__version__`. */
  torch: string;
  /** Pairs per second by batch size. */
  pairsPerSecond: Map<number, number>;
  /** The BLAS torch loaded (threadpoolctl's library, kernel and file), when known. */
  blas?: string;
}

/**
 * Reads the anchor's output (its first line, one line per batch size) and, after a line
 * `threadpoolctl:`, the JSON of `threadpool_info()`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseAnchorOutput } from "./torch_anchor.ts";
 * const run = parseAnchorOutput([
 *   "params 22,713,601 threads 1 len 20 torch 1.13.0a0",
 *   "batch 1: 124.7 pairs/s",
 *   "batch 8: 352.4 pairs/s",
 *   "threadpoolctl:",
 *   '[{"internal_api": "openblas", "architecture": "Haswell", "filepath": "/usr/lib/libopenblasp-r0.3.21.so", "num_threads": 1}]',
 * ].join("\n"));
 * assert.equal(run.parameters, 22_713_601);
 * assert.equal(run.pairsPerSecond.get(8), 352.4);
 * assert.equal(run.blas, "openblas Haswell (libopenblasp-r0.3.21.so, 1 thread)");
 * ```
 */
export function parseAnchorOutput(text: string): AnchorRun {
  const [main, pools] = text.split(/^threadpoolctl:$/m);
  const head = /^params ([\d,]+) threads (\d+) len (\d+) torch (\S+)$/m.exec(main);
  if (!head) throw new KitError(`the PyTorch anchor printed no 'params ...' line:\n${text}`);
  const pairsPerSecond = new Map<number, number>();
  for (const m of main.matchAll(/^batch (\d+): ([\d.]+) pairs\/s$/gm)) {
    pairsPerSecond.set(Number(m[1]), Number(m[2]));
  }
  let blas: string | undefined;
  if (pools?.trim()) {
    const info = JSON.parse(pools) as {
      internal_api: string;
      architecture?: string;
      filepath: string;
      num_threads?: number;
    }[];
    blas = info.filter((i) => i.internal_api !== "openmp")
      .map((i) =>
        `${i.internal_api}${i.architecture ? ` ${i.architecture}` : ""} (${
          i.filepath.split("/").at(-1)
        }${i.num_threads ? `, ${i.num_threads} thread${i.num_threads === 1 ? "" : "s"}` : ""})`
      ).join(", ") || undefined;
  }
  return {
    parameters: Number(head[1].replaceAll(",", "")),
    threads: Number(head[2]),
    length: Number(head[3]),
    torch: head[4],
    pairsPerSecond,
    ...(blas ? { blas } : {}),
  };
}

/** Where the anchor is and how to run it. */
export interface AnchorSetup {
  /** The anchor script (default {@link DEFAULT_TORCH_ANCHOR}). */
  script?: string;
  /** The Python to run it with (default {@link DEFAULT_TORCH_PYTHON}). */
  python?: string;
}

/**
 * Why the anchor cannot run here (no script, no Python, no torch), or `undefined` when it can.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { anchorUnavailable } from "./torch_anchor.ts";
 * assert.match((await anchorUnavailable({ script: "/nonexistent.py" }))!, /no anchor script/);
 * ```
 */
export async function anchorUnavailable(setup: AnchorSetup = {}): Promise<string | undefined> {
  const script = setup.script ?? DEFAULT_TORCH_ANCHOR;
  const python = setup.python ?? DEFAULT_TORCH_PYTHON;
  try {
    await Deno.stat(script);
  } catch {
    return `no anchor script at ${script} (--torch-anchor FILE)`;
  }
  try {
    const probe = await new Deno.Command(python, {
      args: ["-c", "import torch"],
      stdout: "null",
      stderr: "null",
    }).output();
    if (!probe.success) {
      return `${python} cannot import torch (Debian: apt-get install python3-torch)`;
    }
  } catch {
    return `no Python at ${python}`;
  }
  return undefined;
}

/**
 * Runs the anchor once: `threads` threads (torch's and OpenBLAS's), pairs of `length` tokens,
 * `pairs` pairs per timed batch size, with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE removed from
 * its environment.
 */
export async function runAnchor(
  setup: AnchorSetup,
  threads: number,
  length: number,
  pairs: number,
): Promise<AnchorRun> {
  const script = setup.script ?? DEFAULT_TORCH_ANCHOR;
  const python = setup.python ?? DEFAULT_TORCH_PYTHON;
  // The script runs as its own __main__; threadpoolctl (when installed) then says which BLAS
  // and which kernel torch used.
  const wrapper = [
    "import json, runpy, sys",
    "sys.argv = sys.argv[1:]  # the script sees: SCRIPT THREADS SEQ_LEN PAIRS",
    "runpy.run_path(sys.argv[0], run_name='__main__')",
    "try:",
    "    from threadpoolctl import threadpool_info",
    "    print('threadpoolctl:'); print(json.dumps(threadpool_info()))",
    "except ImportError:",
    "    pass",
  ].join("\n");
  const env = Deno.env.toObject();
  delete env.OPENBLAS_CORETYPE;
  delete env.OPENBLAS_L2_SIZE;
  env.OPENBLAS_NUM_THREADS = String(threads);
  const out = await new Deno.Command(python, {
    args: ["-c", wrapper, script, String(threads), String(length), String(pairs)],
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new KitError(
      `the PyTorch anchor failed (${python} ${script}):\n${new TextDecoder().decode(out.stderr)}`,
    );
  }
  return parseAnchorOutput(text);
}
