/**
 * TANDA's robustness claim is about how far a regime's MAP **drops** when the target's training
 * labels are noisy, not about which regime scores higher at a given noise level: the claim is
 * the regime × noise interaction. With both regimes trained on the same seeds (seed i visits the
 * pairs in the same order and flips the same labels in both), seed i gives one paired contrast
 *
 *   d_i = (clean_A,i - noisy_A,i) - (clean_B,i - noisy_B,i),
 *
 * how much more A drops than B on that seed. {@link noiseInteraction} tests mean(d) = 0 with
 * the one-sample t-test over seeds (the paired t of the two drops), leads with the effect (the
 * drops and their difference, in MAP points, with t intervals, and the standardized effect
 * mean(d) / sd(d)), and treats the noise levels as one family: Bonferroni-adjusted p beside the
 * raw one, and intervals at the matching level, so an interval excludes 0 exactly when the
 * adjusted p is at most 1 - level.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { mean, pairedTTest, sampleSd, tConfidenceInterval } from "./significance.ts";

/** Per-seed values of the two regimes at one noise level (element i of both: seed i). */
export interface NoiseLevelRuns {
  /** Share of the training labels flipped (0 for the clean level). */
  noise: number;
  /** Regime A's value (e.g. MAP) per seed. */
  a: readonly number[];
  /** Regime B's value per seed, the same seeds in the same order. */
  b: readonly number[];
}

/** A mean over seeds with its t interval. */
export interface MeanInterval {
  mean: number;
  /** Sample sd over the seeds. */
  sd: number;
  lower: number;
  upper: number;
}

/** The interaction at one noise level against the clean one. */
export interface NoiseInteraction {
  /** The noise level. */
  noise: number;
  /** Seeds (pairs). */
  seeds: number;
  /** A's drop, clean - noisy, per seed: mean, sd and 95% t interval. */
  dropA: MeanInterval;
  /** B's drop, the same. */
  dropB: MeanInterval;
  /**
   * The difference of the drops, d = drop A - drop B per seed: mean, sd and t interval at
   * `intervalLevel` (the family-wise level spread over the noise levels).
   */
  difference: MeanInterval;
  /** mean(d) / sd(d): the difference in units of its seed-to-seed spread (Cohen's d_z). */
  effectSize: number;
  /** One-sample t statistic of d, its degrees of freedom (seeds - 1) and two-sided p. */
  t: number;
  df: number;
  p: number;
  /** p times the number of noise levels, capped at 1 (Bonferroni over the family). */
  pAdjusted: number;
  /** The level of `difference`'s interval: 1 - (1 - level) / number of noise levels. */
  intervalLevel: number;
}

/** Options of {@link noiseInteraction}. */
export interface NoiseInteractionOptions {
  /** Family-wise confidence level of the intervals of the difference (default 0.95). */
  level?: number;
}

function interval(values: readonly number[], level: number): MeanInterval {
  const ci = tConfidenceInterval(values, level);
  return { mean: ci.mean, sd: sampleSd(values), lower: ci.lower, upper: ci.upper };
}

/**
 * The regime × noise interaction over seeds, one result per noisy level (the level with noise
 * 0 is the clean reference and must be given). Every list must hold the same seeds in the same
 * order; at least 2 seeds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { noiseInteraction } from "./noise_interaction.ts";
 * // Three seeds. A drops 0.02, 0.03, 0.04; B drops 0.02, 0.02, 0.02: d = 0, 0.01, 0.02.
 * const [r] = noiseInteraction([
 *   { noise: 0, a: [0.70, 0.71, 0.72], b: [0.60, 0.61, 0.62] },
 *   { noise: 0.1, a: [0.68, 0.68, 0.68], b: [0.58, 0.59, 0.60] },
 * ]);
 * assert(Math.abs(r.difference.mean - 0.01) < 1e-12 && Math.abs(r.difference.sd - 0.01) < 1e-12);
 * assert(Math.abs(r.t - Math.sqrt(3)) < 1e-9 && r.df === 2);
 * assert(Math.abs(r.p - (1 - Math.sqrt(3) / Math.sqrt(5))) < 1e-9); // 2 df: p = 1 - t / sqrt(2 + t^2)
 * assert(r.pAdjusted === r.p && r.intervalLevel === 0.95); // one noisy level: no adjustment
 * ```
 */
export function noiseInteraction(
  levels: readonly NoiseLevelRuns[],
  options: NoiseInteractionOptions = {},
): NoiseInteraction[] {
  const level = options.level ?? 0.95;
  if (!(level > 0 && level < 1)) throw new KitError(`level must be in (0, 1), got ${level}`);
  const clean = levels.find((l) => l.noise === 0);
  if (!clean) throw new KitError("noise interaction: give the clean level (noise 0)");
  const noisy = levels.filter((l) => l.noise !== 0);
  if (noisy.length === 0) throw new KitError("noise interaction: give at least one noisy level");
  const n = clean.a.length;
  for (const l of levels) {
    if (l.a.length !== n || l.b.length !== n) {
      throw new KitError(
        `noise ${l.noise}: ${l.a.length} and ${l.b.length} values for ${n} seeds; ` +
          "give every level the same seeds, in the same order",
      );
    }
    for (const v of [...l.a, ...l.b]) {
      if (!Number.isFinite(v)) throw new KitError(`noise ${l.noise}: a non-finite value (${v})`);
    }
  }
  if (n < 2) throw new KitError("noise interaction: give at least two seeds");
  const intervalLevel = 1 - (1 - level) / noisy.length;
  return noisy.map((l) => {
    const dropA = clean.a.map((v, i) => v - l.a[i]);
    const dropB = clean.b.map((v, i) => v - l.b[i]);
    const d = dropA.map((v, i) => v - dropB[i]);
    const test = pairedTTest(dropA, dropB);
    const sd = sampleSd(d);
    return {
      noise: l.noise,
      seeds: n,
      dropA: interval(dropA, 0.95),
      dropB: interval(dropB, 0.95),
      difference: sd > 0
        ? interval(d, intervalLevel)
        : { mean: mean(d), sd: 0, lower: mean(d), upper: mean(d) },
      effectSize: sd > 0 ? mean(d) / sd : mean(d) === 0 ? 0 : Math.sign(mean(d)) * Infinity,
      t: test.t,
      df: test.df,
      p: test.p,
      pAdjusted: Math.min(1, test.p * noisy.length),
      intervalLevel,
    };
  });
}
