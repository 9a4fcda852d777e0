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
import { tQuantile } from "./brute.ts";

/** Expected AP of a random order of n candidates, r of them correct (closed form). */
function randomAp(n: number, r: number): number {
  if (n === 1) return 1;
  // P(correct at i) = r / n; given that, the expected correct ones in 1..i are
  // 1 + (i - 1)(r - 1)/(n - 1); AP = (1/r) sum_i correct_i * precision_i
  let s = 0;
  for (let i = 1; i <= n; i++) s += (1 + (i - 1) * (r - 1) / (n - 1)) / i;
  return s / n;
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
  const half = tQuantile(gains.length - 1) * sd / Math.sqrt(gains.length);
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
