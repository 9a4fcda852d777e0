/**
 * Two threads for large run files, as a pipeline: a worker reads and parses the run
 * (`run_worker.ts`) into a ring of shared buffers while this thread reads the qrels, judges,
 * sorts and computes the measures. Each side does what it would do alone, with no copy and
 * no merge, so the results are the single-thread path's (tested); the worker only moves
 * the run parsing (about a third of the work) off this thread.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { type ByteRunBlock, chunkBlocks, type RunColumns } from "./trec_bytes.ts";

/** What the evaluating thread sends the worker. */
export type PipelineRequest =
  | { type: "start"; path: string; chunkBytes?: number; slots: number }
  | { type: "free"; slot: number };

/** What the worker sends back. */
export type PipelineMessage =
  | { type: "chunk"; slot: number; buf: Uint8Array; columns: RunColumns; qids: string[] }
  | { type: "end"; runId: string; lines: number }
  | { type: "error"; kit: boolean; problem: string; file?: string; line?: number };

/** Buffers in the ring: one being read here, one being parsed there, one spare. */
const SLOTS = 3;

/**
 * The blocks of a run file chunk by chunk, parsed on a worker thread (same blocks, same
 * errors as `scanRunChunks`). A chunk stays valid until the next one is requested.
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
  onRunId?: (runId: string) => void,
  chunkBytes?: number,
  onLines?: (lines: number) => void,
): AsyncGenerator<ByteRunBlock[]> {
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
  const pools: ByteRunBlock[][] = Array.from({ length: SLOTS }, () => []);
  try {
    worker.postMessage({ type: "start", path, chunkBytes, slots: SLOTS } as PipelineRequest);
    for (;;) {
      const m = await next();
      if (m.type === "error") {
        if (!m.kit) throw new Error(m.problem);
        throw new KitError(m.problem, { file: m.file, line: m.line });
      }
      if (m.type === "end") {
        onRunId?.(m.runId);
        onLines?.(m.lines);
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
