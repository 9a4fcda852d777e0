import assert from "node:assert/strict";
import { loadCrossEncoder } from "../../lib/scoring/model/crossencoder.ts";
import { type BertShape, bertWeights } from "../../lib/scoring/model/bert_onnx.ts";
import { decodeOnnxSummary } from "../../lib/scoring/model/onnx_proto.ts";
import { hasWebGpu } from "../../lib/scoring/model/session.ts";
import {
  MODEL_SHAPES,
  parameterCount,
  shapedModelDir,
  writeShapedModel,
} from "../../lib/scoring/model/shaped.ts";
import { generatedVocabulary } from "../../lib/scoring/model/wordpiece_vocab.ts";
import type { TextPair } from "../../lib/scoring/types.ts";

const PAIRS: TextPair[] = [
  { question: "What is the speed of light?", candidate: "The speed of light is denoted c ." },
  {
    question: "What is the speed of light?",
    candidate: "Light travels at about 299,792 kilometres per second in vacuum .",
  },
  { question: "who wrote hamlet?", candidate: "Hamlet is a tragedy by William Shakespeare." },
  { question: "Where is Zürich?", candidate: "Zürich is the largest city in Switzerland ☃." },
];

// ---------------------------------------------------------------- an independent forward pass
/** erf by Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7). */
function erf(x: number): number {
  const s = Math.sign(x), a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const y = 1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t +
        0.254829592) * t * Math.exp(-a * a);
  return s * y;
}

type Vec = number[];
const matVec = (x: Vec, w: Float32Array, b: Float32Array, n: number): Vec =>
  Array.from({ length: n }, (_, j) => {
    let sum = b[j];
    for (let i = 0; i < x.length; i++) sum += x[i] * w[i * n + j];
    return sum;
  });
const layerNorm = (x: Vec, g: Float32Array, b: Float32Array): Vec => {
  const mean = x.reduce((a, v) => a + v, 0) / x.length;
  const variance = x.reduce((a, v) => a + (v - mean) ** 2, 0) / x.length;
  return x.map((v, i) => (v - mean) / Math.sqrt(variance + 1e-12) * g[i] + b[i]);
};

/**
 * BertForSequenceClassification's logit for one unpadded input, by its definition, in
 * doubles, from the weights by name (each [in, out]).
 */
function referenceLogit(
  s: BertShape,
  w: Map<string, Float32Array>,
  ids: number[],
  types: number[],
) {
  const W = (n: string) => w.get(n)!;
  const h = s.hidden, d = h / s.heads;
  const row = (t: Float32Array, r: number) => Array.from(t.subarray(r * h, r * h + h));
  let x = ids.map((id, p) => {
    const word = row(W("bert.embeddings.word_embeddings.weight"), id);
    const pos = row(W("bert.embeddings.position_embeddings.weight"), p);
    const typ = row(W("bert.embeddings.token_type_embeddings.weight"), types[p]);
    return layerNorm(
      word.map((v, i) => v + pos[i] + typ[i]),
      W("bert.embeddings.LayerNorm.weight"),
      W("bert.embeddings.LayerNorm.bias"),
    );
  });
  for (let l = 0; l < s.layers; l++) {
    const p = `bert.encoder.layer.${l}`;
    const lin = (v: Vec, name: string, n: number) =>
      matVec(v, W(`${name}.weight`), W(`${name}.bias`), n);
    const q = x.map((v) => lin(v, `${p}.attention.self.query`, h));
    const k = x.map((v) => lin(v, `${p}.attention.self.key`, h));
    const val = x.map((v) => lin(v, `${p}.attention.self.value`, h));
    const context = x.map((_, i) => {
      const out = new Array(h).fill(0);
      for (let head = 0; head < s.heads; head++) {
        const o = head * d;
        const scores = k.map((kj) => {
          let dot = 0;
          for (let c = 0; c < d; c++) dot += q[i][o + c] * kj[o + c];
          return dot / Math.sqrt(d);
        });
        const max = Math.max(...scores);
        const e = scores.map((v) => Math.exp(v - max));
        const z = e.reduce((a, v) => a + v, 0);
        e.forEach((pj, j) => {
          for (let c = 0; c < d; c++) out[o + c] += pj / z * val[j][o + c];
        });
      }
      return out;
    });
    x = x.map((v, i) => {
      const att = lin(context[i], `${p}.attention.output.dense`, h);
      const y = layerNorm(
        v.map((a, c) => a + att[c]),
        W(`${p}.attention.output.LayerNorm.weight`),
        W(`${p}.attention.output.LayerNorm.bias`),
      );
      const inner = lin(y, `${p}.intermediate.dense`, s.intermediate)
        .map((a) => a * 0.5 * (1 + erf(a / Math.SQRT2)));
      const out = lin(inner, `${p}.output.dense`, h);
      return layerNorm(
        y.map((a, c) => a + out[c]),
        W(`${p}.output.LayerNorm.weight`),
        W(`${p}.output.LayerNorm.bias`),
      );
    });
  }
  const pooled = matVec(x[0], W("bert.pooler.dense.weight"), W("bert.pooler.dense.bias"), h)
    .map(Math.tanh);
  return matVec(pooled, W("classifier.weight"), W("classifier.bias"), 1)[0];
}

Deno.test("shaped model: the ONNX graph computes BERT's logit (independent forward pass, padded batch)", async () => {
  const shape = {
    layers: 2,
    hidden: 24,
    heads: 3,
    intermediate: 40,
    vocab: 30522,
    maxPositions: 64,
    typeVocab: 2,
  };
  // spreads larger than BERT's 0.02, and random biases and LayerNorm parameters: with
  // BERT's initialization attention is nearly uniform and the residual dominates, so a
  // wrongly wired mask, head split or bias would change the logit by less than 1e-4
  const init = { seed: 5, std: 0.3, biasStd: 0.1 };
  const dir = `${await Deno.makeTempDir()}/model`;
  try {
    await writeShapedModel(dir, shape, init);
    const ce = await loadCrossEncoder(dir, { backend: "cpu", scoreCache: false });
    try {
      // one batch of 4: the shorter pairs are padded, so the mask is exercised
      const scores = await ce.scorePairs(PAIRS, { batchSize: 4 });
      const weights = bertWeights(shape, init);
      PAIRS.forEach((p, i) => {
        const enc = ce.model.tokenizer.encodePair(p.question, p.candidate, ce.model.maxLength);
        const expected = referenceLogit(shape, weights, enc.ids, enc.typeIds);
        assert.ok(
          Math.abs(scores[i] - expected) < 1e-4,
          `pair ${i}: onnx ${scores[i]}, reference ${expected}`,
        );
      });
      // and the random weights do tell pairs apart
      assert.ok(new Set(Array.from(scores)).size === PAIRS.length);
    } finally {
      await ce.close();
    }
  } finally {
    await Deno.remove(`${dir}/..`, { recursive: true });
  }
});

Deno.test("shaped model: parameter counts of the real models", () => {
  for (const s of Object.values(MODEL_SHAPES)) assert.equal(parameterCount(s), s.parameters);
  // the published totals, by hand: MiniLM-L6-H384 and bert-base-uncased BertModel + head
  assert.equal(MODEL_SHAPES["minilm-l6"].parameters, 22_713_216 + 384 + 1);
  assert.equal(MODEL_SHAPES["bert-base"].parameters, 109_482_240 + 768 + 1);
});

Deno.test("shaped model: vocabulary of BERT's size and special ids", async () => {
  const vocab = await generatedVocabulary();
  assert.equal(vocab.length, 30522);
  assert.equal(new Set(vocab).size, 30522);
  assert.deepEqual(
    [0, 100, 101, 102, 103].map((i) => vocab[i]),
    ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"],
  );
});

Deno.test("shaped model: MiniLM-L6 as written, and on webgpu against cpu", async (t) => {
  const cache = await Deno.makeTempDir();
  try {
    const dir = await shapedModelDir("minilm-l6", { cacheDir: cache });
    await t.step("the real model's shape and parameter count", async () => {
      const config = JSON.parse(await Deno.readTextFile(`${dir}/config.json`));
      assert.deepEqual(
        [config.num_hidden_layers, config.hidden_size, config.num_attention_heads],
        [6, 384, 12],
      );
      assert.deepEqual(
        [config.intermediate_size, config.vocab_size, config.max_position_embeddings],
        [1536, 30522, 512],
      );
      const summary = decodeOnnxSummary(await Deno.readFile(`${dir}/onnx/model.onnx`));
      const weights = summary.initializers.filter((w) => !w.name.startsWith("const_"));
      assert.equal(weights.reduce((n, w) => n + w.values, 0), 22_713_601);
      assert.deepEqual(
        weights.find((w) => w.name === "bert.embeddings.word_embeddings.weight")?.dims,
        [30522, 384],
      );
      assert.equal(summary.opTypes.filter((o) => o === "Softmax").length, 6);
      assert.equal(summary.opset, 17);
      const tokenizer = JSON.parse(await Deno.readTextFile(`${dir}/tokenizer.json`));
      assert.equal(Object.keys(tokenizer.model.vocab).length, 30522);
    });
    const webgpu = await hasWebGpu();
    if (!webgpu) console.log("no WebGPU adapter: the CPU/WebGPU agreement is not checked here");
    await t.step({
      name: "webgpu agrees with cpu (wasm) within 1e-4 at batch 4, same order",
      ignore: !webgpu,
      fn: async () => {
        const scores: Record<string, Float32Array> = {};
        for (const backend of ["cpu", "webgpu"] as const) {
          const ce = await loadCrossEncoder(dir, { backend, scoreCache: false });
          try {
            assert.equal(ce.model.maxLength, 512);
            scores[backend] = await ce.scorePairs(PAIRS, { batchSize: 4 });
          } finally {
            await ce.close();
          }
        }
        const diffs = PAIRS.map((_, i) => Math.abs(scores.cpu[i] - scores.webgpu[i]));
        assert.ok(Math.max(...diffs) <= 1e-4, `|webgpu - cpu| = ${diffs}`);
        const order = (s: Float32Array) => [...s.keys()].sort((a, b) => s[b] - s[a]);
        assert.deepEqual(order(scores.webgpu), order(scores.cpu));
      },
    });
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});
