/**
 * Copies the cluster files (`examples/cluster/`) into the fenced blocks of `docs/scoring.md`
 * that show them: `deno run -A tests/scoring/update_cluster_doc.ts`. A block shows a file when
 * the line before its opening fence (blank lines aside) is `<!-- include: PATH -->` (PATH
 * from the repository root); its content is then the file's, byte for byte. `cluster_files_test.ts` fails while a
 * block differs from its file.
 *
 * @module
 */
import { writeFileAtomic } from "../../lib/io/atomic.ts";

/** The page that shows the files. */
export const CLUSTER_DOC = new URL("../../docs/scoring.md", import.meta.url);

/** The repository root, which include paths are relative to. */
export const REPO_ROOT = new URL("../../", import.meta.url);

/** The files the page must show. */
export const CLUSTER_FILES = [
  "examples/cluster/score.sbatch",
  "examples/cluster/merge.sbatch",
  "examples/cluster/score-job.yaml",
];

/** One included block: the file it shows, and what the page holds now. */
export interface IncludedBlock {
  path: string;
  /** The block's content as the page has it (every line with its `\n`). */
  content: string;
  /** 1-based line of the marker. */
  line: number;
}

const MARKER = /^<!-- include: (\S+) -->$/;

/**
 * The page with every marked block's content replaced by `read(path)`, and the blocks as they
 * were. A marker not followed by a fenced block, or a block that is never closed, is an error
 * naming its line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { includeFiles } from "./update_cluster_doc.ts";
 * const f = "`".repeat(3);
 * const page = `a\n<!-- include: x.sh -->\n\n${f}bash\nold\n${f}\nb\n`;
 * const { text, blocks } = includeFiles(page, () => "new\nlines\n");
 * assert.equal(text, `a\n<!-- include: x.sh -->\n\n${f}bash\nnew\nlines\n${f}\nb\n`);
 * assert.deepEqual(blocks, [{ path: "x.sh", content: "old\n", line: 2 }]);
 * ```
 */
export function includeFiles(
  page: string,
  read: (path: string) => string,
): { text: string; blocks: IncludedBlock[] } {
  const lines = page.split("\n");
  const out: string[] = [];
  const blocks: IncludedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    out.push(lines[i]);
    const m = MARKER.exec(lines[i]);
    if (!m) continue;
    // blank lines may stand between the marker and the fence (deno fmt puts one there)
    let open = i + 1;
    while (open < lines.length && lines[open] === "") open++;
    const fence = /^(`{3,})[\w-]*$/.exec(lines[open] ?? "");
    if (!fence) {
      throw new Error(`line ${i + 1}: '${lines[i]}' is not followed by a fenced block`);
    }
    const close = lines.findIndex((l, j) => j > open && l === fence[1]);
    if (close < 0) throw new Error(`line ${open + 1}: the block included from ${m[1]} never ends`);
    const content = lines.slice(open + 1, close).map((l) => l + "\n").join("");
    blocks.push({ path: m[1], content, line: i + 1 });
    const file = read(m[1]);
    if (!file.endsWith("\n")) throw new Error(`${m[1]} does not end with a newline`);
    if (file.includes(fence[1])) throw new Error(`${m[1]} holds ${fence[1]}: use a longer fence`);
    out.push(...lines.slice(i + 1, open + 1), ...file.slice(0, -1).split("\n"), lines[close]);
    i = close;
  }
  return { text: out.join("\n"), blocks };
}

/** Reads an include path from the repository root. */
export function readRepoFile(path: string): string {
  return Deno.readTextFileSync(new URL(path, REPO_ROOT));
}

if (import.meta.main) {
  const path = CLUSTER_DOC.pathname;
  const page = await Deno.readTextFile(path);
  const { text } = includeFiles(page, readRepoFile);
  if (text === page) console.error(`${path} is up to date`);
  else {
    await writeFileAtomic(path, text, { force: true });
    console.error(`wrote ${path}`);
  }
}
