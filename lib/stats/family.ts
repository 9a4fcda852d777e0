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
 * @module
 */
import { KitError } from "../errors.ts";
import { mean, pairedTTest, tConfidenceInterval } from "./significance.ts";

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
  /** The paired t-test's two-sided p, unadjusted. */
  p: number;
  /** Bonferroni-adjusted p: min(1, m p), m the family's size. */
  pAdjusted: number;
  /** The t interval of the difference at the family's level (1 - alpha / m). */
  lower: number;
  upper: number;
  /** pAdjusted <= alpha: the interval excludes 0. */
  significant: boolean;
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
   * m: the pairs tested on one measure (the family a p is adjusted over), pairs identical on
   * every question of it left out. Each measure's m is in `sizes`; they differ only when a
   * pair is identical on some measures and not on others, and then this is the largest.
   */
  size: number;
  /** Each measure's m: the pairs asked less those identical on it. */
  sizes: Record<string, number>;
  alpha: number;
  /** The intervals' level, 1 - alpha / size (1 - alpha when nothing is tested). */
  level: number;
  /** Each measure's level, 1 - alpha / m, for the measures with at least one test. */
  levels: Record<string, number>;
  /** Questions paired. */
  questions: number;
  /** Measure by measure, pair by pair: the pairs tested. */
  tests: FamilyTest[];
  /** The pairs identical on every question of a measure: neither tested nor counted in m. */
  identical: IdenticalPair[];
}

/**
 * Tests the given pairs of systems on each measure ({@link Family}: paired t, Bonferroni over
 * the pairs of a measure, t intervals at 1 - alpha / m). Every system must have values for
 * the same questions (evaluate with `-c`: every question counts, a missing one scores 0).
 * A pair equal on every question of a measure is listed in `identical` instead: it has no p
 * and no interval, and that measure's m does not count it.
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
 * // The same run twice under two names: not tested, and m counts the other pair alone.
 * const g = testFamily({ ...systems, copy: systems.mine }, [["mine", "copy"], ["mine", "bm25"]], ["map"]);
 * assert.deepEqual(g.identical.map((p) => [p.a, p.b]), [["mine", "copy"]]);
 * assert.equal(g.sizes.map, 1);
 * assert.equal(g.tests[0].pAdjusted, g.tests[0].p);
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
    const differing: { a: string; b: string; va: number[]; vb: number[] }[] = [];
    for (const [a, b] of pairs) {
      const va = values(a, measure), vb = values(b, measure);
      if (va.every((x, i) => Math.abs(x - vb[i]) <= SAME_VALUE)) {
        identical.push({ measure, a, b, mean: mean(va) });
      } else differing.push({ a, b, va, vb });
    }
    const m = differing.length;
    sizes[measure] = m;
    if (m === 0) continue;
    const level = 1 - alpha / m;
    levels[measure] = level;
    for (const { a, b, va, vb } of differing) {
      const t = pairedTTest(va, vb);
      const ci = tConfidenceInterval(va.map((x, i) => x - vb[i]), level);
      const pAdjusted = Math.min(1, m * t.p);
      tests.push({
        measure,
        a,
        b,
        meanA: mean(va),
        meanB: mean(vb),
        difference: t.meanDifference,
        p: t.p,
        pAdjusted,
        lower: ci.lower,
        upper: ci.upper,
        significant: pAdjusted <= alpha,
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
