/**
 * The lessons against their one list (`LESSONS`, lib/report/build/lessons.ts): the folder holds exactly
 * them (and notebook 00), each has its exercises' test and ends with a summary and exercises, each
 * fits a 90-minute class by the estimate, every formula in their Markdown parses (KaTeX, the
 * renderer of the report's pages), every code line fits the page (100 columns), prose stays in
 * Markdown cells, and docs/notebooks.md lists them with their current lengths.
 */
import assert from "node:assert/strict";
import katex from "npm:katex@0.19.1";
import { CLASS_MINUTES, lessonLength, LESSONS } from "../../lib/report/build/lessons.ts";
import { RELEASED_RUN_SCORES } from "../../lib/report/systems/published.ts";
import { NOTEBOOKS_DOC, updatedDoc } from "./update_lessons_doc.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const SYSTEMS = "00-your-systems.ipynb";

interface Cell {
  cell_type: string;
  source: string | string[];
}
const text = (s: string | string[]) => Array.isArray(s) ? s.join("") : s;
const read = (file: string) =>
  JSON.parse(Deno.readTextFileSync(`${ROOT}notebooks/${file}`)) as { cells: Cell[] };

Deno.test("lessons: notebooks/ holds exactly the listed lessons and notebook 00", () => {
  const files = [...Deno.readDirSync(`${ROOT}notebooks`)].map((e) => e.name)
    .filter((n) => n.endsWith(".ipynb")).sort();
  assert.deepEqual(files, [SYSTEMS, ...LESSONS.map((l) => l.file)].sort());
});

Deno.test("lessons: each has a summary, exercises and the test that checks their answers", () => {
  for (const l of LESSONS) {
    const md = read(l.file).cells.filter((c) => c.cell_type === "markdown").map((c) =>
      text(c.source)
    )
      .join("\n");
    assert.match(md, /^## Summary$/m, `${l.file}: a summary`);
    assert.match(md, /^## Exercises$/m, `${l.file}: exercises`);
    assert.ok(lessonLength(read(l.file)).exercises >= 2, `${l.file}: at least 2 exercises`);
    const test = Deno.readTextFileSync(`${ROOT}${l.exercises}`);
    assert.match(test, new RegExp(`notebook ${l.file.slice(0, 2)}|${l.file}`), l.exercises);
    assert.ok(md.includes(l.exercises), `${l.file} names ${l.exercises}`);
  }
});

Deno.test(`lessons: each fits a ${CLASS_MINUTES}-minute class`, () => {
  for (const l of LESSONS) {
    const n = lessonLength(read(l.file));
    assert.ok(n.minutes <= CLASS_MINUTES, `${l.file}: ${n.minutes} min (${JSON.stringify(n)})`);
  }
});

/** The formulas of a Markdown text: `$$...$$` and `$...$` (code spans and blocks left out). */
function formulas(md: string): { tex: string; display: boolean }[] {
  const prose = md.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  const found: { tex: string; display: boolean }[] = [];
  const rest = prose.replace(/\$\$([\s\S]+?)\$\$/g, (_, tex) => {
    found.push({ tex, display: true });
    return "";
  });
  for (const m of rest.matchAll(/\$([^$\n]+?)\$/g)) found.push({ tex: m[1], display: false });
  return found;
}

Deno.test("lessons: every formula parses (KaTeX, as the pages render it)", () => {
  let count = 0;
  for (const file of [SYSTEMS, ...LESSONS.map((l) => l.file)]) {
    for (const [i, c] of read(file).cells.entries()) {
      if (c.cell_type !== "markdown") continue;
      for (const f of formulas(text(c.source))) {
        count++;
        assert.doesNotThrow(
          () => katex.renderToString(f.tex, { displayMode: f.display, throwOnError: true }),
          `${file} cell ${i}: ${f.tex}`,
        );
      }
    }
  }
  assert.ok(count >= 40, `only ${count} formulas found: is the scan right?`);
  assert.throws(() => katex.renderToString("\\frac{1}{", { throwOnError: true })); // it can fail
});

Deno.test("lessons: every code line fits the page (100 columns)", () => {
  for (const file of [SYSTEMS, ...LESSONS.map((l) => l.file)]) {
    for (const [i, c] of read(file).cells.entries()) {
      if (c.cell_type !== "code") continue;
      for (const line of text(c.source).split("\n")) {
        assert.ok(line.length <= 100, `${file} cell ${i}: ${line.length} columns: ${line}`);
      }
    }
  }
});

Deno.test("lessons: prose lives in Markdown cells, not in strings shown by markdown()", () => {
  for (const l of LESSONS) {
    for (const [i, c] of read(l.file).cells.entries()) {
      const code = text(c.source);
      if (c.cell_type !== "code" || !/\bmarkdown\(/.test(code)) continue;
      // markdown() may show data (a file's lines in a code block), not sentences
      assert.match(
        code,
        /```|\\`\\`\\`/,
        `${l.file} cell ${i} builds prose in a string: move it to Markdown`,
      );
    }
  }
});

Deno.test("lessons: docs/notebooks.md lists every lesson and its current length", async () => {
  const doc = await Deno.readTextFile(NOTEBOOKS_DOC);
  for (const l of LESSONS) assert.ok(doc.includes(`\`${l.file}\``), `docs/notebooks.md: ${l.file}`);
  assert.equal(
    doc,
    await updatedDoc(doc),
    "docs/notebooks.md's lesson table is stale: deno run -A tests/report/update_lessons_doc.ts",
  );
});

Deno.test("lesson 04 names the released CNN-Cnt file and the command the kit's table gives", () => {
  const md = read("04-metrics.ipynb").cells.filter((c) => c.cell_type === "markdown")
    .map((c) => text(c.source)).join("\n");
  const cnn = RELEASED_RUN_SCORES.find((r) => r.system === "CNN-Cnt")!;
  assert.ok(md.includes(cnn.file), "the file's path");
  for (const v of [cnn.measured.map, cnn.measured.mrr, cnn.published.map, cnn.published.mrr]) {
    assert.ok(md.includes(v.toFixed(4)), `${v.toFixed(4)} in the text`);
  }
  // the command in the text is the table's, line continuation aside
  const command = /```sh\n([\s\S]*?)```/.exec(md.slice(md.indexOf(cnn.file)))![1];
  assert.equal(command.replace(/\\\n\s*/g, "").trim(), cnn.command);
});
