/**
 * Rewrites docs/datasets.md's tables from the task registry (`TASKS`) and `DATASETS`:
 * `deno run --allow-all tests/data/update_doc.ts`. `doc_test.ts` fails while it is stale.
 *
 * @module
 */
import { DATASETS } from "../../lib/data/datasets.ts";
import { TASKS } from "../../lib/tasks/registry.ts";
import { writeFileAtomic } from "../../lib/io/atomic.ts";
import { formatMarkdown } from "../faults/matrix.ts";

const BEGIN = "<!-- BEGIN GENERATED dataset table by tests/data/update_doc.ts: do not edit -->";
const END = "<!-- END GENERATED dataset table -->";
const TASK_BEGIN = "<!-- BEGIN GENERATED task table by tests/data/update_doc.ts: do not edit -->";
const TASK_END = "<!-- END GENERATED task table -->";

/** The task table: one row per task of the registry. */
export function taskMarkdown(): string {
  const cell = (s: string) => s.replaceAll("|", "\\|");
  const rows = [
    "| task | corpora | measures (official name) | a question the run leaves out | baselines | page 00 | doc |",
    "| --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const t of TASKS) {
    const measures = t.measures.map((m) =>
      `${m.label}${m.primary ? " (primary)" : ""} \`${m.official}\``
    );
    rows.push(
      `| \`${t.name}\`: ${cell(t.title)} | ${t.corpora.map((c) => `\`${c.name}\``).join(", ")} | ${
        measures.join(", ")
      } | ${cell(t.missing)} | ${
        t.baselines.map((b) => `${cell(b.name)}: \`${cell(b.command)}\``).join("; ")
      } | ${cell(t.page)} | [${t.doc}](../${t.doc}) |`,
    );
  }
  return rows.join("\n") + "\n";
}

/** Replaces what lies between two markers of `doc` by `body`. */
function between(doc: string, begin: string, end: string, body: string): string {
  const a = doc.indexOf(begin), b = doc.indexOf(end);
  if (a < 0 || b < a) throw new Error(`docs/datasets.md lacks the markers ${begin} ... ${end}`);
  return doc.slice(0, a + begin.length) + "\n\n" + body + "\n" + doc.slice(b);
}

/** One published size as table text: `633 q / 6,165 c (Yang et al. 2015)`. */
function size(p: { questions: number; candidates?: number; records?: number; source: string }) {
  const n = (x: number) => x.toLocaleString("en-US");
  const parts = [
    ...(p.records === undefined ? [] : [`${n(p.records)} records`]),
    `${n(p.questions)} questions`,
    ...(p.candidates === undefined ? [] : [`${n(p.candidates)} candidates`]),
  ];
  return `${parts.join(", ")} (${p.source})`;
}

/** The table: one row per split of every corpus, then its pinned files. */
export function datasetMarkdown(): string {
  const rows = [
    "| dataset | split | file | published (raw) | files pinned (sha256) |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const d of DATASETS) {
    for (const [i, [split, s]] of Object.entries(d.splits).entries()) {
      const raw = s.published.raw;
      rows.push(
        `| ${i === 0 ? `\`${d.name}\`: ${d.title}` : ""} | ${split} | \`${s.file}\` | ${
          raw ? size(raw) : ""
        } | ${i === 0 ? d.files.length : ""} |`,
      );
    }
  }
  return rows.join("\n") + "\n";
}

/** docs/datasets.md with its tables generated afresh (formatted as `deno fmt` does). */
export async function docWithDatasets(doc: string): Promise<string> {
  const withTasks = between(doc, TASK_BEGIN, TASK_END, taskMarkdown());
  return await formatMarkdown(between(withTasks, BEGIN, END, datasetMarkdown()));
}

if (import.meta.main) {
  const path = new URL("../../docs/datasets.md", import.meta.url).pathname;
  const text = await Deno.readTextFile(path);
  const next = await docWithDatasets(text);
  if (next === text) console.error(`${path} is up to date`);
  else {
    await writeFileAtomic(path, next, { force: true });
    console.error(`rewrote ${path}`);
  }
}
