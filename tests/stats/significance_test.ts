import "../quick.ts";
import assert from "node:assert/strict";
import {
  adjustPValues,
  bonferroni,
  bootstrapCI,
  holm,
  pairedRandomizationTest,
  pairedTTest,
  quantileSorted,
  sampleSd,
  tConfidenceInterval,
} from "../../lib/stats/significance.ts";
import {
  logGamma,
  regularizedIncompleteBeta,
  studentTQuantile,
  studentTTwoSidedP,
} from "../../lib/stats/special.ts";
import { mulberry32 } from "../../lib/stats/random.ts";
import { KitError } from "../../lib/errors.ts";

const near = (a: number, b: number, tol: number, what = "") =>
  assert.ok(Math.abs(a - b) <= tol, `${what} ${a} vs ${b} (tol ${tol})`);

Deno.test("t distribution: closed forms for 1 and 2 degrees of freedom", () => {
  for (const t of [0, 0.05, 0.5, 1, 2.5, 7, 40, 1e3]) {
    near(studentTTwoSidedP(t, 1), 1 - 2 * Math.atan(t) / Math.PI, 1e-12, `df1 t=${t}`);
    near(studentTTwoSidedP(t, 2), 1 - t / Math.sqrt(2 + t * t), 1e-12, `df2 t=${t}`);
    near(studentTTwoSidedP(-t, 2), studentTTwoSidedP(t, 2), 0, "symmetry");
  }
});

Deno.test("t distribution: tabulated quantiles", () => {
  // Standard t table (two-sided 0.05, 0.01 and one-sided 0.05 critical values).
  const table: [number, number, number][] = [
    [0.975, 1, 12.706204736],
    [0.975, 5, 2.570581836],
    [0.975, 10, 2.228138852],
    [0.975, 30, 2.042272456],
    [0.995, 5, 4.032142984],
    [0.995, 20, 2.845339710],
    [0.95, 30, 1.697260887],
    [0.975, 120, 1.979930405],
  ];
  for (const [p, df, q] of table) {
    near(studentTQuantile(p, df), q, 1e-7, `quantile ${p} df ${df}`);
    near(studentTTwoSidedP(q, df), 2 * (1 - p), 1e-9, `p at ${q} df ${df}`);
  }
});

Deno.test("log-gamma and incomplete beta against closed forms", () => {
  for (let n = 1; n <= 20; n++) {
    let fact = 1;
    for (let k = 2; k < n; k++) fact *= k;
    near(logGamma(n), Math.log(fact), 1e-12 * Math.max(1, Math.log(fact)), `lgamma ${n}`);
  }
  // I_x(a, 1) = x^a; I_x(1, b) = 1 - (1 - x)^b; I_x(2, 2) = 3x^2 - 2x^3.
  for (const x of [0.01, 0.2, 0.5, 0.77, 0.99]) {
    near(regularizedIncompleteBeta(x, 3.5, 1), x ** 3.5, 1e-13);
    near(regularizedIncompleteBeta(x, 1, 4), 1 - (1 - x) ** 4, 1e-13);
    near(regularizedIncompleteBeta(x, 2, 2), 3 * x * x - 2 * x ** 3, 1e-13);
  }
  assert.throws(() => regularizedIncompleteBeta(1.5, 1, 1), KitError);
});

Deno.test("paired t-test: hand-worked example", () => {
  // d = [0.1, 0.2, 0.0, 0.3, 0.1]: mean 0.14, sd = sqrt(0.052 / 4) = 0.114018, t = 2.745626.
  const a = [0.6, 0.7, 0.5, 0.9, 0.4];
  const b = [0.5, 0.5, 0.5, 0.6, 0.3];
  const r = pairedTTest(a, b);
  near(r.meanDifference, 0.14, 1e-12);
  near(r.t, 0.14 / (Math.sqrt(0.052 / 4) / Math.sqrt(5)), 1e-9);
  assert.equal(r.df, 4);
  // t = 2.7456 with 4 df lies between the 0.05 (2.776) and 0.10 (2.132) two-sided critical values.
  assert.ok(r.p > 0.05 && r.p < 0.1);
  near(r.p, studentTTwoSidedP(r.t, 4), 0);
  // Independent check with df = 4's closed form: P(|T|>t) = 1 - (3/2 s - 1/2 s^3)
  // where s = t / sqrt(4 + t^2).
  const s = r.t / Math.sqrt(4 + r.t * r.t);
  near(r.p, 1 - (1.5 * s - 0.5 * s ** 3), 1e-12, "df4 closed form");
  assert.equal(pairedTTest([1, 2], [1, 2]).p, 1);
  assert.equal(pairedTTest([2, 3], [1, 2]).p, 0);
  assert.throws(() => pairedTTest([1], [2]), KitError);
  assert.throws(() => pairedTTest([1, 2], [2]), KitError);
});

Deno.test("randomization test: exact enumeration matches brute force", () => {
  const a = [0.9, 0.4, 0.7, 0.3, 1.0, 0.5, 0.2, 0.8];
  const b = [0.5, 0.6, 0.2, 0.3, 0.6, 0.1, 0.4, 0.3];
  const d = a.map((x, i) => x - b[i]);
  const observed = Math.abs(d.reduce((s, x) => s + x, 0));
  let count = 0;
  // Independent brute force: all 256 sign vectors, comparing mean differences.
  for (let mask = 0; mask < 256; mask++) {
    const sum = d.reduce((s, x, i) => s + (mask & (1 << i) ? -x : x), 0);
    if (Math.abs(sum) >= observed - 1e-9) count++;
  }
  const r = pairedRandomizationTest(a, b);
  assert.ok(r.exact);
  assert.equal(r.trials, 256);
  assert.equal(r.p, count / 256);
  // Hand-worked: differences 1, 1, -1, 1 -> |sum| 2 is reached by 10 of 16 assignments
  // (sum is +-4 twice, +-2 eight times).
  assert.equal(pairedRandomizationTest([1, 1, 0, 1], [0, 0, 1, 0]).p, 10 / 16);
});

Deno.test("randomization test: Monte Carlo approaches the exact p and is reproducible", () => {
  const random = mulberry32(11);
  const a = Array.from({ length: 16 }, () => random());
  const b = a.map((x) => x - 0.08 + 0.3 * (random() - 0.5));
  const exact = pairedRandomizationTest(a, b, { exactUpTo: 1 << 16 });
  assert.ok(exact.exact);
  const mc = pairedRandomizationTest(a, b, { trials: 20000, seed: 5, exactUpTo: 1 });
  assert.ok(!mc.exact);
  // Binomial standard error at p ~ exact.p with 20,000 trials is below 0.0036.
  near(mc.p, exact.p, 0.015, "MC vs exact");
  assert.equal(
    pairedRandomizationTest(a, b, { trials: 500, seed: 5, exactUpTo: 1 }).p,
    pairedRandomizationTest(a, b, { trials: 500, seed: 5, exactUpTo: 1 }).p,
  );
  // Identical systems: every assignment reaches |0| -> p = 1.
  assert.equal(pairedRandomizationTest(a, a, { exactUpTo: 1 }).p, 1);
});

Deno.test("randomization and t-test agree roughly on a large sample", () => {
  const random = mulberry32(3);
  const a = Array.from({ length: 200 }, () => random());
  const b = a.map((x) => x - 0.03 + 0.4 * (random() - 0.5));
  const t = pairedTTest(a, b);
  const r = pairedRandomizationTest(a, b, { trials: 20000, seed: 9 });
  near(r.p, t.p, 0.02, "randomization vs t");
});

Deno.test("bootstrap: exact bootstrap distribution of a small sample", () => {
  // Values [0,0,0,1]: a resample's mean is k/4, k ~ Binomial(4, 1/4). CDF at k = 0,1,2,3:
  // 0.316, 0.738, 0.949, 0.996, so the 2.5% quantile is 0 and the 97.5% quantile is 0.75.
  const ci = bootstrapCI([0, 0, 0, 1], { samples: 5000, seed: 2 });
  assert.equal(ci.mean, 0.25);
  assert.equal(ci.lower, 0);
  assert.equal(ci.upper, 0.75);
  // 80% level: 10% quantile 0 (CDF 0.316), 90% quantile 0.5 (CDF(1) 0.738 < 0.9 < 0.949).
  const ci80 = bootstrapCI([0, 0, 0, 1], { samples: 5000, seed: 2, level: 0.8 });
  assert.equal(ci80.lower, 0);
  assert.equal(ci80.upper, 0.5);
  const constant = bootstrapCI([0.3, 0.3, 0.3], { samples: 100 });
  assert.equal(constant.lower, 0.3);
  assert.equal(constant.upper, 0.3);
});

Deno.test("bootstrap: large sample matches the normal approximation", () => {
  const random = mulberry32(21);
  const values = Array.from({ length: 400 }, () => random());
  const ci = bootstrapCI(values, { samples: 4000, seed: 1 });
  // sd of a resample mean = population sd / sqrt(n); 95% half-width = 1.96 of it.
  const n = values.length;
  const popSd = sampleSd(values) * Math.sqrt((n - 1) / n);
  const half = 1.959964 * popSd / Math.sqrt(n);
  near(ci.upper - ci.lower, 2 * half, 0.1 * 2 * half, "width");
  near((ci.upper + ci.lower) / 2, ci.mean, 0.15 * half, "centre");
  const t = tConfidenceInterval(values);
  near(t.upper - t.lower, 2 * half, 0.05 * 2 * half, "t width");
});

Deno.test("quantile type 7 and corrections: hand-worked", () => {
  assert.equal(quantileSorted([10, 20, 30, 40, 50], 0.25), 20);
  assert.equal(quantileSorted([10, 20, 30, 40], 0.25), 17.5);
  // Holm: p = 0.01, 0.04, 0.03, 0.005 (m = 4). Sorted 0.005, 0.01, 0.03, 0.04:
  // 4*0.005 = 0.02, 3*0.01 = 0.03, 2*0.03 = 0.06, 1*0.04 = 0.04 -> monotone 0.06.
  const h = holm([0.01, 0.04, 0.03, 0.005]);
  [0.03, 0.06, 0.06, 0.02].forEach((x, i) => near(h[i], x, 1e-15));
  const bf = bonferroni([0.01, 0.04, 0.03, 0.005]);
  [0.04, 0.16, 0.12, 0.02].forEach((x, i) => near(bf[i], x, 1e-15));
  assert.deepEqual(adjustPValues([0.3, 0.6], "none"), [0.3, 0.6]);
  assert.deepEqual(holm([0.6, 0.7]), [1, 1]);
});
