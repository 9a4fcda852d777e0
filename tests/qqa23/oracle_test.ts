/**
 * The official Qur'an QA 2023 Task A scorer itself as the oracle. `QQA23_TaskA_eval.py` and its
 * checker, unmodified, are copied from `../shared/tools/qqa23/` (or `$QA_KIT_QQA23_TOOLS`) into a
 * temporary folder and run with Python and pandas, with tests/qqa23/oracle/pytrec_eval.py standing
 * in for pytrec_eval (not installable here): it runs trec_eval 9.0.8, which the test builds from
 * the kit's trec_eval source tree into a temporary folder with the per-query values printed in
 * full (`%.17g` for `%6.4f`; nothing else changed), since pytrec_eval hands the doubles themselves
 * to the script.
 *
 * Seeded random runs on the real dev and test qrels (zero-answer questions answered with `-1`
 * alone, `-1` among passages, passages, or left out; questions with answers left out, answered
 * `-1`, `-1` among their passages; questions the qrels lack; ties, 32-bit-float ties, integer
 * scores; tab and space delimiters; lines in any order; question ids with a leading zero): 60 on
 * dev, 60 on test, 20 on train (174 questions: numpy's sum in halves) and 20 on made-up qrels
 * whose ids have 1 to 4 digits (the official order of the values decides the last bit), scored
 * by the script (`--output`, which writes the means as full `repr` floats)
 * and by the kit: the numbers must be equal, not close. Runs the checker refuses must be refused
 * by the kit too (and the runs the kit refuses beyond the checker are misread by the script), an
 * empty run and pandas' empty frames must score as the script scores them, and numpyMean must
 * equal `np.mean` bit for bit.
 *
 * Needs a Python with pandas (`$KIT_PANDAS_PYTHON`, `python3`, `/usr/bin/python3`; Debian:
 * python3-pandas), the trec_eval 9.0.8 source tree (`./kit setup` builds it into
 * .tools/trec_eval-9.0.8/) with gcc and make, the official scripts, and the qrels (the fetched
 * corpus, else `../shared/datasets/qqa23`). Without one of them the tests are skipped with the
 * reason, unless `QA_KIT_REQUIRE_QQA23_ORACLE=1` makes that a failure.
 */
import { isFile } from "../../lib/io/path.ts";
import assert from "node:assert/strict";
import { PROJECT_ROOT } from "../../lib/data/paths.ts";
import { KitError } from "../../lib/errors.ts";
import {
  evaluateQqa23,
  numpyMean,
  type Qqa23Qrels,
  readQqa23Qrels,
  readQqa23Run,
} from "../../lib/qqa23/mod.ts";
import { mulberry32, type Random, randomInt } from "../../lib/stats/random.ts";
import { pandasPython, realDataDir, trecEvalBinary } from "../helpers.ts";

const REQUIRED = Deno.env.get("QA_KIT_REQUIRE_QQA23_ORACLE") === "1";
const SCRIPTS = ["QQA23_TaskA_eval.py", "QQA23_TaskA_submission_checker.py"];
const STAND_IN = new URL("./oracle/", import.meta.url).pathname;

/** The trec_eval 9.0.8 source tree: beside the binary, or the one `./kit setup` built. */
function trecEvalSource(): string | undefined {
  const bin = trecEvalBinary();
  const candidates = [
    bin?.replace(/\/[^/]*$/, ""),
    `${PROJECT_ROOT}/.tools/trec_eval-9.0.8`,
  ];
  return candidates.find((d) => d && isFile(`${d}/meas_print_single.c`) && isFile(`${d}/Makefile`));
}

function hasTool(name: string): boolean {
  try {
    return new Deno.Command(name, { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

/** The folder holding the official scripts. */
function scriptsDir(): string | undefined {
  const dirs = [Deno.env.get("QA_KIT_QQA23_TOOLS"), `${PROJECT_ROOT}/../shared/tools/qqa23`];
  return dirs.find((d) => d && SCRIPTS.every((s) => isFile(`${d}/${s}`)));
}

/** The folder holding the corpus files: the fetched corpus, else the shared mirror. */
function corpusDir(): string | undefined {
  const fetched = realDataDir("qqa23");
  const dirs = [fetched && `${fetched}/qqa23`, `${PROJECT_ROOT}/../shared/datasets/qqa23`];
  return dirs.find((d) => d && isFile(`${d}/QQA23_TaskA_ayatec_v1.2_qrels_dev.gold`));
}

const PYTHON = pandasPython();
const SOURCE = trecEvalSource();
const SCRIPTS_DIR = scriptsDir();
const CORPUS = corpusDir();
const missing = [
  ...(PYTHON ? [] : ["no python3 with pandas (apt-get install python3-pandas)"]),
  ...(SOURCE ? [] : ["no trec_eval 9.0.8 source tree (./kit setup builds .tools/trec_eval-9.0.8)"]),
  ...(hasTool("make") && hasTool("gcc") ? [] : ["no gcc and make to build trec_eval"]),
  ...(SCRIPTS_DIR ? [] : ["no official scripts (../shared/tools/qqa23 or $QA_KIT_QQA23_TOOLS)"]),
  ...(CORPUS ? [] : ["no qqa23 qrels (./kit data fetch qqa23, or ../shared/datasets/qqa23)"]),
];
if (missing.length && REQUIRED) {
  throw new Error(
    `the qqa23 oracle cannot run but QA_KIT_REQUIRE_QQA23_ORACLE=1: ${missing.join("; ")}`,
  );
}
if (missing.length) {
  console.error(`skipping the qqa23 oracle tests: ${missing.join("; ")}`);
}
const IGNORE = missing.length > 0;

/** The temporary folder with the scripts and the full-precision trec_eval, made once. */
let setup: Promise<{ dir: string; trecEval: string }> | undefined;
function prepare(): Promise<{ dir: string; trecEval: string }> {
  return setup ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "qqa23_oracle_" });
    globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
    for (const s of SCRIPTS) await Deno.copyFile(`${SCRIPTS_DIR}/${s}`, `${dir}/${s}`);
    const src = `${dir}/trec_eval-9.0.8`;
    await run("cp", ["-R", SOURCE!, src]);
    for (const f of ["meas_print_single.c", "meas_print_final.c"]) {
      const text = await Deno.readTextFile(`${src}/${f}`);
      assert(text.includes("%6.4f"), `${f}: no %6.4f to replace`);
      await Deno.writeTextFile(`${src}/${f}`, text.replaceAll("%6.4f", "%.17g"));
    }
    await run("make", ["-s", "-B", "-C", src]);
    return { dir, trecEval: `${src}/trec_eval` };
  })();
}

async function run(cmd: string, args: string[], stdin?: string): Promise<string> {
  const child = new Deno.Command(cmd, {
    args,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return text;
}

/**
 * Runs the official script's `main` on each job (imported once, called with the arguments its
 * command line would give): its stdout and the error it raised, if any. One job also goes
 * through the command line itself in the test below.
 */
const DRIVER = `
import argparse, contextlib, io, json, sys, traceback, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, sys.argv[1])
import QQA23_TaskA_eval as official
out = []
for job in json.load(sys.stdin):
    buf = io.StringIO()
    error = None
    with contextlib.redirect_stdout(buf):
        try:
            official.main(argparse.Namespace(**job))
        except Exception:
            error = traceback.format_exc(limit=2)
    out.append({"stdout": buf.getvalue(), "error": error})
print(json.dumps(out))
`;

interface Job {
  run: string;
  qrels: string;
  output: string;
}

async function official(jobs: Job[]): Promise<{ stdout: string; error: string | null }[]> {
  const { dir, trecEval } = await prepare();
  const child = new Deno.Command(PYTHON!, {
    args: ["-c", DRIVER, dir],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { PYTHONPATH: STAND_IN, QQA23_TREC_EVAL: trecEval },
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(JSON.stringify(jobs)));
  await w.close();
  const out = await child.output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** The script's `--output` file: a header and one row of `repr` floats. */
async function outputValues(path: string): Promise<{ map_cut_10: number; recip_rank: number }> {
  const [header, row] = (await Deno.readTextFile(path)).trim().split("\n");
  assert.equal(header, "map_cut_10\trecip_rank");
  const [map, rr] = row.split("\t").map((v) => (v === "" ? NaN : Number(v)));
  return { map_cut_10: map, recip_rank: rr };
}

function sameNumber(actual: number, expected: number, what: string): void {
  if (Number.isNaN(expected)) assert(Number.isNaN(actual), `${what}: expected NaN, got ${actual}`);
  else assert.equal(actual, expected, `${what}: kit ${actual}, official ${expected}`);
}

// ---- Random runs on the real qrels. ----

/** The collection's passage ids. */
async function passageIds(): Promise<string[]> {
  const text = await Deno.readTextFile(`${CORPUS}/QQA23_TaskA_QPC_v1.1.tsv`);
  return text.split("\n").filter((l) => l).map((l) => l.split("\t")[0]);
}

type ScoreStyle = "decimals" | "ties" | "float32" | "integers";

/** One random run's text, written with the given delimiter. */
function randomRun(
  random: Random,
  qrels: Qqa23Qrels,
  passages: readonly string[],
  others: readonly string[],
): { text: string; describe: string } {
  const pick = <T>(xs: readonly T[]): T => xs[randomInt(random, xs.length)];
  const style = pick<ScoreStyle>(["decimals", "ties", "float32", "integers"]);
  const sep = random() < 0.5 ? "\t" : " ";
  const leaveAnswered = pick([0, 0, 0.15, 0.4]);
  const leaveZero = pick([0, 0, 0.25, 0.6]);
  // Now and then every question id with a leading zero: pandas reads the column as integers.
  const pad = random() < 0.15 ? "0" : "";
  const score = (): string => {
    switch (style) {
      case "decimals":
        return (random() * 20 - 5).toFixed(1 + randomInt(random, 6));
      case "ties":
        return pick(["0", "0.5", "1", "1.5", "2"]);
      case "float32":
        return pick(["0.3", "0.30000001", "0.29999999", "0.7", "0.70000001"]);
      case "integers":
        return String(randomInt(random, 5) - 1);
    }
  };
  const lines: string[] = [];
  const write = (qid: string, docs: Iterable<string>) => {
    let rank = 1;
    for (const d of docs) {
      lines.push([pad + qid, "Q0", d, String(rank++), score(), "kit"].join(sep));
    }
  };
  const somePassages = (qid: string, withMinusOne: boolean) => {
    const rel = [...(qrels.judged.get(qid)?.keys() ?? [])];
    const picked = new Set<string>();
    const n = 1 + randomInt(random, 10);
    while (picked.size < n) picked.add(rel.length && random() < 0.5 ? pick(rel) : pick(passages));
    if (withMinusOne) {
      if (picked.size === 10) picked.delete([...picked][0]);
      picked.add("-1");
    }
    return [...picked].sort(() => random() - 0.5);
  };
  for (const qid of qrels.judged.keys()) {
    if (random() < leaveAnswered) continue;
    const mode = random();
    if (mode < 0.1) write(qid, ["-1"]);
    else write(qid, somePassages(qid, mode < 0.25));
  }
  for (const qid of qrels.zeroAnswer) {
    if (random() < leaveZero) continue;
    const mode = random();
    if (mode < 0.45) write(qid, ["-1"]);
    else write(qid, somePassages(qid, mode < 0.7));
  }
  const extra = new Set(Array.from({ length: randomInt(random, 3) }, () => pick(others)));
  for (const qid of extra) write(qid, somePassages("", false));
  // Lines in any order now and then: the scorer groups them by question.
  if (random() < 0.3) lines.sort(() => random() - 0.5);
  if (lines.length === 0) write(pick(others), ["-1"]);
  return {
    text: lines.join("\n") + (random() < 0.8 ? "\n" : ""),
    describe: `${style}, ${sep === "\t" ? "tab" : "space"}, leave ${leaveAnswered}/${leaveZero}` +
      (pad ? ", ids 0-padded" : ""),
  };
}

const RUNS_PER_SPLIT = 60;

/** Qrels of 80 questions with ids of 1 to 4 digits, one in six zero-answer. */
function mixedQrels(random: Random, passages: readonly string[]): string {
  const ids = new Set<string>();
  while (ids.size < 80) {
    ids.add(String(1 + randomInt(random, 10 ** (1 + randomInt(random, 4)) - 1)));
  }
  const lines: string[] = [];
  for (const qid of ids) {
    if (random() < 1 / 6) lines.push(`${qid}\t0\t-1\t1`);
    else {
      const rel = new Set(
        Array.from(
          { length: 1 + randomInt(random, 12) },
          () => passages[randomInt(random, passages.length)],
        ),
      );
      for (const d of rel) lines.push(`${qid}\t0\t${d}\t1`);
    }
  }
  return lines.join("\n") + "\n";
}

Deno.test({
  name: "the official script and the kit agree exactly on random runs (dev, test, train qrels)",
  ignore: IGNORE,
  async fn() {
    const { dir } = await prepare();
    const passages = await passageIds();
    const random = mulberry32("qqa23-oracle");
    const jobs: Job[] = [];
    const expected: { official: ReturnType<typeof evaluateQqa23>; describe: string }[] = [];
    let differing = 0, twice = 0, leftOut = 0;
    const mixed = `${dir}/mixed.gold`;
    await Deno.writeTextFile(mixed, mixedQrels(mulberry32("qqa23-mixed"), passages));
    const splits: [string, string, number][] = [
      ["dev", `${CORPUS}/QQA23_TaskA_ayatec_v1.2_qrels_dev.gold`, RUNS_PER_SPLIT],
      ["test", `${CORPUS}/QQA23_TaskA_ayatec_v1.2_qrels_test.gold`, RUNS_PER_SPLIT],
      // 174 questions: numpy's sum splits the list in halves (more than 128 values).
      ["train", `${CORPUS}/QQA23_TaskA_ayatec_v1.2_qrels_train.gold`, 20],
      // Ids of 1 to 4 digits: the official order ('10' before '9') decides the last bit.
      ["mixed", mixed, 20],
    ];
    for (const [split, qrelsPath, runs] of splits) {
      const qrels = await readQqa23Qrels(qrelsPath);
      // Questions the qrels lack: test question 504 (no qrels line), other splits' questions.
      const others = ["504", "99999", "114", "124", "500", "502"].filter((q) =>
        !qrels.judged.has(q) && !qrels.zeroAnswer.includes(q)
      );
      for (let i = 0; i < runs; i++) {
        const { text, describe } = randomRun(random, qrels, passages, others);
        const runPath = `${dir}/kitqa_${split}${String(i).padStart(3, "0")}.tsv`;
        await Deno.writeTextFile(runPath, text);
        const r = evaluateQqa23(qrels, await readQqa23Run(runPath));
        if (r.differences.length) differing++;
        if (r.perQuestion.some((q) => q.weight === 2)) twice++;
        if (r.perQuestion.some((q) => q.weight === 0)) leftOut++;
        expected.push({ official: r, describe: `${split} run ${i} (${describe})` });
        jobs.push({ run: runPath, qrels: qrelsPath, output: `${runPath}.out` });
      }
    }
    // Every rule of the protocol is exercised, not only the easy case.
    assert(differing > 40 && twice > 20 && leftOut > 20, `${differing} ${twice} ${leftOut}`);
    const results = await official(jobs);
    for (let i = 0; i < jobs.length; i++) {
      assert.equal(results[i].error, null, `${expected[i].describe}: ${results[i].error}`);
      assert.match(results[i].stdout, /Format check: Passed/);
      const got = await outputValues(jobs[i].output);
      const kit = expected[i].official.official;
      sameNumber(kit.map_cut_10, got.map_cut_10, `${expected[i].describe} map_cut_10`);
      sameNumber(kit.recip_rank, got.recip_rank, `${expected[i].describe} recip_rank`);
    }
  },
});

Deno.test({
  name: "the script's own command line gives what its main gives (and the kit)",
  ignore: IGNORE,
  async fn() {
    const { dir, trecEval } = await prepare();
    const qrels = `${CORPUS}/QQA23_TaskA_ayatec_v1.2_qrels_dev.gold`;
    const q = await readQqa23Qrels(qrels);
    const runPath = `${dir}/kitqa_cli.tsv`;
    const random = mulberry32("qqa23-cli");
    await Deno.writeTextFile(runPath, randomRun(random, q, await passageIds(), ["1"]).text);
    const out = new Deno.Command(PYTHON!, {
      args: [
        `${dir}/QQA23_TaskA_eval.py`,
        "--run",
        runPath,
        "--qrels",
        qrels,
        "--output",
        `${runPath}.cli`,
      ],
      env: { PYTHONPATH: STAND_IN, QQA23_TREC_EVAL: trecEval },
      stdout: "piped",
      stderr: "piped",
    }).outputSync();
    const said = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert(out.success && /Format check: Passed/.test(said), said);
    const got = await outputValues(`${runPath}.cli`);
    const kit = evaluateQqa23(q, await readQqa23Run(runPath)).official;
    sameNumber(kit.map_cut_10, got.map_cut_10, "map_cut_10");
    sameNumber(kit.recip_rank, got.recip_rank, "recip_rank");
  },
});

Deno.test({
  name: "pandas' empty frames: the script adds three zeros, as the kit does",
  ignore: IGNORE,
  async fn() {
    const { dir } = await prepare();
    const qrelsPath = `${dir}/zero.gold`;
    await Deno.writeTextFile(qrelsPath, "1\t0\t-1\t1\n2\t0\t-1\t1\n3\t0\t-1\t1\n");
    const jobs: Job[] = [];
    const kit: number[] = [];
    for (
      const [i, text] of ["1\tQ0\t-1\t1\t0\tx\n", "1\tQ0\t-1\t1\t0\tx\n7\tQ0\tA\t1\t0\tx\n"]
        .entries()
    ) {
      const runPath = `${dir}/kitqa_zero${i}.tsv`;
      await Deno.writeTextFile(runPath, text);
      const q = await readQqa23Qrels(qrelsPath);
      kit.push(evaluateQqa23(q, await readQqa23Run(runPath)).official.map_cut_10);
      jobs.push({ run: runPath, qrels: qrelsPath, output: `${runPath}.out` });
    }
    const results = await official(jobs);
    for (let i = 0; i < jobs.length; i++) {
      assert.equal(results[i].error, null);
      sameNumber(kit[i], (await outputValues(jobs[i].output)).map_cut_10, `case ${i}`);
    }
    // Officially [0, 0, 0 (the frames' qid, Q0, docid), 1, 0, 0, 0, 0]; with a line for a
    // question the qrels lack the run's frame is not empty: [1, 0, 0, 0, 0].
    assert.deepEqual(kit, [1 / 8, 1 / 5]);
  },
});

Deno.test({
  name: "runs the checker refuses are refused by the kit, for the same reason",
  ignore: IGNORE,
  async fn() {
    const { dir } = await prepare();
    const qrels = `${CORPUS}/QQA23_TaskA_ayatec_v1.2_qrels_dev.gold`;
    const ok = (q: string, d: string) => `${q}\tQ0\t${d}\t1\t0.5\tkit`;
    const eleven = Array.from({ length: 11 }, (_, i) => ok("114", `1:${i + 1}-${i + 2}`));
    const cases: [string, string, RegExp, RegExp][] = [
      ["more", eleven.join("\n"), /above the limit/, /more than the 10 passages/],
      [
        "less",
        `${ok("114", "1:1-4")}\n114\tQ0\t1:5-6\t1\t0.5\n`,
        /Less columns than expected on line 2/,
        /Less columns/,
      ],
      // Every line short: the checker's own pandas reading stops with a Python error.
      [
        "short",
        "114\tQ0\t1:1-4\t1\t0.5\n",
        /ParserError: Too many columns specified/,
        /Less columns/,
      ],
      [
        "extra",
        `${ok("114", "1:1-4")}\tx\n`,
        /More columns than expected on line 1/,
        /More columns/,
      ],
      [
        "expo",
        "114\tQ0\t1:1-4\t1\t1e-3\tkit\n",
        /The score is not a float on line 1/,
        /not a float/,
      ],
      [
        "dupe",
        `${ok("114", "1:1-4")}\n${ok("114", "1:1-4")}\n`,
        /Duplication of pair.*lines 1 and 2/,
        /Duplication/,
      ],
      [
        "mixed",
        `${ok("114", "1:1-4")}\n114 Q0 1:5-6 1 0.5 kit\n`,
        /Wrong column delimiter/,
        /Wrong column delimiter/,
      ],
      [
        "blank",
        `${ok("114", "1:1-4")}\n\n${ok("114", "1:5-6")}\n`,
        /Wrong column delimiter/,
        /blank line/,
      ],
      [
        "spaces",
        "114 Q0 1:1-4 1 0.5 kit \n",
        /More columns than expected on line 1/,
        /More columns/,
      ],
    ];
    const jobs: Job[] = cases.map(([name]) => ({
      run: `${dir}/kitqa_${name}.tsv`,
      qrels,
      output: `${dir}/kitqa_${name}.out`,
    }));
    for (const [i, [, text]] of cases.entries()) await Deno.writeTextFile(jobs[i].run, text);
    const results = await official(jobs);
    for (const [i, [name, , script, kit]] of cases.entries()) {
      // Refused: the checker says why, or its reading raises (the script then scores nothing).
      const said = results[i].error ?? results[i].stdout;
      if (results[i].error === null) assert.match(said, /Format check: Failed/, name);
      assert.match(said, script, name);
      assert(!isFile(jobs[i].output), name);
      await assert.rejects(
        readQqa23Run(jobs[i].run),
        (e) => e instanceof KitError && kit.test(e.message),
        name,
      );
    }
    // An empty run passes the checker (pandas reads an empty frame): every judged question is
    // missing, the 4 zero-answer ones of dev count twice: 0.0. The kit reads it with a warning.
    const empty = `${dir}/kitqa_empty.tsv`;
    await Deno.writeTextFile(empty, "");
    const [e] = await official([{ run: empty, qrels, output: `${empty}.out` }]);
    assert.match(e.stdout, /Format check: Passed/);
    const emptyRun = await readQqa23Run(empty);
    assert.match(emptyRun.warnings[0], /an empty run/);
    const kitEmpty = evaluateQqa23(await readQqa23Qrels(qrels), emptyRun).official;
    assert.deepEqual(await outputValues(`${empty}.out`), { map_cut_10: 0, recip_rank: 0 });
    assert.deepEqual(kitEmpty, { map_cut_10: 0, recip_rank: 0, numQ: 8 });
    // The file-name rule: the script refuses the run; the kit scores it and warns.
    const badName = `${dir}/my-run.tsv`;
    await Deno.writeTextFile(badName, `${ok("114", "1:1-4")}\n`);
    const [named] = await official([{ run: badName, qrels, output: `${badName}.out` }]);
    assert.match(named.stdout, /Your run file name <my-run\.tsv> is incorrect/);
    assert.match((await readQqa23Run(badName)).warnings[0], /TeamID_RunID/);
  },
});

Deno.test({
  name: "what the kit refuses beyond the checker, the script misreads",
  ignore: IGNORE,
  async fn() {
    const { dir } = await prepare();
    const qrels = `${CORPUS}/QQA23_TaskA_ayatec_v1.2_qrels_dev.gold`;
    const texts = {
      clean: "114\tQ0\t28:76-80\t1\t0.5\tt\n124\tQ0\t2:234-237\t1\t0.5\tt\n",
      // A quote in the tag: pandas reads the next line into it, question 124 disappears.
      quote: '114\tQ0\t28:76-80\t1\t0.5\t"t\n124\tQ0\t2:234-237\t1\t0.5\tt"\n',
      // A tab inside the last field of a space-separated run: the scorer reads 7 columns.
      tab: "114 Q0 28:76-80 1 0.5 t\tx\n124 Q0 2:234-237 1 0.5 t\n",
    };
    const jobs: Job[] = Object.keys(texts).map((name) => ({
      run: `${dir}/kitqa_${name}.tsv`,
      qrels,
      output: `${dir}/kitqa_${name}.out`,
    }));
    for (const [i, text] of Object.values(texts).entries()) {
      await Deno.writeTextFile(jobs[i].run, text);
    }
    const [clean, quote, tab] = await official(jobs);
    for (const r of [clean, quote, tab]) assert.match(r.stdout, /Format check: Passed/);
    assert.equal(clean.error, null);
    const cleanValues = await outputValues(jobs[0].output);
    const kit = evaluateQqa23(await readQqa23Qrels(qrels), await readQqa23Run(jobs[0].run));
    assert.equal(kit.official.map_cut_10, cleanValues.map_cut_10);
    assert.notEqual((await outputValues(jobs[1].output)).map_cut_10, cleanValues.map_cut_10);
    assert.match(tab.error ?? "", /Expected matching score to be int, long or float/);
    await assert.rejects(readQqa23Run(jobs[1].run), /reads as a quote/);
    await assert.rejects(readQqa23Run(jobs[2].run), /white space other than single spaces/);
  },
});

Deno.test({
  name: "numpyMean is np.mean, bit for bit, for 1 to 300 values",
  ignore: IGNORE,
  async fn() {
    const random = mulberry32("qqa23-numpy");
    const lists: number[][] = [];
    for (let n = 1; n <= 300; n++) {
      lists.push(
        Array.from({ length: n }, () => (random() < 0.3 ? randomInt(random, 2) : random())),
      );
    }
    const script = "import json, sys, numpy as np\n" +
      "print(json.dumps([repr(float(np.mean(xs))) for xs in json.load(sys.stdin)]))";
    const means: string[] = JSON.parse(await run(PYTHON!, ["-c", script], JSON.stringify(lists)));
    for (let i = 0; i < lists.length; i++) {
      assert.equal(numpyMean(lists[i]), Number(means[i]), `n = ${i + 1}`);
    }
  },
});
