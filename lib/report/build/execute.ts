/**
 * Executing notebooks headless. The work is done by `run_notebook.py` (nbclient on
 * Debian's `/usr/bin/python3`), which keeps reading a cell's outputs briefly after the
 * kernel reports idle: the Deno kernel sometimes sends idle before the outputs, and a
 * plain `jupyter nbconvert --execute` then drops them silently.
 *
 * @module
 */
import { withKitTempDir } from "../../io/temp.ts";
import { writeFileAtomic } from "../../io/atomic.ts";
import { KitError } from "../../errors.ts";
import { SYSTEMS_REPORT_ENV } from "../systems/report.ts";

/** The Python that has nbclient/nbconvert (Debian packages); `$KIT_PYTHON` overrides it. */
export function jupyterPython(): string {
  return Deno.env.get("KIT_PYTHON") ?? "/usr/bin/python3";
}

/**
 * The versions of the Jupyter packages the notebooks run with (`jupyter_core`,
 * `jupyter_client`, `nbclient`, `nbconvert`, `notebook`, `ipykernel`), read from
 * {@link jupyterPython}; a package that is missing is left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jupyterVersions } from "./execute.ts";
 * const v = await jupyterVersions();
 * assert.match(v.nbclient ?? "missing", /^(\d+\.\d+|missing)/);
 * ```
 */
export async function jupyterVersions(): Promise<Record<string, string>> {
  const script = `import importlib, json
out = {}
for name in ["jupyter_core", "jupyter_client", "nbclient", "nbconvert", "notebook", "ipykernel"]:
    try:
        out[name] = importlib.import_module(name).__version__
    except Exception:
        pass
print(json.dumps(out))`;
  try {
    const out = await new Deno.Command(jupyterPython(), {
      args: ["-c", script],
      env: { PYDEVD_DISABLE_FILE_VALIDATION: "1" },
      stdout: "piped",
      stderr: "null",
    }).output();
    return out.success ? JSON.parse(new TextDecoder().decode(out.stdout)) : {};
  } catch {
    return {};
  }
}

/** The runner script next to this module. */
export const RUNNER = new URL("./run_notebook.py", import.meta.url).pathname;

/** Notebook parameters, passed to the kernel as environment variables. */
export interface NotebookParams {
  /** `sample` (bundled samples) or `real` (fetched corpora): `KIT_DATA`. */
  data: "sample" | "real";
  /** Model name for the scoring notebooks: `KIT_MODEL`. */
  model?: string;
  /** Scoring backend (`auto`, `webgpu`, `cpu`, `wasm`): `KIT_BACKEND`. */
  backend?: string;
  /**
   * Notebook 00's report (`systems.json`, computed once by the build): `KIT_SYSTEMS_REPORT`.
   */
  systemsReport?: string;
}

/** Options of {@link executeNotebook}. */
export interface ExecuteOptions {
  /** Seconds a single cell may run (default 900). */
  cellTimeoutS?: number;
  /**
   * `XDG_RUNTIME_DIR` for the kernel (Deno's WebGPU warns without one) when the environment
   * has none; default: a new temporary folder.
   */
  runtimeDir?: string;
  /**
   * The cells run once this resolves: the runner and its kernel start at once and wait for it
   * (the report starts page 00's kernel while it evaluates the systems the page reads). When
   * it rejects, the runner stops before the first cell, nothing is written, and the call
   * rejects with its reason.
   */
  startWhen?: Promise<unknown>;
}

/** The result of executing one notebook. */
export interface ExecutionResult {
  /** Input notebook. */
  input: string;
  /** Executed notebook written. */
  output: string;
  /** Wall time, seconds. */
  seconds: number;
  /**
   * Seconds before the first cell could run (Python's, the runner's and the kernel's start),
   * the wait for `startWhen` left out: the build's timings (`timings.ts`).
   */
  startSeconds: number;
  /** Seconds from the first cell's start to the last cell's end. */
  cellsSeconds: number;
  /** Code cells run. */
  cells: number;
}

/** The environment a notebook runs with. */
export function paramsEnv(params: NotebookParams): Record<string, string> {
  const env: Record<string, string> = { KIT_DATA: params.data, NO_COLOR: "1" };
  if (params.model) env.KIT_MODEL = params.model;
  if (params.backend) env.KIT_BACKEND = params.backend;
  if (params.systemsReport) env[SYSTEMS_REPORT_ENV] = params.systemsReport;
  // Debian's Python prints a debugger warning about frozen modules on every start.
  env.PYDEVD_DISABLE_FILE_VALIDATION = "1";
  return env;
}

/**
 * Executes `input` with `params` and writes the executed notebook to `output`. A failing
 * cell throws a `KitError` whose message holds the cell's source and error (the partly
 * executed notebook is still written, for inspection).
 */
export function executeNotebook(
  input: string,
  output: string,
  params: NotebookParams,
  options: ExecuteOptions = {},
): Promise<ExecutionResult> {
  // Handled below, once the runner is started; a rejection before that is not unhandled.
  options.startWhen?.catch(() => {});
  return withRuntimeDir(
    options.runtimeDir,
    (runtimeDir) =>
      withKitTempDir("kit-jupyter-", async (specs) => {
        await writeKitKernelspec(specs);
        return await executeIn(input, output, params, options, runtimeDir, specs);
      }),
  );
}

/**
 * The Jupyter kernel the kit's notebooks name (`deno`), as a kernelspec of the Deno running the
 * kit: `deno jupyter --kernel`, its path {@link Deno.execPath}. The runner finds it first
 * (`--kernelspecs`, before the user's and the system's folders), so a report's notebooks
 * run on this Deno whatever the user-wide kernelspec says: it may name another checkout's
 * Deno, since deleted (a Python traceback before), or another version. The user-wide one,
 * registered by `./kit`, serves Jupyter opened by hand.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { KIT_KERNEL, kitKernelspec } from "./execute.ts";
 * assert.equal(KIT_KERNEL, "deno");
 * assert.deepEqual(kitKernelspec().argv, [
 *   Deno.execPath(), "jupyter", "--kernel", "--conn", "{connection_file}",
 * ]);
 * ```
 */
export function kitKernelspec(): { argv: string[]; display_name: string; language: string } {
  return {
    argv: [Deno.execPath(), "jupyter", "--kernel", "--conn", "{connection_file}"],
    display_name: "Deno",
    language: "typescript",
  };
}

/** The kernel name the kit's notebooks carry, served by {@link kitKernelspec}. */
export const KIT_KERNEL = "deno";

/** Writes {@link kitKernelspec} where Jupyter looks in `dir` (`dir/kernels/deno/kernel.json`). */
async function writeKitKernelspec(dir: string): Promise<void> {
  await Deno.mkdir(`${dir}/kernels/${KIT_KERNEL}`, { recursive: true });
  await writeFileAtomic(
    `${dir}/kernels/${KIT_KERNEL}/kernel.json`,
    JSON.stringify(kitKernelspec(), null, 2) + "\n",
  );
}

/**
 * Runs `fn` with a runtime folder for the kernel (`XDG_RUNTIME_DIR`: Deno's WebGPU (Vulkan)
 * warns on every adapter request without one): the environment's, else `given`, else a new
 * `kit-runtime-*` temporary folder, removed when `fn` ends.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withRuntimeDir } from "./execute.ts";
 * const made = await withRuntimeDir(undefined, (dir) => Promise.resolve(dir));
 * assert.ok(Deno.env.get("XDG_RUNTIME_DIR") === made || !(await Deno.stat(made).catch(() => false)));
 * ```
 */
export async function withRuntimeDir<T>(
  given: string | undefined,
  fn: (dir: string) => Promise<T>,
): Promise<T> {
  const existing = Deno.env.get("XDG_RUNTIME_DIR") ?? given;
  if (existing) return await fn(existing);
  return await withKitTempDir("kit-runtime-", fn);
}

async function executeIn(
  input: string,
  output: string,
  params: NotebookParams,
  options: ExecuteOptions,
  runtimeDir: string,
  kernelspecs: string,
): Promise<ExecutionResult> {
  const env = paramsEnv(params);
  env.XDG_RUNTIME_DIR = runtimeDir;
  // The notebook's name, in its figures' ids (lib/plot/display.ts `figureId`): unique across
  // pages, and the same on every run.
  env.KIT_NOTEBOOK = input.slice(input.lastIndexOf("/") + 1).replace(/\.ipynb$/, "");
  const cmd = new Deno.Command(jupyterPython(), {
    args: [
      "-Xfrozen_modules=off",
      RUNNER,
      input,
      output,
      "--timeout",
      String(options.cellTimeoutS ?? 900),
      ...(options.startWhen ? ["--wait"] : []),
      // Searched before Jupyter's folders (an argument, not `JUPYTER_PATH`: a temporary folder's
      // path may hold the `:` that separates its entries).
      "--kernelspecs",
      `${kernelspecs}/kernels`,
    ],
    env,
    stdout: "piped",
    stderr: "piped",
    // A session of its own: a terminal's Ctrl-C reaches only the kit, which then stops the
    // runner and its kernel together (process_tree.ts). Reached by the signal itself,
    // nbclient would shut the kernel down and the runner would run the notebook again.
    // (`output()` ignores `detached` in Deno 2.9; `spawn()` honours it.)
    detached: true,
    stdin: options.startWhen ? "piped" : "null",
  });
  const started = performance.now();
  let child: Deno.ChildProcess;
  try {
    child = cmd.spawn();
  } catch (e) {
    throw new KitError(`cannot start ${jupyterPython()}: ${(e as Error).message}`);
  }
  // `go` when startWhen resolves; its input closed either way (the end of it, unanswered, stops
  // the runner before the first cell).
  let refused: { reason: unknown } | undefined;
  const gate = options.startWhen?.then(() => true, (reason) => (refused = { reason }, false))
    .then(async (go) => {
      const stdin = child.stdin.getWriter();
      if (go) await stdin.write(new TextEncoder().encode("go\n")).catch(() => {});
      await stdin.close().catch(() => {});
    });
  const out = await child.output();
  await gate;
  if (refused) throw refused.reason;
  const stderr = new TextDecoder().decode(out.stderr)
    .split("\n")
    .filter((l) => !l.includes('"deno jupyter" is unstable'))
    .join("\n")
    .trim();
  // Exit 3: the executed notebook could not be written (a full disk): one line naming it.
  if (out.code === 3) throw new KitError(stderr.split("\n").pop()!, { file: output });
  if (!out.success) {
    // The runner names the notebook first; the error names it once, as its file.
    const message = stderr.startsWith(`${input}: `) ? stderr.slice(input.length + 2) : stderr;
    throw new KitError(message || `notebook execution failed (exit ${out.code})`, { file: input });
  }
  const last = new TextDecoder().decode(out.stdout).trim().split("\n").pop() ?? "";
  const summary = JSON.parse(last) as {
    seconds: number;
    cells: number;
    cells_seconds: number;
    waited_seconds: number;
  };
  // The wait for startWhen is neither the kernel's start nor the cells' (the runner leaves it
  // out of its seconds too).
  const wall = (performance.now() - started) / 1000;
  return {
    input,
    output,
    seconds: summary.seconds,
    startSeconds: Math.max(0, wall - summary.cells_seconds - summary.waited_seconds),
    cellsSeconds: summary.cells_seconds,
    cells: summary.cells,
  };
}
