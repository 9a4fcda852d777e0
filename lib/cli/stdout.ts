/**
 * Standard output of the commands. A reader that stops reading (`| head -1`, a closed pager)
 * is not an error: like other Unix tools the command ends quietly with status 0. Writes go
 * through {@link writeStdout}, which turns the broken pipe into `ReaderClosed`
 * (lib/io/output.ts, also thrown by `--out /dev/stdout` and FIFOs); `main` ends the command
 * on it. (`console.log` already ignores a broken pipe.)
 *
 * @module
 */
// The writers live with the other outputs (lib/io/output.ts), so that library writers of `-` share them.
import { stdoutError, writeStdout } from "../io/output.ts";
export { stdoutError, writeStdout };

/**
 * Makes `console.log` report a failing standard output (see {@link stdoutError}) as the
 * commands' errors are reported, instead of a stack trace; returns the function that undoes
 * it. `main` does this around every command.
 *
 * @example
 * ```ts
 * import { guardConsoleLog } from "./stdout.ts";
 * const restore = guardConsoleLog();
 * restore();
 * ```
 */
export function guardConsoleLog(): () => void {
  const original = console.log;
  console.log = (...args: unknown[]) => {
    try {
      original(...args);
    } catch (e) {
      throw new StdoutFailure(e);
    }
  };
  return () => {
    console.log = original;
  };
}

/** A `console.log` that failed; `main` turns it into the command's error. */
export class StdoutFailure extends Error {
  constructor(readonly failure: unknown) {
    super(`standard output failed: ${(failure as Error)?.message ?? failure}`);
    this.name = "StdoutFailure";
  }
}
