/**
 * Slides made for a room (slide_layout.ts, slides.ts), checked in the machine's Chromium: one
 * idea a slide (heading, headline, formula, one output), no code unless folded on request, the
 * rest of the prose as speaker notes, long outputs cut, and no slide overflowing the 1280×720
 * frame. The check can fail: a deck with an output taller than the frame is named, slide and
 * heading. Then real lesson decks (02, 04, 06 on the bundled samples), built as the report
 * builds them.
 */
import assert from "node:assert/strict";
import { launchBrowser } from "../../lib/report/check/browser.ts";
import { buildReport } from "../../lib/report/build/build.ts";
import { checkSlides, exportSlides, slidesProblems } from "../../lib/report/build/slides.ts";
import { figureBundle } from "../../lib/plot/display.ts";
import { bar } from "../../lib/plot/figures.ts";
import { tableBundle } from "../../lib/plot/table.ts";

const resources = { sanitizeResources: false, sanitizeOps: false };

const markdown = (source: string, tags: string[] = []) => ({
  cell_type: "markdown",
  metadata: { tags },
  source,
});
const code = (source: string, outputs: unknown[] = [], tags: string[] = []) => ({
  cell_type: "code",
  metadata: { tags },
  source,
  execution_count: 1,
  outputs,
});
const display = (data: Record<string, unknown>) => ({
  output_type: "display_data",
  metadata: {},
  data,
});
const nb = (cells: unknown[]) => ({
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { kernelspec: { name: "deno", display_name: "Deno", language: "typescript" } },
  cells,
});

/** A lesson-like notebook: a long table, a long print, a figure, a formula, a solution. */
function lesson(): unknown {
  const rows = Array.from({ length: 40 }, (_, i) => ({ system: `s${i}`, MAP: i / 40 }));
  const fig = bar(["MAP"], [{ name: "a", values: [0.5] }], { yRange: [0, 1], height: 600 });
  return nb([
    markdown("# 1. A lesson\n\nThis lesson measures things. It has more to say here."),
    code('import { table } from "../lib/mod.ts";'),
    markdown(
      "## Scores\n\nEvery system gets a MAP. The table lists them all, the lecturer reads on." +
        "\n\n$$MAP = \\frac{1}{|Q|}\\sum_q AP(q)$$\n\nMore prose for the notes.",
    ),
    code("await display(table(rows));", [display(tableBundle(rows))]),
    markdown("The best system leads.", ["result"]),
    code("for (const r of rows) console.log(r);", [{
      output_type: "stream",
      name: "stdout",
      text: rows.map((r) => JSON.stringify(r)).join("\n") + "\n",
    }]),
    markdown("## A figure\n\nThe figure shows one bar."),
    code("await display(fig);", [
      display(figureBundle(fig, { includeLibrary: true, id: "fig-1" })),
    ]),
    markdown("## Exercises\n\n1. Do this (checked by `tests/exercises/01_x_test.ts`)."),
    markdown("### Exercise 1\n\nSECRET approach.", ["solution"]),
    code('console.log("SECRET");', [{ output_type: "stream", name: "stdout", text: "SECRET\n" }], [
      "solution",
    ]),
  ]);
}

Deno.test({
  name: "slides for a room: no code, notes on every slide, long outputs cut, nothing overflows",
  ...resources,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-room-" });
    const session = await launchBrowser();
    try {
      await Deno.writeTextFile(`${dir}/nb.ipynb`, JSON.stringify(lesson()));
      const made = await exportSlides(`${dir}/nb.ipynb`, `${dir}/plain.html`);
      // title; Scores (table, print: a sub-slide); A figure; Exercises
      assert.deepEqual([made.slides, made.subslides], [4, 1]);
      const html = await Deno.readTextFile(made.html);
      assert.ok(!html.includes('class="jp-CodeMirrorEditor'), "no code on the slides");
      assert.ok(!html.includes("SECRET"), "no solution on the slides");
      assert.match(html, /… 32 more rows on the page/);
      assert.match(html, /more lines on the page/);
      const c = await checkSlides(session, made.html, `${dir}/first.png`);
      assert.deepEqual(slidesProblems(c), []);
      assert.equal(c.totalSlides, 5);
      assert.equal(c.notes, 5, "every slide has speaker notes");
      assert.ok(c.speakerView, "the notes plugin is there: `s` opens the speaker view");
      // the prose beyond the headline is in the notes: before the table, and after it
      const notes = html.match(/<aside class="notes">[\s\S]*?<\/aside>/g) ?? [];
      assert.ok(notes.some((n) => n.includes("More prose for the notes")));
      assert.ok(notes.some((n) => n.includes("The best system leads")));
      assert.deepEqual(c.slideOverflow, []);
      assert.ok((await Deno.stat(`${dir}/first.png`)).size > 0);

      // --slides-code: the code is there, folded
      const folded = await exportSlides(`${dir}/nb.ipynb`, `${dir}/code.html`, { code: true });
      const withCode = await Deno.readTextFile(folded.html);
      const inputs = withCode.split('class="jp-CodeMirrorEditor').length - 1;
      const details = withCode.split('<details class="kit-code">').length - 1;
      assert.ok(inputs >= 3 && inputs === details, `${inputs} code inputs, ${details} folded`);
      assert.deepEqual(slidesProblems(await checkSlides(session, folded.html)), []);
    } finally {
      await session.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "slides for a room: the check fails a slide taller or wider than the frame, by name",
  ...resources,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-room-" });
    const session = await launchBrowser();
    try {
      await Deno.writeTextFile(
        `${dir}/nb.ipynb`,
        JSON.stringify(nb([
          markdown("# Fine\n\nA title."),
          markdown("## Too tall\n\nA box no fitter can cut."),
          code("tall()", [display({ "text/html": '<div style="height:1500px">tall</div>' })]),
          markdown("## Too wide\n\nAnother."),
          code("wide()", [display({ "text/html": '<div style="width:2500px">wide</div>' })]),
        ])),
      );
      const made = await exportSlides(`${dir}/nb.ipynb`, `${dir}/over.html`);
      const c = await checkSlides(session, made.html);
      assert.deepEqual(c.slideOverflow.map((o) => [o.slide, o.heading]), [
        ["1", "Too tall"],
        ["2", "Too wide"],
      ]);
      const problems = slidesProblems(c);
      assert.match(
        problems.join("\n"),
        /slide 1 'Too tall' overflows the 1280×720 frame \(\d+ px below/,
      );
      assert.match(problems.join("\n"), /slide 2 'Too wide' overflows .* \d+ px right\)/);
    } finally {
      await session.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "slides for a room: lessons 02, 04 and 06 built by the report fit the room",
  ...resources,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-room-" });
    const session = await launchBrowser();
    try {
      const r = await buildReport({
        params: { data: "sample" },
        outDir: `${dir}/R`,
        only: ["02", "04", "06"],
        pdf: false,
        log: () => {},
      });
      assert.equal(r.notebooks.length, 3);
      for (const e of r.notebooks) {
        const s = e.slides!;
        const html = await Deno.readTextFile(s.html);
        assert.ok(!html.includes('class="jp-CodeMirrorEditor'), `${e.name}: code shown`);
        assert.deepEqual(s.check.slideOverflow, [], e.name);
        assert.deepEqual(slidesProblems(s.check).filter((p) => /overflow|notes/.test(p)), []);
        assert.equal(s.check.notes, s.check.totalSlides, `${e.name}: a slide without notes`);
        assert.ok((await Deno.stat(`${dir}/R/screenshots/slides-${e.name}.png`)).size > 0);
      }
      // --slides-code (ReportOptions.slidesCode): the same deck with its code folded
      const e = r.notebooks[0];
      const folded = await exportSlides(e.ipynb, `${dir}/code.html`, { code: true });
      const withCode = await Deno.readTextFile(folded.html);
      assert.ok(withCode.includes('<details class="kit-code">'));
      assert.deepEqual((await checkSlides(session, folded.html)).slideOverflow, []);
    } finally {
      await session.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
