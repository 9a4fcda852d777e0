/** The command line as users run it: output format, exit codes, error messages. */
import { assert, assertEquals } from "../assert.ts";
import { runCli } from "../helpers.ts";

const SAMPLE_QRELS = "data/samples/runs/wikiqa-test-clean.qrels";
const SAMPLE_RUN = "data/samples/runs/wikiqa-test.run";

Deno.test("eval trec prints trec_eval's format; run-only queries warned on stderr", async () => {
  const r = await runCli([
    "eval",
    "trec",
    "-m",
    "map",
    "-m",
    "recip_rank",
    "-m",
    "num_q",
    SAMPLE_QRELS,
    SAMPLE_RUN,
  ]);
  assertEquals(r.code, 0);
  // Hand-worked: AP per query 1, 7/12, 1/3, 1/2 (Q305's tie puts D305-2 before D305-0).
  assertEquals(
    r.stdout,
    "num_q                 \tall\t4\nmap                   \tall\t0.6042\nrecip_rank            \tall\t0.5833\n",
  );
  assert(
    r.stderr.includes("2 run queries have no relevance judgments and are ignored: Q303, Q304"),
  );
});

Deno.test("eval trec -q -c adds per-query lines and averages over every qrels query", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/qrels`, "a 0 x 1\nb 0 y 1\n");
  await Deno.writeTextFile(`${dir}/run`, "a Q0 x 1 2.0 sys\n");
  const r = await runCli(["eval", "trec", "-q", "-c", "-m", "map", `${dir}/qrels`, `${dir}/run`]);
  assertEquals(
    r.stdout,
    "map                   \ta\t1.0000\nmap                   \tall\t0.5000\n",
  );
});

Deno.test("bad input: exit status 2 and one line naming file and line", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/run`, "a Q0 x 1 high sys\n");
  await Deno.writeTextFile(`${dir}/qrels`, "a 0 x 1\n");
  const r = await runCli(["eval", "trec", `${dir}/qrels`, `${dir}/run`]);
  assertEquals(r.code, 2);
  assertEquals(
    r.stderr.trim(),
    `error: ${dir}/run:1: score 'high' is not a decimal number: trec_eval would read it as 0 ` +
      "(expected: qid Q0 docno rank score runid)",
  );
  const missing = await runCli(["eval", "trec", `${dir}/nope`, `${dir}/run`]);
  assertEquals(missing.code, 2);
  assert(missing.stderr.includes("nope: file not found"));
  const flag = await runCli(["eval", "trec", "--frobnicate", `${dir}/qrels`, `${dir}/run`]);
  assertEquals(flag.code, 2);
  assert(flag.stderr.includes("--frobnicate"));
});

Deno.test("data stats --json has the documented keys per split; data qrels refuses to overwrite", async () => {
  const r = await runCli(["data", "stats", "wikiqa", "--dir", "samples", "--json"]);
  assertEquals(r.code, 0);
  const stats = JSON.parse(r.stdout);
  assertEquals(Object.keys(stats), ["train", "dev", "test"]);
  for (const k of ["questions", "candidates", "positives", "allPositive", "allNegative"]) {
    assert(k in stats.test, k);
  }
  const one = JSON.parse(
    (await runCli([
      "data",
      "stats",
      "wikiqa",
      "--dir",
      "samples",
      "--split",
      "dev",
      "--json",
      "--filter",
      "clean",
    ])).stdout,
  );
  assertEquals(one.allNegative + one.allPositive, 0);
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/q.txt`, "mine\n");
  const w = await runCli([
    "data",
    "qrels",
    "wikiqa",
    "--split",
    "dev",
    "--dir",
    "samples",
    "--out",
    `${dir}/q.txt`,
  ]);
  assertEquals(w.code, 2);
  assert(w.stderr.includes("refusing to overwrite"));
  assertEquals(await Deno.readTextFile(`${dir}/q.txt`), "mine\n");
  const f = await runCli([
    "data",
    "qrels",
    "wikiqa",
    "--split",
    "dev",
    "--dir",
    "samples",
    "--out",
    `${dir}/q.txt`,
    "--force",
  ]);
  assertEquals(f.code, 0);
  assert((await Deno.readTextFile(`${dir}/q.txt`)).startsWith("Q200 0 D200-0 1\n"));
});

Deno.test("eval as2 puts MAP and MRR first and counts missing questions as 0", async () => {
  const r = await runCli([
    "eval",
    "as2",
    "--dataset",
    "wikiqa",
    "--split",
    "test",
    "--dir",
    "samples",
    "--json",
    SAMPLE_RUN,
  ]);
  assertEquals(r.code, 0);
  const out = JSON.parse(r.stdout);
  assertEquals(Object.keys(out).slice(0, 6), [
    "dataset",
    "split",
    "filter",
    "numQ",
    "map",
    "recip_rank",
  ]);
  assertEquals(out.numQ, 4);
  assertEquals(Math.round(out.map * 1e4), 6042);
});

Deno.test("eval trec --threads takes 1 or 2 (two read large files in halves), and nothing else", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/q`, "q1 0 d1 1\n");
  await Deno.writeTextFile(`${dir}/r`, "q1 Q0 d1 1 1.5 run\n");
  for (const bad of ["0", "3", "x"]) {
    const r = await runCli(["eval", "trec", "--threads", bad, `${dir}/q`, `${dir}/r`]);
    assertEquals(r.code, 2);
    assertEquals(r.stderr, `error: unknown --threads value '${bad}' (expected one of: 1, 2)\n`);
  }
  for (const ok of ["1", "2"]) {
    const r = await runCli(["eval", "trec", "-m", "map", "--threads", ok, `${dir}/q`, `${dir}/r`]);
    assertEquals(r.stdout, "map                   \tall\t1.0000\n");
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("standard input named twice is refused clearly by every command that reads several files (fuse, eval compare, eval stability), as eval trec refuses it", async () => {
  const run = "q1 Q0 d1 1 1.5 r\nq1 Q0 d2 2 0.5 r\n";
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/a.run`, run);
  await Deno.writeTextFile(`${dir}/q`, "q1 0 d1 1\n");
  const cases: [string[], RegExp][] = [
    [["fuse", "-", "-", "--out", "-"], /^error: run 1 and run 2 cannot both be standard input/],
    [["fuse", "-", "a.run", "-", "--out", "f.run"], /^error: run 1 and run 3 cannot both/],
    [["eval", "compare", "--qrels", "-", "-", "a.run"], /^error: --qrels and run 1 cannot both/],
    [["eval", "compare", "--qrels", "q", "-", "-"], /^error: run 1 and run 2 cannot both/],
    [["eval", "stability", "--qrels", "q", "-", "-"], /^error: run 1 and run 2 cannot both/],
    [["eval", "trec", "-", "-"], /^error: the qrels and the run cannot both be standard input/],
  ];
  for (const [args, want] of cases) {
    const r = await runCli(args, { stdin: run, cwd: dir });
    assertEquals(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert(want.test(r.stderr), `${args.join(" ")}: ${r.stderr}`);
    assert(/it can be read once|give one of them as a file/.test(r.stderr), r.stderr);
    assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
  }
  assertEquals([...Deno.readDirSync(dir)].map((e) => e.name).sort(), ["a.run", "q"]);
  await Deno.remove(dir, { recursive: true });
});
