/**
 * Slides made for a room (slide_layout.ts, slides.ts), checked in the machine's Chromium: one
 * idea a slide (heading, headline, formula, one output), no code unless folded on request, the
 * rest of the prose as speaker notes, long outputs cut, and no slide overflowing the 1280×720
 * frame. The check can fail: a deck with an output taller than the frame is named, slide and
 * heading. Then real lesson decks (02, 04, 06 on the bundled samples), built as the report
 * builds them.
 */
import assert from "node:assert/strict";
import { launchBrowser, offlinePage } from "../../lib/report/check/browser.ts";
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

/**
 * A lesson-like notebook: a parameters table under the title, a long table, a long print, a
 * table of 20 rows, a figure with a long code cell, a formula in the notes, a Markdown cell
 * holding two headings (Summary and Exercises), a solution.
 */
function lesson(): unknown {
  const rows = Array.from({ length: 40 }, (_, i) => ({ system: `s${i}`, MAP: i / 40 }));
  const seeds = Array.from({ length: 20 }, (_, i) => ({ seed: i, MAP: 0.5 + i / 100, p: 0.01 }));
  const fig = bar(["MAP"], [{ name: "a", values: [0.5] }], { yRange: [0, 1], height: 600 });
  const longCode = Array.from({ length: 80 }, (_, i) => `const x${i} = ${i};`).join("\n");
  return nb([
    markdown("# 1. A lesson\n\nThis lesson measures things. It has more to say here."),
    code('import { table } from "../lib/mod.ts";', [
      display(tableBundle([{ parameter: "dir", value: "/work/main/data/cache/qqa23" }])),
    ]),
    markdown(
      "## Scores\n\nEvery system gets a MAP. The table lists them all, the lecturer reads on." +
        "\n\n$$MAP = \\frac{1}{|Q|}\\sum_q AP(q)$$\n\nMore prose for the notes, with $x^2$.",
    ),
    code("await display(table(rows));", [display(tableBundle(rows))]),
    markdown("The best system leads.", ["result"]),
    code("for (const r of rows) console.log(r);", [{
      output_type: "stream",
      name: "stdout",
      text: rows.map((r) => JSON.stringify(r)).join("\n") + "\n",
    }]),
    markdown("## Twenty seeds\n\nEach seed gives a MAP; the last row is the one that decides."),
    code("await display(table(seeds));", [
      display(tableBundle(seeds, { caption: "MAP per seed" })),
    ]),
    markdown("Prose that closes the seeds.\n\n## A figure\n\nThe figure shows one bar."),
    code(longCode, [display(figureBundle(fig, { includeLibrary: true, id: "fig-1" }))]),
    markdown(
      "## Summary\n\n- SUMMARY-ONE holds.\n- SUMMARY-TWO holds.\n\n## Exercises\n\n" +
        "Answers are checked in `tests/exercises/01_x_test.ts`.\n\n1. EXERCISE-ONE.\n2. EXERCISE-TWO.",
    ),
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
      // title; Scores (table, print: a sub-slide); Twenty seeds; A figure; Summary; Exercises
      assert.deepEqual([made.slides, made.subslides], [6, 1]);
      const html = await Deno.readTextFile(made.html);
      assert.match(html, /<title>1\. A lesson<\/title>/, "the deck is named by the lesson's title");
      assert.ok(!html.includes('class="jp-CodeMirrorEditor'), "no code on the slides");
      assert.ok(!html.includes("SECRET"), "no solution on the slides");
      assert.ok(!html.includes("/work/main/data"), "the parameters table is left to the page");
      assert.match(html, /… 10 more rows on the page/);
      assert.match(html, /… 10 more lines on the page/);
      assert.ok(!html.includes("the code that made it is on the page"), "a placeholder note");
      const c = await checkSlides(session, made.html, `${dir}/first.png`);
      assert.deepEqual(slidesProblems(c), []);
      assert.equal(c.totalSlides, 7);
      assert.equal(c.notes, 7, "every slide has speaker notes");
      assert.ok(c.speakerView, "the notes plugin is there: `s` opens the speaker view");
      // the prose beyond the headline is in the notes: before the table, and after it
      const notes = html.match(/<aside class="notes">[\s\S]*?<\/aside>/g) ?? [];
      assert.ok(notes.some((n) => n.includes("More prose for the notes")));
      assert.ok(notes.some((n) => n.includes("The best system leads")));
      // an output with no prose of its own: the section's headline as its notes
      assert.ok(notes.some((n) => n.includes("Every system gets a MAP.")));
      assert.deepEqual(c.slideOverflow, []);
      assert.ok((await Deno.stat(`${dir}/first.png`)).size > 0);
      // a table of 20 short rows fits whole (shrunk, not cut); the long ones are cut
      const cut = (c.truncated ?? []).map((t) => t.heading);
      assert.ok(!cut.some((h) => h.startsWith("Twenty seeds")), JSON.stringify(c.truncated));
      assert.ok(cut.some((h) => h.startsWith("Scores")), JSON.stringify(c.truncated));
      // each heading of one Markdown cell starts its own slide, which shows its list
      const { page } = await offlinePage(session);
      try {
        await page.setViewportSize({ width: 1280, height: 720 });
        await page.goto(`file://${made.html}`);
        await page.waitForFunction(`document.body.getAttribute("data-kit-slides") === "ready"`);
        const shown = await page.evaluate(`Reveal.getSlides().map((s) => {
          const c = s.cloneNode(true);
          c.querySelectorAll("aside.notes").forEach((a) => a.remove());
          return c.textContent.replace(/\\s+/g, " ");
        })`) as string[];
        const at = (h: string) => shown.find((t) => t.trim().startsWith(h)) ?? "";
        assert.match(at("Summary"), /SUMMARY-ONE[\s\S]*SUMMARY-TWO/);
        assert.ok(!at("Summary").includes("EXERCISE"), "Exercises is a slide of its own");
        assert.match(at("Exercises"), /EXERCISE-ONE[\s\S]*EXERCISE-TWO/);
        assert.ok(!at("A figure").includes("closes the seeds"));
        assert.ok(at("1. A lesson").includes("This lesson measures things."));
        // formulas in the notes show once in the speaker view: KaTeX's HTML hidden inline
        const katex = await page.evaluate(`[...document.querySelectorAll("aside.notes .katex")]
          .map((k) => k.querySelector(".katex-html").style.display)`) as string[];
        assert.ok(katex.length > 0 && katex.every((d) => d === "none"), String(katex));
      } finally {
        await page.close();
      }

      // --slides-code: the code is there, folded
      const folded = await exportSlides(`${dir}/nb.ipynb`, `${dir}/code.html`, { code: true });
      const withCode = await Deno.readTextFile(folded.html);
      const inputs = withCode.split('class="jp-CodeMirrorEditor').length - 1;
      const details = withCode.split('<details class="kit-code">').length - 1;
      assert.ok(inputs >= 3 && inputs === details, `${inputs} code inputs, ${details} folded`);
      // closed, a <details> is its summary line: the 80 lines of code do not overflow
      assert.deepEqual(slidesProblems(await checkSlides(session, folded.html)), []);
      // opened, the code lies in a box that scrolls, inside the frame
      const { page: opened } = await offlinePage(session);
      try {
        await opened.setViewportSize({ width: 1280, height: 720 });
        await opened.goto(`file://${folded.html}`);
        await opened.waitForFunction(`document.body.getAttribute("data-kit-slides") === "ready"`);
        const box = await opened.evaluate(`(async () => {
          const s = Reveal.getSlides().find((s) => s.textContent.includes("x79"));
          const { h, v } = Reveal.getIndices(s);
          Reveal.slide(h, v);
          await window.kitFitSlide(s);
          const d = [...s.querySelectorAll("details.kit-code")].find((d) =>
            d.textContent.includes("x79"));
          d.open = true;
          await new Promise((r) => setTimeout(r, 200));
          const b = d.querySelector(":scope > div");
          const r = b.getBoundingClientRect(), f = document.querySelector(".reveal .slides")
            .getBoundingClientRect();
          return { scrolls: b.scrollHeight > b.clientHeight + 10, inside: r.bottom <= f.bottom + 1 &&
            r.top >= f.top - 1, overflowY: getComputedStyle(b).overflowY };
        })()`);
        assert.deepEqual(box, { scrolls: true, inside: true, overflowY: "auto" });
      } finally {
        await opened.close();
      }
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
