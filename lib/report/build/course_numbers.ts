/**
 * The student edition's number scan: which measured numbers a notebook's prose quotes
 * ({@link quotedMeasuredNumbers}), read against the executed lesson's outputs, the lesson's own
 * code and the kit's published tables. `course.ts` runs it on every student edition.
 *
 * @module
 */
import { PUBLISHED_QRCD_RESULTS, PUBLISHED_QRCD_SIZES } from "../../qrcd/published.ts";
import { PUBLISHED_RESULTS, PUBLISHED_SIZES, RELEASED_RUN_SCORES } from "../systems/published.ts";
import { LIBRARY_MARK } from "../../plot/display.ts";

/** A notebook cell as the course's functions read it (nbformat 4). */
export interface CourseCell {
  cell_type: string;
  source: string | string[];
  metadata?: Record<string, unknown>;
  outputs?: { output_type: string; data?: Record<string, unknown>; text?: string | string[] }[];
  execution_count?: number | null;
  id?: string;
}

/** A notebook (nbformat 4) as the course's functions read it. */
export interface CourseNotebook {
  cells: CourseCell[];
  metadata?: Record<string, unknown>;
  nbformat?: number;
  nbformat_minor?: number;
}

const text = (s: string | string[]) => Array.isArray(s) ? s.join("") : s;
const tags = (c: CourseCell) => (c.metadata?.tags as string[] | undefined) ?? [];
const isSolution = (c: CourseCell) => tags(c).includes("solution");

/** A decimal point as prose writes it: `.`, or LaTeX's `{.}` (`0{.}667`). */
const POINT = String.raw`(?:\.|\{\.\})`;
/** A decimal with digits after the point (`0.59`, `.084`, `0{.}667`). */
const DECIMAL = String.raw`\d*${POINT}\d+`;

/**
 * The numbers the scan reads in prose: a plain decimal with at least 3 digits after the point
 * (`0.5931`, `.084`, `0{.}667`); a percentage with decimals (`66.67%`, `66.67\%`); scientific
 * notation with a decimal mantissa (`1.9e-30`, `9.7E-5`, `1.9 \times 10^{-30}`). Integers
 * (`243 questions`, `66%`, `1e-3`) and decimals of 1 or 2 digits (`0.05`, `0.87`) are left out:
 * they are mostly sizes, thresholds and levels, and counts recur by chance.
 */
const QUOTED = new RegExp(
  String.raw`(?<![\d.])(?:(?<tex>${DECIMAL})\s*\\(?:times|cdot)\s*10\^\{?(?<texExp>[-+]?\d+)\}?` +
    String.raw`|(?<sci>${DECIMAL})[eE](?<sciExp>[-+]?\d+)(?!\d)` +
    String.raw`|(?<pct>${DECIMAL})\s?\\?%` +
    String.raw`|(?<plain>\d*${POINT}\d{3,})(?!\d))`,
  "g",
);

/** Numbers as outputs and code print them: decimals, scientific notation, percentages. */
const PRINTED = /(?<![\d.])(?:\d*\.\d+(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)(?!\d)(\s?%)?/g;

/** A number in prose and the values that round to it: `[low, high]` ranges. */
interface Quoted {
  written: string;
  ranges: [number, number][];
}

/** The range of values a number written with `digits` digits after its point rounds from. */
function around(value: number, digits: number, scale = 1): [number, number] {
  const half = 0.5 * 10 ** -digits * scale * (1 + 1e-9) + 1e-15 * scale;
  return [value * scale - half, value * scale + half];
}

const decimals = (d: string) => d.replace("{.}", ".").split(".")[1]?.length ?? 0;

/** The numbers {@link QUOTED} finds in `s`, with what they round from. */
function quotedIn(s: string): Quoted[] {
  return [...s.matchAll(QUOTED)].map((m) => {
    const g = m.groups!;
    const mantissa = g.tex ?? g.sci ?? g.pct ?? g.plain;
    const value = Number(mantissa.replace("{.}", "."));
    const digits = decimals(mantissa);
    const exp = g.texExp ?? g.sciExp;
    const ranges: [number, number][] = exp !== undefined
      ? [around(value, digits, 10 ** Number(exp))]
      : g.pct !== undefined
      ? [around(value, digits), around(value, digits, 0.01)]
      : [around(value, digits)];
    return { written: m[0].trim(), ranges };
  });
}

/** The numbers `s` prints (a percentage also as its fraction: `66.67%` is 66.67 and 0.6667). */
function printedIn(s: string): number[] {
  return [...s.matchAll(PRINTED)].flatMap((m) => {
    const v = Number(m[0].replace("%", "").trim());
    return m[1] ? [v, v / 100] : [v];
  });
}

const roundsFrom = (q: Quoted, values: readonly number[]) =>
  values.some((v) => q.ranges.some(([lo, hi]) => Math.abs(v) >= lo && Math.abs(v) <= hi));

/**
 * TypeScript source split into its code and its comments (`// ...`, `/* ... *\/`); strings
 * (`'...'`, `"..."`, template literals) stay in the code, with what looks like a comment in them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { codeAndComments } from "./course_numbers.ts";
 * assert.deepEqual(
 *   codeAndComments('t(0.975); // BM25 reaches 0.5931\nget("http://x/0.25"); /* 0.42 *\/'),
 *   { code: 't(0.975); \nget("http://x/0.25"); ', comments: " BM25 reaches 0.5931\n 0.42 " },
 * );
 * ```
 */
export function codeAndComments(source: string): { code: string; comments: string } {
  let code = "", comments = "", i = 0;
  while (i < source.length) {
    const two = source.slice(i, i + 2);
    if (two === "//" || two === "/*") {
      const close = two === "//" ? "\n" : "*/";
      const end = source.indexOf(close, i + 2);
      const stop = end < 0 ? source.length : end;
      comments += source.slice(i + 2, stop) + "\n";
      i = two === "//" ? stop : stop + 2;
      continue;
    }
    const ch = source[i];
    if (ch === '"' || ch === "'" || ch === "`") {
      let j = i + 1;
      while (j < source.length && source[j] !== ch && (ch === "`" || source[j] !== "\n")) {
        j += source[j] === "\\" ? 2 : 1;
      }
      code += source.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    code += ch;
    i++;
  }
  return { code, comments: comments.replace(/\n$/, "") };
}

/** The text a cell's outputs print (streams, plain text, HTML, Markdown; no figures' data). */
function printed(nb: CourseNotebook): string {
  return nb.cells.flatMap((c) => c.outputs ?? []).map((o) => {
    if (o.text !== undefined) return text(o.text);
    return ["text/plain", "text/html", "text/markdown"]
      .map((m) => o.data?.[m]).filter((v) => v !== undefined)
      .map((v) => text(v as string | string[])).map((s) => s.split(LIBRARY_MARK)[0])
      .join("\n");
  }).join("\n");
}

/**
 * Every number of the kit's published tables (`PUBLISHED_RESULTS`, `PUBLISHED_SIZES`,
 * `RELEASED_RUN_SCORES`, `PUBLISHED_QRCD_RESULTS`, `PUBLISHED_QRCD_SIZES`): prose may quote them.
 */
export function publishedNumbers(): number[] {
  const found: number[] = [];
  const walk = (v: unknown) => {
    if (typeof v === "number") found.push(v);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  [
    PUBLISHED_RESULTS,
    PUBLISHED_SIZES,
    RELEASED_RUN_SCORES,
    PUBLISHED_QRCD_RESULTS,
    PUBLISHED_QRCD_SIZES,
  ].forEach(walk);
  return found;
}

/** A measured number the student edition quotes. */
export interface QuotedNumber {
  /** The cell's index in the notebook scanned. */
  cell: number;
  /** The number as the cell writes it. */
  number: string;
  /** Set when a code cell's comment quotes it (else a Markdown cell does). */
  comment?: true;
}

/**
 * The measured numbers a notebook's prose quotes (its Markdown cells and its code cells'
 * comments): each number the scan reads ({@link QUOTED}: `0.5931`, `0.084`, `0{.}667`,
 * `66.67%`, `1.9e-30`, `1.9 \times 10^{-30}`; not integers, not decimals of 1 or 2 digits) that
 * the executed lesson's outputs print (an output that rounds to it counts, `0.6667` for
 * `66.67%` too), unless a published number rounds to it (`published`, by default the kit's
 * tables: {@link publishedNumbers}) or the lesson's own code writes it outside comments (a
 * parameter or a label, such as the quantile of `t(0.975, n-1)`, is not a measurement; the
 * `solution` cells do not count). Run on the student edition, whose prose must leave the
 * measuring to the student.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { quotedMeasuredNumbers } from "./course_numbers.ts";
 * const student = { cells: [
 *   { cell_type: "markdown", source: "BM25 reaches 0.5931; the paper's CNN 0.6190." },
 *   { cell_type: "markdown", source: "Scores lie in [0, 1]; the interval uses $t_{0.975}$." },
 *   { cell_type: "markdown", source: "It keeps 66.67% of them; $p = 1.9 \\times 10^{-30}$." },
 *   { cell_type: "code", source: "table({ 't(0.975)': q }); // bm25: 0.5931" },
 * ] };
 * const executed = { cells: [{ cell_type: "code", source: "table({ 't(0.975)': q })", outputs: [
 *   { output_type: "stream", text: "bm25 0.59312\ncnn 0.6190\nt(0.975) 1.9600\nkept 0.66667\n" },
 *   { output_type: "stream", text: "p 1.93e-30\n" },
 * ] }] };
 * assert.deepEqual(quotedMeasuredNumbers(student, executed, [0.619]), [
 *   { cell: 0, number: "0.5931" },
 *   { cell: 2, number: "66.67%" },
 *   { cell: 2, number: "1.9 \\times 10^{-30}" },
 *   { cell: 3, number: "0.5931", comment: true },
 * ]);
 * ```
 */
export function quotedMeasuredNumbers(
  notebook: CourseNotebook,
  executed: CourseNotebook,
  published: readonly number[] = publishedNumbers(),
): QuotedNumber[] {
  const outputs = printedIn(printed(executed));
  const written = executed.cells.filter((c) => c.cell_type === "code" && !isSolution(c))
    .flatMap((c) => printedIn(codeAndComments(text(c.source)).code));
  const found: QuotedNumber[] = [];
  notebook.cells.forEach((c, cell) => {
    const markdown = c.cell_type === "markdown";
    if (!markdown && c.cell_type !== "code") return;
    const prose = markdown ? text(c.source) : codeAndComments(text(c.source)).comments;
    for (const q of quotedIn(prose)) {
      if (roundsFrom(q, written) || roundsFrom(q, published) || !roundsFrom(q, outputs)) continue;
      found.push({ cell, number: q.written, ...(markdown ? {} : { comment: true as const }) });
    }
  });
  return found;
}
