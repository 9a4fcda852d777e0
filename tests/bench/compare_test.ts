import assertNode from "node:assert/strict";
import { assert, assertEquals } from "../assert.ts";
import { benchCompare } from "../../lib/bench/compare.ts";

const assertMatch = (text: string, re: RegExp) => assertNode.match(text, re);

Deno.test("bench compare: the kit beside a previous revision, p-values compared, ranx's figure as ratios only on its own case", async () => {
  const dir = await Deno.makeTempDir();
  const lines: string[] = [];
  const rows = await benchCompare({
    queries: 60,
    candidates: 8,
    systems: 3,
    trials: 500,
    seed: 3,
    dir,
    repeats: 2,
    previous: "HEAD", // this revision as committed: the machinery, not a comparison
    log: (s) => lines.push(s),
  });
  const out = lines.join("\n");
  assertMatch(out, /^machine: \d+ CPUs, load average [\d. ]+ at the start/m);
  assertMatch(out, /previous engine: revision HEAD \(git archive/);
  assertMatch(out, /^case: 3 runs of 60 queries x 8 documents \([\d., ]+ MB\) .*500 trials$/m);
  assertEquals(rows.map((r) => r.tool), ["kit eval compare", "previous engine (HEAD)"]);
  for (const r of rows) {
    assertEquals(r.runs.length, 2);
    assert(r.seconds > 0 && r.cpuSeconds > 0 && r.peakRssMB > 0, JSON.stringify(r));
    const table = JSON.parse(r.output);
    assertEquals(table.pairs.length, 12); // 3 pairs x 4 measures
    assertEquals(table.numQ, 60);
  }
  assertMatch(out, /^p-values: all 12 \(raw and adjusted\) identical to the previous engine's$/m);
  assertMatch(
    out,
    /^\| kit eval compare \| [\d.]+ \| [\d. ]+ \| [\d.]+ \| \d+ \| [\d.]+ \| - \| - \|$/m,
  );
  // ranx was measured on another case: no ratio to it here, and the table says why.
  assertMatch(
    out,
    /^\(no ratio to ranx: its figure is for 3 runs of 30000 queries x 100, 10000 trials/m,
  );
  assertMatch(out, /^\| ranx compare \(issue 36's machine, not run here\) \| 731\.60 \|/m);
  await Deno.remove(dir, { recursive: true });
});
