/**
 * Checking exported pages the way a reader sees them: each page is opened offline in
 * headless Chromium; every Plotly figure must have drawn an SVG with marks (bars, points,
 * lines), the page must raise no JavaScript error and request nothing from the network,
 * and a full-page screenshot is saved. Also the PDF check: its pages are rasterized with
 * poppler's `pdftoppm` and must contain the figures' ink.
 *
 * @module
 */
import { pathToFileURL } from "node:url";
import { withKitTempDir } from "../../io/temp.ts";
import type { Page } from "npm:playwright-core@1.65.1";
import type { BrowserSession, PageLog } from "./browser.ts";
import { captureInFront, offlinePage, pageLogSnapshot } from "./browser.ts";
import { printLoadedPage } from "../build/pdf.ts";
import type { TimeStage } from "../build/timings.ts";
import { KitError } from "../../errors.ts";
import { type TexProblem, texProblemLine, UNRENDERED_TEX } from "../build/maths.ts";

/** What one figure on a page drew. */
export interface FigureCheck {
  /** The figure's div id. */
  id: string;
  /** Whether Plotly's SVG is there. */
  svg: boolean;
  /** Drawn marks: bar, box and point paths, line paths with geometry. */
  marks: number;
  /** Its place on the page: 1 for the first figure. */
  n?: number;
  /** The code cell holding it (1 for the page's first code cell), on notebook pages. */
  cell?: number;
}

/** The result of checking one page: its log (errors, requests) and what it drew. */
export interface PageCheck extends PageLog {
  /** The page's file. */
  page: string;
  /** One entry per `.kit-plotly` figure div. */
  figures: FigureCheck[];
  /** Where the full-page screenshot was saved. */
  screenshot?: string;
  /**
   * Fonts Chromium used to draw the page's first Arabic word (empty when the page
   * has none), and whether each covers Arabic according to fontconfig. One entry with an
   * empty family: Chromium named no font for the word (a problem, see {@link pageProblems}).
   */
  arabicFonts: { family: string; glyphs: number; coversArabic: boolean }[];
  /** Text that still reads like TeX after the page loaded, and formulas KaTeX refused. */
  unrenderedTex?: TexProblem[];
  /** What is wider than the page: a code line, an output, the page itself. */
  overflow?: Overflow[];
  /** Seconds from navigation to all figures drawn. */
  seconds: number;
}

/** Something wider than its place on the page (screen and print share the 1000 px layout). */
export interface Overflow {
  /** The notebook cell (0-based, as in the `.ipynb`); absent for the page as a whole. */
  cell?: number;
  /** A line of code, an output, a Markdown cell, or the page. */
  what: "code" | "output" | "markdown" | "page";
  /** How many CSS pixels it is wider than its box. */
  by: number;
  /** The start of the longest line, for code. */
  line?: string;
}

// Scripts run in the page (as source text: this module is type-checked without the DOM).

/**
 * Page script: what is wider than its box (a code line, an output, a Markdown cell) or than
 * the window (the page); a list of {@link Overflow}. One pixel of rounding is allowed.
 */
export const OVERFLOW = `(() => {
  const found = [];
  const wider = (el) => el.scrollWidth - el.clientWidth;
  [...document.querySelectorAll(".jp-Cell")].forEach((c, cell) => {
    for (const pre of c.querySelectorAll(".jp-InputArea pre")) {
      const by = wider(pre);
      if (by <= 1) continue;
      const line = (pre.textContent || "").split("\\n").reduce((a, b) => (b.length > a.length ? b : a), "");
      found.push({ cell, what: "code", by, line: line.trim().slice(0, 50) });
    }
    for (const o of c.querySelectorAll(".jp-OutputArea-output")) {
      const by = wider(o);
      if (by > 1) found.push({ cell, what: "output", by });
    }
    for (const m of c.querySelectorAll(".jp-MarkdownOutput")) {
      const by = wider(m);
      if (by > 1) found.push({ cell, what: "markdown", by });
    }
  });
  const page = document.documentElement.scrollWidth - window.innerWidth;
  if (page > 1) found.push({ what: "page", by: page });
  return found;
})()`;

/** Page script: resolves once the page's fonts (KaTeX's among them) have loaded. */
const FONTS_READY = `document.fonts.ready.then(() => true)`;

/** Page script: true once every figure div holds Plotly's SVG. */
export const ALL_FIGURES_DRAWN = `[...document.querySelectorAll(".kit-plotly")]
  .every((d) => d.querySelector("svg.main-svg"))`;

/**
 * Page script: per figure div, its id, whether Plotly's SVG exists, and how many marks have
 * geometry (a list of {@link FigureCheck}).
 */
export const FIGURE_MARKS = `[...document.querySelectorAll(".kit-plotly")].map((d, i) => ({
  id: d.id,
  n: i + 1,
  ...(d.closest(".jp-CodeCell")
    ? { cell: [...document.querySelectorAll(".jp-CodeCell")].indexOf(d.closest(".jp-CodeCell")) + 1 }
    : {}),
  svg: !!d.querySelector("svg.main-svg"),
  marks: [...d.querySelectorAll(".plot path, .barlayer path, .scatterlayer path, .boxlayer path")]
    .filter((p) => { const g = p.getAttribute("d") || ""; return g.length > 4 && g !== "M0,0Z"; })
    .length,
}))`;

/**
 * Wraps the first Arabic word on the page in a marked span (so the fonts asked about drew
 * Arabic letters only, not the spaces around them); true when there is one.
 */
const MARK_ARABIC = `(() => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const arabic = /[\\u0600-\\u06FF]+/;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const m = arabic.exec(n.textContent || "");
    if (!m || !n.parentElement || n.parentElement.closest("script,style")) continue;
    const rest = n.splitText(m.index);
    rest.splitText(m[0].length);
    const span = document.createElement("span");
    span.setAttribute("data-kit-arabic", "1");
    rest.replaceWith(span);
    span.appendChild(rest);
    // The new node has no layout yet: force it, then let a frame pass, so DevTools can say
    // which fonts drew it (asked at once, it sometimes answers with none).
    span.getBoundingClientRect();
    return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))));
  }
  return false;
})()`;

/**
 * Loads a local page and waits until each figure has drawn or `timeoutMs` passes (a figure
 * that never draws is then reported, not awaited forever); returns what each figure drew.
 */
export async function openAndDraw(
  page: Page,
  htmlPath: string,
  timeoutMs: number,
): Promise<FigureCheck[]> {
  // A 5 MB page on a busy machine can take longer than Playwright's default 30 s to load.
  try {
    // A file URL, percent-encoded: a folder named `a#1` or `50%` is a path, not a fragment.
    const url = pathToFileURL(await Deno.realPath(htmlPath)).href;
    await page.goto(url, {
      waitUntil: "load",
      timeout: timeoutMs,
    });
  } catch (e) {
    const why = (e as Error).message.split("\n")[0].replace(/^page\.goto: /, "");
    throw new KitError(`Chromium could not open the page: ${why}`, { file: htmlPath });
  }
  await page.waitForFunction(ALL_FIGURES_DRAWN, undefined, { timeout: timeoutMs })
    .catch(() => {});
  return await page.evaluate(FIGURE_MARKS) as FigureCheck[];
}

/**
 * What is wrong with a checked page, one line per problem, each with its reason: the figure
 * that did not draw (its place, id and code cell) and whether it lacks Plotly's SVG or drew
 * no marks, the script error and where it was thrown, the load that failed with Chromium's
 * error text or blocked reason, the network request refused, the font without Arabic.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pageProblems } from "./check.ts";
 * const problems = pageProblems({
 *   page: "p.html", seconds: 1, consoleErrors: [], blockedRequests: [], ignoredRequests: [],
 *   arabicFonts: [], pageErrors: ["x is not defined (at file:///p.html:3:9)"],
 *   figures: [{ id: "fig-1", svg: false, marks: 0, n: 1, cell: 4 }],
 *   failedRequests: [{
 *     url: "file:///plot.js", type: "Script", initiator: "parser", reason: "net::ERR_FILE_NOT_FOUND",
 *   }],
 * });
 * assert.deepEqual(problems, [
 *   "figure 1 (fig-1, code cell 4) did not draw: Plotly made no SVG",
 *   "script error: x is not defined (at file:///p.html:3:9)",
 *   "failed to load file:///plot.js (Script, asked by the page's parser): net::ERR_FILE_NOT_FOUND",
 * ]);
 * ```
 */
export function pageProblems(c: PageCheck): string[] {
  const p: string[] = [];
  for (const f of c.figures) {
    if (f.svg && f.marks > 0) continue;
    const where = [f.id, ...(f.cell ? [`code cell ${f.cell}`] : [])].join(", ");
    const why = f.svg ? "its SVG has no marks (no bars, points or lines)" : "Plotly made no SVG";
    p.push(`figure ${f.n ?? "?"} (${where}) did not draw: ${why}`);
  }
  for (const e of c.pageErrors) p.push(`script error: ${e}`);
  for (const u of c.blockedRequests) p.push(`network request refused (reports are offline): ${u}`);
  for (const r of c.failedRequests) {
    p.push(`failed to load ${r.url} (${r.type}, asked by the page's ${r.initiator}): ${r.reason}`);
  }
  for (const f of c.arabicFonts) {
    if (f.family === "") p.push("Arabic text found, but Chromium named no font that drew it");
    else if (!f.coversArabic) p.push(`Arabic text drawn with '${f.family}', which lacks Arabic`);
  }
  for (const t of c.unrenderedTex ?? []) p.push(texProblemLine(t));
  for (const o of c.overflow ?? []) p.push(overflowLine(o));
  return p;
}

/**
 * The page check's line for one {@link Overflow}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { overflowLine } from "./check.ts";
 * assert.equal(
 *   overflowLine({ cell: 8, what: "code", by: 412, line: "await display(markdown(" }),
 *   "cell 8: a code line runs 412 px past its box: 'await display(markdown(...'",
 * );
 * ```
 */
export function overflowLine(o: Overflow): string {
  const where = o.cell === undefined ? "" : `cell ${o.cell}: `;
  switch (o.what) {
    case "code":
      return `${where}a code line runs ${o.by} px past its box: '${o.line ?? ""}...'`;
    case "page":
      return `the page is ${o.by} px wider than the window (and the printed page)`;
    default:
      return `${where}${o.what === "output" ? "an output" : "a Markdown cell"} is ${o.by} px ` +
        "wider than the page (it scrolls on screen and is cut in the PDF)";
  }
}

/** True when a page check found every figure drawn and nothing wrong. */
export function pageOk(c: PageCheck): boolean {
  return pageProblems(c).length === 0;
}

/** Runs `fn` untimed: the {@link checkPage} of a caller that keeps no timings. */
const untimed: TimeStage = (_stage, fn) => fn();

/**
 * Opens `htmlPath` offline, waits for its figures, counts their marks, saves a full-page
 * screenshot to `screenshotPath` and prints the page to `pdfPath` when given (one load
 * serves both). `time` records the check, the screenshot and the print as the build's
 * stages (`timings.ts`).
 */
export async function checkPage(
  session: BrowserSession,
  htmlPath: string,
  screenshotPath?: string,
  timeoutMs = 60_000,
  pdfPath?: string,
  time: TimeStage = untimed,
): Promise<PageCheck> {
  const { page, log } = await time("checks", () => offlinePage(session));
  const started = performance.now();
  try {
    const { figures, seconds, arabicFonts, unrenderedTex, overflow } = await time(
      "checks",
      async () => {
        const figures = await openAndDraw(page, htmlPath, timeoutMs);
        const seconds = (performance.now() - started) / 1000;
        const arabicFonts = await fontsForArabic(page);
        await page.evaluate(FONTS_READY);
        const unrenderedTex = await page.evaluate(UNRENDERED_TEX) as TexProblem[];
        const overflow = await page.evaluate(OVERFLOW) as Overflow[];
        return { figures, seconds, arabicFonts, unrenderedTex, overflow };
      },
    );
    if (screenshotPath) {
      await time("screenshots", async () => {
        await Deno.mkdir(screenshotPath.replace(/\/[^/]*$/, ""), { recursive: true });
        // Animations finished first, so that one page gives one picture (slides.ts).
        await captureInFront(
          page,
          () => page.screenshot({ path: screenshotPath, fullPage: true, animations: "disabled" }),
        );
      });
    }
    if (pdfPath) await time("pdf", () => printLoadedPage(page, pdfPath));
    return {
      page: htmlPath,
      figures,
      ...pageLogSnapshot(log),
      ...(screenshotPath ? { screenshot: screenshotPath } : {}),
      arabicFonts,
      unrenderedTex,
      overflow,
      seconds,
    };
  } finally {
    await page.close();
  }
}

let arabicFamilies: Set<string> | undefined;

/** Font families that fontconfig says cover Arabic (`fc-list :lang=ar family`). */
export async function arabicFontFamilies(): Promise<Set<string>> {
  if (arabicFamilies) return arabicFamilies;
  const text = new TextDecoder().decode(await tool("fc-list", [":lang=ar", "family"]));
  return arabicFamilies = new Set(text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean));
}

/** How many times the fonts of the Arabic word are asked for before giving up. */
const FONT_ATTEMPTS = 20;

/** Page script: resolves after the next frame is drawn. */
const NEXT_FRAME = `new Promise((done) => requestAnimationFrame(() => done(true)))`;

/**
 * The platform fonts Chromium used to draw the page's first Arabic word (through
 * the DevTools protocol's `CSS.getPlatformFontsForNode`).
 */
async function fontsForArabic(page: Page): Promise<PageCheck["arabicFonts"]> {
  const marked = await page.evaluate(MARK_ARABIC) as boolean;
  if (!marked) return [];
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send("DOM.enable");
    await cdp.send("CSS.enable");
    const { root } = await cdp.send("DOM.getDocument", { depth: -1 });
    const { nodeId } = await cdp.send("DOM.querySelector", {
      nodeId: root.nodeId,
      selector: "[data-kit-arabic]",
    });
    // Chromium can still answer with no fonts while the text's layout is pending: ask again
    // a few frames later; an answer that stays empty is a problem of the page, not a pass.
    let { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
    for (let attempt = 1; fonts.length === 0 && attempt < FONT_ATTEMPTS; attempt++) {
      await page.evaluate(NEXT_FRAME);
      ({ fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId }));
    }
    if (fonts.length === 0) return [{ family: "", glyphs: 0, coversArabic: false }];
    const covering = await arabicFontFamilies();
    return fonts.map((f) => ({
      family: f.familyName,
      glyphs: f.glyphCount,
      coversArabic: covering.has(f.familyName),
    }));
  } finally {
    await cdp.detach();
  }
}

/** Per figure div: whether it shows a loaded static image (for pages without scripts). */
const STATIC_IMAGES = `[...document.querySelectorAll(".kit-plotly")].map((d) => {
  const img = d.querySelector("img.kit-static");
  return { id: d.id, image: !!img && img.complete && img.naturalWidth > 0 };
})`;

/**
 * Opens `htmlPath` with scripts disabled (as a sanitizing viewer shows it) and reports, per
 * figure, whether its static image is there and loaded.
 */
export async function checkStaticImages(
  session: BrowserSession,
  htmlPath: string,
): Promise<{ id: string; image: boolean }[]> {
  const context = await session.browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.route(
      "**/*",
      (route) =>
        /^(file|data|blob|about):/.test(route.request().url())
          ? route.continue()
          : route.abort("blockedbyclient"),
    );
    await page.goto(pathToFileURL(await Deno.realPath(htmlPath)).href, { waitUntil: "load" });
    return await page.evaluate(STATIC_IMAGES) as { id: string; image: boolean }[];
  } finally {
    await context.close();
  }
}

/** What the PDF check found. */
export interface PdfCheck {
  /** Pages in the PDF. */
  pages: number;
  /** Pages whose raster contains Plotly's trace colours (a drawn figure). */
  pagesWithFigures: number;
  /** Text of the PDF (`pdftotext`), for checking titles and labels. */
  text: string;
  /** Lines of the PDF's text that hold TeX a page failed to typeset (`$$`, `\frac`, ...). */
  unrenderedTex: string[];
}

/**
 * TeX as it reads when a page did not typeset it: `$$` or a command the lessons' formulas use.
 * (Narrower than the page check's rule: the PDF's text also holds the code cells.)
 */
const PDF_TEX =
  /\$\$|\\(?:frac|sum|sqrt|mathrm|operatorname|qquad|quad|cdot|overline|left|right|begin|text|log|min|le|ge|sim)\b/;

/**
 * The lines of a PDF's text that hold TeX ({@link PDF_TEX}), shortened. The user's strings
 * (`userText`: system names, file names) are text the page showed as typed, whatever they
 * hold: they are left out before a line is looked at.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { texLines } from "./check.ts";
 * assert.deepEqual(texLines("P@k = 1/k\n$$P@k = \\frac{1}{k}$$\nconst x = `${a}`;"), [
 *   "$$P@k = \\frac{1}{k}$$",
 * ]);
 * assert.deepEqual(texLines("a\\text{b} 0.5000  $$x", ["a\\text{b}", "$$x"]), []);
 * ```
 */
export function texLines(text: string, userText: readonly string[] = []): string[] {
  const strip = (line: string) => userText.reduce((l, u) => u ? l.replaceAll(u, " ") : l, line);
  return text.split("\n").filter((l) => PDF_TEX.test(strip(l))).map((l) => l.trim().slice(0, 80));
}

async function tool(cmd: string, args: string[]): Promise<Uint8Array> {
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  } catch (e) {
    throw new KitError(`cannot run ${cmd} (Debian poppler-utils): ${(e as Error).message}`);
  }
  if (!out.success) {
    throw new KitError(`${cmd} failed: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
  return out.stdout;
}

/**
 * Plotly's first two default trace colours (blue, orange), opaque and as overlaid
 * histograms draw them (opacity 0.6 on white), RGB. (Green is left out: anti-aliased
 * green keywords of highlighted code come close to it.)
 */
const TRACE_COLOURS = [[31, 119, 180], [255, 127, 14]].flatMap((c) =>
  [1, 0.6].map((a) => c.map((v) => Math.round(v * a + 255 * (1 - a))))
);

/** Counts pixels of a binary PPM (P6) image that are close to a Plotly trace colour. */
export function countTracePixels(ppm: Uint8Array): number {
  // Header: "P6" whitespace width whitespace height whitespace maxval single-whitespace.
  let pos = 0;
  const fields: string[] = [];
  while (fields.length < 4) {
    while (/\s/.test(String.fromCharCode(ppm[pos]))) pos++;
    if (ppm[pos] === 0x23) { // comment line
      while (ppm[pos] !== 0x0a) pos++;
      continue;
    }
    let token = "";
    while (!/\s/.test(String.fromCharCode(ppm[pos]))) token += String.fromCharCode(ppm[pos++]);
    fields.push(token);
  }
  pos++;
  if (fields[0] !== "P6" || fields[3] !== "255") {
    throw new KitError(`not an 8-bit binary PPM (${fields.join(" ")})`);
  }
  let count = 0;
  for (let i = pos; i + 2 < ppm.length; i += 3) {
    for (const [r, g, b] of TRACE_COLOURS) {
      if (
        Math.abs(ppm[i] - r) < 24 && Math.abs(ppm[i + 1] - g) < 24 && Math.abs(ppm[i + 2] - b) < 24
      ) {
        count++;
        break;
      }
    }
  }
  return count;
}

/**
 * Rasterizes every page of `pdf` at low resolution with `pdftoppm` and counts the pages that
 * show figure ink (at least `minPixels` pixels in Plotly's trace colours); its TeX lines are
 * {@link texLines} with the user's strings `userText` left out.
 */
export async function checkPdf(
  pdf: string,
  minPixels = 200,
  userText: readonly string[] = [],
): Promise<PdfCheck> {
  return await withKitTempDir("kit-pdf-", async (dir) => {
    await tool("pdftoppm", ["-r", "40", pdf, `${dir}/page`]);
    const pages = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".ppm"))
      .sort();
    let pagesWithFigures = 0;
    for (const p of pages) {
      if (countTracePixels(await Deno.readFile(`${dir}/${p}`)) >= minPixels) pagesWithFigures++;
    }
    const text = new TextDecoder().decode(await tool("pdftotext", ["-layout", pdf, "-"]));
    return { pages: pages.length, pagesWithFigures, text, unrenderedTex: texLines(text, userText) };
  });
}
