/**
 * The lessons: the one list of the notebooks that teach (everything in `notebooks/` but
 * `00-your-systems`, which reports on the user's systems), each with the test that checks its
 * exercises' answers, and how long each takes in class. `tests/report/lessons_test.ts` holds the
 * folder, the exercise tests and docs/notebooks.md to this list, and every lesson to a 90-minute
 * class by {@link lessonLength}.
 *
 * @module
 */

/** One lesson: its notebook and the test of its exercises. */
export interface Lesson {
  /** File name in `notebooks/`. */
  file: string;
  /** The test that solves its exercises with the public API and checks the answers. */
  exercises: string;
}

/** The lessons, in teaching order. */
export const LESSONS: readonly Lesson[] = [
  "01-datasets",
  "02-filters",
  "03-scoring",
  "04-metrics",
  "05-significance",
  "06-qrcd",
  "07-heldout",
  "08-labels",
  "09-stability",
  "10-robustness",
  "11-pitfalls",
  "12-qqa23",
].map((name) => ({
  file: `${name}.ipynb`,
  exercises: `tests/exercises/${name.replace("-", "_")}_test.ts`,
}));

/** A class, in minutes: every lesson must fit one (estimated by {@link lessonLength}). */
export const CLASS_MINUTES = 90;

/**
 * The planning rule behind {@link lessonLength}'s estimate, in minutes: prose read and explained
 * at 50 words a minute (a lecturer reads a slide aloud at about 130 and explains as much again), a
 * code cell run and its output read in 2.5, a figure discussed in 2 more, an exercise worked in
 * class in 15 (each asks for TypeScript against the kit's API: 15 to 30 minutes for a student).
 * A rule for planning a session, not a measurement. Cells tagged `solution` (the worked
 * exercises, shown on the solutions page) are not class time: the exercise's 15 minutes are.
 */
export const MINUTES_PER = { word: 1 / 50, codeCell: 2.5, figure: 2, exercise: 15 } as const;

/** How long a lesson is (its cells tagged `solution` left out). */
export interface LessonLength {
  cells: number;
  markdownCells: number;
  codeCells: number;
  /** Words of the Markdown cells (formulas and code spans count as words). */
  words: number;
  /** Figures the code cells draw (calls of the kit's figure builders). */
  figures: number;
  /** Numbered items (`1.` or `1)`) under the `## Exercises` heading, up to the next heading. */
  exercises: number;
  /** The estimated class time ({@link MINUTES_PER}), rounded up. */
  minutes: number;
}

/** The figure builders of `lib/plot` a lesson calls. */
const FIGURE_CALL =
  /\b(bar|histogram|line|scatter|seedStripFigure|seedSpreadFigure|runningMeanFigure|stabilityFigure)\(/g;

const text = (s: string | string[]) => Array.isArray(s) ? s.join("") : s;

/** An exercise: a numbered item (`1.` or `1)`) at the start of a line. */
const EXERCISE_ITEM = /^\d+[.)]\s/gm;

/**
 * A Markdown cell's Exercises section: from its `## Exercises` heading to the next heading (or
 * the cell's end; a `#` line in a fenced code block is not a heading); `undefined` when the cell
 * has no such heading.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exercisesSection } from "./lessons.ts";
 * assert.equal(
 *   exercisesSection("Intro.\n\n## Exercises\n\n1. One.\n\n## Further reading\n\n1. A book."),
 *   "## Exercises\n\n1. One.\n\n",
 * );
 * assert.equal(exercisesSection("## Summary"), undefined);
 * ```
 */
export function exercisesSection(markdown: string): string | undefined {
  const at = markdown.search(/^## Exercises/m);
  if (at < 0) return undefined;
  const lines = markdown.slice(at).split("\n");
  let fenced = false;
  const end = lines.findIndex((l, i) => {
    if (/^\s*(```|~~~)/.test(l)) fenced = !fenced;
    return i > 0 && !fenced && /^#{1,6}\s/.test(l);
  });
  return (end < 0 ? lines : [...lines.slice(0, end), ""]).join("\n");
}

/**
 * How long a lesson (an nbformat notebook, executed or not) is, and its estimated class time.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lessonLength } from "./lessons.ts";
 * const length = lessonLength({ cells: [
 *   { cell_type: "markdown", source: "# A lesson\n\nFifty words ".padEnd(30, "x") },
 *   { cell_type: "code", source: "await display(bar(['a'], [{ name: 'x', values: [1] }]));" },
 *   { cell_type: "markdown", source: "## Exercises\n\n1. One.\n2. Two." },
 * ] });
 * assert.deepEqual(
 *   [length.cells, length.codeCells, length.figures, length.exercises],
 *   [3, 1, 1, 2],
 * );
 * // 11 words / 50 + 2.5 + 2 + 2 * 15 = 34.72: 35 minutes
 * assert.equal(length.minutes, 35);
 * ```
 */
export function lessonLength(
  nb: { cells: { cell_type: string; source: string | string[]; metadata?: unknown }[] },
): LessonLength {
  const taught = nb.cells.filter((c) =>
    !((c.metadata as { tags?: string[] } | undefined)?.tags ?? []).includes("solution")
  );
  const markdown = taught.filter((c) => c.cell_type === "markdown").map((c) => text(c.source));
  const code = taught.filter((c) => c.cell_type === "code").map((c) => text(c.source));
  const words = markdown.reduce((n, m) => n + (m.match(/\S+/g)?.length ?? 0), 0);
  const figures = code.reduce((n, c) => n + (c.match(FIGURE_CALL)?.length ?? 0), 0);
  const section = markdown.map(exercisesSection).find((m) => m !== undefined);
  const exercises = section?.match(EXERCISE_ITEM)?.length ?? 0;
  const minutes = words * MINUTES_PER.word + code.length * MINUTES_PER.codeCell +
    figures * MINUTES_PER.figure + exercises * MINUTES_PER.exercise;
  return {
    cells: taught.length,
    markdownCells: markdown.length,
    codeCells: code.length,
    words,
    figures,
    exercises,
    minutes: Math.ceil(minutes - 1e-9),
  };
}
