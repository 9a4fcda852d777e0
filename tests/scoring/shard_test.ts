/**
 * `score --shard I/N` and `--shards N` with the index from a Slurm job array or a Kubernetes
 * Indexed Job: which question goes where, what is refused, and N local processes whose runs,
 * concatenated or given together, evaluate exactly as the unsharded run (the kit's trec_eval
 * output, and trec_eval 9.0.8's where it is built).
 */
import assert from "node:assert/strict";
import { fnv1a32, resolveShard, shardOf } from "../../lib/scoring/shard.ts";
import { loadSplit } from "../../lib/data/mod.ts";
import { qrelsFromQuestions, writeQrels } from "../../lib/metrics/mod.ts";
import { PROJECT_ROOT } from "../../lib/data/paths.ts";
import { runCli, runTrecEval, trecEvalBinary } from "../helpers.ts";

const MODEL = `${PROJECT_ROOT}/tests/fixtures/tiny-model/cross-encoder`;

Deno.test("shards: FNV-1a 32 of the UTF-8 bytes, modulo N", () => {
  // computed independently (Python: h ^= b; h = h * 16777619 mod 2**32 over s.encode())
  assert.equal(fnv1a32("Q12"), 0x1413de5f);
  assert.equal(fnv1a32("سؤال"), 0x23a6aa10);
  assert.equal(fnv1a32("D301-2"), 0xf06c1838);
  assert.deepEqual(["Q12", "سؤال", "D301-2", "Q0"].map((id) => shardOf(id, 3)), [2, 0, 2, 1]);
  // a question's shard is its own: the same whatever else is scored
  const ids = Array.from({ length: 500 }, (_, i) => `Q${i}`);
  const counts = [0, 0, 0, 0];
  for (const id of ids) counts[shardOf(id, 4)]++;
  assert.equal(counts.reduce((a, b) => a + b), 500);
  assert.ok(Math.min(...counts) > 80, `${counts}`); // no shard left nearly empty
});

const SLURM_1_BASED = {
  SLURM_ARRAY_TASK_MIN: "1",
  SLURM_ARRAY_TASK_MAX: "3",
  SLURM_ARRAY_TASK_COUNT: "3",
};
const SLURM_0_BASED = {
  SLURM_ARRAY_TASK_MIN: "0",
  SLURM_ARRAY_TASK_MAX: "2",
  SLURM_ARRAY_TASK_COUNT: "3",
};

Deno.test("shards: the index from --shard, a Slurm array (from 0 or 1) or an Indexed Job", () => {
  const at = (shard?: string, shards?: string, env: Record<string, string> = {}) =>
    resolveShard({ shard, shards, env })?.index;
  assert.equal(at(undefined, undefined, { SLURM_ARRAY_TASK_ID: "2", ...SLURM_0_BASED }), undefined);
  assert.equal(at("0/3"), 0);
  assert.equal(at("2/3", "3"), 2);
  for (const id of [0, 1, 2]) {
    assert.equal(at(undefined, "3", { SLURM_ARRAY_TASK_ID: String(id), ...SLURM_0_BASED }), id);
    assert.equal(at(undefined, "3", { SLURM_ARRAY_TASK_ID: String(id + 1), ...SLURM_1_BASED }), id);
    assert.equal(at(undefined, "3", { JOB_COMPLETION_INDEX: String(id) }), id);
  }
  // --shard wins over the scheduler's variables
  assert.equal(at("1/3", undefined, { JOB_COMPLETION_INDEX: "2" }), 1);
  // empty variables count as unset
  assert.equal(at(undefined, "3", { JOB_COMPLETION_INDEX: "1", SLURM_ARRAY_TASK_ID: "" }), 1);
});

Deno.test("shards: what leaves the index in doubt is refused, saying why", () => {
  const refuse = (re: RegExp, shard?: string, shards?: string, env: Record<string, string> = {}) =>
    assert.throws(() => resolveShard({ shard, shards, env }), re);
  refuse(/numbered from 0, so I must be below 3/, "3/3");
  refuse(/--shard takes I\/N/, "-1/3");
  refuse(/--shard takes I\/N/, "1");
  refuse(/N of --shard I\/N must be a positive integer, not '0'/, "0/0");
  refuse(/disagree on N/, "1/3", "4");
  refuse(/--shards must be a positive integer/, undefined, "three");
  refuse(/needs the shard's index/, undefined, "3");
  refuse(/JOB_COMPLETION_INDEX=3 is not a shard of --shards 3/, undefined, "3", {
    JOB_COMPLETION_INDEX: "3",
  });
  for (const bad of ["abc", "1.0", " 1", "01", "-1"]) {
    refuse(new RegExp(`JOB_COMPLETION_INDEX='${bad}' is not an index`), undefined, "3", {
      JOB_COMPLETION_INDEX: bad,
    });
  }
  refuse(
    /SLURM_ARRAY_TASK_MIN=3 is above SLURM_ARRAY_TASK_MAX=1: not a Slurm array/,
    undefined,
    "3",
    {
      SLURM_ARRAY_TASK_ID: "2",
      SLURM_ARRAY_TASK_MIN: "3",
      SLURM_ARRAY_TASK_MAX: "1",
    },
  );
  refuse(/ambiguous; give --shard I\/N/, undefined, "3", {
    JOB_COMPLETION_INDEX: "0",
    SLURM_ARRAY_TASK_ID: "1",
    ...SLURM_1_BASED,
  });
  refuse(/whether the array counts from 0 or from 1 is unknown/, undefined, "3", {
    SLURM_ARRAY_TASK_ID: "1",
  });
  refuse(/has 4 tasks \(0-3\) but --shards is 3/, undefined, "3", {
    SLURM_ARRAY_TASK_ID: "1",
    SLURM_ARRAY_TASK_MIN: "0",
    SLURM_ARRAY_TASK_MAX: "3",
  });
  // --array=0,2,5 and --array=0-4:2 have three tasks but gaps between their ids
  refuse(/not consecutive/, undefined, "3", {
    SLURM_ARRAY_TASK_ID: "2",
    SLURM_ARRAY_TASK_MIN: "0",
    SLURM_ARRAY_TASK_MAX: "5",
    SLURM_ARRAY_TASK_COUNT: "3",
  });
  refuse(/not consecutive/, undefined, "3", {
    SLURM_ARRAY_TASK_ID: "2",
    SLURM_ARRAY_TASK_MIN: "0",
    SLURM_ARRAY_TASK_MAX: "4",
    SLURM_ARRAY_TASK_COUNT: "3",
    SLURM_ARRAY_TASK_STEP: "2",
  });
});

/** The environment of a child: the scheduler's variables only as given. */
const SCHEDULER = ["JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN"];
const clean = (env: Record<string, string>) => ({
  ...Object.fromEntries(SCHEDULER.map((k) => [k, ""])),
  SLURM_ARRAY_TASK_MAX: "",
  SLURM_ARRAY_TASK_COUNT: "",
  ...env,
});

Deno.test("shards: 3 processes of a Slurm array and of an Indexed Job evaluate exactly as the unsharded run", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const score = (out: string, env: Record<string, string>, extra: string[] = []) =>
      runCli([
        "score",
        "--model",
        MODEL,
        "--dataset",
        "wikiqa",
        "--split",
        "test",
        "--filter",
        "raw",
        "--dir",
        "samples",
        "--no-cache",
        "--out",
        out,
        ...extra,
      ], { env: clean(env), cwd: dir });
    const results = await Promise.all([
      score("all.run", {}),
      // #SBATCH --array=1-3
      ...[1, 2, 3].map((id) =>
        score("slurm.{shard}.run", { SLURM_ARRAY_TASK_ID: String(id), ...SLURM_1_BASED }, [
          "--shards",
          "3",
        ])
      ),
      // completions: 3, completionMode: Indexed
      ...[0, 1, 2].map((i) =>
        score("k8s.{shard}.run", { JOB_COMPLETION_INDEX: String(i) }, ["--shards", "3"])
      ),
    ]);
    for (const r of results) assert.equal(r.code, 0, r.stderr);
    assert.match(results[1].stderr, /shard 0 of 3 \(SLURM_ARRAY_TASK_ID=1 of the array 1-3\)/);
    assert.match(results[4].stderr, /shard 0 of 3 \(JOB_COMPLETION_INDEX=0\)/);
    const read = (f: string) => Deno.readTextFile(`${dir}/${f}`);
    const lines = (text: string) => text.split("\n").filter(Boolean).sort();
    const all = await read("all.run");
    const shards = await Promise.all([0, 1, 2].map((i) => read(`slurm.${i}.run`)));
    // both schedulers give each shard the same questions and the same scores
    for (const i of [0, 1, 2]) assert.equal(await read(`k8s.${i}.run`), shards[i]);
    // every question in exactly one shard, each shard non-empty on this split
    const qids = (text: string) => new Set(lines(text).map((l) => l.split(" ")[0]));
    assert.ok(shards.every((s) => qids(s).size > 0));
    assert.equal(shards.reduce((n, s) => n + qids(s).size, 0), qids(all).size);
    assert.deepEqual(lines(shards.join("")), lines(all));
    await Deno.writeTextFile(`${dir}/cat.run`, shards.join(""));
    // the evaluation: concatenated, and given together to eval as2
    const { questions } = await loadSplit("wikiqa", "test", { filter: "raw", dir: "samples" });
    await writeQrels(`${dir}/test.qrels`, qrelsFromQuestions(questions));
    const trec = (run: string) =>
      runCli(["eval", "trec", "-q", "-c", "test.qrels", run], { cwd: dir });
    const [whole, joined] = await Promise.all([trec("all.run"), trec("cat.run")]);
    assert.equal(whole.code, 0, whole.stderr);
    assert.equal(joined.stdout, whole.stdout);
    const as2 = (runs: string[]) =>
      runCli([
        "eval",
        "as2",
        "--dataset",
        "wikiqa",
        "--split",
        "test",
        "--filter",
        "raw",
        "--dir",
        "samples",
        "-q",
        ...runs,
      ], { cwd: dir });
    const [as2Whole, as2Shards] = await Promise.all([
      as2(["all.run"]),
      as2(["slurm.0.run", "slurm.1.run", "slurm.2.run"]),
    ]);
    assert.equal(as2Whole.code, 0, as2Whole.stderr);
    assert.equal(as2Shards.stdout, as2Whole.stdout);
    // a shard given twice is not a run
    const twice = await as2(["slurm.0.run", "slurm.0.run"]);
    assert.notEqual(twice.code, 0);
    // (its record says so before the runs are read; without records, mergeShardRuns would)
    assert.match(twice.stderr, /slurm\.0\.run: shard 0 is given twice \(also slurm\.0\.run\)/);
    if (trecEvalBinary()) {
      const args = (run: string) => ["-q", "-c", `${dir}/test.qrels`, `${dir}/${run}`];
      assert.equal(await runTrecEval(args("cat.run")), await runTrecEval(args("all.run")));
    } else console.log("trec_eval 9.0.8 is not built: compared with the kit's eval alone");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("shards: --out needs {shard}, and {shard} needs a shard; QRCD is not sharded", async () => {
  const base = [
    "score",
    "--model",
    MODEL,
    "--dataset",
    "wikiqa",
    "--split",
    "test",
    "--dir",
    "samples",
  ];
  const noPlaceholder = await runCli([...base, "--shard", "0/2", "--out", "x.run"], {
    env: clean({}),
  });
  assert.notEqual(noPlaceholder.code, 0);
  assert.match(noPlaceholder.stderr, /--out needs \{shard\} in its name .*not 'x\.run'/);
  const noShard = await runCli([...base, "--out", "x.{shard}.run"], { env: clean({}) });
  assert.match(noShard.stderr, /has \{shard\}, but no --shard or --shards is given/);
  const qrcd = await runCli([
    "score",
    "--model",
    `${PROJECT_ROOT}/tests/fixtures/tiny-model/qa`,
    "--dataset",
    "qrcd",
    "--split",
    "dev",
    "--dir",
    "samples",
    "--shard",
    "0/2",
    "--out",
    `${await Deno.makeTempDir()}/r.{shard}.json`,
  ], { env: clean({}) });
  assert.match(qrcd.stderr, /score QRCD unsharded/);
});

Deno.test("shards: a shard that holds no question writes the empty run, says so and exits 0", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { questions } = await loadSplit("wikiqa", "test", { filter: "raw", dir: "samples" });
    const n = questions.length * 4;
    const taken = new Set(questions.map((q) => shardOf(q.id, n)));
    const empty = [...Array(n).keys()].find((i) => !taken.has(i))!;
    const r = await runCli([
      "score",
      "--model",
      "lexical:wordcnt",
      "--dataset",
      "wikiqa",
      "--split",
      "test",
      "--filter",
      "raw",
      "--dir",
      "samples",
      "--shard",
      `${empty}/${n}`,
      "--out",
      "e.{shard}.run",
    ], { env: clean({}), cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await Deno.readTextFile(`${dir}/e.${empty}.run`), "");
    assert.match(
      r.stderr,
      new RegExp(`shard ${empty} of ${n} holds none of the split's ${questions.length} questions`),
    );
    assert.doesNotMatch(r.stderr, /MAP|no query has both/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
