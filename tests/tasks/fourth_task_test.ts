/**
 * A fourth task is one folder and one registry entry: a small task defined here, with one
 * corpus fetched from a mirror, reaches `data fetch`, `data stats`, `eval`, `score` and the
 * docs' generated tables through `addTask` alone, no shared file changed.
 */
import "../quick.ts";
import { printed } from "../helpers.ts";
import assert from "node:assert/strict";
import { addTask, TASKS } from "../../lib/tasks/mod.ts";
import type { Task } from "../../lib/tasks/mod.ts";
import { DATASETS } from "../../lib/data/datasets.ts";
import { sha256Hex } from "../../lib/data/fetch.ts";
import { dataCommands } from "../../lib/cli/data.ts";
import { evalCommands } from "../../lib/cli/eval.ts";
import { scoreCommand } from "../../lib/cli/score.ts";
import { parseFlags } from "../../lib/cli/args.ts";
import { helpText } from "../../lib/cli/command.ts";
import type { Command } from "../../lib/cli/command.ts";
import { KitError } from "../../lib/errors.ts";
import { taskMarkdown } from "../data/update_doc.ts";
import { evaluateSystems } from "../../lib/report/systems/report.ts";
import { reportHeadline, systemsFiles } from "../../lib/report/systems/files.ts";
import { sectionItems } from "../../lib/report/systems/show.ts";
import { specFromFlags } from "../../lib/report/systems/spec.ts";

// The toy task's gold: one line per question, `qid<TAB>answer`; a run: `qid<TAB>answer`.
const GOLD = "q1\tparis\nq2\trome\nq3\toslo\n";

/** Exact-match accuracy of a run over the gold (a question the run leaves out scores 0). */
async function accuracy(goldPath: string, runPath: string): Promise<number> {
  const parse = (text: string) =>
    new Map(text.trim().split("\n").map((l) => l.split("\t") as [string, string]));
  const gold = parse(await Deno.readTextFile(goldPath));
  const run = parse(await Deno.readTextFile(runPath));
  let right = 0;
  for (const [q, a] of gold) if (run.get(q) === a) right++;
  return right / gold.size;
}

const toyEval: Command = {
  summary: "toy: exact-match accuracy of a run",
  positionals: [{ name: "GOLD", help: "gold file" }, { name: "RUN", help: "run file" }],
  options: [],
  async run(args) {
    const p = parseFlags(args, toyEval);
    console.log(JSON.stringify({ accuracy: await accuracy(p.positionals[0], p.positionals[1]) }));
  },
};

Deno.test("tasks: a fourth task added by one entry reaches data, eval, score, the report and the docs", async () => {
  const mirror = await Deno.makeTempDir({ prefix: "kit-toy-mirror-" });
  const cache = await Deno.makeTempDir({ prefix: "kit-toy-cache-" });
  const bytes = new TextEncoder().encode(GOLD);
  const scored: string[] = [];
  const toy: Task = {
    name: "toytask",
    title: "a toy task: one answer string per question",
    corpora: [{
      name: "toyset",
      title: "three capitals",
      task: "toytask",
      files: [{
        path: "toyset/gold.tsv",
        sha256: await sha256Hex(bytes),
        text: true,
        upstream: { kind: "url", url: "http://127.0.0.1:9/gold.tsv" },
      }],
      splits: { test: { file: "toyset/gold.tsv", published: {} } },
    }],
    measures: [{ name: "accuracy", label: "Acc", official: "accuracy", primary: true }],
    missing: "a question the run leaves out scores 0",
    baselines: [{ name: "always paris", command: "./kit score --model paris --dataset toyset" }],
    page: "accuracy",
    doc: "docs/toy.md",
    evalCommands: () => Promise.resolve({ toytask: toyEval }),
    stats: async (dataset, _split, dir) => {
      const text = await Deno.readTextFile(`${dir}/${dataset}/gold.tsv`);
      return { test: { questions: text.trim().split("\n").length } };
    },
    scoreOptions: [{ name: "toy-answer", value: "A", help: "toytask: the answer to give" }],
    // Its part of page 00: --toy-run NAME=FILE, scored against the installed gold.
    report: {
      key: "toytask",
      title: "toy runs",
      fileNames: ["toy.csv"],
      options: [{ name: "toy-run", value: "NAME=FILE", multiple: true, help: "a toy run" }],
      claims: () => [],
      runFlag: "--toy-run",
      baselineNames: [],
      nothing: "No toy run given.",
      fromFlags: (f, cwd) => {
        const runs = f.list("toy-run").map((v) => {
          const [name, path] = v.split("=");
          return { name, path: `${cwd}/${path}` };
        });
        return runs.length ? { runs } : undefined;
      },
      fromSpec: (raw) => raw as Record<string, unknown>,
      names: (p) => (p.runs as { name: string }[]).map((r) => r.name),
      inputs: () => [],
      evaluate: async (p) => ({
        runs: await Promise.all(
          (p.runs as { name: string; path: string }[]).map(async (r) => ({
            name: r.name,
            accuracy: await accuracy(`${cache}/toyset/gold.tsv`, r.path),
          })),
        ),
      }),
      systemRows: (d) => (d.runs as { name: string }[]).map((r) => ({ system: r.name })),
      show: (d) => [JSON.stringify(d.runs)],
      files: (d) => ({
        "toy.csv": (d.runs as { accuracy: number }[]).map((r) => r.accuracy).join("\n"),
      }),
      summarySystems: () => [],
      numbers: () => undefined,
      headline: (d) => ({ systems: (d.runs as unknown[]).length, entries: { toy: "yes" } }),
      indexSystems: () => [],
      texts: () => [],
    },
    checkScore(r) {
      if (r.sharded) throw new KitError("toytask: score unsharded");
    },
    async score(r) {
      scored.push(`${r.model} ${r.dataset} ${r.split}`);
      const answer = r.flag("toy-answer") ?? "paris";
      await Deno.writeTextFile(r.out, ["q1", "q2", "q3"].map((q) => `${q}\t${answer}\n`).join(""));
    },
  };
  try {
    await Deno.mkdir(`${mirror}/toyset`);
    await Deno.writeFile(`${mirror}/toyset/gold.tsv`, bytes);
    addTask(toy);
    assert.equal(TASKS.at(-1), toy);
    assert.equal(DATASETS.at(-1)!.name, "toyset");
    assert.throws(() => addTask(toy), /task 'toytask' is already defined/);

    // data fetch installs it (checksum, mirror layout); data stats asks the task.
    await printed(() => dataCommands.fetch.run(["toyset", "--mirror", mirror, "--dir", cache]));
    const stats = JSON.parse(
      await printed(() => dataCommands.stats.run(["toyset", "--dir", cache, "--json"])),
    );
    assert.deepEqual(stats, { test: { questions: 3 } });

    // score hands the task its request, with the task's own flag in score's table.
    assert.match(helpText("score", scoreCommand), /--toy-answer A\s+toytask: the answer to give/);
    const run = `${cache}/toy.run`;
    await printed(() =>
      scoreCommand.run([
        "--model",
        "paris",
        "--dataset",
        "toyset",
        "--split",
        "test",
        "--out",
        run,
        "--toy-answer",
        "rome",
      ])
    );
    assert.deepEqual(scored, ["paris toyset test"]);

    // eval runs the task's command.
    const commands = await evalCommands();
    assert.ok(Object.keys(commands).includes("toytask"));
    const gold = `${cache}/toyset/gold.tsv`;
    const out = JSON.parse(await printed(() => commands.toytask.run([gold, run])));
    assert.equal(out.accuracy, 1 / 3);

    // The report: its flag, its section, its file, its headline entries.
    const spec = specFromFlags({
      runs: [],
      models: [],
      parts: {
        list: (n) => n === "toy-run" ? ["mine=toy.run"] : [],
        str: () => undefined,
        has: () => false,
      },
    }, cache)!;
    assert.deepEqual(spec.toytask, { runs: [{ name: "mine", path: run }] });
    const report = await evaluateSystems(spec, { bootstrapSamples: 10 });
    assert.deepEqual(report.sections, ["systems", "toytask", "files"]);
    assert.deepEqual(report.toytask, { runs: [{ name: "mine", accuracy: 1 / 3 }] });
    assert.deepEqual(sectionItems(report, "toytask"), [
      '[{"name":"mine","accuracy":0.3333333333333333}]',
    ]);
    assert.equal(systemsFiles(report)["toy.csv"], String(1 / 3));
    assert.deepEqual(reportHeadline(report), { systems: 1, toy: "yes" });

    // The docs' generated task table lists it.
    assert.match(
      taskMarkdown(),
      /\| `toytask`: a toy task: one answer string per question \| `toyset` \| Acc \(primary\) `accuracy` \|/,
    );
  } finally {
    const t = TASKS.indexOf(toy);
    if (t >= 0) TASKS.splice(t, 1);
    const d = DATASETS.findIndex((x) => x.name === "toyset");
    if (d >= 0) DATASETS.splice(d, 1);
    await Deno.remove(mirror, { recursive: true });
    await Deno.remove(cache, { recursive: true });
  }
});
