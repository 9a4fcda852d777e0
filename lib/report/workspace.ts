/**
 * Where a report is built: a new folder beside the target (`<out>.tmp-<pid>-<random>`), swapped
 * in only when the build is complete, so a failing cell, a failed check or an interrupt leaves
 * the previous report whole. Ctrl-C (SIGINT), SIGTERM, SIGHUP and SIGQUIT stop every process the build
 * started (the notebook runner, its Jupyter kernel, Chromium) and remove the partial folder
 * and the temporary files; folders left by a build that was killed outright (SIGKILL, a power
 * cut) are swept by the next build of the same report, and so are the kit's folders in the
 * system's temporary folder (`kit-runtime-<pid>-*`, `kit-pdf-parts-<pid>-*`) whose process is
 * gone.
 *
 * Nothing given is lost: an input of the report (a run, a QRCD run, a gold file, a model folder)
 * inside the folder it would replace is refused before any work ({@link checkInputsOutside}),
 * and a report folder holding files the kit did not write is not replaced without `--force`
 * ({@link checkReplaceable}): the marker `.kit-report` lists every file the report wrote. A
 * build that fails is kept for inspection as `<out>.failed/` (replacing the previous failed
 * attempt), the previous report untouched.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { onInterrupt } from "../io/interrupt.ts";
import { outputError } from "../io/output.ts";
import { basename, dirname } from "../io/path.ts";
import { parseTempName, sweepKitTempDirs, tempPathFor } from "../io/temp.ts";
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

/** What the marker of a finished report holds: every file the report wrote. */
export interface ReportMarker {
  made_by: string;
  /** Paths inside the report folder, `/`-separated, sorted (the marker itself left out). */
  files: string[];
}

/**
 * The files of a report written before the marker listed them: the report's layout (see
 * lib/report/build.ts).
 */
const LEGACY_LAYOUT =
  /^(index\.html|report\.pdf|summary\.json|per-question\.(csv|json)|(html|notebooks|screenshots|runs)\/.+)$/;

/**
 * Every file below `dir` (links not followed, listed as files), as paths relative to it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { filesBelow } from "./workspace.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/html`);
 * await Deno.writeTextFile(`${dir}/html/a.html`, "");
 * await Deno.writeTextFile(`${dir}/index.html`, "");
 * assert.deepEqual(filesBelow(dir), ["html/a.html", "index.html"]);
 * ```
 */
export function filesBelow(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of Deno.readDirSync(rel ? `${dir}/${rel}` : dir)) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) walk(path);
      else out.push(path);
    }
  };
  walk("");
  return out.sort();
}

/**
 * The files in a kit report folder that the kit did not write: those its marker does not list
 * (a marker of an older kit, without a list: those outside the report's layout).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { foreignFiles, REPORT_MARKER } from "./workspace.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/${REPORT_MARKER}`, JSON.stringify({ made_by: "x", files: ["index.html"] }));
 * await Deno.writeTextFile(`${dir}/index.html`, "");
 * await Deno.writeTextFile(`${dir}/NOTES.txt`, "mine");
 * assert.deepEqual(foreignFiles(dir), ["NOTES.txt"]);
 * ```
 */
export function foreignFiles(dir: string): string[] {
  let listed: Set<string> | undefined;
  try {
    const marker = JSON.parse(Deno.readTextFileSync(`${dir}/${REPORT_MARKER}`)) as ReportMarker;
    if (Array.isArray(marker?.files)) listed = new Set(marker.files);
  } catch { /* an older marker (plain text): judged by the layout */ }
  return filesBelow(dir).filter((f) =>
    f !== REPORT_MARKER && (listed ? !listed.has(f) : !LEGACY_LAYOUT.test(f))
  );
}

/**
 * Writes the marker of a finished report into `dir`: every file now in it, which the build
 * wrote (the folder was new).
 */
export async function writeMarker(dir: string): Promise<void> {
  const marker: ReportMarker = {
    made_by: "deno task report",
    files: filesBelow(dir).filter((f) => f !== REPORT_MARKER),
  };
  await writeFileAtomic(`${dir}/${REPORT_MARKER}`, JSON.stringify(marker, null, 1) + "\n", {
    force: true,
  });
}

/**
 * Refuses to replace what the kit did not make: the report's folder is replaced, so
 * `--out ~/somewhere` must not wipe a user's files, and `--out /dev/null` must not replace a
 * device. A folder qualifies when it is empty, or holds `.kit-report` and no file besides those
 * the kit wrote there (a note the user added, a run copied in); `force` replaces it anyway.
 * (Give it {@link reportFolder}'s answer: links are followed first.)
 */
export async function checkReplaceable(dir: string, force: boolean): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(dir);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return;
    throw await outputError(e, dir);
  }
  if (!info.isDirectory) {
    throw new KitError("the report folder exists and is not a folder; choose another --out", {
      file: dir,
    });
  }
  const entries = [...Deno.readDirSync(dir)].map((e) => e.name);
  if (force || entries.length === 0) return;
  if (!entries.includes(REPORT_MARKER)) {
    throw new KitError(
      "refusing to replace a folder that is not a report made by the kit (it has no " +
        `${REPORT_MARKER}); choose another --out or pass --force`,
      { file: dir },
    );
  }
  const foreign = foreignFiles(dir);
  if (foreign.length === 0) return;
  const shown = foreign.slice(0, 5).join(", ") + (foreign.length > 5 ? ", ..." : "");
  throw new KitError(
    `refusing to replace this report: it holds ${foreign.length} file(s) the report did not ` +
      `write (${shown}); move them out of it or choose another --out (--force deletes them ` +
      "with the old report)",
    { file: dir },
  );
}

/**
 * Refuses, before any work, an input of the report that lies inside the folder the report
 * replaces (`outDir`): it would be deleted with the old report. `inputs` are the paths as the
 * flags named them (`label` says which flag), absolute.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkInputsOutside } from "./workspace.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/R`);
 * await Deno.writeTextFile(`${dir}/R/mine.run`, "");
 * await Deno.writeTextFile(`${dir}/base.run`, "");
 * await checkInputsOutside(`${dir}/R`, [{ label: "--run", path: `${dir}/base.run` }]);
 * await assert.rejects(
 *   () => checkInputsOutside(`${dir}/R`, [{ label: "--run", path: `${dir}/R/mine.run` }]),
 *   /mine\.run: --run is inside the report folder/,
 * );
 * ```
 */
export async function checkInputsOutside(
  outDir: string,
  inputs: readonly { label: string; path: string }[],
): Promise<void> {
  let out: string;
  try {
    out = await Deno.realPath(outDir);
  } catch {
    return; // no folder yet: nothing can be inside it
  }
  for (const { label, path } of inputs) {
    let real: string;
    try {
      real = await Deno.realPath(path);
    } catch {
      continue; // not a path (a model spec such as lexical:bm25), or checked by its reader
    }
    if (real === out || real.startsWith(out === "/" ? "/" : `${out}/`)) {
      throw new KitError(
        `${label} is inside the report folder ${outDir}, which the report replaces (it would ` +
          "be deleted with the old report); move or copy it out first, e.g. to runs/",
        { file: path },
      );
    }
  }
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
  /**
   * After a failure: moves the workspace to `<out>.failed` (replacing an earlier failed attempt
   * of the kit) for inspection and removes the signal handlers; returns where it is, or
   * undefined when it could not be kept (then it is removed). The old report stays.
   */
  keepFailed(): string | undefined;
}

function existsSync(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A failed swap as one line naming the report folder. */
function swapError(e: unknown, outDir: string): KitError {
  const code = (e as { code?: string })?.code;
  const why = code === "EROFS"
    ? "read-only file system"
    : code === "EACCES" || code === "EPERM"
    ? "permission denied"
    : (e as Error).message;
  return new KitError(
    `cannot put the new report in place (${why}); the previous report is unchanged`,
    { file: outDir },
    { cause: e },
  );
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
  const swept = await sweepKitTempDirs();
  if (swept.length) log(`removed ${swept.length} temporary folder(s) of killed reports`);
  const dir = tempPathFor(outDir);
  try {
    await Deno.mkdir(dir, { recursive: true });
    await writeFileAtomic(`${dir}/${REPORT_MARKER}`, "made by deno task report (unfinished)\n");
  } catch (e) {
    removeSync(dir);
    // The folder's own problem (read-only, full, forbidden), in the words of every writer,
    // naming the report folder (not the marker that could not be written).
    throw await outputError(e instanceof KitError && e.cause ? e.cause : e, outDir);
  }
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
        if (!(e instanceof Deno.errors.NotFound)) throw swapError(e, outDir);
        hadOld = false;
      }
      try {
        Deno.renameSync(dir, outDir);
      } catch (e) {
        if (hadOld) Deno.renameSync(old, outDir);
        throw swapError(e, outDir);
      }
      if (hadOld) removeSync(old);
      also.forEach(removeSync);
      dispose();
    },
    discard() {
      removeAll();
      dispose();
    },
    keepFailed() {
      also.forEach(removeSync);
      const failed = `${outDir}.failed`;
      let kept: string | undefined;
      try {
        const st = Deno.lstatSync(failed);
        // Only a failed attempt of the kit (it holds the marker) is replaced.
        if (st.isDirectory && !st.isSymlink && existsSync(`${failed}/${REPORT_MARKER}`)) {
          Deno.removeSync(failed, { recursive: true });
        }
      } catch { /* none yet */ }
      try {
        Deno.renameSync(dir, failed);
        kept = failed;
      } catch {
        removeSync(dir);
      }
      dispose();
      return kept;
    },
  };
}
