/**
 * A user's own notebook, in a folder outside the project (no deno.json above it), imports the
 * kit by the path of `lib/mod.ts` and runs under plain `jupyter nbconvert --execute`: the numbers
 * it shows are the library's.
 */
import assert from "node:assert/strict";
import { evaluate, loadSplit, qrelsFromQuestions, runFromScores } from "../../lib/mod.ts";
import { runPlainNbconvert } from "./plain_nbconvert.ts";

const MOD = new URL("../../lib/mod.ts", import.meta.url).href;

function notebook(cells: string[]): string {
  return JSON.stringify({
    cells: cells.map((source) => ({
      cell_type: "code",
      execution_count: null,
      metadata: {},
      outputs: [],
      source,
    })),
    metadata: {
      kernelspec: { display_name: "Deno", language: "typescript", name: "deno" },
      language_info: { name: "typescript" },
    },
    nbformat: 4,
    nbformat_minor: 5,
  });
}

Deno.test({
  name: "a notebook outside the project imports lib/mod.ts by path, with no config",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-own-notebook-" });
    try {
      const input = `${dir}/mine.ipynb`;
      await Deno.writeTextFile(
        input,
        notebook([
          `import { display, evaluate, loadSplit, markdown, qrelsFromQuestions, runFromScores } from "${MOD}";`,
          'const { questions } = await loadSplit("wikiqa", "test", { filter: "clean", dir: "samples" });\n' +
          "const scores = questions.flatMap((q) => q.candidates.map((_, i) => -i));\n" +
          'const r = evaluate(qrelsFromQuestions(questions), runFromScores(questions, scores), ["map"]);',
          "await display(markdown(`MAP=${r.summary.map}`));",
        ]),
      );
      const run = await runPlainNbconvert(input, dir, { data: "sample" }, "notebook", { cwd: dir });
      const executed = JSON.parse(await Deno.readTextFile(run.file));
      const shown = executed.cells.flatMap((c: { outputs: { data?: Record<string, unknown> }[] }) =>
        c.outputs.map((o) => o.data?.["text/markdown"]).filter((x) => x !== undefined)
      ).map((x: string | string[]) => Array.isArray(x) ? x.join("") : x);

      const { questions } = await loadSplit("wikiqa", "test", { filter: "clean", dir: "samples" });
      const scores = questions.flatMap((q) => q.candidates.map((_, i) => -i));
      const r = evaluate(qrelsFromQuestions(questions), runFromScores(questions, scores), ["map"]);
      assert.deepEqual(shown, [`MAP=${r.summary.map}`]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
