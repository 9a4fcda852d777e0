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

/**
 * A Python that imports SciPy, the outside oracle of the statistics tests: `$KIT_SCIPY_PYTHON`,
 * else `python3` on the PATH, else `/usr/bin/python3` (Debian `python3-scipy`, in
 * tools/packages.txt). Undefined when none does (the caller skips its check with a printed
 * reason); `QA_KIT_REQUIRE_SCIPY=1` (set by `.ci/run`) turns that into a failure.
 */
export function scipyPython(): string | undefined {
  const candidates = [Deno.env.get("KIT_SCIPY_PYTHON"), "python3", "/usr/bin/python3"];
  for (const python of candidates) {
    if (!python) continue;
    try {
      const out = new Deno.Command(python, {
        args: ["-c", "import scipy.stats"],
        stdout: "null",
        stderr: "null",
      }).outputSync();
      if (out.success) return python;
    } catch {
      // not installed: try the next one
    }
  }
  if (Deno.env.get("QA_KIT_REQUIRE_SCIPY") === "1") {
    throw new Error(
      "no python3 with SciPy but QA_KIT_REQUIRE_SCIPY=1: apt-get install python3-scipy",
    );
  }
  return undefined;
}

/** Runs `script` (Python, reading JSON from stdin, printing JSON) with {@link scipyPython}. */
export async function runPython(python: string, script: string, input: unknown): Promise<unknown> {
  const child = new Deno.Command(python, {
    args: ["-c", script],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(JSON.stringify(input)));
  await w.close();
  const out = await child.output();
  const err = new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`${python} failed: ${err}`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
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

/** A small tmpfs mounted on a new folder (root only), and how to unmount it. */
export interface TinyDisk {
  dir: string;
  /** Fills the disk with `filler` until a write fails for lack of space (or `leave` bytes remain). */
  fill(leave?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Mounts a tmpfs of `size` (`3m`, `64k`) on a new temporary folder: a real file system that
 * fills up (ENOSPC). Undefined where this process cannot mount (not root, no tmpfs): the caller
 * then skips its test, saying why ({@link diskTest}).
 */
export async function tinyDisk(size: string): Promise<TinyDisk | undefined> {
  if (Deno.uid() !== 0) return undefined;
  const dir = await Deno.makeTempDir({ prefix: "kit-tiny-disk-" });
  const m = await new Deno.Command("mount", {
    args: ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir],
    stdout: "null",
    stderr: "null",
  }).output().catch(() => undefined);
  if (!m?.success) {
    await Deno.remove(dir).catch(() => {});
    return undefined;
  }
  return {
    dir,
    async fill(leave = 0) {
      const file = await Deno.open(`${dir}/filler`, { write: true, create: true, append: true });
      try {
        const chunk = new Uint8Array(4096);
        for (;;) {
          if (leave > 0 && (await freeBytes(dir)) - chunk.length < leave) break;
          await file.write(chunk);
        }
      } catch (e) {
        if (!(e instanceof Error && /No space left|os error 28/.test(e.message))) throw e;
      } finally {
        file.close();
      }
    },
    async close() {
      await new Deno.Command("umount", { args: ["-l", dir] }).output();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** Free bytes of the file system holding `dir` (`df`). */
export async function freeBytes(dir: string): Promise<number> {
  const out = await new Deno.Command("df", { args: ["-B1", "--output=avail", dir] }).output();
  return Number(new TextDecoder().decode(out.stdout).trim().split("\n").pop());
}

/** Used bytes of the file system holding `dir` (`df`). */
export async function usedBytes(dir: string): Promise<number> {
  const out = await new Deno.Command("df", { args: ["-B1", "--output=used", dir] }).output();
  return Number(new TextDecoder().decode(out.stdout).trim().split("\n").pop());
}

let canMount: boolean | undefined;

/** Whether this process can mount a tmpfs (probed once, synchronously, when a test asks). */
function mountable(): boolean {
  if (canMount !== undefined) return canMount;
  canMount = false;
  if (Deno.uid() !== 0) return canMount;
  const d = Deno.makeTempDirSync({ prefix: "kit-mount-probe-" });
  try {
    const m = new Deno.Command("mount", {
      args: ["-t", "tmpfs", "-o", "size=16k", "tmpfs", d],
      stdout: "null",
      stderr: "null",
    }).outputSync();
    if (m.success) {
      new Deno.Command("umount", { args: [d] }).outputSync();
      canMount = true;
    }
  } catch { /* no mount command */ }
  Deno.removeSync(d);
  return canMount;
}

/** A test on a tiny real file system ({@link tinyDisk}); ignored, saying why, where none can be mounted. */
export function diskTest(name: string, size: string, fn: (disk: TinyDisk) => Promise<void>): void {
  const can = mountable();
  if (!can) console.error(`skipping "${name}": cannot mount a tmpfs here (needs root)`);
  Deno.test({
    name,
    ignore: !can,
    async fn() {
      const disk = (await tinyDisk(size))!;
      try {
        await fn(disk);
      } finally {
        await disk.close();
      }
    },
  });
}
