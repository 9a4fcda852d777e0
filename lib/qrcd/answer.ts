/**
 * An extractive QA reader over a QRCD split: the span run `score --dataset qrcd` writes.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { loadSpanReader, type SpanReaderOptions } from "../scoring/model/qa.ts";
import type { ProgressFn } from "../scoring/types.ts";
import { isQrcdSplit, loadQrcdSplit } from "./load.ts";
import type { SpanPrediction, SpanRun } from "./types.ts";

/** Options of {@link answerQrcdSplit}. */
export interface AnswerQrcdOptions extends SpanReaderOptions {
  /** Answers per record in the run (default 5: the official scorer reads only five). */
  topK?: number;
  /** Longest answer in tokens (default 30). */
  maxAnswerTokens?: number;
  /** Corpus folder (default: the cache, else the samples). */
  dir?: string;
  /** Progress in windows. */
  onProgress?: ProgressFn;
}

/**
 * Runs an extractive QA model over a QRCD split and returns a span run: per record the
 * best distinct answer strings (a string found at two offsets counts once, at its best
 * score), ranked 1..k with non-increasing scores, ready for `writeSpanRun`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerQrcdSplit } from "./answer.ts";
 * const run = await answerQrcdSplit("tests/fixtures/tiny-model/qa", "dev",
 *   { dir: "samples", backend: "cpu", topK: 3 });
 * const first = [...run.values()][0];
 * assert(first.length === 3 && first[0].rank === 1 && first[0].score >= first[1].score);
 * ```
 */
export async function answerQrcdSplit(
  spec: string,
  split: string,
  options: AnswerQrcdOptions = {},
): Promise<SpanRun> {
  if (!isQrcdSplit(split)) throw new KitError(`unknown QRCD split '${split}' (train, dev, test)`);
  const records = await loadQrcdSplit(split, { dir: options.dir });
  const topK = options.topK ?? 5;
  const reader = await loadSpanReader(spec, options);
  try {
    const spans = await reader.readSpans(
      records.map((r) => ({ id: r.pqId, question: r.question, passage: r.passage })),
      {
        // ask for more spans than needed: duplicates of one string are dropped below
        topK: topK * 4,
        maxAnswerTokens: options.maxAnswerTokens,
        onProgress: options.onProgress,
      },
    );
    const run: SpanRun = new Map();
    records.forEach((r, i) => {
      const seen = new Set<string>();
      const preds: SpanPrediction[] = [];
      for (const s of spans[i]) {
        const answer = s.answer.trim();
        if (!answer || seen.has(answer)) continue;
        seen.add(answer);
        preds.push({ answer, rank: preds.length + 1, score: s.score });
        if (preds.length === topK) break;
      }
      run.set(r.pqId, preds);
    });
    return run;
  } finally {
    await reader.close();
  }
}
