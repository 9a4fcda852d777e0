/**
 * Idempotent shards: a shard run again whose run is complete for the same job is skipped (exit
 * 0, nothing changes); one of another job, or changed since, is redone; a run without its record
 * is refused without --force. The merge (`convert shards`), `eval as2` and `report` refuse a set
 * with a shard missing or incomplete, naming it.
 */
import assert from "node:assert/strict";
import { runCli } from "../helpers.ts";

const BASE = [
  "--model",
  "lexical:bm25",
  "--dataset",
  "wikiqa",
  "--split",
  "test",
  "--dir",
  "samples",
];

async function shard(dir: string, i: number, n: number, extra: string[] = []) {
  return await runCli([
    "score",
    ...BASE,
    "--shard",
    `${i}/${n}`,
    "--out",
    "r.{shard}.run",
    ...extra,
  ], {
    cwd: dir,
  });
}

const sorted = (text: string) => text.split("\n").filter((l) => l).sort().join("\n");

Deno.test("a finished shard run again is skipped, exit 0, its files untouched; another job's or a changed run is redone", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const first = await shard(dir, 1, 3);
    assert.equal(first.code, 0, first.stderr);
    const run = await Deno.readFile(`${dir}/r.1.run`);
    const before = [Deno.statSync(`${dir}/r.1.run`), Deno.statSync(`${dir}/r.1.run.shard.json`)]
      .map((s) => `${s.ino} ${s.mtime?.getTime()}`);
    const again = await shard(dir, 1, 3);
    assert.equal(again.code, 0, again.stderr);
    assert.match(
      again.stderr,
      /shard 1 of 3: r\.1\.run is already complete for this job .*skipped/,
    );
    assert(!again.stderr.includes("scored by"), again.stderr);
    const after = [Deno.statSync(`${dir}/r.1.run`), Deno.statSync(`${dir}/r.1.run.shard.json`)]
      .map((s) => `${s.ino} ${s.mtime?.getTime()}`);
    assert.deepEqual(after, before, "nothing rewritten");
    // Another job (a different seed) into the same file: redone, without --force.
    const other = await shard(dir, 1, 3, ["--seed", "7"]);
    assert.equal(other.code, 0, other.stderr);
    assert.match(other.stderr, /holds the run of another job \(seed differ\): scoring it again/);
    // A run changed after it was written (an edit): kept, refused without --force.
    await Deno.writeTextFile(`${dir}/r.1.run`, "Q1 Q0 x 1 1 t\n", { append: true });
    const edited = await Deno.readTextFile(`${dir}/r.1.run`);
    const changed = await shard(dir, 1, 3, ["--seed", "7"]);
    assert.equal(changed.code, 2);
    assert.match(changed.stderr, /r\.1\.run: changed since the kit wrote it .*--force/);
    assert.equal(await Deno.readTextFile(`${dir}/r.1.run`), edited);
    assert.equal((await shard(dir, 1, 3, ["--seed", "7", "--force"])).code, 0);
    // Redone with the first job's settings, the run is the first one's again.
    assert.equal((await shard(dir, 1, 3)).code, 0);
    assert.deepEqual(await Deno.readFile(`${dir}/r.1.run`), run);
    // --force scores a complete shard again.
    const forced = await shard(dir, 1, 3, ["--force"]);
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stderr, /scored by lexical:bm25/);
    // A run without its record is not taken for the kit's: refused without --force.
    await Deno.remove(`${dir}/r.1.run.shard.json`);
    const bare = await shard(dir, 1, 3);
    assert.equal(bare.code, 2);
    assert.match(
      bare.stderr,
      /r\.1\.run: exists without its shard record .*--force scores the shard again/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert shards merges a complete set into the unsharded run; a missing or changed shard is named by the merge, eval as2 and report", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const i of [0, 1, 2]) assert.equal((await shard(dir, i, 3)).code, 0);
    const whole = await runCli(["score", ...BASE, "--out", "whole.run"], { cwd: dir });
    assert.equal(whole.code, 0, whole.stderr);
    const merged = await runCli(["convert", "shards", "r.{shard}.run", "merged.run"], { cwd: dir });
    assert.equal(merged.code, 0, merged.stderr);
    assert.match(merged.stderr, /from all 3 shards/);
    assert.equal(
      sorted(await Deno.readTextFile(`${dir}/merged.run`)),
      sorted(await Deno.readTextFile(`${dir}/whole.run`)),
    );
    // One shard gone: nothing written, the shard named, by every reader.
    await Deno.rename(`${dir}/r.2.run`, `${dir}/aside`);
    const merge = await runCli(["convert", "shards", "r.{shard}.run", "m2.run"], { cwd: dir });
    assert.equal(merge.code, 2);
    assert.match(merge.stderr, /1 of 3 shards missing or without their record: r\.2\.run/);
    assert.throws(() => Deno.statSync(`${dir}/m2.run`), Deno.errors.NotFound);
    const as2 = await runCli(
      [
        "eval",
        "as2",
        "--dataset",
        "wikiqa",
        "--split",
        "test",
        "--dir",
        "samples",
        "r.0.run",
        "r.1.run",
      ],
      { cwd: dir },
    );
    assert.equal(as2.code, 2);
    assert.match(as2.stderr, /shard 2 of 3 is missing/);
    const report = await runCli(
      [
        "report",
        "--run",
        "ce=r.*.run",
        "--data",
        "sample",
        "--out",
        "R",
        "--no-pdf",
        "--no-slides",
      ],
      { cwd: dir },
    );
    assert.equal(report.code, 2, report.stderr);
    assert.match(report.stderr, /shard 2 of 3 is missing/);
    // A shard changed after it was written: incomplete, named.
    await Deno.rename(`${dir}/aside`, `${dir}/r.2.run`);
    await Deno.writeTextFile(`${dir}/r.2.run`, "", { append: true }); // unchanged: still fine
    assert.equal((await runCli(["convert", "shards", "r.{shard}.run", "-"], { cwd: dir })).code, 0);
    await Deno.writeTextFile(`${dir}/r.0.run`, "Q9 Q0 d 1 1 t\n", { append: true });
    const torn = await runCli(["convert", "shards", "r.{shard}.run", "m3.run"], { cwd: dir });
    assert.equal(torn.code, 2);
    assert.match(torn.stderr, /r\.0\.run: shard 0 of 3 is incomplete/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("empty shards (more shards than questions) merge and evaluate as the unsharded run; an unfinished shard is redone", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const n = 8;
    for (let i = 0; i < n; i++) assert.equal((await shard(dir, i, n)).code, 0);
    const empty = [...Deno.readDirSync(dir)].filter((e) =>
      e.name.endsWith(".run") && Deno.statSync(`${dir}/${e.name}`).size === 0
    );
    assert(empty.length > 0, "some of the 8 shards hold none of the sample's 4 questions");
    const whole = await runCli(["score", ...BASE, "--out", "whole.run"], { cwd: dir });
    assert.equal(whole.code, 0, whole.stderr);
    const merged = await runCli(["convert", "shards", "r.{shard}.run", "merged.run"], { cwd: dir });
    assert.equal(merged.code, 0, merged.stderr);
    assert.equal(
      sorted(await Deno.readTextFile(`${dir}/merged.run`)),
      sorted(await Deno.readTextFile(`${dir}/whole.run`)),
    );
    const files = Array.from({ length: n }, (_, i) => `r.${i}.run`);
    const as2 = (runs: string[]) =>
      runCli(
        ["eval", "as2", "--dataset", "wikiqa", "--split", "test", "--dir", "samples", ...runs],
        {
          cwd: dir,
        },
      );
    const [a, b] = [await as2(files), await as2(["whole.run"])];
    assert.equal(a.code, 0, a.stderr);
    assert.equal(a.stdout, b.stdout);
    // A task stopped while writing: its record says so; the next try redoes it, and a merge
    // meanwhile names it.
    const record = JSON.parse(await Deno.readTextFile(`${dir}/r.1.run.shard.json`));
    await Deno.writeTextFile(
      `${dir}/r.1.run.shard.json`,
      JSON.stringify({ ...record, sha256: "pending" }),
    );
    const torn = await runCli(["convert", "shards", "r.{shard}.run", "m.run"], { cwd: dir });
    assert.equal(torn.code, 2);
    assert.match(torn.stderr, /shard 1 of 8 is incomplete: its task stopped while writing it/);
    const redo = await shard(dir, 1, n);
    assert.equal(redo.code, 0, redo.stderr);
    assert.match(redo.stderr, /holds an unfinished run .*: scoring it again/);
    assert.equal(
      (await runCli(["convert", "shards", "r.{shard}.run", "m.run"], { cwd: dir })).code,
      0,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a shard record copied from another shard is named as such by the merge", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const i of [0, 1]) assert.equal((await shard(dir, i, 2)).code, 0);
    await Deno.copyFile(`${dir}/r.1.run.shard.json`, `${dir}/r.0.run.shard.json`);
    const r = await runCli(["convert", "shards", "r.{shard}.run", "m.run"], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /r\.0\.run: holds the record of shard 1 of 2, not of shard 0/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
