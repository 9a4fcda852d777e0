/**
 * One test per question asked: systems identical on every question of a measure are one
 * system there, so pairs that join the same two of them are one test, counted once in m
 * (`testFamily`, `compareSystems`); the families chosen on purpose (`familyPairs`: all, mine,
 * baseline:NAME) and the readings under the other families (`otherReadings`). Checked against
 * m and the adjusted p worked out by hand, and `eval compare`'s Holm against the exact
 * randomization test enumerated here, with Holm's step-down written out in this file.
 */
import "../quick.ts";
import assert from "node:assert/strict";
import {
  familyDescription,
  familyPairs,
  otherReadings,
  pairRoles,
  parseFamily,
  sameTestLines,
  sameTestsOf,
  testFamily,
  testName,
} from "../../lib/stats/family.ts";
import { compareSystems } from "../../lib/stats/compare.ts";
import { KitError } from "../../lib/errors.ts";

const perQuery = (v: number[]) =>
  new Map(v.map((x, i) => [`q${String(i).padStart(2, "0")}`, { map: x, P_1: x >= 0.5 ? 1 : 0 }]));

/** A small deterministic generator for the test's data (not the kit's). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 48271) % 2147483647) / 2147483647;
}

const r = lcg(17);
const column = () => Array.from({ length: 12 }, () => Math.round(r() * 8) / 8);
const A = column();
/** Users a, b, c; baselines "BM25 (kit)" (a's run, every question) and "ltr (kit)". */
const SYSTEMS = {
  a: perQuery(A),
  b: perQuery(column()),
  c: perQuery(column()),
  "BM25 (kit)": perQuery([...A]),
  "ltr (kit)": perQuery(column()),
};
const USERS = ["a", "b", "c"];
const BASELINES = ["BM25 (kit)", "ltr (kit)"];

Deno.test("testFamily: a kit baseline identical to a: 9 pairs asked, 6 distinct tests, p x 6", () => {
  const pairs = familyPairs(USERS, BASELINES, "all");
  assert.deepEqual(pairs, [
    ["a", "b"],
    ["a", "c"],
    ["b", "c"],
    ["a", "BM25 (kit)"],
    ["a", "ltr (kit)"],
    ["b", "BM25 (kit)"],
    ["b", "ltr (kit)"],
    ["c", "BM25 (kit)"],
    ["c", "ltr (kit)"],
  ]);
  const f = testFamily(SYSTEMS, pairs, ["map"]);
  assert.deepEqual(f.identical.map((p) => [p.a, p.b]), [["a", "BM25 (kit)"]]);
  assert.deepEqual([f.size, f.sizes, f.level], [6, { map: 6 }, 1 - 0.05 / 6]);
  assert.deepEqual(f.tests.map((t) => [t.a, t.b, t.same]), [
    ["a", "b", [["BM25 (kit)", "b"]]],
    ["a", "c", [["BM25 (kit)", "c"]]],
    ["b", "c", []],
    ["a", "ltr (kit)", []],
    ["b", "ltr (kit)", []],
    ["c", "ltr (kit)", []],
  ]);
  for (const t of f.tests) {
    assert.equal(t.pAdjusted, Math.min(1, 6 * t.p));
    assert.equal(t.significant, t.pAdjusted <= 0.05);
  }
  assert.deepEqual(f.tests.map(testName), [
    "a = BM25 (kit) – b",
    "a = BM25 (kit) – c",
    "b – c",
    "a – ltr (kit)",
    "b – ltr (kit)",
    "c – ltr (kit)",
  ]);
  // The same differences up to sign: b - BM25 is -(a - b) question by question.
  const ab = f.tests[0];
  const b = [...SYSTEMS.b.values()].map((v) => v.map);
  const d = A.map((x, i) => x - b[i]);
  assert.ok(Math.abs(ab.difference - d.reduce((s, x) => s + x, 0) / 12) < 1e-12);
  // Two measures: the sentence names every measure at once.
  const g = testFamily(SYSTEMS, pairs, ["map", "P_1"]);
  assert.deepEqual(g.sizes, { map: 6, P_1: 6 });
  assert.deepEqual(sameTestLines(g, (m) => m), [
    // Asked as (b, BM25): said as "BM25 (kit)" – "b", on a's side.
    'the pairs "a" – "b" and "BM25 (kit)" – "b" are one test, a = BM25 (kit) – b (the systems ' +
    'joined by "=" are identical on every question of every measure): it is tested once and ' +
    "counted once in m",
    'the pairs "a" – "c" and "BM25 (kit)" – "c" are one test, a = BM25 (kit) – c (the systems ' +
    'joined by "=" are identical on every question of every measure): it is tested once and ' +
    "counted once in m",
  ]);
});

Deno.test("testFamily: a duplicate is oriented like its test, the a side's system first", () => {
  const q = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
  const a = q([1, 0.5, 0.25, 0, 1]), b = q([0.5, 0.5, 0, 0.25, 0.25]);
  // Asked as (b, a), then (copy, b), then (b, copy): listed as [b, copy] both times.
  const f = testFamily({ a, b, copy: a }, [["b", "a"], ["copy", "b"], ["b", "copy"]], ["map"]);
  assert.deepEqual(f.tests.map((t) => [t.a, t.b, t.same]), [
    ["b", "a", [["b", "copy"], ["b", "copy"]]],
  ]);
  assert.equal(testName(f.tests[0]), "b – a = copy");
  assert.deepEqual(f.sizes, { map: 1 });
  // Measure by measure: identical on MAP only, two tests on P@1.
  const p = (map: number[], p1: number[]) =>
    new Map(map.map((x, i) => [`q${i}`, { map: x, P_1: p1[i] }]));
  const g = testFamily(
    {
      x: p([1, 0.5, 0], [1, 0, 0]),
      y: p([1, 0.5, 0], [1, 1, 0]),
      z: p([0.5, 0, 0], [0, 0, 1]),
    },
    [["x", "z"], ["y", "z"]],
    ["map", "P_1"],
  );
  assert.deepEqual(g.sizes, { map: 1, P_1: 2 });
  assert.deepEqual(g.tests.map((t) => `${t.measure} ${testName(t)}`), [
    "map x = y – z",
    "P_1 x – z",
    "P_1 y – z",
  ]);
  assert.deepEqual(sameTestLines(g, (m) => m.toUpperCase()), [
    'the pairs "x" – "z" and "y" – "z" are one test, x = y – z (the systems joined by "=" are ' +
    "identical on every question for MAP): it is tested once there and counted once in its m",
  ]);
});

Deno.test("testFamily: a class of three identical systems is one system", () => {
  const q = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
  const a = [0.2, 0.9, 0.4, 0.6, 0.1, 0.8];
  const systems = {
    a: q(a),
    a2: q([...a]),
    a3: q(a.map((x) => x + 1e-13)), // the last bits differ: identical still
    b: q([0.5, 0.5, 0.5, 0.4, 0.3, 0.6]),
    c: q([0.1, 0.2, 0.3, 0.1, 0.2, 0.3]),
  };
  const names = Object.keys(systems);
  const pairs = names.flatMap((x, i) => names.slice(i + 1).map((y): [string, string] => [x, y]));
  const f = testFamily(systems, pairs, ["map"]);
  assert.deepEqual(f.identical.map((p) => `${p.a}-${p.b}`), ["a-a2", "a-a3", "a2-a3"]);
  assert.deepEqual(f.tests.map((t) => [testName(t), t.same.length]), [
    ["a = a2 = a3 – b", 2],
    ["a = a2 = a3 – c", 2],
    ["b – c", 0],
  ]);
  assert.deepEqual(f.sizes, { map: 3 });
  for (const t of f.tests) assert.equal(t.pAdjusted, Math.min(1, 3 * t.p));
  // pairRoles alone, the same classes.
  const same = (x: string, y: string) => x[0] === y[0];
  assert.deepEqual(pairRoles([["a", "a2"], ["a2", "b"], ["b", "a3"], ["a", "b"]], same), [
    "identical",
    { test: 1, flipped: false },
    { test: 1, flipped: true },
    { test: 1, flipped: false },
  ]);
});

Deno.test("families chosen on purpose: all, mine, baseline:NAME give the stated m", () => {
  const distinct = {
    ...SYSTEMS,
    "BM25 (kit)": perQuery(A.map((x) => Math.max(0, x - 0.125))),
  };
  const m = (systems: typeof SYSTEMS, choice: string) =>
    testFamily(systems, familyPairs(USERS, BASELINES, parseFamily(choice)), ["map"]).size;
  // k users, l baselines: all = k(k-1)/2 + k l, mine = k(k-1)/2, baseline:N = k - 1 for k
  // systems in the experiment (PyTerrier's form).
  assert.equal(m(distinct, "all"), 3 + 6);
  assert.equal(m(distinct, "mine"), 3);
  assert.equal(m(distinct, "baseline:ltr (kit)"), 3);
  assert.equal(m(distinct, "baseline:b"), 2);
  // With BM25 = a: all counts 6; against BM25, a's pair is no test.
  assert.equal(m(SYSTEMS, "all"), 6);
  assert.equal(m(SYSTEMS, "baseline:BM25 (kit)"), 2);
  assert.deepEqual(familyPairs(USERS, BASELINES, "baseline:BM25 (kit)"), [
    ["a", "BM25 (kit)"],
    ["b", "BM25 (kit)"],
    ["c", "BM25 (kit)"],
  ]);
  assert.deepEqual(familyPairs(["a"], BASELINES, "mine"), []);
  assert.equal(familyDescription("all"), "all pairs involving your systems");
  assert.equal(familyDescription("mine"), "your systems among themselves");
  assert.equal(familyDescription("baseline:b"), "each of your systems against b");
});

Deno.test("families: a bad choice is refused naming the three forms, a bad name the systems", () => {
  for (const text of ["", "Mine", "baseline", "baseline:", "every", " all"]) {
    assert.throws(
      () => parseFamily(text),
      (e: Error) => e instanceof KitError && /all, mine or baseline:NAME/.test(e.message),
      JSON.stringify(text),
    );
  }
  assert.throws(
    () => familyPairs(USERS, BASELINES, "baseline:bm25"),
    (e: Error) =>
      e instanceof KitError && e.message.includes("'bm25'") &&
      e.message.endsWith("a, b, c, BM25 (kit), ltr (kit)"),
  );
});

Deno.test("otherReadings: each decision another family reverses, that family's m and p", () => {
  const q = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
  const base = [0.25, 0, 0.5, 0.25, 1, 0.5];
  const systems = {
    a: q([0.5, 0.5, 0.5, 0.5, 1, 0.75]), // a - b: p = 0.042
    b: q(base),
    copy: q([...base]),
    bm25: q([0, 0, 0.5, 0.25, 0, 0.5]),
  };
  const users = ["a", "b", "copy"], baselines = ["bm25"];
  for (const choice of ["all", "mine", "baseline:bm25", "baseline:a", "baseline:b"] as const) {
    const chosen = testFamily(systems, familyPairs(users, baselines, choice), ["map"]);
    const readings = otherReadings(systems, users, baselines, ["map"], choice);
    for (const r of readings) {
      assert.notEqual(r.choice, choice);
      const t = chosen.tests.find((t) => t.a === r.a && t.b === r.b)!;
      assert.notEqual(r.significant, t.significant);
      const other = testFamily(systems, familyPairs(users, baselines, r.choice), ["map"]);
      assert.equal(r.m, other.sizes.map);
      assert.ok(Math.abs(r.pAdjusted - Math.min(1, r.m * t.p)) <= 1e-15);
    }
    if (choice === "mine") {
      // mine: a - b and a - copy are one test (m = 1), significant; all: a - b among
      // a - b, a - bm25, b - bm25 (m = 3), not; baseline:b and baseline:a: m = 1, the same.
      assert.deepEqual(chosen.tests.map(testName), ["a – b = copy"]);
      assert.deepEqual(readings.map((r) => [r.a, r.b, r.choice, r.m, r.significant]), [
        ["a", "b", "all", 3, false],
      ]);
    }
  }
});

/** Exact two-sided sign-flip p of the differences d, by enumeration (2^n assignments). */
function exactP(d: number[]): number {
  const observed = Math.abs(d.reduce((s, x) => s + x, 0));
  let hits = 0;
  for (let mask = 0; mask < 2 ** d.length; mask++) {
    let s = 0;
    d.forEach((x, i) => (s += (mask >> i) & 1 ? -x : x));
    if (Math.abs(s) >= observed - 1e-9) hits++;
  }
  return hits / 2 ** d.length;
}

Deno.test("compareSystems: a run given twice: Holm over the 3 distinct tests, by hand", () => {
  const values: Record<string, number[]> = {
    a: [1, 1, 0.5, 1, 1, 1 / 3, 1, 0.5, 1, 0.5],
    b: [0.5, 1, 1 / 3, 0.5, 1, 0.25, 0.5, 0.5, 0.5, 0.25],
    acopy: [1, 1, 0.5, 1, 1, 1 / 3, 1, 0.5, 1, 0.5],
    c: [1, 0.5, 1, 1, 1 / 3, 1, 0.5, 1, 0.25, 1],
  };
  const q = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
  const t = compareSystems(
    Object.fromEntries(Object.entries(values).map(([k, v]) => [k, q(v)])),
    ["map"],
    { trials: 2 ** 10 },
  );
  assert.match(t.testDetail, /exact: all 1024/);
  // By hand: the classes {a, acopy}, {b}, {c}; the tests a - b, a - c, b - c (the first pair of
  // each two classes, in the order of the pairs a-b, a-acopy, a-c, b-acopy, b-c, acopy-c).
  const tested = [["a", "b"], ["a", "c"], ["b", "c"]];
  const raw = tested.map(([x, y]) => exactP(values[x].map((v, i) => v - values[y][i])));
  const order = [0, 1, 2].sort((i, j) => raw[i] - raw[j]);
  const holm: number[] = [];
  let running = 0;
  order.forEach((k, step) => {
    running = Math.max(running, Math.min(1, (3 - step) * raw[k]));
    holm[k] = running;
  });
  const expected: Record<string, [number, number, string?]> = {
    "a-b": [raw[0], holm[0]],
    "a-c": [raw[1], holm[1]],
    "b-c": [raw[2], holm[2]],
    "b-acopy": [raw[0], holm[0], "a-b"],
    "acopy-c": [raw[1], holm[1], "a-c"],
  };
  const close = (x: number, y: number) => Math.abs(x - y) <= 1e-12;
  for (const p of t.pairs) {
    const k = `${p.a}-${p.b}`;
    if (k === "a-acopy") {
      assert.deepEqual([p.identical, p.p, p.sameAs], [true, null, undefined]);
      continue;
    }
    const [pRaw, pHolm, of] = expected[k];
    assert.ok(close(p.p!, pRaw) && close(p.pAdjusted!, pHolm), `${k}: ${p.p} ${p.pAdjusted}`);
    assert.equal(p.sameAs?.join("-"), of);
  }
  // Letters (a, b, acopy, c are a, b, c, d): acopy's are a's, and whoever beats a beats acopy.
  const letters = (s: string) => t.cells[s].map.betterThan.join("");
  assert.equal(letters("acopy"), letters("a"));
  assert.ok(letters("a").length > 0, "a decision for the letters to show");
  for (const s of ["b", "c"]) assert.equal(letters(s).includes("a"), letters(s).includes("c"));
  // What `eval compare` says on stderr, oriented like the test (b - acopy is acopy - b's).
  assert.deepEqual(sameTestsOf(t.pairs), [
    { measure: "map", a: "a", b: "b", same: [["acopy", "b"]] },
    { measure: "map", a: "a", b: "c", same: [["acopy", "c"]] },
    { measure: "map", a: "b", b: "c", same: [] },
  ]);
});
