/**
 * Rewrites docs/datasets.md's table from `DATASETS`:
 * `deno run --allow-all tests/data/update_doc.ts`. `doc_test.ts` fails while it is stale.
 *
 * @module
 */
import { DATASETS } from "../../lib/data/datasets.ts";
import { writeFileAtomic } from "../../lib/io/atomic.ts";
import { formatMarkdown } from "../faults/matrix.ts";

const BEGIN = "<!-- BEGIN GENERATED dataset table by tests/data/update_doc.ts: do not edit -->";
const END = "<!-- END GENERATED dataset table -->";

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

/** docs/datasets.md with its table generated afresh (formatted as `deno fmt` does). */
export async function docWithDatasets(doc: string): Promise<string> {
  const a = doc.indexOf(BEGIN), b = doc.indexOf(END);
  if (a < 0 || b < a) throw new Error(`docs/datasets.md lacks the markers ${BEGIN} ... ${END}`);
  return await formatMarkdown(
    doc.slice(0, a + BEGIN.length) + "\n\n" + datasetMarkdown() + "\n" + doc.slice(b),
  );
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
