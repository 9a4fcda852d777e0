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
 * @module
 */
import { KitError } from "../errors.ts";
import type { PerQueryValues } from "./compare.ts";
import { mean, pairedTTest, tConfidenceInterval } from "./significance.ts";

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

/** The result of {@link testFamily}. */
export interface Family {
  /** The pairs, as asked. */
  pairs: [string, string][];
  measures: string[];
  /** m: the pairs of one measure (the family a p is adjusted over). */
  size: number;
  alpha: number;
  /** The intervals' level, 1 - alpha / m. */
  level: number;
  /** Questions paired. */
  questions: number;
  /** Measure by measure, pair by pair. */
  tests: FamilyTest[];
}

/**
 * Tests the given pairs of systems on each measure ({@link Family}: paired t, Bonferroni over
 * the pairs of a measure, t intervals at 1 - alpha / m). Every system must have values for
 * the same questions (evaluate with `-c`: every question counts, a missing one scores 0).
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
  const m = pairs.length;
  const level = 1 - alpha / m;
  const tests: FamilyTest[] = [];
  for (const measure of measures) {
    for (const [a, b] of pairs) {
      const va = values(a, measure), vb = values(b, measure);
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
  return {
    pairs: pairs.map(([a, b]) => [a, b]),
    measures: [...measures],
    size: m,
    alpha,
    level,
    questions: questions.length,
    tests,
  };
}
