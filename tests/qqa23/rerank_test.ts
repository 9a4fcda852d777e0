/**
 * `score --dataset qqa23` with a cross-encoder: BM25's first passages re-ranked by the model, a
 * run the checker's rules accept; the flags that do not apply are refused.
 */
import assert from "node:assert/strict";
import { realDataTest, runCli } from "../helpers.ts";
import { parseQqa23Run } from "../../lib/qqa23/run_file.ts";
import { retrieve } from "../../lib/qqa23/retrieve.ts";
import { loadQqa23Split } from "../../lib/qqa23/load.ts";

const MODEL = new URL("../fixtures/tiny-model/cross-encoder", import.meta.url).pathname;

realDataTest(
  "score --dataset qqa23 with a cross-encoder re-ranks BM25's passages",
  "qqa23",
  async () => {
    const dir = await Deno.makeTempDir();
    try {
      const out = `${dir}/team_ce.tsv`;
      const r = await runCli([
        "score",
        "--model",
        MODEL,
        "--dataset",
        "qqa23",
        "--split",
        "dev",
        "--rerank-depth",
        "20",
        "--backend",
        "cpu",
        "--no-cache",
        "--out",
        out,
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /25 questions ranked \(BM25's passages re-ranked\)/);
      const run = parseQqa23Run(await Deno.readTextFile(out), out);
      // BM25's first 20 passages of each question: what the model may choose from.
      const data = await loadQqa23Split("dev");
      const first20 = new Map(
        retrieve(data.collection, data.questions, { depth: 20 }).map((x) => [
          x.questionId,
          x.passages.map((p) => p.id),
        ]),
      );
      assert.equal(run.questions.size, data.questions.length);
      let reordered = 0;
      for (const [q, lines] of run.questions) {
        assert.ok(lines.length <= 10, q);
        for (let i = 1; i < lines.length; i++) assert.ok(lines[i - 1].score >= lines[i].score, q);
        const pool = first20.get(q)!;
        if (pool.length === 0) {
          // BM25 matched nothing: -1 alone, as BM25's own run answers.
          assert.deepEqual(lines.map((l) => l.docid), ["-1"], q);
          continue;
        }
        for (const l of lines) assert.ok(pool.includes(l.docid), `${q}: ${l.docid}`);
        if (lines.map((l) => l.docid).join() !== pool.slice(0, 10).join()) reordered++;
      }
      assert.ok(reordered > 0, "the model changes some order");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test("score --dataset qqa23: the learned ranker, a JSON --out and --rerank-depth with a lexical model are refused", async () => {
  const ltr = await runCli([
    "score",
    "--model",
    "ltr",
    "--dataset",
    "qqa23",
    "--split",
    "dev",
    "--out",
    "/tmp/x.tsv",
  ]);
  assert.equal(ltr.code, 2);
  assert.match(ltr.stderr, /the learned ranker is trained on answer-selection candidates/);
  const json = await runCli([
    "score",
    "--model",
    "lexical:bm25",
    "--dataset",
    "qqa23",
    "--split",
    "dev",
    "--out",
    `${await Deno.makeTempDir()}/run.json`,
  ]);
  assert.equal(json.code, 2);
  assert.match(json.stderr, /plain TREC text file/);
  const dir = await Deno.makeTempDir();
  const depth = await runCli([
    "score",
    "--model",
    "lexical:bm25",
    "--dataset",
    "qqa23",
    "--split",
    "dev",
    "--rerank-depth",
    "5",
    "--out",
    `${dir}/team_bm.tsv`,
  ]);
  assert.equal(depth.code, 2);
  assert.match(depth.stderr, /--rerank-depth is for a cross-encoder/);
  await assert.rejects(() => Deno.stat(`${dir}/team_bm.tsv`), Deno.errors.NotFound);
});
