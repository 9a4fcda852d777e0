/**
 * Every entry of the measure table against its brute-force reference, on random runs full
 * of ties with unjudged documents, negative judgments, several relevance levels, empty and
 * missing queries, and the options that change what a measure sees (-c, -l, -J, -M, -N).
 * An entry without a reference fails here.
 */
import "../quick.ts";
import { assert, assertClose, assertEquals, assertThrows } from "../assert.ts";
import fc from "fast-check";
import {
  evaluate,
  formatRun,
  formatTrecEval,
  MEASURES,
  selectMeasures,
  type TrecRelease,
} from "../../lib/metrics/mod.ts";
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

/** evaluate() against referenceEvaluate() for `names` on random inputs (under `release`). */
function checkMeasures(
  names: string[],
  runs: number,
  seed: number,
  release: TrecRelease = "9.0.8",
): void {
  fc.assert(
    fc.property(judgments, scores, options, (q: Judgments, r: Scores, o) => {
      fc.pre(Object.keys(r).some((k) => k in q));
      // (10.0 stops on a qrels query the run lacks, unless -c.)
      if (release === "10.0" && !o.complete) {
        q = Object.fromEntries(Object.entries(q).filter(([k]) => k in r));
      }
      const got = evaluate(toMaps(q), toMaps(r), names, { ...o, release, warn: false });
      const want = referenceEvaluate(q, r, names, { ...o, release });
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
    // A release's own measure (10.0's rbp, rbp_resid, unj) under that release: -c then
    // evaluates a missing query on 10.0's stand-in ranking.
    for (const name of names) checkMeasures([name], 120, 1000 + i, m.release);
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

Deno.test("trec_eval 10.0's rbp, rbp_resid and unj worked by hand (10.0's binary prints these)", () => {
  // d1 (3), d2 (1), d5 (not in the qrels), d4 (2); q2 is not in the run.
  const qrels = toMaps({ q1: { d1: 3, d2: 1, d3: 0, d4: 2 }, q2: { a: 1 } });
  const run = toMaps({ q1: { d1: 4, d2: 3, d5: 2, d4: 1 } });
  const one = (names: string[]) =>
    evaluate(toMaps({ q1: { d1: 3, d2: 1, d3: 0, d4: 2 } }), run, names, { release: "10.0" });
  const r = {
    summary: {
      ...one(["rbp", "rbp_resid", "unj.1,3,5"]).summary,
      ...one(["rbp.p=0.5,1=-1"]).summary, // (one parameter list per measure, as trec_eval)
    },
  };
  // Gains above 1: each becomes gain / 3 (min 0, max 3): 1, 1/3, 0, 2/3 at p = 0.9.
  assertClose(r.summary.rbp, 0.1 * (1 + 0.9 / 3 + 0.729 * 2 / 3));
  // 1=-1: min -1, max 3, (gain + 1) / 4: 1, 0, 0 (unjudged: no gain), 0.75 at p = 0.5.
  assertClose(r.summary["rbp_p=0.5,1=-1"], 0.5 * (1 + 0.125 * 0.75));
  // One unjudged document at rank 3 of 4: 0.9^4 + 0.1 x 0.9^2.
  assertClose(r.summary.rbp_resid, 0.9 ** 4 + 0.1 * 0.81);
  assertEquals([r.summary.unj_1, r.summary.unj_3, r.summary.unj_5], [0, 1 / 3, 1 / 5]);
  // -c: 10.0 ranks a stand-in document for q2 and clears unj_* and rbp_resid (that exact
  // name) there: rbp_resid_p=0.5 keeps the stand-in's 1.
  const c = evaluate(qrels, run, ["rbp_resid", "unj.1"], { release: "10.0", complete: true });
  assertEquals(c.perQuery.get("q2"), { rbp_resid: 0, unj_1: 0 });
  const c2 = evaluate(qrels, run, ["rbp_resid.p=0.5", "unj.1"], {
    release: "10.0",
    complete: true,
  });
  assertEquals(c2.perQuery.get("q2"), { "rbp_resid_p=0.5": 1, unj_1: 0 });
  assertEquals(c2.summary["rbp_resid_p=0.5"], (0.5 ** 4 + 0.5 * 0.25 + 1) / 2);
});

Deno.test("10.0's own measures: only under --trec-eval 10.0, in its all_trec, parameters as it reads them", () => {
  assertThrows(
    () => selectMeasures(["rbp"], () => {}),
    /^measure 'rbp' is trec_eval 10\.0's \(--trec-eval 10\.0\); trec_eval 9\.0\.8 has no such/,
  );
  const labels = (names: string[], release: TrecRelease) =>
    selectMeasures(names, () => {}, { release }).instances.map((i) => i.label);
  const nine = labels(["all_trec"], "9.0.8"), ten = labels(["all_trec"], "10.0");
  // 10.0 prints them after num_nonrel_judged_ret (its table order), nothing else changes.
  assertEquals(ten, [...nine, "rbp", "rbp_resid", "unj_5", "unj_10", "unj_20"]);
  // name=value pairs, named as written; the last p counts; other names are ignored.
  assertEquals(labels(["rbp.x=1,p=0.5,p=0.7", "unj.3,1"], "10.0"), [
    "rbp_x=1,p=0.5,p=0.7",
    "unj_1",
    "unj_3",
  ]);
  const q = toMaps({ q: { a: 1, b: 1 } }), run = toMaps({ q: { a: 2, x: 1, b: 0 } });
  const r = evaluate(q, run, ["rbp.x=1,p=0.5,p=0.7"], { release: "10.0" });
  assertClose(r.summary["rbp_x=1,p=0.5,p=0.7"], 0.3 * (1 + 0.49));
  for (
    const [name, says] of [
      ["rbp.0.8", /expected name=value pairs, got '0\.8'/],
      ["rbp.p=nan", /p=NaN is not a finite number/],
      ["rbp.2=inf", /2=Infinity is not a finite number/],
      ["rbp_resid.p=inf", /p=Infinity is not a finite number/],
      ["unj.0", /cutoffs must be positive/],
    ] as const
  ) {
    assertThrows(() => selectMeasures([name], () => {}, { release: "10.0" }), says);
  }
  // rbp_resid ignores level=gain pairs, so their values are not checked.
  assertEquals(labels(["rbp_resid.1=nan"], "10.0"), ["rbp_resid_1=nan"]);
});

Deno.test("rbp after a measure whose leftovers change 10.0's rbp is refused, saying why", () => {
  const select = (names: string[], level = 1) =>
    selectMeasures(names, () => {}, { release: "10.0", level });
  for (const names of [["ndcg_cut.10", "rbp"], ["iprec_at_recall", "rbp.p=0.5"], ["G", "rbp"]]) {
    assertThrows(
      () => select(names),
      /after '(ndcg_cut|iprec_at_recall|G)': trec_eval 10\.0's rbp reads two variables it never sets/,
    );
  }
  // A measure in between that overwrites both: all_trec (num_nonrel_judged_ret), official (P).
  for (const names of [["all_trec"], ["official", "rbp"], ["ndcg_cut", "set_P", "rbp"], ["rbp"]]) {
    select(names);
  }
  // set_F and gm_map leave a number in [0, 1]: harmless with rbp's default gains, not with pairs;
  // gm_map's can exceed 1 below -l 0.
  select(["set_F", "rbp"]);
  assertThrows(() => select(["set_F", "rbp.1=3"]), /after 'set_F'/);
  select(["gm_map", "rbp"]);
  assertThrows(() => select(["gm_map", "rbp"], -1), /after 'gm_map'/);
  // 9.0.8 and the measures that are not rbp have nothing of the kind.
  selectMeasures(["ndcg_cut", "rbp_resid", "unj"], () => {}, { release: "10.0" });
});

Deno.test("10.0's -c adds a missing query's values to the sums where its qid falls, as 10.0 does", () => {
  // With -l -1 the stand-in of query 1 (missing from the run) is relevant: P_200 = 1/200 there,
  // 2/200 for 2, 3 and 4. 10.0 sums 0.005 + 0.01 + 0.01 + 0.01 (0.00875, printed 0.0088); the
  // sum in the other order is 0.008749999999999999 (printed 0.0087). rbp_resid_p=x and every
  // measure the stand-in gives a value meet the same.
  const r = evaluate(
    toMaps({ "1": { a: 1 }, "2": { a: 0 }, "3": { a: 0 }, "4": { a: 0 } }),
    toMaps({ "2": { x: 2, y: 1 }, "3": { x: 2, y: 1 }, "4": { x: 2, y: 1 } }),
    ["P.200"],
    { release: "10.0", complete: true, relevanceLevel: -1, maxDocs: 2 },
  );
  assertEquals(r.summary.P_200, (0.005 + 0.01 + 0.01 + 0.01) / 4);
  assertEquals(formatTrecEval(r), "P_200                 \tall\t0.0088\n");
});
