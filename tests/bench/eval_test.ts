import assertNode from "node:assert/strict";
import { assert, assertEquals } from "../assert.ts";

const assertMatch = (text: string, re: RegExp) => assertNode.match(text, re);
import { benchEval } from "../../lib/bench/eval.ts";

Deno.test("bench eval: checks the small size against the reference, times every size, profiles", async () => {
  const dir = await Deno.makeTempDir();
  const lines: string[] = [];
  const rows = await benchEval({
    sizes: [40, 120],
    candidates: 12,
    seed: 5,
    dir,
    profile: true,
    log: (s) => lines.push(s),
  });
  const out = lines.join("\n");
  assertMatch(out, /check: 40 queries, \d+ values equal to the brute-force reference/);
  // Two tools per size (the default and --threads 1, whose outputs must agree), or three
  // with trec_eval on PATH.
  assert(rows.length >= 4);
  for (const size of [40, 120]) {
    const mine = rows.filter((r) => r.queries === size);
    assertEquals(mine.slice(0, 2).map((r) => r.tool), [
      "kit eval trec",
      "kit eval trec --threads 1",
    ]);
    assertEquals(mine[0].output, mine[1].output);
    assertMatch(mine[0].output, /^map\s+\tall\t0\.\d{4}$/m);
    for (const r of mine) assert(r.seconds > 0 && r.peakRssMB > 0 && r.inputMB > 0);
  }
  assertMatch(
    out,
    /\| 120 \| kit eval trec \| [\d.]+ \| \d+ \| [\d.]+ \| \d+ \| [\d.]+ \| 1\.00 \|/,
  );
  for (const stage of ["parse the qrels", "parse and group the run", "measures"]) {
    assertMatch(out, new RegExp(`  ${stage} +[\\d.]+ +\\d+%`));
  }
  await Deno.remove(dir, { recursive: true });
});
