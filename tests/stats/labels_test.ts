import "../quick.ts";
import assert from "node:assert/strict";
import { labelAgreement } from "../../lib/stats/labels.ts";

function qrels(rows: [string, string, number][]) {
  const m = new Map<string, Map<string, number>>();
  for (const [q, d, r] of rows) {
    if (!m.has(q)) m.set(q, new Map());
    m.get(q)!.set(d, r);
  }
  return m;
}

Deno.test("Cohen's kappa: hand-worked 2x2 table (textbook example)", () => {
  // Golden vs silver on 50 pairs: yes/yes 20, yes/no 5, no/yes 10, no/no 15.
  // po = 35/50 = 0.7; pe = 0.5 * 0.6 + 0.5 * 0.4 = 0.5; kappa = 0.4.
  const g: [string, string, number][] = [], s: [string, string, number][] = [];
  const add = (n: number, gv: number, sv: number) => {
    for (let i = 0; i < n; i++) {
      const doc = `d${g.length}`;
      g.push(["q", doc, gv]);
      s.push(["q", doc, sv]);
    }
  };
  add(20, 1, 1);
  add(5, 1, 0);
  add(10, 0, 1);
  add(15, 0, 0);
  const a = labelAgreement(qrels(g), qrels(s));
  assert.equal(a.sharedPairs, 50);
  assert.deepEqual(a.categories, [0, 1]);
  assert.deepEqual(a.table, [[15, 10], [5, 20]]);
  assert.ok(Math.abs(a.observedAgreement - 0.7) < 1e-12);
  assert.ok(Math.abs(a.expectedAgreement - 0.5) < 1e-12);
  assert.ok(Math.abs(a.kappa! - 0.4) < 1e-12);
  assert.equal(a.disagreements.length, 15);
});

Deno.test("kappa with three graded levels, binarization and unmatched pairs", () => {
  // Golden 0,1,2,2,0,1 vs silver 0,2,2,1,0,1 on six shared pairs; x only golden, y only silver.
  const g = qrels([
    ["q1", "a", 0],
    ["q1", "b", 1],
    ["q1", "c", 2],
    ["q2", "a", 2],
    ["q2", "b", 0],
    ["q2", "c", 1],
    ["q2", "x", 1],
  ]);
  const s = qrels([
    ["q1", "a", 0],
    ["q1", "b", 2],
    ["q1", "c", 2],
    ["q2", "a", 1],
    ["q2", "b", 0],
    ["q2", "c", 1],
    ["q3", "y", 1],
  ]);
  const a = labelAgreement(g, s);
  assert.equal(a.onlyGolden, 1);
  assert.equal(a.onlySilver, 1);
  // po = 4/6; marginals golden (2,2,2)/6, silver (2,2,2)/6 -> pe = 1/3; kappa = (2/3-1/3)/(2/3) = 0.5.
  assert.ok(Math.abs(a.kappa! - 0.5) < 1e-12);
  assert.deepEqual(a.disagreements.map((d) => `${d.query}/${d.doc}`), ["q1/b", "q2/a"]);
  const bin = labelAgreement(g, s, { relevanceLevel: 1 });
  // Binary: all six agree (1-2 and 2-1 are both relevant) -> kappa 1.
  assert.equal(bin.kappa, 1);
  assert.equal(labelAgreement(qrels([["q", "a", 1]]), qrels([["q", "a", 1]])).kappa, null);
});
