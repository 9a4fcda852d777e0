/**
 * Two threads for large run files, as a pipeline: a worker reads, parses and ranks the run
 * (`run_worker.ts`) into a ring of shared buffers while this thread judges and computes the
 * measures. Each side does what one thread would do, with no copy and no merge, so the
 * results are the one-thread path's (tested).
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { chunkBlocks, type RunBlock, type RunColumns } from "./run_reader.ts";
import type { TrecRelease } from "./trec_format.ts";

/** What the evaluating thread sends the worker. */
export type PipelineRequest =
  | { type: "start"; path: string; chunkBytes?: number; slots: number; release: TrecRelease }
  | { type: "free"; slot: number };

/** What the worker sends back. */
export type PipelineMessage =
  | { type: "chunk"; slot: number; buf: Uint8Array; columns: RunColumns; qids: string[] }
  | { type: "end"; runId: string }
  | { type: "error"; kit: boolean; problem: string; file?: string; line?: number };

/** Buffers in the ring: one being read here, one being parsed there, one spare. */
const SLOTS = 3;

/**
 * The blocks of a run file chunk by chunk, parsed and ranked on a worker thread (the blocks
 * and errors of `runBlockChunks`, with `order` filled). A chunk stays valid until the next
 * one is asked for.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { workerRunChunks } from "./run_pipeline.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "q1 Q0 d1 1 0.5 r\nq1 Q0 d2 2 0.4 r\nq2 Q0 d1 1 1 r\n");
 * const qids: string[] = [];
 * for await (const blocks of workerRunChunks(path)) qids.push(...blocks.map((b) => b.qid));
 * assert.deepEqual(qids, ["q1", "q2"]);
 * ```
 */
export async function* workerRunChunks(
  path: string,
  options: { release?: TrecRelease; chunkBytes?: number; onRunId?: (runId: string) => void } = {},
): AsyncGenerator<RunBlock[]> {
  const worker = new Worker(new URL("./run_worker.ts", import.meta.url).href, {
    type: "module",
  });
  const inbox: PipelineMessage[] = [];
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  worker.onmessage = (e: MessageEvent<PipelineMessage>) => {
    inbox.push(e.data);
    wake?.();
  };
  worker.onerror = (e) => {
    e.preventDefault();
    failure = new Error(`run parsing worker failed: ${e.message}`);
    wake?.();
  };
  const next = async (): Promise<PipelineMessage> => {
    while (inbox.length === 0) {
      if (failure) throw failure;
      await new Promise<void>((resolve) => wake = resolve);
      wake = undefined;
    }
    return inbox.shift()!;
  };
  const pools: RunBlock[][] = Array.from({ length: SLOTS }, () => []);
  try {
    worker.postMessage({
      type: "start",
      path,
      chunkBytes: options.chunkBytes,
      slots: SLOTS,
      release: options.release ?? "9.0.8",
    } as PipelineRequest);
    for (;;) {
      const m = await next();
      if (m.type === "error") {
        if (!m.kit) throw new Error(m.problem);
        throw new KitError(m.problem, { file: m.file, line: m.line });
      }
      if (m.type === "end") {
        options.onRunId?.(m.runId);
        return;
      }
      const complete = m.columns.blockFirst.length - 1;
      yield chunkBlocks(m.buf, m.columns, m.qids, complete, pools[m.slot]);
      worker.postMessage({ type: "free", slot: m.slot } as PipelineRequest);
    }
  } finally {
    worker.terminate();
  }
}
