/**
 * Runs as they circulate: a run numbered as WikiQA's `.ref` files (question number, sentence
 * index) is recognised, mapped, and scores what trec_eval 9.0.8 `-c` gives on the official
 * `WikiQA-test-filtered.ref`; a run sharing few of its questions with the split is an error
 * naming the likely fix; `evaluate` on an unmapped one names the mapping.
 */
import assert from "node:assert/strict";
import { renumberRun } from "../../lib/data/run_numbering.ts";
import { KitError } from "../../lib/errors.ts";
import { PROTOCOL_MEASURES } from "../../lib/metrics/protocol_measures.ts";
import { writeRun } from "../../lib/metrics/write_files.ts";
import { runFromScores } from "../../lib/metrics/convert.ts";
import { scoreSplit } from "../../lib/scoring/pipeline.ts";
import { queryValues } from "../../lib/stats/query_set.ts";
import { loadSplit } from "../../lib/data/splits.ts";
import { readRunForSplit } from "../../lib/data/split_runs.ts";
import { evaluate, qrelsFromQuestions } from "../../lib/metrics/mod.ts";
import { allValue, realDataTest, runCli, runTrecEval, trecEvalBinary } from "../helpers.ts";

const question = (id: string, n: number) => ({
  id,
  text: "",
  candidates: Array.from({ length: n }, (_, i) => ({ id: `D${id}-${i}`, text: "", label: 0 })),
});

Deno.test("renumberRun: .ref numbers map to corpus ids; corpus ids and mixed runs stay", () => {
  const qs = [question("Q0", 2), question("Q1", 12)];
  const ten = Array.from({ length: 10 }, (_, i) => [String(i + 2), 0.9 - i / 100] as const);
  const ref = new Map([
    ["1", new Map([["0", 0.5], ["1", 0.2]])],
    ["2", new Map(ten)],
    ["7", new Map([["0", 1]])], // no question 7: kept as given, counted
  ]);
  const split = (dataset: "wikiqa" | "trecqa") => ({ dataset, split: "test", all: qs });
  const r = renumberRun(ref, split("wikiqa"));
  assert.equal(r.numbering, "wikiqa-ref");
  assert.deepEqual([...r.run.get("Q0")!], [["DQ0-0", 0.5], ["DQ0-1", 0.2]]);
  assert.deepEqual([...r.run.get("Q1")!][0], ["DQ1-2", 0.9]);
  assert.equal(r.unmapped, 1);
  assert.ok(r.run.has("7"));
  // A run with any corpus question id, or a non-number, is the corpus numbering.
  const mixed = new Map([["Q0", new Map([["DQ0-0", 1]])], ["2", new Map([["0", 1]])]]);
  assert.equal(renumberRun(mixed, split("wikiqa")).numbering, undefined);
  assert.equal(
    renumberRun(new Map([["1", new Map([["a", 1]])]]), split("wikiqa")).numbering,
    undefined,
  );
  // Only WikiQA has this numbering.
  assert.equal(renumberRun(ref, split("trecqa")).numbering, undefined);
});

realDataTest(
  "a run in WikiQA-test.ref numbering: mapped, and MAP/MRR/P@1/nDCG@10 equal trec_eval -c on WikiQA-test-filtered.ref",
  "wikiqa",
  async (dir) => {
    const split = await loadSplit("wikiqa", "test", { dir });
    const qrels = qrelsFromQuestions(split.questions);
    // The kit's BM25 on every question of the split, written as WikiQA's published system
    // outputs are numbered: question number in the TSV's order (1-based), sentence index.
    const scored = await scoreSplit("lexical:bm25", "wikiqa", "test", { filter: "raw", dir });
    const run = runFromScores(scored.questions, scored.scores);
    const lines: string[] = [];
    split.all.forEach((q, i) => {
      q.candidates.forEach((c, j) => {
        lines.push(`${i + 1} Q0 ${j} 0 ${run.get(q.id)!.get(c.id)} bm25`);
      });
    });
    const tmp = await Deno.makeTempDir();
    const refRun = `${tmp}/bm25-ref.run`;
    await Deno.writeTextFile(refRun, lines.join("\n") + "\n");
    const checked = await readRunForSplit(refRun, split);
    assert.equal(checked.numbering, "wikiqa-ref");
    assert.match(checked.notes.join(), /WikiQA-test\.ref/);
    assert.deepEqual(checked.warnings, []);
    // Unmapped, evaluate refuses it and names the mapping (the library's own route).
    const raw = new Map<string, Map<string, number>>();
    for (const l of lines) {
      const [q, , d, , score] = l.split(" ");
      if (!raw.has(q)) raw.set(q, new Map());
      raw.get(q)!.set(d, Number(score));
    }
    assert.throws(
      () => evaluate(qrels, raw, ["map"], { warn: false }),
      /no query has both results.*numbered like WikiQA's \.ref files.*renumberRun\(run, await loadSplit\("wikiqa", "test"\)\)\.run/,
    );
    const kit = queryValues(qrels, checked.run, PROTOCOL_MEASURES.map((m) => m.trecEval), {
      complete: true,
      warn: false,
    });
    // The same run in corpus ids gives the same numbers.
    const corpusRun = `${tmp}/bm25.run`;
    await writeRun(corpusRun, run, { runId: "bm25" });
    const direct = await readRunForSplit(corpusRun, split);
    assert.equal(direct.numbering, undefined);
    if (!trecEvalBinary()) {
      console.error("skipping the trec_eval comparison: not built (./kit setup)");
      return;
    }
    const out = (await runTrecEval([
      "-c",
      ...PROTOCOL_MEASURES.flatMap((m) => ["-m", m.trecEval]),
      `${dir}/wikiqa/WikiQA-test-filtered.ref`,
      refRun,
    ]))!;
    for (const m of PROTOCOL_MEASURES) {
      const mean = [...kit.perQuery.values()].reduce((s, v) => s + v[m.name], 0) /
        kit.perQuery.size;
      assert.equal(kit.perQuery.size, 237);
      assert.equal(Number(mean.toFixed(4)), allValue(out, m.name), m.label);
    }
    // Per question too (trec_eval -q prints each question's value, .ref numbered).
    const perQ = (await runTrecEval([
      "-c",
      "-q",
      "-m",
      "map",
      `${dir}/wikiqa/WikiQA-test-filtered.ref`,
      refRun,
    ]))!;
    let compared = 0;
    for (const line of perQ.trim().split("\n")) {
      const [, qnum, value] = line.split(/\s+/);
      if (qnum === "all") continue;
      const id = split.all[Number(qnum) - 1].id;
      assert.equal(kit.perQuery.get(id)!.map.toFixed(4), value, `question ${qnum} (${id})`);
      compared++;
    }
    assert.equal(compared, 237);
    // eval as2 maps it too, and says so.
    const as2 = await runCli([
      "eval",
      "as2",
      "--dataset",
      "wikiqa",
      "--split",
      "test",
      "--dir",
      dir,
      refRun,
    ]);
    assert.equal(as2.code, 0, as2.stderr);
    assert.match(as2.stderr, /numbered as WikiQA-test\.ref/);
    assert.equal(allValue(as2.stdout, "map"), allValue(out, "map"));
    assert.equal(allValue(as2.stdout, "recip_rank"), allValue(out, "recip_rank"));
  },
);

Deno.test("renumberRun: a .ref-looking run of which under nine in ten entries map is refused", () => {
  const qs = [question("Q0", 2), question("Q1", 3)];
  const ref = new Map([
    ["1", new Map([["0", 0.5], ["1", 0.2], ["2", 0.1]])], // question 1 has two sentences
    ["2", new Map([["0", 0.9], ["1", 0.3], ["2", 0.2]])],
  ]);
  assert.throws(
    () => renumberRun(ref, { dataset: "wikiqa", split: "test", all: qs }, { file: "dev.run" }),
    (e: Error) =>
      e instanceof KitError &&
      e.message.startsWith(
        "dev.run: every id is a number, so the run was read as numbered " +
          "like WikiQA-test.ref",
      ) &&
      /only 5 of its 6 entries \(83%\) name a question and sentence of the split's 2 questions/
        .test(e.message) &&
      /most likely a run of another split, in that split's \.ref numbering/.test(e.message),
  );
});

realDataTest(
  "a WikiQA dev run in dev .ref numbering given for test: refused by eval as2 and the report",
  "wikiqa",
  async (dir) => {
    const dev = await loadSplit("wikiqa", "dev", { filter: "raw", dir });
    const lines: string[] = [];
    dev.all.forEach((q, i) => {
      q.candidates.forEach((_, j) => lines.push(`${i + 1} Q0 ${j} 0 ${(j % 7) / 7} dev`));
    });
    const tmp = await Deno.makeTempDir();
    const devRef = `${tmp}/devref.run`;
    await Deno.writeTextFile(devRef, lines.join("\n") + "\n");
    const why =
      /only 1806 of its 2733 entries \(66%\) name a question and sentence of the split's 633 questions: most likely a run of another split/;
    const split = await loadSplit("wikiqa", "test", { dir });
    await assert.rejects(() => readRunForSplit(devRef, split), why);
    const as2 = await runCli(
      ["eval", "as2", "--dataset", "wikiqa", "--split", "test", "--dir", dir, devRef],
    );
    assert.notEqual(as2.code, 0, as2.stderr);
    assert.match(as2.stderr, why);
    assert.equal(as2.stdout, "");
    // Given for its own split it maps whole.
    const own = await readRunForSplit(devRef, dev);
    assert.equal(own.numbering, "wikiqa-ref");
  },
);

realDataTest(
  "a run sharing few of its question ids with the split: an error naming the likely fix",
  "wikiqa",
  async (dir) => {
    const split = await loadSplit("wikiqa", "test", { dir });
    const tmp = await Deno.makeTempDir();
    // TREC-QA ids: another corpus.
    await Deno.writeTextFile(`${tmp}/trec.run`, "32.1 Q0 32.1-0 1 0.5 x\n");
    await assert.rejects(
      () => readRunForSplit(`${tmp}/trec.run`, split),
      (e: Error) =>
        e instanceof KitError && /trec\.run/.test(e.message) &&
        /only 0 of the run's 1 question ids \(32\.1\) are questions of wikiqa test/.test(e.message),
    );
    // A dev run in corpus ids given for test: --split dev, from eval as2 too.
    const dev = await loadSplit("wikiqa", "dev", { dir });
    await Deno.writeTextFile(
      `${tmp}/dev.run`,
      dev.questions.flatMap((q) =>
        q.candidates.map((c, j) => `${q.id} Q0 ${c.id} ${j} ${-j} dev\n`)
      )
        .join(""),
    );
    await assert.rejects(() => readRunForSplit(`${tmp}/dev.run`, split), /give --split dev/);
    const as2 = await runCli(
      ["eval", "as2", "--dataset", "wikiqa", "--split", "test", "--dir", dir, `${tmp}/dev.run`],
    );
    assert.equal(as2.code, 2, as2.stderr);
    assert.match(as2.stderr, /122 of them are wikiqa dev's: give --split dev/);
    assert.equal(as2.stdout, "");
  },
);
