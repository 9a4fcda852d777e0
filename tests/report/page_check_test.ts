/**
 * The page check in headless Chromium (the machine's `chromium`), on small pages written here:
 * a page with Arabic text passes the font check and counts no failed load (Chromium 150
 * requested the page again after the checker's `CSS.enable`, and that request was counted as a
 * failure of the page); broken pages fail, and every problem says why: Chromium's error text
 * for a missing file, the script error and where it was thrown, the figure that did not draw.
 */
import assert from "node:assert/strict";
import { buildReport } from "../../lib/report/build/build.ts";
import { launchBrowser } from "../../lib/report/check/browser.ts";
import {
  checkPage,
  checkStaticImages,
  pageOk,
  pageProblems,
} from "../../lib/report/check/check.ts";

const resources = { sanitizeResources: false, sanitizeOps: false };

async function writePage(dir: string, name: string, body: string): Promise<string> {
  const path = `${dir}/${name}`;
  await Deno.writeTextFile(path, `<!doctype html><meta charset="utf-8"><body>${body}</body>`);
  return path;
}

Deno.test({
  name: "page check: Arabic text passes the font check; broken pages fail with the reason",
  ...resources,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-page-check-" });
    const session = await launchBrowser();
    try {
      // (a) Arabic text, a local image that exists: nothing wrong.
      await Deno.writeFile(
        `${dir}/dot.svg`,
        new TextEncoder().encode(
          `<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>`,
        ),
      );
      const good = await writePage(
        dir,
        "arabic.html",
        `<p>قال الله تعالى: نص عربي</p><img src="dot.svg">`,
      );
      const ok = await checkPage(session, good, `${dir}/arabic.png`, 20_000);
      assert.ok(ok.arabicFonts.length > 0, "the Arabic word was found and its fonts asked");
      assert.ok(ok.arabicFonts.every((f) => f.coversArabic), JSON.stringify(ok.arabicFonts));
      assert.deepEqual(ok.failedRequests, [], "no failed load counted against the page");
      assert.deepEqual(pageProblems(ok), []);
      assert.equal(pageOk(ok), true);

      // (b) A missing local script and image, a script error: fails, each with its reason.
      const broken = await writePage(
        dir,
        "broken.html",
        `<p>نص عربي</p><img src="missing.png"><script src="gone.js"></script>
<script>
window.addEventListener("load", () => drawFigure());
</script>`,
      );
      const bad = await checkPage(session, broken, `${dir}/broken.png`, 20_000);
      const problems = pageProblems(bad);
      assert.equal(pageOk(bad), false);
      const real = await Deno.realPath(dir);
      assert.ok(
        problems.includes(
          `failed to load file://${real}/missing.png (Image, asked by the page's parser): ` +
            "net::ERR_FILE_NOT_FOUND",
        ),
        problems.join("\n"),
      );
      assert.ok(
        problems.includes(
          `failed to load file://${real}/gone.js (Script, asked by the page's parser): ` +
            "net::ERR_FILE_NOT_FOUND",
        ),
        problems.join("\n"),
      );
      assert.ok(
        problems.some((p) =>
          /^script error: ReferenceError: drawFigure is not defined \(at .*broken\.html:\d+:\d+\)$/
            .test(p)
        ),
        problems.join("\n"),
      );
      assert.equal(problems.length, 3, problems.join("\n"));
    } finally {
      await session.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "page check catches undrawn figures, script errors and network requests",
  ...resources,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-page-check-" });
    const page = await writePage(
      dir,
      "bad.html",
      `<p>نص عربي</p>
<div id="f" class="kit-plotly"></div>
<img src="http://example.invalid/x.png">
<script>throw new Error("broken page")</script>`,
    );
    const session = await launchBrowser();
    try {
      // The figure never draws: the check waits its whole timeout for it (a loaded machine took
      // over 2 s just to open the page).
      const c = await checkPage(session, page, `${dir}/bad.png`, 20_000);
      assert.deepEqual(c.figures, [{ id: "f", svg: false, marks: 0, n: 1 }]);
      assert.deepEqual(c.blockedRequests, ["http://example.invalid/x.png"]);
      assert.deepEqual(c.failedRequests, [], "the refused request is listed once, as network");
      assert.ok(
        c.arabicFonts.length > 0 && c.arabicFonts.every((f) => f.coversArabic),
        JSON.stringify(c.arabicFonts),
      );
      const problems = pageProblems(c);
      assert.equal(problems[0], "figure 1 (f) did not draw: Plotly made no SVG");
      assert.match(problems[1], /^script error: broken page \(at .*bad\.html:\d+:\d+\)$/);
      assert.equal(
        problems[2],
        "network request refused (reports are offline): http://example.invalid/x.png",
      );
      assert.equal(problems.length, 3, problems.join("\n"));
      assert.deepEqual(await checkStaticImages(session, page), [{ id: "f", image: false }]);
    } finally {
      await session.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "page check: a page Chromium cannot open is an error naming the page and the reason",
  ...resources,
  async fn() {
    const session = await launchBrowser();
    const dir = await Deno.makeTempDir({ prefix: "kit-page-check-" });
    try {
      await assert.rejects(
        () => checkPage(session, `${dir}/gone.html`, undefined, 10_000),
        (e: Error) =>
          e.message.startsWith(`${dir}/gone.html: Chromium could not open the page: `) &&
          /No such file/.test(e.message),
      );
    } finally {
      await session.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a report whose page fails its check is kept as <out>.failed/; the message says why",
  ...resources,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-page-check-" });
    try {
      const notebooks = `${dir}/notebooks`;
      await Deno.mkdir(notebooks);
      const cell = (source: string) => ({
        id: crypto.randomUUID().slice(0, 8),
        cell_type: "code",
        source,
        metadata: {},
        outputs: [],
        execution_count: null,
      });
      await Deno.writeTextFile(
        `${notebooks}/01-broken.ipynb`,
        JSON.stringify({
          cells: [
            { id: "t", cell_type: "markdown", source: "# A broken page", metadata: {} },
            // The kit's awaited display: a raw Deno.jupyter.display can be lost to the
            // kernel's idle race, and then the page would have nothing broken on it.
            cell(
              `import { display } from "${new URL("../../lib/mod.ts", import.meta.url).href}";\n` +
                'await display({ [Symbol.for("Jupyter.display")]: () => ({ "text/html": ' +
                `'<p>نص عربي</p><img src="missing.png"><script>drawFigure();</script>' }) });`,
            ),
          ],
          metadata: { kernelspec: { name: "deno", display_name: "Deno", language: "typescript" } },
          nbformat: 4,
          nbformat_minor: 5,
        }),
      );
      const out = `${dir}/report`;
      const lines: string[] = [];
      let message = "";
      await buildReport({
        params: { data: "sample" },
        notebooksDir: notebooks,
        outDir: out,
        pdf: false,
        log: (l) => lines.push(l),
      }).catch((e) => message = (e as Error).message);
      const page = `${out}.failed/html/01-broken.html`;
      const real = await Deno.realPath(`${out}.failed/html`);
      assert.match(message, /^report checks failed:/);
      assert.ok(
        message.includes(
          `${page}: failed to load file://${real}/missing.png (Image, asked by the page's ` +
            "parser): net::ERR_FILE_NOT_FOUND",
        ),
        message,
      );
      assert.match(
        message,
        /01-broken\.html: script error: ReferenceError: drawFigure is not defined \(at /,
      );
      // No report was there before: the message says nothing of a previous one.
      assert.ok(message.endsWith(`(the failed attempt is kept in ${out}.failed/)`), message);
      assert.ok(lines.includes(
        `the failed attempt is kept for inspection: ${out}.failed/ ` +
          "(replaced by the next failure)",
      ));
      // What the message names is there to open.
      assert.ok((await Deno.stat(page)).isFile);
      assert.ok((await Deno.stat(`${out}.failed/screenshots/01-broken.png`)).isFile);
      assert.equal(await Deno.stat(out).then(() => true, () => false), false);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("page problems name the font without Arabic, and a word no font was named for", () => {
  const check = {
    page: "p.html",
    seconds: 1,
    consoleErrors: [],
    blockedRequests: [],
    ignoredRequests: [],
    pageErrors: [],
    figures: [],
    failedRequests: [],
  };
  const fonts = (family: string, coversArabic: boolean) => ({
    ...check,
    arabicFonts: [{ family, glyphs: family ? 2 : 0, coversArabic }],
  });
  assert.deepEqual(pageProblems(fonts("Noto Sans Arabic", true)), []);
  assert.deepEqual(pageProblems(fonts("Liberation Sans", false)), [
    "Arabic text drawn with 'Liberation Sans', which lacks Arabic",
  ]);
  assert.deepEqual(pageProblems(fonts("", false)), [
    "Arabic text found, but Chromium named no font that drew it",
  ]);
});
