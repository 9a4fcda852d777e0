/**
 * Formulas in the report's pages, rendered offline. nbconvert's templates load MathJax from a
 * CDN (or from the exporting machine's `/usr/share`), so an offline page shows the raw TeX
 * (`$$P@k = \frac{1}{k}…$$`); the kit's template drops that link, and this module puts KaTeX
 * (npm `katex`, pinned) into the page instead: its script, its auto-render extension and its
 * style sheet with the fonts as `data:` URLs, all inline. The formulas are typeset while the
 * page loads, before its figures draw, so the screenshots and the PDF show them.
 *
 * {@link UNRENDERED_TEX} is the page check's side: prose that still reads like TeX after the
 * page loaded (`$$`, `$…$`, `\frac`, …) or a formula KaTeX could not parse.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { KitError } from "../../errors.ts";
import { inlineAsset, npmPackageDir } from "../../io/npm_package.ts";
import { writeFileAtomic } from "../../io/atomic.ts";
import { TEX_IGNORE_CLASS } from "../../io/escape.ts";

/** The pinned KaTeX version. */
export const KATEX_VERSION = "0.19.1";

/**
 * The delimiters the notebooks use (as Jupyter renders them): `$$…$$` and `\[…\]` for display
 * formulas, `$…$` and `\(…\)` inline.
 */
export const MATH_DELIMITERS = [
  { left: "$$", right: "$$", display: true },
  { left: "\\[", right: "\\]", display: true },
  { left: "\\(", right: "\\)", display: false },
  { left: "$", right: "$", display: false },
] as const;

/** Marks a page that already carries the kit's KaTeX (so it is never added twice). */
const MARKER = "<!-- kit: KaTeX -->";

let cached: string | undefined;

/**
 * KaTeX's style sheet with every font as an inline WOFF2 `data:` URL (the WOFF and TrueType
 * fallbacks are dropped: every browser that runs KaTeX reads WOFF2).
 */
function inlineFonts(css: string, fontsDir: string): string {
  return css.replace(/src:([^;}]*)/g, (_, sources: string) => {
    const woff2 = /url\((?:'|")?(fonts\/[^)'"]+\.woff2)(?:'|")?\)/.exec(sources);
    if (!woff2) throw new KitError(`a KaTeX font without WOFF2: ${sources.slice(0, 80)}`);
    const bytes = Deno.readFileSync(`${fontsDir}/${woff2[1].slice("fonts/".length)}`);
    return `src:url(data:font/woff2;base64,${Buffer.from(bytes).toString("base64")}) ` +
      'format("woff2")';
  });
}

/**
 * The HTML that renders a page's formulas: KaTeX's style sheet (fonts inline), its script,
 * the auto-render extension and the call that typesets `document.body` (a formula KaTeX cannot
 * parse is left as its TeX and its message kept in `window.kitTexErrors` for the page check).
 * Put it at the end of `<body>`: it runs once the text above it is parsed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mathsHtml } from "./maths.ts";
 * const html = mathsHtml();
 * assert(html.includes("renderMathInElement") && html.includes("data:font/woff2;base64,"));
 * assert(!/url\(fonts\//.test(html)); // no font left to fetch
 * ```
 */
export function mathsHtml(): string {
  if (cached) return cached;
  const dist = `${npmPackageDir("katex", KATEX_VERSION)}/dist`;
  const css = inlineFonts(inlineAsset(`${dist}/katex.min.css`, "style"), `${dist}/fonts`);
  const options = {
    delimiters: MATH_DELIMITERS,
    // A formula KaTeX cannot parse (a typo, an unknown command) stays as its TeX, which the
    // check reports with KaTeX's message, instead of being drawn half in red.
    throwOnError: true,
    // Code, its highlighted output and plain-text outputs keep their dollars.
    ignoredTags: ["script", "noscript", "style", "textarea", "pre", "code", "option", "svg"],
    // A user's string that holds a `$` or a backslash (`htmlText`): text, not a formula.
    ignoredClasses: [TEX_IGNORE_CLASS],
  };
  // KaTeX's message for a formula it could not parse, kept for the check.
  const keepErrors = "errorCallback: (message, error) => (window.kitTexErrors ||= [])" +
    ".push({ text: String(message), error: String(error && error.message || error) })";
  cached = [
    MARKER,
    `<style type="text/css">${css}</style>`,
    `<script>${inlineAsset(`${dist}/katex.min.js`, "script")}</script>`,
    `<script>${inlineAsset(`${dist}/contrib/auto-render.min.js`, "script")}</script>`,
    `<script>renderMathInElement(document.body, { ...${
      JSON.stringify(options)
    }, ${keepErrors} });` +
    "</script>",
  ].join("\n");
  return cached;
}

/**
 * `html` with the maths renderer ({@link mathsHtml}) before its `</body>`; a page that has it
 * already is returned unchanged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withMaths } from "./maths.ts";
 * const page = withMaths("<html><body><p>$x^2$</p></body></html>");
 * assert(page.indexOf("katex") < page.indexOf("</body>") && withMaths(page) === page);
 * ```
 */
export function withMaths(html: string): string {
  if (html.includes(MARKER)) return html;
  const end = html.lastIndexOf("</body>");
  if (end < 0) throw new KitError("the page has no </body>: cannot add the maths renderer");
  return html.slice(0, end) + mathsHtml() + "\n" + html.slice(end);
}

/** Adds the maths renderer to the page at `path` (rewritten in place, atomically). */
export async function addMaths(path: string): Promise<void> {
  const html = await Deno.readTextFile(path);
  const out = withMaths(html);
  if (out !== html) await writeFileAtomic(path, out, { force: true });
}

/** Something on a page that should have been a typeset formula. */
export interface TexProblem {
  /** The notebook cell it is in (0-based, as in the `.ipynb`), when the page is a notebook's. */
  cell?: number;
  /** The text as the reader sees it (shortened). */
  text: string;
  /** KaTeX's message, when it could not parse the formula. */
  error?: string;
}

/**
 * Page script: every text that still reads like TeX once the page has loaded (a `$$` or a
 * `$…$` pair, or a TeX command such as `\frac`, outside code, scripts, typeset formulas and
 * the user strings marked as text, {@link TEX_IGNORE_CLASS}) and every formula KaTeX drew as
 * an error; a list of {@link TexProblem}.
 */
export const UNRENDERED_TEX = `(() => {
  const cells = [...document.querySelectorAll(".jp-Cell")];
  const cellOf = (el) => {
    const c = el.closest(".jp-Cell");
    return c ? { cell: cells.indexOf(c) } : {};
  };
  const short = (s) => s.length > 70 ? s.slice(0, 67) + "..." : s;
  const tex = /\\$\\$|\\$[^$\\s][^$]*\\$|\\\\(?:[a-zA-Z]{2,}|[[\\]()])/;
  // reveal.js repeats the current slide's text (code too) in .aria-status, for screen readers
  const skip = "script, style, pre, code, textarea, svg, .katex, .katex-error, .aria-status, " +
    ".${TEX_IGNORE_CLASS}";
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement;
    const text = (n.textContent || "").replace(/\\s+/g, " ");
    const m = tex.exec(text);
    if (!m || !p || p.closest(skip)) continue;
    const at = Math.max(0, m.index - 20);
    found.push({ ...cellOf(p), text: short(text.slice(at).trim()) });
  }
  for (const e of document.querySelectorAll(".katex-error")) {
    found.push({ ...cellOf(e), text: short(e.textContent || ""), error: e.getAttribute("title") || "" });
  }
  for (const e of window.kitTexErrors || []) {
    const tex = /\\x60([\\s\\S]*)\\x60/.exec(e.text);
    // KaTeX underlines the failing part with combining low lines (U+0332): dropped here
    found.push({ text: short(tex ? tex[1] : e.text), error: e.error.replace(/\\u0332/g, "") });
  }
  return found;
})()`;

/**
 * The page check's line for one {@link TexProblem}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { texProblemLine } from "./maths.ts";
 * assert.equal(
 *   texProblemLine({ cell: 4, text: "$$P@k = \\frac{1}{k}$$" }),
 *   "cell 4: TeX not typeset: '$$P@k = \\frac{1}{k}$$'",
 * );
 * ```
 */
export function texProblemLine(p: TexProblem): string {
  const where = p.cell === undefined ? "" : `cell ${p.cell}: `;
  return p.error !== undefined
    ? `${where}a formula KaTeX could not typeset: '${p.text}' (${p.error || "no message"})`
    : `${where}TeX not typeset: '${p.text}'`;
}
