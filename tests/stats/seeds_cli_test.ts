import assert from "node:assert/strict";
import { runCli } from "../helpers.ts";
import { seedsNeeded } from "../../lib/stats/seeds_needed.ts";

Deno.test("eval stability says how many runs a stable mean needs (text and JSON)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // one query, one relevant document ranked 1st, 2nd, 4th by three runs: RR 1, 0.5, 0.25
    await Deno.writeTextFile(`${dir}/q.qrels`, "q1 0 r 1\nq1 0 a 0\nq1 0 b 0\nq1 0 c 0\n");
    const ranks = [1, 2, 4];
    for (const [i, rank] of ranks.entries()) {
      const docs = ["a", "b", "c"];
      docs.splice(rank - 1, 0, "r");
      await Deno.writeTextFile(
        `${dir}/s${i}.run`,
        docs.map((d, k) => `q1 Q0 ${d} ${k + 1} ${10 - k} s${i}`).join("\n") + "\n",
      );
    }
    const files = ranks.map((_, i) => `${dir}/s${i}.run`);
    const stability = (...flags: string[]) =>
      runCli([
        "eval",
        "stability",
        "--qrels",
        `${dir}/q.qrels`,
        "-m",
        "recip_rank",
        ...files,
        ...flags,
      ]);
    const json = await stability("--json");
    assert.equal(json.code, 0, json.stderr);
    const s = JSON.parse(json.stdout);
    assert.deepEqual(s.perRun, [1, 0.5, 0.25]);
    const expected = Object.fromEntries(
      [0.01, 0.005, 0.002, 0.001].map((h) => [String(h), seedsNeeded([1, 0.5, 0.25], h)]),
    );
    assert.deepEqual(s.runsNeeded, expected);
    // sd = 0.3819: for ±0.01 about (1.96 * 0.3819 / 0.01)^2 = 5603 runs
    assert.ok(Math.abs(s.runsNeeded["0.01"] - 5603) < 10, String(s.runsNeeded["0.01"]));
    const text = await stability();
    assert.match(
      text.stdout,
      new RegExp(
        `runs for a 95% t interval of the mean within ±h, with this sd: ±0\\.01: ${
          expected["0.01"]
        }, ±0\\.005: ${expected["0.005"]}`,
      ),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
