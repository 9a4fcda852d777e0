/**
 * Every reader against every bad input that applies to it (see matrix.ts): BOM, CRLF, gzip
 * and a missing final newline must read exactly like the clean file; everything else must be
 * a `KitError` (or a checker error of the QRCD run file) naming the file, the line, and what
 * was expected. `docs/bad-input.md` is generated from the same matrix and checked here.
 */
import { assert, assertEquals } from "../assert.ts";
import {
  FAULTS,
  formatMarkdown,
  generatedParts,
  READERS,
  runMatrix,
  spliceDoc,
  summaryParts,
} from "./matrix.ts";

const { cells, clean } = await runMatrix();

for (const reader of READERS) {
  Deno.test(`bad input matrix: ${reader.title}`, () => {
    const base = clean.get(reader)!;
    assert(base.kind === "ok", `the clean ${reader.title} file must read: ${JSON.stringify(base)}`);
    for (const { id, label } of FAULTS) {
      const expect = reader.cases[id];
      const cell = cells.find((c) => c.reader === reader && c.fault === id)!;
      const o = cell.outcome;
      const what = `${reader.title} / ${label}`;
      if ("bug" in expect && expect.bug) continue; // asserted by the ignored test below
      if ("na" in expect) {
        assertEquals(o.kind, "na", what);
      } else if ("reads" in expect) {
        assert(o.kind === "ok", `${what}: expected it to read, got ${JSON.stringify(o)}`);
      } else if ("ok" in expect) {
        assert(o.kind === "ok", `${what}: expected it to read, got ${JSON.stringify(o)}`);
        assertEquals(o.value, base.value, `${what}: must give the clean file's result`);
      } else {
        assert(o.kind === "error", `${what}: expected an error, got ${JSON.stringify(o)}`);
        assert(o.kitError, `${what}: expected a KitError, got ${o.name}: ${o.message}`);
        assertEquals(o.file, cell.path, `${what}: the error must name the file`);
        assertEquals(o.line, expect.line, `${what}: wrong line in '${o.message}'`);
        assert(
          expect.says.test(o.message),
          `${what}: '${o.message}' does not match ${expect.says}`,
        );
        // The message itself carries the location, as the CLI prints it.
        const where = expect.line === undefined
          ? `${reader.fileName}: `
          : `${reader.fileName}:${expect.line}: `;
        assert(o.message.includes(where), `${what}: '${o.message}' lacks '${where}'`);
      }
    }
  });
}

// Known bugs in files this area may not edit: each cell's expectation as an ignored test,
// failing today; the doc shows what happens now.
for (const reader of READERS) {
  for (const { id, label } of FAULTS) {
    const expect = reader.cases[id];
    if (!("bug" in expect) || !expect.bug) continue;
    const cell = cells.find((c) => c.reader === reader && c.fault === id)!;
    Deno.test({
      name: `KNOWN BUG ${reader.title} / ${label}: ${expect.bug}`,
      ignore: true,
      fn() {
        const o = cell.outcome;
        assert(o.kind === "error" && o.kitError, `${JSON.stringify(o)}`);
        assertEquals(o.line, expect.line);
        assert(expect.says.test(o.message), o.message);
      },
    });
  }
}

Deno.test("docs/bad-input.md holds the summary table this matrix produces", async () => {
  const path = new URL("../../docs/bad-input.md", import.meta.url);
  const doc = await Deno.readTextFile(path);
  assertEquals(
    doc,
    await formatMarkdown(spliceDoc(doc, summaryParts(cells))),
    "docs/bad-input.md's summary table is out of date: run deno run --allow-all tests/faults/update_doc.ts",
  );
});

Deno.test("docs/bad-input.md holds the table this matrix produces", async () => {
  const path = new URL("../../docs/bad-input.md", import.meta.url);
  const doc = await Deno.readTextFile(path);
  assertEquals(
    doc,
    await formatMarkdown(spliceDoc(doc, generatedParts(cells))),
    "docs/bad-input.md is out of date: run deno run --allow-all tests/faults/update_doc.ts",
  );
});
