/**
 * Runs as they circulate: a run numbered as WikiQA's `.ref` files (question number, sentence
 * index) is recognised, mapped, and scores what trec_eval 9.0.8 `-c` gives on the official
 * `WikiQA-test-filtered.ref`; a run sharing no question with the split is an error.
 */
import assert from "node:assert/strict";
import { renumberRun } from "../../lib/data/run_numbering.ts";
import { KitError } from "../../lib/errors.ts";
import { PROTOCOL_MEASURES } from "../../lib/metrics/protocol_measures.ts";
import { writeRun } from "../../lib/metrics/trec_write.ts";
import { runFromScores } from "../../lib/metrics/convert.ts";
import { scoreSplit } from "../../lib/scoring/pipeline.ts";
import { queryValues } from "../../lib/stats/query_set.ts";
import { loadSystemsSplit, readCheckedRun } from "../../lib/report/systems_input.ts";
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
  const r = renumberRun(ref, "wikiqa", qs);
  assert.equal(r.numbering, "wikiqa-ref");
  assert.deepEqual([...r.run.get("Q0")!], [["DQ0-0", 0.5], ["DQ0-1", 0.2]]);
  assert.deepEqual([...r.run.get("Q1")!][0], ["DQ1-2", 0.9]);
  assert.equal(r.unmapped, 1);
  assert.ok(r.run.has("7"));
  // A run with any corpus question id, or a non-number, is the corpus numbering.
  const mixed = new Map([["Q0", new Map([["DQ0-0", 1]])], ["2", new Map([["0", 1]])]]);
  assert.equal(renumberRun(mixed, "wikiqa", qs).numbering, undefined);
  assert.equal(
    renumberRun(new Map([["1", new Map([["a", 1]])]]), "wikiqa", qs).numbering,
    undefined,
  );
  // Only WikiQA has this numbering.
  assert.equal(renumberRun(ref, "trecqa", qs).numbering, undefined);
});

realDataTest(
  "a run in WikiQA-test.ref numbering: mapped, and MAP/MRR/P@1/nDCG@10 equal trec_eval -c on WikiQA-test-filtered.ref",
  "wikiqa",
  async (dir) => {
    const spec = { dataset: "wikiqa", split: "test", filter: "clean" } as const;
    const split = await loadSystemsSplit(spec, dir);
    // The kit's BM25 on every question of the split, written as WikiQA's published system
    // outputs are numbered: question number in the TSV's order (1-based), sentence index.
    const scored = await scoreSplit("lexical:bm25", "wikiqa", "test", { filter: "raw", dir });
    const run = runFromScores(scored.questions, scored.scores);
    const lines: string[] = [];
    split.raw.forEach((q, i) => {
      q.candidates.forEach((c, j) => {
        lines.push(`${i + 1} Q0 ${j} 0 ${run.get(q.id)!.get(c.id)} bm25`);
      });
    });
    const tmp = await Deno.makeTempDir();
    const refRun = `${tmp}/bm25-ref.run`;
    await Deno.writeTextFile(refRun, lines.join("\n") + "\n");
    const checked = await readCheckedRun(refRun, spec, split);
    assert.equal(checked.numbering, "wikiqa-ref");
    assert.match(checked.numberingNote, /WikiQA-test\.ref/);
    assert.deepEqual(checked.warnings, []);
    const kit = queryValues(split.qrels, checked.run, PROTOCOL_MEASURES.map((m) => m.trecEval), {
      complete: true,
      warn: false,
    });
    // The same run in corpus ids gives the same numbers.
    const corpusRun = `${tmp}/bm25.run`;
    await writeRun(corpusRun, run, { runId: "bm25" });
    const direct = await readCheckedRun(corpusRun, spec, split);
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
      const id = split.raw[Number(qnum) - 1].id;
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
    () => renumberRun(ref, "wikiqa", qs, { split: "test", file: "dev.run" }),
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
    const dev = await loadSystemsSplit({ dataset: "wikiqa", split: "dev", filter: "raw" }, dir);
    const lines: string[] = [];
    dev.raw.forEach((q, i) => {
      q.candidates.forEach((_, j) => lines.push(`${i + 1} Q0 ${j} 0 ${(j % 7) / 7} dev`));
    });
    const tmp = await Deno.makeTempDir();
    const devRef = `${tmp}/devref.run`;
    await Deno.writeTextFile(devRef, lines.join("\n") + "\n");
    const why =
      /only 1806 of its 2733 entries \(66%\) name a question and sentence of the split's 633 questions: most likely a run of another split/;
    const spec = { dataset: "wikiqa", split: "test", filter: "clean" } as const;
    const split = await loadSystemsSplit(spec, dir);
    await assert.rejects(() => readCheckedRun(devRef, spec, split), why);
    const as2 = await runCli(
      ["eval", "as2", "--dataset", "wikiqa", "--split", "test", "--dir", dir, devRef],
    );
    assert.notEqual(as2.code, 0, as2.stderr);
    assert.match(as2.stderr, why);
    assert.equal(as2.stdout, "");
    // Given for its own split it maps whole.
    const own = await readCheckedRun(devRef, { ...spec, split: "dev", filter: "raw" }, dev);
    assert.equal(own.numbering, "wikiqa-ref");
  },
);

realDataTest(
  "a run sharing no question with the split: an error naming the likely cause",
  "wikiqa",
  async (dir) => {
    const spec = { dataset: "wikiqa", split: "test", filter: "clean" } as const;
    const split = await loadSystemsSplit(spec, dir);
    const tmp = await Deno.makeTempDir();
    await Deno.writeTextFile(`${tmp}/trec.run`, "32.1 Q0 32.1-0 1 0.5 x\n");
    await assert.rejects(
      () => readCheckedRun(`${tmp}/trec.run`, spec, split),
      (e: Error) =>
        e instanceof KitError && /trec\.run/.test(e.message) &&
        /shares no question with wikiqa test \(clean, 237 questions\)/.test(e.message) &&
        /another dataset or split, or in a numbering/.test(e.message),
    );
  },
);
