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
import { LIBRARY_MARK } from "../../plot/display.ts";
import { writeFileAtomic } from "../../io/atomic.ts";
import type { BrowserSession } from "../check/browser.ts";
import { checkPage, type PageCheck } from "../check/check.ts";
import { exercisesSection, lessonLength } from "./lessons.ts";
import { exportHtml, notebookTitle } from "./export.ts";
import { syllabusHtml } from "./syllabus.ts";
import {
  type CourseCell,
  type CourseNotebook,
  publishedNumbers,
  quotedMeasuredNumbers,
} from "./course_numbers.ts";

export type { CourseCell, CourseNotebook };
export { codeAndComments, publishedNumbers, quotedMeasuredNumbers } from "./course_numbers.ts";
export type { QuotedNumber } from "./course_numbers.ts";

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
