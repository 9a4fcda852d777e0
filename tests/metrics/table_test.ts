/**
 * Every entry of the measure table against its brute-force reference, on random runs full
 * of ties with unjudged documents, negative judgments, several relevance levels, empty and
 * missing queries, and the options that change what a measure sees (-c, -l, -J, -M, -N).
 * An entry without a reference fails here.
 */
import { assert, assertClose, assertEquals, assertThrows } from "../assert.ts";
import fc from "fast-check";
import { evaluate, formatRun, MEASURES, selectMeasures } from "../../lib/metrics/mod.ts";
import { evaluateTrecFiles } from "../../lib/metrics/evaluate_files.ts";
import {
  type Judgments,
  referenceEvaluate,
  type Scores,
} from "../../lib/metrics/measures/reference.ts";
import { mem } from "../helpers.ts";

const qid = fc.constantFrom("q1", "q2", "q3", "q10", "q7");
const docno = fc.constantFrom("a", "b", "c", "d", "e", "f", "g", "h", "d1", "d10", "Z");
// Few distinct scores (exact in float32) so ties are everywhere.
const score = fc.constantFrom(0, 1, 1, 2, 2.5, -1, 3, 0.5);
const rel = fc.constantFrom(0, 0, 1, 1, 2, 3, -1, 4);
const judgments = fc.dictionary(qid, fc.dictionary(docno, rel, { minKeys: 0, maxKeys: 9 }), {
  minKeys: 1,
  maxKeys: 4,
});
const scores = fc.dictionary(qid, fc.dictionary(docno, score, { minKeys: 1, maxKeys: 11 }), {
  minKeys: 1,
  maxKeys: 4,
});
const options = fc.record({
  complete: fc.boolean(),
  relevanceLevel: fc.constantFrom(1, 1, 2),
  judgedOnly: fc.constantFrom(false, false, true),
  maxDocs: fc.constantFrom(undefined, undefined, 0, 1, 3),
  numDocs: fc.constantFrom(0, 40),
});

const toMaps = (x: Record<string, Record<string, number>>) =>
  new Map(Object.entries(x).map(([q, d]) => [q, new Map(Object.entries(d))]));

function same(got: number | string | undefined, want: number | string, what: string): void {
  if (typeof want === "string" || typeof got === "string") {
    assertEquals(got, want, what);
    return;
  }
  if (Number.isNaN(want)) {
    assert(Number.isNaN(got), `${what}: got ${got}, want NaN`);
    return;
  }
  assert(
    got !== undefined && Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want)),
    `${what}: got ${got}, want ${want}`,
  );
}

/** evaluate() against referenceEvaluate() for `names` on random inputs. */
function checkMeasures(names: string[], runs: number, seed: number): void {
  fc.assert(
    fc.property(judgments, scores, options, (q: Judgments, r: Scores, o) => {
      fc.pre(Object.keys(r).some((k) => k in q));
      const got = evaluate(toMaps(q), toMaps(r), names, { ...o, warn: false });
      const want = referenceEvaluate(q, r, names, o);
      assertEquals(got.numQ, want.numQ, "num_q");
      for (const [m, v] of Object.entries(want.summary)) same(got.summary[m], v, `all ${m}`);
      for (const [query, row] of Object.entries(want.perQuery)) {
        for (const [m, v] of Object.entries(row)) {
          const value = typeof v === "string"
            ? got.perQueryText.get(query)?.[m]
            : got.perQuery.get(query)?.[m];
          same(value, v, `${query} ${m}`);
        }
      }
    }),
    { numRuns: runs, seed },
  );
}

Deno.test("every measure of the table has a reference and equals it on random tied runs", () => {
  for (const [i, m] of MEASURES.entries()) {
    assert(typeof m.reference === "function", `${m.name} has no reference definition`);
    if (m.aggregate === "meta") continue; // runid and num_q: checked below
    const names = [m.name, ...(m.examples ?? []).map((e) => `${m.name}.${e}`)];
    for (const name of names) checkMeasures([name], 120, 1000 + i);
  }
});

Deno.test("ir_measures names equal their references (own rel, judged_only, gains)", () => {
  checkMeasures(
    [
      "AP",
      "AP@3",
      "AP(rel=2)",
      "AP(judged_only=True)",
      "RR@2",
      "RR(rel=2)",
      "P(rel=2)@5",
      "R@3",
      "nDCG",
      "nDCG@3",
      "nDCG(gains={0:0,1:1,2:5,3:2})@3",
      "nDCG(dcg='exp-log2')@5",
      "nDCG(dcg=exp-log2)",
      "Rprec(rel=2)",
      "Bpref(rel=2)",
      "infAP",
      "Success@1",
      "NumRet",
      "NumRet(rel=2)",
      "NumRelRet",
      "NumRel",
      "NumRel(rel=1)",
      "NumQ",
      "ERR@3",
      "ERR@20",
      "RBP(rel=1)",
      "RBP(rel=2, p=0.5)",
      // ranx's names
      "mrr",
      "mrr@2",
      "map@3",
      "ndcg@3",
      "ndcg_burges@3",
      "precision@1",
      "recall@3",
      "hit_rate@2",
      "hits@2",
      "r-precision",
      "bpref",
      "Judged@3",
      "Judged",
      "SetP",
      "SetRelP",
      "SetR",
      "SetF(beta=0.5)",
      "SetAP",
      "IPrec@0.3",
    ],
    300,
    77,
  );
});

Deno.test("num_q and runid: the number of queries averaged over, the run file's last runid", async () => {
  fc.assert(
    fc.property(judgments, scores, fc.boolean(), (q, r, complete) => {
      fc.pre(Object.keys(r).some((k) => k in q));
      const got = evaluate(toMaps(q), toMaps(r), ["num_q"], { complete, warn: false });
      // Queries in both files; with -c every qrels query.
      const want = complete
        ? Object.keys(q).length
        : Object.keys(r).filter((k) => Object.hasOwn(q, k)).length;
      assertEquals(got.numQ, want);
      assertEquals(referenceEvaluate(q, r, ["num_q"], { complete }).numQ, want);
    }),
    { numRuns: 100, seed: 5 },
  );
  const lines = [...formatRun(toMaps({ q1: { a: 1, b: 2 } }), "first")].join("") +
    "q1 Q0 c 3 0.5 last-runid\n";
  const r = await evaluateTrecFiles(mem("q", "q1 0 a 1\n"), mem("r", lines), ["runid"]);
  assertEquals(r.runId, "last-runid");
  assertEquals(r.layout.map((l) => l.kind), ["runid"]);
});

Deno.test("integer measures print as counts, with or without parameters", () => {
  const s = selectMeasures(["num_ret", "NumRet(rel=2)", "num_rel_ret", "P.5"]);
  const r = evaluate(
    toMaps({ q: { a: 1 } }),
    toMaps({ q: { a: 1, b: 2 } }),
    s.instances.map((i) => i.label),
  );
  const integer = Object.fromEntries(r.layout.map((l) => [l.label, l.integer]));
  assertEquals(integer, { num_ret: true, num_rel_ret: true, P_5: false, "NumRet(rel=2)": true });
});

Deno.test("ir_measures and ranx names no provider computes are refused, saying why", () => {
  for (
    const [name, says] of [
      ["NumRel(rel=2)", /only rel=1/],
      ["RR(judged_only=True)@10", /RR with both a cutoff and judged_only=True/],
      ["RBP", /RBP without rel=/],
      ["RBP(rel=1)@5", /RBP takes no @ parameter/],
      ["nDCG(dcg='exp-log2', judged_only=True)@5", /exp-log2 with judged_only=True/],
      ["ERR", /needs a cutoff/],
      ["f1@5", /f1@k is not in the measure table/],
      ["rbp.95", /unknown measure|rbp/],
    ] as const
  ) {
    assertThrows(() => selectMeasures([name], () => {}), says);
  }
});

Deno.test("ERR@k, RBP and ir_measures' NumQ / NumRel worked by hand", () => {
  const qrels = toMaps({ q1: { a: 2, b: 0, c: 1 }, q2: { a: 1, b: 2 }, q3: { x: 1 } });
  // q1 ranks a (2), b (0), c (1); q2 ranks b (2), x (unjudged), a (1); q3 is not in the run.
  const run = toMaps({ q1: { a: 3, b: 2, c: 1 }, q2: { b: 3, x: 2, a: 1 } });
  const r = evaluate(
    qrels,
    run,
    ["ERR@3", "ERR@1", "RBP(rel=1)", "RBP(rel=2, p=0.5)", "NumQ", "NumRel", "num_q", "num_rel"],
    { complete: true },
  );
  // ERR: R = (2^g - 1) / 16. q1: 3/16 + (13/16)(0)/2 + (13/16)(1)(1/16)/3.
  const q1 = 3 / 16 + (13 / 16) * (1 / 16) / 3;
  assertEquals(r.perQuery.get("q1")!["ERR@3"], q1);
  assertEquals(r.perQuery.get("q1")!["ERR@1"], 3 / 16);
  // RBP(rel=1, p=0.8): q1 relevant at ranks 1 and 3: 0.2 (1 + 0.64); q2 at ranks 1 and 3.
  assertClose(r.perQuery.get("q1")!["RBP(rel=1)"], 0.328);
  // RBP(rel=2, p=0.5): q1 only rank 1: 0.5; q2 only rank 1: 0.5.
  assertEquals(r.perQuery.get("q2")!["RBP(rel=2, p=0.5)"], 0.5);
  // -c: q3 adds 0 to the means (over 3 queries) and to NumQ / NumRel, which count the queries
  // in both files (ir_measures' 2 and 4), where num_q and num_rel count every qrels query.
  const q2 = 3 / 16 + (13 / 16) * (1 / 16) / 3;
  assertEquals(r.summary["ERR@3"], (q1 + q2) / 3);
  assertEquals([r.summary.NumQ, r.summary.NumRel, r.numQ, r.summary.num_rel], [2, 4, 3, 5]);
  // gdeval stops on judgments above 4; so does ERR.
  assertThrows(
    () => evaluate(toMaps({ q: { a: 5 } }), toMaps({ q: { a: 1 } }), ["ERR@5"]),
    /ERR \(gdeval's\) takes judgments up to 4/,
  );
});

Deno.test("a parameter out of its range is refused the same way in both spellings (rbp_binary's p)", () => {
  for (const p of ["1.5", "-0.5", "1", "0"]) {
    for (const name of [`rbp_binary.${p}`, `RBP(rel=1,p=${p})`]) {
      assertThrows(
        () => selectMeasures([name], () => {}),
        new RegExp(
          `^measure '${name.replace(/[.()]/g, "\\$&")}': p must be between 0 and 1, got ${p}$`,
        ),
      );
    }
  }
  // In range: the same value either way.
  const r = evaluate(
    new Map([["q", new Map([["a", 1], ["b", 1]])]]),
    new Map([["q", new Map([["a", 2], ["x", 1], ["b", 0]])]]),
    ["rbp_binary.0.5", "RBP(rel=1,p=0.5)"],
  );
  assertEquals(r.summary["rbp_binary_0.5"], 0.625);
  assertEquals(r.summary["RBP(rel=1,p=0.5)"], 0.625);
});
