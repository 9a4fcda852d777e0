/**
 * Every number of each test of a family against SciPy and NumPy, an independent
 * implementation, on random data with a system given twice (so some pairs are the same test,
 * counted once): `scipy.stats.ttest_rel` (statistic, df, pvalue, and `confidence_interval` at
 * the family's level 1 - alpha/m), and the effect size as NumPy's mean(d) / std(d, ddof=1).
 * Runs with the Python `scipyPython` finds (tests/helpers.ts); otherwise it is ignored with
 * the reason printed (a failure under QA_KIT_REQUIRE_SCIPY=1).
 */
import assert from "node:assert/strict";
import { testFamily } from "../../lib/stats/family.ts";
import { runPython, scipyPython } from "../helpers.ts";

// The oracle's Python (tests/helpers.ts: QA_KIT_REQUIRE_SCIPY=1 makes its absence a failure).
const PYTHON = scipyPython();
if (!PYTHON) console.error("skipping the SciPy anchors of the family: no python3 with scipy");

const SCRIPT = `
import json, sys
import numpy as np
from scipy import stats
out = []
for c in json.load(sys.stdin):
    a, b = np.array(c["a"]), np.array(c["b"])
    t = stats.ttest_rel(a, b)
    ci = t.confidence_interval(c["level"])
    d = a - b
    out.append({"t": float(t.statistic), "df": int(t.df), "p": float(t.pvalue),
                "lower": float(ci.low), "upper": float(ci.high),
                "d_z": float(np.mean(d) / np.std(d, ddof=1))})
print(json.dumps(out))
`;

Deno.test({
  name: "testFamily: t, df, p, the interval at 1 - alpha/m and Cohen's d_z agree with SciPy " +
    "and NumPy, a system given twice counted once in m",
  ignore: !PYTHON,
  async fn() {
    let s = 29;
    const r = () => (s = (s * 48271) % 2147483647) / 2147483647;
    const families = [];
    for (const n of [5, 12, 40, 237]) {
      const column = (shift: number) =>
        Array.from({ length: n }, () => Math.min(1, Math.round(r() * 12) / 12 + shift));
      const v: Record<string, number[]> = { x: column(0.1), y: column(0), z: column(0.05) };
      v.w = v.y.map((x) => Math.max(0, x - (r() < 0.4 ? 1 / 12 : 0)));
      v.ycopy = [...v.y]; // y given twice
      const q = (values: number[], other: number[]) =>
        new Map(
          values.map((x, j) => [`q${String(j).padStart(3, "0")}`, { map: x, P_1: other[j] }]),
        );
      const names = Object.keys(v);
      const pairs = names.flatMap((a, i) =>
        names.slice(i + 1).map((b): [string, string] => [a, b])
      );
      // P@1 of each system: its MAP rounded, so the classes are the same on both measures.
      const systems = Object.fromEntries(
        names.map((k) => [k, q(v[k], v[k].map((x) => x >= 0.5 ? 1 : 0))]),
      );
      const f = testFamily(systems, pairs, ["map", "P_1"], { alpha: 0.1 });
      families.push({ f, v, n });
    }
    const cases = families.flatMap(({ f, v }) =>
      f.tests.map((t) => {
        const of = (name: string) =>
          t.measure === "map" ? v[name] : v[name].map((x) => x >= 0.5 ? 1 : 0);
        return { a: of(t.a), b: of(t.b), level: f.levels[t.measure] };
      })
    );
    // deno-lint-ignore no-explicit-any
    const expected: any[] = await runPython(PYTHON!, SCRIPT, cases) as any[];
    const close = (x: number, y: number) => Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(y));
    let k = 0;
    for (const { f, n } of families) {
      // By hand: 5 systems, y = ycopy: 10 pairs, (y, ycopy) identical, x - ycopy, z - ycopy
      // and w - ycopy the tests x - y, y - z and y - w again: 6 distinct tests.
      assert.deepEqual(f.sizes.map, 6, `n ${n}`);
      assert.deepEqual(f.identical.filter((p) => p.measure === "map").map((p) => p.b), ["ycopy"]);
      const same = f.tests.filter((t) => t.measure === "map").flatMap((t) => t.same);
      assert.deepEqual(same, [["x", "ycopy"], ["ycopy", "z"], ["ycopy", "w"]]);
      for (const t of f.tests) {
        const e = expected[k++];
        const what = `n ${n} ${t.measure} ${t.a}-${t.b}`;
        const m = f.sizes[t.measure];
        assert.equal(f.levels[t.measure], 1 - 0.1 / m);
        assert.ok(close(t.t, e.t), `${what}: t ${t.t} against ${e.t}`);
        assert.equal(t.df, e.df, what);
        assert.equal(t.df, n - 1, what);
        assert.ok(close(t.p, e.p), `${what}: p ${t.p} against ${e.p}`);
        assert.equal(t.pAdjusted, Math.min(1, m * t.p));
        assert.ok(
          close(t.lower, e.lower) && close(t.upper, e.upper),
          `${what}: [${t.lower}, ${t.upper}] against [${e.lower}, ${e.upper}]`,
        );
        assert.ok(close(t.effectSize, e.d_z), `${what}: d_z ${t.effectSize} against ${e.d_z}`);
      }
    }
    assert.equal(k, expected.length);
  },
});
