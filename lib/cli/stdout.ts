/**
 * Standard output of the commands. A reader that stops reading (`| head -1`, a closed pager)
 * is not an error: like other Unix tools the command ends quietly with status 0. Writes go
 * through {@link writeStdout}, which turns the broken pipe into `ReaderClosed`
 * (lib/io/output.ts, also thrown by `--out /dev/stdout` and FIFOs); `main` ends the command
 * on it. (`console.log` already ignores a broken pipe.)
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { outputError, ReaderClosed } from "../io/output.ts";

/**
 * What a failed write to standard output means: a reader gone (`ReaderClosed`, a quiet exit)
 * or a failure of what stdout leads to (`> /dev/full`, a full disk behind `> file`): a
 * `KitError` naming `<stdout>`. Anything else is returned as it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stdoutError } from "./stdout.ts";
 * const full = Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" });
 * assert.match(((await stdoutError(full)) as Error).message, /^<stdout>: cannot write: the disk is full/);
 * ```
 */
export async function stdoutError(e: unknown): Promise<unknown> {
  if (e instanceof Deno.errors.BrokenPipe) return new ReaderClosed("<stdout>", { cause: e });
  if (typeof (e as { code?: unknown })?.code === "string" && !(e instanceof KitError)) {
    return await outputError(e, "<stdout>");
  }
  return e;
}

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

/**
 * Writes all of `text` to standard output; throws `ReaderClosed` when the reader has gone.
 *
 * @example
 * ```ts
 * import { writeStdout } from "./stdout.ts";
 * await writeStdout("");
 * ```
 */
export async function writeStdout(text: string | Uint8Array): Promise<void> {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  let off = 0;
  try {
    while (off < bytes.length) off += await Deno.stdout.write(bytes.subarray(off));
  } catch (e) {
    throw await stdoutError(e);
  }
}
