/**
 * Notebook 07's exercises, solved with the public API (lib/mod.ts) and checked against values
 * computed independently here (a random ranking's expected AP in closed form, the t interval
 * from a Student quantile found by integrating the density). On the samples, and on the real
 * corpora when they are fetched.
 */
import assert from "node:assert/strict";
import {
  analyzeTies,
  bootstrapCI,
  qrelsFromQuestions,
  scoreSlice,
  tConfidenceInterval,
  tiedRun,
} from "../../lib/mod.ts";
import { realDataDir } from "../helpers.ts";
import { notebookSetup } from "./heldout_setup.ts";

/** Expected AP of a random order of n candidates, r of them correct (closed form). */
function randomAp(n: number, r: number): number {
  if (n === 1) return 1;
  // P(correct at i) = r / n; given that, the expected correct ones in 1..i are
  // 1 + (i - 1)(r - 1)/(n - 1); AP = (1/r) sum_i correct_i * precision_i
  let s = 0;
  for (let i = 1; i <= n; i++) s += (1 + (i - 1) * (r - 1) / (n - 1)) / i;
  return s / n;
}

/** Student's t quantile 0.975 with df degrees of freedom: the density integrated (Simpson). */
function tQuantile975(df: number): number {
  const lnGamma = (x: number): number => {
    // Lanczos (g = 7, n = 9)
    const c = [
      0.99999999999980993,
      676.5203681218851,
      -1259.1392167224028,
      771.32342877765313,
      -176.61502916214059,
      12.507343278686905,
      -0.13857109526572012,
      9.9843695780195716e-6,
      1.5056327351493116e-7,
    ];
    if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
    x -= 1;
    let a = c[0];
    const t = x + 7.5;
    for (let i = 1; i < 9; i++) a += c[i] / (x + i);
    return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
  };
  const k = Math.exp(lnGamma((df + 1) / 2) - lnGamma(df / 2)) / Math.sqrt(df * Math.PI);
  const density = (x: number) => k * Math.pow(1 + x * x / df, -(df + 1) / 2);
  const area = (x: number) => { // from 0 to x, Simpson with 2,000 panels
    const m = 2000, h = x / m;
    let s = density(0) + density(x);
    for (let i = 1; i < m; i++) s += (i % 2 ? 4 : 2) * density(i * h);
    return s * h / 3;
  };
  let lo = 0, hi = 50;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (area(mid) < 0.475) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

async function checkExercises(dir: string, real: boolean) {
  const { split, best } = await notebookSetup(dir, real);

  // 1. A random ranking's MAP: one correct among n candidates -> (1/n)(1 + 1/2 + ... + 1/n)
  const single = split.validation.filter((q) =>
    q.candidates.filter((c) => c.label > 0).length === 1
  );
  assert.ok(single.length > 0);
  const closedForm = single.reduce((s, q) => {
    const m = q.candidates.length;
    let h = 0;
    for (let i = 1; i <= m; i++) h += 1 / i;
    return s + h / m;
  }, 0) / single.length;
  const expected = analyzeTies(qrelsFromQuestions(single), tiedRun(single)).map.expected;
  assert.ok(Math.abs(expected - closedForm) < 1e-12, `${expected} vs ${closedForm}`);

  // 2. The gain's interval: per-question AP minus the closed-form random AP of each question
  const scored = await scoreSlice(split.validation, best.scorer, "map");
  const perQuery = new Map(
    analyzeTies(qrelsFromQuestions(split.validation), tiedRun(split.validation)).perQuery
      .map((t) => [t.query, t.ap.expected]),
  );
  const gains = split.validation.map((q) => {
    const n = q.candidates.length, r = q.candidates.filter((c) => c.label > 0).length;
    assert.ok(Math.abs(perQuery.get(q.id)! - randomAp(n, r)) < 1e-12, q.id);
    return scored.perQuery.get(q.id)! - randomAp(n, r);
  });
  const meanGain = gains.reduce((a, b) => a + b, 0) / gains.length;
  const randomMap = analyzeTies(qrelsFromQuestions(split.validation), tiedRun(split.validation))
    .map.expected;
  assert.ok(Math.abs(meanGain - (scored.value - randomMap)) < 1e-12);
  const boot = bootstrapCI(gains, { samples: 2000, seed: 42 });
  assert.ok(Math.abs(boot.mean - meanGain) < 1e-12);
  assert.ok(boot.lower <= meanGain && meanGain <= boot.upper);
  const sd = Math.sqrt(
    gains.reduce((s, g) => s + (g - meanGain) ** 2, 0) / (gains.length - 1),
  );
  const half = tQuantile975(gains.length - 1) * sd / Math.sqrt(gains.length);
  const t = tConfidenceInterval(gains);
  assert.ok(Math.abs(t.lower - (meanGain - half)) < 1e-6, `${t.lower} vs ${meanGain - half}`);
  assert.ok(Math.abs(t.upper - (meanGain + half)) < 1e-6, `${t.upper} vs ${meanGain + half}`);
  return { meanGain, boot, t, validation: split.validation.length };
}

Deno.test("notebook 07 exercises on the samples", async () => {
  await checkExercises("samples", false);
});

const wikiqa = realDataDir("wikiqa");
Deno.test({
  name: "notebook 07 exercises on the real corpora",
  ignore: !wikiqa,
  fn: async () => {
    // what notebook 07 shows on WikiQA train no-all: the validation gain over random
    const r = await checkExercises(wikiqa!, true);
    assert.equal(r.validation, 10);
    assert.equal(r.meanGain.toFixed(4), "0.2876");
  },
});
