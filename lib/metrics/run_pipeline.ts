/**
 * Two threads for a large run file, as a pipeline: a worker (`run_worker.ts`) reads, parses
 * and ranks the run into a ring of shared buffers while this thread reads the qrels (whole),
 * then judges and computes the measures. Each side does what one thread would do, with no
 * copy (the ring is shared memory) and no merge, so the results are the one-thread path's
 * (tested). Reading the qrels in two halves as well (the second on the worker, appended) was
 * tried and measured slower on 100,000 queries (8.7 s against 4.4 s on two busy cores): the
 * two threads then compete for the cores the run's pipeline needs.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { chunkBlocks, type RunBlock, type RunColumns } from "./run_reader.ts";
import { DEFAULT_RELEASE, type TrecRelease } from "./trec_format.ts";

/** What the evaluating thread sends the worker. */
export type PipelineRequest =
  | {
    type: "start";
    run: string;
    chunkBytes?: number;
    slots: number;
    release: TrecRelease;
  }
  | { type: "free"; slot: number };

/** What the worker sends back. */
export type PipelineMessage =
  | { type: "chunk"; slot: number; buf: Uint8Array; columns: RunColumns; qids: string[] }
  | { type: "end"; runId: string }
  | { type: "error"; kit: boolean; problem: string; file?: string; line?: number };

/** Buffers in the ring: one being read here, one being parsed there, one spare. */
const SLOTS = 3;
/** The ring's buffer size (the worker's reads): smaller than one thread's, three of them. */
const RING_CHUNK_BYTES = 2 << 20;

/** A worker reading the run; see the module comment. */
export class RunPipeline {
  private worker: Worker;
  private inbox: PipelineMessage[] = [];
  private wake?: () => void;
  private failure?: Error;

  /**
   * Starts the worker on a run file.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { RunPipeline } from "./run_pipeline.ts";
   * const path = await Deno.makeTempFile();
   * await Deno.writeTextFile(path, "q1 Q0 d1 1 0.5 r\nq1 Q0 d2 2 0.4 r\nq2 Q0 d1 1 1 r\n");
   * const pipeline = RunPipeline.start(path);
   * const qids: string[] = [];
   * for await (const blocks of pipeline.blocks()) qids.push(...blocks.map((b) => b.qid));
   * assert.deepEqual(qids, ["q1", "q2"]);
   * ```
   */
  static start(
    run: string,
    options: { release?: TrecRelease; chunkBytes?: number } = {},
  ): RunPipeline {
    return new RunPipeline({
      type: "start",
      run,
      chunkBytes: options.chunkBytes ?? RING_CHUNK_BYTES,
      slots: SLOTS,
      release: options.release ?? DEFAULT_RELEASE,
    });
  }

  private constructor(request: PipelineRequest) {
    this.worker = new Worker(new URL("./run_worker.ts", import.meta.url).href, { type: "module" });
    this.worker.onmessage = (e: MessageEvent<PipelineMessage>) => {
      this.inbox.push(e.data);
      this.wake?.();
    };
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.failure = new Error(`run parsing worker failed: ${e.message}`);
      this.wake?.();
    };
    this.worker.postMessage(request);
  }

  private async next(): Promise<PipelineMessage> {
    while (this.inbox.length === 0) {
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => this.wake = resolve);
      this.wake = undefined;
    }
    const m = this.inbox.shift()!;
    if (m.type === "error") {
      if (!m.kit) throw new Error(m.problem);
      throw new KitError(m.problem, { file: m.file, line: m.line });
    }
    return m;
  }

  /**
   * The run's blocks chunk by chunk, ranked (`order`); a chunk stays valid until the next
   * one is asked for. Leaving the loop early stops the worker.
   */
  async *blocks(onRunId?: (runId: string) => void): AsyncGenerator<RunBlock[]> {
    const pools: RunBlock[][] = Array.from({ length: SLOTS }, () => []);
    try {
      for (;;) {
        const m = await this.next();
        if (m.type === "end") {
          onRunId?.(m.runId);
          return;
        }
        if (m.type !== "chunk") throw new Error(`pipeline: expected a chunk, got ${m.type}`);
        const complete = m.columns.blockFirst.length - 1;
        yield chunkBlocks(m.buf, m.columns, m.qids, complete, pools[m.slot]);
        this.worker.postMessage({ type: "free", slot: m.slot } as PipelineRequest);
      }
    } finally {
      this.close();
    }
  }

  /** Stops the worker (idempotent). */
  close(): void {
    this.worker.terminate();
  }
}
