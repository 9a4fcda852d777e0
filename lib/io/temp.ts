/**
 * The kit's temporary files: `<target>.tmp-<pid>-<tag><random>`, next to the file they will
 * become, and its temporary folders in the system's temporary folder,
 * `kit-<what>-<pid>-<random>`. A process that is killed outright (SIGKILL, a power cut) cannot
 * remove its own, so the next process that writes there sweeps them: only names of exactly
 * these forms, and only when the process in the name is gone ({@link processGone}: no process
 * has that id, or the one that has it started after the file was last written, so the id was
 * reused). A process id means something only on the machine (and in the process-id namespace)
 * that gave it: a folder on a shared file system (NFS, a volume several containers mount) gets
 * temporary files from processes this one cannot see. So a temporary file's name carries a tag
 * of its writer's host and namespace ({@link localTempTag}), and only one with this process's
 * tag is swept as soon as its process is gone; any other (another machine's, a container's, an
 * older kit's name without the tag), and every one where there is no `/proc`, only when it has
 * not changed for {@link STALE_AFTER_MS} and no process here has its id. A folder is swept only
 * where `/proc` tells.
 *
 * @module
 */
import { basename } from "./path.ts";
import { onInterrupt } from "./interrupt.ts";

/**
 * A temporary file of another host or namespace (or anywhere without `/proc`) is stale when
 * untouched this long.
 */
export const STALE_AFTER_MS = 10 * 60 * 1000;

const TEMP_NAME = /^(.+)\.tmp-(\d+)-([0-9a-z]{2,20})$/;

let tag: string | undefined;

/**
 * Four base-36 characters naming this process's host and process-id namespace (a hash of the
 * host name and the namespace's identity), the start of the random part of its temporary
 * files' names: a sweeper with the same tag sees the writer's process id in its own `/proc`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { localTempTag, tempPathFor } from "./temp.ts";
 * assert.match(localTempTag(), /^[0-9a-z]{4}$/);
 * assert(tempPathFor("out.run").startsWith(`out.run.tmp-${Deno.pid}-${localTempTag()}`));
 * ```
 */
export function localTempTag(): string {
  if (tag !== undefined) return tag;
  let where = "";
  try {
    where = Deno.hostname();
  } catch { /* no permission: the namespace alone */ }
  try {
    where += ` ${Deno.readLinkSync("/proc/self/ns/pid")}`; // "pid:[4026531836]"
  } catch { /* no /proc: files are then swept by age alone */ }
  let h = 0x811c9dc5;
  for (const c of new TextEncoder().encode(where)) h = Math.imul(h ^ c, 0x01000193) >>> 0;
  tag = (h % 36 ** 4).toString(36).padStart(4, "0");
  return tag;
}

/**
 * A fresh temporary path next to `path` (same folder, so the rename stays on one file system).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseTempName, tempPathFor } from "./temp.ts";
 * const t = tempPathFor("/x/out.run");
 * assert(t.startsWith("/x/out.run.tmp-"));
 * assert.deepEqual(parseTempName(t.slice(3)), { target: "out.run", pid: Deno.pid, local: true });
 * ```
 */
export function tempPathFor(path: string): string {
  const rand = crypto.getRandomValues(new Uint32Array(2));
  return `${path}.tmp-${Deno.pid}-${localTempTag()}${rand[0].toString(36)}${rand[1].toString(36)}`;
}

/**
 * The target name and process id of a kit temporary file name, and whether its writer ran on
 * this host and process-id namespace (its tag is this process's, {@link localTempTag}), or
 * undefined for any other name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { localTempTag, parseTempName } from "./temp.ts";
 * assert.deepEqual(parseTempName("a.run.tmp-42-1x9z0k"), {
 *   target: "a.run",
 *   pid: 42,
 *   local: "1x9z" === localTempTag(),
 * });
 * assert.equal(parseTempName(`a.run.tmp-42-${localTempTag()}k3`)?.local, true);
 * assert.equal(parseTempName("a.run.tmp"), undefined);
 * assert.equal(parseTempName("notes.tmp-draft"), undefined);
 * ```
 */
export function parseTempName(
  name: string,
): { target: string; pid: number; local: boolean } | undefined {
  const m = TEMP_NAME.exec(name);
  return m
    ? { target: m[1], pid: Number(m[2]), local: m[3].startsWith(localTempTag()) }
    : undefined;
}

/** The entries of `dir`; none when it cannot be read (nothing there to sweep). */
function entriesOf(dir: string): Deno.DirEntry[] {
  try {
    return [...Deno.readDirSync(dir)];
  } catch {
    return [];
  }
}

/** Whether /proc answers for processes (Linux); elsewhere no process is known to be gone. */
function hasProc(): boolean {
  try {
    Deno.statSync("/proc/self");
    return true;
  } catch {
    return false;
  }
}

/** The boot time (ms since the epoch) from /proc/stat; undefined where it cannot be read. */
function bootTimeMs(): number | undefined {
  try {
    const m = /^btime (\d+)$/m.exec(Deno.readTextFileSync("/proc/stat"));
    return m ? Number(m[1]) * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * When process `pid` started (ms since the epoch, to about a second: /proc gives clock ticks
 * since boot, boot time in whole seconds); undefined when no such process runs or /proc cannot
 * say.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { processStartMs } from "./temp.ts";
 * const mine = processStartMs(Deno.pid);
 * assert(mine !== undefined && mine <= Date.now() + 1000 && mine > Date.now() - 86_400_000 * 365);
 * assert.equal(processStartMs(2 ** 22 + 1), undefined);
 * ```
 */
export function processStartMs(pid: number): number | undefined {
  let stat: string;
  try {
    stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  } catch {
    return undefined;
  }
  const boot = bootTimeMs();
  // The fields after the command's closing parenthesis: starttime is the 20th of them.
  const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
  if (boot === undefined || !Number.isFinite(ticks)) return undefined;
  return boot + ticks * 10; // USER_HZ is 100 on Linux
}

/** Whether a process with id `pid` runs here (this one included). */
function processRuns(pid: number): boolean {
  if (pid === Deno.pid) return true;
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the process that wrote a kit temporary entry named with `pid` is gone: no process has
 * that id, or the one that has it started after `writtenMs` (the entry's modification time),
 * so it cannot have written it (the id was reused). False for this process, and where /proc
 * cannot tell.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { processGone } from "./temp.ts";
 * assert(!processGone(Deno.pid, Date.now()));
 * assert(!processGone(Deno.ppid, Date.now())); // the parent runs, and started before now
 * assert(processGone(2 ** 22 + 1, Date.now()));
 * // Written in 1970: not by the process that has that id now (the id was reused).
 * assert(processGone(Deno.ppid, 0));
 * ```
 */
export function processGone(pid: number, writtenMs: number): boolean {
  if (pid === Deno.pid || !hasProc()) return false;
  const started = processStartMs(pid);
  if (started === undefined) {
    try {
      Deno.statSync(`/proc/${pid}`);
      return false; // running, start time unknown: not gone
    } catch {
      return true;
    }
  }
  // A second of slack: the start time is known to about a second.
  return started > writtenMs + 1000;
}

/**
 * Removes stale kit temporary files in `dir` (those for `target` only, when given) and returns
 * their names. Errors (a folder that cannot be read or written) are not the caller's problem
 * here: nothing is removed then.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sweepStaleTemps } from "./temp.ts";
 * const dir = await Deno.makeTempDir();
 * const old = new Date(Date.now() - 3600_000);
 * Deno.writeTextFileSync(`${dir}/out.run.tmp-999999999-abc123`, "half");
 * Deno.utimeSync(`${dir}/out.run.tmp-999999999-abc123`, old, old);
 * Deno.writeTextFileSync(`${dir}/out.run.tmp-draft`, "the user's");
 * assert.deepEqual(await sweepStaleTemps(dir), ["out.run.tmp-999999999-abc123"]);
 * assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["out.run.tmp-draft"]);
 * ```
 */
export async function sweepStaleTemps(dir: string, target?: string): Promise<string[]> {
  const removed: string[] = [];
  const entries = entriesOf(dir);
  const now = Date.now();
  const proc = hasProc();
  for (const e of entries) {
    const t = parseTempName(e.name);
    if (!t || (target !== undefined && t.target !== basename(target))) continue;
    const path = `${dir}/${e.name}`;
    try {
      const st = await Deno.lstat(path);
      if (!st.isFile) continue;
      const written = st.mtime?.getTime() ?? now;
      // Another host's or namespace's writer (or no /proc): its id means nothing here, so
      // the file must also be untouched for a while.
      const stale = proc && t.local
        ? processGone(t.pid, written)
        : now - written >= STALE_AFTER_MS && (!proc || !processRuns(t.pid));
      if (!stale) continue;
      await Deno.remove(path);
      removed.push(e.name);
    } catch { /* gone meanwhile, or not ours to remove */ }
  }
  return removed;
}

/**
 * Removes the temporary folders `<target>.tmp-<pid>-<tag><random>` in `dir` (those for
 * `target` only, when given) of processes that are gone, and returns their names: a folder
 * being built beside its final place (a generated model) by a process killed outright. Only a
 * folder of this host and namespace ({@link localTempTag}) whose process {@link processGone}
 * says is gone: a folder's own modification time says nothing of the files being written
 * deeper inside it, so no age rule applies, and where there is no `/proc` nothing is removed.
 * Not for a report's folders, which keep a swapped-out old report the user may still need
 * (lib/report/build/workspace.ts sweeps those).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { localTempTag, sweepStaleTempDirs } from "./temp.ts";
 * const dir = await Deno.makeTempDir();
 * const dead = `m.tmp-999999999-${localTempTag()}k3`, live = `m.tmp-${Deno.pid}-${localTempTag()}k4`;
 * for (const n of [dead, live, "m.tmp-draft"]) await Deno.mkdir(`${dir}/${n}/onnx`, { recursive: true });
 * assert.deepEqual(await sweepStaleTempDirs(dir, "m"), [dead]);
 * assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [live, "m.tmp-draft"].sort());
 * ```
 */
export async function sweepStaleTempDirs(dir: string, target?: string): Promise<string[]> {
  const removed: string[] = [];
  if (!hasProc()) return removed;
  for (const e of entriesOf(dir)) {
    const t = parseTempName(e.name);
    if (!t || !t.local || (target !== undefined && t.target !== basename(target))) continue;
    const path = `${dir}/${e.name}`;
    try {
      const st = await Deno.lstat(path);
      if (!st.isDirectory || !processGone(t.pid, st.mtime?.getTime() ?? Date.now())) continue;
      await Deno.remove(path, { recursive: true });
      removed.push(e.name);
    } catch { /* gone meanwhile, or not ours to remove */ }
  }
  return removed;
}

/**
 * The kit's temporary folders in the system's temporary folder, by name prefix: the kernels'
 * runtime folder, the PDF's parts, the PDF check's rasters, the static images' page, the
 * browser's own temporary folders (Chromium's and playwright's), a revision extracted by a
 * benchmark. Each
 * name carries the process id (`kit-runtime-<pid>-<random>`), so a later run can tell the
 * folders of a process that was killed outright from those of one still running.
 */
const KIT_TEMP_PREFIXES = [
  "kit-runtime-",
  "kit-jupyter-",
  "kit-pdf-parts-",
  "kit-pdf-",
  "kit-png-",
  "kit-chromium-",
  "kit-rev-",
  "kit-bench-report-",
];

/** A kit temporary folder's name: its prefix (one of the above), the process id, the rest. */
const KIT_TEMP_NAME = new RegExp(`^(${KIT_TEMP_PREFIXES.join("|")})(\\d+)-[^/]+$`);

/** The system's temporary folder (as `Deno.makeTempDir` uses it). */
export function systemTempDir(): string {
  return (Deno.env.get("TMPDIR") || "/tmp").replace(/\/+$/, "") || "/";
}

/**
 * Makes a kit temporary folder `<tmp>/<prefix><pid>-<random>` ({@link KIT_TEMP_PREFIXES}),
 * after sweeping those of processes that are gone ({@link sweepKitTempDirs}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeKitTempDir } from "./temp.ts";
 * const dir = await makeKitTempDir("kit-runtime-");
 * assert(dir.includes(`/kit-runtime-${Deno.pid}-`));
 * await Deno.remove(dir);
 * ```
 */
export async function makeKitTempDir(prefix: string): Promise<string> {
  if (!KIT_TEMP_PREFIXES.includes(prefix)) throw new Error(`not a kit temporary prefix: ${prefix}`);
  // Whatever writes here first sweeps what killed processes left here.
  await sweepKitTempDirs();
  return await Deno.makeTempDir({ prefix: `${prefix}${Deno.pid}-` });
}

/**
 * Runs `fn` with a fresh kit temporary folder ({@link makeKitTempDir}) and removes the folder
 * when `fn` settles, and also on Ctrl-C or SIGTERM (an interrupt ends the process before any
 * `finally` runs); a process killed outright leaves it to the next sweep.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withKitTempDir } from "./temp.ts";
 * const dir = await withKitTempDir("kit-pdf-", async (d) => {
 *   await Deno.writeTextFile(`${d}/page.txt`, "x");
 *   return d;
 * });
 * assert.equal(await Deno.stat(dir).then(() => true, () => false), false);
 * ```
 */
export async function withKitTempDir<T>(
  prefix: string,
  fn: (dir: string) => Promise<T>,
): Promise<T> {
  const dir = await makeKitTempDir(prefix);
  const remove = () => Deno.removeSync(dir, { recursive: true });
  const unregister = onInterrupt(remove);
  try {
    return await fn(dir);
  } finally {
    unregister();
    try {
      remove();
    } catch { /* gone */ }
  }
}

/**
 * Removes the kit temporary folders ({@link makeKitTempDir}) of processes that are gone (killed
 * outright: SIGKILL, a power cut) from `dir` (default the system's temporary folder); returns
 * the paths removed. Folders of running processes and every other name are left alone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sweepKitTempDirs } from "./temp.ts";
 * const tmp = await Deno.makeTempDir();
 * for (const n of ["kit-runtime-999999999-a1", `kit-pdf-parts-${Deno.pid}-b2`, "kit-runtime-x"]) {
 *   await Deno.mkdir(`${tmp}/${n}`);
 * }
 * assert.deepEqual(await sweepKitTempDirs(tmp), [`${tmp}/kit-runtime-999999999-a1`]);
 * ```
 */
export async function sweepKitTempDirs(dir: string = systemTempDir()): Promise<string[]> {
  const removed: string[] = [];
  const entries = entriesOf(dir);
  for (const e of entries) {
    const m = KIT_TEMP_NAME.exec(e.name);
    // No age rule here: only a process known to be gone is swept.
    if (!m || !e.isDirectory) continue;
    try {
      const written = Deno.lstatSync(`${dir}/${e.name}`).mtime?.getTime() ?? Date.now();
      if (!processGone(Number(m[2]), written)) continue;
      await Deno.remove(`${dir}/${e.name}`, { recursive: true });
      removed.push(`${dir}/${e.name}`);
    } catch { /* another user's, or gone meanwhile */ }
  }
  return removed;
}
