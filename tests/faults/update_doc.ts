/**
 * Rewrites the generated tables of `docs/bad-input.md` from the bad-input matrix and the fuzz
 * configuration: `deno run --allow-all tests/faults/update_doc.ts`.
 *
 * @module
 */
import { writeFileAtomic } from "../../lib/io/atomic.ts";
import { formatMarkdown, generatedParts, readmeParts, runMatrix, spliceDoc } from "./matrix.ts";

if (import.meta.main) {
  const path = new URL("../../docs/bad-input.md", import.meta.url).pathname;
  const doc = await Deno.readTextFile(path);
  const { cells } = await runMatrix();
  const next = await formatMarkdown(spliceDoc(doc, generatedParts(cells)));
  if (next === doc) console.error(`${path} is up to date`);
  else {
    await writeFileAtomic(path, next, { force: true });
    console.error(`rewrote ${path}`);
  }
  const readme = new URL("../../README.md", import.meta.url).pathname;
  const text = await Deno.readTextFile(readme);
  const nextReadme = await formatMarkdown(spliceDoc(text, readmeParts(cells)));
  if (nextReadme !== text) {
    await writeFileAtomic(readme, nextReadme, { force: true });
    console.error(`rewrote ${readme}`);
  }
}
