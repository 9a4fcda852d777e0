/**
 * Standard output of the commands. A reader that stops reading (`| head -1`, a closed pager)
 * is not an error: like other Unix tools the command ends quietly with status 0. Writes go
 * through {@link writeStdout}, which turns the broken pipe into `ReaderClosed`
 * (lib/io/output.ts, also thrown by `--out /dev/stdout` and FIFOs); `main` ends the command
 * on it. (`console.log` already ignores a broken pipe.)
 *
 * @module
 */
import { ReaderClosed } from "../io/output.ts";

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
    if (e instanceof Deno.errors.BrokenPipe) throw new ReaderClosed("<stdout>", { cause: e });
    throw e;
  }
}
