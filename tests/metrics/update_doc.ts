/**
 * Rewrites docs/measures.md's measure list from the measure table:
 * `deno run --allow-all tests/metrics/update_doc.ts`. `doc_test.ts` fails while it is stale.
 *
 * @module
 */
import { writeFileAtomic } from "../../lib/io/atomic.ts";
import { measureMarkdown } from "../../lib/metrics/measures/help.ts";
import { formatMarkdown } from "../faults/matrix.ts";

const BEGIN = "<!-- BEGIN GENERATED measure list by tests/metrics/update_doc.ts: do not edit -->";
const END = "<!-- END GENERATED measure list -->";

/** docs/measures.md with its measure list generated afresh (formatted as `deno fmt` does). */
export async function withMeasures(doc: string): Promise<string> {
  const a = doc.indexOf(BEGIN), b = doc.indexOf(END);
  if (a < 0 || b < a) throw new Error(`docs/measures.md lacks the markers ${BEGIN} ... ${END}`);
  return await formatMarkdown(
    doc.slice(0, a + BEGIN.length) + "\n\n" + measureMarkdown() + "\n" + doc.slice(b),
  );
}

if (import.meta.main) {
  const path = new URL("../../docs/measures.md", import.meta.url).pathname;
  const text = await Deno.readTextFile(path);
  const next = await withMeasures(text);
  if (next === text) console.error(`${path} is up to date`);
  else {
    await writeFileAtomic(path, next, { force: true });
    console.error(`rewrote ${path}`);
  }
}
