/**
 * A BERT cross-encoder (BertForSequenceClassification with one logit) as an ONNX graph
 * with seeded random weights: the graph a Hugging Face export of such a model has
 * (embeddings, post-norm encoder layers with erf GELU, tanh pooler over [CLS], a linear
 * head), built from standard ONNX operators (opset 17) so that onnxruntime fuses it as it
 * fuses an exported model. Weights are drawn as BERT initializes them (`initializer_range`
 * 0.02: normal(0, 0.02) matrices and embeddings, zero biases, LayerNorm scale 1, shift 0),
 * from the kit's one generator (mulberry32, Box-Muller for the normals). Matrices are
 * stored [in, out], as the export's MatMul initializers.
 *
 * @module
 */
import { mulberry32, type Random } from "../../stats/random.ts";
import type { OnnxModel, OnnxNode, OnnxTensor } from "./onnx_proto.ts";

/** The shape of a BERT encoder. */
export interface BertShape {
  /** Transformer layers. */
  layers: number;
  /** Hidden size. */
  hidden: number;
  /** Attention heads (`hidden` must be a multiple). */
  heads: number;
  /** Feed-forward inner size. */
  intermediate: number;
  /** Vocabulary size. */
  vocab: number;
  /** Position embeddings (longest input in tokens). */
  maxPositions: number;
  /** Token-type (segment) embeddings. */
  typeVocab: number;
}

/** LayerNorm epsilon of BERT. */
export const BERT_LN_EPS = 1e-12;

/** A standard normal draw from a uniform generator (Box-Muller). */
function normals(random: Random, n: number, std: number): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - random())) * std;
    const a = 2 * Math.PI * random();
    out[i] = r * Math.cos(a);
    if (i + 1 < n) out[i + 1] = r * Math.sin(a);
  }
  return out;
}

/**
 * Every weight tensor of the model with its dims, in the order they are drawn, named as
 * Hugging Face names BertForSequenceClassification's parameters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bertWeightShapes } from "./bert_onnx.ts";
 * const shapes = bertWeightShapes({ layers: 1, hidden: 8, heads: 2, intermediate: 16,
 *   vocab: 10, maxPositions: 4, typeVocab: 2 });
 * assert.deepEqual(shapes[0], { name: "bert.embeddings.word_embeddings.weight", dims: [10, 8] });
 * assert.equal(shapes.length, 5 + 16 + 4);
 * ```
 */
export function bertWeightShapes(s: BertShape): { name: string; dims: number[] }[] {
  const out: { name: string; dims: number[] }[] = [];
  const add = (name: string, ...dims: number[]) => out.push({ name, dims });
  const e = "bert.embeddings";
  add(`${e}.word_embeddings.weight`, s.vocab, s.hidden);
  add(`${e}.position_embeddings.weight`, s.maxPositions, s.hidden);
  add(`${e}.token_type_embeddings.weight`, s.typeVocab, s.hidden);
  add(`${e}.LayerNorm.weight`, s.hidden);
  add(`${e}.LayerNorm.bias`, s.hidden);
  for (let l = 0; l < s.layers; l++) {
    const p = `bert.encoder.layer.${l}`;
    for (const m of ["query", "key", "value"]) {
      add(`${p}.attention.self.${m}.weight`, s.hidden, s.hidden);
      add(`${p}.attention.self.${m}.bias`, s.hidden);
    }
    add(`${p}.attention.output.dense.weight`, s.hidden, s.hidden);
    add(`${p}.attention.output.dense.bias`, s.hidden);
    add(`${p}.attention.output.LayerNorm.weight`, s.hidden);
    add(`${p}.attention.output.LayerNorm.bias`, s.hidden);
    add(`${p}.intermediate.dense.weight`, s.hidden, s.intermediate);
    add(`${p}.intermediate.dense.bias`, s.intermediate);
    add(`${p}.output.dense.weight`, s.intermediate, s.hidden);
    add(`${p}.output.dense.bias`, s.hidden);
    add(`${p}.output.LayerNorm.weight`, s.hidden);
    add(`${p}.output.LayerNorm.bias`, s.hidden);
  }
  add("bert.pooler.dense.weight", s.hidden, s.hidden);
  add("bert.pooler.dense.bias", s.hidden);
  add("classifier.weight", s.hidden, 1);
  add("classifier.bias", 1);
  return out;
}

/** How weights are drawn: the seed, and the spreads (BERT's by default). */
export interface WeightInit {
  /** Seed of mulberry32. */
  seed: number;
  /** Standard deviation of matrices and embeddings (default 0.02, BERT's `initializer_range`). */
  std?: number;
  /**
   * Standard deviation of biases and of LayerNorm's scale around 1 and shift around 0
   * (default 0: zero biases, scale 1, shift 0, as BERT initializes them). Tests set it, so
   * that a bias or a LayerNorm wired wrongly changes the output.
   */
  biasStd?: number;
}

/**
 * The model's weights, drawn from mulberry32(`seed`) as BERT initializes them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bertWeights } from "./bert_onnx.ts";
 * const shape = { layers: 1, hidden: 8, heads: 2, intermediate: 16, vocab: 10,
 *   maxPositions: 4, typeVocab: 2 };
 * const a = bertWeights(shape, { seed: 7 }), b = bertWeights(shape, { seed: 7 });
 * assert.deepEqual(a.get("classifier.weight"), b.get("classifier.weight"));
 * assert.deepEqual(Array.from(a.get("bert.embeddings.LayerNorm.weight")!), new Array(8).fill(1));
 * ```
 */
export function bertWeights(shape: BertShape, init: WeightInit): Map<string, Float32Array> {
  const random = mulberry32(init.seed);
  const std = init.std ?? 0.02, biasStd = init.biasStd ?? 0;
  const weights = new Map<string, Float32Array>();
  for (const { name, dims } of bertWeightShapes(shape)) {
    const n = dims.reduce((a, b) => a * b, 1);
    if (name.includes("LayerNorm") || name.endsWith(".bias")) {
      const values = biasStd > 0 ? normals(random, n, biasStd) : new Float32Array(n);
      if (name.endsWith("LayerNorm.weight")) { for (let i = 0; i < n; i++) values[i] += 1; }
      weights.set(name, values);
    } else weights.set(name, normals(random, n, std));
  }
  return weights;
}

/**
 * The ONNX graph of the cross-encoder: inputs `input_ids`, `attention_mask`,
 * `token_type_ids` (int64, [batch, sequence]), output `logits` (float, [batch, 1]), as the
 * kit's tiny fixture and Hugging Face exports have them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bertCrossEncoderGraph, bertWeights } from "./bert_onnx.ts";
 * import { encodeOnnxModel } from "./onnx_proto.ts";
 * import { createSession } from "./session.ts";
 * const shape = { layers: 1, hidden: 8, heads: 2, intermediate: 16, vocab: 10,
 *   maxPositions: 4, typeVocab: 2 };
 * const model = bertCrossEncoderGraph(shape, bertWeights(shape, { seed: 1 }));
 * const s = await createSession(encodeOnnxModel(model), "cpu");
 * const out = await s.run(1, 3, { ids: [2, 5, 3], mask: [1, 1, 1], typeIds: [0, 0, 1] });
 * assert.deepEqual(out.logits.dims, [1, 1]);
 * await s.release();
 * ```
 */
export function bertCrossEncoderGraph(
  shape: BertShape,
  weights: Map<string, Float32Array>,
): OnnxModel {
  if (shape.hidden % shape.heads !== 0) {
    throw new Error(`hidden size ${shape.hidden} is not a multiple of ${shape.heads} heads`);
  }
  const nodes: OnnxNode[] = [];
  const initializers: OnnxTensor[] = [];
  for (const { name, dims } of bertWeightShapes(shape)) {
    initializers.push({ name, dims, data: weights.get(name)! });
  }
  const constant = (name: string, dims: number[], values: number[], int = false) => {
    initializers.push({
      name,
      dims,
      data: int ? BigInt64Array.from(values, BigInt) : Float32Array.from(values),
    });
    return name;
  };
  let count = 0;
  const op = (
    opType: string,
    inputs: string[],
    attributes?: OnnxNode["attributes"],
  ): string => {
    const out = `/${opType}_${count++}`;
    nodes.push({ opType, inputs, outputs: [out], attributes });
    return out;
  };
  const headSize = shape.hidden / shape.heads;
  const linear = (x: string, prefix: string) =>
    op("Add", [op("MatMul", [x, `${prefix}.weight`]), `${prefix}.bias`]);
  const layerNorm = (x: string, prefix: string) =>
    op("LayerNormalization", [x, `${prefix}.weight`, `${prefix}.bias`], {
      axis: { i: -1 },
      epsilon: { f: BERT_LN_EPS },
    });

  const zero = constant("const_zero_1d", [1], [0], true);
  const axes12 = constant("const_axes_1_2", [2], [1, 2], true);
  const one = constant("const_one", [], [1]);
  const maskValue = constant("const_mask_value", [], [-10000]);
  const scale = constant("const_attention_scale", [], [Math.sqrt(headSize)]);
  const headsShape = constant("const_heads_shape", [4], [0, 0, shape.heads, headSize], true);
  const hiddenShape = constant("const_hidden_shape", [3], [0, 0, shape.hidden], true);
  const half = constant("const_half", [], [0.5]);
  const sqrt2 = constant("const_sqrt2", [], [Math.SQRT2]);
  const clsIndex = constant("const_cls_index", [], [0], true);

  // embeddings: word + token type + position (positions 0..sequence-1), then LayerNorm
  const e = "bert.embeddings";
  const sequence = op("Shape", ["input_ids"], { start: { i: 1 }, end: { i: 2 } });
  const positions = op("Slice", [`${e}.position_embeddings.weight`, zero, sequence, zero]);
  const words = op("Gather", [`${e}.word_embeddings.weight`, "input_ids"], { axis: { i: 0 } });
  const types = op("Gather", [`${e}.token_type_embeddings.weight`, "token_type_ids"], {
    axis: { i: 0 },
  });
  let x = layerNorm(op("Add", [op("Add", [words, types]), positions]), `${e}.LayerNorm`);

  // extended attention mask: 0 where attended, -10000 at padding, as [batch, 1, 1, sequence]
  const maskFloat = op("Cast", ["attention_mask"], { to: { i: 1 } });
  const maskBias = op("Unsqueeze", [
    op("Mul", [op("Sub", [one, maskFloat]), maskValue]),
    axes12,
  ]);

  for (let l = 0; l < shape.layers; l++) {
    const p = `bert.encoder.layer.${l}`;
    const split = (y: string, perm: number[]) =>
      op("Transpose", [op("Reshape", [y, headsShape])], { perm: { ints: perm } });
    const q = split(linear(x, `${p}.attention.self.query`), [0, 2, 1, 3]);
    const k = split(linear(x, `${p}.attention.self.key`), [0, 2, 3, 1]);
    const v = split(linear(x, `${p}.attention.self.value`), [0, 2, 1, 3]);
    const scores = op("Add", [op("Div", [op("MatMul", [q, k]), scale]), maskBias]);
    const probs = op("Softmax", [scores], { axis: { i: -1 } });
    const context = op("Reshape", [
      op("Transpose", [op("MatMul", [probs, v])], { perm: { ints: [0, 2, 1, 3] } }),
      hiddenShape,
    ]);
    const attended = linear(context, `${p}.attention.output.dense`);
    x = layerNorm(op("Add", [attended, x]), `${p}.attention.output.LayerNorm`);
    const inner = linear(x, `${p}.intermediate.dense`);
    // GELU as BERT's exports write it: x * 0.5 * (1 + erf(x / sqrt(2)))
    const gelu = op("Mul", [
      op("Mul", [inner, half]),
      op("Add", [one, op("Erf", [op("Div", [inner, sqrt2])])]),
    ]);
    x = layerNorm(op("Add", [linear(gelu, `${p}.output.dense`), x]), `${p}.output.LayerNorm`);
  }

  // pooler: tanh(dense(hidden state of [CLS])), then the one-logit classifier
  const cls = op("Gather", [x, clsIndex], { axis: { i: 1 } });
  const pooled = op("Tanh", [linear(cls, "bert.pooler.dense")]);
  nodes.push({
    opType: "Add",
    inputs: [op("MatMul", [pooled, "classifier.weight"]), "classifier.bias"],
    outputs: ["logits"],
  });
  const dynamic = ["batch", "sequence"];
  return {
    name: "BertForSequenceClassification",
    producer: "qa-eval-kit",
    opset: 17,
    nodes,
    initializers,
    inputs: ["input_ids", "attention_mask", "token_type_ids"].map((name) => ({
      name,
      type: "int64" as const,
      dims: dynamic,
    })),
    outputs: [{ name: "logits", type: "float", dims: ["batch", 1] }],
  };
}
