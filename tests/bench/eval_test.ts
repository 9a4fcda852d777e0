import assertNode from "node:assert/strict";
import { assert, assertEquals } from "../assert.ts";
import { benchEval, FLOOR } from "../../lib/bench/eval.ts";
import { extractRevision } from "../../lib/bench/revision.ts";
import { trecEvalBinary } from "../../lib/bench/trec_eval.ts";

const assertMatch = (text: string, re: RegExp) => assertNode.match(text, re);

/** Lines of the synthetic qrels of a size (the file the benchmark wrote). */
function qrelsLines(dir: string, size: number): number {
  const text = Deno.readTextFileSync(`${dir}/qrels-${size}x12-s5.txt`);
  return text.split("\n").length - 1;
}

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
  assertMatch(out, withTrecEval ? /^trec_eval: \S+ \(timed up to 100000/m : /trec_eval: not built/);
  for (const size of [40, 120]) {
    const mine = rows.filter((r) => r.queries === size && !r.startup);
    assertEquals(mine.map((r) => r.tool), [
      FLOOR,
      "kit eval trec",
      "kit eval trec --threads 1",
      "previous engine (HEAD)",
      "previous engine (HEAD) --threads 1",
      ...(withTrecEval ? ["trec_eval 9.0.8"] : []),
    ]);
    // The floor read every line of both files.
    assertMatch(mine[0].output, new RegExp(`^${mine[0].runLines + qrelsLines(dir, size)} lines`));
    for (const r of mine.slice(1)) {
      assertEquals(r.output, mine[1].output);
      assert(
        r.seconds > 0 && r.peakRssMB > 0 && r.inputMB > 0 && r.cpuSeconds >= 0,
        `${r.tool}: seconds ${r.seconds}, peak ${r.peakRssMB} MB, input ${r.inputMB} MB, CPU ${r.cpuSeconds} s`,
      );
      // trec_eval runs once per size by default; the others `repeats` times.
      assertEquals(r.runs.length, r.tool === "trec_eval 9.0.8" ? 1 : 2);
    }
    assertMatch(mine[1].output, /^map\s+\tall\t0\.\d{4}$/m);
  }
  const ratios = withTrecEval ? "[\\d.]+x \\| [\\d.]+x" : "[\\d.]+x \\| -";
  assertMatch(
    out,
    new RegExp(
      `\\| 120 \\| kit eval trec \\| [\\d.]+ \\| [\\d.]+ [\\d.]+ \\| [\\d.]+ \\| \\d+ \\| [\\d.]+ ` +
        `\\| \\d+ \\| [\\d.]+ \\| ${ratios} \\|`,
    ),
  );
  // The kit's time over the floor's, at each size, in one line.
  assertMatch(
    out,
    /^kit eval trec over the floor: [\d.]+x at 40 queries \(--threads 1: [\d.]+x\), [\d.]+x at 120 queries/m,
  );
  // Start-up on one-line files: the floor, the kit, the previous engine (and trec_eval).
  const startup = rows.filter((r) => r.startup);
  assertEquals(startup.map((r) => r.tool), [
    FLOOR,
    "kit eval trec",
    "previous engine (HEAD)",
    ...(withTrecEval ? ["trec_eval 9.0.8"] : []),
  ]);
  assert(startup.every((r) => r.runs.length === 5));
  assertMatch(out, /^start-up on one-line files/m);
  assertMatch(startup[1].output, /^map\s+\tall\t1\.0000$/m);
  // A profile per size, with the CPU time of the profiled evaluation.
  assertMatch(
    out,
    /^profile, 40 queries \(one thread, in-process; wall s, [\d.]+ s in all, CPU [\d.]+ s\)/m,
  );
  assertMatch(out, /^profile, 120 queries /m);
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
