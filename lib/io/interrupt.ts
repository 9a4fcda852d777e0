/**
 * What an interrupted command leaves behind. Work in progress that must not outlive the
 * process (an unfinished temporary file, a child process) registers a cleanup here; while
 * anything is registered, SIGINT (Ctrl-C), SIGTERM, SIGHUP and SIGQUIT (Ctrl-\) run every
 * cleanup and end the process with the shell's status for that signal (130, 143, 129, 131). While nothing is
 * registered the signals keep their default action, so Ctrl-C stops a long computation at
 * once (a JavaScript handler would wait for the computation to yield).
 *
 * Cleanups run synchronously, newest first, and must not throw (errors are ignored: a
 * cleanup that fails must not keep the next from running).
 *
 * @module
 */

/** The signals that end a command, with the exit status a shell reports for each. */
export const INTERRUPT_SIGNALS: readonly { signal: Deno.Signal; status: number }[] = [
  { signal: "SIGINT", status: 130 },
  { signal: "SIGTERM", status: 143 },
  { signal: "SIGHUP", status: 129 },
  // Ctrl-\ : its default action (a core dump) would leave the temporary files too.
  { signal: "SIGQUIT", status: 131 },
];

const cleanups = new Set<{ run: () => void; note?: string }>();
const listeners = new Map<Deno.Signal, () => void>();

function install(): void {
  for (const { signal, status } of INTERRUPT_SIGNALS) {
    if (listeners.has(signal)) continue;
    const listener = () => interrupted(signal, status);
    try {
      Deno.addSignalListener(signal, listener);
      listeners.set(signal, listener);
    } catch {
      // Not supported on this platform (Windows has SIGINT and SIGBREAK only).
    }
  }
}

function uninstall(): void {
  for (const [signal, listener] of listeners) {
    try {
      Deno.removeSignalListener(signal, listener);
    } catch { /* already gone */ }
  }
  listeners.clear();
}

/** Runs every registered cleanup (newest first) and returns the notes of those that had one. */
export function runCleanups(): string[] {
  const notes: string[] = [];
  for (const c of [...cleanups].reverse()) {
    cleanups.delete(c);
    try {
      c.run();
      if (c.note) notes.push(c.note);
    } catch { /* keep going: the next cleanup must still run */ }
  }
  uninstall();
  return notes;
}

function interrupted(signal: Deno.Signal, status: number): void {
  const notes = runCleanups();
  const what = notes.length ? `: ${notes.join("; ")}` : "";
  try {
    console.error(`interrupted (${signal})${what}`);
  } catch { /* stderr closed */ }
  Deno.exit(status);
}

/**
 * Registers `cleanup` to run if the process is interrupted; returns the function that
 * unregisters it (call it once the work is finished or undone). `note` is printed on stderr
 * when the cleanup ran (e.g. "removed the unfinished out.run.tmp-...").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { onInterrupt, pendingCleanups } from "./interrupt.ts";
 * const done = onInterrupt(() => {});
 * assert.equal(pendingCleanups(), 1);
 * done();
 * assert.equal(pendingCleanups(), 0);
 * ```
 */
export function onInterrupt(cleanup: () => void, note?: string): () => void {
  const entry = { run: cleanup, note };
  cleanups.add(entry);
  install();
  return () => {
    cleanups.delete(entry);
    if (cleanups.size === 0) uninstall();
  };
}

/**
 * Registers a path (file or folder) to be removed if the process is interrupted; returns the
 * function that unregisters it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pendingCleanups, removeOnInterrupt } from "./interrupt.ts";
 * const done = removeOnInterrupt("/tmp/never-written.tmp");
 * assert.equal(pendingCleanups(), 1);
 * done();
 * ```
 */
export function removeOnInterrupt(path: string): () => void {
  return onInterrupt(() => {
    try {
      Deno.removeSync(path, { recursive: true });
    } catch { /* already gone */ }
  }, `removed the unfinished ${path}`);
}

/**
 * How many cleanups are registered (for tests and diagnostics).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pendingCleanups } from "./interrupt.ts";
 * assert(pendingCleanups() >= 0);
 * ```
 */
export function pendingCleanups(): number {
  return cleanups.size;
}
