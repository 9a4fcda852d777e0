/**
 * How the TREC readers read what users give them, class by class (issue 14), each with its
 * neighbours: `#` lines, blank lines, scores and relevances as C's atof/atol read them, score
 * precision per trec_eval release, zero and negative relevance levels, multi-member gzip,
 * lines without end, both files on standard input. Expected values come from trec_eval 9.0.8
 * and 10.0 runs on the same files (recorded here); when the 9.0.8 binary is built (see
 * `lib/bench/trec_eval.ts`) the outputs are also compared with it live.
 */
import { gzipSync } from "node:zlib";
import { assert, assertEquals, assertRejects } from "../assert.ts";
import {
  evaluate,
  evaluateTrecFiles,
  formatTrecEval,
  readQrels,
  readRun,
  type TrecRelease,
} from "../../lib/metrics/mod.ts";
import { rankOrder } from "../../lib/metrics/rank.ts";
import { readLines, readText } from "../../lib/io/text.ts";
import { runTrecEval } from "../../lib/bench/trec_eval.ts";
import { mem, runCli } from "../helpers.ts";

const enc = new TextEncoder();
/** The trec_eval 10.0 binary `./kit setup` builds (an outside oracle). */
const TREC_EVAL_10 = new URL("../../.tools/trec_eval-10.0/trec_eval", import.meta.url).pathname;

async function evalText(
  qrels: string,
  run: string,
  measures: string[],
  options: { release?: TrecRelease; relevanceLevel?: number; complete?: boolean } = {},
) {
  return await evaluateTrecFiles(mem("qrels", qrels), mem("run", run), measures, {
    warn: false,
    ...options,
  });
}

/** The kit's `eval trec` output and trec_eval's (when built) on the same files. */
async function bothOutputs(qrels: string, run: string, args: string[]) {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/qrels`, qrels);
  await Deno.writeTextFile(`${dir}/run`, run);
  const kit = await runCli(["eval", "trec", ...args, `${dir}/qrels`, `${dir}/run`]);
  const te = await runTrecEval([...args, `${dir}/qrels`, `${dir}/run`]);
  await Deno.remove(dir, { recursive: true });
  return { kit: kit.stdout, stderr: kit.stderr, trecEval: te };
}

Deno.test("'#' starts no comment in 9.0.8: a query id '#q' is data, in both files", async () => {
  const qrels = "#q 0 a 0\n#q 0 b 1\nq1 0 a 1\n";
  const run = "#q Q0 a 1 1.0 r\n#q Q0 b 2 0.5 r\nq1 Q0 a 1 1 r\n";
  // trec_eval 9.0.8: num_q 2, map 0.7500 (#q has AP 0.5).
  const r = await evalText(qrels, run, ["map"]);
  assertEquals(r.numQ, 2);
  assertEquals(r.summary.map, 0.75);
  // trec_eval 10.0 skips the run's '#' lines, and the first of the qrels' two: the second
  // ("#q 0 b 1") judges query #q, which the run lacks. 10.0 stops there without -c (status 4);
  // with -c: num_q 2, map 0.5000 (#q 0.0000, q1 1.0000).
  await assertRejects(
    () => evalText(qrels, run, ["map"], { release: "10.0" }),
    /query #q of the qrels has no results in the run: trec_eval 10.0 stops here/,
  );
  const r10 = await evalText(qrels, run, ["map"], { release: "10.0", complete: true });
  assertEquals(r10.numQ, 2);
  assertEquals(r10.summary.map, 0.5);
  const both = await bothOutputs(qrels, run, ["-m", "num_q", "-m", "map"]);
  assertEquals(both.kit, "num_q                 \tall\t2\nmap                   \tall\t0.7500\n");
  if (both.trecEval !== undefined) assertEquals(both.kit, both.trecEval);
  // Neighbours: '#' inside an id is data in both releases; an indented '#' line is a comment
  // in a 10.0 run; a '#' line that is not a judgment is an error in 9.0.8, with its line.
  const inside = await evalText("q#1 0 a 1\n", "q#1 Q0 a 1 1 r\n", ["map"], { release: "10.0" });
  assertEquals(inside.numQ, 1);
  const indented = await evalText("q 0 a 1\n", "  # a comment\nq Q0 a 1 1 r\n", ["map"], {
    release: "10.0",
  });
  assertEquals(indented.numQ, 1);
  await assertRejects(
    () => evalText("# judgments of the test set\nq 0 a 1\n", "q Q0 a 1 1 r\n", ["map"]),
    /^qrels:1: expected 4 fields \(qid iter docno relevance\), found 6/,
  );
  await assertRejects(
    () => readRun(mem("run", "q Q0 a 1 1 r\n# end\n")),
    /^run:2: expected 6 fields \(qid Q0 docno rank score runid\), found 2/,
  );
  assertEquals((await readRun(mem("run", "# c\nq Q0 a 1 1 r\n"), { release: "10.0" })).size, 1);
  assertEquals((await readQrels(mem("q", "# c\nq 0 a 1\n"), { release: "10.0" })).size, 1);
});

Deno.test("blank lines: skipped in runs, refused in qrels with the line (as trec_eval)", async () => {
  const r = await evalText("q 0 a 1\n", "\nq Q0 a 1 1 r\n  \t \n\r\nq Q0 b 2 0.5 r\n\n", [
    "num_ret",
  ]);
  assertEquals(r.summary.num_ret, 2);
  // trec_eval 9.0.8: "trec_eval.get_qrels: Malformed line 2", for each of these.
  for (
    const [qrels, line] of [
      ["q 0 a 1\n\nq 0 b 0\n", 2],
      ["q 0 a 1\n   \nq 0 b 0\n", 2],
      ["q 0 a 1\r\n\r\nq 0 b 0\r\n", 2],
      ["q 0 a 1\nq 0 b 0\n\n", 3], // a trailing blank line too
    ] as const
  ) {
    await assertRejects(
      () => readQrels(mem("q.txt", qrels)),
      new RegExp(`^q\\.txt:${line}: empty line; expected qid iter docno relevance`),
    );
  }
  // Tolerant mode counts it as a bad line.
  const skip = { count: 0, examples: [] };
  assertEquals((await readQrels(mem("q", "q 0 a 1\n\n"), { skip })).size, 1);
  assertEquals(skip.count, 1);
});

Deno.test("scores: what atof reads whole is read with atof's value; anything else refused with the line", async () => {
  const read = async (s: string) =>
    (await readRun(mem("r.txt", `q Q0 a 1 ${s} r\n`))).get("q")!.get("a");
  for (
    const [text, value] of [
      [".5", 0.5],
      ["5.", 5],
      ["+1", 1],
      ["-0", -0],
      ["1E3", 1000],
      ["1e+2", 100],
      ["007", 7],
      ["1e-400", 0], // underflows to 0, as strtod does
      ["0.30000001", 0.30000001], // as written (ranking rounds it for 9.0.8, not readRun)
      ["123456789012345678901234567890", 1.2345678901234568e29],
      ["1e999", Infinity], // overflows to inf, as strtod does
      ["-1e999", -Infinity],
      ["inf", Infinity], // atof reads these whole: unambiguous
      ["-Infinity", -Infinity],
    ] as const
  ) assertEquals(await read(text), value, text);
  // atof would read these as 16, 0, 0, 1.5, 1, nan, 1, 1, 0, 0: refused, saying so.
  for (
    const [text, says] of [
      [
        "0x10",
        "is hexadecimal: trec_eval would read it as 16 (C's atof reads hexadecimal; ranx does not)",
      ],
      ["0b101", "is not a decimal number: trec_eval would read '0' (0) and ignore 'b101'"],
      ["0o17", "is not a decimal number: trec_eval would read '0' (0) and ignore 'o17'"],
      ["1.5abc", "is not a decimal number: trec_eval would read '1.5' (1.5) and ignore 'abc'"],
      ["1e", "is not a decimal number: trec_eval would read '1' (1) and ignore 'e'"],
      ["nan", "is NaN, which trec_eval cannot rank"],
      ["1_000", "is not a decimal number: trec_eval would read '1' (1) and ignore '_000'"],
      ["1,5", "is not a decimal number: trec_eval would read '1' (1) and ignore ',5'"],
      ["--1", "is not a decimal number: trec_eval would read it as 0"],
      [".", "is not a decimal number: trec_eval would read it as 0"],
    ]
  ) {
    const e = await assertRejects(() => read(text), /score/);
    const message = (e as Error).message;
    assert(message.startsWith(`r.txt:1: score '${text}' ${says}`), message);
    assert(message.endsWith("(expected: qid Q0 docno rank score runid)"), message);
  }
});

Deno.test("relevance: an integer atol reads as its value; anything else refused saying what atol reads", async () => {
  const read = async (s: string) =>
    (await readQrels(mem("q.txt", `q 0 a ${s}\n`))).get("q")!.get("a");
  for (
    const [text, value] of [
      ["+2", 2],
      ["-1", -1],
      ["007", 7],
      ["2147483647", 2147483647],
      ["2.0", 2], // atol reads 2: the same number, so read
      ["1.", 1],
      ["-0.0", 0],
      ["1e0", 1],
    ] as const
  ) {
    assertEquals(await read(text), value, text);
  }
  for (
    const [text, says] of [
      ["1.5", "is not an integer: trec_eval would read it as 1"],
      ["0x1", "is not an integer: trec_eval would read it as 0"],
      ["1e2", "is 100, but trec_eval would read it as 1"],
      ["2abc", "is not an integer: trec_eval would read it as 2"],
      ["+", "is not an integer: trec_eval would read it as 0"],
    ]
  ) {
    await assertRejects(
      () => read(text),
      new RegExp(`^q\\.txt:1: relevance '${text.replace(/[.+]/g, "\\$&")}' ${says} `),
    );
  }
  await assertRejects(
    () => read("99999999999"),
    /^q\.txt:1: relevance '99999999999' is out of range/,
  );
});

Deno.test("score precision: 32-bit floats tie in 9.0.8 (the default), doubles do not in 10.0", async () => {
  // a scores 0.30000001 (not relevant), b 0.3 (relevant). 9.0.8: one float, tie, docno
  // descending puts b first: RR 1. 10.0: a ranks first: RR 0.5. (Both binaries, recorded.)
  const qrels = "q1 0 a 0\nq1 0 b 1\n", run = "q1 Q0 a 1 0.30000001 r\nq1 Q0 b 2 0.3 r\n";
  assertEquals((await evalText(qrels, run, ["recip_rank"])).summary.recip_rank, 1);
  assertEquals(
    (await evalText(qrels, run, ["recip_rank"], { release: "10.0" })).summary.recip_rank,
    0.5,
  );
  // The same through every place a run is ranked: the worker, `evaluate`, `rankOrder`.
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/q`, qrels);
  await Deno.writeTextFile(`${dir}/r`, run);
  for (const release of ["9.0.8", "10.0"] as const) {
    const want = release === "9.0.8" ? 1 : 0.5;
    const worker = await evaluateTrecFiles(`${dir}/q`, `${dir}/r`, ["recip_rank"], {
      threads: 2,
      parallelMinBytes: 0,
      release,
    });
    assertEquals(worker.summary.recip_rank, want);
    const m = (o: Record<string, Record<string, number>>) =>
      new Map(Object.entries(o).map(([k, v]) => [k, new Map(Object.entries(v))]));
    const mem = evaluate(m({ q1: { a: 0, b: 1 } }), m({ q1: { a: 0.30000001, b: 0.3 } }), [
      "recip_rank",
    ], { release });
    assertEquals(mem.summary.recip_rank, want);
    assertEquals(
      [...rankOrder(["a", "b"], [0.30000001, 0.3], release)],
      release === "9.0.8" ? [1, 0] : [0, 1],
    );
  }
  const cli = await runCli([
    "eval",
    "trec",
    "--trec-eval",
    "10.0",
    "-m",
    "recip_rank",
    `${dir}/q`,
    `${dir}/r`,
  ]);
  assertEquals(cli.stdout, "recip_rank            \tall\t0.5000\n");
  const te = await runTrecEval(["-m", "recip_rank", `${dir}/q`, `${dir}/r`]);
  if (te !== undefined) assertEquals(te, "recip_rank            \tall\t1.0000\n");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("relevance levels: zero and negative levels count as trec_eval counts them", async () => {
  // Judgments 1, 0, -1, -2, 2; retrieved a(1) b(0) c(-1) x(not judged) d(-2). trec_eval
  // reads a negative judgment as -2 and a document not in the qrels as -1 in its ranked list.
  const qrels = "q1 0 a 1\nq1 0 b 0\nq1 0 c -1\nq1 0 d -2\nq1 0 e 2\n";
  const run = "q1 Q0 a 1 5 r\nq1 Q0 b 2 4 r\nq1 Q0 c 3 3 r\nq1 Q0 x 4 2 r\nq1 Q0 d 5 1 r\n";
  const measures = ["num_rel", "num_rel_ret", "map", "P.5", "ndcg_cut.10"];
  // Recorded from trec_eval 9.0.8 (10.0 gives the same).
  const want: Record<string, string> = {
    "-3": "3 2 1.6667 1.0000 0.3801",
    "-2": "3 2 1.6667 1.0000 0.3801",
    "-1": "3 2 0.9167 0.6000 0.3801",
    "0": "3 2 0.6667 0.4000 0.3801",
    "1": "2 1 0.5000 0.2000 0.3801",
    "2": "1 0 0.0000 0.0000 0.3801",
    "3": "0 0 0.0000 0.0000 0.3801",
  };
  for (const [level, values] of Object.entries(want)) {
    const r = await evalText(qrels, run, measures, { relevanceLevel: Number(level) });
    const got = formatTrecEval(r, { perQuery: false })
      .trim().split("\n").map((l) => l.split("\t")[2]).join(" ");
    assertEquals(got, values, `-l ${level}`);
    // The command line takes `-l -1`, `-l-1` and `--level=-1` alike.
    for (const flag of [["-l", level], [`-l${level}`], [`--level=${level}`]]) {
      const args = [...flag, ...measures.flatMap((m) => ["-m", m])];
      const both = await bothOutputs(qrels, run, args);
      assertEquals(both.stderr, "", flag.join(" "));
      assertEquals(both.kit.split("\n").map((l) => l.split("\t")[2]).join(" ").trim(), values);
      if (both.trecEval !== undefined) assertEquals(both.kit, both.trecEval, flag.join(" "));
    }
  }
  const bad = await runCli(["eval", "trec", "-l", "1.5", "q", "r"]);
  assert(/-l takes an integer relevance level, got '1.5'/.test(bad.stderr));
});

Deno.test("multi-member gzip is read whole everywhere gzip is read; broken gzip says so once", async () => {
  const dir = await Deno.makeTempDir();
  const twoMembers = (a: string, b: string) =>
    new Uint8Array([...gzipSync(enc.encode(a)), ...gzipSync(enc.encode(b))]);
  await Deno.writeFile(`${dir}/run.gz`, twoMembers("q Q0 a 1 1 r\n", "q Q0 b 2 0.5 r\n"));
  await Deno.writeFile(`${dir}/qrels.gz`, twoMembers("q 0 a 1\n", "q 0 b 1\n"));
  await Deno.writeFile(`${dir}/lines.gz`, twoMembers("x\n", "y\n"));
  await Deno.writeFile(`${dir}/run.json.gz`, twoMembers('{"q": {"a": 1,', ' "b": 0.5}}'));
  assertEquals([...(await readRun(`${dir}/run.gz`)).get("q")!.keys()], ["a", "b"]);
  assertEquals((await readQrels(`${dir}/qrels.gz`)).get("q")!.size, 2);
  assertEquals((await readRun(`${dir}/run.json.gz`)).get("q")!.get("b"), 0.5);
  const lines: string[] = [];
  for await (const l of readLines(`${dir}/lines.gz`)) lines.push(l.text);
  assertEquals(lines, ["x", "y"]);
  const r = await evaluateTrecFiles(`${dir}/qrels.gz`, `${dir}/run.gz`, ["num_ret", "map"], {
    threads: 2,
    parallelMinBytes: 0,
  });
  assertEquals(r.summary, { num_ret: 2, map: 1 });
  // Neighbours: an empty member and zero padding are fine (gzip -t passes); trailing garbage,
  // a truncated member and a broken header are errors with one message, in every reader.
  await Deno.writeFile(
    `${dir}/padded.gz`,
    new Uint8Array([...twoMembers("x\n", ""), ...new Uint8Array(64)]),
  );
  assertEquals(await readText(`${dir}/padded.gz`), "x\n");
  const gz = gzipSync(enc.encode("q Q0 a 1 1 r\nq Q0 b 2 1 r\n"));
  for (
    const bytes of [
      new Uint8Array([...gz, ...enc.encode("garbage")]),
      gz.subarray(0, gz.length - 10),
      new Uint8Array([0x1f, 0x8b, 0x63, 0x00]),
    ]
  ) {
    await Deno.writeFile(`${dir}/bad.gz`, bytes);
    const allLines = async (p: string) => {
      for await (const _ of readLines(p)) { /* read on */ }
    };
    for (const read of [readRun, readQrels, readText, allLines]) {
      await assertRejects(
        () => read(`${dir}/bad.gz`),
        /bad\.gz(:\d+)?: corrupt or truncated gzip data \(.+\); expected a complete gzip stream/,
      );
    }
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a file without newlines (/dev/zero) stops at the line cap with a clear error, in every reader", async () => {
  const cap = /:1: line longer than 16 MiB \(the limit of every reader\)/;
  await assertRejects(() => readRun("/dev/zero"), cap);
  await assertRejects(() => readQrels("/dev/zero"), cap);
  // The text readers (corpora, JSON lines, JSON files) refuse its first byte: no text has NUL.
  await assertRejects(() => readText("/dev/zero"), /^\/dev\/zero:1: a NUL byte: not a text file\?/);
  await assertRejects(() => readLines("/dev/zero").next(), /\/dev\/zero:1: a NUL byte/);
  await assertRejects(() => evaluateTrecFiles(mem("q", "q 0 a 1\n"), "/dev/zero", ["map"]), cap);
  await assertRejects(
    () => evaluateTrecFiles("/dev/zero", mem("r", "q Q0 a 1 1 r\n"), ["map"]),
    cap,
  );
  // A JSON reader refuses it at its first byte.
  const dir = await Deno.makeTempDir();
  await Deno.symlink("/dev/zero", `${dir}/run.json`);
  await assertRejects(
    () => readRun(`${dir}/run.json`),
    /run\.json:1: invalid JSON at column 1: expected '\{'/,
  );
  // Neighbour: a long line after ordinary ones is reported on its own line number.
  const long = new Uint8Array(17 << 20).fill(0x61);
  await Deno.writeFile(
    `${dir}/run`,
    new Uint8Array([...enc.encode("q Q0 a 1 1 r\nq Q0 b 2 1 r\n"), ...long]),
  );
  await assertRejects(() => readRun(`${dir}/run`), /run:3: line longer than 16 MiB/);
  await assertRejects(async () => {
    for await (const _ of readLines(`${dir}/run`)) { /* read on */ }
  }, /run:3: line longer than 16 MiB/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("the qrels and the run cannot both be standard input", async () => {
  await assertRejects(
    () => evaluateTrecFiles("-", "-", ["map"]),
    /the qrels and the run cannot both be standard input/,
  );
  const cli = await runCli(["eval", "trec", "-", "-"], { stdin: "q Q0 a 1 1 r\n" });
  assertEquals(cli.code, 2);
  assert(/cannot both be standard input/.test(cli.stderr), cli.stderr);
  // One of them on standard input is fine, either way round.
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/q`, "q 0 a 1\n");
  await Deno.writeTextFile(`${dir}/r`, "q Q0 a 1 1 r\n");
  const a = await runCli(["eval", "trec", "-m", "map", `${dir}/q`, "-"], {
    stdin: "q Q0 a 1 1 r\n",
  });
  const b = await runCli(["eval", "trec", "-m", "map", "-", `${dir}/r`], { stdin: "q 0 a 1\n" });
  assertEquals([a.stdout, b.stdout], Array(2).fill("map                   \tall\t1.0000\n"));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("10.0 stops when a qrels query has no results without -c; 9.0.8 skips it", async () => {
  const qrels = "q1 0 a 1\nq2 0 b 1\n", run = "q1 Q0 a 1 1 r\n";
  assertEquals((await evalText(qrels, run, ["map"])).numQ, 1);
  await assertRejects(
    () => evalText(qrels, run, ["map"], { release: "10.0" }),
    /query q2 of the qrels has no results in the run: trec_eval 10.0 stops here/,
  );
  const c = await evalText(qrels, run, ["map"], { release: "10.0", complete: true });
  assertEquals([c.numQ, c.summary.map], [2, 0.5]);
});

Deno.test({
  name:
    "a qrels query the run lacks under --trec-eval 10.0 without -c: the real 10.0 exits 4, the kit 2 as for every error, no partial output",
  ignore: (() => {
    try {
      return !Deno.statSync(TREC_EVAL_10).isFile;
    } catch {
      return true;
    }
  })(),
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(`${dir}/qrels`, "q1 0 d1 1\nq2 0 d1 1\n");
      await Deno.writeTextFile(`${dir}/run`, "q1 Q0 d1 1 1 r\n");
      for (const args of [["-m", "map"], ["-q", "-m", "map"]]) {
        const files = [`${dir}/qrels`, `${dir}/run`];
        const te = await new Deno.Command(TREC_EVAL_10, {
          args: [...args, ...files],
          stdout: "piped",
          stderr: "piped",
        }).output();
        // 10.0 (trec_eval.c): exit(4) at the first qrels query without results, after the -q
        // lines of the queries before it; its message names the wrong file.
        assertEquals(te.code, 4);
        assertEquals(
          new TextDecoder().decode(te.stderr),
          "trec_eval: result qid 'q2' not found in qrels\n",
        );
        assertEquals(
          new TextDecoder().decode(te.stdout),
          args.includes("-q") ? "map                   \tq1\t1.0000\n" : "",
        );
        // The kit: exit status 2, as every kit error (docs/measures.md says why), one line
        // naming the query, nothing on standard output.
        const kit = await runCli(["eval", "trec", "--trec-eval", "10.0", ...args, ...files]);
        assertEquals(kit.code, 2);
        assertEquals(kit.stdout, "");
        assert(
          /^error: query q2 of the qrels has no results in the run: trec_eval 10\.0 stops here; .*-c/
            .test(kit.stderr),
          kit.stderr,
        );
        // With -c both evaluate it.
        const c = await runCli(["eval", "trec", "--trec-eval", "10.0", "-c", ...args, ...files]);
        const tec = await new Deno.Command(TREC_EVAL_10, {
          args: ["-c", ...args, ...files],
          stdout: "piped",
        }).output();
        assertEquals([c.code, tec.code], [0, 0]);
        assertEquals(c.stdout, new TextDecoder().decode(tec.stdout));
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("a byte-order mark at the start of a line inside a file is part of its query id, as trec_eval reads bytes", async () => {
  const bom = "\uFEFF";
  // Both files: query "\uFEFF2" is a query of its own, judged and retrieved.
  const qrels = `1 0 a 1\n${bom}2 0 b 1\n`;
  const run = `1 Q0 a 1 1 r\n${bom}2 Q0 c 1 2 r\n${bom}2 Q0 b 2 1 r\n`;
  const r = await evalText(qrels, run, ["recip_rank"]);
  assertEquals([...r.perQuery.keys()].sort(), ["1", `${bom}2`]);
  assertEquals(r.perQuery.get(`${bom}2`)!.recip_rank, 0.5);
  // Only in the run: a run-only query, not query 2; inside query 1's block: a query of its own.
  assertEquals(
    (await evalText("1 0 a 1\n2 0 b 1\n", `1 Q0 a 1 1 r\n${bom}2 Q0 b 1 1 r\n`, [
      "map",
    ])).runOnlyQueries,
    [`${bom}2`],
  );
  const inBlock = await evalText("1 0 a 1\n", `1 Q0 a 1 1 r\n${bom}1 Q0 b 2 1 r\n1 Q0 c 3 0 r\n`, [
    "num_ret",
  ]);
  assertEquals(inBlock.perQuery.get("1")!.num_ret, 2);
  assertEquals(inBlock.runOnlyQueries, [`${bom}1`]);
  // The file's own BOM (its first bytes) is still skipped, and trec_eval 9.0.8 agrees on all.
  const both = await bothOutputs(qrels, run, ["-q", "-m", "num_q", "-m", "recip_rank"]);
  assertEquals(
    both.kit,
    "recip_rank            \t1\t1.0000\n" + `recip_rank            \t${bom}2\t0.5000\n` +
      "num_q                 \tall\t2\nrecip_rank            \tall\t0.7500\n",
  );
  if (both.trecEval !== undefined) assertEquals(both.kit, both.trecEval);
  // JSON qrels keep it too.
  const json = JSON.stringify({ [`${bom}2`]: { b: 1 } });
  const fromJson = await evaluateTrecFiles(mem("q.json", json), mem("run", run), ["recip_rank"], {
    warn: false,
  });
  assertEquals([...fromJson.perQuery.keys()], [`${bom}2`]);
});

Deno.test("10.0 takes a qrels comment only at the line's first byte: an indented '#q' line is data", async () => {
  // get_qrels.c (10.0) skips a line only when '#' is its first byte; its run reader skips
  // blanks first, so an indented '#' line is a comment in a run.
  const qrels = "  #q 0 a 1\nq 0 a 1\n";
  const run = "#q Q0 a 1 1 r\nq Q0 a 1 1 r\n";
  const r = await evalText(qrels, "q Q0 a 1 1 r\n", ["map"], { release: "10.0", complete: true });
  assertEquals(r.numQ, 2); // "#q" is a qrels query (missing from the run)
  const commented = await evalText("# c\nq 0 a 1\n", run, ["map"], { release: "10.0" });
  assertEquals(commented.numQ, 1);
  assertEquals(
    (await evalText(qrels, "  # c\nq Q0 a 1 1 r\n", ["map"], {
      release: "10.0",
      complete: true,
    })).numQ,
    2,
  );
  // It skips a '#' line, then parses the next line whatever it is: the second of two is data.
  // Recorded from trec_eval 10.0 (-q -c -m num_q -m map): #q 0.0000, q 1.0000, num_q 2, all 0.5000;
  // "Malformed line" on "# c\n# d\n...".
  const twice = await evalText("# c\n#q 0 a 1\nq 0 a 1\n# x\nq 0 b 0\n", run, ["map"], {
    release: "10.0",
    complete: true,
  });
  assertEquals(twice.numQ, 2);
  assertEquals([...twice.perQuery.keys()], ["#q", "q"]); // ("#q" missing from the run: 0)
  assertEquals(twice.summary.map, 0.5);
  await assertRejects(
    () => evalText("# c\n# d\nq 0 a 1\n", run, ["map"], { release: "10.0" }),
    /qrels:2: expected 4 fields/,
  );
  // Three in a row: the first and third are skipped.
  const three = await evalText("# a\n#q 0 a 1\n# c\nq 0 a 1\n", run, ["map"], {
    release: "10.0",
    complete: true,
  });
  assertEquals(three.numQ, 2);
});

Deno.test("fields of 200,000 bytes are read or refused with a message, never a crash", async () => {
  // (Their text was made with one argument per byte: a stack overflow from 130,000 bytes on.)
  const long = "B".repeat(200_000);
  const qrels = "1 0 a 1\n1 0 b 0\n";
  for (
    const run of [
      `1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n${long} Q0 a 1 1 r\n`, // a long query id (run-only)
      `1 Q0 b 1 2 r\n1 Q0 a 2 1 ${long}\n`, // a long run id
    ]
  ) {
    const both = await bothOutputs(qrels, run, ["-m", "map"]);
    assert(both.kit.includes("map                   \tall\t"), both.stderr.slice(0, 300));
    if (both.trecEval !== undefined) assertEquals(both.kit, both.trecEval);
  }
  await assertRejects(
    () => evalText(qrels, `1 Q0 a 1 ${"1".repeat(200_000)}x r\n`, ["map"]),
    /run:1: score '1111/,
  );
  await assertRejects(
    () => evalText(qrels, `1 Q0 ${long} 1 1 r\n1 Q0 ${long} 2 0 r\n`, ["map"]),
    /run:2: duplicate document/,
  );
  const json = JSON.stringify({ "1": { [long]: 1, a: 0.5 } });
  const fromJson = await evaluateTrecFiles(mem("qrels", qrels), mem("run.json", json), ["map"], {
    warn: false,
  });
  assertEquals(fromJson.summary.map, 0.5);
});

Deno.test("a byte-order mark at a file's start is skipped with a warning, once per file, on every route", async () => {
  const dir = await Deno.makeTempDir();
  const bom = "\uFEFF";
  await Deno.writeTextFile(`${dir}/qrels`, `${bom}q1 0 a 1\nq2 0 b 1\n`);
  await Deno.writeTextFile(`${dir}/run`, `${bom}q1 Q0 a 1 1 r\nq2 Q0 b 1 1 r\n`);
  // Not grouped by query: read a second time, regrouped.
  await Deno.writeTextFile(
    `${dir}/ungrouped`,
    `${bom}q1 Q0 a 1 1 r\nq2 Q0 b 1 1 r\nq1 Q0 c 2 0 r\n`,
  );
  const routes: string[] = [];
  for (
    const [run, threads] of [["run", 1], ["run", 2], ["ungrouped", 1], ["ungrouped", 2]] as const
  ) {
    const warnings: string[] = [];
    const r = await evaluateTrecFiles(`${dir}/qrels`, `${dir}/${run}`, ["map"], {
      warn: (m) => warnings.push(m),
      threads,
      parallelMinBytes: 0,
      onRoute: (x) => routes.push(x),
    });
    assertEquals(r.summary.map, 1, run); // q1 is q1: the mark is not part of its id
    assertEquals(warnings, [
      `warning: ${dir}/qrels starts with a UTF-8 byte-order mark, skipped; trec_eval reads it as part of the first query id`,
      `warning: ${dir}/${run} starts with a UTF-8 byte-order mark, skipped; trec_eval reads it as part of the first query id`,
    ]);
  }
  assertEquals(routes, ["one thread", "halves", "one thread", "one thread"]);
});

Deno.test("a NUL byte in a TREC file is refused with its line: trec_eval stops reading at it or crashes", async () => {
  const qrels = "q1 0 a 1\nq1 0 b 0\nq2 0 c 1\n";
  // trec_eval 9.0.8 read the run below only up to the NUL (q1 with one document), and crashed
  // on a NUL inside a docno (status 139).
  for (
    const [q, r, where] of [
      [qrels, "q1 Q0 b 1 2 r\n\0q2 Q0 c 1 1 r\nq1 Q0 a 2 1 r\n", /run:2: a NUL byte \(column 1\)/],
      [qrels, "q1 Q0 a\0x 1 1 r\n", /run:1: a NUL byte \(column 8\)/],
      ["q1 0 a 1\nq2 0 c\0 1\n", "q1 Q0 a 1 1 r\n", /qrels:2: a NUL byte \(column 7\)/],
    ] as const
  ) {
    await assertRejects(() => evalText(q, r, ["map"]), where);
  }
});
