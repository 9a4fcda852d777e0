/**
 * The course's outputs of a lesson, beside its page and slides: the lesson without its worked
 * solutions, a solutions page, and a student edition.
 *
 * A lesson ends with its worked solutions: per exercise k, a Markdown cell tagged `solution`
 * that starts `### Exercise k`, then code cells tagged `solution`. They run with the lesson (one
 * kernel, one execution) and are left out of its page, slides and PDF part ({@link lessonCells});
 * the solutions page shows them ({@link solutionsNotebook}). A Markdown cell tagged `result`
 * quotes what the lesson measured; its `metadata.kit.question` is what a student answers
 * instead. The student edition ({@link studentEdition}) is the lesson's source notebook without
 * outputs, solutions or results: questions in their place and an empty code cell per exercise.
 * It imports `../lib/mod.ts` as the lessons do, so it runs from `notebooks/` of a checkout.
 * A build check ({@link quotedMeasuredNumbers}) holds its prose to quote no measured number.
 *
 * @module
 */
import { PUBLISHED_QRCD_RESULTS, PUBLISHED_QRCD_SIZES } from "../../qrcd/published.ts";
import { PUBLISHED_RESULTS, PUBLISHED_SIZES, RELEASED_RUN_SCORES } from "../systems/published.ts";
import { LIBRARY_MARK } from "../../plot/display.ts";
import { writeFileAtomic } from "../../io/atomic.ts";
import type { BrowserSession } from "../check/browser.ts";
import { checkPage, type PageCheck } from "../check/check.ts";
import { exercisesSection, lessonLength } from "./lessons.ts";
import { exportHtml, notebookTitle } from "./export.ts";
import { syllabusHtml } from "./syllabus.ts";

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

/** A notebook whose `metadata.title` nbconvert writes as its page's `<title>`. */
type Titled<T> = T & { metadata: { title: string } & Record<string, unknown> };

const text = (s: string | string[]) => Array.isArray(s) ? s.join("") : s;
const tags = (c: CourseCell) => (c.metadata?.tags as string[] | undefined) ?? [];
const isSolution = (c: CourseCell) => tags(c).includes("solution");
const EXERCISES = /^## Exercises/m;
const isExercisesCell = (c: CourseCell) =>
  c.cell_type === "markdown" && !isSolution(c) && EXERCISES.test(text(c.source));

/**
 * The lesson as its page, slides and PDF show it: its cells tagged `solution` left out, and its
 * first heading as the page's `<title>` (`metadata.title`, which nbconvert writes there; the
 * notebook's own `metadata.title` wins).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lessonCells } from "./course.ts";
 * const nb = { cells: [
 *   { cell_type: "markdown", source: "# 1. A lesson" },
 *   { cell_type: "markdown", source: "### Exercise 1", metadata: { tags: ["solution"] } },
 * ] };
 * assert.equal(lessonCells(nb).cells.length, 1);
 * assert.equal(lessonCells(nb).metadata?.title, "1. A lesson");
 * ```
 */
export function lessonCells<T extends CourseNotebook>(nb: T, name = "lesson"): Titled<T> {
  const cells = nb.cells.filter((c) => !isSolution(c));
  const own = nb.metadata?.title;
  const title = typeof own === "string" && own ? own : notebookTitle({ cells }, name);
  return { ...nb, metadata: { ...nb.metadata, title }, cells };
}

/** The numbers k of the exercises a notebook works (Markdown `solution` cells `### Exercise k`). */
export function solvedExercises(nb: CourseNotebook): number[] {
  return nb.cells.filter((c) => c.cell_type === "markdown" && isSolution(c))
    .map((c) => /^\s*### Exercise (\d+)\b/.exec(text(c.source))?.[1])
    .filter((k): k is string => k !== undefined).map(Number);
}

/**
 * The exercises (numbered items under `## Exercises`, as `lessonLength` counts them) that have
 * no worked solution (a Markdown cell tagged `solution` starting `### Exercise k`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { missingSolutions } from "./course.ts";
 * const nb = { cells: [
 *   { cell_type: "markdown", source: "## Exercises\n\n1. One.\n2. Two." },
 *   { cell_type: "markdown", source: "### Exercise 1\n\nCount.", metadata: { tags: ["solution"] } },
 * ] };
 * assert.deepEqual(missingSolutions(nb), [2]);
 * ```
 */
export function missingSolutions(nb: CourseNotebook): number[] {
  const n = lessonLength(nb).exercises;
  const solved = new Set(solvedExercises(nb));
  return Array.from({ length: n }, (_, i) => i + 1).filter((k) => !solved.has(k));
}

/** The lesson's Exercises section (from its `## Exercises` heading to the next), if it has one. */
function exercisesCell(nb: CourseNotebook): CourseCell | undefined {
  const cell = nb.cells.find(isExercisesCell);
  return cell && { ...cell, source: exercisesSection(text(cell.source))!.trimEnd() };
}

/** The `<script>` that embeds plotly.js in a notebook's outputs (the kit puts it on one figure). */
function libraryScriptOf(nb: CourseNotebook): string | undefined {
  for (const c of nb.cells) {
    for (const o of c.outputs ?? []) {
      const html = o.data?.["text/html"];
      const s = typeof html === "string" ? html : Array.isArray(html) ? html.join("") : "";
      const at = s.indexOf(LIBRARY_MARK);
      if (at < 0) continue;
      const start = s.lastIndexOf("<script", at), end = s.indexOf("</script>", at);
      if (start >= 0 && end > at) return s.slice(start, end + "</script>".length) + "\n";
    }
  }
  return undefined;
}

/**
 * The solutions page's notebook of an executed lesson: a title (`Solutions: ` and the lesson's
 * title, also the page's `<title>`), the lesson's Exercises section, then its `solution` cells
 * with their outputs. When the
 * solutions draw figures but the lesson's earlier figure carries plotly.js (the kit embeds it
 * once a kernel), the first figure of the solutions carries a copy, so the page draws alone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { solutionsNotebook } from "./course.ts";
 * const sol = { tags: ["solution"] };
 * const nb = { cells: [
 *   { cell_type: "markdown", source: "# 2. Filters" },
 *   { cell_type: "markdown", source: "## Exercises\n\n1. Count the questions." },
 *   { cell_type: "markdown", source: "### Exercise 1\n\nFilter, then count.", metadata: sol },
 *   { cell_type: "code", source: "console.log(243)", metadata: sol, outputs: [] },
 * ] };
 * const s = solutionsNotebook(nb, "02-filters");
 * assert.deepEqual(s.cells.map((c) => String(c.source).split("\n")[0]), [
 *   "# Solutions: 2. Filters", "## Exercises", "### Exercise 1", "console.log(243)",
 * ]);
 * assert.equal(s.metadata?.title, "Solutions: 2. Filters");
 * ```
 */
export function solutionsNotebook<T extends CourseNotebook>(
  nb: T,
  name = "lesson",
): Titled<T> {
  const title = notebookTitle(lessonCells(nb), name);
  const exercises = exercisesCell(nb);
  const solutions: CourseCell[] = nb.cells.filter(isSolution).map((c) => ({ ...c }));
  const figures = solutions.flatMap((c) => (c.outputs ?? []).filter((o) => o.data?.["text/html"]));
  const drawn = figures.filter((o) => String(o.data!["text/html"]).includes("kit-plotly"));
  const script = libraryScriptOf(nb);
  if (
    script && drawn.length &&
    !figures.some((o) => String(o.data!["text/html"]).includes(LIBRARY_MARK))
  ) {
    const first = drawn[0];
    const cell = solutions.find((c) => c.outputs?.includes(first))!;
    cell.outputs = cell.outputs!.map((o) =>
      o === first
        ? { ...o, data: { ...o.data, "text/html": script + text(o.data!["text/html"] as string) } }
        : o
    );
  }
  const head: CourseCell = {
    cell_type: "markdown",
    id: "solutions-title",
    metadata: {},
    source: `# Solutions: ${title}`,
  };
  return {
    ...nb,
    metadata: { ...nb.metadata, title: `Solutions: ${title}` },
    cells: [head, ...(exercises ? [exercises] : []), ...solutions],
  };
}

/**
 * The student edition of a lesson's source notebook: no outputs and no execution counts; its
 * `solution` cells left out; after the Exercises cell one empty code cell per exercise
 * (`// Exercise k: your code here`); each `result` cell replaced by a Markdown cell holding its
 * `metadata.kit.question` (a result cell without a question is left out: {@link courseProblems}
 * makes it a build problem).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { studentEdition } from "./course.ts";
 * const nb = { cells: [
 *   { cell_type: "code", source: "1", execution_count: 3, outputs: [{ output_type: "stream" }] },
 *   { cell_type: "markdown", source: "MAP is 0.5931.",
 *     metadata: { tags: ["result"], kit: { question: "What MAP does BM25 reach?" } } },
 *   { cell_type: "markdown", source: "## Exercises\n\n1. One.\n2. Two." },
 *   { cell_type: "code", source: "x", metadata: { tags: ["solution"] } },
 * ] };
 * const s = studentEdition(nb);
 * assert.deepEqual(s.cells.map((c) => c.source), [
 *   "1", "What MAP does BM25 reach?", "## Exercises\n\n1. One.\n2. Two.",
 *   "// Exercise 1: your code here", "// Exercise 2: your code here",
 * ]);
 * assert.deepEqual([s.cells[0].outputs, s.cells[0].execution_count], [[], null]);
 * ```
 */
export function studentEdition<T extends CourseNotebook>(nb: T): T {
  const n = lessonLength(nb).exercises;
  const cells: CourseCell[] = [];
  nb.cells.forEach((c, i) => {
    if (isSolution(c)) return;
    if (tags(c).includes("result")) {
      const question = (c.metadata?.kit as { question?: string } | undefined)?.question;
      if (question) {
        cells.push({
          cell_type: "markdown",
          ...(c.id ? { id: `question-${i}` } : {}),
          metadata: { tags: ["question"] },
          source: question,
        });
      }
      return;
    }
    cells.push(
      c.cell_type === "code" ? { ...c, outputs: [], execution_count: null } : { ...c },
    );
    if (isExercisesCell(c)) {
      for (let k = 1; k <= n; k++) {
        cells.push({
          cell_type: "code",
          ...(c.id ? { id: `exercise-${k}` } : {}),
          execution_count: null,
          metadata: {},
          outputs: [],
          source: `// Exercise ${k}: your code here`,
        });
      }
    }
  });
  return { ...nb, cells };
}

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
 * import { codeAndComments } from "./course.ts";
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
 * import { quotedMeasuredNumbers } from "./course.ts";
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

/**
 * Where a report keeps the course's files of lesson `name`, relative to its folder. The student
 * edition is not named as the lesson is: copied into a checkout's `notebooks/` it would replace
 * the lesson, and a name like it (`NN-name.student.ipynb`) would be built as a lesson (the
 * report's `listNotebooks` takes `NN-*.ipynb`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { courseFiles } from "./course.ts";
 * assert.deepEqual(courseFiles("02-filters"), {
 *   solutions: "solutions/02-filters.html",
 *   student: "student/student-02-filters.ipynb",
 * });
 * ```
 */
export function courseFiles(name: string): { solutions: string; student: string } {
  return { solutions: `solutions/${name}.html`, student: `student/student-${name}.ipynb` };
}

/**
 * The cells (their indexes) tagged `result` with no `metadata.kit.question`: the student edition
 * would drop them, and the student would not know there was something to find.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resultsWithoutQuestion } from "./course.ts";
 * const result = (question?: string) => ({ cell_type: "markdown", source: "MAP 0.5931.",
 *   metadata: { tags: ["result"], ...(question ? { kit: { question } } : {}) } });
 * assert.deepEqual(resultsWithoutQuestion({ cells: [result("What MAP?"), result()] }), [1]);
 * ```
 */
export function resultsWithoutQuestion(nb: CourseNotebook): number[] {
  return nb.cells.flatMap((c, i) => {
    const question = (c.metadata?.kit as { question?: unknown } | undefined)?.question;
    const asked = typeof question === "string" && question.trim() !== "";
    return tags(c).includes("result") && !isSolution(c) && !asked ? [i] : [];
  });
}

/**
 * What is wrong with a lesson's course files, one line each naming the lesson: an Exercises
 * section with no numbered item (`1.` or `1)`), an exercise with no worked solution, a result
 * cell with no question, a measured number the student edition's prose or code comments quote.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { courseProblems } from "./course.ts";
 * const nb = { cells: [
 *   { cell_type: "markdown", source: "MAP 0.5931.\n\n## Exercises\n\n1. One." },
 *   { cell_type: "code", source: "", outputs: [{ output_type: "stream", text: "0.5931" }] },
 *   { cell_type: "markdown", source: "Random 0.42.", metadata: { tags: ["result"] } },
 * ] };
 * assert.deepEqual(courseProblems("02-filters", nb, nb, []), [
 *   "02-filters: exercise 1 has no worked solution (a Markdown cell tagged solution " +
 *   "starting '### Exercise 1')",
 *   "02-filters: cell 2 is tagged result but has no metadata.kit.question (the student " +
 *   "edition would drop it)",
 *   "02-filters: the student edition's cell 0 quotes 0.5931, a number the lesson's outputs " +
 *   "print (tag the cell result, with a metadata.kit.question)",
 * ]);
 * ```
 */
export function courseProblems(
  name: string,
  executed: CourseNotebook,
  source: CourseNotebook,
  published: readonly number[] = publishedNumbers(),
): string[] {
  const exercises = source.cells.find(isExercisesCell);
  const noItem = exercises && lessonLength(source).exercises === 0;
  return [
    ...(noItem
      ? [
        `${name}: cell ${source.cells.indexOf(exercises)}'s '## Exercises' section has no ` +
        "numbered item ('1.' or '1)' at the start of a line, before the next heading)",
      ]
      : []),
    ...missingSolutions(executed).map((k) =>
      `${name}: exercise ${k} has no worked solution (a Markdown cell tagged solution ` +
      `starting '### Exercise ${k}')`
    ),
    ...resultsWithoutQuestion(source).map((i) =>
      `${name}: cell ${i}${source.cells[i].id ? ` (id ${source.cells[i].id})` : ""} is tagged ` +
      "result but has no metadata.kit.question (the student edition would drop it)"
    ),
    ...quotedMeasuredNumbers(studentEdition(source), executed, published).map((q) =>
      q.comment
        ? `${name}: the student edition's cell ${q.cell} quotes ${q.number} in a code comment, ` +
          "a number the lesson's outputs print (move it to a result cell with a question)"
        : `${name}: the student edition's cell ${q.cell} quotes ${q.number}, a number the ` +
          "lesson's outputs print (tag the cell result, with a metadata.kit.question)"
    ),
  ];
}

/** What {@link makeCourseFiles} made of one lesson. */
export interface CourseResult {
  /** The solutions page and its browser check. */
  solutions: string;
  solutionsCheck: PageCheck;
  /** The student edition. */
  student: string;
  /** The lesson's {@link courseProblems}. */
  problems: string[];
  /** Time to make and check them, seconds. */
  seconds: number;
}

/** Writes a notebook as the lessons are written (JSON, indent 1, a final newline). */
async function writeNotebook(path: string, nb: CourseNotebook): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await writeFileAtomic(path, JSON.stringify(nb, null, 1) + "\n", { force: true });
}

/**
 * Writes lesson `name`'s solutions page (exported from {@link solutionsNotebook} of the executed
 * lesson, through `tmpDir`, and checked in the browser) and its student edition (from the source
 * notebook `sourcePath`) into the report folder `dir` ({@link courseFiles}).
 */
export async function makeCourseFiles(
  session: BrowserSession,
  dir: string,
  name: string,
  executed: CourseNotebook,
  sourcePath: string,
  tmpDir: string,
): Promise<CourseResult> {
  const started = performance.now();
  const files = courseFiles(name);
  const [solutions, student] = [`${dir}/${files.solutions}`, `${dir}/${files.student}`];
  const copy = `${tmpDir}/solutions/${name}.ipynb`;
  await writeNotebook(copy, solutionsNotebook(executed, name));
  await Deno.mkdir(`${dir}/solutions`, { recursive: true });
  await exportHtml(copy, solutions);
  const solutionsCheck = await checkPage(session, solutions);
  const source = JSON.parse(await Deno.readTextFile(sourcePath)) as CourseNotebook;
  await writeNotebook(student, studentEdition(source));
  const problems = courseProblems(name, executed, source);
  const seconds = (performance.now() - started) / 1000;
  return { solutions, solutionsCheck, student, problems, seconds };
}

/**
 * Writes the course's syllabus page (`syllabus.html`, lib/report/build/syllabus.ts) of the
 * lessons `lessons` (their source notebooks in `srcDir`) into the report folder `dir`, linking
 * each lesson's page, slides (when made), solutions and student edition, and checks it.
 */
export async function makeSyllabus(
  session: BrowserSession,
  dir: string,
  srcDir: string,
  lessons: readonly { name: string; title: string; slides?: unknown }[],
): Promise<{ html: string; check: PageCheck }> {
  const html = `${dir}/syllabus.html`;
  const listed = await Promise.all(lessons.map(async (l) => ({
    file: `${l.name}.ipynb`,
    title: l.title,
    notebook: JSON.parse(await Deno.readTextFile(`${srcDir}/${l.name}.ipynb`)) as CourseNotebook,
    links: {
      page: `html/${l.name}.html`,
      ...(l.slides ? { slides: `slides/${l.name}.html` } : {}),
      ...courseFiles(l.name),
    },
  })));
  await writeFileAtomic(html, syllabusHtml(listed), { force: true });
  return { html, check: await checkPage(session, html) };
}
