/**
 * Writes the table of lesson lengths into `docs/notebooks.md` (between its `lessons:` markers)
 * from the notebooks and `lessonLength`: `deno run -A tests/report/update_lessons_doc.ts`.
 * `lessons_test.ts` fails while it is stale.
 *
 * @module
 */
import { writeFileAtomic } from "../../lib/io/atomic.ts";
import {
  CLASS_MINUTES,
  lessonLength,
  LESSONS,
  MINUTES_PER,
} from "../../lib/report/build/lessons.ts";
import { formatMarkdown } from "../faults/matrix.ts";

/** The page that holds the table. */
export const NOTEBOOKS_DOC = new URL("../../docs/notebooks.md", import.meta.url);
const NOTEBOOKS = new URL("../../notebooks/", import.meta.url);
const START = "<!-- lessons:start (tests/report/update_lessons_doc.ts) -->";
const END = "<!-- lessons:end -->";

/** The table's Markdown: one row per lesson. */
export async function lessonsTable(): Promise<string> {
  const rows = [
    "| lesson | cells | Markdown / code | words | figures | exercises | class time (estimate) |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const l of LESSONS) {
    const nb = JSON.parse(await Deno.readTextFile(new URL(l.file, NOTEBOOKS)));
    const n = lessonLength(nb);
    rows.push(
      `| \`${l.file}\` | ${n.cells} | ${n.markdownCells} / ${n.codeCells} | ${n.words} | ` +
        `${n.figures} | ${n.exercises} | ${n.minutes} min |`,
    );
  }
  const rule = `words / ${1 / MINUTES_PER.word} + ${MINUTES_PER.codeCell} per code cell + ` +
    `${MINUTES_PER.figure} per figure + ${MINUTES_PER.exercise} per exercise`;
  return await formatMarkdown(
    `${rows.join("\n")}\n\nClass time = ${rule} (minutes; a planning rule, ` +
      `\`lessonLength\` in \`lib/report/build/lessons.ts\`); every lesson must fit ${CLASS_MINUTES}.\n`,
  );
}

/** `docs/notebooks.md` with the table between its markers replaced. */
export async function updatedDoc(doc: string): Promise<string> {
  const start = doc.indexOf(START), end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/notebooks.md lacks ${START} ... ${END}`);
  return doc.slice(0, start + START.length) + "\n\n" + await lessonsTable() + "\n" +
    doc.slice(end);
}

if (import.meta.main) {
  const doc = await Deno.readTextFile(NOTEBOOKS_DOC);
  const next = await updatedDoc(doc);
  if (next !== doc) await writeFileAtomic(NOTEBOOKS_DOC.pathname, next, { force: true });
  console.log(next === doc ? "docs/notebooks.md is up to date" : "wrote docs/notebooks.md");
}
