import "../quick.ts";
import assert from "node:assert/strict";
import { compareSystems } from "../../lib/stats/compare.ts";
import {
  compareOverRuns,
  comparisonRows,
  meanOverRuns,
  measureSpreadOverRuns,
  singleRunComparisons,
} from "../../lib/stats/seeds.ts";
import { runningMeans, seedsNeeded, varianceRatioTest } from "../../lib/stats/seeds_needed.ts";
import { robustnessRows, spreadRows } from "../../lib/stats/seed_tables.ts";
import { spreadOverRuns } from "../../lib/stats/stability.ts";
import { KitError } from "../../lib/errors.ts";
import { studentTQuantile } from "../../lib/stats/special.ts";

const run = (values: Record<string, number>, measure = "map") =>
  new Map(Object.entries(values).map(([q, v]) => [q, { [measure]: v }]));

Deno.test("meanOverRuns: each question's mean over the runs, per measure", () => {
  const r1 = new Map([["q1", { map: 1, recip_rank: 1 }], ["q2", { map: 0.25, recip_rank: 0.5 }]]);
  const r2 = new Map([["q1", { map: 0.5, recip_rank: 1 }], ["q2", { map: 0, recip_rank: 0 }]]);
  const r3 = new Map([["q1", { map: 0, recip_rank: 0.5 }], ["q2", { map: 0.5, recip_rank: 1 }]]);
  assert.deepEqual([...meanOverRuns([r1, r2, r3])], [
    ["q1", { map: 0.5, recip_rank: 2.5 / 3 }],
    ["q2", { map: 0.25, recip_rank: 0.5 }],
  ]);
  assert.throws(() => meanOverRuns([]), KitError);
  assert.throws(
    () => meanOverRuns([run({ q1: 1, q2: 0 }), run({ q1: 1 })]),
    /runs 1 and 2 of a system cover different queries \(2 and 1, e.g. q2\)/,
  );
  assert.throws(() => meanOverRuns([run({ q1: 1 }), run({ q3: 1 })]), /e.g. q1/);
});

Deno.test("measureSpreadOverRuns is spreadOverRuns() of the runs' per-query values", () => {
  const runs = [run({ q1: 0.9, q2: 0.7 }), run({ q1: 0.8, q2: 0.8 }), run({ q1: 1, q2: 0.9 })];
  const s = measureSpreadOverRuns(runs, "map", { threshold: 0.05 });
  assert.deepEqual(s, spreadOverRuns([[0.9, 0.7], [0.8, 0.8], [1, 0.9]], { threshold: 0.05 }));
  // per-run means 0.8, 0.8, 0.95: sd = sqrt(2 * 0.05^2 + 0.1^2) / sqrt(2) = 0.0866
  assert.ok(Math.abs(s.sd - Math.sqrt((0.0025 * 2 + 0.01) / 2)) < 1e-12);
  assert.throws(() => measureSpreadOverRuns(runs, "ndcg"), /run 1, query q1: no ndcg/);
});

Deno.test("seedsNeeded: the smallest n whose t interval half-width fits (tabulated t)", () => {
  // t(0.975, df) from tables: 1 12.706205, 2 4.302653, 3 3.182446, 4 2.776445, 5 2.570582,
  // 6 2.446912, 9 2.262157, 19 2.093024
  const table: Record<number, number> = {
    1: 12.706205,
    2: 4.302653,
    3: 3.182446,
    4: 2.776445,
    5: 2.570582,
    6: 2.446912,
  };
  const perRun = [0.69, 0.7, 0.71]; // sd 0.01
  for (const h of [0.02, 0.015, 0.012, 0.01]) {
    const n = seedsNeeded(perRun, h);
    // brute force from the table: first n with t * 0.01 / sqrt(n) <= h
    const expected = Object.keys(table).map(Number).map((df) => df + 1)
      .find((m) => table[m - 1] * 0.01 / Math.sqrt(m) <= h + 1e-9);
    assert.equal(n, expected, `half-width ${h}`);
  }
  // by hand: h = 0.01 -> n = 7 (n = 6 gives 2.570582 * 0.01 / sqrt 6 = 0.010494)
  assert.equal(seedsNeeded(perRun, 0.01), 7);
  // 99% level needs more
  assert.ok(seedsNeeded(perRun, 0.01, 0.99) > 7);
  // large n: the normal limit, n ~ (1.96 sd / h)^2
  const n = seedsNeeded([0, 1], 0.01); // sd = 0.7071
  assert.ok(Math.abs(n - (1.959964 * Math.SQRT1_2 / 0.01) ** 2) < 10, String(n));
  // the search agrees with a linear scan of the definition
  for (const spread of [[0.68, 0.69], [0.6, 0.7, 0.65], [0.3, 0.5]]) {
    for (const h of [0.05, 0.01, 0.005]) {
      const sd = Math.sqrt(
        spread.reduce((s, v) => s + (v - spread.reduce((a, b) => a + b) / spread.length) ** 2, 0) /
          (spread.length - 1),
      );
      let m = 2;
      while (studentTQuantile(0.975, m - 1) * sd / Math.sqrt(m) > h) m++;
      assert.equal(seedsNeeded(spread, h), m, `${spread} ${h}`);
    }
  }
  assert.equal(seedsNeeded([0.5, 0.5, 0.5], 0.001), 2);
  // docs/stats.md: the five ltr seeds of its stability table
  const five = [0.6834, 0.6897, 0.6915, 0.6829, 0.6853];
  assert.deepEqual([0.005, 0.001].map((h) => seedsNeeded(five, h)), [5, 60]);
  assert.throws(() => seedsNeeded([0.5], 0.01), /at least two runs/);
  assert.throws(() => seedsNeeded([0.5, 0.6], 0), /half-width must be positive/);
  assert.throws(() => seedsNeeded([0.5, 0.6], 0.1, 1), /level/);
});

Deno.test("runningMeans: mean and t interval of the first k runs", () => {
  const r = runningMeans([0.7, 0.72, 0.74, 0.7]);
  assert.deepEqual(r.map((p) => p.runs), [1, 2, 3, 4]);
  assert.equal(r[0].lower, 0.7);
  assert.ok(Math.abs(r[1].mean - 0.71) < 1e-12);
  // k = 2: sd = 0.014142, half = 12.706205 * 0.014142 / sqrt 2 = 0.127062
  assert.ok(Math.abs(r[1].upper - 0.71 - 12.706205 * 0.01) < 1e-6);
  // k = 3: mean 0.72, sd 0.02, half = 4.302653 * 0.02 / sqrt 3
  assert.ok(Math.abs(r[2].lower - (0.72 - 4.302653 * 0.02 / Math.sqrt(3))) < 1e-6);
});

Deno.test("compareOverRuns = compareSystems on per-question means (exact p by hand)", () => {
  // a's seeds: per question means 1, 1, 0.5, 1; b's: 0.5, 0, 0.5, 0 -> differences 0.5, 1, 0, 1
  const a = [run({ q1: 1, q2: 1, q3: 0, q4: 1 }), run({ q1: 1, q2: 1, q3: 1, q4: 1 })];
  const b = [run({ q1: 0, q2: 0, q3: 0.5, q4: 0 }), run({ q1: 1, q2: 0, q3: 0.5, q4: 0 })];
  const t = compareOverRuns({ a, b }, ["map"]);
  const direct = compareSystems({ a: meanOverRuns(a), b: meanOverRuns(b) }, ["map"]);
  assert.deepEqual(t, direct);
  // 16 sign assignments of (0.5, 1, 0, 1), sum 2.5: |sum| >= 2.5 for +-(0.5,1,·,1): 2 x 2 of 16
  assert.equal(t.pairs[0].p, 4 / 16);
  assert.equal(t.cells.a.map.mean, 0.875);
  const rows = comparisonRows(t);
  assert.deepEqual(rows, [{
    measure: "map",
    a: "a",
    b: "b",
    "mean a": 0.875,
    "mean b": 0.25,
    "a - b": 0.625,
    p: 0.25,
    "p <= 0.05": "no",
  }]);
  const three = comparisonRows(compareOverRuns(new Map([["a", a], ["b", b], ["c", b]]), ["map"]));
  assert.ok("p (holm)" in three[0]);
});

Deno.test("singleRunComparisons: one run against one, for every same-index or every pair", () => {
  const a = [run({ q1: 1, q2: 1, q3: 1 }), run({ q1: 0, q2: 0, q3: 0 })];
  const b = [run({ q1: 0, q2: 0, q3: 0 }), run({ q1: 0, q2: 0, q3: 0 })];
  const same = singleRunComparisons(a, b, "map");
  assert.deepEqual(same.map((c) => [c.runA, c.runB, c.meanA, c.meanB, c.p]), [
    [0, 0, 1, 0, 2 / 8], // exact: only all-plus and all-minus reach |sum| 3
    [1, 1, 0, 0, 1],
  ]);
  const all = singleRunComparisons(a, b, "map", { pairs: "all" });
  assert.equal(all.length, 4);
  assert.throws(() => singleRunComparisons(a, [b[0]], "map"), /as many runs/);
  assert.throws(() => singleRunComparisons(a, [run({ q9: 1 }), b[1]], "map"), /different queries/);
});

Deno.test("varianceRatioTest: F(1, d) is t squared, F(2, 2) has cdf x / (1 + x), tables", () => {
  // F(2, 2): P(F <= x) = x / (1 + x). Variances 9 and 1 (sd 3 and 1, three runs each).
  const r = varianceRatioTest([0, 3, 6], [0, 1, 2]);
  assert.deepEqual([r.ratio, r.df1, r.df2], [9, 2, 2]);
  assert.ok(Math.abs(r.p - 2 * (1 - 9 / 10)) < 1e-12);
  // order does not matter for the two-sided p
  assert.ok(Math.abs(varianceRatioTest([0, 1, 2], [0, 3, 6]).p - r.p) < 1e-12);
  // tabulated upper 2.5% point F(10, 10) = 3.7168: two-sided p = 0.05
  const eleven = (sd: number) => Array.from({ length: 11 }, (_, i) => (i - 5) * sd);
  const base = eleven(1);
  const scaled = eleven(Math.sqrt(3.7168));
  assert.ok(Math.abs(varianceRatioTest(scaled, base).p - 0.05) < 2e-4);
  // F(1, 10) = T(10)^2: P(F >= 2.228139^2) = 0.05 two-sided t -> F upper tail 0.05, p 0.1
  const two = [0, Math.SQRT2 * 2.228139]; // variance 2.228139^2
  const f = varianceRatioTest(two, eleven(1));
  assert.ok(Math.abs(f.ratio - 2.228139 ** 2 / 11) < 1e-9);
  const g = varianceRatioTest(two, eleven(Math.sqrt(1 / 11)));
  assert.ok(Math.abs(g.p - 0.1) < 1e-6, String(g.p));
  // degenerate spreads
  assert.equal(varianceRatioTest([1, 1], [2, 2]).p, 1);
  assert.equal(varianceRatioTest([1, 1], [2, 3]).p, 0);
  assert.equal(varianceRatioTest([1, 2], [2, 2]).p, 0);
  assert.throws(() => varianceRatioTest([1], [1, 2]), /at least two runs/);
});

Deno.test("singleRunComparisons extremes: best of a against worst of b, and the reverse", () => {
  const a = [run({ q1: 0.5, q2: 0.5 }), run({ q1: 1, q2: 1 }), run({ q1: 0, q2: 0.5 })];
  const b = [run({ q1: 0.2, q2: 0.2 }), run({ q1: 0.9, q2: 0.9 })];
  const [lucky, unlucky] = singleRunComparisons(a, b, "map", { pairs: "extremes" });
  assert.deepEqual([lucky.runA, lucky.runB, lucky.meanA, lucky.meanB], [1, 0, 1, 0.2]);
  assert.deepEqual([unlucky.runA, unlucky.runB], [2, 1]);
  assert.equal(lucky.p, 0.5); // two questions, both +0.8: exact 2 of 4
});

Deno.test("spreadRows and robustnessRows: hand-worked means, sds and changes", () => {
  const r = (v: number) =>
    new Map([["q1", { map: v, recip_rank: v }], ["q2", { map: v / 2, recip_rank: v }]]);
  // per-run MAP: r(0.8) -> 0.6, r(0.4) -> 0.3
  const rows = spreadRows({ x: [r(0.8), r(0.4)] }, { map: "MAP" });
  assert.equal(rows.length, 1);
  assert.equal(rows[0].system, "x");
  assert.ok(Math.abs((rows[0].mean as number) - 0.45) < 1e-12);
  assert.ok(Math.abs((rows[0].sd as number) - 0.3 / Math.SQRT2) < 1e-12);
  const table = robustnessRows(
    [
      { setting: "0%", system: "ft", runs: [r(0.8), r(0.8)] },
      { setting: "0%", system: "tanda", runs: [r(0.4), r(0.8)] },
      { setting: "10%", system: "ft", runs: [r(0.4), r(0.4)] },
      { setting: "10%", system: "tanda", runs: [r(0.8), r(0.8)] },
    ],
    { map: "MAP", recip_rank: "MRR" },
    "0%",
  );
  assert.deepEqual(table, [
    {
      setting: "0%",
      "ft MAP": "0.6000 ± 0.0000",
      "ft MRR": "0.8000 ± 0.0000",
      "ft MAP change": "0.0%",
      "tanda MAP": "0.4500 ± 0.2121",
      "tanda MRR": "0.6000 ± 0.2828",
      "tanda MAP change": "0.0%",
    },
    {
      setting: "10%",
      "ft MAP": "0.3000 ± 0.0000",
      "ft MRR": "0.4000 ± 0.0000",
      "ft MAP change": "-50.0%",
      "tanda MAP": "0.6000 ± 0.0000",
      "tanda MRR": "0.8000 ± 0.0000",
      "tanda MAP change": "+33.3%",
    },
  ]);
  assert.throws(
    () => robustnessRows([{ setting: "5%", system: "ft", runs: [r(1)] }], { map: "MAP" }, "0%"),
    /ft has no runs at '0%'/,
  );
});
