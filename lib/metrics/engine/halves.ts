/**
 * A large pair of files read in two halves, one per thread: the second half of the qrels is
 * read on a worker (`halves_worker.ts`) while this thread reads the first; each thread joins
 * the halves into one index, the same on both (the records are in shared memory); then
 * each thread judges, ranks and measures its half of the run, cut between two queries, and
 * this thread adds the worker's values to its own. Each thread runs the one-thread code on
 * its half (`QrelsIndex.read`, `evaluateGroupedRun`), so the join is all there is to trust:
 * a query's qrels ranges keep file order, and the summary sums in qid order whatever order
 * queries came in (tested against the one-thread path).
 *
 * Anything out of the ordinary gives up (undefined), and the caller reads the files again on
 * one thread, which says exactly what the one-thread path says: a bad line or duplicate in
 * either half, a run not grouped by query (a query comes back, also across the cut), a cut
 * not found (one query spanning the middle of the run). A worker costs its start-up (about
 * 0.05 s) and memory, so only files worth it are read this way (`halvesWorthIt`).
 *
 * Measured against the former route (a worker parsing the run ahead into a ring of three
 * buffers while this thread read the qrels, then judged): that worker could only run three
 * buffers ahead while the qrels were read, then this thread waited for it.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import { type FileRange, openFileRange } from "../../io/source.ts";
import { WebWorker } from "../../io/web_worker.ts";
import type { EvaluatorOptions, EvaluatorState, QueryEvaluator } from "./query_evaluator.ts";
import { evaluateRunRange, type RunPass } from "./grouped_run.ts";
import { QrelsIndex, type QrelsIndexState } from "./qrels_index.ts";
import { commentByte, type TrecRelease } from "../release.ts";

/** What this thread asks the worker. */
export type HalvesRequest =
  | { type: "qrels"; path: string; range: FileRange; release: TrecRelease; chunkBytes?: number }
  | {
    type: "run";
    path: string;
    range: FileRange;
    /** The first part of the qrels, read here: the worker appends its own part to it. */
    first: QrelsIndexState;
    measures: readonly string[];
    options: EvaluatorOptions;
    release: TrecRelease;
    chunkBytes?: number;
  };

/** What the worker answers. */
export type HalvesReply =
  | { type: "qrels"; index: QrelsIndexState }
  | { type: "run"; pass?: RunPass; values: EvaluatorState; runId: string }
  | { type: "failed"; kit: boolean; problem: string };

/** The share of each file this thread reads (the worker starts later, by its start-up). */
export const FIRST_SHARE = 0.55;
/**
 * The smallest run (bytes) read in halves by default. Measured on 2 vCPUs (issue 26): at
 * 30,000 queries x 100 (a 94 MB run) two threads took as long as one (0.90-1.03 s against
 * 0.90-1.07 s) and 40 MB more; at 100,000 (319 MB) 1.8-2.4 s against 2.9-3.3 s.
 */
export const HALVES_MIN_BYTES = 128e6;

/**
 * How far past the middle a line start, or the start of the next query, is looked for: 64 KiB
 * first (a query's lines usually take a few KB), then 4 MiB.
 */
const CUT_WINDOWS = [1 << 16, 1 << 22];

/** What reading in halves gives: what the one-thread route has before its summary. */
export interface Halves {
  qrels: QrelsIndex;
  pass: RunPass;
  evaluator: QueryEvaluator;
  runId: string;
}

/** Options of {@link readInHalves}. */
export interface HalvesOptions {
  release: TrecRelease;
  /** The evaluator's settings (plain data: its warnings are given by the caller's own). */
  evaluator: EvaluatorOptions;
  chunkBytes?: number;
  /** The share of each file this thread reads (default {@link FIRST_SHARE}). */
  firstShare?: number;
  /** Called with a file's path when it starts with a byte-order mark (which is skipped). */
  onBom?: (path: string) => void;
}

/**
 * Whether a pair of files is read in halves: both regular files, not gzip, the run at least
 * `minBytes` (the caller has ruled out JSON, which is read whole).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { halvesWorthIt } from "./halves.ts";
 * const qrels = await Deno.makeTempFile(), run = await Deno.makeTempFile();
 * await Deno.writeTextFile(qrels, "q1 0 d1 1\n");
 * await Deno.writeTextFile(run, "q1 Q0 d1 1 0.5 r\n");
 * assert.equal(await halvesWorthIt(qrels, run, 0), true);
 * assert.equal(await halvesWorthIt(qrels, run, 32e6), false); // too small to pay
 * assert.equal(await halvesWorthIt("-", run, 0), false); // standard input: one thread
 * ```
 */
export async function halvesWorthIt(
  qrels: unknown,
  run: unknown,
  minBytes: number,
): Promise<boolean> {
  if (typeof qrels !== "string" || typeof run !== "string" || qrels === "-" || run === "-") {
    return false;
  }
  try {
    const [q, r] = [await Deno.stat(qrels), await Deno.stat(run)];
    if (!q.isFile || !r.isFile || r.size < minBytes) return false;
    for (const path of [qrels, run]) {
      const head = await readAt(path, 0, 2);
      if (head[0] === 0x1f && head[1] === 0x8b) return false; // gzip
    }
    return true;
  } catch {
    return false; // the one-thread route reports it
  }
}

/**
 * Reads the qrels and evaluates the run in halves (see the module comment); undefined when it
 * gives up, and then the caller reads the files on one thread.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readInHalves } from "./halves.ts";
 * const qrels = await Deno.makeTempFile(), run = await Deno.makeTempFile();
 * await Deno.writeTextFile(qrels, "q1 0 a 1\nq2 0 b 1\n");
 * await Deno.writeTextFile(run, "q1 Q0 a 1 1 r\nq2 Q0 c 1 2 r\nq2 Q0 b 2 1 r\n");
 * const halves = await readInHalves(qrels, run, ["recip_rank"], {
 *   release: "9.0.8",
 *   evaluator: {},
 *   firstShare: 0.2, // q1 on this thread, q2 on the worker
 * });
 * const result = halves!.evaluator.result({ complete: false, runOnlyQueries: [], missing: [], runId: halves!.runId });
 * assert.deepEqual([...result.perQuery], [["q1", { recip_rank: 1 }], ["q2", { recip_rank: 0.5 }]]);
 *
 * // q1 comes back after q2: not grouped by query, so it gives up (read on one thread).
 * await Deno.writeTextFile(run, "q1 Q0 a 1 1 r\nq2 Q0 b 1 1 r\nq1 Q0 c 2 0 r\n");
 * assert.equal(await readInHalves(qrels, run, ["recip_rank"], { release: "9.0.8", evaluator: {} }), undefined);
 * ```
 */
export async function readInHalves(
  qrelsPath: string,
  runPath: string,
  measures: readonly string[],
  options: HalvesOptions,
): Promise<Halves | undefined> {
  const share = options.firstShare ?? FIRST_SHARE;
  if (!(share > 0 && share < 1)) {
    throw new KitError(`firstShare must be between 0 and 1 (exclusive), got ${share}`);
  }
  // The threads open the files apart: a file replaced or changed meanwhile would mix two
  // versions, so what each file is (inode, size, times) is checked again at the end.
  const stats = await statAll(qrelsPath, runPath);
  if (stats === undefined) return undefined; // (the one-thread route says why)
  const before = identity(stats);
  const [qrelsSize, runSize] = stats.map((s) => s.size);
  const worker = new HalvesWorker();
  try {
    const { release, chunkBytes } = options;
    const qrelsCut = await lineNotStarting(
      qrelsPath,
      await lineStartAfter(qrelsPath, Math.floor(qrelsSize * share)),
      commentByte(release),
    );
    const laterQrels = qrelsCut !== undefined && qrelsCut < qrelsSize
      ? worker.ask({
        type: "qrels",
        path: qrelsPath,
        range: { from: qrelsCut, to: qrelsSize },
        release,
        chunkBytes,
      })
      : undefined;
    // (Handled here too: when this thread gives up first, an answer is never awaited.)
    laterQrels?.catch(() => {});
    // (This thread reads both files from their start: it meets their byte-order marks.)
    const qrels = await QrelsIndex.read(qrelsPath, {
      release,
      chunkBytes,
      range: { from: 0, to: qrelsCut ?? qrelsSize },
      onBom: () => options.onBom?.(qrelsPath),
    });
    // (Found while the worker may still be reading its part of the qrels.)
    const runCut = await queryStartAfter(runPath, Math.floor(runSize * share));
    if (runCut === undefined) return undefined;
    // Each thread joins the two parts of the qrels, this part first: the same index on both
    // (the same query numbers), neither waiting for the other's join nor for a copy of it.
    const later = worker.ask({
      type: "run",
      path: runPath,
      range: { from: runCut, to: runSize },
      first: qrels.state(),
      measures,
      options: options.evaluator,
      release,
      chunkBytes,
    });
    later.catch(() => {});
    if (laterQrels) {
      const theirs = await laterQrels;
      if (theirs?.type !== "qrels") return undefined;
      qrels.append(QrelsIndex.fromState(theirs.index));
    }
    if (qrels.size === 0) return undefined; // the one-thread route says it

    const { pass, evaluator } = await evaluateRunRange(
      qrels,
      runPath,
      { from: 0, to: runCut },
      measures,
      options.evaluator,
      { release, chunkBytes, onBom: () => options.onBom?.(runPath) },
    );
    const second = await later;
    if (!pass || second?.type !== "run" || !second.pass) return undefined;
    // A query in both halves: the run is not grouped by query.
    const judged = pass.judged, theirs = second.pass.judged;
    for (let q = 0; q < judged.length; q++) {
      if (judged[q] && theirs[q]) return undefined;
      judged[q] |= theirs[q];
    }
    const runOnly = new Set(pass.runOnly);
    for (const qid of second.pass.runOnly) {
      if (runOnly.has(qid)) return undefined;
      runOnly.add(qid);
    }
    evaluator.absorb(second.values);
    // Changed while read: read again, on one thread.
    const now = await statAll(qrelsPath, runPath);
    if (now === undefined || identity(now) !== before) return undefined;
    return { qrels, pass: { judged, runOnly: [...runOnly] }, evaluator, runId: second.runId };
  } catch (e) {
    if (e instanceof KitError) return undefined; // the one-thread route says it, exactly
    throw e;
  } finally {
    worker.close();
  }
}

/** The worker: it answers its requests in the order they were asked. */
class HalvesWorker {
  private worker = new WebWorker(new URL("./halves_worker.ts", import.meta.url).href, {
    type: "module",
  });
  /** Who waits for the answers still to come, in order. */
  private waiting: ((reply: HalvesReply | undefined) => void)[] = [];
  /**
   * Set when the worker itself failed (it could not load its module: a program run with
   * `--allow-read` limited to its data files; or it died): the halves are given up, and the
   * one-thread route runs here. The event may come before anything was asked.
   */
  private unavailable = false;

  constructor() {
    this.worker.onmessage = (e: MessageEvent<HalvesReply>) => this.waiting.shift()?.(e.data);
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.unavailable = true;
      for (const answer of this.waiting.splice(0)) answer(undefined);
    };
  }

  /**
   * Sends a request; resolves with the answer, undefined when the worker is unavailable. An
   * error the worker's own code threw (not a `KitError`) is thrown here: a defect, not input.
   */
  ask(request: HalvesRequest): Promise<HalvesReply | undefined> {
    if (this.unavailable) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      this.waiting.push((reply) => {
        if (reply?.type === "failed" && !reply.kit) {
          reject(new Error(`evaluation worker failed: ${reply.problem}`));
        } else resolve(reply);
      });
      this.worker.postMessage(request);
    });
  }

  close(): void {
    this.worker.terminate();
  }
}

/** The files' `stat`s; undefined when one cannot be read. */
async function statAll(...paths: string[]): Promise<Deno.FileInfo[] | undefined> {
  try {
    return await Promise.all(paths.map((p) => Deno.stat(p)));
  } catch {
    return undefined;
  }
}

/**
 * What the files are, as far as `stat` tells (device, inode, size, modification and change
 * times, to the millisecond): the same string, the same files left unchanged.
 */
function identity(stats: Deno.FileInfo[]): string {
  return stats.map((s) => [s.dev, s.ino, s.size, s.mtime?.getTime(), s.ctime?.getTime()])
    .join(";");
}

/** `n` bytes of a file from `at` (fewer at its end). */
async function readAt(path: string, at: number, n: number): Promise<Uint8Array> {
  const reader = await openFileRange(path, { from: at, to: at + n });
  const buf = new Uint8Array(n);
  let got = 0;
  for (let r = 0; (r = await reader.read(buf.subarray(got))) > 0;) got += r;
  reader.close();
  return buf.subarray(0, got);
}

/** The start of the first line after byte `at` (undefined: none within the windows). */
async function lineStartAfter(path: string, at: number): Promise<number | undefined> {
  if (at === 0) return 0;
  for (const size of CUT_WINDOWS) {
    const window = await readAt(path, at - 1, size);
    const nl = window.indexOf(10);
    if (nl >= 0) return at + nl;
    if (window.length < size) return undefined; // (the file ended)
  }
  return undefined;
}

/**
 * From line start `at`, the first line start whose line does not begin with `byte` (10.0's
 * comment byte; -1: none): the worker must not begin its qrels on a `#` line, which 10.0
 * reads as data after another `#` line (undefined: none within reach).
 */
async function lineNotStarting(
  path: string,
  at: number | undefined,
  byte: number,
): Promise<number | undefined> {
  for (let start = at, k = 0; start !== undefined && k < 4096; k++) {
    const head = await readAt(path, start, 1);
    if (head.length === 0 || head[0] !== byte) return start;
    start = await lineStartAfter(path, start + 1);
  }
  return undefined;
}

/**
 * The start of the first line from byte `at` on whose first field differs from the line
 * before's: the start of a query block (undefined: none within the windows, or none before).
 */
async function queryStartAfter(path: string, at: number): Promise<number | undefined> {
  const start = await lineStartAfter(path, at);
  if (!start) return undefined; // (0: nothing for this thread)
  for (const size of CUT_WINDOWS) {
    const cut = await queryStartWithin(path, start, size);
    if (cut !== undefined) return cut;
  }
  return undefined;
}

/** {@link queryStartAfter} from line start `start`, looking `size` bytes around it. */
async function queryStartWithin(
  path: string,
  start: number,
  size: number,
): Promise<number | undefined> {
  const from = Math.max(0, start - size);
  const window = await readAt(path, from, start - from + size);
  const fieldEnd = (i: number) => {
    while (i < window.length && window[i] > 32) i++;
    return i;
  };
  let line = start - from;
  const before = window.lastIndexOf(10, line - 2);
  if (before < 0 && from > 0) return undefined; // a line longer than the window
  for (let prev = before + 1; line > 0 && line < window.length;) {
    const prevEnd = fieldEnd(prev), end = fieldEnd(line);
    if (end === window.length) return undefined;
    let same = end - line === prevEnd - prev;
    for (let k = 0; same && k < prevEnd - prev; k++) same = window[line + k] === window[prev + k];
    if (!same) return from + line;
    prev = line;
    line = window.indexOf(10, line) + 1;
  }
  return undefined;
}
