/**
 * The regime × noise interaction over seeds (notebook 09's robustness test) against SciPy, the
 * outside oracle: `scipy.stats.ttest_rel` of the two drops, `scipy.stats.t.interval` at the
 * Bonferroni level for their difference and at 95% for each drop, on random cases and on the
 * real per-seed MAPs notebook 09 computes (20 seeds, 10% and 20% noise).
 */
import assert from "node:assert/strict";
import { noiseInteraction, type NoiseLevelRuns } from "../../lib/stats/noise_interaction.ts";
import { mulberry32 } from "../../lib/stats/random.ts";
import { KitError } from "../../lib/errors.ts";
import {
  loadLtrEvaluationSet,
  loadLtrTrainingSet,
  overSeeds,
  trainRanker,
} from "../../lib/scoring/regimes.ts";
import { measureSpreadOverRuns } from "../../lib/stats/seeds.ts";
import { realDataTest, runPython, scipyPython } from "../helpers.ts";

/** SciPy's numbers for each noisy level of each case (the clean level is `noise` 0). */
const SCIPY = `
import json, sys
from scipy import stats
import numpy as np

def case(levels):
  clean = next(l for l in levels if l["noise"] == 0)
  noisy = [l for l in levels if l["noise"] != 0]
  m = len(noisy)
  out = []
  for l in noisy:
    da = np.array(clean["a"]) - np.array(l["a"])
    db = np.array(clean["b"]) - np.array(l["b"])
    d = da - db
    t = stats.ttest_rel(da, db)
    n = len(d)
    ci = lambda x, level: stats.t.interval(level, n - 1, loc=x.mean(), scale=stats.sem(x))
    out.append({
      "t": float(t.statistic), "p": float(t.pvalue), "df": n - 1,
      "p_bonferroni": min(1.0, float(t.pvalue) * m),
      "diff": [float(d.mean()), *map(float, ci(d, 1 - 0.05 / m))],
      "dropA": [float(da.mean()), *map(float, ci(da, 0.95))],
      "dropB": [float(db.mean()), *map(float, ci(db, 0.95))],
      "dz": float(d.mean() / d.std(ddof=1)),
    })
  return out

print(json.dumps([case(levels) for levels in json.load(sys.stdin)]))
`;

interface ScipyRow {
  t: number;
  p: number;
  df: number;
  p_bonferroni: number;
  diff: [number, number, number];
  dropA: [number, number, number];
  dropB: [number, number, number];
  dz: number;
}

const close = (a: number, b: number, what: string, tol = 1e-9) =>
  assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs SciPy ${b}`);

/** Checks each case's results against SciPy's (one Python process for all of them). */
async function againstScipy(python: string, cases: NoiseLevelRuns[][], label: string) {
  const wanted = await runPython(python, SCIPY, cases) as ScipyRow[][];
  return cases.map((levels, k) => compare(noiseInteraction(levels), wanted[k], `${label} ${k}`));
}

function compare(got: ReturnType<typeof noiseInteraction>, want: ScipyRow[], label: string) {
  assert.equal(got.length, want.length);
  got.forEach((g, i) => {
    const w = want[i], at = `${label}, noise ${g.noise}`;
    close(g.t, w.t, `${at} t`);
    close(g.p, w.p, `${at} p`);
    assert.equal(g.df, w.df);
    close(g.pAdjusted, w.p_bonferroni, `${at} Bonferroni p`);
    close(g.difference.mean, w.diff[0], `${at} mean difference`);
    close(g.difference.lower, w.diff[1], `${at} interval low`);
    close(g.difference.upper, w.diff[2], `${at} interval high`);
    close(g.dropA.mean, w.dropA[0], `${at} drop A`);
    close(g.dropA.lower, w.dropA[1], `${at} drop A low`);
    close(g.dropA.upper, w.dropA[2], `${at} drop A high`);
    close(g.dropB.lower, w.dropB[1], `${at} drop B low`);
    close(g.dropB.upper, w.dropB[2], `${at} drop B high`);
    close(g.effectSize, w.dz, `${at} effect size`);
    // the interval at the adjusted level excludes 0 exactly when the adjusted p is <= 0.05
    const excludes = g.difference.lower > 0 || g.difference.upper < 0;
    assert.equal(excludes, g.pAdjusted <= 0.05, `${at}: interval and decision agree`);
  });
  return got;
}

Deno.test("noise interaction: hand-worked values and bad input", () => {
  // d = 0, 0.01, 0.02: mean 0.01, sd 0.01, t = sqrt(3), 2 df (p = 1 - t / sqrt(2 + t^2))
  const [r] = noiseInteraction([
    { noise: 0, a: [0.70, 0.71, 0.72], b: [0.60, 0.61, 0.62] },
    { noise: 0.1, a: [0.68, 0.68, 0.68], b: [0.58, 0.59, 0.60] },
  ]);
  assert.ok(Math.abs(r.t - Math.sqrt(3)) < 1e-9);
  assert.ok(Math.abs(r.p - (1 - Math.sqrt(3 / 5))) < 1e-9);
  assert.ok(Math.abs(r.effectSize - 1) < 1e-9);
  // drop A: 0.02, 0.03, 0.04 (mean 0.03); drop B: 0.02 on every seed (sd 0)
  assert.ok(Math.abs(r.dropA.mean - 0.03) < 1e-12 && Math.abs(r.dropB.sd) < 1e-12);
  // two noisy levels: Bonferroni over 2, intervals at 97.5%
  const two = noiseInteraction([
    { noise: 0, a: [0.70, 0.71, 0.72], b: [0.60, 0.61, 0.62] },
    { noise: 0.1, a: [0.68, 0.68, 0.68], b: [0.58, 0.59, 0.60] },
    { noise: 0.2, a: [0.66, 0.66, 0.67], b: [0.57, 0.57, 0.59] },
  ]);
  assert.ok(two.every((x) => x.intervalLevel === 0.975));
  assert.ok(Math.abs(two[0].pAdjusted - Math.min(1, 2 * two[0].p)) < 1e-15);
  assert.throws(
    () => noiseInteraction([{ noise: 0.1, a: [1, 2], b: [1, 2] }]),
    (e) => e instanceof KitError && /clean level/.test(e.message),
  );
  assert.throws(
    () =>
      noiseInteraction([
        { noise: 0, a: [1, 2, 3], b: [1, 2, 3] },
        { noise: 0.1, a: [1, 2], b: [1, 2] },
      ]),
    (e) => e instanceof KitError && /same seeds/.test(e.message),
  );
});

const python = scipyPython();
if (!python) console.error("skipping the SciPy comparisons: no python3 with SciPy");

Deno.test({
  name: "noise interaction equals SciPy's paired t and t intervals (random seeds)",
  ignore: !python,
  fn: async () => {
    const random = mulberry32(11);
    const cases = [];
    for (let k = 0; k < 200; k++) {
      const n = 3 + Math.floor(random() * 25);
      const seedEffect = Array.from({ length: n }, () => random() * 0.01);
      const level = (shift: number, spread: number) =>
        seedEffect.map((s) => 0.65 - shift + s + (random() - 0.5) * spread);
      const levels = [0, 0.1, 0.2].map((noise) => ({
        noise,
        a: level(noise * 0.1, 0.01 + noise * 0.05),
        b: level(noise * 0.09, 0.01 + noise * 0.05),
      }));
      cases.push(levels);
    }
    await againstScipy(python!, cases, "case");
  },
});

realDataTest(
  "noise interaction on notebook 09's real per-seed MAPs equals SciPy's",
  "wikiqa",
  async (dir) => {
    if (!python) return console.error("skipped: no python3 with SciPy");
    const source = await loadLtrTrainingSet("trecqa", { dir });
    const target = await loadLtrTrainingSet("wikiqa", { dir });
    const test = await loadLtrEvaluationSet("wikiqa", "test", { dir });
    const transferred = trainRanker(source, { seed: 42 });
    const seeds = Array.from({ length: 20 }, (_, i) => i + 1);
    const perSeed = (noise: number, init?: typeof transferred) =>
      measureSpreadOverRuns(
        overSeeds("r", seeds, (seed) => trainRanker(target, { seed, noise, init }), test)
          .results.map((r) => r.perQuery),
        "map",
      ).perRun;
    const levels = [0, 0.1, 0.2].map((noise) => ({
      noise,
      a: perSeed(noise, transferred), // transfer then adapt
      b: perSeed(noise), // target only
    }));
    const [got] = await againstScipy(python, [levels], "real");
    for (const g of got) {
      console.error(
        `noise ${g.noise}: d = ${g.difference.mean.toFixed(4)} ` +
          `[${g.difference.lower.toFixed(4)}, ${g.difference.upper.toFixed(4)}], ` +
          `t ${g.t.toFixed(3)}, p ${g.p.toFixed(4)}, Bonferroni ${g.pAdjusted.toFixed(4)}`,
      );
    }
  },
);
