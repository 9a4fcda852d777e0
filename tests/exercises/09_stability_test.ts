/**
 * Notebook 09's exercises, solved with the public API (lib/mod.ts) and checked against values
 * computed independently here: Student's t by numerical integration (not the kit's incomplete
 * beta) and its quantiles by bisection on it, Pearson's r of sums and differences, the per-seed
 * difference of the drops written out. On the samples, and on the real corpora when they are
 * fetched.
 */
import assert from "node:assert/strict";
import {
  loadLtrEvaluationSet,
  loadLtrTrainingSet,
  measureSpreadOverRuns,
  noiseInteraction,
  overSeeds,
  pairedSeedTests,
  seedsNeeded,
  trainRanker,
} from "../../lib/mod.ts";
import { realDataDir } from "../helpers.ts";
import { tQuantile, twoSidedP } from "./brute.ts";

const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);
const NOISE = [0, 0.1, 0.2];

function pearson(x: number[], y: number[]): number {
  const n = x.length;
  const mx = x.reduce((s, v) => s + v, 0) / n, my = y.reduce((s, v) => s + v, 0) / n;
  let sxy = 0, sxx = 0, syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/** Per-seed MAPs of both regimes at each noise level, as notebook 09 trains them. */
async function perSeedMaps(dirs: { wikiqa: string; trecqa: string }) {
  const source = await loadLtrTrainingSet("trecqa", { dir: dirs.trecqa });
  const target = await loadLtrTrainingSet("wikiqa", { dir: dirs.wikiqa });
  const test = await loadLtrEvaluationSet("wikiqa", "test", { dir: dirs.wikiqa });
  const transferred = trainRanker(source, { seed: 42 });
  return NOISE.map((noise) => {
    const maps = (name: string, init?: typeof transferred) =>
      measureSpreadOverRuns(
        overSeeds(name, SEEDS, (seed) => trainRanker(target, { seed, init, noise }), test)
          .results.map((r) => r.perQuery),
        "map",
      ).perRun;
    return {
      noise,
      transfer: maps("transfer then adapt", transferred),
      target: maps("target only"),
    };
  });
}

async function checkExercises(dirs: { wikiqa: string; trecqa: string }) {
  const levels = await perSeedMaps(dirs);

  // 1. Pitman–Morgan by hand at 0% noise: r of sums and differences, t, p with n - 2 df.
  const { transfer: a, target: b } = levels[0];
  const r = pearson(a.map((x, i) => x + b[i]), a.map((x, i) => x - b[i]));
  const df = a.length - 2;
  const t = r * Math.sqrt(df) / Math.sqrt(1 - r * r);
  const byHand = twoSidedP(t, df);
  const kit = pairedSeedTests(a, b).spread;
  assert.ok(Math.abs(kit.t - t) < 1e-9, `t ${kit.t} vs ${t}`);
  assert.ok(Math.abs(kit.p - byHand) < 1e-9, `p ${kit.p} vs ${byHand}`);

  // 2. The interaction by hand at 20% noise: d_i = (clean_T - noisy_T) - (clean_F - noisy_F),
  // t = mean / (sd / sqrt(n)), two-sided p with n - 1 df, 97.5% interval (2 noisy levels)
  const noisy = levels[2];
  const d = a.map((_, i) =>
    (levels[0].transfer[i] - noisy.transfer[i]) - (levels[0].target[i] - noisy.target[i])
  );
  const n0 = d.length, mean = d.reduce((s, x) => s + x, 0) / n0;
  const sdD = Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / (n0 - 1));
  const tD = mean / (sdD / Math.sqrt(n0));
  const half = tQuantile(n0 - 1, 0.025) * sdD / Math.sqrt(n0);
  const kitD = noiseInteraction(levels.map((l) => ({ noise: l.noise, a: l.transfer, b: l.target })))
    .find((x) => x.noise === 0.2)!;
  assert.ok(Math.abs(kitD.difference.mean - mean) < 1e-12);
  assert.ok(Math.abs(kitD.t - tD) < 1e-9, `t ${kitD.t} vs ${tD}`);
  assert.ok(Math.abs(kitD.p - twoSidedP(tD, n0 - 1)) < 1e-9, `p ${kitD.p}`);
  assert.ok(Math.abs(kitD.difference.lower - (mean - half)) < 1e-9);
  assert.ok(Math.abs(kitD.difference.upper - (mean + half)) < 1e-9);

  // 3. Seeds needed for ±0.001 with the target-only sd: smallest n >= 2 whose t interval fits.
  const sd = Math.sqrt(
    b.reduce((s, x) => s + (x - b.reduce((u, v) => u + v, 0) / b.length) ** 2, 0) /
      (b.length - 1),
  );
  // the half-width falls as n grows: n is the smallest when n fits and n - 1 does not
  const fits = (n: number) => tQuantile(n - 1) * sd / Math.sqrt(n) <= 0.001;
  const n = seedsNeeded(b, 0.001);
  assert.ok(fits(n) && (n === 2 || !fits(n - 1)), `seedsNeeded ${n}`);
  return { r, pitmanMorgan: kit.p, interaction: kitD, seedsNeeded: n };
}

Deno.test("notebook 09 exercises on the samples", async () => {
  await checkExercises({ wikiqa: "samples", trecqa: "samples" });
});

const wikiqa = realDataDir("wikiqa"), trecqa = realDataDir("trecqa");
Deno.test({
  name: "notebook 09 exercises on the real corpora",
  ignore: !wikiqa || !trecqa,
  fn: async () => {
    const got = await checkExercises({ wikiqa: wikiqa!, trecqa: trecqa! });
    // what notebook 09 shows on WikiQA test clean: Pitman–Morgan p 0.0708 at 0% noise; at 20%
    // noise the transfer regime drops 0.0016 more, interval [-0.0031, 0.0062] holding 0, p 0.43
    // (the notebook's verdict: no difference found); 50 seeds for ±0.001
    assert.equal(got.pitmanMorgan.toFixed(4), "0.0708");
    const x = got.interaction;
    assert.equal(x.difference.mean.toFixed(4), "0.0016");
    assert.ok(x.difference.lower < 0 && x.difference.upper > 0 && x.p > 0.05);
    assert.equal(got.seedsNeeded, 50);
  },
});
