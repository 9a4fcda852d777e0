/**
 * User strings (system names, run tags, query and document ids, file paths) as text in every
 * format the kit writes: one function per format, and every writer calls it where such a
 * string meets that format. Nothing a user types is read as markup, a formula or a
 * spreadsheet formula.
 *
 * | format                                   | function           |
 * | ---------------------------------------- | ------------------ |
 * | HTML: an attribute, a page without maths | {@link escapeHtml} |
 * | HTML text on a page whose maths is typeset (KaTeX, Jupyter's MathJax) | {@link htmlText} |
 * | JSON inside an inline `<script>`         | {@link scriptJson} |
 * | a Plotly label (a legend, a title, hover text) | {@link plotlyText} |
 * | Markdown (a table cell, a caption)       | {@link markdownText} |
 * | LaTeX text mode                          | {@link latexText}  |
 * | a CSV field                              | {@link csvText}    |
 *
 * `tests/io/escape_test.ts` sends random strings of the characters these formats treat
 * specially through every writer and decodes each output independently.
 *
 * @module
 */

const HTML_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Text in HTML, in an element or in a quoted attribute: `& < > " '` as entities.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeHtml } from "./escape.ts";
 * assert.equal(escapeHtml(`<b title="x">A & B's</b>`), "&lt;b title=&quot;x&quot;&gt;A &amp; B&#39;s&lt;/b&gt;");
 * ```
 */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]);
}

/**
 * The class whose text the maths renderers leave alone: KaTeX's auto-render on the report's
 * pages (`ignoredClasses`, lib/report/build/maths.ts), MathJax in Jupyter (its default
 * `ignoreHtmlClass`); the page check skips it too.
 */
export const TEX_IGNORE_CLASS = "tex2jax_ignore";

/**
 * Text in an HTML element of a page whose formulas are typeset: {@link escapeHtml}, and when
 * it holds a `$` or a backslash (which would open a formula: `$x^2$`, `\(`), inside a span of
 * {@link TEX_IGNORE_CLASS}, so the reader sees the characters typed. (An entity such as
 * `&#36;` would not do: the renderers read the decoded text.) Not for attributes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { htmlText } from "./escape.ts";
 * assert.equal(htmlText("bm25 <v2>"), "bm25 &lt;v2&gt;");
 * assert.equal(htmlText("$x^2$"), '<span class="tex2jax_ignore">$x^2$</span>');
 * ```
 */
export function htmlText(s: string): string {
  const text = escapeHtml(s);
  return /[$\\]/.test(s) ? `<span class="${TEX_IGNORE_CLASS}">${text}</span>` : text;
}

/**
 * A value as JSON that is safe inside an inline `<script>`: `<`, `>` and `&` as `\u` escapes
 * (so no `</script>` or `<!--` ends or changes the element) and U+2028 and U+2029 too (line
 * breaks to older JavaScript parsers). `JSON.parse` and JavaScript read it as the value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scriptJson } from "./escape.ts";
 * const json = scriptJson({ name: "</script>&\u2028" });
 * assert.equal(json, '{"name":"\\u003c/script\\u003e\\u0026\\u2028"}');
 * assert.deepEqual(JSON.parse(json), { name: "</script>&\u2028" });
 * ```
 */
export function scriptJson(value: unknown): string {
  return (JSON.stringify(value) ?? "null")
    .replaceAll("<", "\\u003c")
    .replaceAll(">", "\\u003e")
    .replaceAll("&", "\\u0026")
    .replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029");
}

/**
 * Text shown literally by Plotly, which reads a few HTML tags (`<b>`, `<br>`, `<a>`) and
 * entities in its labels, and a `$…$` label as TeX where MathJax is loaded (Jupyter): `& < >`
 * and `$` as entities, which Plotly decodes after it has looked for tags and TeX.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plotlyText } from "./escape.ts";
 * assert.equal(plotlyText("<b>A&B</b> $x$"), "&lt;b&gt;A&amp;B&lt;/b&gt; &#36;x&#36;");
 * ```
 */
export function plotlyText(s: string): string {
  return s.replace(/[&<>$]/g, (c) => c === "$" ? "&#36;" : HTML_ENTITIES[c]);
}

/**
 * Inline text in Markdown (a table cell, a caption, a sentence): every character with a
 * meaning in CommonMark or GitHub's Markdown is escaped with a backslash (CommonMark's escape
 * of ASCII punctuation): the backslash, `|` (which would end a table cell), emphasis and
 * strikethrough (`*`, `_`, `~`), code (a backquote), links (`[`, `]`), HTML and entities
 * (`<`, `>`, `&`), headings (`#`) and formulas (`$`, as GitHub and Jupyter read `\$`). A line
 * break becomes a space (a table row is one line).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { markdownText } from "./escape.ts";
 * assert.equal(markdownText("x|y"), "x\\|y");
 * assert.equal(markdownText("a*b_c`d<e>\\"), "a\\*b\\_c\\`d\\<e\\>\\\\");
 * assert.equal(markdownText("$x^2$ [a](b) #1 &amp;"), "\\$x^2\\$ \\[a\\](b) \\#1 \\&amp;");
 * ```
 */
export function markdownText(s: string): string {
  return s.replace(/[\\|*_~`[\]<>&#$]/g, "\\$&").replace(/\r\n|[\r\n]/g, " ");
}

const LATEX_SPECIAL: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
  "<": "\\textless{}",
  ">": "\\textgreater{}",
  "|": "\\textbar{}",
};

/**
 * Text in LaTeX (a table cell, a caption): the ten special characters (`& % $ # _ { } ~ ^ \`)
 * and `< > |` (which the default OT1 font sets as other glyphs) escaped in one pass, so the
 * braces of `\textbackslash{}` are not escaped again; TeX's ligatures (`--`, ``` `` ```, `''`)
 * parted by an empty group; a line break becomes a space.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { latexText } from "./escape.ts";
 * assert.equal(latexText("bm_25 & 50%"), "bm\\_25 \\& 50\\%");
 * assert.equal(latexText("a\\b{x}"), "a\\textbackslash{}b\\{x\\}");
 * assert.equal(latexText("x|y~"), "x\\textbar{}y\\textasciitilde{}");
 * assert.equal(latexText("a--b''"), "a-{}-b'{}'");
 * ```
 */
export function latexText(s: string): string {
  return s.replace(/[\\~^<>|&%$#_{}]/g, (c) => LATEX_SPECIAL[c] ?? "\\" + c)
    // TeX's ligatures: `--` an en dash, two quotes a curly one; an empty group parts them.
    .replace(/-(?=-)/g, "-{}").replace(/`(?=`)/g, "`{}").replace(/'(?=')/g, "'{}")
    .replace(/\r\n|[\r\n]/g, " ");
}

/** A cell a spreadsheet would run as a formula: OWASP's leading characters. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain number (safe whatever its sign). */
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A CSV text field: a formula-leading cell (`=cmd|calc!A1`, `@SUM(...)`, `-1+2`) gets a
 * leading `'`, so a spreadsheet shows it as text instead of running it (OWASP's rule; a plain
 * number such as `-1` is left alone), then RFC 4180 quoting when it holds a comma, quote or
 * line break.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { csvText } from "./escape.ts";
 * assert.equal(csvText("=cmd|' /C calc'!A1"), "'=cmd|' /C calc'!A1");
 * assert.equal(csvText("-1"), "-1");
 * assert.equal(csvText('a,"b"'), '"a,""b"""');
 * ```
 */
export function csvText(s: string): string {
  const safe = FORMULA_START.test(s) && !PLAIN_NUMBER.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
