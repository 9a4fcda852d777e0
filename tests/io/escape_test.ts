/**
 * User strings are text in every format the kit writes: random strings of the characters the
 * formats treat specially (`$ \ _ * < > & | # % ^ ~ { } [ ] = + - @`, quotes, backquotes, line
 * breaks, tabs, U+2028/9, Arabic, emoji) go through every writer — Markdown and HTML tables,
 * `eval compare`'s Markdown, LaTeX and CSV, the report's CSV files, `eval trec`'s CSV, the
 * page's notes, blocks and headline, the index page, Plotly labels and figure JSON inside
 * `<script>` — and each output is decoded here by a small decoder of that format's own
 * (nothing shared with `lib/io/escape.ts`), which must give the string back as typed. Beside
 * that: no `$` or backslash left where the page's maths renderer looks for formulas, no
 * Markdown or LaTeX special character left unescaped, no CSV cell a spreadsheet would run.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  csvText,
  htmlText,
  latexText,
  markdownText,
  plotlyText,
  scriptJson,
  TEX_IGNORE_CLASS,
} from "../../lib/io/escape.ts";
import { tableBundle } from "../../lib/plot/table.ts";
import { figureHtml } from "../../lib/plot/display.ts";
import { bar } from "../../lib/plot/figures.ts";
import { compareSystems, toCsv, toLatex, toMarkdown } from "../../lib/stats/compare.ts";
import { rowsCsv } from "../../lib/report/systems/files.ts";
import { evaluate, formatCsv } from "../../lib/metrics/mod.ts";
import { framedList } from "../../lib/report/systems/tables.ts";
import { note, warningsBlock } from "../../lib/report/notebook/blocks.ts";
import { headlineBundle } from "../../lib/report/notebook/headline.ts";
import { indexHtml } from "../../lib/report/build/index_page.ts";
import type { Displayable } from "../../lib/plot/display.ts";

/** Pieces of hostile strings: single characters and a few sequences that mean something. */
const PIECES = [
  ..."$\\_*`<>&\"'|#%^~{}[]=+-@",
  "\n",
  "\t",
  "\r",
  "\r\n",
  "\u2028",
  "\u2029",
  "ع",
  "ر",
  "ب",
  "ي",
  "😀",
  "👩‍💻",
  "a",
  "x",
  " ",
  "1",
  ".",
  "$$",
  "\\(",
  "\\textbf{",
  "&amp;",
  "&#36;",
  "</script>",
  "<!--",
  "<b>",
  "-1",
  "**",
];
const hostile = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 16 })
  .map((p) => p.join(""));
/** The tester's names, always tried first. */
const EXAMPLES: [string][] = [
  ["$x^2$"],
  ["a\\textbf{b}_c"],
  ["=cmd|' /C calc'!A1"],
  ['</script><script>alert("x")</script>'],
  ["\\(x\\) $$y$$ \\[z\\]"],
  ["|a| *b* _c_ `d` [e](f) #g &lt;"],
];
const RUNS = { numRuns: 150, examples: EXAMPLES };

/** Markdown and LaTeX put a table row on one line: a line break is a space there. */
const oneLine = (s: string) => s.replace(/\r\n|\r|\n/g, " ");

// ---- HTML: a tokenizer of our own (tags, entities), the text and where the maths renderer looks

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  middot: "\u00b7",
  ndash: "\u2013",
};

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] !== "#") return ENTITIES[e] ?? m;
    return String.fromCodePoint(e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1)));
  });
}

/**
 * The text of an HTML fragment as a browser shows it (scripts dropped), and the part of it
 * outside spans of the ignore class: what KaTeX's auto-render and MathJax search for formulas.
 */
function htmlTexts(html: string): { text: string; typeset: string } {
  const body = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "");
  let text = "", typeset = "";
  const spans: boolean[] = [];
  for (const [token] of body.matchAll(/<[^>]*>|[^<]+/g)) {
    if (token.startsWith("<")) {
      if (/^<span\b/.test(token)) {
        spans.push(new RegExp(`class="${TEX_IGNORE_CLASS}"`).test(token));
      } else if (token === "</span>") spans.pop();
      continue;
    }
    assert.ok(!token.includes(">"), `a raw > in the text: ${JSON.stringify(html)}`);
    const t = decodeEntities(token);
    text += t;
    if (!spans.includes(true)) typeset += t;
  }
  return { text, typeset };
}

/** The text of each `<tag ...>...</tag>` element of `html` (not nested). */
function elements(html: string, tag: string): string[] {
  return [...html.matchAll(new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, "g"))]
    .map((m) => htmlTexts(m[1]).text);
}

function checkHtml(html: string, s: string, what: string): void {
  const { text, typeset } = htmlTexts(html);
  assert.ok(text.includes(s), `${what}: ${JSON.stringify(s)} not shown in ${JSON.stringify(html)}`);
  // Nothing the maths renderer reads could open a formula.
  assert.ok(!/[$\\]/.test(typeset), `${what}: a $ or \\ where formulas are typeset: ${html}`);
}

const bundleHtml = (d: Displayable) => d[Symbol.for("Jupyter.display")]()["text/html"] as string;

// ---- Markdown: GitHub's table rows and CommonMark's backslash escapes, read here

/** A GitHub table row's cells, raw (a `|` after a backslash is text). */
function markdownCells(line: string): string[] {
  assert.ok(line.startsWith("| ") && line.endsWith(" |"), line);
  const cells: string[] = [];
  let cell = "";
  const inner = line.slice(1, -1);
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === "\\" && i + 1 < inner.length) cell += inner[i] + inner[++i];
    else if (inner[i] === "|") cells.push(cell), cell = "";
    else cell += inner[i];
  }
  cells.push(cell);
  return cells.map((c) => c.trim());
}

/** A Markdown cell's text: escaped ASCII punctuation is the character; nothing special left. */
function markdownDecode(raw: string): string {
  let out = "";
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === "\\" && /^[!-/:-@[-`{-~]$/.test(raw[i + 1] ?? "")) out += raw[++i];
    else {
      assert.ok(!"\\`*_$[]<>|#&~".includes(c), `an unescaped ${c} in Markdown: ${raw}`);
      out += c;
    }
  }
  return out;
}

// ---- LaTeX: the text-mode commands the kit writes, undone; any other markup is an error

const LATEX_WORDS: Record<string, string> = {
  textbackslash: "\\",
  textasciitilde: "~",
  textasciicircum: "^",
  textless: "<",
  textgreater: ">",
  textbar: "|",
};

/** A row's cells, split at the `&` that are not `\&`. */
function latexCells(row: string): string[] {
  const cells: string[] = [];
  let cell = "";
  for (let i = 0; i < row.length; i++) {
    if (row[i] === "\\" && i + 1 < row.length) cell += row[i] + row[++i];
    else if (row[i] === "&") cells.push(cell), cell = "";
    else cell += row[i];
  }
  cells.push(cell);
  return cells;
}

function latexDecode(tex: string): string {
  let out = "";
  for (let i = 0; i < tex.length; i++) {
    const c = tex[i];
    // An empty group parting a ligature (`-{}-`, `'{}'`): nothing in the text.
    if (c === "{" && tex[i + 1] === "}" && "-`'".includes(tex[i - 1] ?? "")) {
      i++;
      continue;
    }
    if (c !== "\\") {
      assert.ok(!"{}$&#^_%~<>|".includes(c), `an unescaped ${c} in LaTeX: ${tex}`);
      // TeX's ligatures would set these as one glyph (an en dash, a curly quote)
      for (const lig of ["--", "``", "''"]) {
        assert.ok(!tex.slice(i).startsWith(lig), `a ligature ${lig} in LaTeX: ${tex}`);
      }
      out += c;
      continue;
    }
    const word = /^[a-z]+\{\}/.exec(tex.slice(i + 1));
    if (word) {
      const name = word[0].slice(0, -2);
      assert.ok(name in LATEX_WORDS, `an unknown command \\${name} in ${tex}`);
      out += LATEX_WORDS[name];
      i += word[0].length;
    } else {
      assert.ok("&%$#_{}".includes(tex[i + 1]), `a stray backslash in ${tex}`);
      out += tex[++i];
    }
  }
  return out;
}

// ---- CSV: RFC 4180, parsed here

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [], field = "", i = 0;
  while (i < text.length) {
    if (text[i] === '"' && field === "") {
      for (i++;; i++) {
        if (text[i] === '"' && text[i + 1] === '"') field += '"', i++;
        else if (text[i] === '"') break;
        else if (i >= text.length) throw new Error("an unclosed quote");
        else field += text[i];
      }
      i++;
      assert.ok(i >= text.length || text[i] === "," || text[i] === "\n", "text after a quote");
    } else if (text[i] === ",") row.push(field), field = "", i++;
    else if (text[i] === "\n") row.push(field), rows.push(row), row = [], field = "", i++;
    else {
      assert.ok(text[i] !== '"' && text[i] !== "\r", "a quote or CR in an unquoted field");
      field += text[i++];
    }
  }
  if (field !== "" || row.length) row.push(field), rows.push(row);
  return rows;
}

/** What a spreadsheet would run as a formula (not a plain number). */
const runsAsFormula = (cell: string) =>
  /^[=+\-@\t\r]/.test(cell) && !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(cell);

/** The CSV cell of `s`: as typed, or with the apostrophe that keeps a formula text. */
function checkCsvCell(cell: string, s: string): void {
  assert.equal(cell, runsAsFormula(s) ? `'${s}` : s);
  assert.ok(!runsAsFormula(cell), `a cell a spreadsheet runs: ${cell}`);
}

// ---- the properties

Deno.test("escape functions: each format's own decoding gives the string back", () => {
  fc.assert(
    fc.property(hostile, (s) => {
      checkHtml(htmlText(s), s, "htmlText");
      assert.equal(markdownDecode(markdownText(s)), oneLine(s));
      assert.equal(latexDecode(latexText(s)), oneLine(s));
      checkCsvCell(parseCsv(csvText(s) + "\n")[0][0], s);
      const plotly = plotlyText(s);
      assert.ok(!/[<$]/.test(plotly), plotly); // no tag, no TeX for Plotly
      assert.equal(decodeEntities(plotly), s);
      const json = scriptJson({ s });
      assert.ok(!/[<>&\u2028\u2029]/.test(json), json);
      assert.deepEqual(JSON.parse(json), { s });
      assert.deepEqual((0, eval)(`(${json})`), { s });
    }),
    RUNS,
  );
});

Deno.test("tables (HTML, Markdown), notes, blocks, headline, index page: the string as typed", () => {
  fc.assert(
    fc.property(hostile, (s) => {
      const b = tableBundle([{ system: s, [`col ${s}`]: 1 }], { caption: `Where ${s} wins` });
      const html = b["text/html"] as string;
      assert.deepEqual(elements(html, "td"), [s, "1"]);
      assert.deepEqual(elements(html, "th"), ["system", `col ${s}`]);
      assert.deepEqual(elements(html, "caption"), [`Where ${s} wins`]);
      checkHtml(html, s, "table");
      const md = (b["text/markdown"] as string).split("\n");
      assert.equal(md.length, 5, md.join("\n")); // caption, blank, header, rule, row
      assert.match(md[0], /^\*\*Where [\s\S]* wins\*\*$/);
      assert.equal(markdownDecode(md[0].slice(2, -2)), oneLine(`Where ${s} wins`));
      assert.deepEqual(markdownCells(md[2]).map(markdownDecode), [
        "system",
        oneLine(`col ${s}`).trim(),
      ]);
      assert.deepEqual(markdownCells(md[4]).map(markdownDecode), [oneLine(s).trim(), "1"]);

      checkHtml(bundleHtml(note(`best: ${s}.`)), s, "note");
      checkHtml(bundleHtml(warningsBlock([{ system: s, file: s, text: s }])), s, "warnings");
      checkHtml(bundleHtml(framedList("Identical systems", [s])), s, "identical");
      const h = headlineBundle({ title: s, numbers: { "best system": s } });
      checkHtml(h["text/html"] as string, s, "headline");
      const index = indexHtml([{
        title: "0. Your systems",
        html: "html/00.html",
        ipynb: "notebooks/00.ipynb",
        seconds: 1,
        figures: 0,
        headlines: [{ title: s, numbers: { [s]: s } }],
      }], { params: {}, generated: "", systems: [{ name: s, what: s, numbers: { MAP: 0.5 } }] });
      checkHtml(index.slice(index.indexOf("<body>")), s, "index");
    }),
    RUNS,
  );
});

Deno.test("eval compare's Markdown, LaTeX and CSV, the report's and eval trec's CSV: the string as typed", () => {
  const q = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
  fc.assert(
    fc.property(hostile, (s) => {
      const name = s === "other" ? "other2" : s;
      const t = compareSystems({ [name]: q([1, 0.5, 1, 0]), other: q([1, 0.5, 1, 0]) }, ["map"]);
      // Markdown: the systems table's row and the pair's row; the caption names the pair.
      const md = toMarkdown(t).split("\n");
      const row = md.find((l) => l.startsWith("| a | "))!;
      assert.equal(markdownDecode(markdownCells(row)[1]), oneLine(name).trim());
      const pair = md.find((l) => l.startsWith("| MAP | "))!;
      assert.equal(markdownDecode(markdownCells(pair)[1]), oneLine(name).trim());
      const caption = md.find((l) => l.includes(' - "other"'))!; // identical: named there
      const quoted = caption.slice(caption.indexOf('MAP "') + 5, caption.indexOf('" - "other"'));
      assert.equal(markdownDecode(quoted), oneLine(name));
      // LaTeX: the systems row, the pair's row, the caption.
      const tex = toLatex(t, { pValues: true }).split("\n");
      const texRow = latexCells(tex.find((l) => l.startsWith("a & "))!);
      assert.equal(latexDecode(texRow[1].slice(1, -1)), oneLine(name));
      const texPair = latexCells(tex.find((l) => l.startsWith("MAP & "))!);
      assert.equal(latexDecode(texPair[1].slice(1, -1)), oneLine(name));
      const texCaption = tex.find((l) => l.startsWith("\\caption{"))!.slice(9, -1);
      assert.ok(latexDecode(texCaption).includes(`MAP "${oneLine(name)}" - "other"`));
      // CSV: compare's, the report's, eval trec's (a query id).
      const csv = parseCsv(toCsv(t));
      checkCsvCell(csv[1][2], name);
      const rows = parseCsv(rowsCsv([{ system: s, value: 1 }]));
      checkCsvCell(rows[1][0], s);
      const result = evaluate(
        new Map([[s, new Map([["d", 1]])]]),
        new Map([[s, new Map([["d", 1]])]]),
        [
          "map",
        ],
      );
      const trec = parseCsv(formatCsv(result, { perQuery: true }));
      checkCsvCell(trec[1][1], s);
      assert.ok(trec.every((r) => r.length === 4), "a row with a cell more or less");
    }),
    RUNS,
  );
});

Deno.test("figures: Plotly labels and the figure JSON inside <script> carry the string as typed", () => {
  fc.assert(
    fc.property(hostile, (s) => {
      const fig = bar(["MAP"], [{ name: plotlyText(s), values: [0.5] }], {
        title: `AP of ${plotlyText(s)}`,
      });
      const html = figureHtml(fig, "f1");
      // One script element, ended where the kit ends it.
      assert.equal(html.split("</script").length, 2, html);
      assert.equal(html.split("<!--").length, 1, html);
      const start = html.indexOf("var fig=") + "var fig=".length;
      const json = html.slice(start, html.lastIndexOf(';var id="f1";'));
      assert.ok(!/[<>&\u2028\u2029]/.test(json), json);
      const read = (0, eval)(`(${json})`) as typeof fig;
      assert.deepEqual(read, JSON.parse(JSON.stringify(fig)));
      // What Plotly shows: its entities decoded, no tag and no $ left to read as markup or TeX.
      const label = read.data[0].name as string;
      assert.ok(!/[<$]/.test(label), label);
      assert.equal(decodeEntities(label), s);
    }),
    RUNS,
  );
});
