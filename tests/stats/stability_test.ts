import "../quick.ts";
import assert from "node:assert/strict";
import { spreadOverRuns } from "../../lib/stats/stability.ts";
import { KitError } from "../../lib/errors.ts";

Deno.test("stability: hand-worked mean, sample sd, min, max and flag", () => {
  // Per-run MAP 0.90, 0.92, 0.88, 0.94: mean 0.91, deviations .01 .01 .03 .03 (squares sum
  // 0.0020 over n - 1 = 3) -> sd = sqrt(0.002 / 3) = 0.025820.
  const runs = [[0.9], [0.92, 0.92], [0.88, 0.86, 0.9], [0.94]];
  const s = spreadOverRuns(runs, { threshold: 0.03 });
  assert.equal(s.runs, 4);
  assert.ok(Math.abs(s.mean - 0.91) < 1e-12);
  assert.ok(Math.abs(s.sd - Math.sqrt(0.002 / 3)) < 1e-12);
  assert.ok(Math.abs(s.min - 0.88) < 1e-12);
  assert.ok(Math.abs(s.max - 0.94) < 1e-12);
  assert.equal(s.unstable, false);
  assert.equal(spreadOverRuns(runs, { threshold: 0.02 }).unstable, true);
  assert.equal(spreadOverRuns(runs, { threshold: 0.05, spread: "range" }).unstable, true);
  assert.equal(spreadOverRuns(runs, { threshold: 0.07, spread: "range" }).unstable, false);
  const one = spreadOverRuns([[0.5, 0.7]]);
  assert.equal(one.sd, 0);
  assert.equal(one.unstable, false);
  assert.throws(() => spreadOverRuns([]), KitError);
  assert.throws(() => spreadOverRuns([[]]), KitError);
});
