import { assert, assertEquals, assertRejects } from "../assert.ts";
import fc from "fast-check";
import {
  evaluate,
  evaluateTrecFiles,
  formatQrels,
  formatRun,
  type TrecRelease,
  trecScore,
} from "../../lib/metrics/mod.ts";
import { gzipSync } from "node:zlib";
import { QrelsIndex } from "../../lib/metrics/engine/qrels_index.ts";
import { mem } from "../helpers.ts";
import {
  type Judgments,
  REFERENCE_MEASURES,
  referenceEvaluate,
  type Scores,
} from "../../lib/metrics/measures/reference.ts";

const qid = fc.constantFrom("q1", "q2", "q3", "q10", "q11", "q7");
const docno = fc.constantFrom("a", "b", "c", "d", "e", "f", "g", "h", "d1", "d10", "d2", "Z");
// Few distinct scores so ties are everywhere; negative and large ones too.
// 0.3 and 0.30000001 are one 32-bit float: a tie for trec_eval 9.0.8, not for 10.0.
const score = fc.constantFrom(0, 1, 1, 2, 2.5, -1, 1e-9, 3, 1e6, 0.3, 0.30000001);
const rel = fc.constantFrom(0, 0, 1, 1, 2, 3, -1);

const judgments = fc.dictionary(qid, fc.dictionary(docno, rel, { minKeys: 0, maxKeys: 8 }), {
  minKeys: 1,
  maxKeys: 5,
});
const scores = fc.dictionary(qid, fc.dictionary(docno, score, { minKeys: 1, maxKeys: 10 }), {
  minKeys: 1,
  maxKeys: 5,
});

function toMaps(x: Record<string, Record<string, number>>): Map<string, Map<string, number>> {
  return new Map(Object.entries(x).map(([q, d]) => [q, new Map(Object.entries(d))]));
}

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-12;
}

function checkAgainstReference(
  got: {
    numQ: number;
    summary: Record<string, number>;
    perQuery: Map<string, Record<string, number>>;
  },
  want: ReturnType<typeof referenceEvaluate>,
) {
  assertEquals(got.numQ, want.numQ);
  for (const [m, v] of Object.entries(want.summary)) {
    assert(close(got.summary[m], v), `${m}: got ${got.summary[m]}, want ${v}`);
  }
  assertEquals([...got.perQuery.keys()].sort(), Object.keys(want.perQuery).sort());
  for (const [q, row] of Object.entries(want.perQuery)) {
    for (const [m, v] of Object.entries(row)) {
      assert(
        close(got.perQuery.get(q)![m], v as number),
        `${q} ${m}: got ${got.perQuery.get(q)![m]}, want ${v}`,
      );
    }
  }
}

function hasCommonQuery(q: Judgments, r: Scores): boolean {
  return Object.keys(r).some((k) => k in q);
}

/** The run as `release` stores its scores (the reference ranks what it is given). */
function asStored(r: Scores, release: TrecRelease): Scores {
  return Object.fromEntries(
    Object.entries(r).map(([q, d]) => [
      q,
      Object.fromEntries(Object.entries(d).map(([doc, s]) => [doc, trecScore(s, release)])),
    ]),
  );
}

const release = fc.constantFrom<TrecRelease>("9.0.8", "10.0");

/**
 * The measures checked under `release`: 10.0's own too (set_P before rbp overwrites what
 * ndcg_cut leaves in the two variables 10.0's rbp never sets).
 */
const measuresOf = (release: TrecRelease) =>
  release === "10.0"
    ? [...REFERENCE_MEASURES, "set_P", "rbp.p=0.8,2=3", "rbp_resid", "unj.1,3"]
    : REFERENCE_MEASURES;

Deno.test("every measure equals its brute-force definition on random tied runs (in memory)", () => {
  let runs = 0;
  fc.assert(
    fc.property(
      judgments,
      scores,
      fc.boolean(),
      fc.constantFrom(1, 2),
      release,
      (q, r, complete, level, rel) => {
        fc.pre(hasCommonQuery(q, r));
        fc.pre(rel === "9.0.8" || complete || Object.keys(q).every((k) => k in r));
        runs++;
        const got = evaluate(toMaps(q), toMaps(r), measuresOf(rel), {
          complete,
          relevanceLevel: level,
          warn: false,
          release: rel,
        });
        checkAgainstReference(
          got,
          referenceEvaluate(q, asStored(r, rel), measuresOf(rel), {
            complete,
            release: rel,
            relevanceLevel: level,
          }),
        );
      },
    ),
    { numRuns: 400, seed: 20261129 },
  );
  assert(runs > 100);
});

Deno.test("the streaming file evaluator agrees with the reference, grouped or shuffled lines", async () => {
  await fc.assert(
    fc.asyncProperty(
      judgments,
      scores,
      fc.boolean(),
      fc.integer(),
      fc.constantFrom(16, 40, 64, 1 << 22),
      release,
      async (q0, r, complete, seed, chunkBytes, rel) => {
        // A qrels file cannot express a query without judgment lines.
        const q = Object.fromEntries(
          Object.entries(q0).filter(([, d]) => Object.keys(d).length > 0),
        );
        fc.pre(hasCommonQuery(q, r));
        fc.pre(rel === "9.0.8" || complete || Object.keys(q).every((k) => k in r));
        const qrelsText = [...formatQrels(toMaps(q))].join("");
        let runLines = [...formatRun(toMaps(r), "t")].join("").split("\n").filter(Boolean);
        // Half the cases keep the run grouped by query (read block by block); half shuffle its
        // lines (read into memory, `evaluate`): the rank column and file order must not
        // matter. Tiny read buffers make query blocks and lines cross buffer edges.
        let s = seed >>> 0;
        if (seed % 2 === 0) {
          runLines = runLines.map((l) => [s = (s * 1103515245 + 12345) >>> 0, l] as const)
            .sort((a, b) => a[0] - b[0]).map(([, l]) => l);
        }
        const got = await evaluateTrecFiles(
          mem("qrels", qrelsText),
          mem("run", runLines.join("\n") + "\n"),
          measuresOf(rel),
          { complete, warn: false, chunkBytes, release: rel },
        );
        checkAgainstReference(
          got,
          referenceEvaluate(q, asStored(r, rel), measuresOf(rel), {
            complete,
            release: rel,
            relevanceLevel: 1,
          }),
        );
      },
    ),
    { numRuns: 400, seed: 7 },
  );
});

Deno.test("metric values stay in [0, 1]", () => {
  fc.assert(
    fc.property(judgments, scores, (q, r) => {
      fc.pre(hasCommonQuery(q, r));
      const got = evaluate(toMaps(q), toMaps(r), [
        "map",
        "recip_rank",
        "P.5",
        "ndcg_cut.10",
        "Rprec",
      ], {
        warn: false,
      });
      for (const v of Object.values(got.summary)) assert(v >= 0 && v <= 1);
    }),
    { numRuns: 200, seed: 3 },
  );
});

Deno.test("two threads give the same results as one, errors keep absolute line numbers", async () => {
  const dir = await Deno.makeTempDir();
  // 300 queries, ties everywhere, some run-only and some qrels-only queries.
  const q: string[] = [], r: string[] = [];
  for (let i = 0; i < 300; i++) {
    for (let j = 0; j < 20; j++) {
      if (i % 17 !== 3) q.push(`q${i} 0 d${j} ${(i * j) % 3}`);
      if (i % 13 !== 5) r.push(`q${i} Q0 d${j} ${j + 1} ${(40 - j) >> 2} run`);
    }
  }
  await Deno.writeTextFile(`${dir}/qrels`, q.join("\n") + "\n");
  await Deno.writeTextFile(`${dir}/run`, r.join("\n") + "\n");
  const measures = ["num_ret", "map", "recip_rank", "P.5", "ndcg_cut.10", "Rprec", "relstring"];
  for (const complete of [false, true]) {
    // The cut anywhere in either file (inside a query's judgments too).
    for (const firstShare of [0.05, 0.3, 0.55, 0.77, 0.95]) {
      const two = await assertTwoThreadsAgree(`${dir}/qrels`, `${dir}/run`, measures, {
        complete,
        chunkBytes: 4096,
        firstShare,
      });
      assertEquals(two.runId, "run");
    }
  }
  // The cut's share is checked (NaN once spun forever looking for a line start).
  for (const firstShare of [NaN, -0.5, 0, 1, 1.5, Infinity]) {
    await assertRejects(
      () =>
        evaluateTrecFiles(`${dir}/qrels`, `${dir}/run`, ["map"], {
          threads: 2,
          parallelMinBytes: 0,
          firstShare,
        }),
      /firstShare must be between 0 and 1/,
    );
  }
  // A docno judged twice, once in each half of the qrels: the one-thread message.
  await Deno.writeTextFile(`${dir}/twice`, [...q, q[3]].join("\n") + "\n");
  const message = await evaluateTrecFiles(`${dir}/twice`, `${dir}/run`, ["map"], { warn: false })
    .then(() => "", (e) => String(e));
  assert(message.includes("twice"), message);
  for (const firstShare of [0.3, 0.9]) {
    const two = await evaluateTrecFiles(`${dir}/twice`, `${dir}/run`, ["map"], {
      threads: 2,
      parallelMinBytes: 0,
      warn: false,
      firstShare,
    }).then(() => "", (e) => String(e));
    assertEquals(two, message);
  }
  // A bad line in the second half is reported with its line in the whole file.
  const bad = [...r];
  bad[5000] = "q250 Q0 d0 1 NaN run";
  await Deno.writeTextFile(`${dir}/bad`, bad.join("\n") + "\n");
  await assertRejects(
    () =>
      evaluateTrecFiles(`${dir}/qrels`, `${dir}/bad`, ["map"], {
        threads: 2,
        parallelMinBytes: 0,
        warn: false,
      }),
    new RegExp(`bad:5001: score 'NaN'`),
  );
  // A run whose query comes back in the other half is not grouped: same results as one thread
  // (read again on one thread).
  await Deno.writeTextFile(`${dir}/ungrouped`, [...r, "q0 Q0 extra 1 9 run"].join("\n") + "\n");
  await assertTwoThreadsAgree(`${dir}/qrels`, `${dir}/ungrouped`, measures, {}, "one thread");

  // One query's lines (about 290 KB) across the middle of the run, and a 90 KB qrels line
  // there: the cuts are looked for in 64 KiB first, then in 4 MiB, and still found.
  const long = Array.from({ length: 10000 }, (_, j) => `qlong Q0 doc${j} ${j + 1} ${j % 7} run`);
  const longRun = [...r.slice(0, 2000), ...long, ...r.slice(2000)];
  const wide = `q${"w".repeat(30000)} 0 ${"d".repeat(60000)} 1`;
  const longQrels = [...q.slice(0, 2500), wide, ...q.slice(2500)];
  await Deno.writeTextFile(`${dir}/long-run`, longRun.join("\n") + "\n");
  await Deno.writeTextFile(`${dir}/long-qrels`, longQrels.join("\n") + "\n");
  const runBytes = (await Deno.stat(`${dir}/long-run`)).size;
  const qrelsBytes = (await Deno.stat(`${dir}/long-qrels`)).size;
  const middleOf = (lines: string[], from: number) =>
    lines.slice(0, from).reduce((n, l) => n + l.length + 1, 0);
  for (
    const firstShare of [
      (middleOf(longRun, 2000) + 100_000) / runBytes, // inside qlong, 190 KB from its end
      (middleOf(longQrels, 2500) + 5_000) / qrelsBytes, // 85 KB before the wide line's end
    ]
  ) {
    await assertTwoThreadsAgree(`${dir}/long-qrels`, `${dir}/long-run`, measures, { firstShare });
  }
});

Deno.test("10.0's '#' lines in the qrels, two or three in a row, read the same on two threads, any cut", async () => {
  // get_qrels.c (10.0) skips a '#' line, then parses the next line whatever it is: the second
  // of two '#' lines is a judgment ('#q5 0 d1 1' judges query '#q5'). The worker must not begin
  // on a '#' line, whose meaning depends on the line before.
  const dir = await Deno.makeTempDir();
  const q: string[] = [], r: string[] = [];
  for (let i = 0; i < 200; i++) {
    if (i % 7 === 0) q.push("# a comment", `#q${i} 0 d1 1`); // the second is data
    if (i % 11 === 0) q.push("# one", `#q${i} 0 d2 1`, "# three (skipped again)");
    for (let j = 0; j < 10; j++) {
      q.push(`q${i} 0 d${j} ${(i + j) % 3}`);
      r.push(`q${i} Q0 d${j} ${j + 1} ${(20 - j) >> 1} run`);
    }
  }
  await Deno.writeTextFile(`${dir}/qrels`, q.join("\n") + "\n");
  await Deno.writeTextFile(`${dir}/run`, r.join("\n") + "\n");
  const measures = ["num_q", "map", "P.5", "num_rel"];
  for (const firstShare of [0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95]) {
    const two = await assertTwoThreadsAgree(`${dir}/qrels`, `${dir}/run`, measures, {
      complete: true,
      release: "10.0",
      chunkBytes: 2048,
      firstShare,
    });
    // 200 queries and the '#q' queries (every 7th and every 11th, both at 0 and 77, 154).
    assertEquals(two.numQ, 200 + 29 + 19 - 3);
  }
});

/**
 * Evaluates on one thread, then with two threads (the halves cut at `firstShare`): asserts the
 * route taken (`halves`, or `one thread` when they gave up) and the same results; returns them.
 */
async function assertTwoThreadsAgree(
  qrels: string,
  run: string,
  measures: string[],
  options: {
    complete?: boolean;
    chunkBytes?: number;
    firstShare?: number;
    release?: "9.0.8" | "10.0";
  },
  route: "halves" | "one thread" = "halves",
) {
  const one = await evaluateTrecFiles(qrels, run, measures, {
    complete: options.complete,
    release: options.release,
    warn: false,
  });
  const routes: string[] = [];
  const two = await evaluateTrecFiles(qrels, run, measures, {
    ...options,
    warn: false,
    threads: 2,
    parallelMinBytes: 0,
    onRoute: (r) => routes.push(r),
  });
  assertEquals(routes, [route]);
  assertEquals(two.summary, one.summary);
  assertEquals([...two.perQuery], [...one.perQuery]);
  assertEquals([...two.perQueryText], [...one.perQueryText]);
  assertEquals(two.runOnlyQueries, one.runOnlyQueries);
  assertEquals(two.missingQueries, one.missingQueries);
  return two;
}

// Many queries, qrels in any order (the run's, reversed, shuffled by query, shuffled
// lines), read through tiny buffers: the qrels are read whole, so order never matters.
const manyQids = fc.constantFrom(...Array.from({ length: 30 }, (_, i) => `q${i}`));
const manyJudgments = fc.dictionary(
  manyQids,
  fc.dictionary(docno, rel, { minKeys: 1, maxKeys: 8 }),
  { minKeys: 1, maxKeys: 30 },
);
const manyScores = fc.dictionary(
  manyQids,
  fc.dictionary(docno, score, { minKeys: 1, maxKeys: 10 }),
  { minKeys: 1, maxKeys: 30 },
);

/** Qrels lines in the run's query order, reversed, shuffled by query, or shuffled lines. */
function orderQrels(
  q: Record<string, Record<string, number>>,
  runOrder: string[],
  how: number,
  seed: number,
): string {
  let s = seed >>> 0;
  const rand = () => (s = (s * 1103515245 + 12345) >>> 0);
  const qids = Object.keys(q);
  const byRun = [...qids].sort((a, b) => {
    const ia = runOrder.indexOf(a), ib = runOrder.indexOf(b);
    return (ia < 0 ? 1e9 : ia) - (ib < 0 ? 1e9 : ib) || (a < b ? -1 : 1);
  });
  const order = how === 0
    ? byRun
    : how === 1
    ? byRun.reverse()
    : byRun.map((x) => [rand(), x] as const).sort((a, b) => a[0] - b[0]).map(([, x]) => x);
  let lines = order.flatMap((qid) => Object.entries(q[qid]).map(([d, r]) => `${qid} 0 ${d} ${r}`));
  if (how === 3) {
    lines = lines.map((l) => [rand(), l] as const).sort((a, b) => a[0] - b[0]).map(([, l]) => l);
  }
  return lines.join("\n") + "\n";
}

Deno.test("qrels in any order, through tiny buffers, give the reference's results", async () => {
  await fc.assert(
    fc.asyncProperty(
      manyJudgments,
      manyScores,
      fc.boolean(),
      fc.integer({ min: 0, max: 3 }),
      fc.integer(),
      fc.constantFrom(16, 64, 1 << 22),
      async (q, r, complete, how, seed, chunkBytes) => {
        fc.pre(hasCommonQuery(q, r));
        const got = await evaluateTrecFiles(
          mem("qrels", orderQrels(q, Object.keys(r), how, seed)),
          mem("run", [...formatRun(toMaps(r), "t")].join("")),
          REFERENCE_MEASURES,
          { complete, warn: false, chunkBytes },
        );
        checkAgainstReference(
          got,
          referenceEvaluate(q, asStored(r, "9.0.8"), REFERENCE_MEASURES, {
            complete,
            relevanceLevel: 1,
          }),
        );
      },
    ),
    { numRuns: 300, seed: 11 },
  );
});

// The packed records' two forms (qrels_index.ts): short for at most 14 shared and 3 new docno
// bytes with a relevance of 0-2, long for the rest; each limit crossed on both sides, and a
// relevance outside one byte's range, through small read buffers and record chunks.
const longDocno = fc.tuple(
  fc.constantFrom("", "d", "LA0101-", "clueweb09-en0000", "clueweb09-en0000-00-", "x".repeat(300)),
  fc.stringMatching(/^[a-z0-9]{1,6}$/),
).map(([prefix, rest]) => prefix + rest);
const anyRelevance = fc.constantFrom(
  -2147483647,
  -129,
  -128,
  -127,
  -1,
  0,
  1,
  2,
  3,
  127,
  128,
  255,
  2147483647,
);

Deno.test("the packed qrels give back every judgment, short and long records", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.dictionary(
        fc.constantFrom("q1", "q2", "q3"),
        fc.dictionary(longDocno, anyRelevance, { minKeys: 1, maxKeys: 40 }),
        { minKeys: 1, maxKeys: 3 },
      ),
      fc.boolean(),
      fc.constantFrom(64, 1 << 16),
      async (q, sorted, chunkBytes) => {
        const lines = Object.entries(q).flatMap(([qid, docs]) =>
          (sorted ? Object.keys(docs).sort() : Object.keys(docs)).map((d) =>
            `${qid} 0 ${d} ${docs[d]}\n`
          )
        );
        const index = await QrelsIndex.read(mem("qrels", lines.join("")), { chunkBytes });
        for (const [qid, docs] of Object.entries(q)) {
          assertEquals(index.judgments(qid), new Map(Object.entries(docs)));
        }
      },
    ),
    { numRuns: 200, seed: 26 },
  );
});

Deno.test("reading in halves gives the reference's results, any cut, small buffers and all", async () => {
  const dir = await Deno.makeTempDir();
  let halves = 0, cases = 0;
  await fc.assert(
    fc.asyncProperty(
      manyJudgments,
      manyScores,
      fc.boolean(),
      fc.integer({ min: 0, max: 3 }),
      fc.constantFrom(32, 64, 1 << 22),
      release,
      fc.integer({ min: 1, max: 19 }),
      async (q, r, complete, how, chunkBytes, rel, twentieths) => {
        fc.pre(hasCommonQuery(q, r));
        fc.pre(rel === "9.0.8" || complete || Object.keys(q).every((k) => k in r));
        await Deno.writeTextFile(`${dir}/run`, [...formatRun(toMaps(r), "t")].join(""));
        await Deno.writeTextFile(`${dir}/qrels`, orderQrels(q, Object.keys(r), how, 5));
        const got = await evaluateTrecFiles(`${dir}/qrels`, `${dir}/run`, measuresOf(rel), {
          complete,
          warn: false,
          chunkBytes,
          threads: 2,
          parallelMinBytes: 0,
          release: rel,
          firstShare: twentieths / 20,
          onRoute: (route) => {
            cases++;
            if (route === "halves") halves++;
          },
        });
        checkAgainstReference(
          got,
          referenceEvaluate(q, asStored(r, rel), measuresOf(rel), {
            complete,
            release: rel,
            relevanceLevel: 1,
          }),
        );
      },
    ),
    { numRuns: 60, seed: 13 },
  );
  // Most cases cut both files (one query spanning the cut, or a cut past the last query
  // start, read on one thread).
  assert(halves >= cases / 2, `${halves} of ${cases} read in halves`);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("every kind of source gives the same results: bytes, file, gzip, multi-member gzip, JSON", async () => {
  const q: string[] = [], r: string[] = [];
  for (let i = 0; i < 300; i++) {
    for (let j = 0; j < 12; j++) {
      if (i % 11 !== 4) q.push(`q${i} 0 d${j} ${(i + j) % 3}`);
      if (i % 7 !== 2) r.push(`q${i} Q0 d${j} ${j + 1} ${(30 - j) >> 2} run`);
    }
  }
  const measures = ["map", "recip_rank", "P.5", "ndcg_cut.10", "Rprec"];
  const qrelsText = q.join("\n") + "\n", runText = r.join("\n") + "\n";
  const half = runText.indexOf("\nq150 ") + 1;
  const enc = new TextEncoder();
  // Two gzip members, as `cat a.gz b.gz` or appending with Python's gzip.open(.., "at") make.
  const twoMembers = new Uint8Array([
    ...gzipSync(enc.encode(runText.slice(0, half))),
    ...gzipSync(enc.encode(runText.slice(half))),
  ]);
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/run`, runText);
  await Deno.writeFile(`${dir}/run.gz`, twoMembers);
  await Deno.writeFile(`${dir}/qrels.gz`, gzipSync(enc.encode(qrelsText)));
  const json = (text: string, cols: [number, number]) => {
    const m = new Map<string, Map<string, number>>();
    for (const line of text.trim().split("\n")) {
      const f = line.split(" ");
      if (!m.has(f[0])) m.set(f[0], new Map());
      m.get(f[0])!.set(f[cols[0]], Number(f[cols[1]]));
    }
    return JSON.stringify(Object.fromEntries([...m].map(([k, v]) => [k, Object.fromEntries(v)])));
  };
  await Deno.writeTextFile(`${dir}/run.json`, json(runText, [2, 4]));
  await Deno.writeTextFile(`${dir}/qrels.json`, json(qrelsText, [2, 3]));
  for (const complete of [false, true]) {
    const opts = { complete, warn: false as const, chunkBytes: 256 };
    const want = await evaluateTrecFiles(mem("qrels", qrelsText), mem("run", runText), measures, {
      complete,
      warn: false,
    });
    for (
      const [qrels, run, extra] of [
        [`${dir}/qrels.gz`, `${dir}/run`, { threads: 1 }],
        [`${dir}/qrels.gz`, `${dir}/run`, { threads: 2, parallelMinBytes: 0 }],
        [mem("qrels", qrelsText), `${dir}/run.gz`, { threads: 1 }],
        [mem("qrels", qrelsText), `${dir}/run.gz`, { threads: 2, parallelMinBytes: 0 }],
        [`${dir}/qrels.json`, `${dir}/run.json`, {}],
        [`${dir}/qrels.json`, `${dir}/run`, {}],
      ] as const
    ) {
      const got = await evaluateTrecFiles(qrels, run, measures, { ...opts, ...extra });
      assertEquals(got.summary, want.summary);
      assertEquals([...got.perQuery], [...want.perQuery]);
      assertEquals(got.runOnlyQueries, want.runOnlyQueries);
      assertEquals(got.missingQueries.sort(), want.missingQueries.sort());
    }
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a bad qrels line is named with its line while a worker reads the run", async () => {
  const dir = await Deno.makeTempDir();
  const lines = Array.from({ length: 400 }, (_, i) => `q${i >> 2} 0 d${i} ${i % 3}`);
  await Deno.writeTextFile(`${dir}/run`, "q1 Q0 d4 1 1 r\n");
  for (
    const [at, line, says] of [
      [300, "q75 0 d300 x", /qrels:301: relevance 'x' is not an integer/],
      [10, "q2 0 d10", /qrels:11: expected 4 fields/],
    ] as const
  ) {
    const bad = lines.with(at, line);
    await Deno.writeTextFile(`${dir}/qrels`, bad.join("\n") + "\n");
    await assertRejects(
      () =>
        evaluateTrecFiles(`${dir}/qrels`, `${dir}/run`, ["map"], {
          threads: 2,
          parallelMinBytes: 0,
        }),
      says,
    );
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a worker that cannot load (read access limited to the data) leaves the files to one thread", async () => {
  const dir = await Deno.makeTempDir();
  const q: string[] = [], r: string[] = [];
  for (let i = 0; i < 50; i++) {
    for (let j = 0; j < 10; j++) {
      q.push(`q${i} 0 d${j} ${(i + j) % 2}`);
      r.push(`q${i} Q0 d${j} ${j + 1} ${10 - j} run`);
    }
  }
  await Deno.writeTextFile(`${dir}/qrels`, q.join("\n") + "\n");
  await Deno.writeTextFile(`${dir}/run`, r.join("\n") + "\n");
  const engine = new URL("../../lib/metrics/evaluate_files.ts", import.meta.url).href;
  await Deno.writeTextFile(
    `${dir}/main.ts`,
    `import { evaluateTrecFiles } from "${engine}";
const routes: string[] = [];
const r = await evaluateTrecFiles("${dir}/qrels", "${dir}/run", ["map"], {
  threads: 2, parallelMinBytes: 0, firstShare: 0.5, warn: false, onRoute: (x) => routes.push(x),
});
console.log(routes.join(), r.summary.map.toFixed(4));
`,
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", `--allow-read=${dir}/qrels,${dir}/run`, `${dir}/main.ts`],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const one = await evaluateTrecFiles(`${dir}/qrels`, `${dir}/run`, ["map"], { warn: false });
  assertEquals(new TextDecoder().decode(out.stdout), `one thread ${one.summary.map.toFixed(4)}\n`);
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  await Deno.remove(dir, { recursive: true });
});
