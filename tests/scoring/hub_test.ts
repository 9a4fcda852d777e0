import "../quick.ts";
import assert from "node:assert/strict";
import {
  cachedModelDir,
  downloadModel,
  isRepoId,
  resolveModelDir,
} from "../../lib/scoring/model/hub.ts";
import { loadCrossEncoder } from "../../lib/scoring/model/crossencoder.ts";

const FIXTURE = new URL("../fixtures/tiny-model/", import.meta.url).pathname;

/** Serves the fixture folders as hub repos `hubtest/tiny-ce` and `hubtest/tiny-qa` on 127.0.0.1. */
function serveHub(vocabRepo = `${FIXTURE}/no-such-folder`) {
  const requests: string[] = [];
  const repos: Record<string, string> = {
    "hubtest/tiny-ce": `${FIXTURE}/cross-encoder`,
    "hubtest/tiny-qa": `${FIXTURE}/qa`,
    "hubtest/no-weights": `${FIXTURE}/no-such-folder`,
    // a BERT repository that ships vocab.txt and no tokenizer.json (written by the test)
    "hubtest/vocab-txt": vocabRepo,
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    requests.push(path);
    const m = path.match(/^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/);
    if (!m || m[2] !== "main") return new Response("not found", { status: 404 });
    if (m[1] === "hubtest/no-weights" && (m[3] === "config.json" || m[3] === "tokenizer.json")) {
      return new Response(await Deno.readFile(`${FIXTURE}/qa/${m[3]}`));
    }
    const root = repos[m[1]];
    if (!root) return new Response("no repo", { status: 404 });
    try {
      return new Response(await Deno.readFile(`${root}/${decodeURIComponent(m[3])}`));
    } catch {
      return new Response("no file", { status: 404 });
    }
  });
  const endpoint = `http://127.0.0.1:${server.addr.port}`;
  return { server, endpoint, requests };
}

Deno.test("repo ids and paths are told apart", () => {
  assert.ok(isRepoId("cross-encoder/ms-marco-MiniLM-L-6-v2"));
  assert.ok(!isRepoId("./models/x"));
  assert.ok(!isRepoId("/abs/path"));
  assert.ok(!isRepoId("a/b/c"));
  assert.ok(!isRepoId("../x"));
});

Deno.test("a model downloads from a local hub once, then loads from the cache", async () => {
  const { server, endpoint, requests } = serveHub();
  const cacheDir = await Deno.makeTempDir();
  try {
    const dir = await downloadModel("hubtest/tiny-ce", { endpoint, cacheDir });
    assert.equal(dir, cachedModelDir("hubtest/tiny-ce", { cacheDir }));
    for (const f of ["config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model.onnx"]) {
      assert.deepEqual(
        await Deno.readFile(`${dir}/${f}`),
        await Deno.readFile(`${FIXTURE}/cross-encoder/${f}`),
        f,
      );
    }
    const marker = JSON.parse(await Deno.readTextFile(`${dir}/.complete`));
    assert.deepEqual(marker.files, [
      "config.json",
      "tokenizer.json",
      "tokenizer_config.json",
      "onnx/model.onnx",
    ]);
    // special_tokens_map.json is optional: its 404 was tolerated
    assert.ok(requests.includes("/hubtest/tiny-ce/resolve/main/special_tokens_map.json"));
    const before = requests.length;
    assert.equal(await resolveModelDir("hubtest/tiny-ce", { endpoint, cacheDir }), dir);
    assert.equal(requests.length, before, "a completed download is not fetched again");
    // the QA repo keeps its weights at the top level: the fallback file name is used
    const qa = await downloadModel("hubtest/tiny-qa", { endpoint, cacheDir });
    assert.ok((await Deno.stat(`${qa}/model.onnx`)).isFile);
    // the downloaded folder scores like the original
    const ce = await loadCrossEncoder("hubtest/tiny-ce", {
      endpoint,
      cacheDir,
      backend: "cpu",
      scoreCache: false,
    });
    const ref = JSON.parse(await Deno.readTextFile(`${FIXTURE}/reference.json`));
    const [s] = await ce.scorePairs([ref.crossEncoder.pairs[0]]);
    assert.ok(Math.abs(s - ref.crossEncoder.pairs[0].logit) < 1e-4);
    await ce.close();
  } finally {
    await server.shutdown();
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("missing repos and missing weights are clear errors", async () => {
  const { server, endpoint } = serveHub();
  const cacheDir = await Deno.makeTempDir();
  try {
    await assert.rejects(
      downloadModel("hubtest/absent", { endpoint, cacheDir }),
      /has no config\.json/,
    );
    await assert.rejects(
      downloadModel("hubtest/no-weights", { endpoint, cacheDir }),
      /no ONNX weights/,
    );
    await assert.rejects(
      downloadModel("hubtest/tiny-ce", { endpoint, cacheDir, revision: "v9" }),
      /has no config\.json/,
    );
    await assert.rejects(resolveModelDir("./not/here"), /no model folder/);
  } finally {
    await server.shutdown();
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("a repository with vocab.txt and no tokenizer.json downloads and scores", async () => {
  // the fixture cross-encoder's vocabulary as a vocab.txt, in place of its tokenizer.json
  const repo = await Deno.makeTempDir();
  const cacheDir = await Deno.makeTempDir();
  const { server, endpoint, requests } = serveHub(repo);
  try {
    const src = `${FIXTURE}/cross-encoder`;
    await Deno.mkdir(`${repo}/onnx`);
    for (const f of ["config.json", "tokenizer_config.json", "onnx/model.onnx"]) {
      await Deno.copyFile(`${src}/${f}`, `${repo}/${f}`);
    }
    const tj = JSON.parse(await Deno.readTextFile(`${src}/tokenizer.json`));
    const vocab = Object.entries(tj.model.vocab as Record<string, number>)
      .sort((a, b) => a[1] - b[1]).map(([t]) => t);
    await Deno.writeTextFile(`${repo}/vocab.txt`, vocab.join("\n") + "\n");
    const dir = await downloadModel("hubtest/vocab-txt", { endpoint, cacheDir });
    const marker = JSON.parse(await Deno.readTextFile(`${dir}/.complete`));
    assert.deepEqual(marker.files, [
      "config.json",
      "vocab.txt",
      "tokenizer_config.json",
      "onnx/model.onnx",
    ]);
    assert.ok(requests.includes("/hubtest/vocab-txt/resolve/main/tokenizer.json"));
    const ce = await loadCrossEncoder(dir, { backend: "cpu", scoreCache: false });
    const ref = JSON.parse(await Deno.readTextFile(`${FIXTURE}/reference.json`));
    const scores = await ce.scorePairs(ref.crossEncoder.pairs);
    ref.crossEncoder.pairs.forEach((p: { logit: number }, i: number) =>
      assert.ok(Math.abs(scores[i] - p.logit) < 1e-4, `pair ${i}`)
    );
    await ce.close();
    // neither tokenizer: a clear error
    await Deno.remove(`${repo}/vocab.txt`);
    await assert.rejects(
      downloadModel("hubtest/vocab-txt", { endpoint, cacheDir: `${cacheDir}/again` }),
      /has no tokenizer \(tokenizer\.json or vocab\.txt\)/,
    );
  } finally {
    await server.shutdown();
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(cacheDir, { recursive: true });
  }
});
