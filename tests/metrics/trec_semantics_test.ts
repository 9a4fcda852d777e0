/** Hand-worked cases of trec_eval's semantics (PROTOCOL.md section 1). */
import "../quick.ts";
import { assertClose, assertEquals, assertRejects, assertThrows } from "../assert.ts";
import {
  evaluate,
  evaluateTrecFiles,
  formatTrecEval,
  rankDocuments,
  readQrels,
  readRun,
  selectMeasures,
} from "../../lib/metrics/mod.ts";
import { compareDocnos } from "../../lib/metrics/rank.ts";
import { formatFixedC } from "../../lib/metrics/c_printf.ts";
import { mem } from "../helpers.ts";

const m = (o: Record<string, Record<string, number>>) =>
  new Map(Object.entries(o).map(([q, d]) => [q, new Map(Object.entries(d))]));

Deno.test("ties are broken by docno descending, not by file order or rank column", async () => {
  // d1 is relevant; all three tie. trec_eval order: d3, d2, d1 -> RR = 1/3, AP = 1/3.
  const qrels = mem("q", "1 0 d1 1\n1 0 d2 0\n1 0 d3 0\n");
  const run = mem("r", "1 Q0 d1 1 5 x\n1 Q0 d2 2 5 x\n1 Q0 d3 3 5 x\n");
  const r = await evaluateTrecFiles(qrels, run, ["map", "recip_rank", "P.1"]);
  assertClose(r.summary.recip_rank, 1 / 3);
  assertClose(r.summary.map, 1 / 3);
  assertEquals(r.summary.P_1, 0);
  assertEquals(rankDocuments(new Map([["d1", 5], ["d2", 5], ["d10", 5]])), ["d2", "d10", "d1"]);
});

Deno.test("docno order is strcmp on UTF-8 bytes", () => {
  // U+FF21 (EF BC A1) < U+1F600 (F0 9F 98 80) in UTF-8, though not in UTF-16 code units.
  assertEquals(compareDocnos("\uFF21", "\u{1F600}") < 0, true);
  assertEquals(compareDocnos("B", "a") < 0, true); // uppercase before lowercase
  assertEquals(compareDocnos("ab", "a") > 0, true);
});

Deno.test("a query without relevant documents counts and scores 0 for map and recip_rank", () => {
  const r = evaluate(m({ q1: { a: 1 }, q2: { b: 0 } }), m({ q1: { a: 1 }, q2: { b: 1 } }), [
    "map",
    "recip_rank",
    "Rprec",
    "ndcg_cut.10",
  ]);
  assertEquals(r.numQ, 2);
  assertEquals(r.summary.map, 0.5);
  assertEquals(r.summary.recip_rank, 0.5);
  assertEquals(r.perQuery.get("q2"), { map: 0, Rprec: 0, recip_rank: 0, ndcg_cut_10: 0 });
});

Deno.test("run-only queries are skipped with a warning; qrels-only ones count only with -c", () => {
  const warnings: string[] = [];
  const qrels = m({ q1: { a: 1 }, q2: { b: 1 } });
  const run = m({ q1: { a: 1 }, q9: { z: 1 } });
  const r = evaluate(qrels, run, ["map"], { warn: (w) => warnings.push(w) });
  assertEquals(r.numQ, 1);
  assertEquals(r.summary.map, 1);
  assertEquals(r.runOnlyQueries, ["q9"]);
  assertEquals(warnings.length, 1);
  const c = evaluate(qrels, run, ["map", "num_rel"], { complete: true, warn: false });
  assertEquals(c.numQ, 2);
  assertEquals(c.summary.map, 0.5); // q2 missing from the run scores 0
  assertEquals(c.summary.num_rel, 2);
  assertEquals([...c.perQuery.keys()], ["q1"]); // like trec_eval, no per-query line for q2
  assertEquals(c.missingQueries, ["q2"]);
});

Deno.test("AP divides by all relevant in the qrels; P.k always divides by k", () => {
  const r = evaluate(m({ q: { a: 1, b: 1, c: 1, d: 1 } }), m({ q: { a: 2, x: 1 } }), [
    "map",
    "P.5",
    "Rprec",
    "num_ret",
    "num_rel_ret",
  ]);
  assertEquals(r.summary.map, 0.25);
  assertEquals(r.summary.P_5, 0.2);
  assertEquals(r.summary.Rprec, 0.25); // top min(R, retrieved) = 2, one relevant, / R = 4
  assertEquals(r.summary.num_ret, 2);
  assertEquals(r.summary.num_rel_ret, 1);
});

Deno.test("relevance level changes map but not ndcg_cut", () => {
  const qrels = m({ q: { a: 1, b: 2 } });
  const run = m({ q: { a: 2, b: 1 } });
  const l1 = evaluate(qrels, run, ["map", "ndcg_cut.10"], { relevanceLevel: 1 });
  const l2 = evaluate(qrels, run, ["map", "ndcg_cut.10"], { relevanceLevel: 2 });
  assertEquals(l1.summary.map, 1);
  assertEquals(l2.summary.map, 0.5);
  assertEquals(l1.summary.ndcg_cut_10, l2.summary.ndcg_cut_10);
  // DCG = 1/log2(2) + 2/log2(3); IDCG = 2 + 1/log2(3).
  assertClose(l1.summary.ndcg_cut_10, (1 + 2 / Math.log2(3)) / (2 + 1 / Math.log2(3)));
});

Deno.test("duplicate docnos within a query are rejected with file and line", async () => {
  await assertRejects(
    () => readRun(mem("run.txt", "q Q0 a 1 1 x\nq Q0 b 2 1 x\nq Q0 a 3 0 x\n")),
    /run\.txt:3: duplicate document a for query q/,
  );
  await assertRejects(
    () =>
      evaluateTrecFiles(mem("q", "q 0 a 1\n"), mem("run.txt", "q Q0 a 1 1 x\nq Q0 a 2 1 x\n"), [
        "map",
      ]),
    /run\.txt:2: duplicate document a/,
  );
  const q = await evaluateTrecFiles(
    mem("qrels.txt", "q 0 a 1\nq 0 a 0\n"),
    mem("r", "q Q0 a 1 1 x\n"),
    [
      "map",
    ],
  ).catch((e) => e);
  assertEquals(/qrels\.txt:2: duplicate judgment/.test(String(q)), true);
});

Deno.test("malformed lines name file, line and what was expected", async () => {
  await assertRejects(
    () => readQrels(mem("q.txt", "q 0 a 1\nq 0 b\n")),
    /q\.txt:2: expected 4 fields/,
  );
  await assertRejects(
    () => readQrels(mem("q.txt", "q 0 a x\n")),
    /q\.txt:1: relevance 'x' is not an integer/,
  );
  await assertRejects(() => readRun(mem("r.txt", "q Q0 a 1\n")), /r\.txt:1: expected 6 fields/);
  await assertRejects(() => readRun(mem("r.txt", "q Q0 a 1 abc x\n")), /r\.txt:1: score 'abc'/);
  await assertRejects(() => readRun(mem("r.txt", "q Q0 a 1 NaN x\n")), /is NaN, which trec_eval/);
  await assertRejects(() => readRun(mem("r.txt", "q Q0 a 1 1.5x x\n")), /not a decimal number/);
  await assertRejects(() => readRun(mem("r.txt", "")), /no result lines/);
  await assertRejects(() => readQrels(mem("q.txt", "")), /q\.txt: qrels file has no judgments/);
  await assertRejects(() => readQrels(mem("q.txt", "\n\n")), /q\.txt:1: empty line/);
});

Deno.test("run input: blank lines skipped, extra fields ignored, runid from the last line", async () => {
  const r = await evaluateTrecFiles(
    mem("q", "q 0 a 1\n"),
    mem("r", "\n  \t\nq Q0 a 1 0.5 first extra fields\r\n\r\nq Q0 b 2 0.25 last\n"),
    ["map"],
  );
  assertEquals(r.runId, "last"); // the 6th field of the last line
  assertEquals(r.summary.map, 1);
});

Deno.test("C printf rounding of exact ties at 4 decimals", () => {
  assertEquals(formatFixedC(0.03125), "0.0312"); // 1/32, tie -> even
  assertEquals(formatFixedC(0.09375), "0.0938"); // 3/32, tie -> even
  assertEquals(formatFixedC(0.15625), "0.1562"); // 5/32
  assertEquals(formatFixedC(1 / 3), "0.3333");
  assertEquals(formatFixedC(0.61905), "0.6190"); // binary value just below the tie
  assertEquals(formatFixedC(0.00005), "0.0001"); // just above (0.00005 is not dyadic)
  assertEquals(formatFixedC(1), "1.0000");
  assertEquals(formatFixedC(2.5, 0), "2");
  assertEquals(formatFixedC(3.5, 0), "4");
});

Deno.test("output format is trec_eval's, per-query lines in qid (strcmp) order", () => {
  const r = evaluate(m({ q2: { a: 1 }, q10: { b: 1 } }), m({ q2: { a: 1 }, q10: { b: 1, c: 2 } }), [
    "map",
    "num_ret",
    "runid",
    "num_q",
  ]);
  const text = formatTrecEval(r, { perQuery: true });
  assertEquals(
    text,
    [
      "num_ret               \tq10\t2",
      "map                   \tq10\t0.5000",
      "num_ret               \tq2\t1",
      "map                   \tq2\t1.0000",
      "runid                 \tall\tkit",
      "num_q                 \tall\t2",
      "num_ret               \tall\t3",
      "map                   \tall\t0.7500",
      "",
    ].join("\n"),
  );
});

Deno.test("measure selection: cutoff lists, output names, unknown measures", () => {
  assertEquals(selectMeasures(["ndcg_cut.10", "P.10,5", "map"]).instances.map((i) => i.label), [
    "map",
    "P_5",
    "P_10",
    "ndcg_cut_10",
  ]);
  assertEquals(selectMeasures(["P_5"]).instances.map((i) => i.label), ["P_5"]);
  assertEquals(selectMeasures(["P"]).instances.length, 9);
  assertThrows(() => selectMeasures(["mapp"]), /unknown measure 'mapp'/);
  assertThrows(() => selectMeasures(["map.5"]), /map takes no parameters/);
  assertThrows(() => selectMeasures(["P.0"]), /cutoffs must be positive/);
  assertThrows(() => selectMeasures(["P.5,5"]), /cutoff 5 is given twice/);
  assertThrows(() => selectMeasures(["P."]), /empty parameter list/);
  assertThrows(() => selectMeasures(["utility.1,2"]), /utility takes 4 numbers, got 2/);
  assertThrows(() => selectMeasures(["ndcg.1=2,3"]), /level=gain pairs/);
  assertThrows(() => selectMeasures(["prefs_simp"]), /preference or judgment-group qrels/);
  assertThrows(() => selectMeasures(["all_trec.5"]), /takes no parameters/);
  // trec_eval's parsing: atol cutoffs (23.4 is 23), sorted. Cutoff lists given twice are
  // merged (trec_eval keeps the first); other parameters: the first, with a warning.
  assertEquals(selectMeasures(["ndcg_cut.10,23.4"]).instances.map((i) => i.label), [
    "ndcg_cut_10",
    "ndcg_cut_23",
  ]);
  const warnings: string[] = [];
  const twice = selectMeasures(
    ["P.10", "P.5,10", "utility.1,0,0,0", "utility.2,0,0,0"],
    (w) => warnings.push(w),
  );
  assertEquals(twice.instances.map((i) => i.label), ["P_5", "P_10", "utility_1,0,0,0"]);
  assertEquals(warnings.length, 1);
  // Groups, in trec_eval's table order; ir_measures names after them, in the order given.
  assertEquals(selectMeasures(["official"]).instances.length, 2 + 3 + 5 + 11 + 9);
  assertEquals(
    selectMeasures(["nDCG@10", "P_5", "AP"]).instances.map((i) => i.label),
    ["P_5", "nDCG@10", "AP"],
  );
});

Deno.test("no query in common is an error, not a silent zero", () => {
  assertThrows(
    () => evaluate(m({ a: { x: 1 } }), m({ b: { x: 1 } }), ["map"], { warn: false }),
    /no query has both/,
  );
});

Deno.test("tolerant mode (opt-in) skips malformed lines, counts them, and still rejects duplicates", async () => {
  const qrels = mem("q.txt", "q 0 a 1\nq 0 b x\nq 0 c\nq 0 d 0\n");
  const run = mem("r.txt", "q Q0 a 1 0.9 r\nq Q0 b 2 NaN r\nq Q0 c 3\nq Q0 d 4 0.1 r\n");
  const r = await evaluateTrecFiles(qrels, run, ["map", "num_ret", "num_rel"], {
    skipBadLines: true,
    warn: false,
  });
  assertEquals(r.summary.num_ret, 2); // a and d
  assertEquals(r.summary.num_rel, 1); // b's judgment was skipped
  assertEquals(r.summary.map, 1);
  assertEquals(r.skipped!.qrels.count, 2);
  assertEquals(r.skipped!.run.count, 2);
  assertEquals(
    r.skipped!.qrels.examples[0],
    "q.txt:2: relevance 'x' is not an integer: trec_eval would read it as 0 (its atol stops at " +
      "the first character that is not a digit) (expected: qid iter docno relevance)",
  );
  assertEquals(
    r.skipped!.run.examples[1],
    "r.txt:3: expected 6 fields (qid Q0 docno rank score runid), found 4",
  );
  // Counted once whatever the chunk size: a chunk's last query block is parsed again with
  // the next chunk, bad lines included. 80 lines, every other one bad: one query (the block
  // spans every chunk), then ten queries of 8 lines.
  for (const queries of [1, 10]) {
    const text = Array.from({ length: 20 }, (_, i) => {
      const q = `q${Math.floor(i * queries / 20)}`;
      return `${q} Q0 a${i} 1 0.9 r\n${q} Q0 b${i} 2 NaN r\n${q} Q0 c${i} 3\n${q} Q0 d${i} 4 0.1 r\n`;
    }).join("");
    for (const chunkBytes of [48, 64, 200, 1 << 20]) {
      const judged = Array.from({ length: queries }, (_, q) => `q${q} 0 a0 1\n`).join("");
      const t = await evaluateTrecFiles(mem("q", judged), mem("r.txt", text), ["num_ret"], {
        skipBadLines: true,
        warn: false,
        threads: 1,
        chunkBytes,
      });
      assertEquals(t.skipped!.run.count, 40, `${queries} queries, chunkBytes ${chunkBytes}`);
    }
  }
  // Strict by default; duplicates are never skipped.
  await assertRejects(() => evaluateTrecFiles(qrels, run, ["map"]), /q\.txt:2: relevance 'x'/);
  await assertRejects(
    () =>
      evaluateTrecFiles(mem("q", "q 0 a 1\n"), mem("r", "q Q0 a 1 1 r\nq Q0 a 2 1 r\n"), ["map"], {
        skipBadLines: true,
      }),
    /duplicate document a/,
  );
});

Deno.test("scores beyond the 32-bit floats tie at +inf in 9.0.8 on every path (issue 28, item 1)", async () => {
  // trec_eval 9.0.8 (binary): 1e300 and 3.5e38 are both +inf as floats, a tie, b > a by
  // docno: RR 0.5. Before, the ungrouped and JSON paths compared inf - inf = NaN and gave 1.
  const qrels = "1 0 a 1\n";
  const ungrouped = "1 Q0 c 1 0.002 r\n1 Q0 a 1 1e300 r\n2 Q0 x 1 1 r\n1 Q0 b 2 3.5e38 r\n";
  const json = '{"1":{"c":0.002,"a":1e300,"b":3.5e38}}';
  const grouped = "1 Q0 c 1 0.002 r\n1 Q0 a 1 1e300 r\n1 Q0 b 2 3.5e38 r\n";
  for (const [name, run] of [["r.txt", ungrouped], ["r.json", json], ["g.txt", grouped]]) {
    const r = await evaluateTrecFiles(mem("q.txt", qrels), mem(name, run), ["recip_rank"], {
      warn: false,
    });
    assertEquals(r.summary.recip_rank, 0.5, name);
    const m = evaluate(await readQrels(mem("q.txt", qrels)), await readRun(mem(name, run)), [
      "recip_rank",
    ]);
    assertEquals(m.summary.recip_rank, 0.5, `${name} (evaluate)`);
  }
  // As doubles (10.0) 1e300 > 3.5e38: a first, RR 1.
  const r10 = await evaluateTrecFiles(mem("q.txt", qrels), mem("r.json", json), ["recip_rank"], {
    release: "10.0",
  });
  assertEquals(r10.summary.recip_rank, 1);
});

Deno.test("-c: a duplicate judgment in a query the run lacks counts twice in 9.0.8, stops 10.0", async () => {
  // trec_eval 9.0.8 (binary): num_q 2, num_rel 4, map 0.5000; trec_eval 10.0 stops
  // ("duplicate docs a"), as it evaluates the missing query.
  const qrels = "1 0 a 1\n2 0 a 1\n2 0 a 1\n2 0 b 2\n";
  for (const run of ["1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n", '{"1": {"a": 2, "b": 1}}']) {
    const name = run.startsWith("{") ? "r.json" : "r.txt";
    const r = await evaluateTrecFiles(mem("q", qrels), mem(name, run), ["num_rel", "map"], {
      complete: true,
    });
    assertEquals([r.numQ, r.summary.num_rel, r.summary.map], [2, 4, 0.5], name);
    await assertRejects(
      () =>
        evaluateTrecFiles(mem("q", qrels), mem(name, run), ["map"], {
          complete: true,
          release: "10.0",
        }),
      /duplicate judgment for query 2, document a/,
    );
  }
  // Without -c the query is not looked at, in both releases' file readers.
  const r = await evaluateTrecFiles(mem("q", qrels), mem("r", "1 Q0 a 1 2 r\n"), ["map"]);
  assertEquals(r.numQ, 1);
});

Deno.test("-m '' is an illegal measure, as trec_eval says", () => {
  assertThrows(() => selectMeasures([""]), /illegal measure ''/);
});

Deno.test("--trec-eval 10.0 -q -c prints each qrels query missing from the run, as 10.0 does", async () => {
  // trec_eval 10.0 (binary, -q -c -m map -m num_q -m num_rel -m relstring -l 2):
  const want = [
    "num_rel               \t1\t0",
    "map                   \t1\t0.0000",
    "relstring             \t1\t'1-'",
    "num_rel               \t2\t1",
    "map                   \t2\t0.0000",
    "relstring             \t2\t''",
    "num_q                 \tall\t2",
    "num_rel               \tall\t3",
    "map                   \tall\t0.0000",
    "",
  ].join("\n");
  const qrels = "1 0 a 1\n2 0 a 2\n2 0 b 1\n";
  for (const run of ["1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n", '{"1": {"a": 2, "b": 1}}']) {
    const name = run.startsWith("{") ? "r.json" : "r.txt";
    const options = { complete: true, release: "10.0", relevanceLevel: 2 } as const;
    const measures = ["num_q", "num_rel", "map", "relstring"];
    const r = await evaluateTrecFiles(mem("q", qrels), mem(name, run), measures, options);
    assertEquals(formatTrecEval(r, { perQuery: true }), want, name);
    // 9.0.8 prints no line for query 2.
    const r9 = await evaluateTrecFiles(mem("q", qrels), mem(name, run), measures, {
      ...options,
      release: "9.0.8",
    });
    assertEquals(formatTrecEval(r9, { perQuery: true }).includes("\t2\t"), false);
  }
});

Deno.test("--trec-eval 10.0 -q -c: only the exact names utility, num_ret, relstring are cleared for a missing query", async () => {
  // trec_eval 10.0 (binary) on this pair, each -m alone under -q -c: utility q2 0.0000, all
  // 0.5000; utility.1,-1,0,0 q2 -1.0000, all 0.0000; utility.2,-1,0,0 q2 -1.0000, all 0.5000;
  // relstring q2 ''; relstring.3 q2 '-' (its stand-in document, unjudged).
  const qrels = "q1 0 d1 1\nq2 0 d1 1\n";
  const run = "q1 Q0 d1 1 1 r\n";
  const want: [string, string, string][] = [
    ["utility", "0.0000", "0.5000"],
    ["utility.1,-1,0,0", "-1.0000", "0.0000"],
    ["utility.2,-1,0,0", "-1.0000", "0.5000"],
    ["relstring", "''", ""],
    ["relstring.3", "'-'", ""],
  ];
  for (const [measure, q2, all] of want) {
    const r = await evaluateTrecFiles(mem("q", qrels), mem("r", run), [measure], {
      complete: true,
      release: "10.0",
    });
    const lines = formatTrecEval(r, { perQuery: true }).split("\n");
    const value = (qid: string) => lines.find((l) => l.split("\t")[1] === qid)?.split("\t")[2];
    assertEquals(value("q2"), q2, measure);
    if (all) assertEquals(value("all"), all, measure);
  }
});

Deno.test("-M: a duplicate docno below the first M documents is no error, as in trec_eval", async () => {
  // trec_eval 9.0.8 (binary): -M 1 -m P.1 gives P_1 1.0000; -M 3 stops on "duplicate docs b".
  const qrels = "1 0 a 1\n1 0 b 0\n2 0 a 1\n";
  const run = "1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n1 Q0 b 3 1 r\n";
  for (const maxDocs of [1, 2]) {
    const r = await evaluateTrecFiles(mem("q", qrels), mem("r", run), ["P.1"], { maxDocs });
    assertEquals(r.summary.P_1, 1);
  }
  await assertRejects(
    () => evaluateTrecFiles(mem("q", qrels), mem("r", run), ["P.1"], { maxDocs: 3 }),
    /r:3: duplicate document b for query 1/,
  );
  // A run not grouped by query is regrouped and read the same way.
  const ungrouped = "1 Q0 b 3 1 r\n2 Q0 a 1 1 r\n1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n";
  const u = await evaluateTrecFiles(mem("q", qrels), mem("r", ungrouped), ["P.1"], {
    maxDocs: 1,
    warn: false,
  });
  assertEquals(u.summary.P_1, 1); // trec_eval 9.0.8 (binary): P_1 1.0000
  await assertRejects(
    () =>
      evaluateTrecFiles(mem("q", qrels), mem("r", ungrouped), ["P.1"], {
        maxDocs: 3,
        warn: false,
      }),
    /r:4: duplicate document b for query 1/,
  );
});

Deno.test("a docno twice in a query the qrels lack is not looked at, as in trec_eval", async () => {
  // trec_eval 9.0.8 (binary) evaluates query 10 and never reads query 1's lines.
  const qrels = "10 0 a 0\n";
  for (
    const run of [
      "1 Q0 a 1 1 r\n10 Q0 a 2 1 r\n1 Q0 a 3 -5 r\n",
      "1 Q0 a 1 1 r\n1 Q0 a 2 -5 r\n10 Q0 a 1 1 r\n",
    ]
  ) {
    const r = await evaluateTrecFiles(mem("q", qrels), mem("r", run), ["num_ret"], { warn: false });
    assertEquals(r.summary.num_ret, 1);
  }
});

Deno.test("a query with only negative judgments is evaluated with nothing relevant, and a warning says trec_eval stops on it", async () => {
  // trec_eval 9.0.8 and 10.0 size their counts per level by a query's highest judgment and
  // cannot evaluate such a query ("Can't calculate measure", or a crash).
  const qrels = ["q1 0 d1 -1", "q1 0 d2 -2", "q7 0 d1 -1", "q2 0 d1 1"];
  const run: string[] = [];
  // Enough lines to cut the run in halves; q7 last, so that the worker's half has it.
  for (const q of [...Array.from({ length: 400 }, (_, i) => i + 1).filter((q) => q !== 7), 7]) {
    for (let d = 1; d <= 5; d++) run.push(`q${q} Q0 d${d} ${d} ${1 / d} r`);
  }
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/qrels`, qrels.join("\n") + "\n");
  await Deno.writeTextFile(`${dir}/run`, run.join("\n") + "\n");
  const expected = "warning: 2 queries have only negative judgments: q1, q7; trec_eval stops on " +
    'them ("Can\'t calculate measure", or a crash), the kit evaluates them with nothing relevant';
  for (const threads of [1, 2]) {
    for (const firstShare of [0.3, 0.5, 0.9]) {
      const said: string[] = [];
      const routes: string[] = [];
      const r = await evaluateTrecFiles(`${dir}/qrels`, `${dir}/run`, ["map", "num_ret"], {
        threads,
        parallelMinBytes: 0,
        firstShare,
        warn: (m) => said.push(m),
        onRoute: (route) => routes.push(route),
      });
      assertEquals(routes, [threads === 2 ? "halves" : "one thread"]);
      assertEquals(said.filter((m) => m.includes("negative")), [expected]);
      assertEquals(r.perQuery.get("q1")?.map, 0);
      assertEquals(r.summary.num_ret, 15);
      assertClose(r.summary.map, 1 / 3);
    }
  }
  const said: string[] = [];
  evaluate(await readQrels(`${dir}/qrels`), await readRun(`${dir}/run`), ["map"], {
    warn: (m) => said.push(m),
  });
  assertEquals(said.filter((m) => m.includes("negative")), [expected]);
});
