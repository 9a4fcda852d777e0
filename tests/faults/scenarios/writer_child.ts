/**
 * A real process halfway through an atomic write, for the interrupt scenarios: it writes the
 * first half of `argv[0]` through `writeFileAtomic` (with `--force`), says `halfway` on
 * stdout, then waits a minute before the second half, long enough for any signal.
 *
 * @module
 */
import { writeFileAtomic } from "../../../lib/io/atomic.ts";

async function* halves(): AsyncGenerator<string> {
  yield "first half\n";
  console.log("halfway");
  await new Promise((r) => setTimeout(r, 60_000));
  yield "second half\n";
}

if (import.meta.main) await writeFileAtomic(Deno.args[0], halves(), { force: true });
