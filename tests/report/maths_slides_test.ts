/**
 * Formulas, page width and slides, checked in the machine's Chromium on a notebook written here
 * (no kernel): exported by nbconvert, a page without the kit's KaTeX shows raw TeX and the page
 * check says so (what nbconvert's CDN MathJax gave offline); with it every formula is typeset,
 * in the page and in its printed PDF; a KaTeX error, a code line past the page's edge and raw TeX
 * in a PDF are named. The same notebook as reveal.js slides: the deck starts offline, its
 * formulas are typeset and its figure draws.
 */
import assert from "node:assert/strict";
import { launchBrowser } from "../../lib/report/check/browser.ts";
import { checkPage, checkPdf, pageProblems } from "../../lib/report/check/check.ts";
import { exportHtml } from "../../lib/report/build/export.ts";
import { printLoadedPage } from "../../lib/report/build/pdf.ts";
import { offlinePage } from "../../lib/report/check/browser.ts";
import { jupyterPython } from "../../lib/report/build/execute.ts";
import { TEMPLATES_DIR } from "../../lib/report/build/export.ts";
import { checkSlides, exportSlides, slidesProblems } from "../../lib/report/build/slides.ts";
import { figureBundle } from "../../lib/plot/display.ts";
import { bar } from "../../lib/plot/figures.ts";

const resources = { sanitizeResources: false, sanitizeOps: false };

const markdown = (source: string) => ({ cell_type: "markdown", metadata: {}, source });
const code = (source: string, outputs: unknown[] = []) => ({
  cell_type: "code",
  metadata: {},
  source,
  execution_count: 1,
  outputs,
});

/** An executed-looking notebook: formulas in Markdown and in a Markdown output, a figure. */
function notebook(extraCode = "const x = 1;"): unknown {
  const fig = bar(["MAP"], [{ name: "a", values: [0.5] }], { yRange: [0, 1] });
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { name: "deno", display_name: "Deno", language: "typescript" } },
    cells: [
      markdown(
        "# Measures\n\nWrite $rel_i$ for the label at rank $i$:\n\n" +
          "$$P@k = \\frac{1}{k}\\sum_{i=1}^{k} rel_i$$",
      ),
      code(extraCode, [{
        output_type: "display_data",
        metadata: {},
        data: { "text/markdown": "A computed value: $\\sqrt{2} \\approx 1.41$" },
      }]),
      markdown("## A figure\n\n$\\mathrm{AP} = \\frac{1}{R}\\sum_i rel_i \\cdot P@i$"),
      code("await display(fig);", [{
        output_type: "display_data",
        metadata: {},
        data: figureBundle(fig, { includeLibrary: true, id: "fig-1" }),
      }]),
    ],
  };
}

/** nbconvert's own lab template (MathJax from a CDN), as the kit exported before KaTeX. */
async function exportWithLab(ipynb: string, html: string): Promise<void> {
  const out = await new Deno.Command(jupyterPython(), {
    args: [
      "-Xfrozen_modules=off",
      "-m",
      "nbconvert",
      "--to",
      "html",
      "--template",
      "kit",
      `--TemplateExporter.extra_template_basedirs=${TEMPLATES_DIR}`,
      "--output",
      html.replace(/^.*\//, "").replace(/\.html$/, ""),
      "--output-dir",
      html.replace(/\/[^/]*$/, ""),
      ipynb,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
}

Deno.test({
  name: "formulas: raw TeX fails the page check, KaTeX typesets them offline, in the PDF too",
  ...resources,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-maths-" });
    const session = await launchBrowser();
    try {
      await Deno.writeTextFile(`${dir}/nb.ipynb`, JSON.stringify(notebook()));
      // without the maths renderer (nbconvert's template, MathJax dropped): raw TeX, named
      await exportWithLab(`${dir}/nb.ipynb`, `${dir}/raw.html`);
      const raw = await checkPage(session, `${dir}/raw.html`, undefined, 120_000);
      const rawProblems = pageProblems(raw).filter((p) => p.includes("TeX not typeset"));
      assert.ok(rawProblems.some((p) => p.startsWith("cell 0:") && p.includes("\\frac{1}{k}")));
      assert.ok(rawProblems.some((p) => p.startsWith("cell 1:") && p.includes("\\sqrt{2}")));
      assert.ok(rawProblems.some((p) => p.startsWith("cell 2:")), rawProblems.join("\n"));
      // printed, its PDF's text holds the TeX too
      const { page } = await offlinePage(session);
      await page.goto(`file://${dir}/raw.html`, { waitUntil: "load", timeout: 120_000 });
      await printLoadedPage(page, `${dir}/raw.pdf`);
      await page.close();
      assert.ok((await checkPdf(`${dir}/raw.pdf`)).unrenderedTex.some((l) => l.includes("\\frac")));

      // the kit's export: every formula typeset, nothing fetched, the figure drawn
      await exportHtml(`${dir}/nb.ipynb`, `${dir}/page.html`);
      const html = await Deno.readTextFile(`${dir}/page.html`);
      assert.ok(
        !/cdn\.jsdelivr|mathjax/i.test(html.replace(/<script[^>]*>[\s\S]*?<\/script>/g, "")),
      );
      const ok = await checkPage(
        session,
        `${dir}/page.html`,
        `${dir}/page.png`,
        120_000,
        `${dir}/p.pdf`,
      );
      assert.deepEqual(pageProblems(ok), []);
      assert.deepEqual(ok.blockedRequests, []);
      const pdf = await checkPdf(`${dir}/p.pdf`);
      assert.deepEqual(pdf.unrenderedTex, []);
      assert.ok(pdf.pagesWithFigures >= 1);
      // KaTeX's fonts drew the formulas: the PDF embeds them
      const fonts = new TextDecoder().decode(
        (await new Deno.Command("pdffonts", { args: [`${dir}/p.pdf`], stdout: "piped" }).output())
          .stdout,
      );
      assert.match(fonts, /KaTeX_Main/);
    } finally {
      await session.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "page check: a formula KaTeX cannot parse and a code line past the page are named",
  ...resources,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-maths-" });
    const session = await launchBrowser();
    try {
      const nb = notebook(`const line = "${"x".repeat(160)}";`) as { cells: { source: string }[] };
      nb.cells[2].source = "## Broken\n\n$\\fracc{1}{2}$ (a typo), and $\\frac{1}{$ (unbalanced)";
      await Deno.writeTextFile(`${dir}/nb.ipynb`, JSON.stringify(nb));
      await exportHtml(`${dir}/nb.ipynb`, `${dir}/page.html`);
      const c = await checkPage(session, `${dir}/page.html`, undefined, 120_000);
      const problems = pageProblems(c);
      // a formula KaTeX cannot parse stays as its TeX, with KaTeX's message; unbalanced braces
      // are never taken for a formula and stay as text
      const says = (start: string) => problems.some((p) => p.startsWith(start));
      assert.ok(says("cell 2: TeX not typeset: '$\\fracc{1}{2}$"), problems.join("\n"));
      assert.ok(
        says(
          "a formula KaTeX could not typeset: '\\fracc{1}{2}' (KaTeX parse error: Undefined " +
            "control sequence: \\fracc at position 1: \\fracc{1}{2})",
        ),
        problems.join("\n"),
      );
      assert.ok(
        problems.some((p) =>
          p.startsWith("cell 2: TeX not typeset: ") && p.includes("\\frac{1}{$")
        ),
      );
      assert.ok(
        problems.some((p) => /^cell 1: a code line runs \d+ px past its box: 'const line/.test(p)),
        problems.join("\n"),
      );
    } finally {
      await session.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "slides: the notebook as reveal.js slides, offline, formulas typeset, figure drawn",
  ...resources,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-slides-" });
    const session = await launchBrowser();
    try {
      await Deno.writeTextFile(`${dir}/nb.ipynb`, JSON.stringify(notebook()));
      const made = await exportSlides(`${dir}/nb.ipynb`, `${dir}/nb.slides.html`);
      assert.deepEqual([made.slides, made.subslides], [2, 0]);
      const html = await Deno.readTextFile(made.html);
      assert.ok(
        !/unpkg\.com|cdnjs|require\.js|jquery/i.test(
          html.replace(/<script[^>]*>[\s\S]*?<\/script>/g, ""),
        ),
      );
      assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
        "nb.ipynb",
        "nb.slides.html",
      ], "no temporary file left beside the slides");
      const c = await checkSlides(session, made.html, `${dir}/first.png`);
      assert.deepEqual(slidesProblems(c), []);
      assert.equal(c.ready, true);
      assert.equal(c.totalSlides, 2);
      assert.ok(c.figures.length === 1 && c.figures[0].marks > 0);
      assert.ok((await Deno.stat(`${dir}/first.png`)).size > 0);

      // a deck whose formula is broken is named; so is one reveal.js never started
      const broken = html.replace("\\frac{1}{k}", "\\fracc{1}{k}");
      await Deno.writeTextFile(`${dir}/broken.html`, broken);
      const b = await checkSlides(session, `${dir}/broken.html`, undefined, 20_000);
      assert.ok(slidesProblems(b).some((p) => p.includes("KaTeX could not typeset")));
      // Decks that fail say so at once (data-kit-slides="failed"): the check does not wait out
      // its timeout (120 s: a 5 MB page on a machine at load 20 took over 30 s to load), and
      // the failure stays the page's own error.
      const failing = {
        // reveal.js's promise refused
        rejected: ["Reveal.initialize(", "(() => Promise.reject(new Error('no deck')))("],
        // reveal.js throwing (6.0.2 throws at once, for a page without its root or slides)
        thrown: ["Reveal.initialize(", "(() => { throw new Error('no deck'); })("],
        // started, then its first slide could not be laid out
        unfitted: [
          "const shown = () => fitSlide(",
          "const shown = () => Promise.reject(new Error('no deck')).finally(",
        ],
      };
      for (const [name, [from, to]] of Object.entries(failing)) {
        assert.ok(html.includes(from), from);
        await Deno.writeTextFile(`${dir}/${name}.html`, html.replace(from, to));
        const d = await checkSlides(session, `${dir}/${name}.html`, undefined, 120_000);
        const said = name === "unfitted"
          ? "reveal.js started the deck, but its first slide could not be laid out"
          : "reveal.js did not start the deck";
        assert.ok(slidesProblems(d).some((p) => p.includes(said)), slidesProblems(d).join("; "));
        assert.ok(d.pageErrors.some((e) => e.includes("no deck")), d.pageErrors.join("; "));
      }
    } finally {
      await session.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
