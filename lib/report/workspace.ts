/**
 * Where a report is built: a new folder beside the target (`<out>.tmp-<pid>-<random>`), swapped
 * in only when the build is complete, so a failing cell, a failed check or an interrupt leaves
 * the previous report whole. Ctrl-C (SIGINT), SIGTERM and SIGHUP stop every process the build
 * started (the notebook runner, its Jupyter kernel, Chromium) and remove the partial folder
 * and the temporary files; folders left by a build that was killed outright (SIGKILL, a power
 * cut) are swept by the next build of the same report.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { exists, writeFileAtomic } from "../io/atomic.ts";
import { dirname } from "../io/path.ts";
import { isRunning, stopDescendants } from "./process_tree.ts";

/** The file that marks a folder as a report the kit made (and may replace). */
export const REPORT_MARKER = ".kit-report";

/** The signals that end a build cleanly, with the exit status a shell reports for each. */
const SIGNALS: readonly [Deno.Signal, number][] = [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
];

/**
 * Refuses to replace what the kit did not make: the report's folder is replaced, so
 * `--out ~/somewhere` must not wipe a user's files, and `--out /dev/null` must not replace a
 * device. A folder qualifies when it holds `.kit-report` or is empty, or with `force`.
 */
export async function checkReplaceable(dir: string, force: boolean): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(dir);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return;
    throw e;
  }
  if (info.isSymlink) {
    throw new KitError(
      "the report folder is a symbolic link; give the folder it points to as --out",
      { file: dir },
    );
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

function base(path: string): string {
  return path.replace(/\/+$/, "").replace(/^.*\//, "");
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Removes build folders of `outDir` left by builds that are no longer running (their pid,
 * in the name, is gone). Returns the folders removed.
 */
export async function sweepStale(outDir: string): Promise<string[]> {
  const parent = dirname(outDir);
  const pattern = new RegExp(`^${escapeRegExp(base(outDir))}\\.tmp-(\\d+)-`);
  const removed: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(parent)];
  } catch {
    return removed;
  }
  for (const e of entries) {
    const m = pattern.exec(e.name);
    if (!m || isRunning(Number(m[1]))) continue;
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
  /** Puts the finished report in place of the old one (which is then removed). */
  swapIn(): Promise<void>;
  /** Removes the workspace (after a failure); the old report is untouched. */
  discard(): Promise<void>;
  /** Removes the signal handlers. */
  close(): void;
  /** True once a signal arrived (the handler then stops everything and exits). */
  readonly interrupted: boolean;
}

function suffix(): string {
  const r = crypto.getRandomValues(new Uint32Array(1))[0].toString(36);
  return `${Deno.pid}-${r}`;
}

/**
 * Opens a workspace for `outDir`: sweeps stale ones, creates `<outDir>.tmp-<pid>-<random>`
 * with the report marker, and installs the interrupt handlers (stop the processes, remove the
 * workspace and `also`, exit with 128 + the signal's number).
 */
export async function openWorkspace(
  outDir: string,
  options: { log?: (line: string) => void } = {},
): Promise<Workspace> {
  const log = options.log ?? ((s: string) => console.error(s));
  for (const stale of await sweepStale(outDir)) {
    log(`removed a partial report left behind: ${stale}`);
  }
  const dir = `${outDir.replace(/\/+$/, "")}.tmp-${suffix()}`;
  await Deno.mkdir(dir, { recursive: true });
  await writeFileAtomic(`${dir}/${REPORT_MARKER}`, "made by deno task report\n");
  const also: string[] = [];
  let swapping = false;
  let pendingExit: number | undefined;

  const removeAll = () => {
    for (const p of [dir, ...also]) {
      try {
        Deno.removeSync(p, { recursive: true });
      } catch { /* gone */ }
    }
  };
  // Synchronous from the signal to the exit: nothing else runs in between.
  const handlers = SIGNALS.map(([sig, status]) => {
    const handler = () => {
      if (pendingExit !== undefined) return; // a second Ctrl-C
      pendingExit = status;
      if (swapping) return; // swapIn finishes the swap, then exits with this status
      log(`\n${sig}: stopping the notebook runner, its kernel and the browser; removing ${dir}`);
      // The runner is killed outright: asked to stop, nbclient would shut its kernel down and
      // the runner would start the notebook again in a new one.
      stopDescendants({ killFirst: (d) => d.argv.some((a) => a.endsWith("run_notebook.py")) });
      removeAll();
      Deno.exit(status);
    };
    Deno.addSignalListener(sig, handler);
    return [sig, handler] as const;
  });

  return {
    dir,
    outDir,
    also,
    async swapIn() {
      swapping = true;
      const old = `${outDir.replace(/\/+$/, "")}.tmp-${suffix()}-old`;
      const hadOld = await exists(outDir);
      if (hadOld) await Deno.rename(outDir, old);
      try {
        await Deno.rename(dir, outDir);
      } catch (e) {
        if (hadOld) await Deno.rename(old, outDir);
        throw e;
      }
      if (hadOld) await Deno.remove(old, { recursive: true });
      for (const p of also) await Deno.remove(p, { recursive: true }).catch(() => {});
      swapping = false;
      if (pendingExit !== undefined) Deno.exit(pendingExit);
    },
    discard() {
      removeAll();
      return Promise.resolve();
    },
    close() {
      for (const [sig, handler] of handlers) Deno.removeSignalListener(sig, handler);
    },
    get interrupted() {
      return pendingExit !== undefined;
    },
  };
}
