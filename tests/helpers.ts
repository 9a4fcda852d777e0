/**
 * Shared test helpers.
 *
 * @module
 */
import { defaultCacheDir, isInstalled, PROJECT_ROOT } from "../lib/data/paths.ts";
import type { DatasetName } from "../lib/data/types.ts";

/**
 * The folder holding the fetched real corpus, or undefined (the caller then skips its test
 * with a printed reason). CI fetches the corpora first, so there the real-data tests run;
 * `QA_KIT_REQUIRE_REAL_DATA=1` (set by `.ci/run`) turns a missing corpus into a failure.
 */
export function realDataDir(dataset: DatasetName): string | undefined {
  quickFileRefuses(`the real corpus ${dataset}`);
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
 * Throws when the running test file is a quick one (it imports `tests/quick.ts`) and asks for
 * `what`: a real corpus, a Python oracle, a disk to mount. A quick file may not need them, and
 * without this the helper's probe would fail there (no process may start in its isolate) and
 * skip the test quietly, in the full suite too. A no-op in any other file.
 */
export function quickFileRefuses(what: string): void {
  if ((globalThis as Record<symbol, unknown>)[Symbol.for("qa-kit.quick-test-file")] !== true) {
    return;
  }
  throw new Error(
    `a quick test file (importing tests/quick.ts) needs ${what}: take that import out and ` +
      "give the file its reason in tests/test_classes.ts",
  );
}

/**
 * A Python that imports SciPy, the outside oracle of the statistics tests: `$KIT_SCIPY_PYTHON`,
 * else `python3` on the PATH, else `/usr/bin/python3` (Debian `python3-scipy`, in
 * tools/packages.txt). Undefined when none does (the caller skips its check with a printed
 * reason); `QA_KIT_REQUIRE_SCIPY=1` (set by `.ci/run`) turns that into a failure.
 */
export function scipyPython(): string | undefined {
  const python = pythonWith("import scipy.stats", "KIT_SCIPY_PYTHON");
  if (!python && Deno.env.get("QA_KIT_REQUIRE_SCIPY") === "1") {
    throw new Error(
      "no python3 with SciPy but QA_KIT_REQUIRE_SCIPY=1: apt-get install python3-scipy",
    );
  }
  return python;
}

/**
 * A Python that imports pandas and numpy (Debian `python3-pandas`, in tools/ci-packages.txt), the
 * dependencies of Qur'an QA 2023's official checker and scorer: `$KIT_PANDAS_PYTHON`, else
 * `python3`, else `/usr/bin/python3`; undefined when none does (the caller says what it skips).
 */
export function pandasPython(): string | undefined {
  return pythonWith("import pandas, numpy", "KIT_PANDAS_PYTHON");
}

/** The first of `$env`, `python3`, `/usr/bin/python3` that runs `statement`, or undefined. */
function pythonWith(statement: string, env: string): string | undefined {
  quickFileRefuses(`a Python that runs \`${statement}\``);
  for (const python of [Deno.env.get(env), "python3", "/usr/bin/python3"]) {
    if (!python) continue;
    try {
      const out = new Deno.Command(python, {
        args: ["-c", statement],
        stdout: "null",
        stderr: "null",
      }).outputSync();
      if (out.success) return python;
    } catch {
      // not installed: try the next one
    }
  }
  return undefined;
}

/** Runs a command in this process and returns what it printed on standard output. */
export async function printed(run: () => Promise<unknown>): Promise<string> {
  const lines: string[] = [];
  const log = console.log, error = console.error;
  console.log = (...a: unknown[]) => lines.push(a.join(" "));
  console.error = () => {};
  try {
    await run();
  } finally {
    console.log = log;
    console.error = error;
  }
  return lines.join("\n");
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
  quickFileRefuses("a tmpfs to mount");
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
  quickFileRefuses("a tmpfs to mount");
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

// ---------------------------------------------------------------------------------------------
// Waiting for processes: tests that kill, interrupt, wait for or race a process synchronise on
// an event (a file appearing, a line printed, a lock taken, a FIFO opened), never on a sleep or
// a wall-clock budget, so that they hold on a loaded machine (CI runs on two busy cores). A wait
// ends when the event happens or when the process it watches exits (then it fails with the
// process's stderr), not after some number of tries. Repeat a test beside CPU hogs with
// tests/under_load.ts.

/** A process a wait watches: when it exits before the event, the wait fails. */
export interface Watched {
  pid: number;
  status: Promise<Deno.CommandStatus>;
  /** Its stderr, read to the end when the wait fails (when piped and not read elsewhere). */
  readonly stderr?: ReadableStream<Uint8Array>;
}

/** How a process ended, in words: `exit code 2`, `signal SIGKILL`. */
export function statusText(status: Deno.CommandStatus): string {
  return status.signal ? `signal ${status.signal}` : `exit code ${status.code}`;
}

/** Thrown by {@link waitFor} when the watched process exits before the event waited for. */
export class ExitedFirst extends Error {
  constructor(
    readonly what: string,
    readonly status: Deno.CommandStatus,
    readonly stderr: string,
  ) {
    super(
      `waiting for ${what}: the process ended first (${statusText(status)}), ` +
        (stderr.trim() ? `its stderr:\n${stderr}` : "with nothing on its stderr"),
    );
    this.name = "ExitedFirst";
  }
}

/** The rest of a watched process's stderr, or "" when it is not piped or read elsewhere. */
async function stderrOf(child?: Watched): Promise<string> {
  try {
    const stream = child?.stderr;
    return stream ? await new Response(stream).text() : "";
  } catch {
    return ""; // "null" (not piped), or locked by a reader of the test's own
  }
}

/**
 * Polls `check` every `interval` ms (default 5) until it returns a value other than undefined,
 * null or false, and returns that value. When `child` exits first, throws {@link ExitedFirst}
 * with its exit status and stderr (`stderr()` when given, else the rest of `child.stderr`). The
 * check runs once more after the exit, so an event that happened just before it is still seen.
 * There is no time limit: the wait ends on the event or on the exit; a note goes to stderr every
 * 30 s of waiting, so a hung run says what it waits for.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { waitFor } from "./helpers.ts";
 * const dir = await Deno.makeTempDir();
 * const child = new Deno.Command("sh", { args: ["-c", "echo x > f.part; mv f.part f"], cwd: dir })
 *   .spawn();
 * const text = () => Deno.readTextFile(`${dir}/f`).catch(() => undefined);
 * assert.equal(await waitFor("f", text, child), "x\n");
 * await child.status;
 * await assert.rejects(
 *   waitFor("g", () => false, new Deno.Command("false").spawn()),
 *   /waiting for g: the process ended first \(exit code 1\)/,
 * );
 * ```
 */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  child?: Watched,
  options: { stderr?: () => string | Promise<string>; interval?: number } = {},
): Promise<T> {
  let exited: Deno.CommandStatus | undefined;
  child?.status.then((s) => exited = s, () => {});
  const started = performance.now();
  let noted = 0;
  for (;;) {
    const ended = exited; // read before the check: what happened before the exit is still seen
    const got = await check();
    if (got !== undefined && got !== null && got !== false) return got;
    if (ended) {
      const stderr = options.stderr ? await options.stderr() : await stderrOf(child);
      throw new ExitedFirst(what, ended, stderr);
    }
    const waited = Math.floor((performance.now() - started) / 30_000);
    if (waited > noted) {
      noted = waited;
      console.error(`(still waiting for ${what}, ${waited * 30} s so far)`);
    }
    await new Promise((r) => setTimeout(r, options.interval ?? 5));
  }
}

/**
 * The state letters of every thread of process `pid` (`R`, `S`, `D`, `T`, `Z`, ... as in
 * /proc/PID/task/TID/stat), or undefined when the process is gone.
 */
export function threadStates(pid: number): string[] | undefined {
  const states: string[] = [];
  try {
    for (const t of Deno.readDirSync(`/proc/${pid}/task`)) {
      try {
        const stat = Deno.readTextFileSync(`/proc/${pid}/task/${t.name}/stat`);
        states.push(stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3));
      } catch { /* that thread ended meanwhile */ }
    }
  } catch {
    return undefined;
  }
  return states;
}

/**
 * Freezes a child process: sends SIGSTOP and waits until every one of its threads has stopped
 * (a thread in the middle of a system call finishes that call first), so from then on it can do
 * nothing at all until SIGCONT, and SIGKILL ends it where it stands. False when it had ended.
 */
export async function freeze(child: Deno.ChildProcess): Promise<boolean> {
  try {
    child.kill("SIGSTOP");
  } catch {
    return false; // it has ended (and been waited for)
  }
  try {
    const state = await waitFor(`process ${child.pid} to stop (SIGSTOP)`, () => {
      const states = threadStates(child.pid);
      if (!states || states.length === 0 || states.some((s) => s === "Z" || s === "X")) {
        return "gone";
      }
      return states.every((s) => s === "T" || s === "t") ? "stopped" : undefined;
    }, { pid: child.pid, status: child.status });
    return state === "stopped";
  } catch (e) {
    if (e instanceof ExitedFirst) return false;
    throw e;
  }
}

/**
 * Waits until `find` sees something a child process writes (a temporary file), freezes the
 * child ({@link freeze}) and checks with `stillThere` that the thing is still there: then the
 * child is caught in the middle of that write, and it stays there (frozen) until the caller
 * sends SIGKILL, or another signal and SIGCONT. When the child got past it before it froze (the
 * temporary file renamed), it goes on (SIGCONT) and the next thing `find` sees is waited for.
 * Returns what was caught; throws {@link ExitedFirst} when the child exits first (a quick
 * writer may finish before it is ever caught: the caller may start it again).
 */
export async function freezeWhenSeen<T>(
  what: string,
  child: Deno.ChildProcess,
  find: () => T | undefined | Promise<T | undefined>,
  stillThere: (found: T) => boolean | Promise<boolean>,
): Promise<T> {
  for (;;) {
    const found = await waitFor(what, find, child);
    if (!(await freeze(child))) {
      throw new ExitedFirst(what, await child.status, await stderrOf(child));
    }
    if (await stillThere(found)) return found;
    child.kill("SIGCONT");
  }
}

/**
 * Starts `n` CPU hogs (`sh -c 'while :; do :; done'`, one busy loop each) and returns how to
 * stop them: tests that race processes are repeated beside them (tests/under_load.ts).
 */
export function cpuHogs(n: number): { pids: number[]; stop(): Promise<void> } {
  const hogs = Array.from(
    { length: n },
    () =>
      new Deno.Command("sh", {
        args: ["-c", "while :; do :; done"],
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn(),
  );
  return {
    pids: hogs.map((h) => h.pid),
    async stop() {
      for (const h of hogs) {
        try {
          h.kill("SIGKILL");
        } catch { /* ended */ }
      }
      await Promise.all(hogs.map((h) => h.status));
    },
  };
}

/**
 * Whether a thread of process `pid` is blocked opening a FIFO that no process has open at the
 * other end: the kernel's `wait_for_partner`, read from /proc/PID/task/TID/wchan (else from
 * .../stack, root only). Throws where the kernel shows neither for a sleeping thread, rather
 * than let a wait for it last for ever.
 */
export function blockedOpeningFifo(pid: number): boolean {
  let shown = false, sleeping = false;
  let tasks: Deno.DirEntry[];
  try {
    tasks = [...Deno.readDirSync(`/proc/${pid}/task`)];
  } catch {
    return false; // gone
  }
  for (const t of tasks) {
    const read = (what: string) => {
      try {
        return Deno.readTextFileSync(`/proc/${pid}/task/${t.name}/${what}`);
      } catch {
        return "";
      }
    };
    const wchan = read("wchan").trim();
    if (wchan === "wait_for_partner") return true;
    const stack = read("stack");
    if (/\b(wait_for_partner|fifo_open)\b/.test(stack)) return true;
    if ((wchan !== "" && wchan !== "0") || stack.trim() !== "") shown = true;
    const stat = read("stat");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    if (state === "S" || state === "D") sleeping = true;
  }
  if (sleeping && !shown) {
    throw new Error(
      `cannot tell whether process ${pid} waits opening a FIFO: this kernel shows no wchan ` +
        "(/proc/PID/task/TID/wchan) and no stack for its sleeping threads",
    );
  }
  return false;
}

/** Every `.ts` file under `lib/`, relative to the project root, sorted. */
export function libFiles(dir = "lib"): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(`${PROJECT_ROOT}/${dir}`)) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...libFiles(p));
    else if (e.name.endsWith(".ts")) out.push(p);
  }
  return out.sort();
}

/** A server of this checkout's `lib/` on 127.0.0.1, as a web server would serve the kit. */
export function serveLib(): { url: string; close(): Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = decodeURIComponent(new URL(req.url).pathname);
    if (!path.startsWith("/lib/") || path.includes("..")) {
      return new Response(null, { status: 404 });
    }
    try {
      const body = await Deno.readFile(`${PROJECT_ROOT}${path}`);
      const type = path.endsWith(".ts") ? "application/typescript" : "application/octet-stream";
      return new Response(body, { headers: { "content-type": type } });
    } catch {
      return new Response(null, { status: 404 });
    }
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    async close() {
      await server.shutdown();
      // What Deno cached of this server's modules (its port is not used again).
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["info", "--json"],
        stdout: "piped",
      }).output();
      const { modulesCache, typescriptCache } = JSON.parse(new TextDecoder().decode(out.stdout));
      for (const dir of [modulesCache, typescriptCache]) {
        const port = server.addr.port;
        await Deno.remove(`${dir}/http/127.0.0.1_PORT${port}`, { recursive: true }).catch(() => {});
      }
    },
  };
}
