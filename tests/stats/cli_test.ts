import assert from "node:assert/strict";
import { runCli } from "../helpers.ts";

const SAMPLES = new URL("../../data/samples/runs/", import.meta.url).pathname;

Deno.test("eval ties on the sample run: hand-worked MAP range", async () => {
  const r = await runCli([
    "eval",
    "ties",
    `${SAMPLES}wikiqa-test-clean.qrels`,
    `${SAMPLES}wikiqa-test.run`,
    "-q",
  ]);
  assert.equal(r.code, 0, r.stderr);
  // Queries in both files: Q300 (AP 1), Q301 (AP (1/2 + 2/3)/2), Q302 (AP 1/3) and Q305, whose
  // relevant D305-0 ties with D305-2 at 0.6: trec_eval ranks D305-2 first (AP 1/2), best 1.
  const trec = (1 + 7 / 12 + 1 / 3 + 0.5) / 4;
  const max = (1 + 7 / 12 + 1 / 3 + 1) / 4;
  const expected = (1 + 7 / 12 + 1 / 3 + 0.75) / 4;
  const line = r.stdout.split("\n").find((l) => l.startsWith("MAP "))!;
  assert.deepEqual(
    line.trim().split(/\s+/).slice(1).map(Number),
    [trec, trec, max, expected].map((x) => Number(x.toFixed(4))),
  );
  assert.match(r.stdout, /^Q305\s+0\.5000 0\.5000 1\.0000 0\.7500/m);
  assert.doesNotMatch(r.stdout, /^Q300 /m); // Q300's tie is between two non-relevant candidates
});

Deno.test("eval compare: exact randomization p-values in Markdown and CSV", async () => {
  const dir = await Deno.makeTempDir();
  // 6 queries, one relevant doc each. Run A puts it first everywhere; run B ranks it second in
  // every query: RR differences are all 0.5 -> exact two-sided p = 2 / 64.
  const qrels = [], a = [], b = [];
  for (let q = 1; q <= 6; q++) {
    qrels.push(`q${q} 0 rel 1`, `q${q} 0 non 0`);
    a.push(`q${q} Q0 rel 1 2 A`, `q${q} Q0 non 2 1 A`);
    b.push(`q${q} Q0 non 1 2 B`, `q${q} Q0 rel 2 1 B`);
  }
  await Deno.writeTextFile(`${dir}/q.qrels`, qrels.join("\n") + "\n");
  await Deno.writeTextFile(`${dir}/a.run`, a.join("\n") + "\n");
  await Deno.writeTextFile(`${dir}/b.run`, b.join("\n") + "\n");
  const md = await runCli([
    "eval",
    "compare",
    "--qrels",
    `${dir}/q.qrels`,
    `${dir}/a.run`,
    `${dir}/b.run`,
  ]);
  assert.equal(md.code, 0, md.stderr);
  assert.match(
    md.stdout,
    /\| a \| a \| \*\*1\.0000\*\*<sup>b<\/sup> \| \*\*1\.0000\*\*<sup>b<\/sup> \|/,
  );
  assert.match(md.stdout, /\| MRR \| a \| b \| 0\.5000 \| 0\.0312 \| 0\.0312 \| yes \|/);
  assert.match(md.stdout, /^\| \| system \| MAP \| MRR \|$/m);
  assert.match(md.stdout, /Measures in trec_eval's names: MAP = map, MRR = recip_rank\./);
  const csv = await runCli([
    "eval",
    "compare",
    "--qrels",
    `${dir}/q.qrels`,
    `${dir}/a.run`,
    `${dir}/b.run`,
    "--format",
    "csv",
    "--name",
    "first",
    "--name",
    "second",
    "-m",
    "recip_rank",
  ]);
  assert.equal(csv.code, 0, csv.stderr);
  const rows = csv.stdout.trim().split("\n").map((l) => l.split(","));
  assert.deepEqual(rows[1].slice(0, 4), ["recip_rank", "a", "first", "1"]);
  assert.equal(Number(rows[1][8]), 2 / 64);
  // --bootstrap: an interval for each difference too (paired: every RR difference is 0.5).
  const json = await runCli([
    "eval",
    "compare",
    "--qrels",
    `${dir}/q.qrels`,
    `${dir}/a.run`,
    `${dir}/b.run`,
    "--format",
    "json",
    "--bootstrap",
    "500",
  ]);
  assert.equal(json.code, 0, json.stderr);
  const pair = JSON.parse(json.stdout).pairs.find((p: { measure: string }) =>
    p.measure === "recip_rank"
  );
  assert.deepEqual([pair.meanDifference, pair.ci.lower, pair.ci.upper], [0.5, 0.5, 0.5]);
  const tex = await runCli([
    "eval",
    "compare",
    "--qrels",
    `${dir}/q.qrels`,
    `${dir}/a.run`,
    `${dir}/b.run`,
    "--format",
    "latex",
    "--test",
    "ttest",
  ]);
  assert.equal(tex.code, 0, tex.stderr);
  assert.match(tex.stdout, /\\begin\{tabular\}/);
  const stab = await runCli([
    "eval",
    "stability",
    "--qrels",
    `${dir}/q.qrels`,
    `${dir}/a.run`,
    `${dir}/b.run`,
    "-m",
    "recip_rank",
    "--json",
  ]);
  const s = JSON.parse(stab.stdout).measures[0];
  assert.equal(s.measure, "recip_rank");
  assert.deepEqual(s.perRun, [1, 0.5]);
  assert.ok(Math.abs(s.sd - Math.sqrt(0.125)) < 1e-12);
  assert.equal(s.unstable, true);
  const one = await runCli(["eval", "compare", "--qrels", `${dir}/q.qrels`, `${dir}/a.run`]);
  assert.equal(one.code, 2);
  assert.match(one.stderr, /expected at least 2 arguments \(RUN RUN \[RUN\.\.\.\]\), got 1/);
  const badTest = await runCli([
    "eval",
    "compare",
    "--qrels",
    `${dir}/q.qrels`,
    `${dir}/a.run`,
    `${dir}/b.run`,
    "--test",
    "wilcoxon",
  ]);
  assert.equal(badTest.code, 2);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("eval compare: --seed, --trials and --bootstrap take integers, as score's flags do", async () => {
  const run = `${SAMPLES}wikiqa-test.run`;
  const runs = [run, run, "--name", "a", "--name", "b"];
  const qrels = ["--qrels", `${SAMPLES}wikiqa-test-clean.qrels`];
  for (
    const [flag, value, message] of [
      ["--seed", "abc", "--seed takes a non-negative integer, got 'abc'"],
      ["--seed", "1.5", "--seed takes a non-negative integer, got '1.5'"],
      ["--seed=-3", undefined, "--seed takes a non-negative integer, got '-3'"],
      ["--trials", "0", "--trials takes a positive integer, got '0'"],
      ["--bootstrap", "1e3", "--bootstrap takes a positive integer, got '1e3'"],
    ] as const
  ) {
    const r = await runCli(["eval", "compare", ...qrels, ...runs, flag, ...(value ? [value] : [])]);
    assert.notEqual(r.code, 0, `${flag} ${value}: ${r.stdout}`);
    assert.match(r.stderr, new RegExp(message.replace(/[.]/g, "\\.")), r.stderr);
    assert.equal(r.stdout, "");
  }
  const ok = await runCli(["eval", "compare", ...qrels, ...runs, "--seed", "0", "--format", "csv"]);
  assert.equal(ok.code, 0, ok.stderr);
});
