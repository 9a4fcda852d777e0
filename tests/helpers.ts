/**
 * Shared test helpers.
 *
 * @module
 */
import { defaultCacheDir, isInstalled } from "../lib/data/paths.ts";
import type { DatasetName } from "../lib/data/types.ts";

/**
 * The folder holding the fetched real corpus, or undefined (the caller then skips its test
 * with a printed reason). CI fetches the corpora first, so there the real-data tests run;
 * `QA_KIT_REQUIRE_REAL_DATA=1` (set by `.ci/run`) turns a missing corpus into a failure.
 */
export function realDataDir(dataset: DatasetName): string | undefined {
  if (isInstalled(dataset)) return defaultCacheDir();
  if (Deno.env.get("QA_KIT_REQUIRE_REAL_DATA") === "1") {
    throw new Error(
      `${dataset} is not fetched but QA_KIT_REQUIRE_REAL_DATA=1: run deno task data fetch ${dataset}`,
    );
  }
  return undefined;
}

/** Registers a test that needs a real corpus; without it the test is ignored with a reason. */
export function realDataTest(
  name: string,
  dataset: DatasetName,
  fn: (dir: string) => Promise<void> | void,
): void {
  const dir = realDataDir(dataset);
  if (!dir) {
    console.error(
      `skipping "${name}": ${dataset} is not fetched (deno task data fetch ${dataset} ` +
        "[--mirror ../shared/datasets])",
    );
  }
  Deno.test({ name, ignore: !dir, fn: () => fn(dir!) });
}

/** Text as an in-memory source for the readers. */
export function mem(name: string, text: string | Uint8Array): { name: string; bytes: Uint8Array } {
  return { name, bytes: typeof text === "string" ? new TextEncoder().encode(text) : text };
}

/**
 * Runs the kit's CLI in a subprocess (in `cwd`, default the test's working folder); returns
 * exit code, stdout and stderr. `INIT_CWD` is set to that folder, as `deno task` would, so an
 * `INIT_CWD` inherited from `./kit` or `deno task` does not move the command elsewhere.
 */
export async function runCli(
  args: string[],
  options: { stdin?: string; env?: Record<string, string>; cwd?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const cwd = options.cwd ?? Deno.cwd();
  const cmd = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", new URL("../lib/cli/main.ts", import.meta.url).pathname, ...args],
    stdout: "piped",
    stderr: "piped",
    stdin: options.stdin === undefined ? "null" : "piped",
    cwd,
    env: { NO_COLOR: "1", INIT_CWD: cwd, ...options.env },
  });
  const child = cmd.spawn();
  if (options.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(options.stdin));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

// trec_eval 9.0.8, the outside oracle (undefined when it is not built: the caller skips its
// check with a printed reason); the benchmark's finder, so both look in the same places.
export { runTrecEval, trecEvalBinary } from "../lib/bench/trec_eval.ts";

/** The `all` value of `measure` in trec_eval's output format (`map  all  0.5910`). */
export function allValue(text: string, measure: string): number {
  const m = new RegExp(`^${measure}\\s+all\\s+(\\S+)`, "m").exec(text);
  if (!m) throw new Error(`no '${measure} all' line in:\n${text}`);
  return Number(m[1]);
}
