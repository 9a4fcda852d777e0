/**
 * The words a page or a command says about a family's pairs: a test's name
 * ({@link testName}: "a = BM25 (kit) – b"), the systems identical on every question
 * ({@link identicalSystems}, {@link identicalLines}) and the pairs that are one test
 * ({@link sameTestLines}). Re-exported by `family.ts`, which imports from here (this module
 * imports nothing from it: it reads a family's shape, a `FamilyTest` among others).
 *
 * @module
 */

/**
 * A test's name: the systems on its a side joined by " = " (a name holding " – ", "=", ":"
 * or a quote written as JSON, so the name reads one way) (the pair tested and those listed
 * in `same`, identical on every question of the measure), " – ", then those on its b side.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { testName } from "./family.ts";
 * assert.equal(testName({ a: "a", b: "b", same: [["BM25 (kit)", "b"]] }), "a = BM25 (kit) – b");
 * assert.equal(testName({ a: "a", b: "ltr (kit)" }), "a – ltr (kit)");
 * // A name that could be read as part of the name of the test is quoted.
 * assert.equal(testName({ a: "p – q", b: "x" }), '"p – q" – x');
 * ```
 */
export function testName(
  t: { a: string; b: string; same?: readonly (readonly [string, string])[] },
): string {
  // Quoted (as JSON) when it holds what joins or follows the names: " – ", "=", ":", a quote.
  const shown = (n: string) => /[–=:"]|^\s|\s$|^$/.test(n) ? JSON.stringify(n) : n;
  const [a, b] = testSides(t);
  return `${a.map(shown).join(" = ")} – ${b.map(shown).join(" = ")}`;
}

/**
 * A test's two sides: the systems on its a side (the pair tested, then those of `same`, each
 * once, in order) and those on its b side.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { testSides } from "./family.ts";
 * assert.deepEqual(testSides({ a: "a", b: "b", same: [["BM25 (kit)", "b"]] }), [["a", "BM25 (kit)"], ["b"]]);
 * ```
 */
export function testSides(
  t: { a: string; b: string; same?: readonly (readonly [string, string])[] },
): [string[], string[]] {
  const pairs = [[t.a, t.b] as const, ...t.same ?? []];
  return [[...new Set(pairs.map((p) => p[0]))], [...new Set(pairs.map((p) => p[1]))]];
}

/**
 * What {@link identicalSystems} reads: the measures, and the pairs identical on each (a
 * {@link Family}, or `eval compare`'s pairs whose `identical` is true).
 */
export interface IdenticalPairs {
  measures: readonly string[];
  identical?: readonly { measure: string; a: string; b: string }[];
}

/** Two systems of a family equal on every question of some measures ({@link identicalSystems}). */
export interface IdenticalSystems {
  a: string;
  b: string;
  /** The measures on which they are identical, in the family's order. */
  measures: string[];
  /** Identical on every measure of the family: most likely the same run given twice. */
  everyMeasure: boolean;
}

/**
 * The family's identical pairs grouped by pair: which two systems give the same value on every
 * question, and on which measures (a page or a command says so beside m).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { identicalSystems, testFamily } from "./family.ts";
 * const q = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x, P_1: x }]));
 * const f = testFamily({ mine: q([1, 0.5, 0]), copy: q([1, 0.5, 0]), bm25: q([0.5, 0.5, 1]) },
 *   [["mine", "copy"], ["mine", "bm25"]], ["map", "P_1"]);
 * assert.deepEqual(identicalSystems(f), [{ a: "mine", b: "copy", measures: ["map", "P_1"], everyMeasure: true }]);
 * ```
 */
export function identicalSystems(f: IdenticalPairs): IdenticalSystems[] {
  const byPair = new Map<string, IdenticalSystems>();
  for (const p of f.identical ?? []) {
    const key = JSON.stringify([p.a, p.b]);
    const entry = byPair.get(key) ?? { a: p.a, b: p.b, measures: [], everyMeasure: false };
    entry.measures.push(p.measure);
    byPair.set(key, entry);
  }
  for (const e of byPair.values()) e.everyMeasure = e.measures.length === f.measures.length;
  return [...byPair.values()];
}

/**
 * One sentence per pair of systems identical on every question: which two, on which
 * measures, and what the family does with them (a likely mistake: the same run twice). The
 * report's page and warnings and `eval compare` say it in these words.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { identicalLines } from "./family.ts";
 * const lines = identicalLines(
 *   { measures: ["map"], identical: [{ measure: "map", a: "x", b: "y" }] },
 *   (m) => m.toUpperCase(),
 * );
 * assert.match(lines[0], /^"x" and "y" are identical on every question of every measure/);
 * ```
 */
export function identicalLines(
  f: IdenticalPairs,
  labelOf: (measure: string) => string,
): string[] {
  return identicalSystems(f).map((p) =>
    `${JSON.stringify(p.a)} and ${JSON.stringify(p.b)} are identical on every question` +
    (p.everyMeasure
      ? " of every measure (the same run given twice, or a run of a kit baseline?): their " +
        "pair is not tested and not counted in m"
      : ` for ${p.measures.map(labelOf).join(", ")}: not tested on ${
        p.measures.length > 1 ? "those measures" : "that measure"
      } nor counted in ${p.measures.length > 1 ? "their" : "its"} m`)
  );
}

/**
 * What {@link sameTestLines} reads: the measures, and the tests with the pairs that are the
 * same test (a {@link Family}; `eval compare` builds them from its pairs' `sameAs`).
 */
export interface SameTests {
  measures: readonly string[];
  tests?: readonly {
    measure: string;
    a: string;
    b: string;
    same?: readonly (readonly [string, string])[];
  }[];
}

/**
 * One sentence per test asked more than once (pairs whose systems are identical on every
 * question, side by side: `same`): which pairs are one test, on which measures, and that m
 * counts it once. The report's page and stderr, and `eval compare`, say it in these words.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sameTestLines } from "./family.ts";
 * const tests = ["map", "P_1"].map((measure) => ({ measure, a: "a", b: "b", same: [["BM25 (kit)", "b"]] as [string, string][] }));
 * assert.deepEqual(sameTestLines({ measures: ["map", "P_1"], tests }, (m) => m), [
 *   'the pairs "a" – "b" and "BM25 (kit)" – "b" are one test, a = BM25 (kit) – b (the systems ' +
 *   'joined by "=" are identical on every question of every measure): it is tested once and ' +
 *   "counted once in m",
 * ]);
 * ```
 */
export function sameTestLines(
  f: SameTests,
  labelOf: (measure: string) => string,
): string[] {
  const byTest = new Map<string, { pairs: (readonly [string, string])[]; measures: string[] }>();
  for (const t of f.tests ?? []) {
    if (!t.same?.length) continue;
    const pairs = [[t.a, t.b] as const, ...t.same];
    const key = JSON.stringify(pairs);
    const entry = byTest.get(key) ?? { pairs, measures: [] };
    entry.measures.push(t.measure);
    byTest.set(key, entry);
  }
  return [...byTest.values()].map(({ pairs, measures }) => {
    const named = pairs.map(([a, b]) => `${JSON.stringify(a)} – ${JSON.stringify(b)}`);
    const every = measures.length === f.measures.length;
    return `the pairs ${named.slice(0, -1).join(", ")} and ${named.at(-1)} are one test, ` +
      `${testName({ a: pairs[0][0], b: pairs[0][1], same: pairs.slice(1) })} (the systems ` +
      'joined by "=" are identical on every question ' +
      (every
        ? "of every measure): it is tested once and counted once in m"
        : `for ${measures.map(labelOf).join(", ")}): it is tested once there and counted once ` +
          `in ${measures.length > 1 ? "their" : "its"} m`);
  });
}

/**
 * `eval compare`'s pairs (`PairResult`: `identical`, `sameAs`) as the tests
 * {@link sameTestLines} reads: each pair tested in others' place, with those others oriented
 * like it (the system identical to its a first, as the `identical` pairs say).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sameTestsOf } from "./family.ts";
 * const pairs = [
 *   { measure: "map", a: "a", b: "b" },
 *   { measure: "map", a: "a", b: "copy", identical: true },
 *   { measure: "map", a: "b", b: "copy", sameAs: ["a", "b"] as [string, string] },
 * ];
 * assert.deepEqual(sameTestsOf(pairs), [{ measure: "map", a: "a", b: "b", same: [["copy", "b"]] }]);
 * ```
 */
export function sameTestsOf(
  pairs: readonly {
    measure: string;
    a: string;
    b: string;
    identical?: boolean;
    sameAs?: readonly [string, string];
  }[],
): NonNullable<SameTests["tests"]> {
  const one = (m: string, x: string, y: string) =>
    x === y ||
    pairs.some((p) =>
      p.measure === m && p.identical && ((p.a === x && p.b === y) || (p.a === y && p.b === x))
    );
  return pairs.filter((t) => !t.identical && !t.sameAs).map(({ measure, a, b }) => ({
    measure,
    a,
    b,
    same: pairs.filter((p) => p.measure === measure && p.sameAs?.[0] === a && p.sameAs[1] === b)
      .map((p): [string, string] => one(measure, p.a, a) ? [p.a, p.b] : [p.b, p.a]),
  }));
}
