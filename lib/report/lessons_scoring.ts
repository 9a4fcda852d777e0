/**
 * What notebook 3 shows about transformer scoring in Deno: the WebGPU adapter, a pair's
 * tokens, how pairs are batched, scoring throughput per batch size, and the agreement of
 * the WebGPU and CPU backends. The scoring itself is `lib/scoring`'s cross-encoder.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import type { Question } from "../data/types.ts";
import type { Row } from "../plot/table.ts";
import { type CrossEncoder, loadCrossEncoder, padBatch } from "../scoring/model/crossencoder.ts";
import { type Backend, hasWebGpu } from "../scoring/model/session.ts";
import type { TextPair } from "../scoring/types.ts";

/**
 * The WebGPU adapter Deno finds (`navigator.gpu.requestAdapter()`), as one row; `adapter:
 * "none"` when there is none.
 */
export async function webGpuAdapterRow(): Promise<Row> {
  const gpu = (navigator as Navigator & { gpu?: GPU }).gpu;
  const adapter = gpu ? await gpu.requestAdapter().catch(() => null) : null;
  if (!adapter) return { adapter: "none", "navigator.gpu": gpu ? "present" : "absent" };
  const info = adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
  return {
    adapter: info.description || info.device || "(unnamed)",
    vendor: info.vendor,
    architecture: info.architecture,
    "software (fallback) adapter": info.isFallbackAdapter ?? false,
    "max buffer MiB": Math.round(adapter.limits.maxBufferSize / 2 ** 20),
    features: adapter.features.size,
  };
}

/**
 * The backend to use for `requested`: WebGPU falls back to the CPU (WebAssembly) when no
 * adapter exists, so the notebooks run everywhere.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { effectiveBackend } from "./lessons_scoring.ts";
 * assert((await effectiveBackend("cpu")) === "cpu");
 * ```
 */
export async function effectiveBackend(requested: Backend): Promise<Backend> {
  if (requested === "cpu") return "cpu";
  return (await hasWebGpu()) ? "webgpu" : "cpu";
}

/** The tokens of a (question, candidate) pair as the model sees them. */
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

/** The (question, candidate) pairs of questions, in question and candidate order. */
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
 * Scores `pairs` on both backends and compares: the largest absolute difference and whether
 * the two give the same order of candidates (WebGPU and WebAssembly round differently).
 */
export async function backendAgreement(spec: string, pairs: TextPair[]): Promise<Row> {
  const score = async (backend: Backend) => {
    const ce = await loadCrossEncoder(spec, { backend, scoreCache: false });
    try {
      return await ce.scorePairs(pairs);
    } finally {
      await ce.close();
    }
  };
  const cpu = await score("cpu");
  if (!(await hasWebGpu())) {
    return { pairs: pairs.length, webgpu: "no adapter: CPU only", "max |webgpu - cpu|": null };
  }
  const gpu = await score("webgpu");
  let maxDiff = 0;
  for (let i = 0; i < pairs.length; i++) maxDiff = Math.max(maxDiff, Math.abs(gpu[i] - cpu[i]));
  return {
    pairs: pairs.length,
    webgpu: "scored",
    "max |webgpu - cpu|": maxDiff.toExponential(2),
  };
}
