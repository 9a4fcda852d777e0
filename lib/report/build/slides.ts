/**
 * The lessons as slides for a class: an executed notebook exported with nbconvert's reveal.js
 * slides (`--to slides`, the kit's template `templates/kit_slides`), made fully offline:
 * reveal.js (npm, pinned) and KaTeX (`maths.ts`) are inlined, nothing is linked from a CDN.
 *
 * Cells become slides by their `slideshow.slide_type` metadata (Jupyter's View > Cell Toolbar >
 * Slideshow). A notebook without it gets the lesson's layout (`slideLayout`): a Markdown cell
 * that opens with a heading starts a slide, any other Markdown cell a sub-slide (below it),
 * and each code cell stays with the text before it, its output included. A slide taller than
 * the screen scrolls.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import { inlineAsset, npmPackageDir } from "../../io/npm_package.ts";
import { writeFileAtomic } from "../../io/atomic.ts";
import type { Page } from "npm:playwright-core@1.65.1";
import type { BrowserSession } from "../check/browser.ts";
import { offlinePage, pageLogSnapshot } from "../check/browser.ts";
import { openAndDraw, type PageCheck, pageProblems } from "../check/check.ts";
import { jupyterPython } from "./execute.ts";
import { TEMPLATES_DIR } from "./export.ts";
import { type TexProblem, UNRENDERED_TEX, withMaths } from "./maths.ts";
import type { NotebookJson } from "./static_images.ts";
import { lessonLength } from "./lessons.ts";

/** The pinned reveal.js version. */
export const REVEAL_VERSION = "6.0.2";

/** Jupyter's slide types. */
export type SlideType = "slide" | "subslide" | "fragment" | "-" | "skip" | "notes";

const text = (s: string | string[]) => Array.isArray(s) ? s.join("") : s;

/**
 * The slide type of each cell: its own `slideshow.slide_type` when any cell of the notebook
 * has one (the author laid the slides out), otherwise the lesson's layout: the first cell and
 * every Markdown cell opening with a heading start a slide, other Markdown cells a sub-slide,
 * code cells continue the slide before them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { slideLayout } from "./slides.ts";
 * const md = (s: string) => ({ cell_type: "markdown", source: s });
 * const code = { cell_type: "code", source: "1" };
 * assert.deepEqual(
 *   slideLayout({ cells: [md("# T\n\nwhy"), code, md("so:"), code, md("## Next"), code] }),
 *   ["slide", "-", "subslide", "-", "slide", "-"],
 * );
 * ```
 */
export function slideLayout(
  nb: { cells: { cell_type: string; source: string | string[]; metadata?: unknown }[] },
): SlideType[] {
  const own = (c: { metadata?: unknown }) =>
    (c.metadata as { slideshow?: { slide_type?: SlideType } } | undefined)?.slideshow?.slide_type;
  if (nb.cells.some((c) => own(c) !== undefined)) return nb.cells.map((c) => own(c) ?? "-");
  return nb.cells.map((c, i) => {
    if (i === 0) return "slide";
    if (c.cell_type !== "markdown") return "-";
    return /^\s*#{1,6}\s/.test(text(c.source)) ? "slide" : "subslide";
  });
}

let revealAssets: { css: string; js: string } | undefined;

/**
 * reveal.js's style sheets (the deck, and the white theme without its web fonts: the slides use
 * the notebook pages' Noto fonts) and script, inline.
 */
function reveal(): { css: string; js: string } {
  if (revealAssets) return revealAssets;
  const dist = `${npmPackageDir("reveal.js", REVEAL_VERSION)}/dist`;
  const theme = inlineAsset(`${dist}/theme/white.css`, "style")
    .replace(/@font-face\s*\{[^}]*\}/g, "")
    .replace(/@import[^;]*;/g, "");
  if (/url\((?!data:|["']?#)/.test(theme)) {
    throw new KitError("reveal.js's theme links a file; the slides must be self-contained", {
      file: `${dist}/theme/white.css`,
    });
  }
  return revealAssets = {
    css: `<style type="text/css">${inlineAsset(`${dist}/reveal.css`, "style")}</style>\n` +
      `<style type="text/css">${theme}</style>`,
    js: `<script>${inlineAsset(`${dist}/reveal.js`, "script")}</script>`,
  };
}

/** What {@link exportSlides} made. */
export interface SlidesResult {
  /** The slides page. */
  html: string;
  /** Slides (top-level sections) and sub-slides. */
  slides: number;
  subslides: number;
  /** The lesson's estimated class time (`lessonLength`). */
  minutes: number;
}

/**
 * Exports the executed notebook `ipynb` as reveal.js slides to `html`, self-contained and
 * offline (reveal.js and KaTeX inline; plotly.js is in the first figure's output).
 */
export async function exportSlides(ipynb: string, html: string): Promise<SlidesResult> {
  const nb = JSON.parse(await Deno.readTextFile(ipynb)) as NotebookJson;
  const layout = slideLayout(nb);
  const laidOut: NotebookJson = {
    ...nb,
    cells: nb.cells.map((c, i) => ({
      ...c,
      metadata: { ...c.metadata ?? {}, slideshow: { slide_type: layout[i] } },
    })),
  };
  // The laid-out copy and nbconvert's page sit beside the output under temporary names (a
  // report builds in its own workspace folder, which a failed build discards whole).
  const slash = html.lastIndexOf("/");
  const dir = slash < 0 ? "." : html.slice(0, slash);
  const stem = `${html.slice(slash + 1).replace(/\.html$/, "")}.tmp-${Deno.pid}`;
  const copy = `${dir}/${stem}.ipynb`, exported = `${dir}/${stem}.slides.html`;
  try {
    await writeFileAtomic(copy, JSON.stringify(laidOut), { force: true });
    const out = await new Deno.Command(jupyterPython(), {
      args: [
        "-Xfrozen_modules=off",
        "-m",
        "nbconvert",
        "--to",
        "slides",
        "--template",
        "kit_slides",
        `--TemplateExporter.extra_template_basedirs=${TEMPLATES_DIR}`,
        "--output-dir",
        dir,
        "--output",
        stem,
        copy,
      ],
      env: { PYDEVD_DISABLE_FILE_VALIDATION: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      throw new KitError(
        `nbconvert --to slides failed: ${new TextDecoder().decode(out.stderr).trim()}`,
        { file: ipynb },
      );
    }
    let page = await Deno.readTextFile(exported);
    const assets = reveal();
    for (const marker of ["<!-- kit: reveal.css -->", "<!-- kit: reveal.js -->"]) {
      if (!page.includes(marker)) {
        throw new KitError(`the slides template lost its marker ${marker}`, {
          file: TEMPLATES_DIR,
        });
      }
    }
    page = page.replace("<!-- kit: reveal.css -->", () => assets.css)
      .replace("<!-- kit: reveal.js -->", () => assets.js);
    await writeFileAtomic(html, withMaths(page), { force: true });
    return {
      html,
      slides: layout.filter((t) => t === "slide").length,
      subslides: layout.filter((t) => t === "subslide").length,
      minutes: lessonLength(nb).minutes,
    };
  } finally {
    for (const f of [copy, exported]) await Deno.remove(f).catch(() => {});
  }
}

/** The result of checking a slides page: the page check's fields, and the deck's state. */
export interface SlidesCheck extends PageCheck {
  /** Whether reveal.js initialized the deck. */
  ready: boolean;
  /** Slides reveal.js counts (sub-slides included). */
  totalSlides: number;
}

/** The window the slides are checked in (16:9, the deck's own size). */
const SCREEN = { width: 1280, height: 720 };

/** Page script: the deck's state once reveal.js is ready (or not). */
const DECK_STATE = `({
  ready: document.body.getAttribute("data-kit-slides") === "ready" &&
    typeof Reveal !== "undefined" && Reveal.isReady(),
  totalSlides: typeof Reveal !== "undefined" && Reveal.isReady() ? Reveal.getTotalSlides() : 0,
})`;

/**
 * Opens a slides page offline in headless Chromium: reveal.js must start the deck, every figure
 * must draw, every formula must be typeset, and the page must raise no script error and ask the
 * network for nothing. With `screenshotPath`, the first slide is saved as a PNG.
 */
export async function checkSlides(
  session: BrowserSession,
  htmlPath: string,
  screenshotPath?: string,
  timeoutMs = 60_000,
): Promise<SlidesCheck> {
  const { page, log } = await offlinePage(session);
  const started = performance.now();
  try {
    await page.setViewportSize(SCREEN); // a projector's shape, not the printed page's
    const figures = await openAndDraw(page, htmlPath, timeoutMs);
    await page.waitForFunction(
      `document.body.getAttribute("data-kit-slides") === "ready"`,
      undefined,
      { timeout: timeoutMs },
    ).catch(() => {});
    const deck = await page.evaluate(DECK_STATE) as { ready: boolean; totalSlides: number };
    await page.evaluate(`document.fonts.ready.then(() => true)`);
    const unrenderedTex = await page.evaluate(UNRENDERED_TEX) as TexProblem[];
    if (screenshotPath) await screenshot(page, screenshotPath);
    return {
      page: htmlPath,
      figures,
      ...pageLogSnapshot(log),
      ...(screenshotPath ? { screenshot: screenshotPath } : {}),
      arabicFonts: [],
      unrenderedTex,
      seconds: (performance.now() - started) / 1000,
      ...deck,
    };
  } finally {
    await page.close();
  }
}

/**
 * Where a report keeps the slides of notebook `name` and the screenshot of their first slide,
 * relative to the report's folder.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { slideFiles } from "./slides.ts";
 * assert.deepEqual(slideFiles("04-metrics"), [
 *   "slides/04-metrics.html",
 *   "screenshots/slides-04-metrics.png",
 * ]);
 * ```
 */
export function slideFiles(name: string): [html: string, screenshot: string] {
  return [`slides/${name}.html`, `screenshots/slides-${name}.png`];
}

/**
 * Exports the slides of the executed notebook `ipynb` into the report folder `dir`
 * ({@link slideFiles}) and checks them.
 */
export async function makeSlides(
  session: BrowserSession,
  ipynb: string,
  dir: string,
  name: string,
): Promise<SlidesResult & { check: SlidesCheck }> {
  const [html, png] = slideFiles(name).map((f) => `${dir}/${f}`);
  await Deno.mkdir(html.slice(0, html.lastIndexOf("/")), { recursive: true });
  const made = await exportSlides(ipynb, html);
  return { ...made, check: await checkSlides(session, html, png) };
}

async function screenshot(page: Page, path: string): Promise<void> {
  await Deno.mkdir(path.replace(/\/[^/]*$/, ""), { recursive: true });
  await page.screenshot({ path });
}

/**
 * What is wrong with a checked slides page, one line each starting with the page: the page
 * check's problems, and a deck reveal.js did not start or that holds a single slide.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { slidesProblems } from "./slides.ts";
 * const base = {
 *   page: "s.html", seconds: 1, figures: [], pageErrors: [], consoleErrors: [],
 *   blockedRequests: [], failedRequests: [], ignoredRequests: [], arabicFonts: [],
 * };
 * assert.deepEqual(slidesProblems({ ...base, ready: true, totalSlides: 12 }), []);
 * assert.deepEqual(slidesProblems({ ...base, ready: false, totalSlides: 0 }), [
 *   "s.html: reveal.js did not start the deck",
 * ]);
 * ```
 */
export function slidesProblems(c: SlidesCheck): string[] {
  const p = pageProblems(c);
  if (!c.ready) p.push("reveal.js did not start the deck");
  else if (c.totalSlides < 2) p.push(`the deck has ${c.totalSlides} slide(s): no slide layout`);
  return p.map((line) => `${c.page}: ${line}`);
}
