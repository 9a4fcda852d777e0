/**
 * The family of tests of the systems report (`testFamily`) and the sign test (`signTest`),
 * against computations that share no code with them: Student's t by numerical integration of
 * its density (p and quantiles), Bonferroni by hand, the sign test by enumerating every sign
 * sequence; and the property the page states: a pair is significant exactly when its interval
 * excludes 0.
 */
import "../quick.ts";
import assert from "node:assert/strict";
import { testFamily } from "../../lib/stats/family.ts";
import { signTest } from "../../lib/stats/sign_test.ts";

/** Student's t density with `df` (an integer) degrees of freedom. */
function tDensity(x: number, df: number): number {
  // R(df) = Gamma((df + 1) / 2) / Gamma(df / 2): R(1) = 1 / sqrt(pi), R(2) = sqrt(pi) / 2,
  // R(df + 2) = R(df) (df + 1) / df.
  let ratio = df % 2 === 1 ? 1 / Math.sqrt(Math.PI) : Math.sqrt(Math.PI) / 2;
  for (let v = df % 2 === 1 ? 1 : 2; v < df; v += 2) ratio *= (v + 1) / v;
  return ratio / Math.sqrt(df * Math.PI) * (1 + x * x / df) ** (-(df + 1) / 2);
}

/** P(|T| >= |t|) by Simpson's rule on the density (substitution x = |t| + u / (1 - u)). */
function twoSidedP(t: number, df: number): number {
  const a = Math.abs(t);
  const n = 20000;
  let sum = 0;
  for (let i = 0; i <= n; i++) {
    const u = i / n;
    const f = u === 1 ? 0 : tDensity(a + u / (1 - u), df) / (1 - u) ** 2;
    sum += f * (i === 0 || i === n ? 1 : i % 2 ? 4 : 2);
  }
  return 2 * sum / (3 * n);
}

/** The quantile q with P(|T| >= q) = alpha, by bisection on {@link twoSidedP}. */
function twoSidedQuantile(alpha: number, df: number): number {
  let lo = 0, hi = 1000;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (twoSidedP(mid, df) > alpha) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** A small deterministic generator for the test's data (not the kit's). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 48271) % 2147483647) / 2147483647;
}

const perQuery = (v: number[]) =>
  new Map(v.map((x, i) => [`q${String(i).padStart(3, "0")}`, { map: x }]));

Deno.test("testFamily against Student's t integrated numerically and Bonferroni by hand", () => {
  const r = lcg(7);
  for (const n of [4, 9, 30, 61]) {
    const mine = Array.from({ length: n }, () => Math.round(r() * 8) / 8);
    const bm25 = Array.from({ length: n }, () => Math.round(r() * 8) / 8);
    const ltr = mine.map((x) => Math.min(1, x + (r() < 0.3 ? 0.25 : 0)));
    const pairs: [string, string][] = [["mine", "bm25"], ["mine", "ltr"], ["bm25", "ltr"]];
    const f = testFamily(
      { mine: perQuery(mine), bm25: perQuery(bm25), ltr: perQuery(ltr) },
      pairs,
      ["map"],
    );
    assert.equal(f.size, 3);
    assert.equal(f.level, 1 - 0.05 / 3);
    const values: Record<string, number[]> = { mine, bm25, ltr };
    const q = twoSidedQuantile(0.05 / 3, n - 1);
    for (const t of f.tests) {
      const d = values[t.a].map((x, i) => x - values[t.b][i]);
      const mean = d.reduce((s, x) => s + x, 0) / n;
      const sd = Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1));
      assert.ok(Math.abs(t.difference - mean) < 1e-12);
      if (sd === 0) continue;
      const tStat = mean / (sd / Math.sqrt(n));
      const p = twoSidedP(tStat, n - 1);
      assert.ok(Math.abs(t.p - p) < 1e-7, `n ${n} ${t.a}-${t.b}: p ${t.p} against ${p}`);
      assert.equal(t.pAdjusted, Math.min(1, 3 * t.p));
      const half = q * sd / Math.sqrt(n);
      assert.ok(
        Math.abs(t.lower - (mean - half)) < 1e-6,
        `lower ${t.lower} against ${mean - half}`,
      );
      assert.ok(
        Math.abs(t.upper - (mean + half)) < 1e-6,
        `upper ${t.upper} against ${mean + half}`,
      );
    }
  }
});

Deno.test("testFamily: a pair is significant exactly when its interval excludes 0 (1,000 families)", () => {
  const r = lcg(11);
  let significant = 0, not = 0;
  for (let k = 0; k < 1000; k++) {
    const n = 3 + Math.floor(r() * 40);
    const m = 1 + Math.floor(r() * 6);
    const shift = (r() - 0.5) * 0.6;
    const base = Array.from({ length: n }, () => r());
    const systems: Record<string, Map<string, Record<string, number>>> = { base: perQuery(base) };
    const pairs: [string, string][] = [];
    for (let j = 0; j < m; j++) {
      systems[`s${j}`] = perQuery(base.map((x) => x + shift + (r() - 0.5) * 0.5));
      pairs.push([`s${j}`, "base"]);
    }
    for (const t of testFamily(systems, pairs, ["map"]).tests) {
      assert.equal(t.significant, t.pAdjusted <= 0.05);
      assert.equal(t.significant, t.lower > 0 || t.upper < 0, JSON.stringify(t));
      if (t.significant) significant++;
      else not++;
    }
  }
  assert.ok(significant > 100 && not > 100, `${significant} significant, ${not} not`);
});

Deno.test("testFamily: errors name the problem", () => {
  const a = perQuery([1, 0, 1]);
  assert.throws(() => testFamily({ a }, [["a", "b"]], ["map"]), /'b', which is not a system/);
  assert.throws(() => testFamily({ a }, [["a", "a"]], ["map"]), /got 'a' twice/);
  assert.throws(
    () => testFamily({ a, b: perQuery([1, 0]) }, [["a", "b"]], ["map"]),
    /different questions/,
  );
  assert.throws(() => testFamily({ a }, [], ["map"]), /at least one pair/);
});

Deno.test("signTest against every sign sequence enumerated", () => {
  const r = lcg(3);
  for (let k = 0; k < 200; k++) {
    const n = 1 + Math.floor(r() * 16);
    const a = Array.from({ length: n }, () => Math.round(r() * 4) / 4);
    const b = Array.from({ length: n }, () => Math.round(r() * 4) / 4);
    const s = signTest(a, b);
    const wins = a.filter((x, i) => x > b[i]).length;
    const losses = a.filter((x, i) => x < b[i]).length;
    assert.deepEqual([s.wins, s.losses, s.ties], [wins, losses, n - wins - losses]);
    // Under the null each non-tied question is a win or a loss with probability 1/2: count the
    // sequences at least as unbalanced as the observed one.
    const m = wins + losses;
    const observed = Math.abs(wins - losses);
    let extreme = 0;
    for (let mask = 0; mask < 2 ** m; mask++) {
      let w = 0;
      for (let i = 0; i < m; i++) if ((mask >>> i) & 1) w++;
      if (Math.abs(w - (m - w)) >= observed) extreme++;
    }
    assert.equal(s.p, extreme / 2 ** m, `n ${n}: ${wins} wins, ${losses} losses`);
  }
  assert.equal(signTest([0.5], [0.5]).p, 1);
});

Deno.test("testFamily: a pair identical on every question is not tested and not counted in m, per measure", () => {
  const q = (rows: [number, number][]) =>
    new Map(rows.map(([map, p1], i) => [`q${i}`, { map, P_1: p1 }]));
  const mine = q([[1, 1], [0.5, 0], [0.25, 0], [1, 1], [0.5, 0]]);
  // The same values under another name; and a run equal to mine on MAP, not on P@1.
  const copy = q([[1, 1], [0.5, 0], [0.25, 0], [1, 1], [0.5, 0]]);
  const sameMap = q([[1, 1], [0.5, 1], [0.25, 0], [1, 1], [0.5, 1]]);
  const bm25 = q([[0.5, 0], [0.5, 0], [0.2, 0], [1, 1], [0.25, 0]]);
  const pairs: [string, string][] = [["mine", "copy"], ["mine", "same map"], ["mine", "bm25"]];
  const f = testFamily({ mine, copy, "same map": sameMap, bm25 }, pairs, ["map", "P_1"]);
  assert.deepEqual(
    f.identical.map((p) => `${p.measure} ${p.a}=${p.b} ${p.mean}`),
    ["map mine=copy 0.65", "map mine=same map 0.65", "P_1 mine=copy 0.4"],
  );
  assert.deepEqual(f.sizes, { map: 1, P_1: 2 });
  assert.deepEqual(f.levels, { map: 1 - 0.05, P_1: 1 - 0.05 / 2 });
  assert.equal(f.size, 2);
  assert.deepEqual(f.tests.map((t) => `${t.measure} ${t.b}`), [
    "map bm25",
    "P_1 same map",
    "P_1 bm25",
  ]);
  for (const t of f.tests) {
    const m = t.measure === "map" ? 1 : 2;
    assert.equal(t.pAdjusted, Math.min(1, m * t.p));
    // The interval at the measure's own level: it excludes 0 exactly when significant.
    const d = t.measure === "map" ? [0.5, 0, 0.05, 0, 0.25] : null;
    if (d) {
      const mean = d.reduce((s, x) => s + x, 0) / 5;
      const sd = Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / 4);
      const half = twoSidedQuantile(0.05, 4) * sd / Math.sqrt(5);
      assert.ok(Math.abs(t.lower - (mean - half)) < 1e-6, `lower ${t.lower}`);
      assert.ok(Math.abs(t.p - twoSidedP(mean / (sd / Math.sqrt(5)), 4)) < 1e-7);
    }
  }
  // Equal up to the last bits (one system's runs averaged in another order): identical too.
  const close = new Map([...mine].map(([id, v]) => [id, { map: v.map + 1e-13, P_1: v.P_1 }]));
  const g = testFamily({ mine, close, bm25 }, [["mine", "close"], ["mine", "bm25"]], ["map"]);
  assert.deepEqual([g.identical.length, g.sizes.map], [1, 1]);
  // Every pair identical: nothing tested, m = 0, no level for the measure.
  const none = testFamily({ mine, copy }, [["mine", "copy"]], ["map"]);
  assert.deepEqual([none.tests, none.size, none.sizes, none.levels], [[], 0, { map: 0 }, {}]);
});
