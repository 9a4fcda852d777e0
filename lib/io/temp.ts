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
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return removed;
  }
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
