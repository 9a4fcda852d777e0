import { assert, assertEquals, assertRejects } from "../assert.ts";
import fc from "fast-check";
import { evaluate, evaluateTrecFiles, formatQrels, formatRun } from "../../lib/metrics/mod.ts";
import { mem } from "../helpers.ts";
import {
  type Judgments,
  REFERENCE_MEASURES,
  referenceEvaluate,
  type Scores,
} from "../../lib/metrics/reference.ts";

const qid = fc.constantFrom("q1", "q2", "q3", "q10", "q11", "q7");
const docno = fc.constantFrom("a", "b", "c", "d", "e", "f", "g", "h", "d1", "d10", "d2", "Z");
// Few distinct scores so ties are everywhere; negative and large ones too.
const score = fc.constantFrom(0, 1, 1, 2, 2.5, -1, 1e-9, 3, 1e6);
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

Deno.test("every measure equals its brute-force definition on random tied runs (in memory)", () => {
  let runs = 0;
  fc.assert(
    fc.property(judgments, scores, fc.boolean(), fc.constantFrom(1, 2), (q, r, complete, level) => {
      fc.pre(hasCommonQuery(q, r));
      runs++;
      const got = evaluate(toMaps(q), toMaps(r), REFERENCE_MEASURES, {
        complete,
        relevanceLevel: level,
        warn: false,
      });
      checkAgainstReference(
        got,
        referenceEvaluate(q, r, REFERENCE_MEASURES, { complete, relevanceLevel: level }),
      );
    }),
    { numRuns: 400, seed: 20261129 },
  );
  assert(runs > 200);
});

Deno.test("the streaming file evaluator agrees with the reference, grouped or shuffled lines", async () => {
  await fc.assert(
    fc.asyncProperty(
      judgments,
      scores,
      fc.boolean(),
      fc.integer(),
      fc.constantFrom(16, 40, 64, 1 << 22),
      async (q0, r, complete, seed, chunkBytes) => {
        // A qrels file cannot express a query without judgment lines.
        const q = Object.fromEntries(
          Object.entries(q0).filter(([, d]) => Object.keys(d).length > 0),
        );
        fc.pre(hasCommonQuery(q, r));
        const qrelsText = [...formatQrels(toMaps(q))].join("");
        let runLines = [...formatRun(toMaps(r), "t")].join("").split("\n").filter(Boolean);
        // Half the cases keep the run grouped by query (the streaming path); half shuffle its
        // lines (the in-memory fallback): the rank column and file order must not matter.
        // Tiny read buffers make query blocks and lines cross buffer edges.
        let s = seed >>> 0;
        if (seed % 2 === 0) {
          runLines = runLines.map((l) => [s = (s * 1103515245 + 12345) >>> 0, l] as const)
            .sort((a, b) => a[0] - b[0]).map(([, l]) => l);
        }
        const got = await evaluateTrecFiles(
          mem("qrels", qrelsText),
          mem("run", runLines.join("\n") + "\n"),
          REFERENCE_MEASURES,
          { complete, warn: false, chunkBytes },
        );
        checkAgainstReference(got, referenceEvaluate(q, r, REFERENCE_MEASURES, { complete }));
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
  const measures = ["num_ret", "map", "recip_rank", "P.5", "ndcg_cut.10", "Rprec"];
  for (const complete of [false, true]) {
    const one = await evaluateTrecFiles(`${dir}/qrels`, `${dir}/run`, measures, {
      complete,
      warn: false,
    });
    const two = await evaluateTrecFiles(`${dir}/qrels`, `${dir}/run`, measures, {
      complete,
      warn: false,
      threads: 2,
      parallelMinBytes: 0,
      chunkBytes: 4096,
    });
    assertEquals(two.summary, one.summary);
    assertEquals([...two.perQuery], [...one.perQuery]);
    assertEquals(two.runOnlyQueries, one.runOnlyQueries);
    assertEquals(two.runId, "run");
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
  // A run whose query comes back in the other half is not grouped: same results as one thread.
  await Deno.writeTextFile(`${dir}/ungrouped`, [...r, "q0 Q0 extra 1 9 run"].join("\n") + "\n");
  const u1 = await evaluateTrecFiles(`${dir}/qrels`, `${dir}/ungrouped`, measures, { warn: false });
  const u2 = await evaluateTrecFiles(`${dir}/qrels`, `${dir}/ungrouped`, measures, {
    warn: false,
    threads: 2,
    parallelMinBytes: 0,
  });
  assertEquals(u2.summary, u1.summary);
});

// Streamed qrels: the record store's chunk edges, chunk reuse, eviction of unconsumed
// queries, the read-ahead limit (run queries held back), and qrels in another query order
// or not grouped at all (read whole instead) must never change a number.
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

Deno.test("streamed qrels: store edges, reuse, eviction, read-ahead and query order do not change results", async () => {
  await fc.assert(
    fc.asyncProperty(
      manyJudgments,
      manyScores,
      fc.boolean(),
      fc.integer({ min: 0, max: 3 }),
      fc.integer(),
      fc.record({
        chunkBytes: fc.constantFrom(16, 24, 64, 1 << 20),
        poolChunks: fc.constantFrom(1, 2, 3, 8),
        lookaheadBytes: fc.constantFrom(0, 20, 100, 1 << 20),
      }),
      fc.constantFrom(16, 64, 1 << 22),
      async (q, r, complete, how, seed, store, chunkBytes) => {
        fc.pre(hasCommonQuery(q, r));
        const runText = [...formatRun(toMaps(r), "t")].join("");
        const qrelsText = orderQrels(q, Object.keys(r), how, seed);
        const got = await evaluateTrecFiles(
          mem("qrels", qrelsText),
          mem("run", runText),
          REFERENCE_MEASURES,
          { complete, warn: false, chunkBytes, qrelsStore: store },
        );
        checkAgainstReference(got, referenceEvaluate(q, r, REFERENCE_MEASURES, { complete }));
      },
    ),
    { numRuns: 500, seed: 11 },
  );
});

Deno.test("the run-parsing worker gives the one-thread results, small buffers and all", async () => {
  const dir = await Deno.makeTempDir();
  await fc.assert(
    fc.asyncProperty(
      manyJudgments,
      manyScores,
      fc.boolean(),
      fc.integer({ min: 0, max: 3 }),
      fc.constantFrom(32, 64, 1 << 22),
      async (q, r, complete, how, chunkBytes) => {
        fc.pre(hasCommonQuery(q, r));
        await Deno.writeTextFile(`${dir}/run`, [...formatRun(toMaps(r), "t")].join(""));
        await Deno.writeTextFile(`${dir}/qrels`, orderQrels(q, Object.keys(r), how, 5));
        const got = await evaluateTrecFiles(`${dir}/qrels`, `${dir}/run`, REFERENCE_MEASURES, {
          complete,
          warn: false,
          chunkBytes,
          threads: 2,
          parallelMinBytes: 0,
        });
        checkAgainstReference(got, referenceEvaluate(q, r, REFERENCE_MEASURES, { complete }));
      },
    ),
    { numRuns: 40, seed: 13 },
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("qrels in another query order: the run is held back, then the qrels read whole, same results", async () => {
  // 300 queries; the qrels list them in reverse, so with no read-ahead most run queries are
  // held back until the switch to reading the qrels whole (64 held back, a quarter of all).
  const q: string[] = [], r: string[] = [];
  for (let i = 0; i < 300; i++) {
    for (let j = 0; j < 12; j++) {
      if (i % 11 !== 4) q.push(`q${i} 0 d${j} ${(i + j) % 3}`);
      if (i % 7 !== 2) r.push(`q${i} Q0 d${j} ${j + 1} ${(30 - j) >> 2} run`);
    }
  }
  const byQuery = new Map<string, string[]>();
  for (const line of q) {
    const id = line.split(" ")[0];
    byQuery.set(id, [...(byQuery.get(id) ?? []), line]);
  }
  const reversed = [...byQuery.values()].reverse().flat();
  const measures = ["map", "recip_rank", "P.5", "ndcg_cut.10", "Rprec"];
  const runText = r.join("\n") + "\n";
  const gzipped = new Uint8Array(
    await new Response(
      new Blob([runText]).stream().pipeThrough(new CompressionStream("gzip")),
    ).arrayBuffer(),
  );
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/run`, runText);
  await Deno.writeTextFile(`${dir}/qrels`, reversed.join("\n") + "\n");
  for (const complete of [false, true]) {
    const want = await evaluateTrecFiles(
      mem("qrels", q.join("\n") + "\n"),
      mem("run", runText),
      measures,
      { complete, warn: false },
    );
    const tiny = {
      complete,
      warn: false as const,
      chunkBytes: 256,
      qrelsStore: { chunkBytes: 64, poolChunks: 2, lookaheadBytes: 0 },
    };
    // Held-back blocks read again from bytes, from a file (one thread and with the worker),
    // and copied (a gzip run cannot be read again at an offset).
    for (
      const got of [
        await evaluateTrecFiles(
          mem("qrels", reversed.join("\n") + "\n"),
          mem("run", runText),
          measures,
          tiny,
        ),
        await evaluateTrecFiles(`${dir}/qrels`, `${dir}/run`, measures, { ...tiny, threads: 1 }),
        await evaluateTrecFiles(`${dir}/qrels`, `${dir}/run`, measures, {
          ...tiny,
          threads: 2,
          parallelMinBytes: 0,
        }),
        await evaluateTrecFiles(
          mem("qrels", reversed.join("\n") + "\n"),
          { name: "run.gz", bytes: gzipped },
          measures,
          tiny,
        ),
      ]
    ) {
      assertEquals(got.summary, want.summary);
      assertEquals([...got.perQuery], [...want.perQuery]);
      assertEquals(got.runOnlyQueries, want.runOnlyQueries);
      assertEquals(got.missingQueries.sort(), want.missingQueries.sort());
    }
  }
  await Deno.remove(dir, { recursive: true });
});
