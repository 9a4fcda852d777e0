/**
 * The report as a reader gets it. Builds the sample report (`deno task report`'s work,
 * into reports/sample), then checks every exported page in headless Chromium: each figure
 * drew an SVG with marks, no script errors, no network requests, plotly.js embedded once (the
 * smallest bundle holding the page's figures),
 * Arabic drawn with an Arabic font, screenshots saved; and the PDF's pages carry the figures.
 * (That the checker catches broken pages: page_check_test.ts.)
 *
 * Set KIT_REPORT_DATA=real to build and check the report on the fetched corpora instead.
 */
import assert from "node:assert/strict";
import { PLOTLY_MIME } from "../../lib/plot/mod.ts";
import { bundleFor, PLOTLY_VERSION } from "../../lib/plot/plotlyjs.ts";
import { LIBRARY_MARK } from "../../lib/plot/display.ts";
import { buildReport } from "../../lib/report/build/build.ts";
import { launchBrowser } from "../../lib/report/check/browser.ts";
import { checkStaticImages, countTracePixels, pageOk } from "../../lib/report/check/check.ts";
import type { NotebookJson } from "../../lib/report/build/static_images.ts";
import { courseFiles, lessonCells } from "../../lib/report/build/course.ts";

const resources = { sanitizeResources: false, sanitizeOps: false };

/** The first line of each of plotly's bundles, naming it and its version. */
const BUNDLE_HEADERS = {
  full: `plotly.js v${PLOTLY_VERSION}\n`,
  cartesian: `plotly.js (cartesian - minified) v${PLOTLY_VERSION}\n`,
  basic: `plotly.js (basic - minified) v${PLOTLY_VERSION}\n`,
};

Deno.test({
  name: "report: pages render every figure offline without errors; PDF carries the figures",
  ...resources,
  async fn() {
    const data = Deno.env.get("KIT_REPORT_DATA") === "real" ? "real" : "sample";
    const report = await buildReport({ params: { data }, log: () => {} });
    assert.ok(report.notebooks.length >= 1);
    for (const e of report.notebooks) {
      // Count the figures independently from the executed notebook (the lesson's page leaves its
      // worked solutions out: they are on the solutions page).
      const nb = lessonCells(JSON.parse(await Deno.readTextFile(e.ipynb)) as NotebookJson);
      const outputs = nb.cells.flatMap((c) => c.outputs ?? []);
      const plotly = outputs.filter((o) => o.data && PLOTLY_MIME in o.data);
      assert.equal(e.check.figures.length, plotly.length, `${e.name}: figures on the page`);
      for (const f of e.check.figures) {
        assert.ok(f.svg && f.marks > 0, `${e.name}: figure ${f.id} drew nothing`);
      }
      for (const o of plotly) {
        const png = o.data!["image/png"];
        assert.ok(typeof png === "string" && png.startsWith("iVBOR"), `${e.name}: PNG fallback`);
      }
      assert.deepEqual(e.check.pageErrors, [], `${e.name}: script errors`);
      assert.deepEqual(e.check.blockedRequests, [], `${e.name}: network requests`);
      assert.deepEqual(e.check.failedRequests, [], `${e.name}: failed loads`);
      const html = await Deno.readTextFile(e.html);
      assert.equal(html.split(LIBRARY_MARK).length - 1, plotly.length > 0 ? 1 : 0, e.name);
      // The copy is the smallest of plotly's bundles holding the page's figures (the lessons
      // draw bars and lines: the basic one), as its own first line says.
      const types = plotly.flatMap((o) =>
        (o.data![PLOTLY_MIME] as { data: { type?: string }[] }).data.map((t) => t.type)
      );
      const lean = bundleFor(types);
      for (const [bundle, header] of Object.entries(BUNDLE_HEADERS)) {
        const copies = html.split(header).length - 1;
        const want = plotly.length > 0 && bundle === lean ? 1 : 0;
        assert.equal(copies, want, `${e.name}: copies of plotly.js's ${bundle} bundle`);
      }
      assert.ok(!/<script[^>]+src="https?:/.test(html), `${e.name}: remote script`);
      const shot = await Deno.readFile(e.check.screenshot!);
      assert.deepEqual([...shot.slice(1, 4)], [0x50, 0x4e, 0x47], `${e.name}: screenshot PNG`);
      for (const f of e.check.arabicFonts) {
        assert.ok(f.coversArabic, `${e.name}: Arabic drawn with ${f.family}`);
      }
      assert.ok(pageOk(e.check));
    }
    // Without scripts (a sanitizing viewer) every figure still shows its static image.
    const session = await launchBrowser();
    try {
      for (const e of report.notebooks) {
        const images = await checkStaticImages(session, e.html);
        assert.equal(images.length, e.figures, `${e.name}: figures without scripts`);
        for (const i of images) assert.ok(i.image, `${e.name}: no static image in ${i.id}`);
      }
    } finally {
      await session.close();
    }
    // QRCD text appears in the QRCD notebook: its Arabic must have been found and checked.
    const qrcd = report.notebooks.find((e) => e.name.includes("qrcd"));
    if (qrcd) assert.ok(qrcd.check.arabicFonts.length > 0, "no Arabic text found in QRCD page");

    const index = await Deno.readTextFile(report.index);
    for (const e of report.notebooks) assert.ok(index.includes(`href="html/${e.name}.html"`));
    assert.ok(pageOk(report.indexCheck));
    // Each lesson's solutions page (checked, every figure drawn) and student edition, linked.
    for (const e of report.notebooks) {
      const files = courseFiles(e.name);
      assert.ok(e.course && pageOk(e.course.solutionsCheck), `${e.name}: solutions page`);
      for (const f of e.course.solutionsCheck.figures) assert.ok(f.svg && f.marks > 0, e.name);
      const student = JSON.parse(await Deno.readTextFile(e.course.student)) as NotebookJson;
      assert.ok(student.cells.every((c) => !c.outputs?.length), `${e.name}: student outputs`);
      for (const f of Object.values(files)) assert.ok(index.includes(`href="${f}"`), f);
    }

    const pdf = report.pdfCheck!;
    const withFigures = report.notebooks.filter((e) => e.figures > 0).length;
    assert.ok(pdf.pages >= report.notebooks.length + 1, `PDF has ${pdf.pages} pages`);
    assert.ok(
      pdf.pagesWithFigures >= withFigures,
      `PDF pages with figures: ${pdf.pagesWithFigures}`,
    );
    // Figure titles are drawn as text by Plotly's SVG and stay text in the vector PDF.
    for (const e of report.notebooks) {
      const nb = JSON.parse(await Deno.readTextFile(e.ipynb)) as NotebookJson;
      for (const c of nb.cells) {
        for (const o of c.outputs ?? []) {
          const fig = o.data?.[PLOTLY_MIME] as
            | { layout: { title?: { text?: string } } }
            | undefined;
          const title = fig?.layout.title?.text;
          if (title) assert.ok(pdf.text.includes(title), `PDF lacks figure title '${title}'`);
        }
      }
    }
  },
});

Deno.test("trace-colour pixels are counted in a PPM raster", () => {
  const header = new TextEncoder().encode("P6\n# made by a test\n3 1\n255\n");
  const pixels = new Uint8Array([31, 119, 180, 255, 255, 255, 250, 130, 20]);
  const ppm = new Uint8Array([...header, ...pixels]);
  assert.equal(countTracePixels(ppm), 2);
  assert.throws(() => countTracePixels(new TextEncoder().encode("P3\n1 1\n255\n0 0 0")), /PPM/);
});
