/**
 * The two caches a cluster's shards share: Deno's, which the jobs only read (scoring works with
 * `DENO_DIR` on a read-only mount), and the kit's score cache, which concurrent shards may
 * share without a wrong score (the last writer wins; docs/scoring.md, section 6).
 */
import assert from "node:assert/strict";
import { runCli } from "../helpers.ts";
import { NO_SCHEDULER, readOnlyDenoDir, runLines, SCORE_ARGS } from "./cluster.ts";

const RO_NAME = "cluster caches: scoring and merging with DENO_DIR on a read-only mount";
const canMount = Deno.uid() === 0;
if (!canMount) console.error(`skipping "${RO_NAME}": mounting read-only needs root`);

Deno.test({
  name: RO_NAME,
  ignore: !canMount,
  async fn() {
    const dir = await Deno.makeTempDir();
    const deno = await readOnlyDenoDir();
    assert.ok(deno, "cannot bind-mount Deno's cache");
    try {
      // nothing can be written there: not the caches Deno opens, not a new file
      assert.throws(
        () => Deno.writeTextFileSync(`${deno.dir}/kit-probe`, "x"),
        /read-only|os error 30/i,
      );
      assert.throws(
        () => Deno.openSync(`${deno.dir}/dep_analysis_cache_v2`, { write: true }),
        /read-only|os error 30|No such file/i,
      );
      const env = { ...NO_SCHEDULER, DENO_DIR: deno.dir };
      const score = (args: string[], out: string, e: Record<string, string>) =>
        runCli(["score", ...SCORE_ARGS, "--no-cache", ...args, "--out", out], { env: e, cwd: dir });
      const [ro, rw, ...shards] = await Promise.all([
        score([], "ro.run", env),
        score([], "rw.run", NO_SCHEDULER),
        ...[0, 1].map((i) => score(["--shard", `${i}/2`], "s.{shard}.run", env)),
      ]);
      for (const r of [ro, rw, ...shards]) assert.equal(r.code, 0, r.stderr);
      assert.match(ro.stderr, /scoring backend: cpu \(onnxruntime-node/);
      assert.doesNotMatch(ro.stderr, /warning|error/i);
      assert.equal(
        await Deno.readTextFile(`${dir}/ro.run`),
        await Deno.readTextFile(`${dir}/rw.run`),
      );
      const merged = await runCli(["convert", "shards", "s.{shard}.run", "s.run"], {
        env,
        cwd: dir,
      });
      assert.equal(merged.code, 0, merged.stderr);
      assert.deepEqual(await runLines(`${dir}/s.run`), await runLines(`${dir}/ro.run`));
    } finally {
      await deno.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("cluster caches: 3 concurrent shards and the unsharded run on one score cache folder give one process's run", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const reference = await runCli(["score", ...SCORE_ARGS, "--no-cache", "--out", "ref.run"], {
      env: NO_SCHEDULER,
      cwd: dir,
    });
    assert.equal(reference.code, 0, reference.stderr);
    // one score cache folder for all: QA_KIT_DATA_DIR/scores (the corpus is read from samples)
    const env = { ...NO_SCHEDULER, QA_KIT_DATA_DIR: `${dir}/data` };
    const round = async (name: string) => {
      const results = await Promise.all([
        runCli(["score", ...SCORE_ARGS, "--out", `${name}.all.run`], { env, cwd: dir }),
        ...[0, 1, 2].map((i) =>
          runCli(["score", ...SCORE_ARGS, "--shard", `${i}/3`, "--out", `${name}.{shard}.run`], {
            env,
            cwd: dir,
          })
        ),
      ]);
      for (const r of results) assert.equal(r.code, 0, r.stderr);
      const merged = await runCli(
        ["convert", "shards", `${name}.{shard}.run`, `${name}.run`],
        { cwd: dir },
      );
      assert.equal(merged.code, 0, merged.stderr);
      assert.deepEqual(await runLines(`${dir}/${name}.run`), await runLines(`${dir}/ref.run`));
      assert.equal(
        await Deno.readTextFile(`${dir}/${name}.all.run`),
        await Deno.readTextFile(`${dir}/ref.run`),
      );
    };
    await round("cold"); // every process scores, and each rewrites the cache file
    const files = [...Deno.readDirSync(`${dir}/data/scores`)].map((e) => e.name);
    assert.equal(files.length, 1, `${files}`);
    const cache = JSON.parse(await Deno.readTextFile(`${dir}/data/scores/${files[0]}`));
    assert.ok(Object.keys(cache.scores).length > 0);
    await round("warm"); // what the last writer left is read back, never a wrong score
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
