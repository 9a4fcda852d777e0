/**
 * Runs and qrels as ranx / pytrec_eval JSON (issue 16): read wherever a TREC file is read,
 * written by `writeRun`/`writeQrels` (so `score --out x.json`, `data qrels --out x.json`) and
 * `deno task convert`; round trips byte for byte; bad JSON named by line and column.
 */
import { existsSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { assert, assertEquals, assertRejects } from "../assert.ts";
import {
  evaluateTrecFiles,
  formatRun,
  readJsonRun,
  readQrels,
  readRun,
  writeQrels,
  writeRun,
} from "../../lib/metrics/mod.ts";
import { mem, runCli } from "../helpers.ts";

// Canonical (as the kit writes runs): trec_eval 9.0.8 order, where 0.30000001 and 0.3 tie.
const RUN = "q1 Q0 d3 1 2.5 bm25\nq1 Q0 d2 2 0.3 bm25\nq1 Q0 d1 3 0.30000001 bm25\n" +
  "q10 Q0 x 1 -1e-7 bm25\nq2 Q0 é\u{1F600} 1 12 bm25\n";
const QRELS = "q1 0 d1 1\nq1 0 d2 0\nq1 0 d9 2\nq10 0 x -1\nq2 0 é\u{1F600} 1\n";

Deno.test("convert: TREC -> JSON -> TREC and JSON -> TREC -> JSON are byte for byte, gzip or not", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/run.txt`, RUN);
  await Deno.writeTextFile(`${dir}/qrels.txt`, QRELS);
  for (const gz of ["", ".gz"]) {
    const steps: [string, string, string, string[]][] = [
      ["run", "run.txt", `run.json${gz}`, []],
      ["run", `run.json${gz}`, `back${gz}.txt`, ["--run-id", "bm25"]],
      ["run", `back${gz}.txt`, `again${gz}.json`, []],
      ["qrels", "qrels.txt", `qrels.json${gz}`, []],
      ["qrels", `qrels.json${gz}`, `qback${gz}.txt`, []],
      ["qrels", `qback${gz}.txt`, `qagain${gz}.json`, []],
    ];
    for (const [kind, from, to, extra] of steps) {
      const r = await runCli(["convert", kind, `${dir}/${from}`, `${dir}/${to}`, ...extra]);
      assertEquals(r.code, 0, r.stderr);
    }
    const text = async (name: string) => {
      const bytes = await Deno.readFile(`${dir}/${name}`);
      return new TextDecoder().decode(name.endsWith(".gz") ? gunzipSync(bytes) : bytes);
    };
    assertEquals(await text(`back${gz}.txt`), RUN);
    assertEquals(await text(`qback${gz}.txt`), QRELS);
    assertEquals(await text(`again${gz}.json`), await text(`run.json${gz}`));
    assertEquals(await text(`qagain${gz}.json`), await text(`qrels.json${gz}`));
    // What ranx and pytrec_eval read: plain JSON with the same values.
    assertEquals(JSON.parse(await text(`run.json${gz}`)), {
      q1: { d3: 2.5, d2: 0.3, d1: 0.30000001 },
      q10: { x: -1e-7 },
      q2: { "é\u{1F600}": 12 },
    });
    assertEquals(JSON.parse(await text(`qrels.json${gz}`)).q10, { x: -1 });
  }
  // The runid comes from the TREC input; JSON has none (kit, or --run-id).
  await runCli(["convert", "run", `${dir}/run.json`, `${dir}/plain.txt`]);
  assert((await Deno.readTextFile(`${dir}/plain.txt`)).endsWith(" 12 kit\n"));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("convert refuses to overwrite without --force, and writes atomically", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/run.txt`, RUN);
  await Deno.writeTextFile(`${dir}/out.json`, "precious");
  const r = await runCli(["convert", "run", `${dir}/run.txt`, `${dir}/out.json`]);
  assertEquals(r.code, 2);
  assert(/refusing to overwrite an existing file \(pass --force/.test(r.stderr), r.stderr);
  assertEquals(await Deno.readTextFile(`${dir}/out.json`), "precious");
  const f = await runCli(["convert", "run", `${dir}/run.txt`, `${dir}/out.json`, "--force"]);
  assertEquals(f.code, 0, f.stderr);
  assertEquals((await readRun(`${dir}/out.json`)).get("q1")!.get("d1"), 0.30000001);
  // A bad input leaves nothing behind, not even a temporary file.
  await Deno.writeTextFile(`${dir}/bad.txt`, "q1 Q0 d1 1 x r\n");
  const b = await runCli(["convert", "run", `${dir}/bad.txt`, `${dir}/new.json`]);
  assertEquals(b.code, 2);
  assert(
    /bad\.txt:1: score 'x' is not a decimal number: trec_eval would read it as 0/.test(b.stderr),
    b.stderr,
  );
  assertEquals([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
    "bad.txt",
    "out.json",
    "run.txt",
  ]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("JSON is read wherever a TREC file is: by name or by content, gzip too, same numbers", async () => {
  const dir = await Deno.makeTempDir();
  await writeRun(`${dir}/run.json`, await readRun(mem("run", RUN)));
  await writeQrels(`${dir}/qrels.json.gz`, await readQrels(mem("qrels", QRELS)));
  // Content detection: a JSON run under a name without .json.
  await Deno.copyFile(`${dir}/run.json`, `${dir}/run.data`);
  const want = await evaluateTrecFiles(mem("q", QRELS), mem("r", RUN), ["map", "P.1"], {
    complete: true,
  });
  for (
    const [q, r] of [
      [`${dir}/qrels.json.gz`, `${dir}/run.json`],
      [`${dir}/qrels.json.gz`, `${dir}/run.data`],
      [mem("q", QRELS), `${dir}/run.json`],
    ] as const
  ) {
    const got = await evaluateTrecFiles(q, r, ["map", "P.1"], { complete: true });
    assertEquals(got.summary, want.summary);
    assertEquals([...got.perQuery], [...want.perQuery]);
  }
  // On the command line, with standard input too.
  const cli = await runCli(["eval", "trec", "-m", "map", `${dir}/qrels.json.gz`, "-"], {
    stdin: await Deno.readTextFile(`${dir}/run.json`),
  });
  assertEquals(cli.stdout, `map                   \tall\t${want.summary.map.toFixed(4)}\n`);
  // A BOM, blanks and an empty query are fine (the empty query is dropped: TREC cannot say it).
  const odd = await readJsonRun(mem("r.json", '\uFEFF {\n "q1" : { "a" : 1 } ,\n "q2": {} }\n'));
  assertEquals([...odd.keys()], ["q1"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a JSON run says what a TREC run says: the measures' warnings once, the run named when it shares no query", async () => {
  const qrels = mem("q", "q1 0 d1 1\nq1 0 d2 0\n");
  for (
    const run of [
      mem("r.json", '{"q1": {"d1": 0.5, "d2": 0.7}}'),
      mem("r", "q1 Q0 d1 1 0.5 r\nq1 Q0 d2 2 0.7 r\n"),
    ]
  ) {
    const said: string[] = [];
    await evaluateTrecFiles(qrels, run, ["utility.1,-1,0,0", "utility.2,-1,0,0"], {
      warn: (m) => said.push(m),
    });
    assertEquals(said, [
      "warning: utility already has parameters '1,-1,0,0'; '2,-1,0,0' is ignored, as trec_eval does",
    ]);
  }
  for (const run of [mem("r9.json", '{"q9": {"d1": 0.5}}'), mem("r9", "q9 Q0 d1 1 0.5 r\n")]) {
    await assertRejects(
      () => evaluateTrecFiles(qrels, run, ["map"], { warn: false }),
      new RegExp(
        `^${run.name.replace(".", "\\.")}: no query has both results and relevance judgments`,
      ),
    );
  }
});

Deno.test("pipes and FIFOs are read once, then held: grouped and ungrouped runs, TREC and JSON", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/q`, QRELS);
  await Deno.writeTextFile(`${dir}/r`, RUN);
  // Not grouped by query (q1 comes back after q2): the reader reads it again whole, which a
  // pipe or FIFO cannot give (the regression: "no result lines", a FIFO waited on forever).
  const lines = RUN.trimEnd().split("\n");
  await Deno.writeTextFile(
    `${dir}/u`,
    [lines[0], lines[4], lines[1], lines[3], lines[2], ""].join("\n"),
  );
  await writeRun(`${dir}/run.json`, await readRun(mem("run", RUN)));
  // A shell line as users write it; `$KIT` runs the kit's CLI. `<(cat q)` is a pipe at
  // /dev/fd/N, which can be read once only.
  const sh = async (script: string) => {
    const main = new URL("../../lib/cli/main.ts", import.meta.url).pathname;
    const out = await new Deno.Command("bash", {
      args: ["-c", `KIT() { timeout 60 "$DENO" run -A "$MAIN" "$@"; }; ${script}`],
      cwd: dir,
      env: { DENO: Deno.execPath(), MAIN: main, NO_COLOR: "1", INIT_CWD: dir },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  };
  const want = await runCli(["eval", "trec", "-m", "map", "-m", "P.1", "q", "r"], { cwd: dir });
  assertEquals(want.code, 0, want.stderr);
  const ungrouped = await runCli(["eval", "trec", "-m", "map", "-m", "P.1", "q", "u"], {
    cwd: dir,
  });
  assertEquals([ungrouped.code, ungrouped.stdout], [0, want.stdout], ungrouped.stderr);
  const scripts = (r: string) => [
    `KIT eval trec -m map -m P.1 <(cat q) <(cat ${r})`,
    `KIT eval trec -m map -m P.1 -c q <(cat ${r})`,
    `KIT eval trec -m map -m P.1 q <(gzip -c ${r})`,
    `gzip -c ${r} > ${r}.gz && KIT eval trec -m map -m P.1 q <(zcat ${r}.gz)`,
    `cat ${r} | KIT eval trec -m map -m P.1 q /dev/stdin`,
    `cat ${r} | KIT eval trec -m map -m P.1 q -`,
    // A FIFO with a writer: read as it comes, not waited on forever.
    `rm -f fifo && mkfifo fifo && { cat ${r} > fifo & } && KIT eval trec -m map -m P.1 q fifo`,
    `rm -f fifo && mkfifo fifo && { cat ${r} > fifo & } && KIT eval trec --threads 1 -m map -m P.1 q fifo`,
    `rm -f fifo && mkfifo fifo && { gzip -c ${r} > fifo & } && KIT eval trec -m map -m P.1 q fifo`,
    `rm -f fifo && mkfifo fifo && { cat q > fifo & } && KIT eval trec -m map -m P.1 fifo ${r}`,
  ];
  for (const script of [...scripts("r"), ...scripts("u"), ...scripts("run.json")]) {
    const got = await sh(script);
    assertEquals([got.code, got.stdout], [0, want.stdout], `${script}: ${got.stderr}`);
  }
  // A held stream without newlines stops at the readers' line cap, not at 2 GiB in memory.
  const zeros = await sh("KIT eval trec q <(head -c 100000000 /dev/zero)");
  assertEquals([zeros.code, zeros.stdout], [2, ""]);
  assert(/^error: \/dev\/fd\/\d+:1: line longer than 16 MiB/.test(zeros.stderr), zeros.stderr);
  // JSON on standard input is recognized by its content (stdin is held, then looked at).
  const fromFile = await runCli(["convert", "run", "run.json", "file.run"], { cwd: dir });
  assertEquals(fromFile.code, 0, fromFile.stderr);
  const fromStdin = await runCli(["convert", "run", "-", "stdin.run"], {
    cwd: dir,
    stdin: await Deno.readTextFile(`${dir}/run.json`),
  });
  assertEquals(fromStdin.code, 0, fromStdin.stderr);
  assertEquals(
    await Deno.readTextFile(`${dir}/stdin.run`),
    await Deno.readTextFile(`${dir}/file.run`),
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("bad JSON is named by file, line and column", async () => {
  const cases: [string, RegExp][] = [
    [
      '{"q1": {"d1": 1.5,\n "d2" 2}}',
      /^r\.json:2: invalid JSON at column 7: expected ':', found '2'/,
    ],
    [
      '{"q1": {"d1": 1,}}',
      /^r\.json:1: invalid JSON at column 17: expected a document id \(a string\), found '\}'/,
    ],
    [
      '{"q1": {"d1": NaN}}',
      /^r\.json:1: invalid JSON at column 15: expected a score \(a number\), found 'N'/,
    ],
    [
      '{"q1": {"d1": "0.5"}}',
      /^r\.json:1: invalid JSON at column 15: expected a score \(a number\), found '"'/,
    ],
    ['{"q1": {"d1": 01}}', /^r\.json:1: invalid JSON at column 15: '01' is not a JSON number/],
    [
      '{"q1": {"d1": 1}}\n{"q2": {}}',
      /^r\.json:2: invalid JSON at column 1: expected the end of the file/,
    ],
    [
      '{"q1": {"d1": 1}',
      /^r\.json:1: invalid JSON at column 17: expected ',' or '\}' after a query, found end of file/,
    ],
    [
      '{"q1": {"d1": 1},\n"q1": {"d2": 1}}',
      /^r\.json:2: invalid JSON at column 5: query q1 appears twice \(first on line 1\)/,
    ],
    ['{"q1": {"d1": 1,\n "d1": 2}}', /^r\.json:2: duplicate document d1 for query q1/],
    ['{"q1": {"d1\n": 1}}', /^r\.json:1: invalid JSON at column 12: control character in a string/],
    ['{"q1": {"d1": 1}', /found end of file/],
    [
      "[1, 2]",
      /^r\.json:1: invalid JSON at column 1: expected '\{' \(an object of queries\), found '\['/,
    ],
    [
      "",
      /^r\.json:1: invalid JSON at column 1: expected '\{' \(an object of queries\), found end of file/,
    ],
  ];
  for (const [text, says] of cases) {
    await assertRejects(() => readRun(mem("r.json", text)), says);
  }
  // Qrels: relevances are integers; a judgment twice is the qrels' duplicate message.
  await assertRejects(
    () => readQrels(mem("q.json", '{"q1": {"d1": 1.5}}')),
    /^q\.json:1: invalid JSON at column 15: relevance 1\.5 is not an integer/,
  );
  // A JSON number that is an integer is one, however written (there is no atol here).
  const q = await readQrels(mem("q.json", '{"q1": {"d1": 1.0, "d2": 2e0, "d3": 1e3}}'));
  assertEquals([...q.get("q1")!.values()], [1, 2, 1000]);
  // A score beyond the doubles is an infinity, as atof makes it in a TREC file.
  assertEquals(
    (await readRun(mem("r.json", '{"q1": {"d1": 1e999}}'))).get("q1")!.get("d1"),
    Infinity,
  );
  await assertRejects(
    () => readQrels(mem("q.json", '{"q1": {"d1": 1, "d1": 0}}')),
    /^q\.json:1: duplicate judgment for query q1, document d1/,
  );
  // Escapes and invalid UTF-8 inside strings.
  assertEquals(
    [...(await readRun(mem("r.json", '{"q\\u0031": {"d\\"1": 1}}'))).get("q1")!.keys()],
    [
      'd"1',
    ],
  );
  await assertRejects(
    () =>
      readRun(
        mem(
          "r.json",
          new Uint8Array([...new TextEncoder().encode('{"q": {"'), 0xff, 34, 58, 49, 125, 125]),
        ),
      ),
    /invalid UTF-8 in a string/,
  );
});

Deno.test("writeRun: TREC or JSON by the name, gzip for .gz; formatRun is trec_eval's order", async () => {
  const dir = await Deno.makeTempDir();
  const run = new Map([["q", new Map([["a", 0.1], ["b", 0.7], ["c", 0.7]])]]);
  await writeRun(`${dir}/r.txt.gz`, run, { runId: "x" });
  const gz = await Deno.readFile(`${dir}/r.txt.gz`);
  assertEquals([gz[0], gz[1]], [0x1f, 0x8b]);
  assertEquals(new TextDecoder().decode(gunzipSync(gz)), [...formatRun(run, "x")].join(""));
  assertEquals(
    [...formatRun(run, "x")].join(""),
    "q Q0 c 1 0.7 x\nq Q0 b 2 0.7 x\nq Q0 a 3 0.1 x\n",
  );
  await writeRun(`${dir}/r.json`, run);
  assertEquals(
    await Deno.readTextFile(`${dir}/r.json`),
    '{\n"q": {"c": 0.7, "b": 0.7, "a": 0.1}\n}\n',
  );
  await writeRun(`${dir}/r.out`, run, { format: "json" });
  assertEquals(await Deno.readTextFile(`${dir}/r.out`), await Deno.readTextFile(`${dir}/r.json`));
  await assertRejects(() => writeRun(`${dir}/r.json`, run), /refusing to overwrite/);
  // gzip as written here, read back by the kit.
  assertEquals(await readRun(`${dir}/r.txt.gz`), run);
  assertEquals(gunzipSync(gzipSync(new Uint8Array([1]))).length, 1);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("convert: ids as the readers keep them, messages naming the file, - as stdout, the release's order (issue 28, item 10)", async () => {
  const dir = await Deno.makeTempDir();
  const run = (...args: string[]) => runCli(["convert", "run", ...args], { cwd: dir });
  // A no-break space and a control character: kept by the TREC readers and trec_eval alike.
  await Deno.writeTextFile(`${dir}/odd.json`, '{"q\\u0001x": {"d\\u00a0e": 1}}');
  const odd = await run("odd.json", "odd.run");
  assertEquals(odd.code, 0, odd.stderr);
  assertEquals(await Deno.readTextFile(`${dir}/odd.run`), "q\u0001x Q0 d\u00a0e 1 1 kit\n");
  assertEquals([...(await readRun(`${dir}/odd.run`)).get("q\u0001x")!.keys()], ["d\u00a0e"]);
  // NUL (trec_eval 9.0.8 crashes on it) and blanks: refused, shown escaped, naming the file.
  await Deno.writeTextFile(`${dir}/nul.json`, '{"q\\u0000x": {"d": 1}}');
  const nul = await run("nul.json", "nul.run");
  assertEquals(nul.code, 2);
  assert(
    nul.stderr.includes(`error: nul.run: query id "q\\u0000x" holds a NUL character`),
    nul.stderr,
  );
  await Deno.writeTextFile(`${dir}/tab.json`, '{"q": {"d\\tx": 1}}');
  const tab = await run("tab.json", "tab.run");
  assert(
    tab.stderr.includes('document id "d\\tx" holds "\\t", where trec_eval splits'),
    tab.stderr,
  );
  assertEquals([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
    "nul.json",
    "odd.json",
    "odd.run",
    "tab.json",
  ]);
  // `{}` is a run without results, named as the TREC readers name an empty file.
  await Deno.writeTextFile(`${dir}/empty.json`, "{}");
  const empty = await run("empty.json", "x.run");
  assert(empty.stderr.includes("error: empty.json: run file has no results"), empty.stderr);
  // `-` is standard output (no file named -).
  const piped = await runCli(["convert", "run", "-", "-"], {
    cwd: dir,
    stdin: "q Q0 a 1 0.3 r\n",
  });
  assertEquals([piped.code, piped.stdout], [0, "q Q0 a 1 0.3 r\n"]);
  assert(!existsSync(`${dir}/-`));
  // Standard output redirected to a file (>>) is written through, never replaced.
  await Deno.writeTextFile(`${dir}/log`, "before\n");
  await Deno.writeTextFile(`${dir}/in.run`, "q Q0 a 1 0.3 r\n");
  const main = new URL("../../lib/cli/main.ts", import.meta.url).pathname;
  const shell = await new Deno.Command("bash", {
    args: ["-c", `"${Deno.execPath()}" run -A "${main}" convert run in.run - >> log`],
    cwd: dir,
    env: { INIT_CWD: dir },
    stderr: "null",
  }).output();
  assertEquals(shell.code, 0);
  assertEquals(await Deno.readTextFile(`${dir}/log`), "before\nq Q0 a 1 0.3 r\n");
  await Deno.remove(`${dir}/log`);
  await Deno.remove(`${dir}/in.run`);
  // --trec-eval 10.0 writes 10.0's order: 0.30000001 above 0.3 (a 32-bit tie in 9.0.8).
  await Deno.writeTextFile(`${dir}/tie.run`, "q Q0 a 1 0.30000001 r\nq Q0 b 2 0.3 r\n");
  const as9 = await runCli(["convert", "run", "tie.run", "-"], { cwd: dir });
  const as10 = await runCli(["convert", "run", "tie.run", "-", "--trec-eval", "10.0"], {
    cwd: dir,
  });
  assertEquals(as9.stdout, "q Q0 b 1 0.3 r\nq Q0 a 2 0.30000001 r\n");
  assertEquals(as10.stdout, "q Q0 a 1 0.30000001 r\nq Q0 b 2 0.3 r\n");
  await Deno.remove(dir, { recursive: true });
});
