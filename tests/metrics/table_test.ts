/**
 * Every entry of the measure table against its brute-force reference, on random runs full
 * of ties with unjudged documents, negative judgments, several relevance levels, empty and
 * missing queries, and the options that change what a measure sees (-c, -l, -J, -M, -N).
 * An entry without a reference fails here.
 */
import { assert, assertEquals } from "../assert.ts";
import fc from "fast-check";
import { evaluate, formatRun, MEASURES, selectMeasures } from "../../lib/metrics/mod.ts";
import { evaluateTrecFiles } from "../../lib/metrics/trec_files.ts";
import { type Judgments, referenceEvaluate, type Scores } from "../../lib/metrics/reference.ts";
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
      "NumRel(rel=2)",
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
