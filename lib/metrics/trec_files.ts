/**
 * TREC qrels and run files: streaming readers, writers, and the streaming file
 * evaluator behind `deno task eval trec`.
 *
 * Formats (trec_eval's):
 * - qrels: `qid iter docno relevance`, exactly 4 whitespace-separated fields, relevance an integer.
 * - run: `qid Q0 docno rank score runid`, at least 6 fields (extra ones ignored); the rank
 *   column is ignored; the runid is the last line's.
 * Blank lines and lines starting with `#` are skipped in both. Anything else that does not
 * fit is an error naming the file and line, never a silently wrong number (stricter than
 * trec_eval, which reads a score of `abc` as 0).
 *
 * Memory: the file evaluator keeps the qrels as their text plus an index of where each
 * query's lines are, parses a query's judgments only when the run reaches it, and streams
 * the run one query block at a time. Runs are almost always grouped by query; a run that is
 * not is detected and evaluated again from a buffered copy, with the same results.
 *
 * @module
 */
import { fail, KitError } from "../errors.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { sourceName, type TextSource } from "../io/text.ts";
import {
  digestJudgments,
  type EvalOptions,
  type EvalResult,
  type Qrels,
  QueryEvaluator,
  type Run,
  warnRunOnly,
} from "./evaluate.ts";
import type { RankedQuery } from "./measures.ts";
import { workerRunChunks } from "./run_pipeline.ts";
import { compareDocnos, rankOrder } from "./rank.ts";
import {
  BlockJudge,
  type BlockScratch,
  type ByteRunBlock,
  type ByteSource,
  byteSourceName,
  decodeField,
  QrelsIndex,
  type QrelsReadOptions,
  QrelsReopened,
  rankBlock,
  readBlockAt,
  scanRunBlocks,
  scanRunChunks,
  type SkippedLines,
} from "./trec_bytes.ts";

export { QrelsIndex };

/** One query's block of a run file as it streams by (strings; see `scanRunBlocks` for bytes). */
export interface RunBlock {
  qid: string;
  docnos: string[];
  scores: number[];
  /** Line number of each document's line. */
  lines: number[];
}

/**
 * Streams a run file as blocks of consecutive lines with the same query id.
 * A query can come back in a later block when the file is not grouped.
 * Checks field counts and scores; `onRunId` receives the last line's runid.
 */
export async function* runBlocks(
  source: TextSource,
  onRunId?: (runId: string) => void,
  skip?: SkippedLines,
): AsyncGenerator<RunBlock> {
  const file = sourceName(source);
  for await (const b of scanRunBlocks(source, onRunId, undefined, undefined, skip)) {
    const docnos: string[] = [];
    const f = b.first, t = b.first + b.count;
    for (let i = f; i < t; i++) {
      docnos.push(decodeField(b.buf, b.docStart[i], b.docEnd[i], { file, line: b.line[i] }));
    }
    yield {
      qid: b.qid,
      docnos,
      scores: Array.from(b.score.subarray(f, t)),
      lines: Array.from(b.line.subarray(f, t)),
    };
  }
}

/**
 * Reads a qrels file into memory.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readQrels } from "./trec_files.ts";
 * const q = await readQrels({ name: "q", bytes: new TextEncoder().encode("7 0 a 2\n") });
 * assert.equal(q.get("7")!.get("a"), 2);
 * ```
 */
export async function readQrels(source: TextSource): Promise<Qrels> {
  return (await QrelsIndex.read(source)).toQrels();
}

/**
 * Reads a run file into memory (duplicates rejected, ungrouped files accepted).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readRun } from "./trec_files.ts";
 * const bytes = new TextEncoder().encode("q1 Q0 d1 1 0.5 r\nq1 Q0 d2 2 0.25 r\n");
 * const run = await readRun({ name: "run", bytes });
 * assert.equal(run.get("q1")!.get("d2"), 0.25);
 * ```
 */
export async function readRun(source: TextSource): Promise<Run> {
  const file = sourceName(source);
  const run: Run = new Map();
  for await (const block of runBlocks(source)) {
    let docs = run.get(block.qid);
    if (!docs) run.set(block.qid, docs = new Map());
    for (let i = 0; i < block.docnos.length; i++) {
      if (docs.has(block.docnos[i])) {
        fail(`duplicate document ${block.docnos[i]} for query ${block.qid}`, {
          file,
          line: block.lines[i],
        });
      }
      docs.set(block.docnos[i], block.scores[i]);
    }
  }
  return run;
}

/** Thrown when a run's queries are not grouped (a query comes back after another). */
export class NotGrouped extends Error {}

/** What evaluating one stretch of a grouped run gives. */
export interface RunStretch {
  /** The run's query ids. */
  seen: ReadonlySet<string>;
  runOnly: string[];
  runId: string;
  lines: number;
}

/** Run blocks held back while the qrels are searched (bytes) before the qrels are read whole. */
const HELD_BACK_MAX_BYTES = 32 << 20;

/**
 * Run blocks held back while the qrels are searched (their read buffers move on). From a
 * plain file or bytes, only where each block is (offset, length, first line) is kept, and
 * a block is read again only if the qrels turn out to judge its query: the usual held-back
 * block, a run-only query, is never read twice. Otherwise (gzip, standard input) blocks
 * are copied into one growing arena of bytes and columns (no typed arrays per block).
 */
class HeldBack {
  /**
   * Per block: where it is in the file (`at` >= 0, `bytes`, its first `line`), or in the
   * arena (`at` = -1: entries `[first, first + count)` of the columns).
   */
  private entries: {
    qid: string;
    first: number;
    count: number;
    at: number;
    bytes: number;
    line: number;
  }[] = [];
  private scratch: Partial<BlockScratch> = {};
  private bytes = new Uint8Array(0);
  private used = 0;
  private docS = new Int32Array(0);
  private docE = new Int32Array(0);
  private hash = new Int32Array(0);
  private score = new Float64Array(0);
  private line = new Int32Array(0);
  private order = new Int32Array(0);
  private ranked = false;
  private n = 0;

  constructor(private source: ByteSource) {}

  get count(): number {
    return this.entries.length;
  }

  /** Bytes held. */
  get size(): number {
    return this.used + 28 * this.n + 40 * this.entries.length;
  }

  add(b: ByteRunBlock): void {
    if (b.at !== undefined && b.bytes !== undefined) {
      this.entries.push({
        qid: b.qid,
        first: 0,
        count: b.count,
        at: b.at,
        bytes: b.bytes,
        line: b.line[b.first],
      });
      return;
    }
    const f = b.first, n = b.count;
    const base = n > 0 ? b.docStart[f] : 0;
    const len = n > 0 ? b.docEnd[f + n - 1] - base : 0;
    if (this.used + len > this.bytes.length) {
      const g = new Uint8Array(Math.max(2 * this.bytes.length, this.used + len, 1 << 16));
      g.set(this.bytes.subarray(0, this.used));
      this.bytes = g;
    }
    if (this.n + n > this.docS.length) this.grow(Math.max(2 * this.docS.length, this.n + n, 4096));
    this.bytes.set(b.buf.subarray(base, base + len), this.used);
    const shift = this.used - base, at = this.n;
    const order = b.order;
    this.ranked = order !== undefined;
    // Columns in locals: the loop then runs on registers, not property loads.
    const ds = b.docStart, de = b.docEnd, h = b.hash, sc = b.score, li = b.line;
    const tds = this.docS, tde = this.docE, th = this.hash, tsc = this.score, tli = this.line;
    for (let i = 0; i < n; i++) {
      tds[at + i] = ds[f + i] + shift;
      tde[at + i] = de[f + i] + shift;
      th[at + i] = h[f + i];
      tsc[at + i] = sc[f + i];
      tli[at + i] = li[f + i];
    }
    if (order) this.order.set(order.subarray(f, f + n), at);
    this.entries.push({ qid: b.qid, first: at, count: n, at: -1, bytes: 0, line: 0 });
    this.used += len;
    this.n += n;
  }

  private grow(cap: number): void {
    const more = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const g = make(cap);
      g.set(a.subarray(0, this.n));
      return g;
    };
    this.docS = more(this.docS, (c) => new Int32Array(c));
    this.docE = more(this.docE, (c) => new Int32Array(c));
    this.hash = more(this.hash, (c) => new Int32Array(c));
    this.score = more(this.score, (c) => new Float64Array(c));
    this.line = more(this.line, (c) => new Int32Array(c));
    this.order = more(this.order, (c) => new Int32Array(c));
  }

  /**
   * Hands every held block whose query `judged` says the qrels judge to `evaluate` (one
   * reused block object), the others to `runOnly`, then forgets them all.
   */
  drain(
    evaluate: (b: ByteRunBlock) => void,
    judged: (qid: string) => boolean,
    runOnly: (qid: string) => void,
  ): void {
    const view: ByteRunBlock = {
      buf: this.bytes,
      qid: "",
      first: 0,
      count: 0,
      docStart: this.docS,
      docEnd: this.docE,
      hash: this.hash,
      score: this.score,
      line: this.line,
      order: this.ranked ? this.order : undefined,
    };
    try {
      for (const e of this.entries) {
        if (!judged(e.qid)) runOnly(e.qid);
        else if (e.at >= 0) {
          evaluate(readBlockAt(this.source, e.at, e.bytes, e.line, this.scratch));
        } else {
          view.qid = e.qid;
          view.first = e.first;
          view.count = e.count;
          evaluate(view);
        }
      }
    } finally {
      // One open file serves every block read again; it is closed once they are done.
      this.scratch.file?.close();
      this.scratch.file = undefined;
    }
    this.entries = [];
    this.used = 0;
    this.n = 0;
  }
}

/**
 * Evaluates a grouped run (or a byte range of one) into `ev`, one query block at a time;
 * throws `NotGrouped` when a query comes back after another.
 *
 * With qrels opened for streaming (`QrelsIndex.open`) the two files are read side by side:
 * each run query's judgments are read on demand and released once judged, so neither file
 * is held in memory. A run query not found within the qrels' read-ahead is held back (a
 * copy of its block) and judged after the qrels end; past `HELD_BACK_MAX_BYTES` of those the
 * qrels are read whole. Queries may be evaluated out of run order: results do not depend
 * on it (the summary sums in query id order).
 */
export async function evaluateRunStream(
  qrels: QrelsIndex,
  source: ByteSource,
  ev: QueryEvaluator,
  options: RunStreamOptions = {},
): Promise<RunStretch> {
  const { chunkBytes, skip, times } = options;
  const file = byteSourceName(source);
  const level = ev.level;
  const seen = new Set<string>();
  const runOnly: string[] = [];
  let runId = "";
  let lines = 0;
  // Per-query work reuses these buffers: allocation churn is what costs at this scale.
  const judge = new BlockJudge();
  let rels = new Float64Array(256);
  // Views of `rels` by length and one query object, reused: per-query garbage is what
  // the young-generation GC pays for at this scale.
  let relViews: Float64Array[] = [];
  const query: RankedQuery = { rels, numRel: 0, judged: rels, level };
  // Stage timing (for `bench eval --profile`) costs a few clock reads per query when asked.
  let t = times ? performance.now() : 0;
  const lap = (stage: keyof StageTimes) => {
    if (!times) return;
    const now = performance.now();
    times[stage] += (now - t) / 1000;
    t = now;
  };
  const evaluateBlock = (b: ByteRunBlock) => {
    const found = judge.judge(b, qrels, level, file);
    lap("duplicate check and judgments");
    if (!found) {
      runOnly.push(b.qid);
      return;
    }
    qrels.consume(b.qid, judge.ranges);
    // Ranked ahead by the run-parsing worker, or here.
    let order = b.order, at = b.first;
    if (!order) {
      order = rankBlock(b, judge);
      at = 0;
    }
    lap("sort (trec_eval order)");
    if (rels.length < b.count) {
      rels = new Float64Array(Math.max(b.count, 2 * rels.length));
      relViews = [];
    }
    const ranked = relViews[b.count] ??= rels.subarray(0, b.count);
    const judged = judge.rels;
    for (let r = 0; r < b.count; r++) ranked[r] = judged[order[at + r]];
    query.rels = ranked;
    query.numRel = judge.numRel;
    query.judged = judge.judged;
    ev.addRanked(b.qid, query);
    lap("measures");
  };
  const held = new HeldBack(source);
  const drain = () =>
    held.drain(evaluateBlock, (qid) => qrels.has(qid), (qid) => runOnly.push(qid));
  const chunks = options.worker && typeof source === "string"
    ? workerRunChunks(source, (id) => runId = id, chunkBytes, (n) => lines = n)
    : scanRunChunks(source, (id) => runId = id, chunkBytes, (n) => lines = n, skip);
  for await (const blocks of chunks) {
    lap("parse and group the run");
    for (const b of blocks) {
      const known = seen.size;
      seen.add(b.qid);
      if (seen.size === known) throw new NotGrouped(); // the query came back
      if (!qrels.settled(b.qid)) {
        const found = await qrels.ensure(b.qid);
        lap("parse the qrels");
        if (!found && !qrels.ended) {
          judge.judge(b, qrels, level, file); // its duplicate check, now: it is not kept
          held.add(b);
          // Many held back (a quarter of the queries so far, 64 or more): the two files list
          // queries in different orders (e.g. qrels sorted as strings, run as numbers), so
          // read the qrels whole now rather than hold much of the run.
          const mismatch = held.count >= 64 && 4 * held.count >= seen.size;
          if (mismatch || held.size > HELD_BACK_MAX_BYTES) {
            await qrels.readAll();
            lap("parse the qrels");
            drain();
          }
          continue;
        }
      }
      evaluateBlock(b);
    }
  }
  lap("parse and group the run");
  await qrels.readAll();
  lap("parse the qrels");
  drain();
  return { seen, runOnly, runId, lines };
}

/** Options of {@link evaluateRunStream}. */
export interface RunStreamOptions {
  /** Read buffer size in bytes (default 4 MiB). */
  chunkBytes?: number;
  /** Tolerant mode: skip malformed run lines, counting them here (not with `worker`). */
  skip?: SkippedLines;
  /** Stage timing, filled in when given. */
  times?: StageTimes;
  /** Parse the run (a file path) on a worker thread (`run_pipeline.ts`). */
  worker?: boolean;
}

/** Seconds spent per stage of {@link evaluateRunStream} (filled when passed in). */
export interface StageTimes {
  "parse the qrels": number;
  "parse and group the run": number;
  "duplicate check and judgments": number;
  "sort (trec_eval order)": number;
  measures: number;
}

/** Options of {@link evaluateTrecFiles}. */
export interface FileEvalOptions extends EvalOptions {
  /** Read buffer size in bytes (default 4 MiB; tests use tiny ones to cross chunk edges). */
  chunkBytes?: number;
  /**
   * Threads: 2 parses a large run file (`parallelMinBytes` on) on a worker while this
   * thread reads the qrels and evaluates (a pipeline, `run_pipeline.ts`); 1 does it all
   * here. Default: 2 where the machine has two or more CPUs. Results are identical either
   * way (tested); tolerant mode uses one.
   */
  threads?: number;
  /** Smallest run file (bytes) parsed on a worker (default 32 MB). */
  parallelMinBytes?: number;
  /** Tuning of the streamed qrels' record store (tests use tiny values; see `QrelsIndex`). */
  qrelsStore?: QrelsReadOptions["store"];
  /**
   * Tolerant mode (opt-in): skip malformed lines (field count, number, UTF-8) instead of
   * failing, and report them in the result's `skipped`. Duplicates still fail.
   */
  skipBadLines?: boolean;
}

/**
 * Evaluates a run file against a qrels file with trec_eval's semantics, streaming.
 *
 * The fast path reads the run one query block at a time on bytes (see `trec_bytes.ts`),
 * side by side with the qrels; a large run is parsed on a second thread (`run_pipeline.ts`);
 * a run whose queries are not grouped is detected and evaluated from memory instead,
 * through the same measure code, with the same results.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluateTrecFiles } from "./trec_files.ts";
 * const enc = new TextEncoder();
 * const qrels = { name: "q", bytes: enc.encode("1 0 a 1\n1 0 b 0\n") };
 * const run = { name: "r", bytes: enc.encode("1 Q0 a 1 0.5 x\n1 Q0 b 2 0.5 x\n") };
 * const r = await evaluateTrecFiles(qrels, run, ["recip_rank"]);
 * assert.equal(r.summary.recip_rank, 0.5); // tie: docno "b" ranks first
 * ```
 */
export async function evaluateTrecFiles(
  qrelsSource: TextSource | QrelsIndex,
  runSource: TextSource,
  measures: readonly string[],
  options: FileEvalOptions = {},
): Promise<EvalResult> {
  const level = options.relevanceLevel ?? 1;
  const skipped = options.skipBadLines
    ? { qrels: { count: 0, examples: [] }, run: { count: 0, examples: [] } }
    : undefined;
  // The run is parsed on a second thread (a pipeline, see run_pipeline.ts) when that pays:
  // a large run file, two or more CPUs, not tolerant mode (its line counts stay on one thread).
  const threads = skipped ? 1 : options.threads ?? (navigator.hardwareConcurrency >= 2 ? 2 : 1);
  const worker = threads > 1 && typeof runSource === "string" &&
    await worthAWorker(runSource, options.parallelMinBytes ?? 32e6);
  let qrels: QrelsIndex | undefined = qrelsSource instanceof QrelsIndex ? qrelsSource : undefined;
  let ev = new QueryEvaluator(measures, options);
  let stretch: RunStretch | undefined;
  let notGrouped = false;
  const readWhole = async () => {
    if (skipped) skipped.qrels = { count: 0, examples: [] }; // counted again on the re-read
    return await QrelsIndex.read(qrelsSource as TextSource, {
      chunkBytes: options.chunkBytes,
      skip: skipped?.qrels,
    });
  };
  if (runSource !== "-") {
    // Standard input cannot be read twice: it takes the in-memory path below. Files are
    // read side by side (qrels streaming) when both can be read again, should the run or
    // the qrels turn out not to be grouped by query (then a second attempt reads the qrels
    // whole).
    const streamQrels = !qrels && qrelsSource !== "-";
    for (let attempt = 0; attempt < 2 && !stretch && !notGrouped; attempt++) {
      qrels ??= streamQrels && attempt === 0
        ? await QrelsIndex.open(qrelsSource as TextSource, {
          chunkBytes: options.chunkBytes,
          skip: skipped?.qrels,
          store: options.qrelsStore,
        })
        : await readWhole();
      try {
        ev = new QueryEvaluator(measures, options);
        stretch = await evaluateRunStream(qrels, runSource, ev, {
          chunkBytes: options.chunkBytes,
          skip: skipped?.run,
          worker,
        });
      } catch (e) {
        if (e instanceof NotGrouped) notGrouped = true;
        else if (!(e instanceof QrelsReopened)) throw e;
        if (skipped) skipped.run = { count: 0, examples: [] };
        // A streamed index has released what the run consumed: read the qrels whole.
        if (streamQrels) qrels = undefined;
      }
    }
  }
  qrels ??= await readWhole();
  if (!stretch) {
    ev = new QueryEvaluator(measures, options);
    if (skipped) skipped.run = { count: 0, examples: [] }; // counted again on the re-read
    stretch = await evaluateUngrouped(qrels, runSource, ev, skipped?.run);
  }
  const seen = stretch.seen;
  const missing: { qid: string; values: number[] }[] = [];
  const judge = new BlockJudge();
  for (const qid of qrels.queries()) {
    if (!seen.has(qid)) {
      // Their values enter only complete mode (-c); as in trec_eval, a qrels-only query's
      // judgments are not even looked at otherwise.
      const values = options.complete ? ev.valuesForMissing(qrels.digest(qid, level, judge)!) : [];
      missing.push({ qid, values });
    }
  }
  const runOnly = stretch.runOnly.sort(compareDocnos);
  warnRunOnly(runOnly, options.warn);
  const result = ev.result({
    complete: options.complete ?? false,
    runOnlyQueries: runOnly,
    missing,
    runId: stretch.runId,
  });
  if (skipped) result.skipped = skipped; // (a spread would build the lazy perQuery)
  return result;
}

/** A worker pays for its start-up (about 0.1 s) from a few tens of MB of run on. */
async function worthAWorker(path: string, minBytes: number): Promise<boolean> {
  if (path === "-") return false;
  try {
    const st = await Deno.stat(path);
    return st.isFile && st.size >= minBytes;
  } catch {
    return false; // the single-thread path reports it
  }
}

/** A run whose queries are not grouped: group it in memory, then the same per-query code. */
async function evaluateUngrouped(
  qrels: QrelsIndex,
  runSource: TextSource,
  ev: QueryEvaluator,
  skip?: SkippedLines,
): Promise<RunStretch> {
  const file = sourceName(runSource);
  let runId = "";
  const run = new Map<string, RunBlock>();
  for await (const b of runBlocks(runSource, (id) => runId = id, skip)) {
    const g = run.get(b.qid);
    if (!g) run.set(b.qid, b);
    else {
      g.docnos.push(...b.docnos);
      g.scores.push(...b.scores);
      g.lines.push(...b.lines);
    }
  }
  const runOnly: string[] = [];
  for (const b of run.values()) {
    const dup = new Set<string>();
    b.docnos.forEach((d, i) => {
      if (dup.has(d)) {
        fail(`duplicate document ${d} for query ${b.qid} (trec_eval rejects this too)`, {
          file,
          line: b.lines[i],
        });
      }
      dup.add(d);
    });
    const judgments = qrels.judgments(b.qid);
    if (!judgments) {
      runOnly.push(b.qid);
      continue;
    }
    ev.addQuery(b.qid, b.docnos, b.scores, digestJudgments(judgments, ev.level));
  }
  return { seen: new Set(run.keys()), runOnly, runId, lines: 0 };
}

/** Options of {@link writeRun}. */
export interface WriteRunOptions {
  /** The runid column (default `kit`). */
  runId?: string;
  /** Replace an existing file. */
  force?: boolean;
}

function checkId(id: string, what: string): void {
  if (id.length === 0 || /\s/.test(id)) {
    throw new KitError(
      `${what} '${id}' is empty or contains whitespace; TREC files cannot hold it`,
    );
  }
}

/**
 * Formats a run as TREC run lines, each query's documents in trec_eval order with ranks
 * 1..n. Scores are written with full precision (shortest round-trip form).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatRun } from "./trec_files.ts";
 * const text = [...formatRun(new Map([["q", new Map([["a", 0.1], ["b", 0.7]])]]), "bm25")].join("");
 * assert(text === "q Q0 b 1 0.7 bm25\nq Q0 a 2 0.1 bm25\n");
 * ```
 */
export function* formatRun(run: Run, runId = "kit"): Generator<string> {
  checkId(runId, "run id");
  for (const [qid, docs] of run) {
    checkId(qid, "query id");
    const docnos = [...docs.keys()];
    const scores = docnos.map((d) => docs.get(d)!);
    const order = rankOrder(docnos, scores);
    const lines: string[] = [];
    for (let r = 0; r < order.length; r++) {
      const d = docnos[order[r]];
      checkId(d, "document id");
      const s = scores[order[r]];
      if (!Number.isFinite(s)) throw new KitError(`query ${qid}, document ${d}: score ${s}`);
      lines.push(`${qid} Q0 ${d} ${r + 1} ${s} ${runId}\n`);
    }
    yield lines.join("");
  }
}

/**
 * Writes a run file atomically (temp file + rename; `force` to replace).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readRun, writeRun } from "./trec_files.ts";
 * const path = (await Deno.makeTempDir()) + "/run.txt";
 * await writeRun(path, new Map([["q", new Map([["a", 1]])]]), { runId: "x" });
 * assert((await readRun(path)).get("q")!.get("a") === 1);
 * ```
 */
export async function writeRun(path: string, run: Run, options: WriteRunOptions = {}) {
  await writeFileAtomic(path, toAsync(formatRun(run, options.runId ?? "kit")), {
    force: options.force,
  });
}

/**
 * Formats qrels as TREC qrels lines (`qid 0 docno relevance`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatQrels } from "./trec_files.ts";
 * const t = [...formatQrels(new Map([["q", new Map([["a", 1]])]]))].join("");
 * assert(t === "q 0 a 1\n");
 * ```
 */
export function* formatQrels(qrels: Qrels): Generator<string> {
  for (const [qid, docs] of qrels) {
    checkId(qid, "query id");
    const lines: string[] = [];
    for (const [d, rel] of docs) {
      checkId(d, "document id");
      if (!Number.isSafeInteger(rel)) throw new KitError(`relevance ${rel} is not an integer`);
      lines.push(`${qid} 0 ${d} ${rel}\n`);
    }
    yield lines.join("");
  }
}

/**
 * Writes qrels atomically.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readQrels, writeQrels } from "./trec_files.ts";
 * const path = (await Deno.makeTempDir()) + "/qrels.txt";
 * await writeQrels(path, new Map([["q", new Map([["a", 1]])]]));
 * assert((await readQrels(path)).get("q")!.get("a") === 1);
 * ```
 */
export async function writeQrels(path: string, qrels: Qrels, options: { force?: boolean } = {}) {
  await writeFileAtomic(path, toAsync(formatQrels(qrels)), { force: options.force });
}

async function* toAsync(gen: Iterable<string>): AsyncGenerator<string> {
  yield* gen;
}
