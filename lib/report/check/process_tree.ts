/**
 * Stopping every process a report started, however deep: the notebook runner (Python), the
 * Jupyter kernel it launched (jupyter_client starts kernels in a session of their own, so a
 * terminal's Ctrl-C never reaches them), headless Chromium. The tree is read from `/proc`
 * (Linux) before anything is signalled, because a child whose parent dies is re-parented and
 * could no longer be found.
 *
 * @module
 */

/** A process below the root: its pid and its command line. */
export interface Descendant {
  pid: number;
  /** Command line arguments (from `/proc/<pid>/cmdline`; empty when unreadable). */
  argv: string[];
}

/**
 * Every process below `root` (default: this process), parents before children. Empty where
 * `/proc` cannot be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { descendants } from "./process_tree.ts";
 * const child = new Deno.Command("sleep", { args: ["5"] }).spawn();
 * assert(descendants().some((d) => d.pid === child.pid)); // (argv: once it has exec'd)
 * child.kill();
 * await child.status;
 * ```
 */
export function descendants(root: number = Deno.pid): Descendant[] {
  const children = new Map<number, number[]>();
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync("/proc")];
  } catch {
    return [];
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e.name)) continue;
    let stat: string;
    try {
      stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
    } catch {
      continue; // gone meanwhile
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(e.name));
    children.set(ppid, list);
  }
  const out: Descendant[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length) {
    const pid = queue.shift()!;
    let argv: string[] = [];
    try {
      argv = Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0").filter((a) => a !== "");
    } catch { /* gone or not ours */ }
    out.push({ pid, argv });
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
}

function signal(pid: number, sig: Deno.Signal): void {
  try {
    Deno.kill(pid, sig);
  } catch { /* already gone */ }
}

/**
 * Kills at once (SIGKILL) the processes below this one that `which` picks, and waits up to
 * `waitMs` for them to end (synchronous, for a signal handler). Returns those killed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { killDescendants } from "./process_tree.ts";
 * const child = new Deno.Command("sleep", { args: ["30"] }).spawn();
 * const killed = killDescendants((d) => d.pid === child.pid);
 * assert.deepEqual(killed.map((d) => d.pid), [child.pid]);
 * assert.equal((await child.status).signal, "SIGKILL");
 * ```
 */
export function killDescendants(which: (d: Descendant) => boolean, waitMs = 1000): Descendant[] {
  const picked = descendants().filter(which);
  for (const d of picked) signal(d.pid, "SIGKILL");
  const deadline = Date.now() + waitMs;
  while (picked.some((d) => alive(d.pid)) && Date.now() < deadline) sleepSync(20);
  return picked;
}

/** Options of {@link stopDescendants}. */
export interface StopOptions {
  /** Processes killed at once (SIGKILL) rather than asked to stop: e.g. a runner that would restart a kernel. */
  killFirst?: (d: Descendant) => boolean;
  /** Milliseconds to wait after SIGTERM before SIGKILL (default 3000). */
  graceMs?: number;
}

/** Sleeps `ms` without the event loop (cleanups on an interrupt run synchronously). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Stops every process below this one: `killFirst` ones with SIGKILL, the rest with SIGTERM
 * and, after `graceMs`, SIGKILL. Removes the connection files of Jupyter kernels among them
 * (a killed kernel cannot). Synchronous, so it can run inside a signal handler that must
 * finish before the process exits. Returns what was stopped.
 */
export function stopDescendants(options: StopOptions = {}): Descendant[] {
  const tree = descendants();
  for (const d of tree) if (options.killFirst?.(d)) signal(d.pid, "SIGKILL");
  for (const d of tree) if (!options.killFirst?.(d)) signal(d.pid, "SIGTERM");
  const deadline = Date.now() + (options.graceMs ?? 3000);
  while (tree.some((d) => alive(d.pid)) && Date.now() < deadline) sleepSync(50);
  for (const d of tree) if (alive(d.pid)) signal(d.pid, "SIGKILL");
  for (const d of tree) {
    const i = d.argv.indexOf("--conn");
    const file = i >= 0 ? d.argv[i + 1] : undefined;
    // jupyter_client names them kernel-<id>.json (runtime folder) or tmp<random>.json (nbclient).
    if (file && /\/(kernel-[\w-]+|tmp\w+)\.json$/.test(file) && d.argv.includes("jupyter")) {
      try {
        Deno.removeSync(file);
      } catch { /* gone */ }
    }
  }
  return tree;
}

/**
 * Whether a process id is running (a live process, not a zombie). Used to tell a stale
 * build folder (its builder is gone) from one being written.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isRunning } from "./process_tree.ts";
 * assert(isRunning(Deno.pid) && !isRunning(2 ** 22 + 1));
 * ```
 */
export function isRunning(pid: number): boolean {
  try {
    Deno.statSync("/proc/self");
  } catch {
    return true; // no /proc: cannot tell, so never treat a folder as stale
  }
  return alive(pid);
}
