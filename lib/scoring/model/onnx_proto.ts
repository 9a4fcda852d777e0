/**
 * Writing ONNX models: the handful of `onnx.proto` messages a feed-forward graph needs
 * (model, graph, node, attribute, tensor, value info and its type), encoded with
 * `protobufjs` (the protobuf library onnxruntime-web itself depends on, same version, so
 * nothing new is downloaded). The field numbers are onnx.proto's (ONNX 1.x, IR version 8).
 * Tensors are written as `raw_data`: the little-endian bytes of a Float32Array or a
 * BigInt64Array, as the machines the kit runs on (x86-64, arm64) store them.
 *
 * @module
 */
import protobuf from "npm:protobufjs@7.6.6";

/** ONNX element types the kit writes (`TensorProto.DataType`). */
export const ONNX_TYPES = { float: 1, int64: 7 } as const;

/** A named tensor: dims and the values. */
export interface OnnxTensor {
  name: string;
  dims: readonly number[];
  data: Float32Array | BigInt64Array;
}

/** An attribute value: a float, an int, ints, or a tensor. */
export type OnnxAttribute =
  | { f: number }
  | { i: number }
  | { ints: readonly number[] }
  | { t: OnnxTensor };

/** One node of the graph. */
export interface OnnxNode {
  opType: string;
  inputs: readonly string[];
  outputs: readonly string[];
  name?: string;
  attributes?: Record<string, OnnxAttribute>;
}

/** A graph input or output: name, element type and dims (a string names a dynamic axis). */
export interface OnnxValue {
  name: string;
  type: keyof typeof ONNX_TYPES;
  dims: readonly (number | string)[];
}

/** A whole model: graph, inputs, outputs and weights. */
export interface OnnxModel {
  name: string;
  producer: string;
  opset: number;
  nodes: OnnxNode[];
  inputs: OnnxValue[];
  outputs: OnnxValue[];
  initializers: OnnxTensor[];
}

const repeated = (type: string, id: number) => ({ rule: "repeated", type, id });
/** The subset of onnx.proto written here (field numbers as in onnx/onnx.proto). */
const SCHEMA = {
  nested: {
    onnx: {
      nested: {
        ModelProto: {
          fields: {
            ir_version: { type: "int64", id: 1 },
            producer_name: { type: "string", id: 2 },
            graph: { type: "GraphProto", id: 7 },
            opset_import: repeated("OperatorSetIdProto", 8),
          },
        },
        OperatorSetIdProto: {
          fields: { domain: { type: "string", id: 1 }, version: { type: "int64", id: 2 } },
        },
        GraphProto: {
          fields: {
            node: repeated("NodeProto", 1),
            name: { type: "string", id: 2 },
            initializer: repeated("TensorProto", 5),
            input: repeated("ValueInfoProto", 11),
            output: repeated("ValueInfoProto", 12),
          },
        },
        NodeProto: {
          fields: {
            input: repeated("string", 1),
            output: repeated("string", 2),
            name: { type: "string", id: 3 },
            op_type: { type: "string", id: 4 },
            attribute: repeated("AttributeProto", 5),
          },
        },
        AttributeProto: {
          fields: {
            name: { type: "string", id: 1 },
            f: { type: "float", id: 2 },
            i: { type: "int64", id: 3 },
            t: { type: "TensorProto", id: 5 },
            ints: repeated("int64", 8),
            type: { type: "int32", id: 20 },
          },
        },
        TensorProto: {
          fields: {
            dims: repeated("int64", 1),
            data_type: { type: "int32", id: 2 },
            name: { type: "string", id: 8 },
            raw_data: { type: "bytes", id: 9 },
          },
        },
        ValueInfoProto: {
          fields: { name: { type: "string", id: 1 }, type: { type: "TypeProto", id: 2 } },
        },
        TypeProto: { fields: { tensor_type: { type: "TensorTypeProto", id: 1 } } },
        TensorTypeProto: {
          fields: {
            elem_type: { type: "int32", id: 1 },
            shape: { type: "TensorShapeProto", id: 2 },
          },
        },
        TensorShapeProto: { fields: { dim: repeated("Dimension", 1) } },
        Dimension: {
          fields: { dim_value: { type: "int64", id: 1 }, dim_param: { type: "string", id: 2 } },
        },
      },
    },
  },
};

/** AttributeProto.AttributeType values. */
const ATTRIBUTE_TYPES = { f: 1, i: 2, t: 4, ints: 7 } as const;

const ModelProto = protobuf.Root.fromJSON(SCHEMA).lookupType("onnx.ModelProto");

function tensorMessage(t: OnnxTensor) {
  const expected = t.dims.reduce((a, b) => a * b, 1);
  if (t.data.length !== expected) {
    throw new Error(`tensor ${t.name}: ${t.data.length} values for dims [${t.dims}]`);
  }
  return {
    name: t.name,
    dims: [...t.dims],
    data_type: t.data instanceof Float32Array ? ONNX_TYPES.float : ONNX_TYPES.int64,
    raw_data: new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength),
  };
}

function valueMessage(v: OnnxValue) {
  return {
    name: v.name,
    type: {
      tensor_type: {
        elem_type: ONNX_TYPES[v.type],
        shape: {
          dim: v.dims.map((d) => typeof d === "number" ? { dim_value: d } : { dim_param: d }),
        },
      },
    },
  };
}

function attributeMessage(name: string, a: OnnxAttribute) {
  if ("t" in a) return { name, type: ATTRIBUTE_TYPES.t, t: tensorMessage(a.t) };
  if ("ints" in a) return { name, type: ATTRIBUTE_TYPES.ints, ints: [...a.ints] };
  if ("i" in a) return { name, type: ATTRIBUTE_TYPES.i, i: a.i };
  return { name, type: ATTRIBUTE_TYPES.f, f: a.f };
}

/**
 * Encodes a model as the bytes of an `.onnx` file (IR version 8, the default ONNX domain
 * at `model.opset`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodeOnnxModel } from "./onnx_proto.ts";
 * import { createSession } from "./session.ts";
 * const bytes = encodeOnnxModel({
 *   name: "add-one", producer: "example", opset: 17,
 *   inputs: [{ name: "x", type: "float", dims: ["n"] }],
 *   outputs: [{ name: "y", type: "float", dims: ["n"] }],
 *   initializers: [{ name: "one", dims: [1], data: new Float32Array([1]) }],
 *   nodes: [{ opType: "Add", inputs: ["x", "one"], outputs: ["y"] }],
 * });
 * assert.equal(bytes[0], 0x08); // field 1 (ir_version), varint
 * const ort = await import("npm:onnxruntime-web@1.30.0");
 * ort.env.wasm.numThreads = 1;
 * const s = await ort.InferenceSession.create(bytes);
 * const out = await s.run({ x: new ort.Tensor("float32", new Float32Array([1, 2]), [2]) });
 * assert.deepEqual(Array.from(out.y.data as Float32Array), [2, 3]);
 * await s.release();
 * ```
 */
export function encodeOnnxModel(model: OnnxModel): Uint8Array {
  const message = {
    ir_version: 8,
    producer_name: model.producer,
    opset_import: [{ domain: "", version: model.opset }],
    graph: {
      name: model.name,
      node: model.nodes.map((n, k) => ({
        name: n.name ?? `${n.opType}_${k}`,
        op_type: n.opType,
        input: [...n.inputs],
        output: [...n.outputs],
        attribute: Object.entries(n.attributes ?? {}).map(([name, a]) => attributeMessage(name, a)),
      })),
      initializer: model.initializers.map(tensorMessage),
      input: model.inputs.map(valueMessage),
      output: model.outputs.map(valueMessage),
    },
  };
  return ModelProto.encode(ModelProto.fromObject(message)).finish();
}

/**
 * Decodes the parts of an `.onnx` file written by {@link encodeOnnxModel}: node op types,
 * initializer names, dims and element counts (for checking a model's shape).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeOnnxSummary, encodeOnnxModel } from "./onnx_proto.ts";
 * const bytes = encodeOnnxModel({
 *   name: "g", producer: "example", opset: 17, nodes: [], inputs: [], outputs: [],
 *   initializers: [{ name: "w", dims: [2, 3], data: new Float32Array(6) }],
 * });
 * assert.deepEqual(decodeOnnxSummary(bytes).initializers, [{ name: "w", dims: [2, 3], values: 6 }]);
 * ```
 */
export function decodeOnnxSummary(bytes: Uint8Array): {
  opset: number;
  opTypes: string[];
  initializers: { name: string; dims: number[]; values: number }[];
} {
  const m = ModelProto.toObject(ModelProto.decode(bytes), { longs: Number }) as {
    opset_import: { version: number }[];
    graph: {
      node?: { op_type: string }[];
      initializer?: { name: string; dims?: number[]; data_type: number; raw_data?: Uint8Array }[];
    };
  };
  return {
    opset: m.opset_import[0].version,
    opTypes: (m.graph.node ?? []).map((n) => n.op_type),
    initializers: (m.graph.initializer ?? []).map((t) => {
      const dims = t.dims ?? [];
      const values = dims.reduce((a, b) => a * b, 1);
      const size = t.data_type === ONNX_TYPES.int64 ? 8 : 4;
      if ((t.raw_data?.length ?? 0) !== values * size) {
        throw new Error(`tensor ${t.name}: ${t.raw_data?.length ?? 0} bytes for dims [${dims}]`);
      }
      return { name: t.name, dims, values };
    }),
  };
}

/**
 * The rows of a BERT-style model's word and position embedding tables, read from the ONNX
 * file's initializers (`…word_embeddings.weight` and `…position_embeddings.weight` as
 * Hugging Face exports name them, or the kit's generated `word.weight` and `pos.weight`);
 * a table not found (renamed by an optimizer, weights stored outside the file) is undefined,
 * and so are both where the file does not decode.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { embeddingRows } from "./onnx_proto.ts";
 * const bytes = await Deno.readFile("tests/fixtures/tiny-model/cross-encoder/onnx/model.onnx");
 * assert.deepEqual(embeddingRows(bytes), { words: 202, positions: 128 });
 * ```
 */
export function embeddingRows(bytes: Uint8Array): { words?: number; positions?: number } {
  let m: { graph?: { initializer?: { name: string; dims?: number[] }[] } };
  try {
    m = ModelProto.toObject(ModelProto.decode(bytes), { longs: Number });
  } catch {
    // onnxruntime read it, this partial schema did not: nothing to check against
    return {};
  }
  const rows = (re: RegExp) => {
    const t = (m.graph?.initializer ?? []).find((t) => re.test(t.name) && t.dims?.length === 2);
    return t?.dims?.[0];
  };
  return {
    words: rows(/(^|\.)(word_embeddings|word)\.weight$/),
    positions: rows(/(^|\.)(position_embeddings|pos)\.weight$/),
  };
}
