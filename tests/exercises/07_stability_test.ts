/**
 * Notebook 07's exercises, solved with the public API (lib/mod.ts) and checked against values
 * computed independently here: Student's t by numerical integration (not the kit's incomplete
 * beta), Pearson's r of sums and differences, Holm's rule written out. On the samples, and on
 * the real corpora when they are fetched.
 */
import assert from "node:assert/strict";
import {
  holm,
  loadLtrEvaluationSet,
  loadLtrTrainingSet,
  measureSpreadOverRuns,
  overSeeds,
  pairedSeedTests,
  seedsNeeded,
  trainRanker,
} from "../../lib/mod.ts";
import { realDataDir } from "../helpers.ts";

const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);
const NOISE = [0, 0.1, 0.2];

/**
 * Two-sided p of Student's t by quadrature: with x = sqrt(df) tan(u) the density is
 * proportional to cos(u)^(df - 1), so p = int_{u0}^{pi/2} cos^(df-1) / int_0^{pi/2} cos^(df-1),
 * u0 = atan(|t| / sqrt(df)) (Simpson's rule, 4000 intervals).
 */
function twoSidedP(t: number, df: number): number {
  const integral = (from: number) => {
    const n = 4000, h = (Math.PI / 2 - from) / n;
    let s = 0;
    for (let i = 0; i <= n; i++) {
      const w = i === 0 || i === n ? 1 : i % 2 ? 4 : 2;
      s += w * Math.cos(from + i * h) ** (df - 1);
    }
    return s * h / 3;
  };
  return integral(Math.atan(Math.abs(t) / Math.sqrt(df))) / integral(0);
}

/** t(1 - alpha/2, df) by bisection on the quadrature p. */
function tQuantile975(df: number): number {
  let lo = 0, hi = 100;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (twoSidedP(mid, df) > 0.05) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

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

/** Per-seed MAPs of both regimes at each noise level, as notebook 07 trains them. */
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

  // 2. Holm by hand over the three paired-t p-values (one per noise level).
  const ps = levels.map((l) => pairedSeedTests(l.transfer, l.target).means.p);
  const order = ps.map((_, i) => i).sort((i, j) => ps[i] - ps[j]);
  const byHandHolm: number[] = [];
  let running = 0;
  order.forEach((i, k) => {
    running = Math.max(running, Math.min(1, (ps.length - k) * ps[i]));
    byHandHolm[i] = running;
  });
  holm(ps).forEach((q, i) => assert.ok(Math.abs(q - byHandHolm[i]) < 1e-15));

  // 3. Seeds needed for ±0.001 with the target-only sd: smallest n >= 2 whose t interval fits.
  const sd = Math.sqrt(
    b.reduce((s, x) => s + (x - b.reduce((u, v) => u + v, 0) / b.length) ** 2, 0) /
      (b.length - 1),
  );
  // the half-width falls as n grows: n is the smallest when n fits and n - 1 does not
  const fits = (n: number) => tQuantile975(n - 1) * sd / Math.sqrt(n) <= 0.001;
  const n = seedsNeeded(b, 0.001);
  assert.ok(fits(n) && (n === 2 || !fits(n - 1)), `seedsNeeded ${n}`);
  return { r, pitmanMorgan: kit.p, holm: holm(ps), seedsNeeded: n };
}

Deno.test("notebook 07 exercises on the samples", async () => {
  await checkExercises({ wikiqa: "samples", trecqa: "samples" });
});

const wikiqa = realDataDir("wikiqa"), trecqa = realDataDir("trecqa");
Deno.test({
  name: "notebook 07 exercises on the real corpora",
  ignore: !wikiqa || !trecqa,
  fn: async () => {
    const got = await checkExercises({ wikiqa: wikiqa!, trecqa: trecqa! });
    // what notebook 07 shows on WikiQA test clean: Pitman–Morgan p 0.0708 at 0% noise, the
    // paired t over seeds significant at no level after Holm, 50 seeds for ±0.001
    assert.equal(got.pitmanMorgan.toFixed(4), "0.0708");
    assert.ok(got.holm.every((q) => q > 0.05), String(got.holm));
    assert.equal(got.seedsNeeded, 50);
  },
});
