/**
 * The worker of `run_pipeline.ts`: reads and parses the run into a ring of shared buffers and
 * columns, ranks each query block (trec_eval order), and posts each chunk's block table to the
 * evaluating thread, waiting for a slot to be released before it writes into it again.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { rankInto } from "./judge.ts";
import { chunkBlocks, readRunChunks, type RunBlock } from "./run_reader.ts";
import type { PipelineMessage, PipelineRequest } from "./run_pipeline.ts";

const scope = self as unknown as {
  onmessage: (e: MessageEvent<PipelineRequest>) => void;
  postMessage: (m: PipelineMessage) => void;
};

const free: boolean[] = [];
const waiting = new Map<number, () => void>();

/** Resolves when the evaluating thread no longer reads the slot. */
function acquire(slot: number): Promise<void> {
  if (free[slot] ?? true) {
    free[slot] = false;
    return Promise.resolve();
  }
  return new Promise((resolve) =>
    waiting.set(slot, () => {
      free[slot] = false;
      resolve();
    })
  );
}

async function start(request: Extract<PipelineRequest, { type: "start" }>): Promise<void> {
  let runId = "";
  const chunks = readRunChunks(request.run, {
    chunkBytes: request.chunkBytes,
    slots: request.slots,
    shared: true,
    acquire,
    release: request.release,
    onRunId: (id) => runId = id,
  });
  const pool: RunBlock[] = [];
  for await (const c of chunks) {
    const l = c.lines;
    // Ranking needs only the run: done here, it leaves the evaluating thread less to do.
    for (const b of chunkBlocks(c.buf, l, l.blockQid, c.complete, pool)) {
      rankInto(b, l.order!, b.first);
    }
    scope.postMessage({
      type: "chunk",
      slot: c.slot,
      buf: c.buf,
      columns: {
        docS: l.docS,
        docE: l.docE,
        docH: l.docH,
        score: l.score,
        line: l.line,
        order: l.order,
        blockFirst: l.blockFirst.slice(0, c.complete + 1),
      },
      qids: l.blockQid.slice(0, c.complete),
    });
  }
  scope.postMessage({ type: "end", runId });
}

scope.onmessage = (e) => {
  const m = e.data;
  if (m.type === "free") {
    const wake = waiting.get(m.slot);
    if (wake) {
      waiting.delete(m.slot);
      wake();
    } else free[m.slot] = true;
    return;
  }
  start(m).catch((err) => {
    const kit = err instanceof KitError;
    scope.postMessage({
      type: "error",
      kit,
      problem: kit ? err.problem : String((err as Error)?.stack ?? err),
      file: kit ? err.file : undefined,
      line: kit ? err.line : undefined,
    });
  });
};
