/**
 * Looking inside transformer scoring: the WebGPU adapter Deno finds, the tokens of a pair
 * as the model sees them, how pairs are cut into padded batches, scoring throughput per
 * batch size, and how closely the backends (WebGPU, native CPU, wasm) agree. Notebook 3 shows these;
 * the scoring itself is the cross-encoder of `crossencoder.ts`.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import type { Question } from "../../data/types.ts";
import { type CrossEncoder, loadCrossEncoder, padBatch } from "./crossencoder.ts";
import { webGpuAdapter } from "./adapter.ts";
import { loadNativeOrt } from "./native.ts";
import type { Backend } from "./session_types.ts";
import type { TextPair } from "../types.ts";

/** A row of a table: column name to value. */
type Row = Record<string, string | number | boolean | null | undefined>;

/**
 * The WebGPU adapter Deno finds (`navigator.gpu.requestAdapter()`), as one table row;
 * `adapter: "none"` when there is none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { webGpuAdapterInfo } from "./inspect.ts";
 * assert("adapter" in await webGpuAdapterInfo());
 * ```
 */
export async function webGpuAdapterInfo(): Promise<Row> {
  const adapter = await webGpuAdapter();
  if (!adapter) {
    const gpu = (navigator as Navigator & { gpu?: GPU }).gpu;
    return { adapter: "none", "navigator.gpu": gpu ? "present" : "absent" };
  }
  return {
    adapter: adapter.description,
    vendor: adapter.vendor,
    architecture: adapter.architecture,
    "software (fallback) adapter": adapter.software,
    "max buffer MiB": adapter.maxBufferMiB,
    features: adapter.features,
  };
}

/**
 * The tokens of a (question, candidate) pair as the model sees them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadCrossEncoder } from "./crossencoder.ts";
 * import { pairTokens } from "./inspect.ts";
 * const dir = new URL("../../../tests/fixtures/tiny-model/cross-encoder", import.meta.url).pathname;
 * const ce = await loadCrossEncoder(dir, { backend: "cpu", scoreCache: false });
 * const tokens = pairTokens(ce.model, "who", "she");
 * assert.equal(tokens[0].token, "[CLS]");
 * await ce.close();
 * ```
 */
export function pairTokens(
  model: CrossEncoder["model"],
  question: string,
  candidate: string,
): Row[] {
  const enc = model.tokenizer.encodePair(question, candidate, model.maxLength);
  const tok = model.tokenizer.tokenizer as unknown as { id_to_token(id: number): string };
  return enc.ids.map((id, i) => ({
    position: i,
    token: tok.id_to_token(id),
    id,
    segment: enc.typeIds[i],
  }));
}

/**
 * The same tokens grouped by segment, one row each: the token strings and ids joined, so a
 * long pair stays readable.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadCrossEncoder } from "./crossencoder.ts";
 * import { pairSegments } from "./inspect.ts";
 * const dir = new URL("../../../tests/fixtures/tiny-model/cross-encoder", import.meta.url).pathname;
 * const ce = await loadCrossEncoder(dir, { backend: "cpu", scoreCache: false });
 * const [question, candidate] = pairSegments(ce.model, "who wrote it", "she did");
 * assert(question.segment === 0 && candidate.segment === 1);
 * await ce.close();
 * ```
 */
export function pairSegments(
  model: CrossEncoder["model"],
  question: string,
  candidate: string,
): Row[] {
  const tokens = pairTokens(model, question, candidate);
  return [0, 1].map((segment) => {
    const part = tokens.filter((t) => t.segment === segment);
    return {
      segment,
      text: segment === 0 ? question : candidate,
      tokens: part.length,
      pieces: part.map((t) => t.token).join(" "),
      ids: part.map((t) => t.id).join(" "),
    };
  });
}

/**
 * How `pairs` are batched: sorted by token length, cut into batches of `batchSize`, each
 * padded to its longest pair (rounded up to `multiple`; 8 on WebGPU). The padding share is
 * the computation spent on pad tokens.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadCrossEncoder } from "./crossencoder.ts";
 * import { batchPlan } from "./inspect.ts";
 * const dir = new URL("../../../tests/fixtures/tiny-model/cross-encoder", import.meta.url).pathname;
 * const ce = await loadCrossEncoder(dir, { backend: "cpu", scoreCache: false });
 * const plan = batchPlan(ce.model, [{ question: "who", candidate: "a b c" }, { question: "who", candidate: "a" }], 2);
 * assert.equal(plan.length, 1);
 * await ce.close();
 * ```
 */
export function batchPlan(
  model: CrossEncoder["model"],
  pairs: readonly TextPair[],
  batchSize: number,
  multiple = model.session.backend === "webgpu" ? 8 : 1,
): Row[] {
  const encs = pairs.map((p) =>
    model.tokenizer.encodePair(p.question, p.candidate, model.maxLength)
  )
    .sort((a, b) => a.ids.length - b.ids.length);
  const rows: Row[] = [];
  for (let at = 0; at < encs.length; at += batchSize) {
    const batch = encs.slice(at, at + batchSize);
    const padded = padBatch(batch, model.tokenizer.padId, multiple);
    const real = batch.reduce((n, e) => n + e.ids.length, 0);
    rows.push({
      batch: rows.length + 1,
      pairs: batch.length,
      "shortest pair": batch[0].ids.length,
      "longest pair": batch[batch.length - 1].ids.length,
      "padded length": padded.length,
      "padding share": 1 - real / (padded.length * batch.length),
    });
  }
  return rows;
}

/**
 * The (question, candidate) pairs of questions, in question and candidate order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairsOf } from "./inspect.ts";
 * const q = { id: "q", text: "who", candidates: [{ id: "a", text: "she", label: 1 }] };
 * assert.deepEqual(pairsOf([q]), [{ question: "who", candidate: "she" }]);
 * ```
 */
export function pairsOf(questions: readonly Question[], limit = Infinity): TextPair[] {
  const pairs: TextPair[] = [];
  for (const q of questions) {
    for (const c of q.candidates) {
      if (pairs.length >= limit) return pairs;
      pairs.push({ question: q.text, candidate: c.text });
    }
  }
  return pairs;
}

/**
 * Scoring throughput of model `spec` on `backend` for each batch size: one warm-up pass
 * (WebGPU compiles kernels per shape), then a timed pass; the score cache is off.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { measureThroughput } from "./inspect.ts";
 * const dir = new URL("../../../tests/fixtures/tiny-model/cross-encoder", import.meta.url).pathname;
 * const [row] = await measureThroughput(dir, "cpu", [{ question: "who", candidate: "she" }], [1]);
 * assert((row["pairs/s"] as number) > 0);
 * ```
 */
export async function measureThroughput(
  spec: string,
  backend: Backend,
  pairs: TextPair[],
  batchSizes: readonly number[],
): Promise<Row[]> {
  if (pairs.length === 0) throw new KitError("no pairs to time");
  const ce = await loadCrossEncoder(spec, { backend, scoreCache: false });
  try {
    const rows: Row[] = [];
    for (const batchSize of batchSizes) {
      await ce.scorePairs(pairs, { batchSize });
      const t0 = performance.now();
      await ce.scorePairs(pairs, { batchSize });
      const seconds = (performance.now() - t0) / 1000;
      rows.push({
        backend,
        batch: batchSize,
        pairs: pairs.length,
        seconds,
        "pairs/s": pairs.length / seconds,
      });
    }
    return rows;
  } finally {
    await ce.close();
  }
}

/**
 * Scores `pairs` on every backend that runs here (native `cpu` when onnxruntime-node loads,
 * `wasm` always, `webgpu` on a hardware adapter, and on a software one only with
 * `softwareAdapter: true`, as it runs at a small fraction of the CPU's speed) and compares each
 * with the reference (`cpu`, else `wasm`): the largest absolute difference of the scores. The
 * runtimes round differently; the kit's tests hold them to 1e-4 of PyTorch.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { backendAgreement } from "./inspect.ts";
 * const dir = new URL("../../../tests/fixtures/tiny-model/cross-encoder", import.meta.url).pathname;
 * const row = await backendAgreement(dir, [{ question: "who", candidate: "she" }]);
 * assert.equal(row.pairs, 1);
 * assert(Number(row["max |wasm - cpu|"]) < 1e-4);
 * ```
 */
export async function backendAgreement(
  spec: string,
  pairs: TextPair[],
  options: { softwareAdapter?: boolean } = {},
): Promise<Row> {
  const score = async (backend: Backend) => {
    const ce = await loadCrossEncoder(spec, { backend, scoreCache: false });
    try {
      return await ce.scorePairs(pairs);
    } finally {
      await ce.close();
    }
  };
  const reference: Backend = (await loadNativeOrt()).ort ? "cpu" : "wasm";
  const base = await score(reference);
  const row: Row = { pairs: pairs.length, reference };
  const others: Backend[] = reference === "cpu" ? ["wasm"] : [];
  const adapter = await webGpuAdapter();
  const useGpu = adapter && (!adapter.software || options.softwareAdapter === true);
  if (useGpu) others.push("webgpu");
  else {
    row[`max |webgpu - ${reference}|`] = adapter
      ? "software adapter: left out (softwareAdapter: true)"
      : "no adapter";
  }
  for (const backend of others) {
    const scores = await score(backend);
    let maxDiff = 0;
    for (let i = 0; i < pairs.length; i++) {
      maxDiff = Math.max(maxDiff, Math.abs(scores[i] - base[i]));
    }
    row[`max |${backend} - ${reference}|`] = maxDiff.toExponential(2);
  }
  if (adapter) row.adapter = adapter.description + (adapter.software ? " (software)" : "");
  return row;
}
