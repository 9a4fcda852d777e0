/**
 * Where a report is built: a new folder beside the target (`<out>.tmp-<pid>-<random>`), swapped
 * in only when the build is complete, so a failing cell, a failed check or an interrupt leaves
 * the previous report whole. Ctrl-C (SIGINT), SIGTERM, SIGHUP and SIGQUIT stop every process the build
 * started (the notebook runner, its Jupyter kernel, Chromium) and remove the partial folder
 * and the temporary files; folders left by a build that was killed outright (SIGKILL, a power
 * cut) are swept by the next build of the same report.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { onInterrupt } from "../io/interrupt.ts";
import { basename, dirname } from "../io/path.ts";
import { parseTempName, tempPathFor } from "../io/temp.ts";
import { isRunning, stopDescendants } from "./process_tree.ts";

/** The file that marks a folder as a report the kit made (and may replace). */
export const REPORT_MARKER = ".kit-report";

/**
 * The folder a report goes to: `outDir`, or where it leads when it is a symbolic link (the
 * link stays a link; the folder it points to is what is replaced, as for every output).
 */
export async function reportFolder(outDir: string): Promise<string> {
  const dir = outDir.replace(/\/+$/, "") || "/";
  try {
    if (!(await Deno.lstat(dir)).isSymlink) return dir;
  } catch {
    return dir; // not there yet
  }
  try {
    return await Deno.realPath(dir);
  } catch {
    const target = await Deno.readLink(dir); // dangling: the folder is made where it points
    return target.startsWith("/") ? target : `${dirname(dir)}/${target}`;
  }
}

/**
 * Refuses to replace what the kit did not make: the report's folder is replaced, so
 * `--out ~/somewhere` must not wipe a user's files, and `--out /dev/null` must not replace a
 * device. A folder qualifies when it holds `.kit-report` or is empty, or with `force`.
 * (Give it {@link reportFolder}'s answer: links are followed first.)
 */
export async function checkReplaceable(dir: string, force: boolean): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(dir);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return;
    throw e;
  }
  if (!info.isDirectory) {
    throw new KitError("the report folder exists and is not a folder; choose another --out", {
      file: dir,
    });
  }
  const entries = [...Deno.readDirSync(dir)].map((e) => e.name);
  if (force || entries.length === 0 || entries.includes(REPORT_MARKER)) return;
  throw new KitError(
    "refusing to replace a folder that is not a report made by the kit (it has no " +
      `${REPORT_MARKER}); choose another --out or pass --force`,
    { file: dir },
  );
}

/**
 * Removes build folders of `outDir` (kit temporary names, `<out>.tmp-<pid>-<random>`: the new
 * report being built, or the old one being swapped out) left by builds that are no longer
 * running (the pid in the name is gone). Returns the folders removed.
 */
export async function sweepStale(outDir: string): Promise<string[]> {
  const parent = dirname(outDir);
  const removed: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(parent)];
  } catch {
    return removed;
  }
  for (const e of entries) {
    const t = parseTempName(e.name);
    if (!e.isDirectory || !t || t.target !== basename(outDir) || isRunning(t.pid)) continue;
    await Deno.remove(`${parent}/${e.name}`, { recursive: true }).catch(() => {});
    removed.push(`${parent}/${e.name}`);
  }
  return removed;
}

/** A report being built beside its final place. */
export interface Workspace {
  /** The folder being written. */
  dir: string;
  /** The final folder. */
  outDir: string;
  /** Extra paths (temporary folders elsewhere) removed with the workspace. */
  also: string[];
  /**
   * Puts the finished report in place of the old one (which is then removed) and removes the
   * signal handlers. Synchronous: no signal can land halfway.
   */
  swapIn(): void;
  /** Removes the workspace (after a failure) and the signal handlers; the old report stays. */
  discard(): void;
}

/**
 * Runs `cleanup` when SIGINT, SIGTERM, SIGHUP or SIGQUIT arrives (the shared registry of
 * lib/io/interrupt.ts then exits with the shell's status: 130, 143, 129, 131); returns the function
 * that unregisters it. `cleanup` is synchronous, so nothing else runs between the signal and
 * the exit.
 */
function onSignals(cleanup: () => void, note: string): () => void {
  return onInterrupt(cleanup, note);
}

function removeSync(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch { /* gone */ }
}

/**
 * Opens a workspace for `outDir`: sweeps stale ones, creates `<outDir>.tmp-<pid>-<random>`
 * with the report marker, and installs the interrupt handlers (stop every process the build
 * started, remove the workspace and `also`, exit with 128 + the signal's number).
 */
export async function openWorkspace(
  outDir: string,
  options: { log?: (line: string) => void } = {},
): Promise<Workspace> {
  const log = options.log ?? ((s: string) => console.error(s));
  for (const stale of await sweepStale(outDir)) {
    log(`removed a partial report left behind: ${stale}`);
  }
  const dir = tempPathFor(outDir);
  await Deno.mkdir(dir, { recursive: true });
  await writeFileAtomic(`${dir}/${REPORT_MARKER}`, "made by deno task report\n");
  const also: string[] = [];
  const removeAll = () => [dir, ...also].forEach(removeSync);
  const dispose = onSignals(() => {
    // The runner is killed outright: asked to stop, nbclient would shut its kernel down and
    // the runner would start the notebook again in a new one.
    stopDescendants({ killFirst: (d) => d.argv.some((a) => a.endsWith("run_notebook.py")) });
    removeAll();
  }, `stopped the notebook runner, its kernel and the browser; removed ${dir}`);

  return {
    dir,
    outDir,
    also,
    swapIn() {
      const old = tempPathFor(outDir);
      let hadOld = true;
      try {
        Deno.renameSync(outDir, old);
      } catch (e) {
        if (!(e instanceof Deno.errors.NotFound)) throw e;
        hadOld = false;
      }
      try {
        Deno.renameSync(dir, outDir);
      } catch (e) {
        if (hadOld) Deno.renameSync(old, outDir);
        throw e;
      }
      if (hadOld) removeSync(old);
      also.forEach(removeSync);
      dispose();
    },
    discard() {
      removeAll();
      dispose();
    },
  };
}
