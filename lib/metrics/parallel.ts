/**
 * Two threads for large TREC files: the qrels are read as two halves in parallel (this
 * thread and a worker), then the run is split at a query boundary near its middle and each
 * half is evaluated on one thread against the shared qrels (SharedArrayBuffer chunks, no
 * copies). Per-query values are merged into one evaluator; results are identical to the
 * single-thread path, which the tests check. Errors keep their file and absolute line.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { QueryEvaluator } from "./evaluate.ts";
import { type FileRange, QrelsIndex, type QrelsParts } from "./trec_bytes.ts";
import { evaluateRunStream, NotGrouped, type RunStretch } from "./trec_files.ts";
import type { TextSource } from "../io/text.ts";

/** What the worker answers. */
export type WorkerReply =
  | { ok: QrelsParts }
  | { ok: { stretch: RunStretch; data: { qids: string[]; columns: number[][] } } }
  | { notGrouped: true }
  | { error: { kit: boolean; problem: string; file?: string; line?: number } };

/** Start of the line that follows `from` (a byte offset), or `size` when there is none. */
async function nextLineStart(path: string, from: number, size: number): Promise<number> {
  const f = await Deno.open(path);
  try {
    await f.seek(from, Deno.SeekMode.Start);
    const buf = new Uint8Array(1 << 16);
    let pos = from;
    while (pos < size) {
      const n = await f.read(buf);
      if (n === null || n === 0) break;
      const nl = buf.subarray(0, n).indexOf(10);
      if (nl >= 0) return pos + nl + 1;
      pos += n;
    }
    return size;
  } finally {
    f.close();
  }
}

/** A line start near `from` where the run's query id changes (the block boundary), or `size`. */
async function nextQueryStart(path: string, from: number, size: number): Promise<number> {
  const start = await nextLineStart(path, from, size);
  const f = await Deno.open(path);
  try {
    await f.seek(start, Deno.SeekMode.Start);
    const buf = new Uint8Array(1 << 20);
    const n = (await f.read(buf)) ?? 0;
    const text = new TextDecoder().decode(buf.subarray(0, n));
    let firstQid: string | undefined;
    let off = 0;
    while (off < text.length) {
      const nl = text.indexOf("\n", off);
      if (nl < 0) break; // no boundary in this window: do not split
      const qid = text.slice(off, nl).trim().split(/\s+/)[0];
      if (qid && !qid.startsWith("#")) {
        if (firstQid === undefined) firstQid = qid;
        else if (qid !== firstQid) {
          return start + new TextEncoder().encode(text.slice(0, off)).length;
        }
      }
      off = nl + 1;
    }
    return size;
  } finally {
    f.close();
  }
}

class Helper {
  private worker = new Worker(new URL("./eval_worker.ts", import.meta.url).href, {
    type: "module",
  });
  call(message: unknown): Promise<WorkerReply> {
    return new Promise((resolve, reject) => {
      this.worker.onmessage = (e) => resolve(e.data as WorkerReply);
      this.worker.onerror = (e) => {
        e.preventDefault();
        reject(new Error(`evaluation worker failed: ${e.message}`));
      };
      this.worker.postMessage(message);
    });
  }
  close(): void {
    this.worker.terminate();
  }
}

function rethrow(
  reply: { error: { kit: boolean; problem: string; file?: string; line?: number } },
  lineBase: number,
): never {
  const e = reply.error;
  if (!e.kit) throw new Error(e.problem);
  throw new KitError(e.problem, {
    file: e.file,
    line: e.line === undefined ? undefined : e.line + lineBase,
  });
}

/**
 * Evaluates a large plain run file on two threads. Returns the qrels index and the merged
 * stretch, or `notGrouped` when the run's queries are not grouped (the caller then takes the
 * in-memory path). Returns undefined when the inputs do not suit (e.g. qrels not a plain file).
 */
export async function evaluateInParallel(
  qrelsSource: TextSource | QrelsIndex,
  runPath: string,
  ev: QueryEvaluator,
  chunkBytes?: number,
): Promise<{ qrels?: QrelsIndex; stretch?: RunStretch; notGrouped?: boolean }> {
  if (typeof qrelsSource !== "string" || qrelsSource === "-") return {};
  const qrelsPath = qrelsSource;
  const qHead = new Uint8Array(2);
  {
    const f = await Deno.open(qrelsPath).catch(() => undefined);
    if (!f) return {}; // the single-thread path reports the error
    await f.read(qHead);
    f.close();
    if (qHead[0] === 0x1f && qHead[1] === 0x8b) return {};
  }
  const helper = new Helper();
  try {
    // 1. The qrels, as two halves.
    const qSize = (await Deno.stat(qrelsPath)).size;
    const qMid = await nextLineStart(qrelsPath, qSize >> 1, qSize);
    const range = (path: string, start: number, end: number): FileRange => ({
      name: path,
      path,
      start,
      end,
    });
    const [mine, theirs] = await Promise.allSettled([
      QrelsIndex.read(range(qrelsPath, 0, qMid), { shared: true, allowEmpty: true, chunkBytes }),
      helper.call({ op: "qrels", range: range(qrelsPath, qMid, qSize), chunkBytes }),
    ]);
    if (mine.status === "rejected") throw mine.reason;
    if (theirs.status === "rejected") throw theirs.reason;
    if ("error" in theirs.value) rethrow(theirs.value, mine.value.lines);
    const qrels = QrelsIndex.fromParts(qrelsPath, [
      mine.value.parts(),
      (theirs.value as { ok: QrelsParts }).ok,
    ]);

    // 2. The run, split where a query block starts near its middle.
    const rSize = (await Deno.stat(runPath)).size;
    const rMid = await nextQueryStart(runPath, rSize >> 1, rSize);
    if (rMid >= rSize) return { qrels };
    const [a, b] = await Promise.allSettled([
      evaluateRunStream(qrels, range(runPath, 0, rMid), ev, chunkBytes),
      helper.call({
        op: "run",
        qrelsPath,
        qrels: qrels.parts(),
        range: range(runPath, rMid, rSize),
        measures: ev.measureNames,
        level: ev.level,
        chunkBytes,
      }),
    ]);
    if (a.status === "rejected") {
      if (a.reason instanceof NotGrouped) return { qrels, notGrouped: true };
      throw a.reason;
    }
    if (b.status === "rejected") throw b.reason;
    const reply = b.value;
    if ("notGrouped" in reply) return { qrels, notGrouped: true };
    if ("error" in reply) rethrow(reply, a.value.lines);
    const { stretch, data } = (reply as { ok: { stretch: RunStretch; data: never } }).ok as {
      stretch: RunStretch;
      data: { qids: string[]; columns: number[][] };
    };
    const seen = new Set(a.value.seen);
    if (stretch.seen.some((q) => seen.has(q))) return { qrels, notGrouped: true };
    ev.absorb(data);
    return {
      qrels,
      stretch: {
        seen: [...a.value.seen, ...stretch.seen],
        runOnly: [...a.value.runOnly, ...stretch.runOnly],
        runId: stretch.runId || a.value.runId,
        lines: a.value.lines + stretch.lines,
      },
    };
  } finally {
    helper.close();
  }
}
