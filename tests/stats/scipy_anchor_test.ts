/**
 * The family of tests and the sign test against SciPy, an independent implementation:
 * `scipy.stats.ttest_rel` (p and `confidence_interval` at the family's level) and
 * `scipy.stats.binomtest`. Runs with the Python `scipyPython` finds (tests/helpers.ts);
 * otherwise it is ignored with the reason printed (a failure under QA_KIT_REQUIRE_SCIPY=1).
 */
import assert from "node:assert/strict";
import { testFamily } from "../../lib/stats/family.ts";
import { signTest } from "../../lib/stats/sign_test.ts";
import { runPython, scipyPython } from "../helpers.ts";

// The oracle's Python (tests/helpers.ts: QA_KIT_REQUIRE_SCIPY=1 makes its absence a failure).
const PYTHON = scipyPython();
if (!PYTHON) console.error("skipping the SciPy anchors: no python3 with scipy");

const SCRIPT = `
import json, sys
from scipy import stats
cases = json.load(sys.stdin)
out = []
for c in cases:
    t = stats.ttest_rel(c["a"], c["b"])
    ci = t.confidence_interval(c["level"])
    w = sum(1 for x, y in zip(c["a"], c["b"]) if x > y)
    l = sum(1 for x, y in zip(c["a"], c["b"]) if x < y)
    out.append({"p": float(t.pvalue), "lower": float(ci.low), "upper": float(ci.high),
                "sign": float(stats.binomtest(w, w + l).pvalue) if w + l else 1.0})
print(json.dumps(out))
`;

Deno.test({
  name:
    "testFamily and signTest agree with scipy.stats (ttest_rel, its confidence_interval, binomtest)",
  ignore: !PYTHON,
  async fn() {
    let s = 5;
    const r = () => (s = (s * 48271) % 2147483647) / 2147483647;
    const cases: { a: number[]; b: number[]; level: number; m: number }[] = [];
    for (const n of [5, 12, 40, 237]) {
      for (const m of [1, 2, 5]) {
        const a = Array.from({ length: n }, () => Math.round(r() * 12) / 12);
        const b = a.map((x) => Math.max(0, Math.min(1, x + (r() - 0.45) * 0.4)));
        cases.push({ a, b, level: 1 - 0.05 / m, m });
      }
    }
    // deno-lint-ignore no-explicit-any
    const expected: any = await runPython(PYTHON!, SCRIPT, cases);
    cases.forEach((c, i) => {
      const q = (v: number[]) =>
        new Map(v.map((x, j) => [`q${String(j).padStart(3, "0")}`, { map: x }]));
      // A family of m pairs whose first pair is (a, b): the level is 1 - 0.05 / m.
      const others = Object.fromEntries(
        Array.from({ length: c.m - 1 }, (_, k) => [`o${k}`, q(c.b.map((x) => x * 0.5 + k * 0.01))]),
      );
      const pairs: [string, string][] = [
        ["a", "b"],
        ...Object.keys(others).map((o): [string, string] => ["a", o]),
      ];
      const t = testFamily({ a: q(c.a), b: q(c.b), ...others }, pairs, ["map"]).tests[0];
      const e = expected[i];
      const close = (x: number, y: number) => Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(y));
      assert.ok(close(t.p, e.p), `case ${i}: p ${t.p} against ${e.p}`);
      assert.ok(
        close(t.lower, e.lower) && close(t.upper, e.upper),
        `case ${i}: [${t.lower}, ${t.upper}] against [${e.lower}, ${e.upper}]`,
      );
      assert.ok(close(signTest(c.a, c.b).p, e.sign), `case ${i}: sign test`);
    });
  },
});

const IDENTICAL_SCRIPT = `
import json, sys, warnings
from scipy import stats
c = json.load(sys.stdin)
out = {}
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    same = stats.ttest_rel(c["mine"], c["copy"])
out["identical"] = str(float(same.pvalue))
for o in ("bm25", "ltr"):
    t = stats.ttest_rel(c["mine"], c[o])
    ci = t.confidence_interval(1 - 0.05 / 2)
    out[o] = {"p": float(t.pvalue), "lower": float(ci.low), "upper": float(ci.high)}
print(json.dumps(out))
`;

Deno.test({
  name: "testFamily: a pair identical on every question is untestable in SciPy too (nan), and " +
    "left out of m: the other pairs adjusted over m = 2 at SciPy's 1 - 0.05/2 intervals",
  ignore: !PYTHON,
  async fn() {
    // By hand: the same run under two names (mine, copy) beside two other systems.
    const mine = [0.5, 1, 0.25, 1, 0.3333333333333333, 0.5, 1, 0, 0.75, 1];
    const bm25 = [0.5, 0.5, 0.2, 1, 0.25, 0.5, 0.5, 0, 0.5, 1];
    const ltr = [1, 1, 0.25, 0.5, 0.5, 0.5, 1, 0.1, 0.75, 0.5];
    // deno-lint-ignore no-explicit-any
    const e: any = await runPython(PYTHON!, IDENTICAL_SCRIPT, { mine, copy: mine, bm25, ltr });
    assert.equal(e.identical, "nan");
    const q = (v: number[]) => new Map(v.map((x, j) => [`q${j}`, { map: x }]));
    const f = testFamily(
      { mine: q(mine), copy: q(mine), bm25: q(bm25), ltr: q(ltr) },
      [["mine", "copy"], ["mine", "bm25"], ["mine", "ltr"]],
      ["map"],
    );
    assert.deepEqual(f.identical, [{
      measure: "map",
      a: "mine",
      b: "copy",
      mean: mine.reduce((s, x) => s + x, 0) / mine.length,
    }]);
    assert.deepEqual([f.size, f.sizes, f.level], [2, { map: 2 }, 1 - 0.05 / 2]);
    assert.deepEqual(f.tests.map((t) => t.b), ["bm25", "ltr"]);
    const close = (x: number, y: number) => Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(y));
    for (const t of f.tests) {
      const s = e[t.b];
      assert.ok(close(t.p, s.p), `${t.b}: p ${t.p} against ${s.p}`);
      assert.equal(t.pAdjusted, Math.min(1, 2 * t.p));
      assert.ok(close(t.lower, s.lower) && close(t.upper, s.upper), `${t.b}: interval`);
    }
  },
});
