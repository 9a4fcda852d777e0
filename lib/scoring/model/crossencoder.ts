/**
 * Sequence-classification cross-encoders (BERT, RoBERTa, ELECTRA, ... exported to ONNX)
 * as pair scorers. Pairs are tokenized, sorted by length (length bucketing) and run in
 * batches padded only to the longest pair of the batch (dynamic padding); scores already
 * in the score cache are not recomputed.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import type { PairScorer, ScoreOptions, TextPair } from "../types.ts";
import { ScoreCache } from "./cache.ts";
import { defaultCacheDir } from "../../data/paths.ts";
import { type LoadedModel, loadModel, type LoadModelOptions } from "./model.ts";
import type { Encoded } from "./tokenizer.ts";

/** Options of {@link loadCrossEncoder}. */
export interface CrossEncoderOptions extends LoadModelOptions {
  /** Pairs per model call (default 32). */
  batchSize?: number;
  /**
   * Score cache folder (default `<cache>/scores`); `false` turns the cache off.
   */
  scoreCache?: string | false;
}

/** A cross-encoder scorer with its model. */
export interface CrossEncoder extends PairScorer {
  /** The loaded model (backend, tokenizer, config). */
  model: LoadedModel;
  /** Pairs answered from the score cache in the last call. */
  lastCacheHits: number;
  /** Frees the inference session. */
  close(): Promise<void>;
}

/**
 * Which logit is the score: the only one for 1-label heads; for 2-label heads the
 * log-odds `logit[1] - logit[0]` (monotone in the softmax probability of class 1).
 */
export function scoreFromLogits(logits: Float32Array, row: number, numLabels: number): number {
  if (numLabels === 1) return logits[row];
  if (numLabels === 2) return logits[row * 2 + 1] - logits[row * 2];
  throw new KitError(`a cross-encoder needs 1 or 2 labels, the model has ${numLabels}`);
}

/** Pads encodings to one length; returns flat ids, mask and type ids. */
export function padBatch(encs: Encoded[], padId: number, multiple = 1) {
  const longest = Math.max(...encs.map((e) => e.ids.length));
  const length = Math.ceil(longest / multiple) * multiple;
  const ids: number[] = [], mask: number[] = [], typeIds: number[] = [];
  for (const e of encs) {
    for (let i = 0; i < length; i++) {
      const real = i < e.ids.length;
      ids.push(real ? e.ids[i] : padId);
      mask.push(real ? 1 : 0);
      typeIds.push(real ? e.typeIds[i] : 0);
    }
  }
  return { ids, mask, typeIds, length };
}

/**
 * Writes the score cache; a cache that cannot be written (a read-only or full file system, a
 * folder without write permission) never costs the scores just computed: they are returned
 * all the same, and one warning says that they were not cached and how to go without the
 * cache. The command's exit status is unchanged (docs/scoring.md).
 */
async function saveOrWarn(cache: ScoreCache): Promise<void> {
  try {
    await cache.save();
  } catch (e) {
    if (!(e instanceof KitError) && !(e instanceof Deno.errors.PermissionDenied)) throw e;
    console.error(
      `warning: the score cache could not be written (${e.message}); the scores were kept ` +
        "for this run but not cached: pass --no-cache (scoreCache: false in TypeScript) to " +
        "score without the cache, or make its folder writable",
    );
  }
}

/**
 * Loads a cross-encoder (local folder or hub repo id) as a pair scorer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadCrossEncoder } from "./crossencoder.ts";
 * const ce = await loadCrossEncoder("tests/fixtures/tiny-model/cross-encoder",
 *   { backend: "cpu", scoreCache: false });
 * const [s] = await ce.scorePairs([{ question: "who wrote hamlet?", candidate: "Shakespeare." }]);
 * assert(Number.isFinite(s));
 * await ce.close();
 * ```
 */
export async function loadCrossEncoder(
  spec: string,
  options: CrossEncoderOptions = {},
): Promise<CrossEncoder> {
  const model = await loadModel(spec, options);
  const numLabels = model.config.num_labels ??
    (model.config.id2label ? Object.keys(model.config.id2label).length : 2);
  if (!model.session.outputNames.includes("logits")) {
    throw new KitError(
      `not a sequence-classification model: outputs are ${model.session.outputNames.join(", ")}`,
      { file: model.dir },
    );
  }
  // The key is everything that decides a score, not how the model was spelt: the bytes of its
  // weights, tokenizer and configs, the max length and the backend (backends agree only within
  // a tolerance, and a run said to be scored on one must not carry another's scores).
  const cacheKey = `${model.contentDigest}@${model.maxLength}@${model.session.backend}`;
  const cacheDir = options.scoreCache === false
    ? undefined
    : options.scoreCache ?? `${defaultCacheDir()}/scores`;
  // WebGPU compiles kernels per input shape: rounding lengths up to a multiple of 8 keeps
  // the number of shapes small (masked padding does not change the logits)
  const multiple = model.session.backend === "webgpu" ? 8 : 1;
  const scorer: CrossEncoder = {
    id: model.name,
    model,
    lastCacheHits: 0,
    async scorePairs(pairs: TextPair[], opts?: ScoreOptions) {
      const out = new Float32Array(pairs.length);
      const cache = cacheDir ? await ScoreCache.open(cacheDir, cacheKey, model.name) : undefined;
      const todo: number[] = [];
      pairs.forEach((p, i) => {
        const hit = cache?.get(p.question, p.candidate);
        if (hit === undefined) todo.push(i);
        else out[i] = hit;
      });
      scorer.lastCacheHits = pairs.length - todo.length;
      const encs = new Map<number, Encoded>();
      for (const i of todo) {
        encs.set(
          i,
          model.tokenizer.encodePair(pairs[i].question, pairs[i].candidate, model.maxLength),
        );
      }
      todo.sort((a, b) => encs.get(a)!.ids.length - encs.get(b)!.ids.length || a - b);
      const batchSize = opts?.batchSize ?? options.batchSize ?? 32;
      let done = pairs.length - todo.length;
      opts?.onProgress?.(done, pairs.length);
      try {
        for (let at = 0; at < todo.length; at += batchSize) {
          const rows = todo.slice(at, at + batchSize);
          const b = padBatch(rows.map((i) => encs.get(i)!), model.tokenizer.padId, multiple);
          const res = await model.session.run(rows.length, b.length, b);
          rows.forEach((i, r) => {
            out[i] = scoreFromLogits(res.logits.data, r, numLabels);
            cache?.set(pairs[i].question, pairs[i].candidate, out[i]);
          });
          done += rows.length;
          opts?.onProgress?.(done, pairs.length);
        }
      } finally {
        if (cache) await saveOrWarn(cache);
      }
      return out;
    },
    close: () => model.session.release(),
  };
  return scorer;
}
