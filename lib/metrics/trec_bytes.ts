/**
 * Byte-level reading of TREC qrels and run files: the fast path behind every TREC reader.
 *
 * Lines are scanned as bytes, never decoded as a whole: query ids are decoded when they
 * change, docnos are hashed and compared as bytes (strcmp order comes for free), and scores
 * are parsed from bytes (Clinger's exact fast path, `Number()` otherwise). A line with bytes
 * >= 0x80 is checked to be valid UTF-8. A UTF-8 BOM is skipped, CR counts as whitespace (so
 * CRLF files work), gzip is detected by its magic bytes.
 *
 * @module
 */
import { fail, KitError } from "../errors.ts";
import { countNewlines, openInput, sourceName, type TextSource } from "../io/text.ts";
import { UNJUDGED } from "./measures.ts";

// ---------------------------------------------------------------- byte sources

/** Pulls bytes into a caller's buffer; returns how many (0 at the end). */
export type ByteReader = (into: Uint8Array) => Promise<number>;

/** What the TREC readers take: a path, `-`, or bytes in memory. */
export type ByteSource = TextSource;

/** The display name of a source. */
export function byteSourceName(source: ByteSource): string {
  return typeof source === "string" ? sourceName(source) : source.name;
}

async function openRaw(source: ByteSource): Promise<ByteReader> {
  if (typeof source !== "string") {
    let off = 0;
    const bytes = source.bytes;
    return (into) => {
      const n = Math.min(into.length, bytes.length - off);
      into.set(bytes.subarray(off, off + n));
      off += n;
      return Promise.resolve(n);
    };
  }
  const file = await openInput(source);
  let closed = false;
  // Files are read synchronously: the data is usually in the page cache, and an async read
  // costs a trip through the runtime's thread pool (0.09 s against 0.05 s for 319 MB in
  // 4 MiB reads). Standard input may wait for a writer: it stays async.
  const readSync = file.readSync?.bind(file);
  return async (into) => {
    if (closed) return 0;
    const n = readSync ? readSync(into) : await file.read(into);
    if (n === null) {
      file.close();
      closed = true;
      return 0;
    }
    return n;
  };
}

function fromStream(stream: ReadableStream<Uint8Array>, name: string): ByteReader {
  const reader = stream.getReader();
  let pending: Uint8Array | undefined;
  return async (into) => {
    let n = 0;
    while (n < into.length) {
      if (!pending || pending.length === 0) {
        let r: ReadableStreamReadResult<Uint8Array>;
        try {
          r = await reader.read();
        } catch (e) {
          throw new KitError(
            `corrupt or truncated gzip data (${(e as Error).message}); download the file again`,
            { file: name },
            { cause: e },
          );
        }
        if (r.done) break;
        pending = r.value;
      }
      const take = Math.min(pending.length, into.length - n);
      into.set(pending.subarray(0, take), n);
      pending = pending.subarray(take);
      n += take;
    }
    return n;
  };
}

/** An opened byte source: its reader, and whether it is gzip (decompressed on the fly). */
export interface OpenedBytes {
  read: ByteReader;
  gzip: boolean;
}

/** Opens a source for byte reading; gzip (by magic bytes) is decompressed on the fly. */
export async function openBytes(source: ByteSource): Promise<OpenedBytes> {
  const raw = await openRaw(source);
  const head = new Uint8Array(2);
  let got = 0;
  while (got < 2) {
    const n = await raw(head.subarray(got));
    if (n === 0) break;
    got += n;
  }
  const isGzip = got === 2 && head[0] === 0x1f && head[1] === 0x8b;
  let headLeft: Uint8Array | undefined = head.subarray(0, got);
  const withHead: ByteReader = async (into) => {
    if (headLeft && headLeft.length) {
      const n = Math.min(headLeft.length, into.length);
      into.set(headLeft.subarray(0, n));
      headLeft = headLeft.subarray(n);
      return n;
    }
    return await raw(into);
  };
  if (!isGzip) return { read: withHead, gzip: false };
  const compressed = new ReadableStream<Uint8Array>({
    async pull(c) {
      const buf = new Uint8Array(1 << 20);
      const n = await withHead(buf);
      if (n === 0) c.close();
      else c.enqueue(buf.subarray(0, n));
    },
  });
  const read = fromStream(
    compressed.pipeThrough(
      new DecompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>,
    ),
    byteSourceName(source),
  );
  return { read, gzip: true };
}

// ---------------------------------------------------------------- scanning

/** Field bounds of one line, filled by {@link scanLine}. */
export interface LineFields {
  /** [start, end) of the first six fields: fields[2k], fields[2k + 1]. */
  fields: Int32Array;
  /** Number of fields on the line (all of them, not only the first six). */
  n: number;
  /** Whether the line has a byte >= 0x80 (then it must be checked as UTF-8). */
  high: boolean;
}

/**
 * Scans one line starting at `i` (fields split on C isspace(); a `#` comment line has no
 * fields) and returns the index of its end (the newline, or `end`). Shared by the qrels and
 * run parsers, whose hot loops call it once per line.
 */
export function scanLine(buf: Uint8Array, i: number, end: number, out: LineFields): number {
  const f = out.fields;
  let n = 0, high = 0, c = 0;
  for (;;) {
    while (i < end && ((c = buf[i]) === 32 || c === 9 || c === 13 || c === 11 || c === 12)) i++;
    if (i >= end || c === 10) break;
    if (n === 0 && c === 35) { // '#': a comment line
      const nl = buf.indexOf(10, i);
      i = nl < 0 || nl > end ? end : nl;
      break;
    }
    const fs = i;
    while (i < end && ((c = buf[i]) > 32 || c < 9 || (c > 13 && c < 32))) {
      high |= c;
      i++;
    }
    if (n < 6) {
      f[2 * n] = fs;
      f[2 * n + 1] = i;
    }
    n++;
  }
  out.n = n;
  out.high = (high & 0x80) !== 0;
  return i;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Decodes bytes as strict UTF-8 (ASCII fast path), or fails at the location. */
export function decodeField(
  buf: Uint8Array,
  start: number,
  end: number,
  where: { file: string; line: number },
): string {
  let ascii = true;
  for (let i = start; i < end; i++) {
    if (buf[i] >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) {
    // Short ids (query ids, most docnos) in one call: building them a character at a time
    // leaves a string per character as garbage.
    const c = String.fromCharCode, b = buf, i = start;
    switch (end - start) {
      case 0:
        return "";
      case 1:
        return c(b[i]);
      case 2:
        return c(b[i], b[i + 1]);
      case 3:
        return c(b[i], b[i + 1], b[i + 2]);
      case 4:
        return c(b[i], b[i + 1], b[i + 2], b[i + 3]);
      case 5:
        return c(b[i], b[i + 1], b[i + 2], b[i + 3], b[i + 4]);
      case 6:
        return c(b[i], b[i + 1], b[i + 2], b[i + 3], b[i + 4], b[i + 5]);
      case 7:
        return c(b[i], b[i + 1], b[i + 2], b[i + 3], b[i + 4], b[i + 5], b[i + 6]);
      case 8:
        return c(b[i], b[i + 1], b[i + 2], b[i + 3], b[i + 4], b[i + 5], b[i + 6], b[i + 7]);
    }
    if (end - start < 64) {
      let s = "";
      for (let k = start; k < end; k++) s += String.fromCharCode(buf[k]);
      return s;
    }
    return String.fromCharCode.apply(null, buf.subarray(start, end) as unknown as number[]);
  }
  try {
    return utf8.decode(buf.subarray(start, end));
  } catch {
    return fail("invalid UTF-8; expected UTF-8 text", where);
  }
}

/**
 * Lines skipped in tolerant mode (opt-in: `--skip-bad-lines`): how many, and the first few
 * messages. Duplicates, empty files and broken gzip are never skipped.
 */
export interface SkippedLines {
  count: number;
  examples: string[];
}

/** In strict mode (no `skip`) fails at the location; in tolerant mode records the line. */
function rejectLine(
  skip: SkippedLines | undefined,
  problem: string,
  file: string,
  line: number,
): true {
  if (!skip) fail(problem, { file, line });
  skip.count++;
  if (skip.examples.length < 5) skip.examples.push(`${file}:${line}: ${problem}`);
  return true;
}

/**
 * The general path's checks of a line `scanLine` split (`buf[start, eol)`): valid UTF-8, then
 * `fields` fields (exactly, or at least). The problem, or undefined when the line is fine.
 */
function lineProblem(
  buf: Uint8Array,
  start: number,
  eol: number,
  lf: LineFields,
  fields: number,
  exact: boolean,
  layout: string,
): string | undefined {
  if (lf.high && !isValidUtf8(buf, start, eol)) return "invalid UTF-8; expected UTF-8 text";
  if (exact ? lf.n !== fields : lf.n < fields) {
    return `expected ${fields} fields (${layout}), found ${lf.n}`;
  }
  return undefined;
}

function isValidUtf8(buf: Uint8Array, start: number, end: number): boolean {
  try {
    utf8.decode(buf.subarray(start, end));
    return true;
  } catch {
    return false;
  }
}

/** Compares two byte ranges like strcmp (unsigned bytes). */
export function compareBytes(
  a: Uint8Array,
  as: number,
  ae: number,
  b: Uint8Array,
  bs: number,
  be: number,
): number {
  const la = ae - as, lb = be - bs;
  const n = la < lb ? la : lb;
  for (let i = 0; i < n; i++) {
    const d = a[as + i] - b[bs + i];
    if (d !== 0) return d;
  }
  return la - lb;
}

export function equalBytes(
  a: Uint8Array,
  as: number,
  ae: number,
  b: Uint8Array,
  bs: number,
  be: number,
) {
  if (ae - as !== be - bs) return false;
  for (let i = 0; i < ae - as; i++) if (a[as + i] !== b[bs + i]) return false;
  return true;
}

/** FNV-1a over bytes. */
export function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  return h >>> 0;
}

const POW10 = Float64Array.of(
  1,
  1e1,
  1e2,
  1e3,
  1e4,
  1e5,
  1e6,
  1e7,
  1e8,
  1e9,
  1e10,
  1e11,
  1e12,
  1e13,
  1e14,
  1e15,
  1e16,
  1e17,
  1e18,
  1e19,
  1e20,
  1e21,
  1e22,
);

/**
 * Parses a decimal number from bytes. Plain forms (`-12.5`, `3e-2`, up to 15 significant
 * digits) take Clinger's fast path, exact because mantissa and power of ten are both exact
 * doubles and one IEEE division or multiplication rounds correctly; anything else goes to
 * `Number()`. Returns NaN for text that is not a number.
 */
export function parseNumberBytes(buf: Uint8Array, start: number, end: number): number {
  let i = start;
  let neg = false;
  if (i < end && (buf[i] === 45 || buf[i] === 43)) neg = buf[i++] === 45;
  let mant = 0;
  let digits = 0;
  let sig = 0;
  let exp = 0;
  let c = 0;
  while (i < end && (c = buf[i] - 48) >= 0 && c <= 9) {
    mant = mant * 10 + c;
    if (mant > 0) sig++;
    digits++;
    i++;
  }
  if (i < end && buf[i] === 46) {
    i++;
    while (i < end && (c = buf[i] - 48) >= 0 && c <= 9) {
      mant = mant * 10 + c;
      if (mant > 0) sig++;
      exp--;
      digits++;
      i++;
    }
  }
  if (digits > 0 && i < end && (buf[i] === 101 || buf[i] === 69)) {
    i++;
    let eneg = false;
    if (i < end && (buf[i] === 45 || buf[i] === 43)) eneg = buf[i++] === 45;
    let e = 0;
    let ed = 0;
    while (i < end && (c = buf[i] - 48) >= 0 && c <= 9 && ed < 6) {
      e = e * 10 + c;
      ed++;
      i++;
    }
    if (ed === 0) i = -1; // "1e" is not a number
    exp += eneg ? -e : e;
  }
  if (i === end && digits > 0 && sig <= 15 && exp >= -22 && exp <= 22) {
    const v = exp < 0 ? mant / POW10[-exp] : mant * POW10[exp];
    return neg ? -v : v;
  }
  if (end - start === 0) return NaN;
  let s = "";
  for (let k = start; k < end; k++) s += String.fromCharCode(buf[k]);
  return Number(s);
}

// ---------------------------------------------------------------- qrels

const PACK_CHUNK = 1 << 20; // judgment records live in 1 MiB chunks (never copied on growth)
/** Streaming qrels: pool chunks in use before the oldest one is evicted to the stash. */
const POOL_CHUNKS = 8;
/** Streaming qrels: how far (packed bytes) the qrels may read ahead looking for a query. */
const LOOKAHEAD_BYTES = 3 << 20;
/** Lines per call of the qrels parser's hot loop (see `parseQrelsLines`). */
const QRELS_BATCH_LINES = 4096;
/** Lines per call of the run parser's hot loop (see `parseRunLines`). */
const RUN_BATCH_LINES = 4096;
/** A consumed query's list: `[CONSUMED]`. */
const CONSUMED = -1;

/**
 * Judgments packed as variable-length records `[len][hash][docno bytes][rel]` in 1 MiB
 * chunks: 6 bytes plus the docno per judgment, written once (the hash, `hashBytes` of the
 * docno in 4 bytes little-endian, is computed while the docno is copied, so judging does
 * not read the docno twice). Fresh memory is what costs on a small VM (each new page faults
 * in), so the qrels keep no copy of the file and no columns. A docno of 255+ bytes has its
 * length as `[255][len hi][len lo]`; a relevance outside -127..127 is stored as
 * `[0x80][4 bytes little-endian]`.
 */
class PackedJudgments {
  chunks: Uint8Array[] = [];
  chunk: Uint8Array = new Uint8Array(0);
  pos = 0;
  count = 0;
  /** The index of the chunk being written. */
  current = -1;
  /** Chunk size and pool size (see `QrelsReadOptions.store`). */
  chunkSize = PACK_CHUNK;
  poolMax = POOL_CHUNKS;
  /**
   * Streaming mode (`QrelsIndex.open`): chunks whose queries the run has consumed are
   * reused, and when all `POOL_CHUNKS` are in use the oldest one's live records are moved
   * to append-only stash chunks. Off: every chunk is kept (a whole-file index).
   */
  recycle = false;
  /** Per chunk: open ranges of unconsumed queries in it (recycling only). */
  private live: number[] = [];
  /** Per chunk: the query lists with a range in it (recycling only). */
  private owners: number[][][] = [];
  /** Per chunk: 1 for stash chunks (never reused). */
  private stash: number[] = [];
  /** Per chunk: bumped on reuse, so stale entries of `fifo` are skipped. */
  private generation: number[] = [];
  private free: number[] = [];
  /** Pool chunks in fill order, `[chunk, generation]` pairs (oldest first, lazily pruned). */
  private fifo: number[] = [];
  private fifoHead = 0;
  private poolSize = 0;
  private stashChunk = -1;
  private stashPos = 0;
  /** Bytes written to pool chunks before the current one, and bytes since released. */
  private written = 0;
  private released = 0;

  /** Bytes of unconsumed records in pool chunks (how far the qrels read ahead of the run). */
  get liveBytes(): number {
    return this.written + this.pos - this.released;
  }

  /** Starts a new chunk big enough for `need` bytes (rare path). */
  grow(need: number): void {
    const old = this.current;
    if (old >= 0 && this.stash[old] === 0) {
      this.written += this.pos;
      if (this.recycle && this.live[old] === 0) this.release(old);
    }
    let c = -1;
    if (this.recycle && need <= this.chunkSize) {
      c = this.free.pop() ?? -1;
      if (c < 0 && this.poolSize >= this.poolMax) c = this.evictOldest();
    }
    if (c < 0) {
      const size = Math.max(this.chunkSize, need);
      c = this.chunks.length;
      this.chunks.push(
        new Uint8Array(size),
      );
      this.live.push(0);
      this.owners.push([]);
      this.stash.push(0);
      this.generation.push(0);
      this.poolSize++;
    }
    this.current = c;
    this.chunk = this.chunks[c];
    this.pos = 0;
    if (this.recycle) this.fifo.push(c, this.generation[c]);
  }

  /** Records that query list `ranges` opened a range in the current chunk. */
  opened(ranges: number[]): void {
    if (!this.recycle) return;
    this.live[this.current]++;
    this.owners[this.current].push(ranges);
  }

  /** Releases a consumed query's records (its list is cleared to `[CONSUMED]`). */
  consume(ranges: number[]): void {
    for (let t = 1; t < ranges.length; t += 3) {
      const c = ranges[t];
      if (this.stash[c] === 1) continue;
      this.released += ranges[t + 2] - ranges[t + 1];
      if (--this.live[c] === 0 && c !== this.current) this.release(c);
    }
    ranges.length = 1;
    ranges[0] = CONSUMED;
  }

  private release(c: number): void {
    this.live[c] = 0;
    this.owners[c] = [];
    this.generation[c]++;
    this.free.push(c);
  }

  /** Moves the live records of the oldest pool chunk to the stash; returns the freed chunk. */
  private evictOldest(): number {
    const fifo = this.fifo;
    while (this.fifoHead < fifo.length) {
      const c = fifo[this.fifoHead], gen = fifo[this.fifoHead + 1];
      this.fifoHead += 2;
      if (gen !== this.generation[c] || c === this.current) continue;
      for (const ranges of this.owners[c]) {
        if (ranges[0] === CONSUMED) continue;
        for (let t = 1; t < ranges.length; t += 3) {
          if (ranges[t] !== c) continue;
          const s = ranges[t + 1], e = ranges[t + 2];
          ranges[t + 1] = this.toStash(this.chunks[c], s, e);
          ranges[t] = this.stashChunk;
          ranges[t + 2] = this.stashPos;
          this.released += e - s;
        }
      }
      if (this.fifoHead > 4096) {
        this.fifo = this.fifo.slice(this.fifoHead);
        this.fifoHead = 0;
      }
      this.live[c] = 0;
      this.owners[c] = [];
      this.generation[c]++;
      return c;
    }
    return -1;
  }

  /** Appends `from[s, e)` to the stash; returns where it starts in `stashChunk`. */
  private toStash(from: Uint8Array, s: number, e: number): number {
    const n = e - s;
    if (this.stashChunk < 0 || this.stashPos + n > this.chunks[this.stashChunk].length) {
      this.stashChunk = this.chunks.length;
      this.chunks.push(new Uint8Array(Math.max(this.chunkSize, n)));
      this.live.push(0);
      this.owners.push([]);
      this.stash.push(1);
      this.generation.push(0);
      this.stashPos = 0;
    }
    const at = this.stashPos;
    this.chunks[this.stashChunk].set(from.subarray(s, e), at);
    this.stashPos += n;
    return at;
  }
}

/** Options of `QrelsIndex.read` and `QrelsIndex.open`. */
export interface QrelsReadOptions {
  /** Read buffer size in bytes (default 4 MiB). */
  chunkBytes?: number;
  /** Tolerant mode: skip malformed lines, counting them here. */
  skip?: SkippedLines;
  /**
   * Tuning of the record store (tests use tiny values to cross its edges): chunk size in
   * bytes (default 1 MiB), chunks reused in streaming mode before the oldest is evicted
   * (default 8), and how far streaming may read ahead for a query (default 3 MiB).
   */
  store?: { chunkBytes?: number; poolChunks?: number; lookaheadBytes?: number };
}

/**
 * Thrown in streaming mode when a query's judgments continue after the run consumed them
 * (qrels not grouped by query): the caller reads the qrels whole instead.
 */
export class QrelsReopened extends Error {
  constructor(readonly qid: string) {
    super(`qrels query ${qid} continues after the run consumed it`);
  }
}

/** What the qrels parser carries from chunk to chunk. */
interface QrelsState {
  index: QrelsIndex;
  packed: PackedJudgments;
  file: string;
  line: number;
  /** The open query's ranges: flat [chunk, start, end] triples. */
  cur: number[];
  /** The query whose lines are being read (its judgments may continue in the next chunk). */
  openQid: string | undefined;
  curQid: Uint8Array;
  curQidLen: number;
  fields: LineFields;
  /** Tolerant mode: malformed lines are counted here instead of failing. */
  skip?: SkippedLines;
}

/**
 * End of a field of printable ASCII from `k` (the first byte <= 32 or >= 128): the fast
 * paths stop at any other byte and leave the line to the general scanner.
 */
function asciiFieldEnd(buf: Uint8Array, k: number): number {
  let c = 0;
  while ((c = buf[k]) > 32 && c < 128) k++;
  return k;
}

/** Whether a byte separates fields on the fast paths (space or tab). */
function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}

/** End of a run of spaces and tabs from `k`. */
function blankEnd(buf: Uint8Array, k: number): number {
  let c = 0;
  while ((c = buf[k]) === 32 || c === 9) k++;
  return k;
}

/** Parses whole qrels lines in `buf[i, end)` (see {@link parseQrelsLines}). */
function parseQrelsSlice(buf: Uint8Array, i: number, end: number, st: QrelsState): void {
  while (i < end) i = parseQrelsLines(buf, i, end, st);
}

/**
 * The hot loop of qrels reading: one pass over up to `QRELS_BATCH_LINES` whole lines from
 * `buf[i]`; returns where it stopped. Batches keep V8 from compiling the loop on-stack
 * (OSR), whose code for this loop deoptimized on every inner-loop exit (14,000 times on
 * the 100k benchmark); a function called many times gets regular optimized code.
 */
function parseQrelsLines(buf: Uint8Array, i: number, end: number, st: QrelsState): number {
  const file = st.file, packed = st.packed;
  let line = st.line;
  let chunk = packed.chunk, pos = packed.pos;
  const lf = st.fields;
  const f = lf.fields;
  // The open query stays in locals; `added` records since its counts were last stored
  // (stored inline, not by a closure, which would move `pos` out of a register).
  let cur = st.cur, curQid = st.curQid, curQidLen = st.curQidLen, added = 0;
  const stop = line + QRELS_BATCH_LINES;
  while (i < end && line < stop) {
    line++;
    const lineStart = i;
    // Fast path, the usual line: four fields of printable ASCII separated by spaces or
    // tabs, then the newline, with a relevance of 1-9 digits; any other line is scanned
    // again by the general path, which decides. `buf[end]` is a newline (sentinel).
    let qs = i;
    let k = asciiFieldEnd(buf, qs);
    let qe = k;
    let ok = qe > qs && buf[qs] !== 35 && isBlank(buf[k]);
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
    c = buf[k];
    if (ok && c === 10) {
      i = k + 1;
      if (neg) rel = -rel;
    } else {
      const eol = scanLine(buf, i, end, lf);
      i = eol + 1;
      if (lf.n === 0) continue;
      qs = f[0];
      qe = f[1];
      ds = f[4];
      de = f[5];
      const rs = f[6], re = f[7];
      const skip = st.skip;
      const problem = lineProblem(buf, lineStart, eol, lf, 4, true, "qid iter docno relevance");
      if (problem && rejectLine(skip, problem, file, line)) continue;
      // Relevance: up to 9 digits with an optional sign inline; anything else (errors,
      // large values) through parseRelevanceBytes.
      rel = 0;
      k = rs;
      const minus = buf[k] === 45;
      if (minus || buf[k] === 43) k++;
      let small = k < re && re - k <= 9;
      for (; small && k < re; k++) {
        const d = buf[k] - 48;
        if (d < 0 || d > 9) small = false;
        else rel = rel * 10 + d;
      }
      if (!small) {
        try {
          rel = parseRelevanceBytes(buf, rs, re, file, line);
        } catch (e) {
          if (e instanceof KitError && rejectLine(skip, e.problem, file, line)) continue;
          throw e;
        }
      } else if (minus) rel = -rel;
    }
    // The record, in the current chunk (a new one when it does not fit).
    const len = de - ds;
    const need = len + 12;
    let newRange = false;
    if (pos + need > chunk.length) {
      if (added > 0) {
        // Only when records were added: after a new chunk, `pos` is in another chunk.
        cur[cur.length - 1] = pos;
        cur[0] += added;
        packed.count += added;
        added = 0;
      }
      packed.pos = pos;
      packed.grow(need);
      chunk = packed.chunk;
      pos = 0;
      newRange = true;
    }
    let same = qe - qs === curQidLen;
    for (let q = 0; same && q < curQidLen; q++) same = curQid[q] === buf[qs + q];
    if (!same) {
      if (added > 0) {
        // Only when records were added: after a new chunk, `pos` is in another chunk.
        cur[cur.length - 1] = pos;
        cur[0] += added;
        packed.count += added;
        added = 0;
      }
      st.openQid = decodeField(buf, qs, qe, { file, line });
      cur = st.index.openQuery(st.openQid, packed.current, pos);
      if (qe - qs > curQid.length) curQid = new Uint8Array(2 * (qe - qs));
      for (let q = qs; q < qe; q++) curQid[q - qs] = buf[q];
      curQidLen = qe - qs;
      // A new list is made with its first range (here); a reopened one needs a new range.
      newRange = !st.index.openedNew;
      if (!newRange) packed.opened(cur);
    }
    if (newRange) {
      cur.push(packed.current, pos, pos);
      packed.opened(cur);
    }
    if (len < 255) chunk[pos++] = len;
    else {
      chunk[pos++] = 255;
      chunk[pos++] = len >> 8;
      chunk[pos++] = len & 255;
      if (len > 65535) fail("docno longer than 65,535 bytes", { file, line });
    }
    // The docno's hash (hashBytes) goes before it, computed as its bytes are copied.
    const hashAt = pos;
    pos += 4;
    let h = 0x811c9dc5;
    for (let b = ds; b < de; b++) {
      const x = buf[b];
      chunk[pos++] = x;
      h = Math.imul(h ^ x, 0x01000193);
    }
    chunk[hashAt] = h & 255;
    chunk[hashAt + 1] = (h >> 8) & 255;
    chunk[hashAt + 2] = (h >> 16) & 255;
    chunk[hashAt + 3] = (h >>> 24) & 255;
    if (rel > -128 && rel < 128) chunk[pos++] = rel & 255;
    else {
      chunk[pos++] = 0x80;
      chunk[pos++] = rel & 255;
      chunk[pos++] = (rel >> 8) & 255;
      chunk[pos++] = (rel >> 16) & 255;
      chunk[pos++] = (rel >> 24) & 255;
    }
    added++;
  }
  if (added > 0) {
    cur[cur.length - 1] = pos;
    cur[0] += added;
    packed.count += added;
  }
  st.cur = cur;
  st.curQid = curQid;
  st.curQidLen = curQidLen;
  packed.pos = pos;
  st.line = line;
  return i;
}

/**
 * Qrels held compactly (see `PackedJudgments`), with per query the ranges of its records.
 * Reading streams the file through one reused buffer and validates every line (exactly 4
 * fields, an integer relevance, UTF-8); a query's hash table is built when the run reaches it.
 */
export class QrelsIndex {
  readonly file: string;
  private packed = new PackedJudgments();
  /** qid -> [count, chunk, start, end, chunk, start, end, ...] (see openQuery). */
  private segments = new Map<string, number[]>();
  private source: ByteSource;

  private constructor(source: ByteSource) {
    this.source = source;
    this.file = byteSourceName(source);
  }

  /**
   * Reads and validates a qrels file (path, `-`, or bytes).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { QrelsIndex } from "./trec_bytes.ts";
   * const bytes = new TextEncoder().encode("q1 0 d1 1\nq1 0 d2 0\n");
   * const idx = await QrelsIndex.read({ name: "q.txt", bytes });
   * assert.equal(idx.judgments("q1")!.get("d1"), 1);
   * ```
   */
  static async read(
    source: ByteSource,
    options: QrelsReadOptions = {},
  ): Promise<QrelsIndex> {
    const idx = QrelsIndex.start(source, options);
    while (!idx.ended) await idx.advance();
    return idx;
  }

  /**
   * Opens a qrels file for streaming evaluation: it is read on demand, as far as the run
   * needs (`ensure`), and records of queries the run has consumed (`consume`) are
   * reused, so memory stays bounded when the run and the qrels list queries in about the
   * same order (the usual case); other orders still work, reading ahead as needed. A
   * query's list must not be reopened after it was consumed (`QrelsReopened`).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { QrelsIndex } from "./trec_bytes.ts";
   * const bytes = new TextEncoder().encode("q1 0 d1 1\nq2 0 d2 0\n");
   * const idx = await QrelsIndex.open({ name: "q.txt", bytes });
   * assert.equal(await idx.ensure("q2"), true);
   * assert.equal(await idx.ensure("q3"), false);
   * ```
   */
  static async open(source: ByteSource, options: QrelsReadOptions = {}): Promise<QrelsIndex> {
    const idx = QrelsIndex.start(source, options);
    idx.packed.recycle = true;
    idx.streaming = true;
    await idx.advance();
    return idx;
  }

  private static start(source: ByteSource, options: QrelsReadOptions): QrelsIndex {
    const idx = new QrelsIndex(source);
    idx.packed.chunkSize = options.store?.chunkBytes ?? PACK_CHUNK;
    idx.packed.poolMax = options.store?.poolChunks ?? POOL_CHUNKS;
    idx.lookahead = options.store?.lookaheadBytes ?? LOOKAHEAD_BYTES;
    idx.packed.grow(0);
    idx.state = {
      index: idx,
      packed: idx.packed,
      file: idx.file,
      line: 0,
      cur: [],
      curQid: new Uint8Array(64),
      curQidLen: -1,
      openQid: undefined,
      fields: { fields: new Int32Array(12), n: 0, high: false },
      skip: options.skip,
    };
    idx.reader = lineChunks(source, options.chunkBytes);
    return idx;
  }

  private state?: QrelsState;
  private reader?: AsyncGenerator<{ buf: Uint8Array; start: number; end: number }>;
  private lookahead = LOOKAHEAD_BYTES;
  /** Opened with `open`: consumed queries release their records. */
  private streaming = false;
  /** Whether the whole file has been read. */
  ended = false;

  /** Reads and parses the next chunk of the file. */
  async advance(): Promise<void> {
    if (this.ended) return;
    const st = this.state!;
    const next = await this.reader!.next();
    if (!next.done) {
      parseQrelsSlice(next.value.buf, next.value.start, next.value.end, st);
      return;
    }
    this.ended = true;
    st.openQid = undefined;
    if (this.packed.count === 0) {
      fail("qrels file has no judgments (empty file?)", { file: this.file });
    }
  }

  /** Whether a query's judgments are all read (or the file ended without it). */
  settled(qid: string): boolean {
    return this.ended || (this.segments.has(qid) && this.state!.openQid !== qid);
  }

  /**
   * Reads on until the query's judgments are all read; returns whether the qrels judge it.
   * False before the end of the file means it was not found within the read-ahead limit
   * (streaming mode): ask again after `readAll`.
   */
  async ensure(qid: string): Promise<boolean> {
    for (;;) {
      const has = this.segments.has(qid);
      if (has && (this.ended || this.state!.openQid !== qid)) return true;
      if (this.ended) return false;
      if (!has && this.packed.recycle && this.packed.liveBytes >= this.lookahead) return false;
      await this.advance();
    }
  }

  /** Reads the rest of the file, keeping every record not yet consumed. */
  async readAll(): Promise<void> {
    this.packed.recycle = false;
    while (!this.ended) await this.advance();
  }

  /**
   * Streaming mode: the run is done with this query; its records may be reused. `ranges`:
   * its list when the caller has it (`BlockJudge.ranges`), saving a lookup.
   */
  consume(qid: string, ranges = this.segments.get(qid)): void {
    if (!this.streaming) return; // a whole index may be evaluated against again
    if (ranges && ranges[0] !== CONSUMED) this.packed.consume(ranges);
  }

  /**
   * Opens (or reopens, for ungrouped qrels) a query's list: `[count, chunk, start, end, ...]`,
   * the number of its judgments, then [chunk, start, end) ranges of its records.
   */
  openQuery(qid: string, chunk = -1, pos = 0): number[] {
    let cur = this.segments.get(qid);
    this.openedNew = !cur;
    // A new query's list is made with its first range when one is given (no regrowth).
    if (!cur) this.segments.set(qid, cur = chunk < 0 ? [0] : [0, chunk, pos, pos]);
    else if (cur[0] === CONSUMED) throw new QrelsReopened(qid);
    return cur;
  }

  /** Whether the last `openQuery` made a new list. */
  openedNew = false;

  /** A query's list (see {@link openQuery}), or undefined. */
  rangesOf(qid: string): number[] | undefined {
    return this.segments.get(qid);
  }

  /** The packed records (for the judgment tables). */
  records(): Uint8Array[] {
    return this.packed.chunks;
  }

  /** Reports a duplicate judgment, locating its line in the file when it can. */
  duplicate(qid: string, docno: string): never {
    return fail(`duplicate judgment for query ${qid}, document ${docno}`, {
      file: this.file,
      line: this.source !== "-" ? lineOfJudgment(this.source, qid, docno) : undefined,
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

  /**
   * A query's judgments judged against no retrieved document (duplicates checked): its
   * relevant count for `level`, its ideal gains, and every judgment. Undefined when the qrels
   * do not judge the query. Valid until `judge` is used again.
   */
  digest(qid: string, level: number, judge = new BlockJudge()): BlockJudge | undefined {
    return judge.judge(emptyBlock(qid), this, level, this.file) ? judge : undefined;
  }

  /** The judgments of one query (docno to relevance), or undefined. */
  judgments(qid: string): Map<string, number> | undefined {
    return this.digest(qid, 1)?.judgedOnly(this);
  }

  /** Materializes every query's judgments. */
  toQrels(): Map<string, Map<string, number>> {
    const q = new Map<string, Map<string, number>>();
    for (const qid of this.segments.keys()) q.set(qid, this.judgments(qid)!);
    return q;
  }
}

/** The line of a (second) judgment of a query and docno, for error messages. */
function lineOfJudgment(source: TextSource, qid: string, docno: string): number | undefined {
  let text: string;
  try {
    text = new TextDecoder().decode(
      typeof source === "string" ? Deno.readFileSync(source) : source.bytes,
    );
  } catch {
    return undefined;
  }
  let seen = 0;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const f = lines[i].trim().split(/\s+/);
    if (f.length === 4 && f[0] === qid && f[2] === docno && ++seen === 2) return i + 1;
  }
  return undefined;
}

function parseRelevanceBytes(
  buf: Uint8Array,
  s: number,
  e: number,
  file: string,
  line: number,
): number {
  let i = s;
  let neg = false;
  if (i < e && (buf[i] === 45 || buf[i] === 43)) neg = buf[i++] === 45;
  let v = 0;
  const digits = e - i;
  for (; i < e; i++) {
    const d = buf[i] - 48;
    if (d < 0 || d > 9) break;
    v = v * 10 + d;
  }
  if (i !== e || digits === 0) {
    const where = { file, line };
    fail(
      `relevance '${
        decodeField(buf, s, e, where)
      }' is not an integer (expected: qid iter docno relevance)`,
      where,
    );
  }
  if (digits > 9 && v > 0x7fffffff) {
    fail(`relevance '${decodeField(buf, s, e, { file, line })}' is out of range`, { file, line });
  }
  return neg ? -v : v;
}

/**
 * The read buffer size for a source: `wanted`, but no more than the data (plus room to
 * detect its end), so reading a small file does not allocate megabytes.
 */
async function bufferSize(source: ByteSource, wanted: number): Promise<number> {
  let size = Infinity;
  if (typeof source !== "string") size = source.bytes.length;
  else if (source !== "-") {
    try {
      size = (await Deno.stat(source)).size;
    } catch { /* openBytes reports it */ }
  }
  return Math.max(64, Math.min(wanted, size + 16));
}

/** Reads into `buf[len..]` until it is full or the source ends; returns the new length. */
async function fill(read: ByteReader, buf: Uint8Array, len: number): Promise<[number, boolean]> {
  while (len < buf.length) {
    const n = await read(buf.subarray(len));
    if (n === 0) return [len, true];
    len += n;
  }
  return [len, false];
}

/**
 * Streams a source as chunks of whole lines through one reused buffer (`end` is the last
 * newline, or the end of the data for the final chunk), the BOM skipped.
 */
async function* lineChunks(
  source: ByteSource,
  chunkBytes = 1 << 22,
): AsyncGenerator<{ buf: Uint8Array; start: number; end: number }> {
  const { read } = await openBytes(source);
  let buf = new Uint8Array(await bufferSize(source, chunkBytes));
  let len = 0;
  let first = true;
  let start = 0; // 3 while a BOM at the very start of the data is still in the buffer
  for (;;) {
    const [got, eof] = await fill(read, buf, len);
    len = got;
    if (first && len >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) start = 3;
    first = false;
    if (eof) {
      // The parsers' sentinel: a newline after the data.
      if (len === buf.length) {
        const b = new Uint8Array(len + 1);
        b.set(buf);
        buf = b;
      }
      buf[len] = 10;
      if (len > start) yield { buf, start, end: len };
      return;
    }
    const last = buf.lastIndexOf(10, len - 1);
    if (last < start) {
      // One line longer than the buffer: grow it.
      const b = new Uint8Array(buf.length * 2);
      b.set(buf);
      buf = b;
      continue;
    }
    yield { buf, start, end: last };
    buf.copyWithin(0, last + 1, len);
    len -= last + 1;
    start = 0;
  }
}

// ---------------------------------------------------------------- runs

/**
 * One query's block of consecutive run lines, as byte ranges into `buf` (valid until the
 * next block is requested).
 */
export interface ByteRunBlock {
  buf: Uint8Array;
  qid: string;
  /** The block is entries `[first, first + count)` of the columns below. */
  first: number;
  count: number;
  docStart: Int32Array;
  docEnd: Int32Array;
  /** FNV-1a hash of each docno (`hashBytes`, computed while parsing). */
  hash: Int32Array;
  score: Float64Array;
  line: Int32Array;
  /**
   * When ranked ahead (the run-parsing worker does it): trec_eval order of the block,
   * positions 0..count-1 at `[first, first + count)`.
   */
  order?: Int32Array;
  /**
   * Where the block's lines are in the file or bytes, `[at, at + bytes)`, to read them again
   * (`readBlockAt`); undefined for gzip and standard input.
   */
  at?: number;
  bytes?: number;
}

/** The lines of one run chunk, parsed into columns, with where each query block starts. */
export class RunLines {
  n = 0;
  docS: Int32Array;
  docE: Int32Array;
  hash: Int32Array;
  score: Float64Array;
  line: Int32Array;
  /** Ranked ahead (shared columns only, filled by the run-parsing worker). */
  order?: Int32Array;
  /** Per block: index of its first line in the columns, byte offset and line number of it. */
  blocks = 0;
  blockFirst: Int32Array;
  blockByte: Int32Array;
  blockLine: Int32Array;
  blockQid: string[] = [];
  runIdS = -1;
  runIdE = -1;
  runIdLine = 0;
  /** Where `buf[0]` is in the data, for blocks' positions; -1 when it cannot be read again. */
  offset = 0;
  /** Parser state between batches: the open block's query id bytes, the last line number. */
  qidS = -1;
  qidE = -1;
  lineNo = 0;
  fields: LineFields = { fields: new Int32Array(12), n: 0, high: false };
  constructor(cap: number, shared = false) {
    const mem = (bytes: number) => shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
    this.docS = new Int32Array(mem(4 * cap));
    this.docE = new Int32Array(mem(4 * cap));
    this.hash = new Int32Array(mem(4 * cap));
    this.score = new Float64Array(mem(8 * cap));
    this.line = new Int32Array(mem(4 * cap));
    if (shared) this.order = new Int32Array(mem(4 * cap));
    this.blockFirst = new Int32Array(cap + 1);
    this.blockByte = new Int32Array(cap + 1);
    this.blockLine = new Int32Array(cap + 1);
  }
}

/**
 * Parses whole run lines in `buf[start, end)` into `out` in one pass over the bytes (a
 * synchronous hot loop): at least 6 fields, a finite score, UTF-8 where bytes >= 0x80; a
 * new block starts where the query id changes. `out` has room for every line (a result
 * line is at least 12 bytes).
 */
function parseRunChunk(
  buf: Uint8Array,
  start: number,
  end: number,
  firstLine: number,
  file: string,
  out: RunLines,
  skip?: SkippedLines,
): void {
  out.blockQid.length = 0;
  out.n = 0;
  out.blocks = 0;
  out.qidS = out.qidE = -1;
  out.runIdLine = 0;
  out.lineNo = firstLine - 1;
  let i = start;
  while (i < end) i = parseRunLines(buf, i, end, file, out, skip);
  out.blockFirst[out.blocks] = out.n;
}

/**
 * The hot loop of run reading: up to `RUN_BATCH_LINES` whole lines from `buf[i]` into
 * `out`'s columns; returns where it stopped. Batches let V8 optimize the function as
 * called (not on-stack), so its numbers stay unboxed from early on: the on-stack-replaced
 * loop allocated a heap number per score and hash for the first part of every chunk.
 */
function parseRunLines(
  buf: Uint8Array,
  i: number,
  end: number,
  file: string,
  out: RunLines,
  skip?: SkippedLines,
): number {
  let line = out.lineNo;
  let qidS = out.qidS, qidE = out.qidE;
  // Counters and the last line's runid stay in locals in the hot loop (stored at the end).
  let n = out.n, blocks = out.blocks;
  let runIdS = out.runIdS, runIdE = out.runIdE, runIdLine = out.runIdLine;
  const blockFirst = out.blockFirst, blockByte = out.blockByte, blockLine = out.blockLine;
  const docS = out.docS, docE = out.docE, hash = out.hash, score = out.score;
  const lines = out.line;
  const lf = out.fields;
  const f = lf.fields;
  const stop = line + RUN_BATCH_LINES;
  while (i < end && line < stop) {
    line++;
    const lineStart = i;
    // Fast path, the usual line: six fields of printable ASCII separated by spaces or tabs,
    // then the newline, with a plain decimal score; parsed in one pass with no call. Any
    // other line (comments, CR, other whitespace, UTF-8, more fields, errors) is scanned
    // again by the general path below, which decides. `buf[end]` is a newline (sentinel).
    let f0s = i;
    let k = asciiFieldEnd(buf, f0s);
    let f0e = k;
    let ok = f0e > f0s && buf[f0s] !== 35 && isBlank(buf[k]);
    let f2s = blankEnd(buf, asciiFieldEnd(buf, blankEnd(buf, k))); // Q0, then the docno
    ok = ok && isBlank(buf[f2s - 1]);
    let c = 0;
    let h = 0x811c9dc5; // the docno's hash (hashBytes), while its bytes pass by
    k = f2s;
    while ((c = buf[k]) > 32 && c < 128) {
      h = Math.imul(h ^ c, 0x01000193);
      k++;
    }
    let f2e = k;
    ok = ok && k > f2s && isBlank(c);
    const rankStart = blankEnd(buf, k);
    k = blankEnd(buf, asciiFieldEnd(buf, rankStart));
    ok = ok && k > rankStart && isBlank(buf[k - 1]);
    c = buf[k];
    let mant = 0, digits = 0, scale = 0;
    const neg = c === 45;
    if (neg) k++;
    while ((c = buf[k] - 48) >= 0 && c <= 9) {
      mant = mant * 10 + c;
      digits++;
      k++;
    }
    if (buf[k] === 46) {
      k++;
      while ((c = buf[k] - 48) >= 0 && c <= 9) {
        mant = mant * 10 + c;
        digits++;
        scale++;
        k++;
      }
    }
    c = buf[k];
    // The score goes straight into its column (row n, overwritten if the line is not
    // taken): a variable holding it across the paths below made V8 box it, a heap number
    // per line. Exact (Clinger): at most 15 digits, so mantissa and 10^scale are exact.
    const plainScore = ok && digits > 0 && digits <= 15 && isBlank(c);
    score[n] = (neg ? -mant : mant) / POW10[scale];
    let f5s = blankEnd(buf, k);
    k = asciiFieldEnd(buf, f5s);
    let f5e = k;
    ok = ok && k > f5s;
    k = blankEnd(buf, k);
    c = buf[k];
    if (ok && c === 10 && plainScore) {
      i = k + 1;
    } else {
      const eol = scanLine(buf, i, end, lf);
      i = eol + 1;
      if (lf.n === 0) continue;
      f0s = f[0];
      f0e = f[1];
      f2s = f[4];
      f2e = f[5];
      h = hashBytes(buf, f2s, f2e);
      f5s = f[10];
      f5e = f[11];
      const problem = lineProblem(
        buf,
        lineStart,
        eol,
        lf,
        6,
        false,
        "qid Q0 docno rank score runid",
      );
      if (problem && rejectLine(skip, problem, file, line)) continue;
      const v = parseNumberBytes(buf, f[8], f[9]);
      score[n] = v;
      if (!Number.isFinite(v)) {
        const problem = `score '${decodeField(buf, f[8], f[9], { file, line })}' is not a ` +
          "finite number (expected: qid Q0 docno rank score runid)";
        if (rejectLine(skip, problem, file, line)) continue;
      }
    }
    if (qidS < 0 || !equalBytes(buf, f0s, f0e, buf, qidS, qidE)) {
      const b = blocks++;
      blockFirst[b] = n;
      blockByte[b] = lineStart;
      blockLine[b] = line;
      out.blockQid.push(decodeField(buf, f0s, f0e, { file, line }));
      qidS = f0s;
      qidE = f0e;
    }
    docS[n] = f2s;
    docE[n] = f2e;
    hash[n] = h;
    lines[n] = line;
    n++;
    runIdS = f5s;
    runIdE = f5e;
    runIdLine = line;
  }
  out.n = n;
  out.blocks = blocks;
  out.runIdS = runIdS;
  out.runIdE = runIdE;
  out.runIdLine = runIdLine;
  out.qidS = qidS;
  out.qidE = qidE;
  out.lineNo = line;
  return i;
}

/**
 * Streams a run file as blocks of consecutive lines with the same query id, validating
 * field counts and scores. `onRunId` receives the last line's runid.
 */
export async function* scanRunBlocks(
  source: ByteSource,
  onRunId?: (runId: string) => void,
  chunkBytes = 1 << 22,
  onLines?: (lines: number) => void,
  skip?: SkippedLines,
): AsyncGenerator<ByteRunBlock> {
  for await (const blocks of scanRunChunks(source, onRunId, chunkBytes, onLines, skip)) {
    yield* blocks;
  }
}

/**
 * {@link scanRunBlocks} one read at a time: the complete query blocks of each chunk (valid
 * until the next is requested), so a consumer handles them in a plain loop, with no
 * promise per block.
 */
export async function* scanRunChunks(
  source: ByteSource,
  onRunId?: (runId: string) => void,
  chunkBytes = 1 << 22,
  onLines?: (lines: number) => void,
  skip?: SkippedLines,
): AsyncGenerator<ByteRunBlock[]> {
  // Block objects are reused from chunk to chunk (they are valid until the next one).
  const pool: ByteRunBlock[] = [];
  for await (
    const chunk of readRunChunks(source, { chunkBytes, skip, onRunId, onLines })
  ) {
    const blocks = chunkBlocks(chunk.buf, chunk.lines, chunk.lines.blockQid, chunk.complete, pool);
    if (blocks.length > 0) yield blocks;
  }
}

/** The complete blocks of a parsed chunk, as (reused) block objects. */
export function chunkBlocks(
  buf: Uint8Array,
  lines: RunColumns,
  qids: readonly string[],
  complete: number,
  pool: ByteRunBlock[],
): ByteRunBlock[] {
  const blocks: ByteRunBlock[] = [];
  // Positions only where the data can be read there again (offset -1: gzip, stdin).
  const offset = lines.offset ?? -1, starts = lines.blockByte;
  const seekable = starts !== undefined && offset >= 0;
  for (let b = 0; b < complete; b++) {
    const f = lines.blockFirst[b], t = lines.blockFirst[b + 1];
    const block = pool[b] ??= {
      buf,
      qid: "",
      first: 0,
      count: 0,
      docStart: lines.docS,
      docEnd: lines.docE,
      hash: lines.hash,
      score: lines.score,
      line: lines.line,
    };
    block.buf = buf;
    block.qid = qids[b];
    block.first = f;
    block.count = t - f;
    block.docStart = lines.docS;
    block.docEnd = lines.docE;
    block.hash = lines.hash;
    block.score = lines.score;
    block.line = lines.line;
    block.order = lines.order;
    block.at = seekable ? offset + starts[b] : undefined;
    block.bytes = seekable ? starts[b + 1] - starts[b] : undefined;
    blocks.push(block);
  }
  return blocks;
}

/** The columns of a parsed run chunk (what another thread needs to read its blocks). */
export interface RunColumns {
  docS: Int32Array;
  docE: Int32Array;
  hash: Int32Array;
  score: Float64Array;
  line: Int32Array;
  blockFirst: Int32Array;
  /** Each block's trec_eval order, when ranked ahead (see `ByteRunBlock.order`). */
  order?: Int32Array;
  /** Byte offsets of the blocks in `buf` (one more: where the last one ends). */
  blockByte?: Int32Array;
  /** Where `buf[0]` is in the data (-1: gzip or standard input, not to be read again). */
  offset?: number;
}

/** One parsed read of a run: `complete` whole query blocks in `lines` over `buf`. */
export interface RunChunk {
  /** Which buffer of the ring (see `RunReadOptions.slots`). */
  slot: number;
  buf: Uint8Array;
  lines: RunLines;
  complete: number;
}

/** Options of {@link readRunChunks}. */
export interface RunReadOptions {
  chunkBytes?: number;
  skip?: SkippedLines;
  onRunId?: (runId: string) => void;
  onLines?: (lines: number) => void;
  /**
   * Buffers in a ring (default 1: one buffer, reused as soon as the consumer asks for the
   * next chunk). With more, a chunk stays valid until its slot is acquired again, which
   * waits for `acquire` (another thread may still be reading it).
   */
  slots?: number;
  /** Allocate buffers and columns as SharedArrayBuffers (for another thread). */
  shared?: boolean;
  /** Resolves when the slot may be written again (ring mode). */
  acquire?: (slot: number) => Promise<void>;
}

/** Scratch for {@link readBlockAt}: its buffers and the file it keeps open (close it after). */
export interface BlockScratch {
  buf: Uint8Array;
  lines: RunLines;
  file: Deno.FsFile;
}

/**
 * Reads one query block again from a plain run file or bytes (`b.at`, `b.bytes`, its first
 * line number), parsed as before: held-back blocks keep only where they are, not a copy.
 */
export function readBlockAt(
  source: ByteSource,
  at: number,
  bytes: number,
  firstLine: number,
  scratch: Partial<BlockScratch>,
): ByteRunBlock {
  if (!scratch.buf || scratch.buf.length < bytes + 1) {
    scratch.buf = new Uint8Array(Math.max(bytes + 1, 2 * (scratch.buf?.length ?? 0)));
    scratch.lines = new RunLines((scratch.buf.length >> 3) + 1);
  }
  const buf = scratch.buf, lines = scratch.lines!;
  const file = byteSourceName(source);
  if (typeof source !== "string") buf.set(source.bytes.subarray(at, at + bytes));
  else {
    const f = scratch.file ??= Deno.openSync(source);
    f.seekSync(at, Deno.SeekMode.Start);
    let got = 0;
    while (got < bytes) {
      const n = f.readSync(buf.subarray(got, bytes));
      if (n === null) fail("run file changed while being read", { file });
      got += n;
    }
  }
  buf[bytes] = 10; // the parser's sentinel
  parseRunChunk(buf, 0, bytes, firstLine, file, lines);
  lines.blockByte[lines.blocks] = bytes;
  lines.offset = at;
  return chunkBlocks(buf, lines, lines.blockQid, lines.blocks, [])[0];
}

/**
 * Reads and parses a run file chunk by chunk (the engine of {@link scanRunChunks}): each
 * read is parsed in one pass into columns; the query block still open at the end of a read
 * is carried to the next one.
 */
export async function* readRunChunks(
  source: ByteSource,
  options: RunReadOptions = {},
): AsyncGenerator<RunChunk> {
  const { skip, onRunId, onLines, acquire } = options;
  const slots = options.slots ?? 1;
  const shared = options.shared ?? false;
  const file = byteSourceName(source);
  const { read, gzip } = await openBytes(source);
  // Blocks say where they are only when the data can be read there again (see `at`).
  const seekable = !gzip && source !== "-";
  const alloc = (n: number): Uint8Array =>
    shared ? new Uint8Array(new SharedArrayBuffer(n)) : new Uint8Array(n);
  const bufs: Uint8Array[] = [];
  const lineSets: RunLines[] = [];
  let slot = 0;
  await acquire?.(slot);
  let buf = bufs[slot] = alloc(await bufferSize(source, options.chunkBytes ?? 1 << 22));
  let lines = lineSets[slot] = new RunLines((buf.length >> 3) + 1, shared);
  /** Replaces this slot's buffer with a bigger one holding the same bytes. */
  const grow = (size: number) => {
    const b = alloc(size);
    b.set(buf.subarray(0, Math.min(buf.length, size)));
    bufs[slot] = buf = b;
    lineSets[slot] = lines = new RunLines((buf.length >> 3) + 1, shared);
  };
  let len = 0;
  let line = 1;
  let first = true;
  let start = 0; // 3 while a BOM at the very start of the data is still in the buffer
  let totalLines = 0;
  let runId = "";
  let any = false;
  let offset = 0; // where buf[0] is in the data
  for (;;) {
    const [got, eof] = await fill(read, buf, len);
    len = got;
    if (first && len >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) start = 3;
    first = false;
    // Parse up to the last whole line (all of it at the end of the data).
    const end = eof ? len : buf.lastIndexOf(10, len - 1);
    if (eof) {
      // The parser's sentinel: a newline after the data.
      if (len === buf.length) grow(len + 1);
      buf[len] = 10;
    }
    if (!eof && end < start) {
      grow(buf.length * 2);
      continue;
    }
    parseRunChunk(buf, start, end, line, file, lines, skip);
    if (lines.runIdLine > 0) {
      runId = decodeField(buf, lines.runIdS, lines.runIdE, { file, line: lines.runIdLine });
    }
    if (lines.n > 0) any = true;
    // The last block may continue in the next chunk: keep it unless the data ended.
    const complete = eof ? lines.blocks : lines.blocks - 1;
    lines.offset = seekable ? offset : -1;
    if (eof) lines.blockByte[lines.blocks] = len; // where the last block ends
    if (complete > 0) yield { slot, buf, lines, complete };
    if (eof) {
      totalLines = line - 1 + countNewlines(buf, start, len) +
        (len > start && buf[len - 1] !== 10 ? 1 : 0);
      break;
    }
    // Carry the open block (or, with no block, the skipped lines' count) to the next round.
    let carry: number;
    if (lines.blocks > 0) {
      carry = lines.blockByte[lines.blocks - 1];
      line = lines.blockLine[lines.blocks - 1];
    } else {
      carry = end + 1;
      line += countNewlines(buf, start, end + 1);
    }
    if (carry === start && lines.blocks > 0) {
      // One query block fills the whole buffer: grow it and read on.
      grow(buf.length * 2);
      continue;
    }
    if (slots === 1) buf.copyWithin(0, carry, len);
    else {
      // Ring: the carried bytes go to the start of the next slot's buffer.
      const prev = buf;
      slot = (slot + 1) % slots;
      await acquire?.(slot);
      if (!bufs[slot] || bufs[slot].length !== prev.length) {
        bufs[slot] = alloc(prev.length);
        lineSets[slot] = new RunLines((prev.length >> 3) + 1, shared);
      }
      buf = bufs[slot];
      lines = lineSets[slot];
      buf.set(prev.subarray(carry, len));
    }
    len -= carry;
    offset += carry;
    start = 0;
  }
  if (!any) fail("run file has no result lines (empty file?)", { file });
  onRunId?.(runId);
  onLines?.(totalLines);
}

/**
 * Ranks a block's documents in trec_eval order (score desc, then docno desc by bytes):
 * in-order input is detected in one pass and only tie groups are sorted.
 */
export function rankBlock(
  b: ByteRunBlock,
  scratch?: { order: Int32Array; views?: Int32Array[] },
): Int32Array {
  const n = b.count;
  let order: Int32Array;
  if (scratch) {
    if (scratch.order.length < n) {
      scratch.order = new Int32Array(Math.max(n, 2 * scratch.order.length));
      scratch.views = [];
    }
    scratch.views ??= [];
    order = scratch.views[n] ??= scratch.order.subarray(0, n);
  } else order = new Int32Array(n);
  rankInto(b, order, 0);
  return order;
}

/**
 * {@link rankBlock} into `out[at, at + count)` (the block's positions, 0-based), so a
 * caller can fill one column for a whole chunk (the run-parsing worker does).
 */
export function rankInto(b: ByteRunBlock, out: Int32Array, at: number): void {
  const n = b.count;
  for (let i = 0; i < n; i++) out[at + i] = i;
  // Entries of the block: o + i (`out[at + r]` holds i).
  const o = b.first, s = b.score, buf = b.buf, ds = b.docStart, de = b.docEnd;
  const byDocDesc = (x: number, y: number) =>
    compareBytes(buf, ds[o + y], de[o + y], buf, ds[o + x], de[o + x]);
  let sorted = true;
  for (let i = 1; i < n; i++) {
    if (s[o + i] > s[o + i - 1]) {
      sorted = false;
      break;
    }
  }
  if (!sorted) {
    out.subarray(at, at + n).sort((x, y) => (s[o + y] - s[o + x]) || byDocDesc(x, y));
    return;
  }
  let start = 0;
  while (start < n) {
    let end = start + 1;
    while (end < n && s[o + end] === s[o + start]) end++;
    if (end - start > 16) out.subarray(at + start, at + end).sort(byDocDesc);
    else {
      // Small tie groups (the usual case): insertion sort by docno descending, in place.
      for (let i = start + 1; i < end; i++) {
        const x = out[at + i];
        const xs = ds[o + x], xe = de[o + x];
        let j = i - 1;
        while (
          j >= start &&
          compareBytes(buf, xs, xe, buf, ds[o + out[at + j]], de[o + out[at + j]]) > 0
        ) {
          out[at + j + 1] = out[at + j];
          j--;
        }
        out[at + j + 1] = x;
      }
    }
    start = end;
  }
}

/** A block retrieving nothing (to digest a query's judgments alone). */
function emptyBlock(qid: string): ByteRunBlock {
  const none = new Int32Array(0);
  return {
    buf: new Uint8Array(0),
    qid,
    first: 0,
    count: 0,
    docStart: none,
    docEnd: none,
    hash: none,
    score: new Float64Array(0),
    line: none,
  };
}

/**
 * Judges one query block against the qrels in one hash table: the block's docnos go in first
 * (a docno twice in the block is an error, as in trec_eval), then the query's judgment
 * records are walked once, each either giving its relevance to the retrieved document with
 * the same docno or entering the table as judged-but-not-retrieved (a docno judged twice is an
 * error, as in trec_eval). One table and one hash per docno. The scratch arrays are reused
 * from query to query. `QrelsIndex.digest` runs it on an empty block to read a query's
 * judgments alone.
 */
export class BlockJudge {
  /** >0: retrieved document i + 1; <0: judged-only document -(j + 1). */
  private slots = new Int32Array(256);
  private jChunk = new Int32Array(256);
  private jStart = new Int32Array(256);
  private jEnd = new Int32Array(256);
  private jRel = new Float64Array(256);
  private only = 0;
  private gains = new Float64Array(256);
  /** Relevance of each document of the block, in block order (`UNJUDGED`: no judgment). */
  rels = new Float64Array(256);
  /** Judgments >= the level for the query. */
  numRel = 0;
  /** Every judgment value of the query, highest first (RankedQuery.judged). */
  judged: Float64Array = new Float64Array(0);
  /** Views `gains[0, n)` by n, made once: a view per query is garbage at this scale. */
  private gainViews: Float64Array[] = [];
  /** The judged query's list in the qrels index (see `QrelsIndex.openQuery`). */
  ranges: number[] | undefined;
  /** Scratch for `rankBlock`. */
  order = new Int32Array(256);
  views: Int32Array[] = [];

  /**
   * The judgments of the last judged query that no retrieved document matched, as a Map
   * (docno to relevance): every judgment when the block was empty (`QrelsIndex.digest`).
   */
  judgedOnly(qrels: QrelsIndex): Map<string, number> {
    const chunks = qrels.records();
    const m = new Map<string, number>();
    for (let j = 0; j < this.only; j++) {
      const c = chunks[this.jChunk[j]];
      m.set(
        decodeField(c, this.jStart[j], this.jEnd[j], { file: qrels.file, line: 0 }),
        this.jRel[j],
      );
    }
    return m;
  }

  /** Judges block `b`; returns false when the qrels have no judgment for its query. */
  judge(b: ByteRunBlock, qrels: QrelsIndex, level: number, file: string): boolean {
    const ranges = this.ranges = qrels.rangesOf(b.qid);
    const judged = ranges ? ranges[0] : 0;
    const n = b.count;
    let cap = 8;
    while (cap < 2 * (n + judged)) cap <<= 1;
    // The table keeps the largest size seen; a query uses (and clears) its first `cap` slots.
    if (this.slots.length < cap) this.slots = new Int32Array(cap);
    else this.slots.fill(0, 0, cap);
    if (this.rels.length < n) this.rels = new Float64Array(Math.max(n, 2 * this.rels.length));
    if (this.jStart.length < judged) {
      const m = Math.max(judged, 2 * this.jStart.length);
      this.jChunk = new Int32Array(m);
      this.jStart = new Int32Array(m);
      this.jEnd = new Int32Array(m);
      this.jRel = new Float64Array(m);
      this.gains = new Float64Array(m);
      this.gainViews = [];
    }
    const slots = this.slots, rels = this.rels, mask = cap - 1;
    const o = b.first, buf = b.buf, ds = b.docStart, de = b.docEnd, hash = b.hash;
    for (let i = 0; i < n; i++) {
      let h = hash[o + i] & mask;
      for (;;) {
        const slot = slots[h];
        if (slot === 0) {
          slots[h] = i + 1;
          break;
        }
        const k = o + slot - 1;
        if (equalBytes(buf, ds[k], de[k], buf, ds[o + i], de[o + i])) {
          const where = { file, line: b.line[o + i] };
          fail(
            `duplicate document ${decodeField(buf, ds[o + i], de[o + i], where)} for query ` +
              `${b.qid} ` +
              "(trec_eval rejects this too)",
            where,
          );
        }
        h = (h + 1) & mask;
      }
      rels[i] = UNJUDGED;
    }
    if (!ranges) return false;
    const chunks = qrels.records();
    const jChunk = this.jChunk, jStart = this.jStart, jEnd = this.jEnd, jRel = this.jRel;
    const gains = this.gains;
    let numRel = 0, count = 0, only = 0;
    for (let t = 1; t < ranges.length; t += 3) {
      const ci = ranges[t];
      const c = chunks[ci];
      let p = ranges[t + 1];
      const e = ranges[t + 2];
      while (p < e) {
        let len = c[p++];
        if (len === 255) {
          len = (c[p] << 8) | c[p + 1];
          p += 2;
        }
        const hash = c[p] | (c[p + 1] << 8) | (c[p + 2] << 16) | (c[p + 3] << 24);
        p += 4;
        const s0 = p, e0 = p + len;
        p = e0;
        let rel = c[p++];
        if (rel === 0x80) {
          rel = c[p] | (c[p + 1] << 8) | (c[p + 2] << 16) | (c[p + 3] << 24);
          p += 4;
        } else if (rel > 127) rel -= 256;
        let h = hash & mask;
        for (;;) {
          const slot = slots[h];
          if (slot === 0) {
            slots[h] = -(only + 1);
            jChunk[only] = ci;
            jStart[only] = s0;
            jEnd[only] = e0;
            jRel[only] = rel;
            only++;
            break;
          }
          if (slot > 0) {
            const i = slot - 1;
            if (equalBytes(buf, ds[o + i], de[o + i], c, s0, e0)) {
              if (rels[i] !== UNJUDGED) {
                qrels.duplicate(b.qid, decodeField(c, s0, e0, { file, line: 0 }));
              }
              rels[i] = rel;
              break;
            }
          } else {
            const j = -slot - 1;
            if (equalBytes(chunks[jChunk[j]], jStart[j], jEnd[j], c, s0, e0)) {
              qrels.duplicate(b.qid, decodeField(c, s0, e0, { file, line: 0 }));
            }
          }
          h = (h + 1) & mask;
        }
        if (rel >= level) numRel++;
        gains[count++] = rel;
      }
    }
    this.numRel = numRel;
    this.only = only;
    const values = this.gainViews[count] ??= gains.subarray(0, count);
    values.sort().reverse();
    this.judged = values;
    return true;
  }
}
