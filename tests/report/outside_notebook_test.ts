/**
 * A user's own notebook, in a folder outside the project (no deno.json above it), imports the
 * kit by the path of `lib/mod.ts` and runs under plain `jupyter nbconvert --execute`: the numbers
 * it shows are the library's. The systems report's analysis runs there too, first try: runs
 * relative to the notebook's folder, plain values shown by `display`, a `.ref`-numbered run.
 */
import assert from "node:assert/strict";
import {
  evaluate,
  evaluateSystems,
  loadSplit,
  qrelsFromQuestions,
  readRunForSplit,
  runFromScores,
} from "../../lib/mod.ts";
import { SAMPLES_DIR } from "../../lib/data/paths.ts";
import { formatP } from "../../lib/stats/p_value.ts";
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

Deno.test({
  name:
    "your own notebook outside the project: evaluateSystems, showSection, display of plain values, a .ref run, first try",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-own-analysis-" });
    try {
      const sample = await Deno.readTextFile(`${SAMPLES_DIR}/runs/wikiqa-test.run`);
      await Deno.writeTextFile(`${dir}/mine.run`, sample);
      await Deno.writeTextFile(
        `${dir}/reversed.run`,
        sample.replace(/^(\S+ \S+ \S+ \S+ )(\S+)/gm, (_, head, score) => `${head}${-score}`),
      );
      // The sample run as WikiQA's .ref files number it: question number, sentence index.
      const split = await loadSplit("wikiqa", "test", { dir: "samples" });
      const run = (await readRunForSplit(`${dir}/mine.run`, split)).run;
      await Deno.writeTextFile(
        `${dir}/ref.run`,
        split.all.flatMap((q, i) =>
          q.candidates.filter((c) => run.get(q.id)?.has(c.id)).map((c) =>
            `${i + 1} Q0 ${q.candidates.indexOf(c)} 0 ${run.get(q.id)!.get(c.id)} mine\n`
          )
        ).join(""),
      );
      const input = `${dir}/analysis.ipynb`;
      await Deno.writeTextFile(
        input,
        notebook([
          `import { display, evaluateSystems, loadSplit, readRunForSplit, showSection } from "${MOD}";`,
          'const report = await evaluateSystems({ data: "sample", systems: [\n' +
          '  { name: "mine", runs: ["mine.run"] }, { name: "reversed", runs: ["reversed.run"] },\n' +
          '] });\nawait showSection(report, "significance");',
          "await display(report.family.questions);",
          'await display(report.family.tests.filter((t) => t.measure === "map"));',
          'const split = await loadSplit("wikiqa", "test", { dir: "samples" });\nawait display(split.report.filter);',
          'const ref = await readRunForSplit("ref.run", split);\nawait display(ref.notes[0]);',
        ]),
      );
      const executed = JSON.parse(
        await Deno.readTextFile(
          (await runPlainNbconvert(input, dir, { data: "sample" }, "notebook", { cwd: dir })).file,
        ),
      ) as { cells: { outputs: { output_type: string; data?: Record<string, unknown> }[] }[] };
      const outputs = executed.cells.map((c) => c.outputs);
      assert.deepEqual(
        outputs.flat().filter((o) => o.output_type === "error"),
        [],
        "an error in the first try",
      );
      const plain = (o: { data?: Record<string, unknown> }) => {
        const t = o.data?.["text/plain"];
        return Array.isArray(t) ? t.join("") : String(t);
      };
      // The same numbers as the library's, here.
      const report = await evaluateSystems({
        data: "sample",
        systems: [{ name: "mine", runs: ["mine.run"] }, {
          name: "reversed",
          runs: ["reversed.run"],
        }],
      }, { base: dir });
      assert.match(
        plain(outputs[1][0]),
        /The family: all pairs involving your systems \('all'\), m = 5 distinct tests per measure, over 4 questions/,
      );
      assert.equal(plain(outputs[2][0]), String(report.family!.questions));
      const html = String(outputs[3][0].data!["text/html"] as string[] | string);
      for (const t of report.family!.tests.filter((t) => t.measure === "map")) {
        assert.ok(html.includes(formatP(t.p)), `p ${t.p} in the records table`);
      }
      assert.equal(plain(outputs[4][0]), "clean");
      assert.match(
        plain(outputs[5][0]),
        /numbered as WikiQA-test\.ref .* mapped to the corpus ids/,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
