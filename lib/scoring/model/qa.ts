/**
 * Extractive question answering (start/end logits heads, e.g. BertForQuestionAnswering
 * exported to ONNX) as a span reader: the passage is cut into overlapping windows of
 * `[CLS] question [SEP] window [SEP]`, every span of at most `maxAnswerTokens` tokens in
 * a window is scored `start logit + end logit`, spans are mapped back to passage character
 * offsets, and the best `topK` distinct character spans are returned.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import type { PassageQuestionInput, Span, SpanOptions, SpanReader } from "../types.ts";
import { padBatch } from "./crossencoder.ts";
import { type LoadedModel, loadModel, type LoadModelOptions } from "./model.ts";
import type { Encoded, TokenSpan } from "./tokenizer.ts";

/** Options of {@link loadSpanReader}. */
export interface SpanReaderOptions extends LoadModelOptions {
  /** Passage tokens shared by consecutive windows (default 128). */
  docStride?: number;
  /** Windows per model call (default 16). */
  batchSize?: number;
}

/** A span reader with its model. */
export interface ExtractiveReader extends SpanReader {
  /** The loaded model. */
  model: LoadedModel;
  /** Frees the inference session. */
  close(): Promise<void>;
}

/**
 * Ranks character spans of one window: every (i, j) with i <= j < i + maxAnswerTokens over
 * the window's passage tokens, scored start[i] + end[j]; `best` keeps the highest score of
 * each character span across windows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { collectSpans } from "./qa.ts";
 * const best = new Map<string, number>();
 * const toks = [{ id: 1, start: 0, end: 2 }, { id: 2, start: 3, end: 5 }];
 * collectSpans(best, toks, Float32Array.of(0, 1, 5), Float32Array.of(0, 2, 3), 1, 2);
 * assert(best.get("3:5") === 8 && best.get("0:5") === 4 && best.get("0:2") === 3);
 * ```
 */
export function collectSpans(
  best: Map<string, number>,
  tokens: TokenSpan[],
  startLogits: Float32Array,
  endLogits: Float32Array,
  offset: number,
  maxAnswerTokens: number,
): void {
  for (let i = 0; i < tokens.length; i++) {
    const si = startLogits[offset + i];
    const last = Math.min(i + maxAnswerTokens, tokens.length);
    for (let j = i; j < last; j++) {
      const score = si + endLogits[offset + j];
      const key = `${tokens[i].start}:${tokens[j].end}`;
      const prev = best.get(key);
      if (prev === undefined || score > prev) best.set(key, score);
    }
  }
}

/**
 * The top `k` spans of a `start:end -> score` map: score descending, then start, then end.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { topSpans } from "./qa.ts";
 * const s = topSpans("hello world", new Map([["0:5", 1], ["6:11", 2]]), 1);
 * assert(s[0].answer === "world" && s[0].start === 6);
 * ```
 */
export function topSpans(passage: string, best: Map<string, number>, k: number): Span[] {
  return [...best.entries()]
    .map(([key, score]) => {
      const [start, end] = key.split(":").map(Number);
      return { answer: passage.slice(start, end), start, end, score };
    })
    .sort((a, b) => b.score - a.score || a.start - b.start || a.end - b.end)
    .slice(0, k);
}

/** Passage windows: token ranges `[from, to)` that overlap by `stride` tokens. */
export function windows(numTokens: number, size: number, stride: number): [number, number][] {
  if (size < 1) throw new KitError("the question leaves no room for the passage");
  const out: [number, number][] = [];
  let start = 0;
  while (true) {
    const end = Math.min(start + size, numTokens);
    out.push([start, end]);
    if (end === numTokens) return out;
    start = Math.max(end - stride, start + 1);
  }
}

/**
 * Loads an extractive QA model (outputs `start_logits` and `end_logits`) as a span reader.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadSpanReader } from "./qa.ts";
 * const r = await loadSpanReader("tests/fixtures/tiny-model/qa", { backend: "cpu" });
 * const [spans] = await r.readSpans([{ id: "1", question: "who?", passage: "Hamlet is a play." }]);
 * assert(spans.length === 5 && spans[0].answer === "Hamlet is a play.".slice(spans[0].start, spans[0].end));
 * await r.close();
 * ```
 */
export async function loadSpanReader(
  spec: string,
  options: SpanReaderOptions = {},
): Promise<ExtractiveReader> {
  const model = await loadModel(spec, options);
  const outs = model.session.outputNames;
  if (!outs.includes("start_logits") || !outs.includes("end_logits")) {
    throw new KitError(
      `not an extractive QA model: outputs are ${outs.join(", ")} (need start_logits, end_logits)`,
      { file: model.dir },
    );
  }
  const tok = model.tokenizer;
  const stride = options.docStride ?? 128;
  const multiple = model.session.backend === "webgpu" ? 8 : 1;
  return {
    id: spec,
    model,
    async readSpans(inputs: PassageQuestionInput[], opts: SpanOptions = {}) {
      const topK = opts.topK ?? 5;
      const maxAnswer = opts.maxAnswerTokens ?? 30;
      type Row = { rec: number; toks: TokenSpan[]; enc: Encoded; offset: number };
      const rows: Row[] = [];
      const prepared = inputs.map((input, rec) => {
        const q = tok.encodeText(input.question)
          .slice(0, Math.floor((model.maxLength - tok.specialsInPair) / 2));
        const p = tok.tokensWithOffsets(input.passage);
        const size = model.maxLength - tok.specialsInPair - q.length;
        for (const [a, b] of windows(p.length, size, Math.min(stride, size - 1))) {
          const toks = p.slice(a, b);
          const enc = tok.assemble(q, toks.map((t) => t.id));
          // the passage starts after the template's first sequence and its specials
          const offset = enc.ids.length - toks.length - trailingSpecials(tok.template);
          rows.push({ rec, toks, enc, offset });
        }
        return new Map<string, number>();
      });
      const order = rows.map((_, i) => i)
        .sort((a, b) => rows[a].enc.ids.length - rows[b].enc.ids.length || a - b);
      const batchSize = opts.batchSize ?? options.batchSize ?? 16;
      let done = 0;
      for (let at = 0; at < order.length; at += batchSize) {
        const batch = order.slice(at, at + batchSize).map((i) => rows[i]);
        const b = padBatch(batch.map((r) => r.enc), tok.padId, multiple);
        const res = await model.session.run(batch.length, b.length, b);
        batch.forEach((r, k) => {
          const from = k * b.length;
          collectSpans(
            prepared[r.rec],
            r.toks,
            res.start_logits.data.subarray(from, from + b.length),
            res.end_logits.data.subarray(from, from + b.length),
            r.offset,
            maxAnswer,
          );
        });
        done += batch.length;
        opts.onProgress?.(done, rows.length);
      }
      return inputs.map((input, i) => topSpans(input.passage, prepared[i], topK));
    },
    close: () => model.session.release(),
  };
}

function trailingSpecials(template: ModelTemplate): number {
  let n = 0;
  for (let i = template.length - 1; i >= 0; i--) {
    const p = template[i];
    if ("special" in p) n += p.special.length;
    else break;
  }
  return n;
}

type ModelTemplate = LoadedModel["tokenizer"]["template"];
