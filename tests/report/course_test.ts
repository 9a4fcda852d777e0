/**
 * The course's outputs (lib/report/build/course.ts): a lesson's worked solutions leave its page
 * and make a solutions notebook; the student edition has no outputs, an empty code cell per
 * exercise and questions in place of results; the number scan finds a measured number and lets
 * a published one be; a missing solution is a problem. Then one real build of lesson 02 (a copy
 * of it in a temporary folder, given solution cells where it lacks them): its solutions page
 * checked in the browser, its student edition written, the index linking both.
 */
import assert from "node:assert/strict";
import {
  codeAndComments,
  courseFiles,
  type CourseNotebook,
  courseProblems,
  lessonCells,
  missingSolutions,
  publishedNumbers,
  quotedMeasuredNumbers,
  resultsWithoutQuestion,
  solutionsNotebook,
  solvedExercises,
  studentEdition,
} from "../../lib/report/build/course.ts";
import { buildReport, listNotebooks } from "../../lib/report/build/build.ts";
import { indexEntries, indexHtml } from "../../lib/report/build/index_page.ts";
import { lessonLength } from "../../lib/report/build/lessons.ts";
import { overflowLine } from "../../lib/report/check/check.ts";
import { LIBRARY_MARK } from "../../lib/plot/display.ts";
import { pageOk } from "../../lib/report/check/check.ts";
import { PUBLISHED_RESULTS } from "../../lib/mod.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const sol = { tags: ["solution"] };
const md = (source: string, metadata: Record<string, unknown> = {}) => ({
  cell_type: "markdown",
  metadata,
  source,
});
const code = (
  source: string,
  outputs: CourseNotebook["cells"][0]["outputs"] = [],
  metadata = {},
) => ({
  cell_type: "code",
  execution_count: 1,
  metadata,
  outputs,
  source,
});
const stream = (text: string) => ({ output_type: "stream", name: "stdout", text });
const figure = (html: string) => ({
  output_type: "display_data",
  data: { "text/html": html, "text/plain": "Figure" },
});

/** An executed lesson: a figure carrying plotly.js, a result cell, two exercises, solutions. */
function fixture(): CourseNotebook {
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: [
      md("# 2. Filters\n\nWhy questions are dropped."),
      code("await display(bar(...));", [
        figure(`<script>${LIBRARY_MARK}\nplotly</script>\n<div class="kit-plotly">a</div>`),
      ]),
      code("console.log(map)", [stream("bm25 0.59312\nrandom 0.4210\n")]),
      md("BM25 reaches 0.5931 MAP, the paper's CNN 0.6190.", {
        tags: ["result"],
        kit: { question: "What MAP does BM25 reach, and how far is it from the paper's CNN?" },
      }),
      md("Random reaches 0.4210.", { tags: ["result"], kit: { question: "And random?" } }),
      md("## Summary\n\n- Filters matter.\n\n## Exercises\n\n1. Count.\n2. Score."),
      md("### Exercise 1\n\nCount the kept questions.", sol),
      code("console.log(237)", [stream("237\n")], sol),
      md("### Exercise 2\n\nScore BM25 on them.", sol),
      code("await display(bar(...));", [figure(`<div class="kit-plotly">b</div>`)], sol),
    ],
  };
}

const src = (c: { source: string | string[] }) =>
  Array.isArray(c.source) ? c.source.join("") : c.source;

Deno.test("course: solution cells leave the lesson and make the solutions notebook", () => {
  const nb = fixture();
  const lesson = lessonCells(nb);
  assert.equal(lesson.cells.length, 6);
  assert.ok(
    lesson.cells.every((c) => !((c.metadata?.tags as string[]) ?? []).includes("solution")),
  );
  assert.deepEqual(solvedExercises(nb), [1, 2]);
  const s = solutionsNotebook(nb, "02-filters");
  assert.deepEqual(s.cells.map((c) => src(c).split("\n")[0]), [
    "# Solutions: 2. Filters",
    "## Exercises",
    "### Exercise 1",
    "console.log(237)",
    "### Exercise 2",
    "await display(bar(...));",
  ]);
  // The Exercises cell from its heading on, the summary above it left out.
  assert.ok(!src(s.cells[1]).includes("Summary"));
  // Outputs kept; the solutions' first figure carries plotly.js (the lesson's copy), once.
  assert.deepEqual(s.cells[3].outputs, [stream("237\n")]);
  const html = String(s.cells[5].outputs![0].data!["text/html"]);
  assert.ok(html.startsWith(`<script>${LIBRARY_MARK}`) && html.endsWith("b</div>"));
  assert.equal(html.split(LIBRARY_MARK).length, 2);
  // The source notebook is left as it was.
  assert.ok(!String(nb.cells[9].outputs![0].data!["text/html"]).includes(LIBRARY_MARK));
});

Deno.test("course: the student edition has empty exercise cells, questions, no outputs", () => {
  const s = studentEdition(fixture());
  const sources = s.cells.map(src);
  assert.ok(!sources.some((t) => t.includes("### Exercise") || t.includes("237")));
  assert.ok(sources.includes("What MAP does BM25 reach, and how far is it from the paper's CNN?"));
  assert.ok(!sources.some((t) => t.includes("0.5931") || t.includes("Random reaches")));
  assert.ok(sources.includes("And random?"));
  const at = sources.findIndex((t) => t.includes("## Exercises"));
  assert.deepEqual(sources.slice(at + 1), [
    "// Exercise 1: your code here",
    "// Exercise 2: your code here",
  ]);
  for (const c of s.cells.filter((c) => c.cell_type === "code")) {
    assert.deepEqual([c.outputs, c.execution_count], [[], null]);
  }
  assert.deepEqual([s.nbformat, s.nbformat_minor], [4, 5]);
});

Deno.test("course: the number scan finds a measured number and lets a published one be", () => {
  const nb = fixture();
  // The result cell, untagged, as prose quoting what the lesson measured.
  const untagged: CourseNotebook = {
    ...nb,
    cells: nb.cells.map((c, i) => i === 3 ? { ...c, metadata: {} } : c),
  };
  const student = studentEdition(untagged);
  const cell = student.cells.findIndex((c) => src(c).startsWith("BM25 reaches"));
  // 0.5931 is the printed 0.59312 rounded; 0.6190 is the paper's CNN (PUBLISHED_RESULTS).
  assert.ok(PUBLISHED_RESULTS.some((r) => r.map === 0.619));
  assert.ok(publishedNumbers().includes(0.619));
  assert.deepEqual(quotedMeasuredNumbers(student, nb), [{ cell, number: "0.5931" }]);
  // Tagged result with its question: nothing quoted.
  assert.deepEqual(quotedMeasuredNumbers(studentEdition(nb), nb), []);
  // Fewer than 3 decimals, or a number no output prints, is not a quoted measurement.
  const prose = { cells: [md("p < 0.05, a MAP near 0.87, and 0.1234 printed nowhere.")] };
  assert.deepEqual(quotedMeasuredNumbers(prose, nb), []);
  // A number the lesson's code writes (a quantile's level in a column label) is not measured.
  const quantile = { cells: [md("The interval uses $t_{0.975,\\,n-1}$.")] };
  const labelled: CourseNotebook = {
    cells: [code('table({ "t(0.975, n-1)": q })', [stream("t(0.975, n-1) 2.0452\n")])],
  };
  assert.deepEqual(quotedMeasuredNumbers(quantile, labelled), []);
  assert.deepEqual(quotedMeasuredNumbers({ cells: [md("t is 2.0452.")] }, labelled), [
    { cell: 0, number: "2.0452" },
  ]);
  assert.deepEqual(courseProblems("02-filters", nb, untagged), [
    `02-filters: the student edition's cell ${cell} quotes 0.5931, a number the lesson's ` +
    "outputs print (tag the cell result, with a metadata.kit.question)",
  ]);
});

Deno.test("course: an exercise without its worked solution is a problem", () => {
  const nb = fixture();
  const without = { ...nb, cells: nb.cells.filter((c) => !src(c).startsWith("### Exercise 2")) };
  assert.deepEqual(missingSolutions(nb), []);
  assert.deepEqual(missingSolutions(without), [2]);
  assert.deepEqual(courseProblems("02-filters", without, without), [
    "02-filters: exercise 2 has no worked solution (a Markdown cell tagged solution starting " +
    "'### Exercise 2')",
  ]);
});

Deno.test("course: only the lesson's code outside comments exempts a number it writes", () => {
  const nb = fixture();
  const prose = { cells: [md("MAP is 0.5931.")] };
  // A solution that asserts the number, a lesson comment that says it: neither is a parameter.
  const solved: CourseNotebook = {
    ...nb,
    cells: [
      ...nb.cells,
      code('assert.equal(map.toFixed(4), "0.5931");', [], sol),
      code("const k = 10; // BM25 reaches 0.5931\n/* and 0.4210 */"),
    ],
  };
  assert.deepEqual(quotedMeasuredNumbers(prose, solved), [{ cell: 0, number: "0.5931" }]);
  // The lesson's own code, outside comments, writing it: a parameter, not a measurement.
  const param = { ...nb, cells: [...nb.cells, code("const target = 0.5931;")] };
  assert.deepEqual(quotedMeasuredNumbers(prose, param), []);
  assert.deepEqual(
    quotedMeasuredNumbers(prose, { ...nb, cells: [...nb.cells, code('f("0.5931")')] }),
    [],
  );
  // The student edition's code comments are prose too.
  const student = studentEdition(solved);
  const at = student.cells.findIndex((c) => src(c).startsWith("const k = 10;"));
  assert.deepEqual(quotedMeasuredNumbers(student, solved), [
    { cell: at, number: "0.5931", comment: true },
    { cell: at, number: "0.4210", comment: true },
  ]);
  assert.ok(
    courseProblems("02-filters", solved, solved).includes(
      `02-filters: the student edition's cell ${at} quotes 0.5931 in a code comment, a number ` +
        "the lesson's outputs print (move it to a result cell with a question)",
    ),
  );
  assert.deepEqual(codeAndComments('x = "a // b"; // c\ny = `/* d */`; /* e */'), {
    code: 'x = "a // b"; \ny = `/* d */`; ',
    comments: " c\n e ",
  });
});

Deno.test("course: the scan reads percentages, scientific p-values and LaTeX decimals", () => {
  const executed: CourseNotebook = {
    cells: [
      code("console.log(r)", [
        stream("kept 0.66667\np 1.93e-30\np2 0.0000970\nshare 0.6667\nn 243\nrate 12.50%\n"),
      ]),
    ],
  };
  const prose = {
    cells: [
      md("It keeps 66.67% of them (p = 1.9e-30; the other p is 9.7e-5, or $9.7 \\times 10^{-5}$)."),
      md("In LaTeX: $\\text{MAP} = 0{.}667$; the rate $12.5\\%$."),
      md("Integers and short decimals stay out: 243 questions, 67%, 0.67, p < 1e-3, 2e-30."),
    ],
  };
  assert.deepEqual(quotedMeasuredNumbers(prose, executed, []), [
    { cell: 0, number: "66.67%" },
    { cell: 0, number: "1.9e-30" },
    { cell: 0, number: "9.7e-5" },
    { cell: 0, number: "9.7 \\times 10^{-5}" },
    { cell: 1, number: "0{.}667" },
    { cell: 1, number: "12.5\\%" },
  ]);
  // Printed nowhere, or published: not a quoted measurement.
  assert.deepEqual(
    quotedMeasuredNumbers({ cells: [md("It keeps 55.55%, p 3.1e-8.")] }, executed),
    [],
  );
  assert.deepEqual(quotedMeasuredNumbers(prose, executed, [0.6667, 1.9e-30, 9.7e-5, 0.125]), []);
});

Deno.test("course: exercises end at the next heading, count '1)' items, and must be there", () => {
  const cell =
    "## Exercises\n\n1. Count.\n2) Score.\n\n## Further reading\n\n1. A book.\n2. A paper.";
  assert.equal(lessonLength({ cells: [md(cell)] }).exercises, 2);
  const nb = {
    ...fixture(),
    cells: fixture().cells.map((c) =>
      src(c).includes("## Exercises") ? { ...c, source: `## Summary\n\n${cell}` } : c
    ),
  };
  assert.deepEqual(missingSolutions(nb), []);
  const sources = studentEdition(nb).cells.map(src);
  assert.equal(sources.filter((t) => t.startsWith("// Exercise")).length, 2);
  // The solutions page shows the Exercises section, not the reading list after it.
  const page = solutionsNotebook(nb, "02-filters");
  assert.equal(src(page.cells[1]), "## Exercises\n\n1. Count.\n2) Score.");
  // An Exercises section with no numbered item checks nothing: a problem.
  const empty = {
    ...nb,
    cells: nb.cells.map((c) =>
      src(c).includes("## Exercises")
        ? { ...c, source: "## Exercises\n\n- Count.\n\n## More\n\n1. X." }
        : c
    ),
  };
  const at = empty.cells.findIndex((c) => src(c).includes("## Exercises"));
  assert.deepEqual(courseProblems("02-filters", empty, empty), [
    `02-filters: cell ${at}'s '## Exercises' section has no numbered item ('1.' or '1)' at the ` +
    "start of a line, before the next heading)",
  ]);
});

Deno.test("course: a result cell without a question is a problem naming lesson and cell", () => {
  const nb = fixture();
  const bare: CourseNotebook = {
    ...nb,
    cells: nb.cells.map((c, i) =>
      i === 4 ? { ...c, id: "random", metadata: { tags: ["result"] } } : c
    ),
  };
  assert.deepEqual(resultsWithoutQuestion(nb), []);
  assert.deepEqual(resultsWithoutQuestion(bare), [4]);
  assert.deepEqual(courseProblems("02-filters", bare, bare), [
    "02-filters: cell 4 (id random) is tagged result but has no metadata.kit.question (the " +
    "student edition would drop it)",
  ]);
});

Deno.test("course: the student edition's name is neither the lesson's nor a lesson's", async () => {
  const { student } = courseFiles("02-filters");
  const base = student.slice(student.lastIndexOf("/") + 1);
  assert.notEqual(base, "02-filters.ipynb");
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/02-filters.ipynb`, "{}");
    await Deno.writeTextFile(`${dir}/${base}`, "{}");
    assert.deepEqual(listNotebooks(dir), ["02-filters.ipynb"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("course: titles, the index's lesson numbers, and the overflow line's article", () => {
  assert.equal(solutionsNotebook(fixture(), "02-filters").metadata.title, "Solutions: 2. Filters");
  assert.equal(lessonCells(fixture(), "02-filters").metadata.title, "2. Filters");
  const entry = (name: string) => ({
    name,
    title: name,
    seconds: 1,
    figures: 0,
    headlines: [],
    course: {},
  });
  const html = indexHtml(indexEntries([entry("01-datasets"), entry("05-significance")]), {
    params: {},
    generated: "",
  });
  assert.ok(html.includes("<tr><td>1</td>") && html.includes("<tr><td>5</td>"));
  assert.ok(!html.includes("<tr><td>2</td>"));
  assert.ok(html.includes('href="student/student-05-significance.ipynb"'));
  assert.equal(
    overflowLine({ cell: 3, what: "markdown", by: 40 }),
    "cell 3: a Markdown cell is 40 px wider than the page (it scrolls on screen and is cut in " +
      "the PDF)",
  );
});

/** Notebook 02, with a worked solution added for each exercise it does not yet solve. */
async function lesson02(dir: string): Promise<string> {
  const file = [...Deno.readDirSync(`${ROOT}notebooks`)].find((e) => e.name.startsWith("02-"))!
    .name;
  const nb = JSON.parse(await Deno.readTextFile(`${ROOT}notebooks/${file}`)) as CourseNotebook;
  for (const k of missingSolutions(nb)) {
    nb.cells.push(
      { ...md(`### Exercise ${k}\n\nA stand-in solution (test fixture).`, sol), id: `sx-${k}` },
      { ...code(`console.log("exercise ${k}");`, [], sol), execution_count: null, id: `sc-${k}` },
    );
  }
  await Deno.mkdir(`${dir}/notebooks`);
  // The copy imports the kit where it is (the lesson's "../lib/mod.ts" is relative to notebooks/).
  const json = JSON.stringify(nb, null, 1).replaceAll('\\"../lib/', `\\"${ROOT}lib/`);
  await Deno.writeTextFile(`${dir}/notebooks/${file}`, json + "\n");
  return file.replace(/\.ipynb$/, "");
}

Deno.test({
  name: "course: a real build of lesson 02 writes a checked solutions page, a student edition, " +
    "and the index links both",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const name = await lesson02(dir);
      const r = await buildReport({
        params: { data: "sample" },
        notebooksDir: `${dir}/notebooks`,
        outDir: `${dir}/R`,
        only: ["02"],
        pdf: false,
        slides: false, // the slides have their own tests
        log: () => {},
      });
      const e = r.notebooks[0];
      const course = e.course!;
      assert.equal(course.solutions, `${dir}/R/solutions/${name}.html`);
      assert.ok(pageOk(course.solutionsCheck));
      assert.deepEqual(course.problems, []);
      const page = await Deno.readTextFile(course.solutions);
      assert.match(page, /<title>Solutions: 2\. [^<]+<\/title>/);
      assert.match(page, /Exercise 1/);
      // The lesson's page and the executed notebook: solutions only in the notebook.
      const lessonPage = await Deno.readTextFile(e.html);
      assert.match(lessonPage, /<title>2\. [^<]+<\/title>/);
      assert.ok(!lessonPage.includes('id="Exercise-1"'), "a solution on the lesson's page");
      const executed = JSON.parse(await Deno.readTextFile(e.ipynb)) as CourseNotebook;
      assert.ok(solvedExercises(executed).length >= 2);
      const student = JSON.parse(
        await Deno.readTextFile(`${dir}/R/student/student-${name}.ipynb`),
      ) as CourseNotebook;
      assert.ok(student.cells.every((c) => !(c.outputs?.length) && !c.execution_count));
      assert.ok(student.cells.some((c) => src(c) === "// Exercise 1: your code here"));
      assert.deepEqual(solvedExercises(student), []);
      const index = await Deno.readTextFile(r.index);
      assert.ok(index.includes(`href="solutions/${name}.html"`));
      assert.ok(index.includes(`href="student/student-${name}.ipynb"`));
      assert.match(index, /about \d+ min/);
      // The syllabus page: written, checked, linked from the index, linking the course files.
      assert.equal(r.syllabus, `${dir}/R/syllabus.html`);
      assert.ok(index.includes('href="syllabus.html"'));
      const syllabus = await Deno.readTextFile(r.syllabus!);
      assert.ok(syllabus.includes(`href="solutions/${name}.html"`));
      const summary = JSON.parse(await Deno.readTextFile(`${dir}/R/summary.json`));
      assert.equal(summary.notebooks[0].course.student, `student/student-${name}.ipynb`);
      const manifest = JSON.parse(await Deno.readTextFile(`${dir}/R/.kit-report`));
      const listed = manifest.files.map((f: { path: string }) => f.path);
      assert.ok(
        listed.includes(`solutions/${name}.html`) &&
          listed.includes(`student/student-${name}.ipynb`),
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
