/**
 * The lessons as slides for a class: an executed notebook exported with nbconvert's reveal.js
 * slides (`--to slides`, the kit's template `templates/kit_slides`), made fully offline:
 * reveal.js (npm, pinned) and KaTeX (`maths.ts`) are inlined, nothing is linked from a CDN.
 *
 * The lesson is laid out for a room by `slide_layout.ts` (one idea a slide: heading, headline
 * sentence, formulas and one result-carrying output; the rest of the prose as speaker notes,
 * which reveal.js's notes plugin shows on `s`; code hidden or folded). In the browser each slide
 * is fitted to the 1280×720 frame when shown, and {@link checkSlides} visits every slide and
 * measures what still overflows; {@link slidesProblems} names it.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import { inlineAsset, npmPackageDir } from "../../io/npm_package.ts";
import { writeFileAtomic } from "../../io/atomic.ts";
import type { Page } from "npm:playwright-core@1.65.1";
import type { BrowserSession } from "../check/browser.ts";
import { captureInFront, offlinePage, pageLogSnapshot } from "../check/browser.ts";
import { openAndDraw, type PageCheck, pageProblems } from "../check/check.ts";
import { convertWithTemplate, TEMPLATES_DIR } from "./export.ts";
import { type TexProblem, UNRENDERED_TEX, withMaths } from "./maths.ts";
import type { NotebookJson } from "./static_images.ts";
import { lessonLength } from "./lessons.ts";
import { slideDeck, type SlideOptions } from "./slide_layout.ts";

export type { SlideOptions, SlideType } from "./slide_layout.ts";

/** The pinned reveal.js version. */
export const REVEAL_VERSION = "6.0.2";

let revealAssets: { css: string; js: string } | undefined;

/**
 * reveal.js's style sheets (the deck, and the white theme without its web fonts: the slides use
 * the notebook pages' Noto fonts) and scripts (the deck, and its speaker notes plugin), inline.
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
    js: `<script>${inlineAsset(`${dist}/reveal.js`, "script")}</script>\n` +
      `<script>${inlineAsset(`${dist}/plugin/notes.js`, "script")}</script>`,
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
 * offline (reveal.js and KaTeX inline; plotly.js is in the first figure's output), laid out
 * by `slideDeck` (with `options.code`, each slide's code folded).
 */
export async function exportSlides(
  ipynb: string,
  html: string,
  options: SlideOptions = {},
): Promise<SlidesResult> {
  const nb = JSON.parse(await Deno.readTextFile(ipynb)) as NotebookJson;
  const laidOut = slideDeck(nb, options);
  const layout = laidOut.cells.map((c) =>
    (c.metadata as { slideshow: { slide_type: string } }).slideshow.slide_type
  );
  // The laid-out copy and nbconvert's page sit beside the output under temporary names (a
  // report builds in its own workspace folder, which a failed build discards whole).
  const slash = html.lastIndexOf("/");
  const dir = slash < 0 ? "." : html.slice(0, slash);
  const stem = `${html.slice(slash + 1).replace(/\.html$/, "")}.tmp-${Deno.pid}`;
  const copy = `${dir}/${stem}.ipynb`, exported = `${dir}/${stem}.slides.html`;
  try {
    await writeFileAtomic(copy, JSON.stringify(laidOut), { force: true });
    const out = await convertWithTemplate("slides", "kit_slides", copy, dir, stem);
    if (!out.ok) {
      throw new KitError(
        `nbconvert --to slides failed: ${out.stderr.trim()}`,
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
    // KaTeX goes before the page's last </body> first: the notes plugin's script holds one.
    page = withMaths(page).replace("<!-- kit: reveal.css -->", () => assets.css)
      .replace("<!-- kit: reveal.js -->", () => assets.js);
    await writeFileAtomic(html, page, { force: true });
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
  /** Whether reveal.js initialized the deck and its first slide was laid out. */
  ready: boolean;
  /** Whether reveal.js initialized the deck (`ready` is false when its first slide then failed). */
  started: boolean;
  /** Slides reveal.js counts (sub-slides included). */
  totalSlides: number;
  /** Slides (sub-slides included) with speaker notes. */
  notes: number;
  /** Whether reveal.js's notes plugin is there (`s` opens the speaker view). */
  speakerView: boolean;
  /** Each slide whose content overflows the frame, once fitted. */
  slideOverflow: SlideOverflow[];
  /** Each output or list cut to fit a slide: its slide, heading, and what the slide says is left. */
  truncated?: { slide: string; heading: string; more: string }[];
}

/** A slide whose content runs past the slide's frame (reveal.js's configured size). */
export interface SlideOverflow {
  /** The slide's position, `h` or `h.v` (0-based, as reveal.js counts). */
  slide: string;
  /** Its first heading's text. */
  heading: string;
  /** How far the content runs past the frame, in the deck's pixels. */
  right: number;
  bottom: number;
}

/**
 * Page script: visits every slide (sub-slides included), lets the deck fit it (the template's
 * `kitFitSlide`, when there is one) and measures it: the slide's content beyond reveal.js's
 * configured width and height, and any element whose box lies outside the slide's frame.
 * Resolves to the deck's notes count and its overflowing slides; ends on the first slide.
 */
const VISIT_SLIDES = `(async () => {
  const { width, height } = Reveal.getConfig();
  const slides = Reveal.getSlides();
  const overflow = [], truncated = [];
  let notes = 0;
  const frame = document.querySelector(".reveal .slides");
  for (const s of slides) {
    const { h, v } = Reveal.getIndices(s);
    Reveal.slide(h, v);
    if (window.kitFitSlide) await window.kitFitSlide(s);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    if ([...s.querySelectorAll("aside.notes")].some((a) => a.textContent.trim())) notes++;
    const scale = Reveal.getScale() || 1;
    const f = frame.getBoundingClientRect();
    let right = Math.max(0, s.scrollWidth - width), bottom = Math.max(0, s.scrollHeight - height);
    // each element's box as shown: cut by its ancestors that clip (KaTeX's 400em-wide roots)
    const visit = (el, clip) => {
      if (el.matches("aside.notes, details:not([open]) > :not(summary), .katex-mathml")) return;
      const r = el.getBoundingClientRect();
      const x0 = Math.max(r.left, clip.left), x1 = Math.min(r.right, clip.right);
      const y0 = Math.max(r.top, clip.top), y1 = Math.min(r.bottom, clip.bottom);
      if (r.width > 0 || r.height > 0) {
        if (x1 > x0 || r.width === 0) {
          right = Math.max(right, (x1 - f.right) / scale, (f.left - x0) / scale);
        }
        if (y1 > y0 || r.height === 0) {
          bottom = Math.max(bottom, (y1 - f.bottom) / scale, (f.top - y0) / scale);
        }
      }
      const style = getComputedStyle(el);
      // a box that scrolls hides what it holds just the same
      if (/auto|scroll/.test(style.overflowX)) right = Math.max(right, el.scrollWidth - el.clientWidth - 1);
      if (/auto|scroll/.test(style.overflowY)) bottom = Math.max(bottom, el.scrollHeight - el.clientHeight - 1);
      const inner = {
        left: style.overflowX === "visible" ? clip.left : x0,
        right: style.overflowX === "visible" ? clip.right : x1,
        top: style.overflowY === "visible" ? clip.top : y0,
        bottom: style.overflowY === "visible" ? clip.bottom : y1,
      };
      for (const c of el.children) visit(c, inner);
    };
    const all = { left: -Infinity, right: Infinity, top: -Infinity, bottom: Infinity };
    for (const c of s.children) visit(c, all);
    const title = s.querySelector("h1, h2, h3, h4, h5, h6");
    const at = {
      slide: v ? h + "." + v : String(h),
      heading: title ? title.textContent.replace(/\u00b6/g, "").trim() : "",
    };
    if (right > 1 || bottom > 1) {
      overflow.push({ ...at, right: Math.round(right), bottom: Math.round(bottom) });
    }
    for (const m of s.querySelectorAll(".kit-more")) {
      if (!m.closest("aside.notes")) truncated.push({ ...at, more: m.textContent.trim() });
    }
  }
  Reveal.slide(0, 0);
  return { notes, slideOverflow: overflow, truncated };
})()`;

/** The window the slides are checked in (16:9, the deck's own size). */
const SCREEN = { width: 1280, height: 720 };

/** Page script: the deck's state once reveal.js is ready (or not). */
const DECK_STATE = `(() => {
  const started = typeof Reveal !== "undefined" && Reveal.isReady();
  return {
    ready: started && document.body.getAttribute("data-kit-slides") === "ready",
    started,
    totalSlides: started ? Reveal.getTotalSlides() : 0,
    speakerView: started && Reveal.hasPlugin("notes"),
  };
})()`;

/**
 * Opens a slides page offline in headless Chromium: reveal.js must start the deck, every figure
 * must draw, every formula must be typeset, and the page must raise no script error and ask the
 * network for nothing. Every slide is visited at 1280×720 and measured (`overflow`), and its
 * speaker notes counted. With `screenshotPath`, the first slide is saved as a PNG.
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
      // "failed": reveal.js threw, or the first slide could not be laid out (the template).
      `["ready", "failed"].includes(document.body.getAttribute("data-kit-slides"))`,
      undefined,
      { timeout: timeoutMs },
    ).catch(() => {});
    const deck = await page.evaluate(DECK_STATE) as Pick<
      SlidesCheck,
      "ready" | "started" | "totalSlides" | "speakerView"
    >;
    await page.evaluate(`document.fonts.ready.then(() => true)`);
    const unrenderedTex = await page.evaluate(UNRENDERED_TEX) as TexProblem[];
    if (screenshotPath) await screenshot(page, screenshotPath);
    const visited = deck.ready
      ? await page.evaluate(VISIT_SLIDES) as Pick<SlidesCheck, "notes" | "slideOverflow">
      : { notes: 0, slideOverflow: [] };
    return {
      page: htmlPath,
      figures,
      ...pageLogSnapshot(log),
      ...(screenshotPath ? { screenshot: screenshotPath } : {}),
      arabicFonts: [],
      unrenderedTex,
      seconds: (performance.now() - started) / 1000,
      ...deck,
      ...visited,
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
  options: SlideOptions = {},
): Promise<SlidesResult & { check: SlidesCheck }> {
  const [html, png] = slideFiles(name).map((f) => `${dir}/${f}`);
  await Deno.mkdir(html.slice(0, html.lastIndexOf("/")), { recursive: true });
  const made = await exportSlides(ipynb, html, options);
  return { ...made, check: await checkSlides(session, html, png) };
}

/**
 * Style applied while a deck is captured: reveal.js's controls at rest. On the first slide it
 * bounces the next arrow (`controlsTutorial`) and fades the controls in, drawn by pseudo-elements
 * with transitions of their own; with animations merely finished, two builds of one deck still
 * caught the arrow a few pixels apart (1 deck of 12).
 */
const CONTROLS_AT_REST = `.reveal .controls, .reveal .controls *, .reveal .controls *::before,
  .reveal .controls *::after { animation: none !important; transition: none !important; }`;

/** The deck's first slide as a PNG, its animations finished and its controls at rest. */
async function screenshot(page: Page, path: string): Promise<void> {
  await Deno.mkdir(path.replace(/\/[^/]*$/, ""), { recursive: true });
  await captureInFront(
    page,
    () => page.screenshot({ path, animations: "disabled", style: CONTROLS_AT_REST }),
  );
}

/**
 * What is wrong with a checked slides page, one line each starting with the page: the page
 * check's problems, a deck reveal.js did not start or that holds a single slide, a deck
 * without speaker notes, and each slide whose content overflows the frame.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { slidesProblems } from "./slides.ts";
 * const base = {
 *   page: "s.html", seconds: 1, figures: [], pageErrors: [], consoleErrors: [],
 *   blockedRequests: [], failedRequests: [], ignoredRequests: [], arabicFonts: [],
 *   ready: true, started: true, totalSlides: 12, notes: 12, speakerView: true, slideOverflow: [],
 * };
 * assert.deepEqual(slidesProblems(base), []);
 * const unstarted = { ...base, ready: false, started: false, totalSlides: 0, notes: 0 };
 * assert.deepEqual(slidesProblems(unstarted), [
 *   "s.html: reveal.js did not start the deck",
 * ]);
 * assert.deepEqual(slidesProblems({ ...base, ready: false, started: true }), [
 *   "s.html: reveal.js started the deck, but its first slide could not be laid out (see the page's errors)",
 * ]);
 * assert.deepEqual(
 *   slidesProblems({
 *     ...base,
 *     notes: 0,
 *     slideOverflow: [{ slide: "3.1", heading: "MAP", right: 0, bottom: 240 }],
 *   }),
 *   [
 *     "s.html: the deck has no speaker notes",
 *     "s.html: slide 3.1 'MAP' overflows the 1280×720 frame (240 px below, 0 px right)",
 *   ],
 * );
 * ```
 */
export function slidesProblems(c: SlidesCheck): string[] {
  const p = pageProblems(c);
  if (!c.ready) {
    p.push(
      c.started
        ? "reveal.js started the deck, but its first slide could not be laid out (see the page's errors)"
        : "reveal.js did not start the deck",
    );
  } else if (c.totalSlides < 2) p.push(`the deck has ${c.totalSlides} slide(s): no slide layout`);
  if (c.ready && c.notes === 0) p.push("the deck has no speaker notes");
  if (c.ready && !c.speakerView) p.push("reveal.js's notes plugin is missing: no speaker view");
  for (const o of c.slideOverflow) {
    p.push(
      `slide ${o.slide} '${o.heading}' overflows the ${SCREEN.width}×${SCREEN.height} frame ` +
        `(${o.bottom} px below, ${o.right} px right)`,
    );
  }
  return p.map((line) => `${c.page}: ${line}`);
}
