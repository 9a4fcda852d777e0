/**
 * `-c` means one query set everywhere: `eval compare`, `eval stability`, `eval ties` and the
 * bootstrap take the queries `eval trec` (and trec_eval 9.0.8) average over with the same
 * flags. The real-data test reproduces the reported case: runs missing one question of
 * WikiQA test clean (each a different one).
 */
import assert from "node:assert/strict";
import { queryValues } from "../../lib/stats/query_set.ts";
import { meanOverRuns } from "../../lib/stats/seeds.ts";
import { evaluate, formatRun, qrelsFromQuestions, runFromScores } from "../../lib/metrics/mod.ts";
import { formatQrels } from "../../lib/metrics/write_files.ts";
import { scoreSplit } from "../../lib/scoring/pipeline.ts";
import { KitError } from "../../lib/errors.ts";
import { allValue, realDataTest, runCli, runTrecEval } from "../helpers.ts";

const qrels = new Map([
  ["q1", new Map([["a", 1], ["b", 0]])],
  ["q2", new Map([["c", 1], ["d", 2]])],
  ["q3", new Map([["e", 0]])], // no relevant document: counts, scores 0
]);
const run = new Map([
  ["q1", new Map([["a", 0.1], ["b", 0.9]])], // AP 1/2, RR 1/2
  ["q3", new Map([["e", 1]])],
  ["x9", new Map([["z", 1]])], // run-only: ignored
]);

Deno.test("queryValues: the query set of eval trec, with and without -c (hand-worked)", () => {
  const warnings: string[] = [];
  const plain = queryValues(qrels, run, ["map", "recip_rank", "num_rel"], {
    warn: (w) => warnings.push(w),
  });
  assert.deepEqual([...plain.perQuery.keys()], ["q1", "q3"]);
  assert.equal(plain.summary.map, (0.5 + 0) / 2);
  assert.deepEqual(plain.missingQueries, ["q2"]);
  assert.deepEqual(plain.runOnlyQueries, ["x9"]);
  assert.match(warnings[0], /x9/);
  const c = queryValues(qrels, run, ["map", "recip_rank", "num_rel"], {
    complete: true,
    warn: false,
  });
  assert.deepEqual([...c.perQuery.keys()], ["q1", "q2", "q3"]);
  // q2 is missing: an empty ranking, 0 for the means; its judgments still count in num_rel.
  assert.deepEqual(c.perQuery.get("q2"), { map: 0, recip_rank: 0, num_rel: 2 });
  assert.equal(c.numQ, 3);
  assert.equal(c.summary.map, 0.5 / 3);
  assert.equal(c.summary.num_rel, 3);
  // The same means as the engine's own -c.
  const engine = evaluate(qrels, run, ["map", "recip_rank", "num_rel"], {
    complete: true,
    warn: false,
  });
  assert.deepEqual(c.summary, engine.summary);
  assert.equal(c.numQ, engine.numQ);
  // Relevance level: q1 has no relevant document at -l 2. The missing q2 adds what trec_eval
  // -c adds to num_rel's sum: its judgments > 0 whatever -l (2), trec_eval's quirk, which
  // eval trec -c -l 2 reproduces; the means then are eval trec's.
  const l2 = queryValues(qrels, run, ["num_rel", "map"], {
    complete: true,
    relevanceLevel: 2,
    warn: false,
  });
  assert.deepEqual([...l2.perQuery.values()].map((v) => v.num_rel), [0, 2, 0]);
  const l2engine = evaluate(qrels, run, ["map"], {
    complete: true,
    relevanceLevel: 2,
    warn: false,
  });
  assert.equal(
    [...l2.perQuery.values()].reduce((s, v) => s + v.map, 0) / l2.numQ,
    l2engine.summary.map,
  );
});

Deno.test("meanOverRuns: per-query means over seeds; different query sets refused", () => {
  const a = new Map([["q1", { map: 1, P_1: 1 }], ["q2", { map: 0, P_1: 0 }]]);
  const b = new Map([["q1", { map: 0.5, P_1: 0 }], ["q2", { map: 0.25, P_1: 0 }]]);
  const m = meanOverRuns([a, b]);
  assert.deepEqual(m.get("q1"), { map: 0.75, P_1: 0.5 });
  assert.deepEqual(m.get("q2"), { map: 0.125, P_1: 0 });
  assert.deepEqual(meanOverRuns([a]), a);
  const short = new Map([["q1", { map: 1, P_1: 1 }]]);
  assert.throws(
    () => meanOverRuns([a, short]),
    /runs 1 and 2 .* different queries \(2 and 1, e\.g\. q2\)/,
  );
  const other = new Map([["q1", { map: 1, P_1: 1 }], ["q7", { map: 1, P_1: 1 }]]);
  assert.throws(() => meanOverRuns([a, other]), KitError);
  assert.throws(() => meanOverRuns([]), KitError);
});

realDataTest(
  "-c on WikiQA test clean: compare, stability, ties equal eval trec -c and trec_eval",
  "wikiqa",
  async (dir) => {
    const tmp = await Deno.makeTempDir();
    try {
      const files: string[] = [];
      let questions;
      for (const [i, spec] of ["lexical:bm25", "lexical:wordcnt"].entries()) {
        const s = await scoreSplit(spec, "wikiqa", "test", { filter: "clean", dir });
        questions = s.questions;
        const run = runFromScores(s.questions, s.scores);
        run.delete(s.questions[i === 0 ? 0 : s.questions.length - 1].id); // a different one each
        files.push(`${tmp}/${spec.slice(8)}.run`);
        await Deno.writeTextFile(files[i], [...formatRun(run, spec)].join(""));
      }
      const qrelsFile = `${tmp}/test-clean.qrels`;
      await Deno.writeTextFile(
        qrelsFile,
        [...formatQrels(qrelsFromQuestions(questions!))].join(""),
      );

      const trec = await Promise.all(
        files.map((f) =>
          runCli(["eval", "trec", "-c", "-m", "map", "-m", "recip_rank", qrelsFile, f])
        ),
      );
      for (const t of trec) assert.equal(t.code, 0, t.stderr);
      const expected = trec.map((t) => ({
        map: allValue(t.stdout, "map"),
        mrr: allValue(t.stdout, "recip_rank"),
      }));
      for (const [i, f] of files.entries()) {
        const text = await runTrecEval(["-c", "-m", "map", "-m", "recip_rank", qrelsFile, f]);
        if (text === undefined) {
          console.error(
            "trec_eval 9.0.8 not available (../shared/tools): checked against eval trec -c only",
          );
          break;
        }
        assert.equal(allValue(text, "map"), expected[i].map, `trec_eval -c map, ${f}`);
        assert.equal(
          allValue(text, "recip_rank"),
          expected[i].mrr,
          `trec_eval -c recip_rank, ${f}`,
        );
      }

      // compare -c: full-precision means in CSV, printed like eval trec.
      const csv = await runCli([
        "eval",
        "compare",
        "--qrels",
        qrelsFile,
        "-c",
        ...files,
        "--format",
        "csv",
        "--bootstrap",
        "200",
      ]);
      assert.equal(csv.code, 0, csv.stderr);
      const rows = csv.stdout.trim().split("\n").slice(1).map((l) => l.split(","));
      for (const [i] of files.entries()) {
        const map = rows.find((r) => r[0] === "map" && r[1] === "ab"[i])!;
        const mrr = rows.find((r) => r[0] === "recip_rank" && r[1] === "ab"[i])!;
        assert.equal(Number(Number(map[3]).toFixed(4)), expected[i].map);
        assert.equal(Number(Number(mrr[3]).toFixed(4)), expected[i].mrr);
        // The bootstrap interval is over the same 237 questions: it holds the mean.
        assert.ok(Number(map[4]) <= Number(map[3]) && Number(map[3]) <= Number(map[5]));
      }
      const md = await runCli(["eval", "compare", "--qrels", qrelsFile, "-c", ...files]);
      assert.match(md.stdout, /^237 queries;/m);

      // Without -c the two runs cover different queries: refused, each system named once.
      const refused = await runCli(["eval", "compare", "--qrels", qrelsFile, ...files]);
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /\(bm25: 236, wordcnt: 236; common to all: 235\)/);
      assert.match(refused.stderr, /with -c/);

      const stab = await runCli([
        "eval",
        "stability",
        "--qrels",
        qrelsFile,
        "-c",
        ...files,
        "--json",
      ]);
      assert.equal(stab.code, 0, stab.stderr);
      const s = JSON.parse(stab.stdout).measures[0];
      // Without -c eval stability refuses as eval compare does (236 and 236 questions, 235 common)
      const stabRefused = await runCli(["eval", "stability", "--qrels", qrelsFile, ...files]);
      assert.equal(stabRefused.code, 2);
      assert.match(stabRefused.stderr, /: 236, .*: 236; common to all: 235\)/);
      assert.deepEqual(
        s.perRun.map((x: number) => Number(x.toFixed(4))),
        expected.map((e) => e.map),
      );

      for (const [i, f] of files.entries()) {
        const ties = await runCli(["eval", "ties", "-c", qrelsFile, f, "--json"]);
        assert.equal(ties.code, 0, ties.stderr);
        const t = JSON.parse(ties.stdout);
        assert.equal(t.numQ, 237);
        assert.equal(Number(t.map.trecEval.toFixed(4)), expected[i].map);
        assert.equal(Number(t.mrr.trecEval.toFixed(4)), expected[i].mrr);
      }
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  },
);

Deno.test("a run sharing no query with the qrels is refused the same way everywhere, -c or not, naming the file", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/q`, [...formatQrels(qrels)].join(""));
  await Deno.writeTextFile(`${dir}/a.run`, [...formatRun(run, "a")].join(""));
  await Deno.writeTextFile(`${dir}/b.run`, "y1 Q0 d1 1 2 b\ny2 Q0 d2 1 1 b\n");
  const refused =
    /^(warning: .*\n)*error: b\.run: no query has both results and relevance judgments/;
  for (const c of [[], ["-c"]]) {
    for (
      const args of [
        ["eval", "trec", ...c, "q", "b.run"],
        ["eval", "ties", ...c, "q", "b.run"],
        ["eval", "compare", ...c, "-m", "map", "--qrels", "q", "a.run", "b.run"],
        ["eval", "stability", ...c, "-m", "map", "--qrels", "q", "a.run", "b.run"],
      ]
    ) {
      const got = await runCli(args, { cwd: dir });
      assert.equal(got.code, 2, `${args.join(" ")}: ${got.stdout}`);
      assert.equal(got.stdout, "", args.join(" "));
      assert.match(got.stderr, refused, args.join(" "));
    }
  }
  // In the library too; trec_eval 10.0's -c evaluates every qrels query, so does the kit.
  const none = new Map([["y1", new Map([["d1", 1]])]]);
  assert.throws(
    () => queryValues(qrels, none, ["map"], { complete: true, file: "b" }),
    /^KitError: b: no query/,
  );
  const ten = queryValues(qrels, none, ["map"], { complete: true, release: "10.0" });
  assert.equal(ten.numQ, 3);
  await Deno.remove(dir, { recursive: true });
});
