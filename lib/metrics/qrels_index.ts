/**
 * The qrels, read whole into a packed index: each judgment one record in 1 MiB chunks, and per
 * query the ranges of its records. Fresh memory is what costs on a small VM (each new page
 * faults in), so the index keeps no copy of the file, no columns and no hashes, and a record
 * keeps of its docno only what the previous record of its range does not share:
 * `[shared][len][the docno's last len bytes][rel]`, `shared` its first bytes in common with
 * the previous docno (0 at the start of a range; sorted docnos share most). 3 bytes plus the
 * new part of the docno per judgment, written once (`judge.ts` reads them back in order). Reading validates every line
 * as trec_eval does (exactly 4 fields, an integer relevance) and checks UTF-8; a query's
 * judgments may be spread over the file. A large file is read in two parts at once
 * (`part`, `append`; see `run_pipeline.ts`).
 *
 * @module
 */
import { fail } from "../errors.ts";
import { gunzipLoaded, readAllBytes, sourceName, type TextSource } from "../io/source.ts";
import { BlockJudge, emptyBlock } from "./judge.ts";
import { isJsonSource, readJsonQrels } from "./trec_json.ts";
import {
  commentByte,
  DEFAULT_RELEASE,
  duplicateJudgment,
  QRELS_LAYOUT,
  type TrecRelease,
} from "./trec_format.ts";
import {
  asciiFieldEnd,
  blankEnd,
  decodeField,
  isBlank,
  lineChunks,
  type LineFields,
  lineFields,
  lineProblem,
  parseRelevanceBytes,
  rejectLine,
  scanLine,
  type SkippedLines,
} from "./trec_scan.ts";

/** Judgment records live in chunks of this size (never copied on growth). */
const PACK_CHUNK = 1 << 20;
/** Lines per call of the parser's hot loop (see `parseQrelsLines`). */
const BATCH_LINES = 4096;

/** Options of {@link QrelsIndex.read}. */
export interface QrelsReadOptions {
  /** Read buffer size in bytes (default 4 MiB; tests use tiny ones to cross chunk edges). */
  chunkBytes?: number;
  /** Tolerant mode: skip malformed lines, counting them here. */
  skip?: SkippedLines;
  /** The trec_eval release whose reading rules apply (comment lines; default 9.0.8). */
  release?: TrecRelease;
  /** Read only a part of a plain TREC file (see `ChunkOptions.part`): two threads at once. */
  part?: { from?: number; until?: number };
  /** Keep the records in SharedArrayBuffers (read on one thread, judged on another). */
  shared?: boolean;
}

/**
 * Judgments read on another thread (a part of the file), to {@link QrelsIndex.append}: the
 * record chunks (shared memory) and the query lists packed for a cheap transfer (a Map of
 * 50,000 arrays took a second to clone).
 */
export interface QrelsPart {
  chunks: Uint8Array[];
  /** The query ids in first-appearance order, each followed by a newline. */
  qids: string;
  /** Per query: its list's length, then the list (`[judgments, chunk, start, end, ...]`). */
  lists: Int32Array;
  count: number;
  /** Lines read. */
  lines: number;
}
/**
 * Qrels held compactly, with per query the ranges of its records. Read with
 * {@link QrelsIndex.read} (TREC or JSON qrels) or built from a Map
 * ({@link QrelsIndex.fromQrels}).
 */
export class QrelsIndex {
  readonly file: string;
  /** The records' chunks; `chunk` is the one being written, at `pos`. */
  private chunks: Uint8Array[] = [];
  private chunk: Uint8Array = new Uint8Array(0);
  private pos = 0;
  private count = 0;
  /** qid -> [judgments, chunk, start, end, chunk, start, end, ...]. */
  private segments = new Map<string, number[]>();
  /** Records in SharedArrayBuffers (see `QrelsReadOptions.shared`). */
  private shared = false;
  /** A part read for another thread: its query stretches in order, instead of `segments`. */
  private stretches?: [string, number[]][];
  /** Lines read. */
  lines = 0;
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
    // Standard input is held, so that a duplicate judgment can be located in it.
    if (source === "-") source = { name: sourceName("-"), bytes: await readAllBytes("-") };
    if (!options.part && await isJsonSource(source)) {
      const idx = QrelsIndex.fromQrels(await readJsonQrels(source), sourceName(source));
      idx.source = source;
      return idx;
    }
    const idx = new QrelsIndex(source, sourceName(source));
    idx.shared = options.shared ?? false;
    if (options.part?.from) idx.stretches = [];
    const st: QrelsState = {
      index: idx,
      file: idx.file,
      line: 0,
      cur: [],
      curQid: new Uint8Array(64),
      curQidLen: -1,
      fields: lineFields(),
      skip: options.skip,
      comment: commentByte(options.release ?? DEFAULT_RELEASE),
      prev: new Uint8Array(65536),
      prevLen: 0,
    };
    const chunks = lineChunks(source, { chunkBytes: options.chunkBytes, part: options.part });
    for await (const c of chunks) {
      for (let i = c.start; i < c.end;) i = parseQrelsLines(c.buf, i, c.end, st);
      c.keepLine = st.line + 1;
    }
    idx.lines = st.line;
    if (idx.count === 0 && !options.part) {
      fail("qrels file has no judgments (empty file?)", { file: idx.file });
    }
    return idx;
  }

  /** This index as a part for another thread's index (see {@link append}). */
  toPart(): QrelsPart {
    const stretches = this.stretches ?? [...this.segments];
    let qids = "", size = 0;
    for (const [qid, list] of stretches) {
      qids += qid + "\n";
      size += 1 + list.length;
    }
    const lists = new Int32Array(size);
    let at = 0;
    for (const [, list] of stretches) {
      lists[at++] = list.length;
      lists.set(list, at);
      at += list.length;
    }
    return { chunks: this.chunks, qids, lists, count: this.count, lines: this.lines };
  }

  /**
   * Adds the judgments of the rest of the file, read meanwhile on another thread: its records
   * as they are (shared memory), its queries after these (a query on both sides keeps both
   * ranges).
   */
  append(part: QrelsPart): void {
    const shift = this.chunks.length;
    this.chunks.push(...part.chunks);
    const lists = part.lists;
    let at = 0, from = 0;
    for (let nl = part.qids.indexOf("\n"); nl >= 0; nl = part.qids.indexOf("\n", from)) {
      const qid = part.qids.slice(from, nl);
      from = nl + 1;
      const n = lists[at++];
      const mine = this.segments.get(qid);
      const list = mine ?? [0];
      list[0] += lists[at];
      for (let t = at + 1; t < at + n; t += 3) {
        list.push(lists[t] + shift, lists[t + 1], lists[t + 2]);
      }
      if (!mine) this.segments.set(qid, list);
      at += n;
    }
    this.count += part.count;
    this.lines += part.lines;
    if (this.count === 0) fail("qrels file has no judgments (empty file?)", { file: this.file });
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
      for (const [docno, rel] of docs) idx.add(qid, enc.encode(docno), rel);
    }
    return idx;
  }

  /** Appends one judgment record (the slow path of {@link fromQrels}). */
  private add(qid: string, docno: Uint8Array, rel: number): void {
    if (docno.length > 65535) fail("docno longer than 65,535 bytes", { file: this.file });
    const need = docno.length + 11;
    if (this.pos + need > this.chunk.length) this.newChunk(need);
    const c = this.chunk, at = this.chunks.length - 1;
    // A new range unless the query's last one ends where this record starts.
    let ranges = this.segments.get(qid);
    const n = ranges?.length ?? 0;
    if (!ranges || ranges[n - 3] !== at || ranges[n - 1] !== this.pos) ranges = this.openRange(qid);
    let pos = writeLength(c, writeLength(c, this.pos, 0), docno.length); // shares nothing
    c.set(docno, pos);
    pos = writeRelevance(c, pos + docno.length, rel);
    this.pos = ranges[ranges.length - 1] = pos;
    ranges[0]++;
    this.count++;
  }

  /** Starts a new chunk of records big enough for `need` bytes. */
  newChunk(need: number): void {
    const size = Math.max(PACK_CHUNK, need);
    this.chunk = this.shared ? new Uint8Array(new SharedArrayBuffer(size)) : new Uint8Array(size);
    this.chunks.push(this.chunk);
    this.pos = 0;
  }

  /**
   * A query's list `[judgments, chunk, start, end, ...]`, with a new range starting at the
   * current position (a query whose judgments resume later gets one range per stretch).
   */
  openRange(qid: string): number[] {
    const at = this.chunks.length - 1, pos = this.pos;
    if (this.stretches) {
      // A part for another thread: its stretches in order, merged by `append` there (a Map of
      // 50,000 string keys costs the reading thread a good part of its time).
      const list = [0, at, pos, pos];
      this.stretches.push([qid, list]);
      return list;
    }
    const r = this.segments.get(qid);
    if (!r) this.segments.set(qid, [0, at, pos, pos]); // made whole: no regrowth
    else r.push(at, pos, pos);
    return r ?? this.segments.get(qid)!;
  }

  /** A query's list (see {@link openRange}), or undefined when the qrels do not judge it. */
  rangesOf(qid: string): number[] | undefined {
    return this.segments.get(qid);
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
  queries(): IterableIterator<string> {
    return this.segments.keys();
  }

  /** Whether the qrels judge this query. */
  has(qid: string): boolean {
    return this.segments.has(qid);
  }

  /** Number of queries. */
  get size(): number {
    return this.segments.size;
  }

  /** Number of judgments. */
  get judgmentCount(): number {
    return this.count;
  }

  /**
   * A query's judgments judged against no retrieved document (duplicates checked), for a
   * relevance level; undefined when the qrels do not judge the query. Valid until `judge`
   * judges again.
   */
  digest(qid: string, level: number, judge = new BlockJudge()): BlockJudge | undefined {
    return judge.judge(emptyBlock(qid), this, level, this.file) ? judge : undefined;
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
    for (const qid of this.segments.keys()) {
      q.set(qid, this.digest(qid, 1, judge)!.judgedOnly(this));
    }
    return q;
  }

  /** For the parser: records written since the open query's counts were stored. */
  commit(cur: number[], pos: number, added: number): void {
    cur[cur.length - 1] = pos;
    cur[0] += added;
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
  /** The open query's list (see `QrelsIndex.openRange`). */
  cur: number[];
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
}

/**
 * The hot loop of qrels reading: one pass over up to `BATCH_LINES` whole lines from `buf[i]`
 * (`buf[end]` is a newline); returns where it stopped. Batches keep V8 from compiling the
 * loop on-stack (OSR), whose code for this loop deoptimized on every inner-loop exit (14,000
 * times on the 100k benchmark); a function called many times gets regular optimized code.
 */
function parseQrelsLines(buf: Uint8Array, i: number, end: number, st: QrelsState): number {
  const file = st.file, index = st.index, comment = st.comment;
  let line = st.line;
  let { chunk, pos, index: chunkIndex } = index.writing;
  const lf = st.fields;
  const f = lf.fields;
  // The open query stays in locals; `added` records since its counts were last stored.
  let cur = st.cur, curQid = st.curQid, curQidLen = st.curQidLen, added = 0;
  // The previous record's docno (what the next one may share).
  const prev = st.prev;
  let prevLen = st.prevLen;
  const stop = line + BATCH_LINES;
  while (i < end && line < stop) {
    line++;
    const lineStart = i;
    // Fast path, the usual line: four fields of printable ASCII separated by spaces or tabs,
    // then the newline, with a relevance of 1-9 digits; any other line is scanned again by
    // the general path, which decides.
    let qs = i;
    let k = asciiFieldEnd(buf, qs);
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
      if (lf.n > 0 && buf[f[0]] === comment) continue;
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
    if (pos + len + 11 > chunk.length) {
      if (added > 0) index.commit(cur, pos, added);
      added = 0;
      index.newChunk(len + 11);
      ({ chunk, pos, index: chunkIndex } = index.writing);
      newChunk = true;
    }
    let same = qe - qs === curQidLen;
    for (let q = 0; same && q < curQidLen; q++) same = curQid[q] === buf[qs + q];
    if (!same) {
      // A new query, or one whose judgments resume here: a new range of records.
      if (added > 0) index.commit(cur, pos, added);
      added = 0;
      cur = index.openRange(decodeField(buf, qs, qe, { file, line }));
      if (qe - qs > curQid.length) curQid = new Uint8Array(2 * (qe - qs));
      for (let q = qs; q < qe; q++) curQid[q - qs] = buf[q];
      curQidLen = qe - qs;
      prevLen = 0; // a range starts with a whole docno
    } else if (newChunk) {
      cur.push(chunkIndex, pos, pos);
      prevLen = 0;
    }
    // The record; its usual short forms written here (a call per record costs at this scale).
    let shared = 0;
    const most = len < prevLen ? len : prevLen;
    while (shared < most && prev[shared] === buf[ds + shared]) shared++;
    if (shared < 255 && len - shared < 255) {
      chunk[pos++] = shared;
      chunk[pos++] = len - shared;
    } else pos = writeLength(chunk, writeLength(chunk, pos, shared), len - shared);
    for (let b = ds + shared; b < de; b++) chunk[pos++] = prev[b - ds] = buf[b];
    prevLen = len;
    if (rel > -128 && rel < 128) chunk[pos++] = rel & 255;
    else pos = writeRelevance(chunk, pos, rel);
    added++;
  }
  if (added > 0) index.commit(cur, pos, added);
  st.cur = cur;
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
    bytes = typeof source === "string" ? Deno.readFileSync(source) : source.bytes;
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
