/**
 * A real process halfway through an atomic write, for the interrupt scenarios: it writes the
 * first half of `argv[0]` through `writeFileAtomic` (with `--force`), says `halfway` on
 * stdout, then waits for its standard input to end before the second half: it stays halfway
 * until its parent closes that pipe (or ends), however late the signal comes.
 *
 * @module
 */
import { writeFileAtomic } from "../../../lib/io/atomic.ts";

async function* halves(): AsyncGenerator<string> {
  yield "first half\n";
  console.log("halfway");
  for await (const _ of Deno.stdin.readable) { /* nothing is written to it */ }
  yield "second half\n";
}

if (import.meta.main) await writeFileAtomic(Deno.args[0], halves(), { force: true });
