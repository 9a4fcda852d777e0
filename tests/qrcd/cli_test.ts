import assert from "node:assert/strict";
import { qrcdBaselineCommand, qrcdCheckCommand, qrcdEvalCommand } from "../../lib/qrcd/cli.ts";
import { KitError } from "../../lib/errors.ts";
import type { Command } from "../../lib/cli/command.ts";
import { realDataTest, runCli } from "../helpers.ts";

/** Runs a command with console.log / console.error captured. */
async function run(cmd: Command, args: string[]) {
  const out: string[] = [], err: string[] = [];
  const [log, error] = [console.log, console.error];
  console.log = (...a: unknown[]) => out.push(a.join(" "));
  console.error = (...a: unknown[]) => err.push(a.join(" "));
  try {
    const status = (await cmd.run(args)) ?? 0;
    return { status, out: out.join("\n"), err: err.join("\n") };
  } finally {
    [console.log, console.error] = [log, error];
  }
}

const SAMPLE_DEV_GOLD = new URL("../../data/samples/qrcd/qrcd_v1.1_dev.jsonl", import.meta.url)
  .pathname;

Deno.test("eval qrcd prints one JSON object; warnings go to stderr", async () => {
  const dir = await Deno.makeTempDir();
  // Two of the 7 sample dev records answered: one exact at rank 1, one at rank 2.
  const runFile = `${dir}/RUN.json`;
  await Deno.writeTextFile(
    runFile,
    JSON.stringify({
      "108:1-3_912": [{ answer: "فصل لربك وانحر", rank: 1, score: 2 }],
      "112:1-4_916": [
        { answer: "الله الصمد", rank: 1, score: 2 },
        { answer: "لم يلد ولم يولد", rank: 2, score: 1 },
      ],
    }),
  );
  const r = await run(qrcdEvalCommand, [SAMPLE_DEV_GOLD, runFile]);
  assert.equal(r.status, 0);
  const summary = JSON.parse(r.out);
  assert.deepEqual(Object.keys(summary), [
    "pRR",
    "exact_match",
    "f1@1",
    "records",
    "missing",
    "segmenter",
  ]);
  assert.equal(summary.pRR, (1 + 0.5) / 7);
  assert.equal(summary.exact_match, 1 / 7);
  assert.equal(summary["f1@1"], 1 / 7);
  assert.deepEqual([summary.records, summary.missing, summary.segmenter], [7, 5, "none"]);
  // The file name and the 5 unanswered records are warnings, the records one line.
  assert.match(r.err, /RUN\.json: warning: file name "RUN.json"/);
  const missing = r.err.split("\n").filter((l) => l.includes("no predictions"));
  assert.equal(missing.length, 1, r.err);
  assert.match(
    missing[0],
    /RUN\.json: warning: 5 of 7 gold pq_ids have no predictions and score 0: /,
  );

  const per = JSON.parse(
    (await run(qrcdEvalCommand, [SAMPLE_DEV_GOLD, runFile, "--per-record"])).out,
  );
  const rec = per.per_record.find((x: { pqId: string }) => x.pqId === "112:1-4_916");
  assert.equal(rec.matchedRank, 2);
  assert.equal(rec.pRR, 0.5);
  assert.equal(rec.predictions[1].f1, 1);
});

Deno.test("eval qrcd refuses a run with checker errors (exit 1, errors on stderr)", async () => {
  const runFile = `${await Deno.makeTempDir()}/team_bad.json`;
  await Deno.writeTextFile(runFile, '{"108:1-3_912": [],\n"108:1-3_912": []}');
  const r = await run(qrcdEvalCommand, [SAMPLE_DEV_GOLD, runFile]);
  assert.equal(r.status, 1);
  assert.equal(r.out, "");
  assert.match(r.err, /team_bad\.json:2: error: 108:1-3_912: duplicate pq_id/);
  assert.match(r.err, /empty answer list/);
  await assert.rejects(run(qrcdEvalCommand, [SAMPLE_DEV_GOLD]), KitError);
  await assert.rejects(
    run(qrcdEvalCommand, [SAMPLE_DEV_GOLD, runFile, "--segmenter", "farasa"]),
    /unknown segmenter 'farasa'/,
  );
});

Deno.test("baseline on the samples: a run every check accepts, scored by eval", async () => {
  const dir = await Deno.makeTempDir();
  const out = `${dir}/kit_base.json`;
  const b = await run(qrcdBaselineCommand, ["--split", "dev", "--dir", "samples", "--out", out]);
  assert.equal(b.status, 0);
  const check = await run(qrcdCheckCommand, [out, "--gold", "dev", "--dir", "samples"]);
  assert.equal(check.status, 0, check.err);
  assert.deepEqual(JSON.parse(check.out), { file: out, pq_ids: 7, errors: 0, warnings: 0 });
  const e = await run(qrcdEvalCommand, ["dev", out, "--dir", "samples", "--segmenter", "light"]);
  assert.equal(e.status, 0, e.err);
  assert.equal(JSON.parse(e.out).segmenter, "light");
  await assert.rejects(
    run(qrcdBaselineCommand, ["--split", "dev", "--dir", "samples", "--out", out]),
    /--force/,
  );
  // qrcd-check applies the file-name rule as an error.
  const renamed = `${dir}/baseline.json`;
  await Deno.copyFile(out, renamed);
  assert.equal((await run(qrcdCheckCommand, [renamed])).status, 1);
});

Deno.test("through main.ts: eval qrcd, qrcd-check, qrcd-baseline and data stats qrcd", async () => {
  const out = `${await Deno.makeTempDir()}/kit_base.json`;
  const b = await runCli([
    "eval",
    "qrcd-baseline",
    "--split",
    "dev",
    "--dir",
    "samples",
    "--out",
    out,
  ]);
  assert.equal(b.code, 0, b.stderr);
  const e = await runCli(["eval", "qrcd", "dev", out, "--dir", "samples", "--per-record"]);
  assert.equal(e.code, 0, e.stderr);
  const result = JSON.parse(e.stdout);
  assert.equal(result.records, 7);
  assert.equal(result.per_record.length, 7);
  const test = await runCli(["eval", "qrcd", "test", out, "--dir", "samples"]);
  assert.equal(test.code, 2);
  assert.match(test.stderr, /qrcd_v1\.1_test_noAnswers\.jsonl:1: record .* has no gold answers/);
  const stats = await runCli(["data", "stats", "qrcd", "--dir", "samples", "--json"]);
  assert.equal(stats.code, 0, stats.stderr);
  assert.deepEqual(JSON.parse(stats.stdout).dev, {
    records: 7,
    questions: 6,
    passages: 7,
    answers: 12,
  });
});

realDataTest(
  "real dev split: the offline baseline's scores equal the official scorer's",
  "qrcd",
  async (real) => {
    const out = `${await Deno.makeTempDir()}/kit_base.json`;
    await run(qrcdBaselineCommand, ["--split", "dev", "--dir", real, "--out", out]);
    const check = await run(qrcdCheckCommand, [out, "--gold", "dev", "--dir", real]);
    assert.deepEqual(JSON.parse(check.out).errors, 0);
    const r = await run(qrcdEvalCommand, ["dev", out, "--dir", real]);
    // Reference values: the official quranqa22_eval.py logic (identity segmenter) run with
    // CPython 3.11 on this baseline's run file; the kit must agree to the last bit.
    assert.deepEqual(JSON.parse(r.out), {
      pRR: 0.24594176263384104,
      exact_match: 0,
      "f1@1": 0.20980304079459966,
      records: 109,
      missing: 0,
      segmenter: "none",
    });
  },
);
