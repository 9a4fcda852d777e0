/**
 * The right corpus for a run: `loadSplit` defaults to the protocol's filter as every command
 * does; a run file read for a split (`readRunForSplit`, which `eval as2` and the report share)
 * is refused when fewer than half of its question ids are the split's, with the likely fix
 * named (another split, another corpus, the real corpus instead of the bundled sample); and
 * `evaluate` on a `.ref`-numbered run names the mapping (`renumberRun`).
 */
import assert from "node:assert/strict";
import { loadSplit, readRunForSplit, renumberRun, SAMPLES_DIR } from "../../lib/data/mod.ts";
import { KitError } from "../../lib/errors.ts";
import { evaluate, qrelsFromQuestions } from "../../lib/metrics/mod.ts";
import { realDataTest, runCli } from "../helpers.ts";

/** A run file ranking every candidate of `questions` (ids as given). */
function runText(questions: { id: string; candidates: { id: string }[] }[]): string {
  return questions.flatMap((q) => q.candidates.map((c, j) => `${q.id} Q0 ${c.id} ${j} ${-j} x\n`))
    .join("");
}

Deno.test("loadSplit: the protocol's filter by default (clean for test and dev, no-all for train), every question in all", async () => {
  const test = await loadSplit("wikiqa", "test", { dir: "samples" });
  assert.equal(test.report.filter, "clean");
  const raw = await loadSplit("wikiqa", "test", { filter: "raw", dir: "samples" });
  assert.deepEqual(test.all.map((q) => q.id), raw.questions.map((q) => q.id));
  assert.ok(test.questions.length < test.all.length);
  assert.equal((await loadSplit("wikiqa", "dev", { dir: "samples" })).report.filter, "clean");
  assert.equal((await loadSplit("wikiqa", "train", { dir: "samples" })).report.filter, "no-all");
  // The same number as eval as2, whose default is the protocol's filter too.
  const run = `${SAMPLES_DIR}/runs/wikiqa-test.run`;
  const r = await readRunForSplit(run, test);
  const map = evaluate(qrelsFromQuestions(test.questions), r.run, ["map"], {
    complete: true,
    warn: false,
  }).summary.map;
  const cli = await runCli([
    "eval",
    "as2",
    "--dataset",
    "wikiqa",
    "--split",
    "test",
    "--dir",
    "samples",
    run,
  ]);
  assert.equal(cli.code, 0, cli.stderr);
  assert.match(cli.stdout, new RegExp(`^map\\s+all\\s+${map.toFixed(4)}$`, "m"));
});

Deno.test("readRunForSplit: another split's run names --split; another corpus's names --dataset", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const test = await loadSplit("wikiqa", "test", { dir: "samples" });
    const dev = await loadSplit("wikiqa", "dev", { dir: "samples" });
    await Deno.writeTextFile(`${dir}/test.run`, runText(test.questions));
    await assert.rejects(
      () => readRunForSplit(`${dir}/test.run`, dev),
      (e: Error) =>
        e instanceof KitError && e.message.startsWith(`${dir}/test.run: only 0 of the run's`) &&
        /are questions of wikiqa dev \(the bundled sample: \d+ questions\)/.test(e.message) &&
        /of them are wikiqa test's: give --split test$/.test(e.message),
    );
    const trec = await loadSplit("trecqa", "test", { dir: "samples" });
    await Deno.writeTextFile(`${dir}/trec.run`, runText(trec.questions));
    await assert.rejects(
      () => readRunForSplit(`${dir}/trec.run`, test),
      /trecqa test's: give --dataset trecqa --split test$/,
    );
    // Ids of nothing the kit knows: the numbering hint.
    await Deno.writeTextFile(`${dir}/other.run`, "x1 Q0 y 1 1 r\nx2 Q0 y 1 1 r\n");
    await assert.rejects(
      () => readRunForSplit(`${dir}/other.run`, test),
      /a run of another corpus, or in a numbering the kit does not recognise/,
    );
    // Half of its ids the split's: read, with the other half a warning.
    const half = runText(test.questions.slice(0, 2)) + "x1 Q0 y 1 1 r\nx2 Q0 y 1 1 r\n";
    await Deno.writeTextFile(`${dir}/half.run`, half);
    const r = await readRunForSplit(`${dir}/half.run`, test);
    assert.ok(r.warnings.some((w) => /2 question ids of the run not in the split/.test(w)));
    // eval as2 refuses as the report does (before: exit 0 with a warning and MAP 0).
    const cli = await runCli(
      ["eval", "as2", "--dataset", "wikiqa", "--split", "dev", "--dir", "samples", "test.run"],
      { cwd: dir },
    );
    assert.equal(cli.code, 2, cli.stderr);
    assert.match(cli.stderr, /give --split test/);
    assert.equal(cli.stdout, "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readRunForSplit: a real-corpus run read against the bundled sample names the fix", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // Question ids of the real WikiQA test set that the sample does not hold.
    const ids = Array.from({ length: 20 }, (_, i) => `Q${10 + 7 * i}`);
    await Deno.writeTextFile(
      `${dir}/real.run`,
      ids.map((q) => `${q} Q0 D${q.slice(1)}-0 1 1 bm25\n`).join("") +
        "Q300 Q0 D300-0 1 1 bm25\n",
    );
    // Nothing fetched: the sample is the default, and the fix is to fetch the corpus.
    const empty = `${dir}/cache`;
    await Deno.mkdir(empty);
    const args = ["eval", "as2", "--dataset", "wikiqa", "--split", "test", "real.run"];
    const none = await runCli(args, { cwd: dir, env: { QA_KIT_DATA_DIR: empty } });
    assert.equal(none.code, 2, none.stderr);
    assert.match(none.stderr, /note: reading the bundled samples/);
    assert.match(
      none.stderr,
      /only 1 of the run's 21 question ids .* are questions of wikiqa test \(the bundled sample.*fetch the real corpus first \('\.\/kit data fetch wikiqa'; then it is the default\)/,
    );
    // Fetched (a corpus holding those questions) but the sample asked for: evaluate on the
    // fetched corpus.
    await Deno.mkdir(`${empty}/wikiqa`);
    await Deno.writeTextFile(`${empty}/wikiqa/.installed.json`, JSON.stringify({ files: {} }));
    await Deno.writeTextFile(
      `${empty}/wikiqa/WikiQA-test.tsv`,
      "QuestionID\tQuestion\tDocumentID\tDocumentTitle\tSentenceID\tSentence\tLabel\n" +
        ids.map((q) => {
          const d = `D${q.slice(1)}`;
          return `${q}\twhat?\t${d}\tt\t${d}-0\tyes\t1\n${q}\twhat?\t${d}\tt\t${d}-1\tno\t0\n`;
        }).join(""),
    );
    const asked = await runCli([...args, "--dir", "samples"], {
      cwd: dir,
      env: { QA_KIT_DATA_DIR: empty },
    });
    assert.equal(asked.code, 2, asked.stderr);
    assert.match(
      asked.stderr,
      /20 of them are the fetched wikiqa test's: evaluate on the fetched corpus \(without --dir samples\)/,
    );
    // And without --dir, the fetched corpus is the default: the run is read.
    const fetched = await runCli(args, { cwd: dir, env: { QA_KIT_DATA_DIR: empty } });
    assert.equal(fetched.code, 0, fetched.stderr);
    assert.doesNotMatch(fetched.stderr, /bundled samples/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("evaluate on a .ref-numbered run: the refusal names renumberRun, which maps it", async () => {
  const split = await loadSplit("wikiqa", "test", { dir: "samples" });
  const qrels = qrelsFromQuestions(split.questions);
  // As WikiQA-test.ref numbers the split: question number in file order, sentence index.
  const ref = new Map(
    split.all.map((q, i) => [String(i + 1), new Map(q.candidates.map((_, j) => [String(j), -j]))]),
  );
  assert.throws(
    () => evaluate(qrels, ref, ["map"], { warn: false }),
    (e: Error) =>
      /no query has both results and relevance judgments/.test(e.message) &&
      /numbered like WikiQA's \.ref files .* `renumberRun\(run, await loadSplit\("wikiqa", "test"\)\)\.run` maps it/
        .test(e.message),
  );
  // Ids that are not numbers: no such hint.
  assert.throws(
    () => evaluate(qrels, new Map([["x", new Map([["y", 1]])]]), ["map"], { warn: false }),
    (e: Error) => /no query has both/.test(e.message) && !/renumberRun/.test(e.message),
  );
  const mapped = renumberRun(ref, split);
  assert.equal(mapped.numbering, "wikiqa-ref");
  const r = evaluate(qrels, mapped.run, ["map"], { complete: true, warn: false });
  assert.equal(r.numQ, split.questions.length);
});

realDataTest(
  "readRunForSplit: the bundled sample's run read against the fetched corpus names --data sample",
  "wikiqa",
  async (dir) => {
    const split = await loadSplit("wikiqa", "test", { dir });
    // Its ids are the sample's test questions; four of them are also real train ids: the
    // better match (6 of 6) wins.
    await assert.rejects(
      () => readRunForSplit(`${SAMPLES_DIR}/runs/wikiqa-test.run`, split),
      /6 of them are the bundled sample of wikiqa test's: evaluate on the bundled sample \(--data sample\)$/,
    );
  },
);
