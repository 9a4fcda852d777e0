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
 * inside the folder it would replace is refused before any work ({@link checkInputsOutside}), and
 * so is a caller whose working folder is that folder or inside it (the swap would leave the shell
 * in a deleted folder), and a report folder holding files the kit did not write is not replaced
 * without `--force` ({@link checkReplaceable}): the marker `.kit-report` is the manifest of every
 * file the report wrote (size and SHA-256), and a file is the report's only while it matches it.
 * With `--force` the report replaces only those: every other file is carried over into the new
 * report before the swap (foreign.ts), and one sitting where the new report writes is refused
 * before any work. No file the report did not write is ever deleted. A build that fails is kept for
 * inspection as `<out>.failed/` (replacing the last failed one); the previous report is untouched.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import { isDiskFull, replaceFileSync, writeFileAtomic } from "../../io/atomic.ts";
import { onInterrupt } from "../../io/interrupt.ts";
import {
  outputError,
  protectedFolders,
  refuseInputAsOutput,
  refuseReplacingInFolders,
} from "../../io/output.ts";
import { sweepStaleLock } from "../../io/lock.ts";
import { basename, dirname } from "../../io/path.ts";
import { parseTempName, sweepKitTempDirs, tempPathFor } from "../../io/temp.ts";
import { isRunning, stopDescendants } from "../check/process_tree.ts";
import {
  collisionError,
  collisions,
  editedNote,
  filesBelow,
  forceAdvice,
  foreignFiles,
  manifestOf,
  moveUncarried,
  type PathKind,
  readMarker,
  removeEmptyFolders,
  REPORT_MARKER,
  shortList,
  uncarried,
  UNFINISHED_MARKER,
} from "./foreign.ts";

export { filesBelow, foreignFiles, REPORT_MARKER };

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
 * Writes the marker of a finished report into `dir`: the manifest of every file now in it (the
 * build wrote them: the folder was new), with its size and SHA-256 (`manifestOf`).
 */
export async function writeMarker(dir: string, madeBy = "deno task report"): Promise<void> {
  await writeFileAtomic(
    `${dir}/${REPORT_MARKER}`,
    JSON.stringify(manifestOf(dir, madeBy), null, 1) + "\n",
    { force: true },
  );
}

/**
 * Refuses, before any work, to replace what the kit did not make: `--out ~/somewhere` must not
 * take over a user's folder, and `--out /dev/null` must not replace a device. A folder
 * qualifies when it is empty, or holds `.kit-report` and no file besides those the kit wrote
 * there (a note the user added, a run copied in); with `force` any folder does, its files the
 * report did not write then carried over into the new report (`carryForeign`, foreign.ts),
 * unless one sits where the new report writes: `kindAt` says what the new report will have at
 * a relative path. (Give it {@link reportFolder}'s answer: links are followed first.)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkReplaceable, REPORT_MARKER } from "./workspace.ts";
 * import { plannedKinds } from "./foreign.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/${REPORT_MARKER}`, JSON.stringify({ made_by: "x", files: [] }));
 * await Deno.writeTextFile(`${dir}/NOTES.txt`, "mine");
 * await assert.rejects(() => checkReplaceable(dir, false, plannedKinds([])), /holds 1 file/);
 * await checkReplaceable(dir, true, plannedKinds(["index.html"])); // NOTES.txt will be kept
 * await assert.rejects(() => checkReplaceable(dir, true, plannedKinds(["NOTES.txt"])), /NOTES\.txt/);
 * ```
 */
export async function checkReplaceable(
  dir: string,
  force: boolean,
  kindAt: (path: string) => PathKind,
): Promise<void> {
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
  if ([...Deno.readDirSync(dir)].length === 0) return;
  const marker = readMarker(dir);
  const changed: string[] = [];
  const foreign = foreignFiles(dir, { folders: true, changed });
  // --force keeps the files the report did not write, but never builds over one: a refusal
  // offers it only where it would build.
  const clash = collisions(foreign, kindAt);
  if (force || (marker.kind === "manifest" && clash.length)) {
    if (clash.length) throw collisionError(dir, clash, changed);
    return;
  }
  const orForce = (hint: string) => forceAdvice(clash, hint);
  if (marker.kind === "none") {
    throw new KitError(
      "refusing to replace a folder that is not a report made by the kit (it has no " +
        `${REPORT_MARKER}); choose another --out` +
        orForce(", or pass --force to write the report into it (its files are kept)"),
      { file: dir },
    );
  }
  if (marker.kind !== "manifest") {
    // A report deletes only what it can show it wrote; this marker shows nothing.
    throw new KitError(
      `refusing to replace this folder: its ${REPORT_MARKER} ${
        marker.kind === "invalid" ? marker.why : "says a report is being built in it"
      }, so the report cannot show which files it wrote (it deletes only those); remove the ` +
        "folder yourself if it holds nothing of yours, or choose another --out" +
        orForce(" (--force writes the report into it and keeps every file there)"),
      { file: dir },
    );
  }
  if (foreign.length === 0) return;
  const shown = shortList(foreign);
  throw new KitError(
    `refusing to replace this report: it holds ${foreign.length} file(s) the report did not ` +
      `write (${shown})${editedNote(changed)}; move them out of it or choose another --out ` +
      "(--force replaces only what the report wrote and keeps them)",
    { file: dir },
  );
}

/**
 * Refuses, before any work, an input of the report that lies inside the folder the report
 * replaces (`outDir`): a file the report wrote there goes with the old report, and a report
 * never reads from the folder it replaces. `inputs` are the paths as the flags named them
 * (`label` says which flag), absolute. The caller's working folder (`caller`, by default
 * {@link callerCwd}) is refused there too: the swap would leave the shell in a deleted folder.
 * A report folder that is, holds or lies in a folder the report reads (a model's) or the kit
 * keeps (the corpus cache, the samples: `protectedFolders`) is refused, even with `--force`.
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
 * await assert.rejects(() => checkInputsOutside(`${dir}/R`, [], `${dir}/R`), /run from elsewhere/);
 * ```
 */
export async function checkInputsOutside(
  outDir: string,
  inputs: readonly { label: string; path: string }[],
  caller: string | undefined = callerCwd(),
): Promise<void> {
  // Never over a folder the report reads (a model's) or the kit keeps (corpora, samples),
  // checked after the inputs' own messages, which say more.
  const folders = inputs.map((i) => i.path).filter((f) => {
    try {
      return Deno.statSync(f).isDirectory;
    } catch {
      return false;
    }
  });
  const refuseProtected = () =>
    refuseReplacingInFolders(outDir, protectedFolders(folders), "--out", "folder");
  let out: string;
  try {
    out = await Deno.realPath(outDir);
  } catch {
    return refuseProtected(); // no folder yet: nothing can be inside it
  }
  const inside = (real: string) => real === out || real.startsWith(out === "/" ? "/" : `${out}/`);
  if (caller !== undefined) {
    let real: string | undefined;
    try {
      real = await Deno.realPath(caller);
    } catch {
      real = undefined; // the caller's folder is gone or unreadable: nothing to protect
    }
    if (real !== undefined && inside(real)) {
      throw new KitError(
        `the report folder ${outDir} is the current folder${
          real === out ? "" : " or holds it"
        } (${caller}), which the report replaces: the shell would be left in a deleted ` +
          "folder; run from elsewhere (e.g. cd ..) or choose another --out",
      );
    }
  }
  for (const { label, path } of inputs) {
    let real: string;
    try {
      real = await Deno.realPath(path);
    } catch {
      continue; // not a path (a model spec such as lexical:bm25), or checked by its reader
    }
    if (real === out) {
      // --out names the input itself. A file: refused as every writer refuses its own input.
      refuseInputAsOutput(outDir, [path], "--out");
      // A folder (a model's): the report writes a folder there, never over an input.
      throw new KitError(
        `${label} is the path --out names (${outDir}): the report writes a folder there and ` +
          "never replaces an input; choose another --out, e.g. reports/mine",
        { file: path },
      );
    }
    if (inside(real)) {
      throw new KitError(
        `${label} is inside the report folder ${outDir}, which the report replaces (a file ` +
          "the report wrote there goes with the old report); move or copy it out first, e.g. " +
          "to runs/",
        { file: path },
      );
    }
  }
  refuseProtected();
}

/**
 * The caller's working folder: `INIT_CWD` (set by `./kit` and `deno task`, which run in the
 * project root), else the process's; `undefined` when neither can be read.
 */
export function callerCwd(): string | undefined {
  try {
    const init = Deno.env.get("INIT_CWD");
    if (init) return init;
  } catch {
    // no permission to read the environment: the process's folder
  }
  try {
    return Deno.cwd();
  } catch {
    return undefined;
  }
}

/**
 * Removes build folders of `outDir` (kit temporary names, `<out>.tmp-<pid>-<random>`: the new
 * report being built, or the old one being swapped out) left by builds that are no longer
 * running (the pid in the name is gone), except an old report holding files the report did
 * not write that are not in `outDir` (`log` says so). Returns the folders removed.
 */
export function sweepStale(
  outDir: string,
  log: (line: string) => void = () => {},
): string[] {
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
    // An old report swapped out by a build killed before it removed it: removed only when
    // every file in it the report did not write is in the report (carried over).
    const left = uncarried(`${parent}/${e.name}`, outDir);
    if (left.length) {
      log(
        `kept ${parent}/${e.name}, an old report a killed build left: it holds files the ` +
          `report did not write (${shortList(left, 3)}); move them out of it, then remove it`,
      );
      continue;
    }
    removeSync(`${parent}/${e.name}`);
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
   * Puts the finished report in place of the old one and removes the signal handlers. The
   * old one is then removed, after the files the report did not write that arrived after
   * `carryForeign` (foreign.ts) are moved over; when one cannot be, the old one is kept and its
   * path returned. Synchronous: no signal can land halfway.
   */
  swapIn(): string | undefined;
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

function removeSync(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch {
    // A read-only folder of the user's carried over (made anew here, so ours to change):
    // made writable, then removed. Files are never changed: they may be links to the user's.
    try {
      writableFolders(path);
      Deno.removeSync(path, { recursive: true });
    } catch { /* gone */ }
  }
}

/** Makes `dir` and every folder below it writable and searchable by its owner. */
function writableFolders(dir: string): void {
  const info = Deno.lstatSync(dir);
  if (!info.isDirectory) return;
  Deno.chmodSync(dir, (info.mode! & 0o7777) | 0o700);
  for (const e of Deno.readDirSync(dir)) if (e.isDirectory) writableFolders(`${dir}/${e.name}`);
}

/** The bytes of the files below `dir` (0 when it cannot be read). */
function bytesBelow(dir: string): number {
  let total = 0;
  try {
    for (const f of filesBelow(dir)) {
      try {
        total += Deno.lstatSync(`${dir}/${f}`).size;
      } catch { /* gone meanwhile */ }
    }
  } catch { /* not there */ }
  return total;
}

/**
 * After a failed build: when the disk (or the quota) was full, removes the unfinished report and
 * its temporary folders (kept for inspection, it would keep the disk full) and returns the
 * failure as one line naming the destination (the report folder, and the file being written
 * when it is known; or the file itself outside the report, e.g. in the system's temporary
 * folder), saying what was removed and what an earlier failed attempt still takes. Any other
 * failure: undefined, nothing done.
 */
export function discardOnFullDisk(ws: Workspace, e: unknown): KitError | undefined {
  if (!isDiskFull(e)) return undefined;
  const file = e instanceof KitError ? e.file : undefined;
  const inside = file !== undefined && file.startsWith(`${ws.dir}/`);
  const what = file === undefined
    ? ""
    : ` writing ${inside ? file.slice(ws.dir.length + 1) : file}`;
  ws.discard();
  const earlier = `${ws.outDir}.failed`;
  const mb = bytesBelow(earlier) / 2 ** 20;
  const note = existsSync(earlier)
    ? `; an earlier failed attempt, ${earlier}/, still takes ${mb.toFixed(1)} MB there`
    : "";
  return new KitError(
    `the disk is full (No space left on device)${what}: the unfinished report was removed so ` +
      `that it does not keep the disk full; the previous report is unchanged${note}`,
    { file: inside || file === undefined ? ws.outDir : dirname(file) },
    { cause: e },
  );
}

/**
 * Sweeps what killed builds of `outDir` left: their folders ({@link sweepStale}), the kit's
 * temporary folders, a lock no process holds. Every build, an unchanged one (no workspace) too.
 */
export async function sweepLeftovers(outDir: string, log: (line: string) => void): Promise<void> {
  for (const stale of sweepStale(outDir, log)) {
    log(`removed a partial report left behind: ${stale}`);
  }
  const swept = await sweepKitTempDirs();
  if (swept.length) log(`removed ${swept.length} temporary folder(s) of killed reports`);
  sweepStaleLock(outDir);
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
  await sweepLeftovers(outDir, log);
  const dir = tempPathFor(outDir);
  try {
    await Deno.mkdir(dir, { recursive: true });
    await writeFileAtomic(`${dir}/${REPORT_MARKER}`, UNFINISHED_MARKER);
  } catch (e) {
    removeSync(dir);
    // The folder's own problem (read-only, full, forbidden), in the words of every writer,
    // naming the report folder (not the marker that could not be written).
    throw await outputError(e instanceof KitError && e.cause ? e.cause : e, outDir);
  }
  const also: string[] = [];
  const removeAll = () => [dir, ...also].forEach(removeSync);
  // On SIGINT, SIGTERM, SIGHUP or SIGQUIT (lib/io/interrupt.ts then exits with the shell's
  // status); synchronous, so nothing else runs between the signal and the exit.
  const dispose = onInterrupt(() => {
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
      let kept: string | undefined;
      if (hadOld && moveUncarried(old, outDir).length === 0) removeSync(old);
      else if (hadOld) kept = old;
      also.forEach(removeSync);
      dispose();
      return kept;
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
        // Only an earlier failed attempt of the kit is replaced, and only when every file in it
        // is one its manifest shows the kit wrote (a note added while inspecting it stays).
        if (
          st.isDirectory && !st.isSymlink && readMarker(failed).kind === "manifest" &&
          foreignFiles(failed, { folders: true }).length === 0
        ) {
          removeSync(failed);
        }
      } catch { /* none yet */ }
      try {
        Deno.renameSync(dir, failed);
        kept = failed;
      } catch {
        if (existsSync(failed)) {
          log(
            `the failed attempt was not kept: ${failed}/ is there and the kit cannot show it ` +
              "wrote everything in it (left as it is; remove it to keep the next failed attempt)",
          );
        }
        removeSync(dir);
      }
      if (kept) {
        // Its manifest, so that the next failure can show what it may replace (without one,
        // the attempt stays until its user removes it).
        // Its empty folders (a failure before the pages) go: no manifest can list them.
        try {
          removeEmptyFolders(kept);
          replaceFileSync(
            `${kept}/${REPORT_MARKER}`,
            JSON.stringify(manifestOf(kept, "deno task report (failed attempt)"), null, 1) + "\n",
          );
        } catch { /* kept all the same */ }
      }
      dispose();
      return kept;
    },
  };
}

/**
 * `value` with every occurrence of the path `from` in its strings moved to `to`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { relocate } from "./workspace.ts";
 * assert.deepEqual(relocate({ page: "/r.tmp-1-x/html/a.html" }, "/r.tmp-1-x", "/r"), {
 *   page: "/r/html/a.html",
 * });
 * ```
 */
export function relocate<T>(value: T, from: string, to: string): T {
  const json = (s: string) => JSON.stringify(s).slice(1, -1);
  return JSON.parse(JSON.stringify(value).replaceAll(json(from), json(to)));
}

/**
 * After a failed build: keeps the attempt as `<out>.failed/` when a notebook ran in it (a
 * failure while reading the inputs leaves nothing worth keeping) and returns the error with
 * the workspace's paths moved there and a line saying where it is.
 */
export function failedBuild(ws: Workspace, e: unknown, log: (line: string) => void): unknown {
  const full = discardOnFullDisk(ws, e);
  if (full) return full;
  const ran = (() => {
    try {
      return [...Deno.readDirSync(`${ws.dir}/notebooks`)].length > 0;
    } catch {
      return false;
    }
  })();
  if (!ran) {
    ws.discard();
    return e;
  }
  const kept = ws.keepFailed();
  if (!kept) return e;
  const previous = existsSync(ws.outDir) ? "; the previous report is unchanged" : "";
  log(`the failed attempt is kept for inspection: ${kept}/ (replaced by the next failure)`);
  if (!(e instanceof KitError)) return e;
  return new KitError(
    relocate(e.message, ws.dir, kept) +
      `\n(the failed attempt is kept in ${kept}/${previous})`,
    {},
    { cause: e },
  );
}
