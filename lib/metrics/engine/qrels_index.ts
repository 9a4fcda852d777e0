/**
 * The qrels, read whole into a packed index: each judgment one record in 1 MiB chunks, and per
 * query the ranges of its records. Fresh memory is what costs on a small VM (each new page
 * faults in), so the index keeps no copy of the file, no columns and no hashes, and a record
 * keeps of its docno only what the previous record of its range does not share (`shared`, its
 * first bytes in common with the previous docno: 0 at the start of a range; sorted docnos share
 * most), in one of two forms (`judge.ts` reads them back in order):
 * - short, for at most 14 shared and 3 new bytes: `[shared << 4 | new << 2 | r][the new
 *   bytes]`, then the relevance byte(s) only when `r` is 3 (a relevance of 0, 1 or 2 is `r`);
 * - long, for the rest: `[0xf0][shared][new][the new bytes][rel]` (a length of 255 or more as
 *   `[255][2 bytes]`; a relevance outside -127..127 as `[0x80][4 bytes]`).
 * On the benchmark's qrels (docnos `d12345_67`, relevance 0-2) a judgment takes 2.5 bytes, not the
 * 4.5 of the long form alone: 5.2 MB, not 9.4, for 30,000 queries' 2,058,688 judgments.
 * Reading validates every line as trec_eval does (exactly 4 fields, an integer relevance) and
 * checks UTF-8; a query's judgments may be spread over the file. The file is read whole, on
 * the evaluating thread (a worker, when there is one, reads the run only).
 *
 * @module
 */
import { fail } from "../../errors.ts";
import {
  type FileRange,
  gunzipLoaded,
  holdStdin,
  sourceName,
  type TextSource,
} from "../../io/source.ts";
import { readWholeFileSync } from "../../io/whole_file.ts";
import { BlockJudge, emptyBlock, type JudgedQrels, LONG_RECORD } from "./judge.ts";
import { isJsonSource, readJsonQrels } from "../json_files.ts";
import { QueryTable, type QueryTableState } from "./query_table.ts";
import { duplicateJudgment, QRELS_LAYOUT } from "./reading_rules.ts";
import { commentByte, DEFAULT_RELEASE, type TrecRelease } from "../release.ts";
import {
  asciiFieldEnd,
  blankEnd,
  isBlank,
  lineChunks,
  type LineFields,
  lineFields,
  lineProblem,
  parseRelevanceBytes,
  rejectLine,
  scanLine,
  type SkippedLines,
  warmBatch,
} from "./trec_scan.ts";
import { QRELS_QID_BYTES, WasmQrelsLines } from "./wasm/lines.ts";

/** The most bytes a record takes besides its docno's (the long form: 1 + 3 + 3 + 5). */
const MAX_RECORD_OVERHEAD = 12;
/** Judgment records live in chunks of this size (never copied on growth). */
const PACK_CHUNK = 1 << 20;
/** Lines per call of the parser's hot loop (see `parseQrelsLines`), after the first (`warmBatch`). */
const BATCH_LINES = 4096;

/** Options of {@link QrelsIndex.read}. */
export interface QrelsReadOptions {
  /**
   * Read buffer size in bytes (default 256 KiB, `READ_CHUNK`; tests use tiny ones to cross chunk
   * edges).
   */
  chunkBytes?: number;
  /** Tolerant mode: skip malformed lines, counting them here. */
  skip?: SkippedLines;
  /** The trec_eval release whose reading rules apply (comment lines; default 9.0.8). */
  release?: TrecRelease;
  /**
   * Only bytes `[from, to)` of the file (a path; both at line starts), into records in shared
   * memory: one thread's half, {@link QrelsIndex.append}ed to the other's. No judgment in
   * the range is no error here (the whole file is checked).
   */
  range?: FileRange;
  /** Called when the file starts with a UTF-8 byte-order mark (which is skipped). */
  onBom?: () => void;
  /** Whether the file is ranx/pytrec_eval JSON, when the caller looked (default: looked here). */
  json?: boolean;
  /**
   * Whether the WebAssembly fast path takes the usual lines (default true; false parses
   * every line in JavaScript, for the tests that compare the two).
   */
  wasm?: boolean;
}

/** A {@link QrelsIndex} as plain data for another thread (its records in shared memory). */
export interface QrelsIndexState {
  file: string;
  /** The path read, for the line of a duplicate judgment. */
  path?: string;
  chunks: Uint8Array[];
  count: number;
  table: QueryTableState;
}

/**
 * Qrels held compactly, with per query the ranges of its records. Read with
 * {@link QrelsIndex.read} (TREC or JSON qrels) or built from a Map
 * ({@link QrelsIndex.fromQrels}).
 */
export class QrelsIndex implements JudgedQrels {
  readonly file: string;
  /** The records' chunks; `chunk` is the one being written, at `pos`. */
  private chunks: Uint8Array[] = [];
  private chunk: Uint8Array = new Uint8Array(0);
  private pos = 0;
  private count = 0;
  /** The queries and the ranges of their records. */
  private table = new QueryTable();
  /** Records in shared memory (a half read for {@link append}; see `QrelsReadOptions.range`). */
  private shared = false;
  private constructor(private source: TextSource | undefined, name: string) {
    this.file = name;
  }

  /**
   * Reads and validates a qrels file (path, `-`, or bytes; TREC or ranx/pytrec_eval JSON).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { QrelsIndex } from "./qrels_index.ts";
   * const bytes = new TextEncoder().encode("q1 0 d1 1\nq1 0 d2 0\n");
   * const idx = await QrelsIndex.read({ name: "q.txt", bytes });
   * assert.equal(idx.judgments("q1")!.get("d1"), 1);
   * ```
   */
  static async read(source: TextSource, options: QrelsReadOptions = {}): Promise<QrelsIndex> {
    // Standard input is held: it is looked at for JSON, and a duplicate judgment is located
    // in it.
    const range = options.range;
    source = await holdStdin(source);
    if (!range && (options.json ?? await isJsonSource(source))) {
      const idx = QrelsIndex.fromQrels(await readJsonQrels(source), sourceName(source));
      idx.source = source;
      return idx;
    }
    const idx = new QrelsIndex(source, sourceName(source));
    idx.shared = range !== undefined;
    // The read buffer, the previous docno and the open query's id in the fast path's memory.
    const wasm = options.wasm === false ? undefined : new WasmQrelsLines();
    const st: QrelsState = {
      index: idx,
      file: idx.file,
      line: 0,
      q: -1,
      r: -1,
      curQid: new Uint8Array(64),
      curQidLen: -1,
      fields: lineFields(),
      skip: options.skip,
      comment: commentByte(options.release ?? DEFAULT_RELEASE),
      prev: wasm?.prev() ?? new Uint8Array(65536),
      prevLen: 0,
      lastComment: -1,
      wasm,
    };
    const chunks = lineChunks(source, {
      chunkBytes: options.chunkBytes,
      range,
      onBom: options.onBom,
      buffer: wasm && ((size) => wasm.buffer(size)),
    });
    let batch = 16;
    for await (const c of chunks) {
      if (wasm) {
        // (Views of the fast path's memory: a bigger buffer may have moved it.)
        st.prev = wasm.prev();
        st.wasmQid = wasm.qid();
      }
      for (let i = c.start; i < c.end; batch = warmBatch(batch, BATCH_LINES)) {
        i = parseQrelsLines(c.buf, i, c.end, st, batch);
      }
      c.keepLine = st.line + 1;
    }
    if (idx.count === 0 && !range) {
      fail("qrels file has no judgments (empty file?)", { file: idx.file });
    }
    return idx;
  }

  /**
   * Packs judgments held in memory (JSON qrels, `evaluate`'s input).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { QrelsIndex } from "./qrels_index.ts";
   * const idx = QrelsIndex.fromQrels(new Map([["q", new Map([["a", 2]])]]));
   * assert.equal(idx.judgments("q")!.get("a"), 2);
   * ```
   */
  static fromQrels(qrels: ReadonlyMap<string, ReadonlyMap<string, number>>, name = "<memory>") {
    const idx = new QrelsIndex(undefined, name);
    const enc = new TextEncoder();
    for (const [qid, docs] of qrels) {
      const name = enc.encode(qid);
      for (const [docno, rel] of docs) idx.add(name, enc.encode(docno), rel);
    }
    return idx;
  }

  /** Appends one judgment record (the slow path of {@link fromQrels}). */
  private add(name: Uint8Array, docno: Uint8Array, rel: number): void {
    if (docno.length > 65535) fail("docno longer than 65,535 bytes", { file: this.file });
    const need = docno.length + MAX_RECORD_OVERHEAD;
    if (this.pos + need > this.chunk.length) this.newChunk(need);
    const c = this.chunk, t = this.table;
    const q = t.find(name, 0, name.length), r = q < 0 ? -1 : t.queries[5 * q + 4];
    // A new range unless the query's last one ends where this record starts.
    const [chunk, , end] = r < 0 ? [-1, 0, -1] : t.range(r);
    const open = chunk === this.chunks.length - 1 && end === this.pos
      ? r
      : this.openRange(name, 0, name.length)[1];
    c[this.pos] = LONG_RECORD;
    let pos = writeLength(c, writeLength(c, this.pos + 1, 0), docno.length); // shares nothing
    c.set(docno, pos);
    pos = writeRelevance(c, pos + docno.length, rel);
    this.commit(q < 0 ? t.size - 1 : q, open, pos, 1);
  }

  /** The index as plain data for another thread (its records are shared, not copied). */
  state(): QrelsIndexState {
    return {
      file: this.file,
      path: typeof this.source === "string" ? this.source : undefined,
      chunks: this.chunks,
      count: this.count,
      table: this.table.state(),
    };
  }

  /** An index from {@link state} (read only: judging, lookups). */
  static fromState(s: QrelsIndexState): QrelsIndex {
    const idx = new QrelsIndex(s.path, s.file);
    idx.chunks = s.chunks;
    idx.count = s.count;
    idx.table = QueryTable.fromState(s.table);
    return idx;
  }

  /**
   * Adds the judgments of `later`, read from the part of the same file that follows this
   * index's part: the result is what reading both parts as one gives (a query's ranges in file
   * order; a range that the cut split is two ranges).
   */
  append(later: QrelsIndex): void {
    this.table.append(later.table, this.chunks.length);
    for (const c of later.chunks) this.chunks.push(c);
    this.count += later.count;
    // Records go on into a fresh chunk (never into one of `later`'s).
    this.chunk = new Uint8Array(0);
    this.pos = 0;
  }

  /**
   * Starts a new chunk of records big enough for `need` bytes. The first is small (16 KiB): the
   * parser then takes its new-chunk path in its first few thousand lines, so V8 has seen it run
   * before compiling the parser, whose optimized code was otherwise thrown away at the first
   * full chunk (`--trace-deopt`: "insufficient type feedback").
   */
  newChunk(need: number): void {
    const size = Math.max(this.chunks.length === 0 ? 1 << 14 : PACK_CHUNK, need);
    this.chunk = this.shared ? new Uint8Array(new SharedArrayBuffer(size)) : new Uint8Array(size);
    this.chunks.push(this.chunk);
    this.pos = 0;
  }

  /**
   * Opens a range of records at the current position for the query whose id is `buf[s, e)`
   * (a query whose judgments resume later in the file gets one range per stretch); returns
   * the query and the range.
   */
  openRange(buf: Uint8Array, s: number, e: number): [number, number] {
    const t = this.table;
    let q = t.find(buf, s, e);
    if (q < 0) q = t.add(buf, s, e);
    return [q, t.addRange(q, this.chunks.length - 1, this.pos)];
  }

  /** The queries and their ranges (for the judge). */
  queryTable(): QueryTable {
    return this.table;
  }

  /** The query with this id in {@link queryTable}, or -1 when the qrels do not judge it. */
  lookup(qid: string): number {
    return this.table.findId(qid);
  }

  /** The packed records (for the judge). */
  records(): Uint8Array[] {
    return this.chunks;
  }

  /** Reports a duplicate judgment, locating its line in the file when it can. */
  duplicate(qid: string, docno: string): never {
    throw duplicateJudgment(qid, docno, {
      file: this.file,
      line: this.source ? lineOfJudgment(this.source, qid, docno) : undefined,
    });
  }

  /** Query ids in first-appearance order. */
  *queries(): Generator<string> {
    for (let q = 0; q < this.table.size; q++) yield this.table.id(q);
  }

  /** Number of queries. */
  get size(): number {
    return this.table.size;
  }

  /**
   * A query's judgments judged against no retrieved document (a docno judged twice is an
   * error, or counted twice with `countDuplicates`), for a relevance level; undefined when
   * the qrels do not judge the query. Valid until `judge` judges again.
   */
  digest(
    qid: string,
    level: number,
    judge = new BlockJudge(),
    countDuplicates = false,
  ): BlockJudge | undefined {
    const block = emptyBlock(qid);
    return judge.judge(block, this, level, this.file, countDuplicates) ? judge : undefined;
  }

  /** The judgments of one query (docno to relevance), or undefined. */
  judgments(qid: string): Map<string, number> | undefined {
    const judge = this.digest(qid, 1);
    return judge?.judgedOnly(this);
  }

  /** Every query's judgments as Maps. */
  toQrels(): Map<string, Map<string, number>> {
    const q = new Map<string, Map<string, number>>();
    const judge = new BlockJudge();
    for (const qid of this.queries()) {
      q.set(qid, this.digest(qid, 1, judge)!.judgedOnly(this));
    }
    return q;
  }

  /** For the parser: `added` records written to range `r` of query `q`, up to `pos`. */
  commit(q: number, r: number, pos: number, added: number): void {
    this.table.close(q, r, pos, added);
    this.count += added;
    this.pos = pos;
  }

  /** For the parser: the chunk being written and where. */
  get writing(): { chunk: Uint8Array; pos: number; index: number } {
    return { chunk: this.chunk, pos: this.pos, index: this.chunks.length - 1 };
  }
}

function writeLength(c: Uint8Array, pos: number, len: number): number {
  if (len < 255) c[pos++] = len;
  else {
    c[pos++] = 255;
    c[pos++] = len >> 8;
    c[pos++] = len & 255;
  }
  return pos;
}

function writeInt32(c: Uint8Array, pos: number, v: number): number {
  c[pos] = v & 255;
  c[pos + 1] = (v >> 8) & 255;
  c[pos + 2] = (v >> 16) & 255;
  c[pos + 3] = (v >>> 24) & 255;
  return pos + 4;
}

/** A relevance in one byte when within -127..127, else `[0x80][4 bytes]`. */
function writeRelevance(c: Uint8Array, pos: number, rel: number): number {
  if (rel > -128 && rel < 128) {
    c[pos] = rel & 255;
    return pos + 1;
  }
  c[pos] = 0x80;
  return writeInt32(c, pos + 1, rel);
}

/** What the qrels parser carries from batch to batch. */
interface QrelsState {
  index: QrelsIndex;
  file: string;
  line: number;
  /** The open query and range (see `QrelsIndex.openRange`). */
  q: number;
  r: number;
  curQid: Uint8Array;
  curQidLen: number;
  fields: LineFields;
  /** Tolerant mode: malformed lines are counted here instead of failing. */
  skip?: SkippedLines;
  /** The comment byte (`#` in 10.0), or -1. */
  comment: number;
  /** The docno of the last record (a record stores what it does not share with it). */
  prev: Uint8Array;
  prevLen: number;
  /** The line of the last comment 10.0 skipped (it skips no second in a row), or -1. */
  lastComment: number;
  /** The WebAssembly fast path, whose memory holds `prev` and `wasmQid`. */
  wasm?: WasmQrelsLines;
  /** The open query's id for the fast path (when at most `QRELS_QID_BYTES`). */
  wasmQid?: Uint8Array;
}

/**
 * The hot loop of qrels reading: one pass over up to `BATCH_LINES` whole lines from `buf[i]`
 * (`buf[end]` is a newline); returns where it stopped. Batches keep V8 from compiling the
 * loop on-stack (OSR), whose code for this loop deoptimized on every inner-loop exit (14,000
 * times on the 100k benchmark); a function called many times gets regular optimized code.
 */
function parseQrelsLines(
  buf: Uint8Array,
  i: number,
  end: number,
  st: QrelsState,
  batch: number,
): number {
  const file = st.file, index = st.index, comment = st.comment;
  let line = st.line;
  let { chunk, pos, index: chunkIndex } = index.writing;
  const lf = st.fields;
  const f = lf.fields;
  // The open query stays in locals; `added` records since its counts were last stored.
  let q = st.q, r = st.r, curQid = st.curQid, curQidLen = st.curQidLen, added = 0;
  // The previous record's docno (what the next one may share).
  const prev = st.prev;
  let prevLen = st.prevLen;
  const wasm = st.wasm, wasmQid = st.wasmQid;
  const stop = line + batch;
  while (i < end && line < stop) {
    if (wasm && curQidLen > 0 && curQidLen <= QRELS_QID_BYTES) {
      // The WebAssembly fast path takes the open range's usual lines whose records fit in
      // the chunk; this loop takes the line it stops at, with the rules below.
      i = wasm.qrelsLines(i, end, curQidLen, comment, line, prevLen, chunk.length - pos);
      const taken = wasm.lastLine() - line;
      if (taken > 0) {
        const records = wasm.records();
        chunk.set(records, pos);
        pos += records.length;
        added += taken;
        line += taken;
        prevLen = wasm.prevLen();
      }
      if (i >= end) break;
    }
    line++;
    const lineStart = i;
    // Fast path, the usual line: four fields of printable ASCII separated by spaces or tabs,
    // then the newline, with a relevance of 1-9 digits; any other line is scanned again by
    // the general path, which decides.
    let qs = i;
    // The query id: most lines repeat the open query's, compared in place (those bytes were
    // checked when its range opened), else scanned.
    let k = 0;
    while (k < curQidLen && buf[i + k] === curQid[k]) k++;
    const sameQuery = k === curQidLen && curQidLen > 0 && isBlank(buf[i + k]);
    k = sameQuery ? i + curQidLen : asciiFieldEnd(buf, qs);
    let qe = k;
    let ok = qe > qs && buf[qs] !== comment && isBlank(buf[k]);
    let ds = blankEnd(buf, asciiFieldEnd(buf, blankEnd(buf, k))); // iter, then the docno
    k = asciiFieldEnd(buf, ds);
    let de = k;
    ok = ok && de > ds && isBlank(buf[k]) && isBlank(buf[ds - 1]);
    k = blankEnd(buf, k);
    let c = buf[k];
    const neg = c === 45;
    if (neg) k++;
    const digitsStart = k;
    let rel = 0;
    while ((c = buf[k] - 48) >= 0 && c <= 9) {
      rel = rel * 10 + c;
      k++;
    }
    ok = ok && k > digitsStart && k - digitsStart <= 9;
    k = blankEnd(buf, k);
    if (ok && buf[k] === 10) {
      i = k + 1;
      if (neg) rel = -rel;
    } else {
      const eol = scanLine(buf, i, lf);
      i = eol + 1;
      // 10.0 takes a qrels comment only at the line's first byte ("  #q 0 d 1" is data), and
      // not right after another: get_qrels.c skips one '#' line, then parses the next line,
      // whatever it is ("#q 0 d 1" there judges query "#q"; a comment there is malformed).
      // (Kept as the comment's line: nothing to store for the usual line.)
      if (buf[lineStart] === comment && st.lastComment !== line - 1) {
        st.lastComment = line;
        continue;
      }
      const problem = lineProblem(buf, lineStart, eol, lf, 4, true, QRELS_LAYOUT);
      if (problem && rejectLine(st.skip, problem, file, line)) continue;
      qs = f[0];
      qe = f[1];
      ds = f[4];
      de = f[5];
      try {
        rel = parseRelevanceBytes(buf, f[6], f[7], { file, line }, QRELS_LAYOUT);
      } catch (e) {
        if (st.skip && rejectLine(st.skip, (e as { problem: string }).problem, file, line)) {
          continue;
        }
        throw e;
      }
    }
    const len = de - ds;
    if (len > 65535) fail("docno longer than 65,535 bytes", { file, line });
    // The record, in the current chunk (a new one when it does not fit).
    let newChunk = false;
    if (pos + len + MAX_RECORD_OVERHEAD > chunk.length) {
      if (added > 0) index.commit(q, r, pos, added);
      added = 0;
      index.newChunk(len + MAX_RECORD_OVERHEAD);
      ({ chunk, pos, index: chunkIndex } = index.writing);
      newChunk = true;
    }
    // (A line that began with the open query's id and a blank has that id on either path.)
    let same = sameQuery || qe - qs === curQidLen;
    for (let q = 0; !sameQuery && same && q < curQidLen; q++) same = curQid[q] === buf[qs + q];
    if (!same) {
      // A new query, or one whose judgments resume here: a new range of records.
      if (added > 0) index.commit(q, r, pos, added);
      added = 0;
      [q, r] = index.openRange(buf, qs, qe); // (a line with bytes >= 0x80 was checked)
      if (qe - qs > curQid.length) curQid = new Uint8Array(2 * (qe - qs));
      for (let q = qs; q < qe; q++) curQid[q - qs] = buf[q];
      curQidLen = qe - qs;
      if (wasmQid && curQidLen <= QRELS_QID_BYTES) wasmQid.set(buf.subarray(qs, qe));
      prevLen = 0; // a range starts with a whole docno
    } else if (newChunk) {
      r = index.queryTable().addRange(q, chunkIndex, pos);
      prevLen = 0;
    }
    // The record; its usual short forms written here (a call per record costs at this scale).
    let shared = 0;
    const most = len < prevLen ? len : prevLen;
    while (shared < most && prev[shared] === buf[ds + shared]) shared++;
    const fresh = len - shared;
    if (shared < 15 && fresh < 4) {
      // The short form (see the module's comment): one byte, then the new bytes.
      const small = rel >= 0 && rel <= 2;
      chunk[pos++] = (shared << 4) | (fresh << 2) | (small ? rel : 3);
      for (let b = ds + shared; b < de; b++) chunk[pos++] = prev[b - ds] = buf[b];
      if (!small) pos = writeRelevance(chunk, pos, rel);
    } else {
      chunk[pos++] = LONG_RECORD;
      pos = writeLength(chunk, writeLength(chunk, pos, shared), fresh);
      for (let b = ds + shared; b < de; b++) chunk[pos++] = prev[b - ds] = buf[b];
      pos = writeRelevance(chunk, pos, rel);
    }
    prevLen = len;
    added++;
  }
  if (added > 0) index.commit(q, r, pos, added);
  st.q = q;
  st.r = r;
  st.curQid = curQid;
  st.curQidLen = curQidLen;
  st.prevLen = prevLen;
  st.line = line;
  return i;
}

/** The line of the second judgment of a query and docno, for the duplicate's message. */
function lineOfJudgment(source: TextSource, qid: string, docno: string): number | undefined {
  let bytes: Uint8Array;
  try {
    bytes = typeof source === "string" ? readWholeFileSync(source, "qrels") : source.bytes;
    // A gzip qrels file was read through node:zlib, so it is loaded.
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipLoaded(bytes) ?? new Uint8Array();
  } catch {
    return undefined;
  }
  const lines = new TextDecoder().decode(bytes).split("\n");
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    const f = lines[i].trim().split(/\s+/);
    if (f.length === 4 && f[0] === qid && f[2] === docno && ++seen === 2) return i + 1;
  }
  return undefined;
}
