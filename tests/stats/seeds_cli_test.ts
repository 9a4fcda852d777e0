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
    const s = JSON.parse(json.stdout).measures[0];
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

Deno.test("eval stability: every -m measure, and runs over different queries refused as eval compare refuses them", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // q1: r at rank 1 / 2; q2: r2 at rank 2 / 1 (run b) and missing from run c
    await Deno.writeTextFile(
      `${dir}/q.qrels`,
      "q1 0 r 1\nq1 0 a 0\nq2 0 r2 1\nq2 0 b 0\nq2 0 c 0\n",
    );
    await Deno.writeTextFile(
      `${dir}/a.run`,
      "q1 Q0 r 1 2 a\nq1 Q0 a 2 1 a\nq2 Q0 b 1 2 a\nq2 Q0 r2 2 1 a\n",
    );
    await Deno.writeTextFile(
      `${dir}/b.run`,
      "q1 Q0 a 1 2 b\nq1 Q0 r 2 1 b\nq2 Q0 r2 1 2 b\nq2 Q0 b 2 1 b\n",
    );
    await Deno.writeTextFile(`${dir}/c.run`, "q1 Q0 r 1 2 c\nq1 Q0 a 2 1 c\n");
    const cli = (...args: string[]) =>
      runCli(["eval", "stability", "--qrels", `${dir}/q.qrels`, ...args]);
    const ab = [`${dir}/a.run`, `${dir}/b.run`];
    const json = await cli(...ab, "-m", "map", "-m", "P.1", "--json");
    assert.equal(json.code, 0, json.stderr);
    const r = JSON.parse(json.stdout);
    assert.equal(r.numQ, 2);
    // a: AP 1 and 0.5 (mean 0.75), P@1 1 and 0; b: AP 0.5 and 1, P@1 0 and 1
    assert.deepEqual(r.measures.map((m: { measure: string }) => m.measure), ["map", "P_1"]);
    assert.deepEqual(r.measures[0].perRun, [0.75, 0.75]);
    assert.deepEqual(r.measures[1].perRun, [0.5, 0.5]);
    const text = await cli(...ab, "-m", "map", "-m", "recip_rank");
    assert.match(text.stdout, /^MAP over 2 runs: mean 0\.7500/m);
    assert.match(text.stdout, /^MRR over 2 runs: mean 0\.7500/m);
    assert.match(text.stdout, /trec_eval's names: MAP = map, MRR = recip_rank\)$/m);
    assert.match(text.stdout, /^2 runs over the same 2 queries/);

    // c lacks q2: its mean would be over 1 question, a's over 2
    const refused = await cli(...ab, `${dir}/c.run`);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      /runs cover different queries \(.*a\.run: 2, .*c\.run: 1; common to all: 1\)/,
    );
    assert.match(
      refused.stderr,
      /with -c, .* or use only the queries every run covers \(--intersect/,
    );
    const complete = await cli(...ab, `${dir}/c.run`, "-c", "--json");
    assert.deepEqual(JSON.parse(complete.stdout).measures[0].perRun, [0.75, 0.75, 0.5]);
    const common = await cli(...ab, `${dir}/c.run`, "--intersect", "--json");
    assert.equal(common.code, 0, common.stderr);
    assert.match(common.stderr, /--intersect: 1 queries common to every run/);
    assert.deepEqual(JSON.parse(common.stdout).measures[0].perRun, [1, 0.5, 1]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
