/**
 * How a lesson becomes slides for a room: one idea a slide. The executed notebook is rewritten
 * (a copy, for nbconvert) section by section, a section being the cells from one Markdown
 * heading to the next:
 *
 * - the section's slide shows its heading, its headline sentence (the first sentence of its
 *   prose), its display formulas (`$$…$$`) and its first result-carrying output (a table, a
 *   figure, a short text); each further output gets a sub-slide below it, under the same
 *   heading;
 * - the rest of the prose becomes the slide's speaker notes (`<aside class="notes">`): the prose
 *   before the first output goes with the first slide, the prose after an output (until the
 *   next one) with that output's slide;
 * - code is hidden, or with `code: true` folded (a `<details>` above the output it made);
 * - long outputs are cut: a table keeps its first {@link TABLE_ROWS} rows, a text its first
 *   {@link TEXT_LINES} lines, with a line saying how many more are on the page;
 * - cells tagged `solution` never appear.
 *
 * A notebook whose cells carry Jupyter's `slideshow.slide_type` keeps the author's layout
 * (code, long outputs and solutions treated as above).
 *
 * @module
 */
import type { NotebookJson } from "./static_images.ts";

/** Jupyter's slide types. */
export type SlideType = "slide" | "subslide" | "fragment" | "-" | "skip" | "notes";

/** How the slides treat code. */
export interface SlideOptions {
  /** Show each slide's code folded (a `<details>`), instead of no code (default false). */
  code?: boolean;
}

/**
 * Rows of a table kept for a slide (the rest are on the page). The slide then fits what is
 * kept: it shrinks the table's font down to a legible size first, and cuts rows only when that
 * is not enough (the template's fitter).
 */
export const TABLE_ROWS = 30;
/** Lines of a text output kept for a slide (fitted as tables are). */
export const TEXT_LINES = 30;

type Cell = NotebookJson["cells"][number];
type Output = NonNullable<Cell["outputs"]>[number] & {
  text?: string | string[];
  name?: string;
};

const text = (s: string | string[] | undefined) => Array.isArray(s) ? s.join("") : s ?? "";
const tags = (c: Cell) => ((c.metadata?.tags ?? []) as string[]);
const own = (c: Cell) =>
  (c.metadata as { slideshow?: { slide_type?: SlideType } } | undefined)?.slideshow?.slide_type;
const isHeading = (c: Cell) => c.cell_type === "markdown" && /^\s*#{1,6}\s/.test(text(c.source));
/** A Markdown block that is a list (bulleted or numbered). */
const isList = (block: string) => /^\s*([-*+]|\d+[.)])\s/.test(block);
/** Sections whose list is their content (each lesson's closing cells). */
const LIST_SECTIONS = /^#+\s*(summary|exercises|takeaways)\b/i;

/**
 * Markdown cells split at each `#`/`##` heading that is not their first line (outside code
 * fences and `$$` blocks), so each heading starts its own section; the pieces keep the cell's
 * metadata.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitAtHeadings } from "./slide_layout.ts";
 * const cells = splitAtHeadings([{
 *   cell_type: "markdown", metadata: { tags: ["x"] },
 *   source: "## Summary\n\n- a\n\n~~~\n# not a heading\n~~~\n\n## Exercises\n\n1. b",
 * }]);
 * assert.deepEqual(cells.map((c) => c.source), [
 *   "## Summary\n\n- a\n\n~~~\n# not a heading\n~~~",
 *   "## Exercises\n\n1. b",
 * ]);
 * assert.deepEqual(cells[1].metadata, { tags: ["x"] });
 * ```
 */
export function splitAtHeadings(cells: Cell[]): Cell[] {
  return cells.flatMap((c) => {
    if (c.cell_type !== "markdown") return [c];
    const pieces: string[][] = [[]];
    let fenced = false, maths = false;
    for (const line of text(c.source).split("\n")) {
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
      if (!fenced && (line.match(/\$\$/g) ?? []).length % 2 === 1) maths = !maths;
      const heading = !fenced && !maths && /^#{1,2}\s/.test(line);
      if (heading && pieces[pieces.length - 1].some((l) => l.trim())) pieces.push([]);
      pieces[pieces.length - 1].push(line);
    }
    if (pieces.length === 1) return [c];
    return pieces.map((p) => ({ ...c, source: p.join("\n").trim() }));
  });
}

/** A short description of an output for the speaker: a table's caption, a figure's title. */
function caption(o: Output | undefined): string {
  if (!o?.data) return "";
  const html = text(o.data["text/html"] as string | string[] | undefined);
  const m = /<caption[^>]*>([\s\S]*?)<\/caption>/.exec(html);
  if (m) return m[1].replace(/<[^>]*>/g, "").replace(/\s+/g, " ").trim();
  const box = o.data["application/vnd.qa-kit.headline+json"] as
    | { title?: string; numbers?: Record<string, unknown> }
    | undefined;
  if (box?.title) {
    const numbers = Object.entries(box.numbers ?? {}).map(([k, v]) =>
      `${k} ${typeof v === "number" && !Number.isInteger(v) ? v.toFixed(3) : v}`
    ).join(", ");
    return `${box.title}${numbers ? `: ${numbers}` : ""}.`;
  }
  const fig = o.data["application/vnd.plotly.v1+json"] as
    | { layout?: { title?: string | { text?: string } } }
    | undefined;
  const title = fig?.layout?.title;
  const t = typeof title === "string" ? title : title?.text ?? "";
  return t.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();
}

/**
 * The first sentence of Markdown `prose` (its first paragraph of text: not a heading, formula,
 * list, table, quote, code or HTML), and the prose without it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { headline } from "./slide_layout.ts";
 * assert.deepEqual(
 *   headline("MAP is 0.52, e.g. on QRCD. The rest\nfollows.\n\n$$x$$"),
 *   ["MAP is 0.52, e.g. on QRCD.", "The rest\nfollows.\n\n$$x$$"],
 * );
 * assert.deepEqual(headline("- a list\n\nA line"), ["A line", "- a list"]);
 * ```
 */
export function headline(prose: string): [string, string] {
  const blocks = prose.split(/\n\s*\n/);
  const i = blocks.findIndex((b) => {
    const t = b.trim();
    return t !== "" && !/^(#|\$\$|\\\[|[-*+] |\d+[.)] |\||>|```|<|!\[)/.test(t);
  });
  if (i < 0) return ["", prose.trim()];
  const para = blocks[i].trim();
  // A sentence ends at . ! ? before a space and a capital (or the end); "e.g." and 0.52 do not.
  const m = /^[\s\S]*?[.!?](?=\s+[A-Z"“(*_`$\u0600-\u06FF]|\s*$)/.exec(para);
  const first = (m ? m[0] : para).trim();
  const rest = [...blocks.slice(0, i), para.slice(first.length).trim(), ...blocks.slice(i + 1)]
    .filter((b) => b.trim() !== "");
  return [first, rest.join("\n\n").trim()];
}

/** The display formulas (`$$…$$`, `\[…\]`) of Markdown `prose`. */
function formulas(prose: string): string[] {
  return prose.match(/\$\$[\s\S]+?\$\$|\\\[[\s\S]+?\\\]/g) ?? [];
}

/** A table's rows past `TABLE_ROWS` removed, with a line saying how many. */
function cutHtml(html: string): string {
  return html.replace(/<tbody>([\s\S]*?)<\/tbody>\s*<\/table>/g, (all, body: string) => {
    const rows = body.match(/<tr[\s>][\s\S]*?<\/tr>/g) ?? [];
    if (rows.length <= TABLE_ROWS) return all;
    const more = rows.length - TABLE_ROWS;
    return `<tbody>\n${rows.slice(0, TABLE_ROWS).join("\n")}\n</tbody></table>\n` +
      `<p class="kit-more" data-kit-more="${more}">… ${more} more row${more === 1 ? "" : "s"}` +
      ` on the page</p>`;
  });
}

/** A text's lines past `TEXT_LINES` removed, with a line saying how many. */
function cutText(s: string): string {
  const lines = s.replace(/\n$/, "").split("\n");
  if (lines.length <= TEXT_LINES) return s;
  const more = lines.length - TEXT_LINES;
  return `${lines.slice(0, TEXT_LINES).join("\n")}\n… ${more} more line${more === 1 ? "" : "s"}` +
    ` on the page\n`;
}

/**
 * An output cut for a slide (long tables and texts).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { slideOutput, TEXT_LINES } from "./slide_layout.ts";
 * const long = Array.from({ length: TEXT_LINES + 3 }, (_, i) => `line ${i}`).join("\n");
 * const cut = slideOutput({ output_type: "stream", name: "stdout", text: long });
 * assert.ok((cut.text as string).endsWith("… 3 more lines on the page\n"));
 * ```
 */
export function slideOutput(o: Output): Output {
  if (o.output_type === "stream") return { ...o, text: cutText(text(o.text)) };
  if (!o.data) return o;
  const data: Record<string, unknown> = { ...o.data };
  if (typeof data["text/html"] === "string" || Array.isArray(data["text/html"])) {
    data["text/html"] = cutHtml(text(data["text/html"] as string | string[]));
  } else if (data["text/plain"] !== undefined) {
    data["text/plain"] = cutText(text(data["text/plain"] as string | string[]));
  }
  return { ...o, data };
}

const markdown = (source: string, slideType: SlideType): Cell => ({
  cell_type: "markdown",
  metadata: { slideshow: { slide_type: slideType } },
  source,
});

const codeCell = (source: string, outputs: Output[], options: SlideOptions): Cell => ({
  cell_type: "code",
  metadata: {
    slideshow: { slide_type: "-" },
    kit_slides: { code: options.code ? "fold" : "hide" },
  },
  source,
  outputs,
  execution_count: null,
} as Cell);

/** One slide of a section: its output, the code that made it, its notes. */
interface Part {
  code: string[];
  output?: Output;
  notes: string[];
}

/**
 * The notebook laid out as slides for nbconvert (see the module's text): every cell carries its
 * `slideshow.slide_type`, code cells `kit_slides.code` ("hide" or "fold").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { slideDeck } from "./slide_layout.ts";
 * const md = (s: string, t: string[] = []) => ({
 *   cell_type: "markdown", source: s, metadata: { tags: t },
 * });
 * const out = (s: string) => ({ output_type: "display_data", data: { "text/plain": s } });
 * const code = (outputs: unknown[], t: string[] = []) => ({
 *   cell_type: "code", source: "run()", metadata: { tags: t }, outputs,
 * });
 * const deck = slideDeck({
 *   nbformat: 4, nbformat_minor: 5, metadata: {},
 *   cells: [
 *     md("## MAP\n\nMAP averages AP. It rewards early hits.\n\n$$MAP = x$$"),
 *     code([out("0.5"), out("0.6")]),
 *     md("Both ran.", ["result"]),
 *     md("### Exercise 1", ["solution"]), code([out("42")], ["solution"]),
 *   ],
 * });
 * const kinds = deck.cells.map((c) =>
 *   `${(c.metadata as { slideshow: { slide_type: string } }).slideshow.slide_type}:${c.cell_type}`
 * );
 * assert.deepEqual(kinds, [
 *   "slide:markdown", "-:code", "notes:markdown", // heading, headline, formula; 0.5; notes
 *   "subslide:markdown", "-:code", "notes:markdown", // the heading again; 0.6; "Both ran."
 * ]);
 * assert.equal(deck.cells[0].source, "## MAP\n\nMAP averages AP.\n\n$$MAP = x$$");
 * ```
 */
export function slideDeck(nb: NotebookJson, options: SlideOptions = {}): NotebookJson {
  const cells = nb.cells.filter((c) => !tags(c).includes("solution"));
  // the deck's <title>: the lesson's title (its first `#` heading)
  const first = cells.map((c) =>
    c.cell_type === "markdown" ? /^#\s+(.+)$/m.exec(text(c.source)) : null
  )
    .find((m) => m);
  const metadata = first ? { ...nb.metadata, title: first[1].trim() } : nb.metadata;
  if (cells.some((c) => own(c) !== undefined)) {
    return {
      ...nb,
      metadata,
      cells: cells.map((c) =>
        c.cell_type === "code"
          ? {
            ...codeCell(text(c.source), (c.outputs ?? []).map(slideOutput), options),
            metadata: {
              ...c.metadata,
              slideshow: { slide_type: own(c) ?? "-" },
              kit_slides: { code: options.code ? "fold" : "hide" },
            },
          }
          : { ...c, metadata: { ...c.metadata, slideshow: { slide_type: own(c) ?? "-" } } }
      ),
    };
  }
  // sections: from one heading to the next (the cells before the first heading are one too)
  const sections: Cell[][] = [];
  for (const c of splitAtHeadings(cells)) {
    if (sections.length === 0 || isHeading(c)) sections.push([]);
    sections[sections.length - 1].push(c);
  }
  const out: Cell[] = [];
  let titled = false;
  for (const section of sections) {
    const first = text(section[0].source);
    const heading = isHeading(section[0]) ? first.trim().split("\n")[0].trim() : "";
    // The title slide: the lesson's title and its first prose; its outputs (the parameters
    // table) are left to the page.
    const title: boolean = !titled && /^#\s/.test(heading);
    titled ||= title;
    const parts: Part[] = [{ code: [], notes: [] }];
    let pending: string[] = []; // code with no output: shown with the next output's slide
    for (const c of section) {
      let last = parts[parts.length - 1];
      if (c.cell_type === "markdown") {
        const body = c === section[0] && heading
          ? first.trim().slice(heading.length)
          : text(c.source);
        if (body.trim()) last.notes.push(body.trim());
        continue;
      }
      if (c.cell_type !== "code") continue;
      const outputs = title ? [] : mergeStreams(c.outputs as Output[] ?? []);
      if (text(c.source).trim()) pending.push(text(c.source));
      outputs.forEach((o) => {
        if (last.output) parts.push(last = { code: [], notes: [] });
        last.code.push(...pending);
        pending = [];
        last.output = slideOutput(o);
      });
    }
    parts[parts.length - 1].code.push(...pending);
    const prose = parts[0].notes.join("\n\n");
    const blocks = prose.split(/\n\s*\n/).filter((b) => b.trim() !== "");
    const lists = blocks.filter(isList);
    // A list is the slide's content in a section that has no output, has no other prose, or
    // is the lesson's summary or exercises; an output it has then goes to a sub-slide.
    const listed = lists.length > 0 &&
      (!parts[0].output || lists.length === blocks.length || LIST_SECTIONS.test(heading));
    const others = listed ? blocks.filter((b) => !isList(b)).join("\n\n") : prose;
    let [line, rest] = headline(others);
    const lead = line;
    if (listed && LIST_SECTIONS.test(heading) && line) [line, rest] = ["", others];
    if (listed && parts[0].output) {
      parts[0].notes = [];
      parts.unshift({ code: [], notes: [] });
    }
    parts[0].notes = rest ? [rest] : listed ? [prose] : [];
    const maths = formulas(others);
    const shortHeading = heading.replace(/^#+/, "").trim();
    // Notes for an output with no prose of its own: what it is, and the section's point.
    const fallback = (p: Part, k: number) =>
      [caption(p.output), k > 0 || p.output ? lead : ""].filter((x) => x !== "").join(" ");
    parts.forEach((p, k) => {
      const top = k === 0
        ? [heading, line, ...maths, ...(listed ? lists : [])].filter((x) => x !== "").join("\n\n")
        : `${heading || "##"} (${k + 1}/${parts.length})`;
      out.push(markdown(top, k === 0 ? "slide" : "subslide"));
      if (p.output || (options.code && p.code.length > 0)) {
        out.push(codeCell(p.code.join("\n\n"), p.output ? [p.output] : [], options));
      }
      const notes = p.notes.join("\n\n").trim() || fallback(p, k) ||
        (k === 0
          ? (line || `The section ${shortHeading ? `“${shortHeading}”` : ""} in one line.`)
          : `${shortHeading ? `“${shortHeading}”` : "This section"}: output ${k + 1} of ` +
            `${parts.length}; the code that made it is on the page.`);
      out.push(markdown(notes, "notes"));
    });
  }
  return { ...nb, metadata, cells: out };
}

/** A cell's stream outputs that follow one another, as one output. */
function mergeStreams(outputs: Output[]): Output[] {
  const merged: Output[] = [];
  for (const o of outputs) {
    const prev = merged[merged.length - 1];
    if (o.output_type === "stream" && prev?.output_type === "stream" && prev.name === o.name) {
      merged[merged.length - 1] = { ...prev, text: text(prev.text) + text(o.text) };
    } else merged.push(o);
  }
  return merged;
}
