/**
 * The kit's temporary files: `<target>.tmp-<pid>-<random>`, next to the file they will
 * become. A process that is killed outright (SIGKILL, a power cut) cannot remove its own, so
 * writers sweep stale ones: only names of exactly this form, only when the process in the
 * name is gone and the file has not changed for {@link STALE_AFTER_MS}.
 *
 * @module
 */
import { basename } from "./path.ts";

/** A temporary file is stale when untouched this long (and its process is gone). */
export const STALE_AFTER_MS = 10 * 60 * 1000;

const TEMP_NAME = /^(.+)\.tmp-(\d+)-([0-9a-z]{2,14})$/;

/**
 * A fresh temporary path next to `path` (same folder, so the rename stays on one file system).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseTempName, tempPathFor } from "./temp.ts";
 * const t = tempPathFor("/x/out.run");
 * assert(t.startsWith("/x/out.run.tmp-"));
 * assert.deepEqual(parseTempName(t.slice(3)), { target: "out.run", pid: Deno.pid });
 * ```
 */
export function tempPathFor(path: string): string {
  const rand = crypto.getRandomValues(new Uint32Array(2));
  return `${path}.tmp-${Deno.pid}-${rand[0].toString(36)}${rand[1].toString(36)}`;
}

/**
 * The target name and process id of a kit temporary file name, or undefined for any other
 * name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseTempName } from "./temp.ts";
 * assert.deepEqual(parseTempName("a.run.tmp-42-1x9z0k"), { target: "a.run", pid: 42 });
 * assert.equal(parseTempName("a.run.tmp"), undefined);
 * assert.equal(parseTempName("notes.tmp-draft"), undefined);
 * ```
 */
export function parseTempName(name: string): { target: string; pid: number } | undefined {
  const m = TEMP_NAME.exec(name);
  return m ? { target: m[1], pid: Number(m[2]) } : undefined;
}

/** Whether process `pid` may still be running (true when this cannot be known). */
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

function processMayRun(pid: number): boolean {
  if (pid === Deno.pid) return true;
  try {
    Deno.statSync("/proc/self");
  } catch {
    return false; // no /proc: decide by age alone
  }
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    return false;
  }
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
  for (const e of entries) {
    const t = parseTempName(e.name);
    if (!t || (target !== undefined && t.target !== basename(target))) continue;
    const path = `${dir}/${e.name}`;
    try {
      const st = await Deno.lstat(path);
      if (!st.isFile || now - (st.mtime?.getTime() ?? now) < STALE_AFTER_MS) continue;
      if (processMayRun(t.pid)) continue;
      await Deno.remove(path);
      removed.push(e.name);
    } catch { /* gone meanwhile, or not ours to remove */ }
  }
  return removed;
}

/**
 * The kit's temporary folders in the system's temporary folder, by name prefix: the kernels'
 * runtime folder, the PDF's parts, the PDF check's rasters, the static images' page, the
 * browser's profile (Playwright makes it inside the folder given as `TMPDIR`). Each
 * name carries the process id (`kit-runtime-<pid>-<random>`), so a later run can tell the
 * folders of a process that was killed outright from those of one still running.
 */
export const KIT_TEMP_PREFIXES = [
  "kit-runtime-",
  "kit-pdf-parts-",
  "kit-pdf-",
  "kit-png-",
  "kit-chromium-",
];

const KIT_TEMP_NAME = /^(kit-(?:runtime|pdf-parts|pdf|png|chromium)-)(\d+)-[^/]+$/;

/** The system's temporary folder (as `Deno.makeTempDir` uses it). */
export function systemTempDir(): string {
  return (Deno.env.get("TMPDIR") || "/tmp").replace(/\/+$/, "") || "/";
}

/**
 * Makes a kit temporary folder `<tmp>/<prefix><pid>-<random>` ({@link KIT_TEMP_PREFIXES}).
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
  return await Deno.makeTempDir({ prefix: `${prefix}${Deno.pid}-` });
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
    // No age rule here: only a process known to be gone (its /proc entry missing) is swept.
    if (!m || !e.isDirectory || !hasProc() || processMayRun(Number(m[2]))) continue;
    try {
      await Deno.remove(`${dir}/${e.name}`, { recursive: true });
      removed.push(`${dir}/${e.name}`);
    } catch { /* another user's, or gone meanwhile */ }
  }
  return removed;
}
