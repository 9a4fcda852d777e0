import assert from "node:assert/strict";
import { loadCrossEncoder } from "../../lib/scoring/model/crossencoder.ts";
import { diskTest, runCli } from "../helpers.ts";

const FIXTURE = new URL("../fixtures/tiny-model/cross-encoder", import.meta.url).pathname;
const REF = JSON.parse(
  await Deno.readTextFile(new URL("../fixtures/tiny-model/reference.json", import.meta.url)),
);
const PAIRS = REF.crossEncoder.pairs.slice(0, 3);

/** A copy of the fixture model at `dest`. */
async function copyModel(dest: string): Promise<void> {
  await Deno.mkdir(`${dest}/onnx`, { recursive: true });
  for (const f of ["config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model.onnx"]) {
    await Deno.copyFile(`${FIXTURE}/${f}`, `${dest}/${f}`);
  }
}

/** Scores PAIRS with the model at `spec` through the cache in `cache`; the hits and scorer id. */
async function score(spec: string, cache: string) {
  const ce = await loadCrossEncoder(spec, { backend: "cpu", scoreCache: cache });
  try {
    const scores = await ce.scorePairs(PAIRS);
    return { hits: ce.lastCacheHits, id: ce.id, scores };
  } finally {
    await ce.close();
  }
}

Deno.test("a model whose tokenizer or config changed is scored anew, not from the cache", async () => {
  const root = await Deno.makeTempDir();
  try {
    await copyModel(`${root}/m`);
    const cache = `${root}/scores`;
    assert.equal((await score(`${root}/m`, cache)).hits, 0);
    assert.equal((await score(`${root}/m`, cache)).hits, PAIRS.length);
    // the same weights with another tokenizer: the token ids, hence the scores, differ
    const tj = JSON.parse(await Deno.readTextFile(`${root}/m/tokenizer.json`));
    const vocab = tj.model.vocab as Record<string, number>;
    const [a, b] = Object.keys(vocab).filter((t) => /^[a-z]{3,}$/.test(t)).slice(0, 2);
    [vocab[a], vocab[b]] = [vocab[b], vocab[a]];
    await Deno.writeTextFile(`${root}/m/tokenizer.json`, JSON.stringify(tj));
    assert.equal((await score(`${root}/m`, cache)).hits, 0);
    for (const f of ["tokenizer_config.json", "config.json"]) {
      const obj = JSON.parse(await Deno.readTextFile(`${root}/m/${f}`));
      obj.kit_test_note = f;
      await Deno.writeTextFile(`${root}/m/${f}`, JSON.stringify(obj));
      assert.equal((await score(`${root}/m`, cache)).hits, 0, f);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("one model spelt two ways shares one cache file and one id; two models never share", async () => {
  const root = await Deno.makeTempDir();
  const cwd = Deno.cwd();
  try {
    await copyModel(`${root}/a/b`);
    await copyModel(`${root}/a_b`);
    const cache = `${root}/scores`;
    Deno.chdir(root);
    const first = await score("a/b", cache);
    const slash = await score("a/b/", cache);
    assert.equal(slash.hits, PAIRS.length);
    Deno.chdir(`${root}/a`);
    const other = await score("../a/b", cache);
    assert.equal(other.hits, PAIRS.length);
    assert.deepEqual([first.id, slash.id, other.id], ["b", "b", "b"]);
    Deno.chdir(root);
    // another folder with other bytes: its own file, no clash with a/b's
    const obj = JSON.parse(await Deno.readTextFile(`${root}/a_b/config.json`));
    obj.kit_test_note = "another model";
    await Deno.writeTextFile(`${root}/a_b/config.json`, JSON.stringify(obj));
    const ab = await score("a_b", cache);
    assert.equal(ab.hits, 0);
    assert.equal(ab.id, "a_b");
    const files = [...Deno.readDirSync(cache)].map((e) => e.name).sort();
    assert.equal(files.length, 2);
    assert.ok(files.every((f) => /^(a_b|b)-[0-9a-f]{16}\.json$/.test(f)), files.join(" "));
  } finally {
    Deno.chdir(cwd);
    await Deno.remove(root, { recursive: true });
  }
});

diskTest(
  "a score cache on a read-only file system: the run is written all the same, with one warning naming --no-cache",
  "1m",
  async (disk) => {
    const ro = await new Deno.Command("mount", { args: ["-o", "remount,ro", disk.dir] }).output();
    assert(ro.success, "remount read-only");
    const out = await Deno.makeTempDir();
    try {
      const args = ["score", "--model", FIXTURE, "--backend", "cpu", "--dataset", "wikiqa"];
      const cached = await runCli([...args, "--split", "test", "--out", `${out}/a.run`], {
        env: { QA_KIT_DATA_DIR: disk.dir },
      });
      assert.equal(cached.code, 0, cached.stderr);
      const warnings = cached.stderr.split("\n").filter((l) => l.startsWith("warning: "));
      assert.equal(warnings.length, 1, cached.stderr);
      assert.match(warnings[0], /score cache could not be written .*read-only file system/);
      assert.match(warnings[0], /pass --no-cache/);
      const plain = await runCli([
        ...args,
        "--split",
        "test",
        "--out",
        `${out}/b.run`,
        "--no-cache",
      ], {
        env: { QA_KIT_DATA_DIR: disk.dir },
      });
      assert.equal(plain.code, 0, plain.stderr);
      assert(!plain.stderr.includes("warning"), plain.stderr);
      const run = await Deno.readTextFile(`${out}/a.run`);
      assert(run.length > 0);
      assert.equal(run, await Deno.readTextFile(`${out}/b.run`));
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
);

Deno.test("a cache file that is not the kit's is refused in one line naming it, nothing of it echoed; a score that is not a number never becomes one", async () => {
  const { ScoreCache } = await import("../../lib/scoring/model/cache.ts");
  const { KitError } = await import("../../lib/errors.ts");
  const dir = await Deno.makeTempDir();
  try {
    const good = await ScoreCache.open(dir, "k", "m");
    good.set("q", "a", 0.5);
    await good.save();
    const path = good.path;
    const key = JSON.parse(await Deno.readTextFile(path)).modelKey;
    const secret = "SECRET-TOKEN-1234\u001b[2J";
    const cases: [string, string | (() => void)][] = [
      ["null", "null\n"],
      ["a number", "5"],
      ["not JSON", `root:${secret}`],
      ["another key", JSON.stringify({ modelKey: secret, scores: {} })],
      ["no scores", JSON.stringify({ modelKey: key })],
      ["a null score", JSON.stringify({ modelKey: key, scores: { x: null } })],
      ["a true score", JSON.stringify({ modelKey: key, scores: { x: true } })],
      ["a text score", JSON.stringify({ modelKey: key, scores: { x: "1" } })],
      ["a link", () => {
        Deno.writeTextFileSync(`${dir}/secret`, JSON.stringify({ modelKey: key, scores: {} }));
        Deno.symlinkSync(`${dir}/secret`, path);
      }],
    ];
    for (const [label, make] of cases) {
      await Deno.remove(path).catch(() => {});
      if (typeof make === "string") await Deno.writeTextFile(path, make);
      else make();
      await assert.rejects(
        () => ScoreCache.open(dir, "k", "m"),
        (e: Error) => {
          assert(e instanceof KitError, `${label}: ${e}`);
          assert(e.message.startsWith(`${path}: `), `${label}: ${e.message}`);
          assert(!e.message.includes("SECRET") && !e.message.includes("\u001b"), label);
          assert(!e.message.includes("\n"), label);
          return true;
        },
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
