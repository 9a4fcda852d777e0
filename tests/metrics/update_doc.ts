/**
 * Rewrites the README's measure list from the measure table:
 * `deno run --allow-all tests/metrics/update_doc.ts`. `doc_test.ts` fails while it is stale.
 *
 * @module
 */
import { writeFileAtomic } from "../../lib/io/atomic.ts";
import { measureMarkdown } from "../../lib/metrics/measures/help.ts";
import { formatMarkdown } from "../faults/matrix.ts";

const BEGIN = "<!-- BEGIN GENERATED measure list by tests/metrics/update_doc.ts: do not edit -->";
const END = "<!-- END GENERATED measure list -->";

/** The README with its measure list generated afresh (formatted as `deno fmt` does). */
export async function readmeWithMeasures(readme: string): Promise<string> {
  const a = readme.indexOf(BEGIN), b = readme.indexOf(END);
  if (a < 0 || b < a) throw new Error(`README.md lacks the markers ${BEGIN} ... ${END}`);
  return await formatMarkdown(
    readme.slice(0, a + BEGIN.length) + "\n\n" + measureMarkdown() + "\n" + readme.slice(b),
  );
}

if (import.meta.main) {
  const path = new URL("../../README.md", import.meta.url).pathname;
  const text = await Deno.readTextFile(path);
  const next = await readmeWithMeasures(text);
  if (next === text) console.error(`${path} is up to date`);
  else {
    await writeFileAtomic(path, next, { force: true });
    console.error(`rewrote ${path}`);
  }
}
