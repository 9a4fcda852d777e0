import "../quick.ts";
import assert from "node:assert/strict";
import { loadCrossEncoder } from "../../lib/scoring/model/crossencoder.ts";
import { loadSpanReader, windows } from "../../lib/scoring/model/qa.ts";
import { type Backend, hasWebGpu } from "../../lib/scoring/model/session.ts";
import { ModelTokenizer } from "../../lib/scoring/model/tokenizer.ts";

const FIXTURE = new URL("../fixtures/tiny-model/", import.meta.url).pathname;
const REF = JSON.parse(await Deno.readTextFile(`${FIXTURE}/reference.json`));
const TOL = 1e-4;

// WebGPU runs on lavapipe (mesa-vulkan-drivers) where no GPU exists; CI installs it, so
// there a missing adapter is a failure rather than a skip.
const webgpu = await hasWebGpu();
if (!webgpu && Deno.env.get("CI") === "true") {
  throw new Error("CI has no WebGPU adapter: is mesa-vulkan-drivers installed?");
}
if (!webgpu) console.warn("no WebGPU adapter here: the webgpu backend tests are skipped");
// every backend: the native CPU backend, onnxruntime-web's wasm, WebGPU (lavapipe in CI)
const BACKENDS: Backend[] = webgpu ? ["cpu", "wasm", "webgpu"] : ["cpu", "wasm"];

Deno.test("tokenizer: pair ids and truncation match the Python reference", async () => {
  const tok = await ModelTokenizer.load(`${FIXTURE}/cross-encoder`);
  for (const p of REF.crossEncoder.pairs) {
    const e = tok.encodePair(p.question, p.candidate, REF.crossEncoder.maxLength);
    assert.deepEqual(e.ids, p.input_ids, p.question);
    assert.deepEqual(e.typeIds, p.token_type_ids, p.question);
  }
  // one reference pair is longer than the limit: the truncation is exercised
  assert.ok(
    REF.crossEncoder.pairs.some((p: { input_ids: number[] }) => p.input_ids.length === 128),
  );
});

Deno.test("tokenizer: word-by-word tokens with offsets give the whole-text ids", async () => {
  const tok = await ModelTokenizer.load(`${FIXTURE}/qa`);
  for (const r of REF.qa.records) {
    const toks = tok.tokensWithOffsets(r.passage);
    assert.deepEqual(toks.map((t) => t.id), tok.encodeText(r.passage));
    for (const t of toks) {
      assert.ok(t.start < t.end && t.end <= r.passage.length);
      assert.ok(!/\s/.test(r.passage.slice(t.start, t.end)));
    }
  }
  // "zürich" is one vocabulary word (accent stripped, same length); "1599" splits into
  // single-digit pieces with their own offsets; "☃" is [UNK] and keeps its whole span
  const text = "Zürich, 1599 ☃.";
  const toks = tok.tokensWithOffsets(text);
  assert.deepEqual(toks.map((t) => text.slice(t.start, t.end)), [
    "Zürich",
    ",",
    "1",
    "5",
    "9",
    "9",
    "☃",
    ".",
  ]);
  assert.equal(toks[6].id, tok.tokenizer.token_to_id("[UNK]"));
});

Deno.test("windows overlap by the stride and cover every token", () => {
  assert.deepEqual(windows(10, 4, 2), [[0, 4], [2, 6], [4, 8], [6, 10]]);
  assert.deepEqual(windows(3, 4, 2), [[0, 3]]);
  assert.deepEqual(windows(0, 4, 2), [[0, 0]]);
  assert.throws(() => windows(5, 0, 0), /no room/);
});

for (const backend of BACKENDS) {
  Deno.test(`cross-encoder on ${backend} matches the PyTorch logits to 1e-4`, async () => {
    const ce = await loadCrossEncoder(`${FIXTURE}/cross-encoder`, { backend, scoreCache: false });
    try {
      assert.equal(ce.model.session.backend, backend);
      const pairs = REF.crossEncoder.pairs;
      for (const batchSize of [1, 3, 32]) {
        const got = await ce.scorePairs(pairs, { batchSize });
        pairs.forEach((p: { logit: number }, i: number) => {
          assert.ok(Math.abs(got[i] - p.logit) < TOL, `${batchSize}/${i}: ${got[i]} vs ${p.logit}`);
        });
      }
    } finally {
      await ce.close();
    }
  });

  Deno.test(`QA reader on ${backend} matches the reference spans and scores`, async () => {
    const s = REF.qa.settings;
    const reader = await loadSpanReader(`${FIXTURE}/qa`, {
      backend,
      maxLength: s.maxLength,
      docStride: s.docStride,
    });
    try {
      const inputs = REF.qa.records.map((r: { id: string; question: string; passage: string }) => ({
        id: r.id,
        question: r.question,
        passage: r.passage,
      }));
      for (const batchSize of [1, 4]) {
        const got = await reader.readSpans(inputs, {
          topK: s.topK,
          maxAnswerTokens: s.maxAnswerTokens,
          batchSize,
        });
        REF.qa.records.forEach(
          (
            r: { spans: { start: number; end: number; score: number; answer: string }[] },
            i: number,
          ) => {
            assert.equal(got[i].length, r.spans.length);
            r.spans.forEach((want, k) => {
              const span = got[i][k];
              assert.equal(span.start, want.start, `record ${i} span ${k}`);
              assert.equal(span.end, want.end, `record ${i} span ${k}`);
              assert.equal(span.answer, want.answer);
              assert.ok(Math.abs(span.score - want.score) < TOL, `${span.score} vs ${want.score}`);
            });
          },
        );
      }
    } finally {
      await reader.close();
    }
  });
}

Deno.test("cpu, wasm and webgpu agree within 1e-4 on the same pairs", async () => {
  const pairs = REF.crossEncoder.pairs.flatMap((p: { question: string; candidate: string }) => [
    p,
    { question: p.candidate.slice(0, 40), candidate: p.question },
  ]);
  const out: Float32Array[] = [];
  for (const backend of BACKENDS) {
    const ce = await loadCrossEncoder(`${FIXTURE}/cross-encoder`, { backend, scoreCache: false });
    assert.equal(ce.model.session.backend, backend);
    out.push(await ce.scorePairs(pairs, { batchSize: 5 }));
    await ce.close();
  }
  for (const other of out.slice(1)) {
    for (let i = 0; i < pairs.length; i++) assert.ok(Math.abs(out[0][i] - other[i]) < TOL);
  }
});

Deno.test("the score cache answers repeated pairs without rescoring", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const pairs = REF.crossEncoder.pairs.slice(0, 4);
    const ce = await loadCrossEncoder(`${FIXTURE}/cross-encoder`, {
      backend: "cpu",
      scoreCache: dir,
    });
    const first = await ce.scorePairs(pairs);
    assert.equal(ce.lastCacheHits, 0);
    const second = await ce.scorePairs([...pairs, REF.crossEncoder.pairs[4]]);
    assert.equal(ce.lastCacheHits, 4);
    assert.deepEqual(second.slice(0, 4), first);
    await ce.close();
    // a fresh process (new scorer) reads the file written atomically by the first
    const again = await loadCrossEncoder(`${FIXTURE}/cross-encoder`, {
      backend: "cpu",
      scoreCache: dir,
    });
    const third = await again.scorePairs(REF.crossEncoder.pairs.slice(0, 5));
    assert.equal(again.lastCacheHits, 5);
    assert.deepEqual(third, second);
    await again.close();
    const files = [...Deno.readDirSync(dir)].map((e) => e.name);
    assert.equal(files.length, 1);
    assert.ok(!files[0].includes(".tmp-"));
    // Another backend scores anew: its scores are its own, not the cached ones of `cpu`.
    const wasm = await loadCrossEncoder(`${FIXTURE}/cross-encoder`, {
      backend: "wasm",
      scoreCache: dir,
    });
    await wasm.scorePairs(pairs);
    assert.equal(wasm.lastCacheHits, 0);
    await wasm.close();
    assert.equal([...Deno.readDirSync(dir)].length, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a QA model is refused as a cross-encoder and vice versa", async () => {
  await assert.rejects(
    loadCrossEncoder(`${FIXTURE}/qa`, { backend: "cpu", scoreCache: false }),
    /not a sequence-classification model/,
  );
  await assert.rejects(
    loadSpanReader(`${FIXTURE}/cross-encoder`, { backend: "cpu" }),
    /not an extractive QA model/,
  );
});
