/**
 * The randomization test's counting (`lib/stats/randomization.ts`) against independent
 * computations: a plain loop per test over the same draws (the engine before the shared pass:
 * each test's p-value must be the same), the exact test by enumerating every sign assignment
 * (written here, not the kit's), scipy's `permutation_test` with paired samples where scipy is
 * installed, and the p-values' distribution under the null hypothesis.
 */
import assert from "node:assert/strict";
import { exactSignFlipCount, signFlipCounts } from "../../lib/stats/randomization.ts";
import { mulberry32 } from "../../lib/stats/random.ts";
import { compareSystems } from "../../lib/stats/compare.ts";
import { pairedRandomizationTest } from "../../lib/stats/significance.ts";
import { runPython, scipyPython } from "../helpers.ts";

/** One test at a time: a fresh generator from the seed, signs drawn query by query. */
function plainCount(d: readonly number[], trials: number, seed: number): number {
  let observed = 0;
  for (const x of d) observed += x;
  const bound = Math.abs(observed) - 1e-12 * Math.max(1, Math.abs(observed));
  const random = mulberry32(seed);
  let count = 0;
  for (let t = 0; t < trials; t++) {
    let s = 0;
    for (let i = 0; i < d.length; i++) s += random() < 0.5 ? -d[i] : d[i];
    if (Math.abs(s) >= bound) count++;
  }
  return count;
}

/** Differences of one kind: continuous, on P@5's grid of fifths (exact ties), or mostly 0. */
function differences(n: number, kind: number, seed: number, shift: number): number[] {
  const r = mulberry32(seed);
  return Array.from({ length: n }, () => {
    const x = r() - 0.5 + shift;
    if (kind === 0) return x;
    if (kind === 1) return Math.round(x * 5) / 5;
    return r() < 0.8 ? 0 : Math.round(x * 4) / 4;
  });
}

Deno.test("signFlipCounts: each test's count is that of its own plain loop over the same draws", () => {
  let compared = 0;
  for (const n of [1, 5, 8, 9, 17, 64, 333]) {
    for (const trials of [1, 7, 500]) {
      for (const blockTrials of [undefined, 3, 64]) {
        // 20 tests: two chunks of the pass (16 and 4).
        const tests = Array.from(
          { length: 20 },
          (_, k) => differences(n, k % 3, 1000 * n + k, 0.05 * (k % 4)),
        );
        const seed = n * 7 + trials;
        const got = signFlipCounts(tests, { trials, seed, blockTrials });
        tests.forEach((d, k) => {
          assert.equal(got[k], plainCount(d, trials, seed), `n ${n}, trials ${trials}, test ${k}`);
          compared++;
        });
      }
    }
  }
  assert.equal(compared, 7 * 3 * 3 * 20);
});

Deno.test("signFlipCounts: exact ties with the observed sum count, on a grid and with many zeros", () => {
  // Every |sum| of ±0.2 over 10 queries is a multiple of 0.2; the observed 2.0 (all +) is
  // reached by the all-plus and all-minus assignments only.
  const d = new Array(10).fill(0.2);
  const trials = 20_000;
  const [count] = signFlipCounts([d], { trials, seed: 1 });
  assert.equal(count, plainCount(d, trials, 1));
  assert.equal(exactSignFlipCount(d), 2);
  // Zeros flip freely: the statistic never changes.
  assert.deepEqual(signFlipCounts([[0, 0, 0], [1, 0, 0]], { trials: 99, seed: 5 }), [99, 99]);
});

/** The exact two-sided p by enumeration, written from the definition (not the kit's). */
function bruteExactP(d: readonly number[]): number {
  const n = d.length;
  const observed = Math.abs(d.reduce((a, b) => a + b, 0));
  let count = 0;
  for (let mask = 0; mask < 2 ** n; mask++) {
    let s = 0;
    d.forEach((x, i) => s += mask & (1 << i) ? -x : x);
    if (Math.abs(s) >= observed - 1e-9) count++;
  }
  return count / 2 ** n;
}

/** Small paired cases: values as per-query AP/P@5 could be, ties and equal values included. */
function smallCases(): { a: number[]; b: number[] }[] {
  const r = mulberry32(11);
  const cases = [];
  for (let c = 0; c < 40; c++) {
    const n = 3 + (c % 10);
    const grid = c % 2 === 0;
    const v = () => grid ? Math.floor(r() * 6) / 5 : r();
    const a = Array.from({ length: n }, v);
    const b = a.map((x) => r() < 0.25 ? x : Math.min(1, Math.max(0, x + (r() - 0.6) * 0.5)));
    cases.push({ a, b });
  }
  return cases;
}

Deno.test("pairedRandomizationTest: exact p equals the brute-force enumeration; the sampled one agrees within its binomial error", () => {
  for (const { a, b } of smallCases()) {
    const d = a.map((x, i) => x - b[i]);
    const want = bruteExactP(d);
    const exact = pairedRandomizationTest(a, b);
    assert(exact.exact);
    assert(Math.abs(exact.p - want) < 1e-12, `exact ${exact.p} vs brute force ${want}`);
    // 2^n > exactUpTo: drawn. 20,000 trials: sd of p at most 0.0036; 5 sd allowed.
    const drawn = pairedRandomizationTest(a, b, { trials: 20_000, exactUpTo: 1, seed: 3 });
    assert(!drawn.exact);
    const sd = Math.sqrt(want * (1 - want) / 20_000);
    assert(
      Math.abs(drawn.p - want) <= 5 * sd + 1 / 20_001,
      `n ${d.length}: drawn ${drawn.p}, exact ${want}`,
    );
  }
});

// The oracle's Python (tests/helpers.ts: QA_KIT_REQUIRE_SCIPY=1 makes its absence a failure).
const PYTHON = scipyPython();
if (!PYTHON) {
  console.error(
    "skipping the scipy check: no python3 with scipy (set KIT_SCIPY_PYTHON to one that has it)",
  );
}

Deno.test({
  name:
    "pairedRandomizationTest and compareSystems: exact p-values equal scipy's permutation_test (paired samples, exact)",
  ignore: !PYTHON,
  fn: async () => {
    const cases = smallCases();
    const script = [
      "import json, sys, numpy as np",
      "from scipy.stats import permutation_test",
      "out = []",
      "for c in json.load(sys.stdin):",
      "    a, b = np.array(c['a']), np.array(c['b'])",
      "    r = permutation_test((a, b), lambda x, y, axis: np.mean(x - y, axis=axis),",
      "        permutation_type='samples', vectorized=True, n_resamples=np.inf,",
      "        alternative='two-sided')",
      "    out.append(float(r.pvalue))",
      "print(json.dumps(out))",
    ].join("\n");
    const scipy = await runPython(PYTHON!, script, cases) as number[];
    cases.forEach(({ a, b }, i) => {
      const kit = pairedRandomizationTest(a, b);
      assert(kit.exact);
      assert(Math.abs(kit.p - scipy[i]) < 1e-9, `case ${i}: kit ${kit.p}, scipy ${scipy[i]}`);
      // The same pair inside a table of three systems: the same raw p.
      const rows = (v: number[]) => new Map(v.map((x, q) => [`q${q}`, { map: x }]));
      const t = compareSystems({ x: rows(a), y: rows(b), z: rows(b.map(() => 0.5)) }, ["map"]);
      assert.equal(t.pairs[0].p, kit.p);
    });
  },
});

Deno.test("compareSystems: each pair's p is pairedRandomizationTest's for that pair alone (one shared pass)", () => {
  const r = mulberry32(4);
  const n = 120;
  const systems: Record<string, Map<string, Record<string, number>>> = {};
  for (const name of ["s1", "s2", "s3", "s4"]) {
    systems[name] = new Map(Array.from({ length: n }, (_, q) => [
      `q${String(q).padStart(3, "0")}`,
      { map: r(), P_5: Math.floor(r() * 6) / 5 },
    ]));
  }
  const t = compareSystems(systems, ["map", "P_5"], { trials: 3000, seed: 9 });
  assert.equal(t.pairs.length, 12);
  for (const p of t.pairs) {
    const values = (s: string) => [...systems[s].values()].map((v) => v[p.measure]);
    const alone = pairedRandomizationTest(values(p.a), values(p.b), { trials: 3000, seed: 9 });
    assert.equal(p.p, alone.p, `${p.measure} ${p.a} ${p.b}`);
  }
  assert.match(t.testDetail, /3000 random sign assignments, seed 9/);
  assert.match(t.hypothesis, /exchangeable/);
});

Deno.test("randomization test under the null hypothesis: p-values uniform (share below 0.05, 0.25, 0.5)", () => {
  // 400 data sets of 40 symmetric differences; p of each with 2,000 trials.
  const r = mulberry32(77);
  const ps: number[] = [];
  for (let k = 0; k < 400; k++) {
    const a = Array.from({ length: 40 }, () => r());
    const b = a.map((x) => x + (r() - 0.5) * (r() < 0.5 ? 1 : -1));
    ps.push(pairedRandomizationTest(a, b, { trials: 2000, seed: k }).p);
  }
  for (const level of [0.05, 0.25, 0.5]) {
    const share = ps.filter((p) => p <= level).length / ps.length;
    const sd = Math.sqrt(level * (1 - level) / ps.length);
    assert(Math.abs(share - level) <= 4 * sd, `share ${share} at ${level}`);
  }
});
