/**
 * A family of paired tests: the pairs of systems a researcher asks about (not every pair of
 * every system on the page), each tested on each measure over the same questions, with the
 * decision and the interval made by one procedure so they cannot disagree:
 *
 * - test: Student's paired t-test, two-sided, on each question's difference a - b
 *   (`pairedTTest`);
 * - family: the m pairs of one measure; Bonferroni's correction, adjusted p = min(1, m p),
 *   significant when the adjusted p <= alpha;
 * - interval: the t interval of the mean difference (`tConfidenceInterval`) at the level
 *   1 - alpha / m, which excludes 0 exactly when the adjusted p <= alpha, and holds all m
 *   differences of a measure at once with probability at least 1 - alpha.
 *
 * Holm's step-down method rejects at least as often as Bonferroni's but has no interval that
 * agrees with its decisions; a page that shows intervals beside its decisions uses this one.
 *
 * A pair whose per-question differences on a measure are all 0 (the same run given twice, a
 * run that ranks every question as a baseline does) cannot be tested: the differences have no
 * variance, so t is 0 / 0 (SciPy's `ttest_rel` gives nan) and the t interval is the single
 * point 0. Such a pair is not a test that failed to reject; it is no test. It goes to
 * `identical`, with no p and no interval, and is not counted in that measure's m, so it does
 * not raise the other pairs' adjusted p. "0" is within 1e-12, the sign test's tie (one
 * system's runs averaged in another order differ in the last bits). m is per measure (the
 * family a p is adjusted over is the pairs of one measure), so a pair identical on MAP but not
 * on P@1 is tested on P@1 only.
 *
 * One test per question asked: systems identical on every question of a measure are one
 * system there (a class, named by the first of them in the order names appear in
 * `pairs.flat()`), so two pairs that join the same two classes (a - b and a copy of a - b) ask
 * one question, with the same differences. The first of them in `pairs` is the test; the
 * others are listed on it (`same`) and m counts the test once. Each test also carries its t,
 * its degrees of freedom and its effect size (Cohen's d_z).
 *
 * Which pairs form the family is chosen on purpose (`FamilyChoice`: all, mine, baseline:NAME,
 * family_choice.ts); {@link otherReadings} shows which decisions another family would reverse.
 * The words said about a family (test names, identical systems, pairs that are one test) are
 * in family_lines.ts; this module re-exports both.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { mean, pairedTTest, sampleSd, tConfidenceInterval } from "./significance.ts";
import { type FamilyChoice, familyPairs } from "./family_choice.ts";

export { familyDescription, familyPairs, parseFamily } from "./family_choice.ts";
export type { FamilyChoice } from "./family_choice.ts";
export { identicalLines, identicalSystems, sameTestLines, sameTestsOf } from "./family_lines.ts";
export { testName, testSides } from "./family_lines.ts";
export type { IdenticalPairs, IdenticalSystems, SameTests } from "./family_lines.ts";

/** Query id to (measure name to value): compare.ts' `PerQueryValues` (not imported: compare.ts imports this module). */
type PerQueryValues = Map<string, Record<string, number>>;

/**
 * Two values closer than this are the same value (the sign test's tie): means over a system's
 * runs taken in another order can differ in the last bits.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SAME_VALUE } from "./family.ts";
 * assert(Math.abs((0.1 + 0.2) - 0.3) <= SAME_VALUE);
 * ```
 */
export const SAME_VALUE = 1e-12;

/** What is said for a pair not tested because it is identical on every question. */
export const NOT_TESTED = "identical on every question (not tested)";

/** One pair of the family on one measure. */
export interface FamilyTest {
  measure: string;
  /** First system's name. */
  a: string;
  /** Second system's name. */
  b: string;
  meanA: number;
  meanB: number;
  /** mean(a) - mean(b), the mean of the per-question differences. */
  difference: number;
  /** The paired t statistic: mean difference over its standard error (±Infinity: sd 0). */
  t: number;
  /** Degrees of freedom of the t-test, n - 1 (n the questions). */
  df: number;
  /**
   * Effect size: the mean difference over the sd of the differences (Cohen's d_z; sample sd,
   * n - 1), so t = d_z sqrt(n). ±Infinity when every difference is the same non-zero value.
   */
  effectSize: number;
  /** The paired t-test's two-sided p, unadjusted. */
  p: number;
  /** Bonferroni-adjusted p: min(1, m p), m the family's size. */
  pAdjusted: number;
  /** The t interval of the difference at the family's level (1 - alpha / m). */
  lower: number;
  upper: number;
  /** pAdjusted <= alpha: the interval excludes 0. */
  significant: boolean;
  /**
   * The other pairs asked that are this test (each system identical on every question of the
   * measure to one of this pair's, on the same side): not tested again, not counted in m. Each
   * is oriented like this test, the system of a's class first (a pair asked as (b, X), X
   * identical to a, is listed as [X, b]). Empty when none.
   */
  same: [string, string][];
}

/** A pair with the same value on every question for a measure: not tested, not in m. */
export interface IdenticalPair {
  measure: string;
  /** First system's name. */
  a: string;
  /** Second system's name. */
  b: string;
  /** The mean both systems have on the measure. */
  mean: number;
}

/** The result of {@link testFamily}. */
export interface Family {
  /** The pairs, as asked. */
  pairs: [string, string][];
  measures: string[];
  /**
   * m: the distinct tests of one measure (the family a p is adjusted over): pairs identical on
   * every question of it left out, pairs that are the same test (`same`) counted once. Each
   * measure's m is in `sizes`; they differ only when systems are identical on some measures
   * and not on others, and then this is the largest.
   */
  size: number;
  /** Each measure's m: its distinct tests (the pairs asked less the identical and the same). */
  sizes: Record<string, number>;
  alpha: number;
  /** The intervals' level, 1 - alpha / size (1 - alpha when nothing is tested). */
  level: number;
  /** Each measure's level, 1 - alpha / m, for the measures with at least one test. */
  levels: Record<string, number>;
  /** Questions paired. */
  questions: number;
  /** Measure by measure, pair by pair: the tests, one per distinct question (`same`). */
  tests: FamilyTest[];
  /** The pairs identical on every question of a measure: neither tested nor counted in m. */
  identical: IdenticalPair[];
}

/**
 * What a pair of one measure is ({@link pairRoles}): `"identical"` (its two systems are one
 * system there: no test), or the index in `pairs` of the pair tested for it (its own index
 * when it is the test) and `flipped`, true when its a is identical to that pair's b.
 */
export type PairRole = "identical" | { test: number; flipped: boolean };

/**
 * One test per question asked, on one measure: the systems named in `pairs` fall into classes
 * (identical on every question by `same`), each named by its first system in the order names
 * appear in `pairs.flat()`; a pair within one class is `"identical"`, and the pairs that join
 * the same two classes are one test, the first of them in `pairs`. `testFamily` and
 * `compareSystems` both count m this way.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairRoles } from "./family.ts";
 * // "copy" is "a" on every question: (a, copy) is no test, (b, copy) is the test of (a, b).
 * const same = (x: string, y: string) => [x, y].every((n) => n === "a" || n === "copy");
 * assert.deepEqual(pairRoles([["a", "b"], ["a", "copy"], ["b", "copy"]], same), [
 *   { test: 0, flipped: false },
 *   "identical",
 *   { test: 0, flipped: true },
 * ]);
 * ```
 */
export function pairRoles(
  pairs: readonly (readonly [string, string])[],
  same: (x: string, y: string) => boolean,
): PairRole[] {
  const classOf = new Map<string, string>();
  const representatives: string[] = [];
  for (const n of pairs.flat()) {
    if (classOf.has(n)) continue;
    const r = representatives.find((r) => same(r, n));
    if (r === undefined) representatives.push(n);
    classOf.set(n, r ?? n);
  }
  const firstOf = new Map<string, number>();
  return pairs.map(([a, b], i): PairRole => {
    const ca = classOf.get(a)!, cb = classOf.get(b)!;
    if (ca === cb) return "identical";
    const key = JSON.stringify([ca, cb].sort());
    const test = firstOf.get(key) ?? i;
    firstOf.set(key, test);
    return { test, flipped: classOf.get(pairs[test][0]) !== ca };
  });
}

/**
 * Every value of `x` within {@link SAME_VALUE} of `y`'s at the same place: two systems
 * identical on every question.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sameValues } from "./family.ts";
 * assert(sameValues([0.3, 1], [0.1 + 0.2, 1]) && !sameValues([0.3, 1], [0.3, 0.9]));
 * ```
 */
export function sameValues(x: ArrayLike<number>, y: ArrayLike<number>): boolean {
  for (let i = 0; i < x.length; i++) if (!(Math.abs(x[i] - y[i]) <= SAME_VALUE)) return false;
  return x.length === y.length;
}

/**
 * Tests the given pairs of systems on each measure ({@link Family}: paired t, Bonferroni over
 * the distinct tests of a measure, t intervals at 1 - alpha / m). Every system must have values
 * for the same questions (evaluate with `-c`: every question counts, a missing one scores 0).
 * A pair equal on every question of a measure is listed in `identical` instead: it has no p
 * and no interval, and that measure's m does not count it. Pairs that are one test (their
 * systems identical, side by side, on every question: {@link pairRoles}) are tested once, the
 * first asked, the others listed on it (`same`), and m counts them once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { testFamily } from "./family.ts";
 * const q = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
 * const systems = { mine: q([0.9, 0.8, 0.7, 1]), bm25: q([0.5, 0.6, 0.7, 0.4]), ltr: q([0.6, 0.8, 0.5, 0.9]) };
 * const f = testFamily(systems, [["mine", "bm25"], ["mine", "ltr"]], ["map"]);
 * assert.equal(f.size, 2);
 * assert.equal(f.level, 0.975);
 * const t = f.tests[0];
 * assert.equal(t.pAdjusted, Math.min(1, 2 * t.p));
 * assert.equal(t.significant, t.lower > 0 || t.upper < 0);
 * assert.equal(t.df, 3);
 * assert(Math.abs(t.t - t.effectSize * Math.sqrt(4)) < 1e-12);
 * // The same run twice under two names: not tested, and m counts the other pair alone.
 * const g = testFamily({ ...systems, copy: systems.mine }, [["mine", "copy"], ["mine", "bm25"]], ["map"]);
 * assert.deepEqual(g.identical.map((p) => [p.a, p.b]), [["mine", "copy"]]);
 * assert.equal(g.sizes.map, 1);
 * assert.equal(g.tests[0].pAdjusted, g.tests[0].p);
 * // Against bm25, the copy asks mine's question again: one test, m = 1.
 * const h = testFamily({ ...systems, copy: systems.mine }, [["mine", "bm25"], ["bm25", "copy"]], ["map"]);
 * assert.deepEqual([h.sizes.map, h.tests[0].same], [1, [["copy", "bm25"]]]);
 * ```
 */
export function testFamily(
  systems: ReadonlyMap<string, PerQueryValues> | Record<string, PerQueryValues>,
  pairs: readonly (readonly [string, string])[],
  measures: readonly string[],
  options: { alpha?: number } = {},
): Family {
  const byName = systems instanceof Map
    ? systems as ReadonlyMap<string, PerQueryValues>
    : new Map(Object.entries(systems));
  const alpha = options.alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 1)) throw new KitError(`alpha must be in (0, 1), got ${alpha}`);
  if (pairs.length === 0) throw new KitError("a family needs at least one pair");
  for (const [a, b] of pairs) {
    for (const n of [a, b]) {
      if (!byName.has(n)) throw new KitError(`the family names '${n}', which is not a system`);
    }
    if (a === b) throw new KitError(`a pair needs two systems, got '${a}' twice`);
  }
  const names = [...new Set(pairs.flat())];
  const first = byName.get(names[0])!;
  const questions = [...first.keys()].sort();
  for (const n of names) {
    const v = byName.get(n)!;
    if (v.size !== questions.length || questions.some((q) => !v.has(q))) {
      throw new KitError(
        `systems ${names[0]} and ${n} have values for different questions (${first.size} and ` +
          `${v.size}); evaluate every run over every question (-c)`,
      );
    }
  }
  const values = (system: string, measure: string) =>
    questions.map((q) => {
      const x = byName.get(system)!.get(q)![measure];
      if (typeof x !== "number" || !Number.isFinite(x)) {
        throw new KitError(`system ${system}, question ${q}: no finite value for '${measure}'`);
      }
      return x;
    });
  const tests: FamilyTest[] = [];
  const identical: IdenticalPair[] = [];
  const sizes: Record<string, number> = {};
  const levels: Record<string, number> = {};
  for (const measure of measures) {
    const v = new Map(names.map((n) => [n, values(n, measure)]));
    const roles = pairRoles(pairs, (x, y) => sameValues(v.get(x)!, v.get(y)!));
    const tested: number[] = [];
    roles.forEach((role, i) => {
      const [a, b] = pairs[i];
      if (role === "identical") identical.push({ measure, a, b, mean: mean(v.get(a)!) });
      else if (role.test === i) tested.push(i);
    });
    const m = tested.length;
    sizes[measure] = m;
    if (m === 0) continue;
    const level = 1 - alpha / m;
    levels[measure] = level;
    for (const i of tested) {
      const [a, b] = pairs[i];
      const va = v.get(a)!, vb = v.get(b)!;
      const d = va.map((x, k) => x - vb[k]);
      const t = pairedTTest(va, vb);
      const ci = tConfidenceInterval(d, level);
      const pAdjusted = Math.min(1, m * t.p);
      tests.push({
        measure,
        a,
        b,
        meanA: mean(va),
        meanB: mean(vb),
        difference: t.meanDifference,
        t: t.t,
        df: t.df,
        effectSize: t.meanDifference / sampleSd(d),
        p: t.p,
        pAdjusted,
        lower: ci.lower,
        upper: ci.upper,
        significant: pAdjusted <= alpha,
        same: pairs.flatMap(([x, y], j): [string, string][] => {
          const r = roles[j];
          return j === i || r === "identical" || r.test !== i ? [] : [r.flipped ? [y, x] : [x, y]];
        }),
      });
    }
  }
  const size = Math.max(0, ...Object.values(sizes));
  return {
    pairs: pairs.map(([a, b]) => [a, b]),
    measures: [...measures],
    size,
    sizes,
    alpha,
    level: size > 0 ? 1 - alpha / size : 1 - alpha,
    levels,
    questions: questions.length,
    tests,
    identical,
  };
}

/** A test of the chosen family whose decision another family reverses ({@link otherReadings}). */
export interface OtherReading {
  measure: string;
  /** The test's systems, as in the chosen family (`FamilyTest.a`, `.b`). */
  a: string;
  b: string;
  /** The other family. */
  choice: FamilyChoice;
  /** That family's m on the measure. */
  m: number;
  /** The test's adjusted p in that family. */
  pAdjusted: number;
  /** Its decision there (the opposite of the chosen family's). */
  significant: boolean;
}

/**
 * How the chosen family's decisions depend on the family. The chosen family is the one
 * reported; these are shown only so that a reader sees which decisions another family would
 * reverse, never to pick the family that gives the wanted answer (no shopping).
 *
 * The other families: `all`, `mine`, and `baseline:N` for each system N of the chosen family's
 * tests (yours first, then the baselines, in their order), less the chosen one and those with
 * no pair. For each test of the chosen family, each other family that holds the same test (the
 * same two systems, or systems identical to them on every question of the measure, either
 * order) and decides it the other way gives one reading: measure by measure, test by test in
 * the chosen family's order, then family by family. `alpha` is the chosen family's (default
 * 0.05), used for every family.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { otherReadings } from "./family.ts";
 * const q = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
 * const systems = {
 *   a: q([0.5, 0.5, 0.5, 0.5, 1, 0.75]),
 *   b: q([0.25, 0, 0.5, 0.25, 1, 0.5]), // a - b: p = 0.042
 *   bm25: q([0, 0, 0.5, 0.25, 0, 0.5]),
 * };
 * // Your systems among themselves: m = 1, a - b significant. Among all pairs, m = 3: not.
 * const [r, ...more] = otherReadings(systems, ["a", "b"], ["bm25"], ["map"], "mine");
 * assert.deepEqual([r.a, r.b, r.choice, r.m, r.significant, more.length], ["a", "b", "all", 3, false, 0]);
 * assert(Math.abs(r.pAdjusted - 3 * 0.042194) < 1e-6);
 * ```
 */
export function otherReadings(
  systems: ReadonlyMap<string, PerQueryValues> | Record<string, PerQueryValues>,
  users: readonly string[],
  baselines: readonly string[],
  measures: readonly string[],
  choice: FamilyChoice,
  alpha = 0.05,
): OtherReading[] {
  const byName = systems instanceof Map
    ? systems as ReadonlyMap<string, PerQueryValues>
    : new Map(Object.entries(systems));
  const chosen = testFamily(byName, familyPairs(users, baselines, choice), measures, { alpha });
  const inTests = new Set(chosen.tests.flatMap((t) => [t.a, t.b]));
  const others = [
    "all",
    "mine",
    ...[...users, ...baselines].filter((n) => inTests.has(n)).map((n) => `baseline:${n}`),
  ].filter((c, i, all) => c !== choice && all.indexOf(c) === i) as FamilyChoice[];
  const families = others.flatMap((c) => {
    const pairs = familyPairs(users, baselines, c);
    return pairs.length
      ? [{ choice: c, family: testFamily(byName, pairs, measures, { alpha }) }]
      : [];
  });
  const questions = [...(byName.get(chosen.pairs[0][0]) ?? new Map()).keys()].sort();
  const same = (measure: string, x: string, y: string) =>
    x === y || sameValues(
      questions.map((q) => byName.get(x)!.get(q)![measure]),
      questions.map((q) => byName.get(y)!.get(q)![measure]),
    );
  const holds = (t: FamilyTest, u: FamilyTest) =>
    u.measure === t.measure &&
    ((same(t.measure, t.a, u.a) && same(t.measure, t.b, u.b)) ||
      (same(t.measure, t.a, u.b) && same(t.measure, t.b, u.a)));
  const readings: OtherReading[] = [];
  for (const t of chosen.tests) {
    for (const { choice, family } of families) {
      const u = family.tests.find((u) => holds(t, u));
      if (!u || u.significant === t.significant) continue;
      const { measure, a, b } = t;
      const m = family.sizes[measure];
      readings.push({
        measure,
        a,
        b,
        choice,
        m,
        pAdjusted: u.pAdjusted,
        significant: u.significant,
      });
    }
  }
  return readings;
}
