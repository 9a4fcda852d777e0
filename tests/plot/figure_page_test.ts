/**
 * How figures find plotly.js on a page, in headless Chromium: figures shown before the copy
 * of the library wait for it (cells run out of order), a second copy does not replace the
 * first, a page without any copy says so in each figure instead of an empty box, and a
 * viewer that runs no scripts shows the note.
 */
import assert from "node:assert/strict";
import { bar, figureBundle } from "../../lib/plot/mod.ts";
import { NOTE_NO_LIBRARY, NOTE_NO_SCRIPTS } from "../../lib/plot/display.ts";
import { launchBrowser, offlinePage } from "../../lib/report/check/browser.ts";
import { FIGURE_MARKS, type FigureCheck } from "../../lib/report/check/check.ts";

const fig = (name: string) => bar(["MAP"], [{ name, values: [0.5] }], { title: name });
const html = (name: string, library: boolean) =>
  figureBundle(fig(name), { includeLibrary: library, id: name })["text/html"] as string;

async function page(body: string): Promise<string> {
  const file = await Deno.makeTempFile({ suffix: ".html" });
  await Deno.writeTextFile(file, `<!doctype html><meta charset="utf-8"><body>${body}</body>`);
  return file;
}

Deno.test({
  name: "figure pages: out-of-order library, a second copy, no copy, no scripts",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const session = await launchBrowser();
    const files: string[] = [];
    try {
      // A figure before the carrier, the carrier, a second carrier.
      files.push(
        await page(
          html("early", false) + html("carrier", true) +
            `<script>window.firstPlotly = window.Plotly;</script>` + html("again", true),
        ),
      );
      const { page: p1, log } = await offlinePage(session);
      await p1.goto(`file://${files[0]}`);
      await p1.waitForFunction(`document.querySelectorAll("svg.main-svg").length >= 3`);
      const drawn = await p1.evaluate(FIGURE_MARKS) as FigureCheck[];
      assert.deepEqual(drawn.map((f) => [f.id, f.svg, f.marks > 0]), [
        ["early", true, true],
        ["carrier", true, true],
        ["again", true, true],
      ]);
      assert.equal(await p1.evaluate("window.Plotly === window.firstPlotly"), true);
      assert.deepEqual(log.pageErrors, []);
      await p1.close();

      // No copy anywhere: after the wait the note says what to do.
      files.push(await page(html("alone", false)));
      const { page: p2 } = await offlinePage(session);
      await p2.clock.install();
      await p2.goto(`file://${files[1]}`);
      await p2.clock.runFor(10_000);
      assert.equal(await p2.textContent("#alone .kit-note"), NOTE_NO_LIBRARY);
      await p2.close();

      // Scripts off (an untrusted notebook, a sanitizing viewer): the note is shown.
      const context = await session.browser.newContext({ javaScriptEnabled: false });
      const p3 = await context.newPage();
      await p3.goto(`file://${files[0]}`);
      assert.equal(await p3.textContent("#early .kit-note"), NOTE_NO_SCRIPTS);
      await context.close();
    } finally {
      await session.close();
      for (const f of files) await Deno.remove(f);
    }
  },
});
