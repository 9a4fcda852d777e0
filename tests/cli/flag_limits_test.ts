/**
 * Numbers in flags are bounded and integral where they must be: every integer flag refuses a
 * value past its limit, naming the limit (2^53 - 1 where none is listed: past it a double no
 * longer holds the integer given), and so do `--shard`/`--shards` and measure cutoffs in both
 * spellings (`P.K`, `P@K`).
 */
import assert from "node:assert/strict";
import { INTEGER_FLAG_LIMITS, integerFlag, parseFlags } from "../../lib/cli/args.ts";
import { paramLines } from "../../lib/metrics/measures/params.ts";
import { parseIrMeasure } from "../../lib/metrics/measures/ir_measures.ts";
import { findMeasure } from "../../lib/metrics/measures/table.ts";
import { MAX_SHARDS, resolveShard } from "../../lib/scoring/shard.ts";
import { runCli } from "../helpers.ts";

Deno.test("every listed integer flag takes its limit and refuses one more, naming the limit", () => {
  const names = [...Object.keys(INTEGER_FLAG_LIMITS), "max-docs"];
  for (const name of names) {
    const [max] = INTEGER_FLAG_LIMITS[name] ?? [Number.MAX_SAFE_INTEGER];
    const table = { options: [{ name, value: "N", help: "" }] };
    assert.equal(integerFlag(parseFlags([`--${name}`, String(max)], table), name, 0), max);
    for (const past of [String(BigInt(max) + 1n), "99999999999999999999", `000${max}0`]) {
      assert.throws(
        () => integerFlag(parseFlags([`--${name}`, past], table), name, 0),
        new RegExp(`^KitError: --${name} takes at most ${max} \\(.+\\), got '${past}'$`),
        `${name} ${past}`,
      );
    }
    // Leading zeros are the same number, within the limit.
    assert.equal(integerFlag(parseFlags([`--${name}`, `00${max}`], table), name, 0), max);
  }
});

Deno.test("--shard and --shards: at most MAX_SHARDS, said in the message", () => {
  assert.equal(resolveShard({ shard: `0/${MAX_SHARDS}` })!.count, MAX_SHARDS);
  for (const shard of [`1/${MAX_SHARDS + 1}`, "1/99999999999999999999"]) {
    assert.throws(() => resolveShard({ shard }), new RegExp(`must be at most ${MAX_SHARDS}`));
  }
  assert.throws(
    () => resolveShard({ shards: "99999999999999999999", env: {} }),
    new RegExp(`--shards must be at most ${MAX_SHARDS}`),
  );
});

Deno.test("measure cutoffs past 2^53 - 1 are refused in both spellings", () => {
  const p = findMeasure("P")!;
  assert.equal(paramLines(p, String(Number.MAX_SAFE_INTEGER))[0].label, "P_9007199254740991");
  assert.throws(() => paramLines(p, "5,99999999999999999999"), /at most 9007199254740991/);
  assert.throws(() => parseIrMeasure("P@99999999999999999999"), /at most 9007199254740991/);
  assert.throws(() => parseIrMeasure("nDCG@1e30"), /at most 9007199254740991/);
});

Deno.test("the tester's case on the command line: one line, exit 2", async () => {
  const r = await runCli([
    "score",
    "--model",
    "lexical:bm25",
    "--dataset",
    "wikiqa",
    "--split",
    "test",
    "--shard",
    "1/99999999999999999999",
    "--out",
    "x.{shard}.run",
  ], { cwd: await Deno.makeTempDir() });
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    `error: N of --shard I/N must be at most ${MAX_SHARDS} (Slurm's largest job array), not ` +
      "'99999999999999999999'\n",
  );
});

Deno.test("fuse --k: at most a million, said in the message", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.run`, "q1 Q0 d1 1 1 a\nq1 Q0 d2 2 0.5 a\n");
    await Deno.writeTextFile(`${dir}/b.run`, "q1 Q0 d2 1 1 b\nq1 Q0 d1 2 0.5 b\n");
    const r = await runCli(
      [
        "fuse",
        "a.run",
        "b.run",
        "--method",
        "rrf",
        "--k",
        "99999999999999999999",
        "--out",
        "f.run",
      ],
      { cwd: dir },
    );
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--k takes at most 1000000 \(past it rrf's/);
    const ok = await runCli([
      "fuse",
      "a.run",
      "b.run",
      "--method",
      "rrf",
      "--k",
      "1000000",
      "--out",
      "f.run",
    ], {
      cwd: dir,
    });
    assert.equal(ok.code, 0, ok.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
