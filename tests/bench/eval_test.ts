import assertNode from "node:assert/strict";
import { assert, assertEquals } from "../assert.ts";
import { benchEval, extractRevision } from "../../lib/bench/eval.ts";
import { trecEvalBinary } from "../../lib/bench/trec_eval.ts";

const assertMatch = (text: string, re: RegExp) => assertNode.match(text, re);

Deno.test("bench eval: the kit beside a previous revision and trec_eval, outputs identical, profile", async () => {
  const dir = await Deno.makeTempDir();
  const lines: string[] = [];
  const rows = await benchEval({
    sizes: [40, 120],
    candidates: 12,
    seed: 5,
    dir,
    profile: true,
    repeats: 2,
    previous: "HEAD", // this revision as committed: the machinery, not a comparison
    log: (s) => lines.push(s),
  });
  const out = lines.join("\n");
  assertMatch(out, /check: 40 queries, \d+ values equal to the brute-force reference/);
  assertMatch(out, /^machine: \d+ CPUs, load average [\d. ]+ at the start/m);
  assertMatch(out, /previous engine: revision HEAD \(git archive/);
  const withTrecEval = trecEvalBinary() !== undefined;
  assertMatch(out, withTrecEval ? /^trec_eval: \S+ \(timed up to 10000/m : /trec_eval: not built/);
  for (const size of [40, 120]) {
    const mine = rows.filter((r) => r.queries === size);
    assertEquals(mine.map((r) => r.tool), [
      "kit eval trec",
      "kit eval trec --threads 1",
      "previous engine (HEAD)",
      "previous engine (HEAD) --threads 1",
      ...(withTrecEval ? ["trec_eval 9.0.8"] : []),
    ]);
    for (const r of mine) {
      assertEquals(r.output, mine[0].output);
      assert(r.seconds > 0 && r.peakRssMB > 0 && r.inputMB > 0 && r.runs.length === 2);
    }
    assertMatch(mine[0].output, /^map\s+\tall\t0\.\d{4}$/m);
  }
  assertMatch(
    out,
    /\| 120 \| kit eval trec \| [\d.]+ \| [\d.]+ [\d.]+ \| \d+ \| [\d.]+ \| \d+ \| [\d.]+ \| 1\.00 \|/,
  );
  for (const stage of ["read the qrels", "read the run", "judge", "rank", "measures"]) {
    assertMatch(out, new RegExp(`  ${stage} +[\\d.]+ +\\d+%`));
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("bench eval: a revision that does not exist is reported, not timed", async () => {
  const got = await extractRevision("no-such-revision-0000");
  assertEquals(got.dir, undefined);
  assert(got.why && got.why.length > 0);
});
