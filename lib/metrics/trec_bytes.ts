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
import { sourceName, type TextSource } from "../io/text.ts";

// ---------------------------------------------------------------- byte sources

/** Pulls bytes into a caller's buffer; returns how many (0 at the end). */
export type ByteReader = (into: Uint8Array) => Promise<number>;

async function openRaw(source: TextSource): Promise<ByteReader> {
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
  let file: Deno.FsFile;
  try {
    file = source === "-" ? Deno.stdin as unknown as Deno.FsFile : await Deno.open(source);
    if (source !== "-" && (await file.stat()).isDirectory) {
      file.close();
      throw new KitError("is a folder, expected a file", { file: source });
    }
  } catch (e) {
    if (e instanceof KitError) throw e;
    if (e instanceof Deno.errors.NotFound) throw new KitError("file not found", { file: source });
    throw new KitError(`cannot open: ${(e as Error).message}`, { file: source }, { cause: e });
  }
  let closed = false;
  return async (into) => {
    if (closed) return 0;
    const n = await file.read(into);
    if (n === null) {
      if (source !== "-") file.close();
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

/**
 * Opens a source for byte reading; gzip (by magic bytes) is decompressed on the fly.
 * Returns the reader and the first bytes already read.
 */
export async function openBytes(source: TextSource): Promise<ByteReader> {
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
  if (!isGzip) return withHead;
  const compressed = new ReadableStream<Uint8Array>({
    async pull(c) {
      const buf = new Uint8Array(1 << 20);
      const n = await withHead(buf);
      if (n === 0) c.close();
      else c.enqueue(buf.subarray(0, n));
    },
  });
  return fromStream(
    compressed.pipeThrough(
      new DecompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>,
    ),
    sourceName(source),
  );
}

/** Reads a whole source into one byte array (gzip decompressed). */
export async function readAllBytes(source: TextSource): Promise<Uint8Array> {
  if (typeof source === "string" && source !== "-") {
    try {
      const bytes = await Deno.readFile(source);
      if (!(bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b)) return bytes;
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) throw new KitError("file not found", { file: source });
      if (e instanceof Deno.errors.IsADirectory) {
        throw new KitError("is a folder, expected a file", { file: source });
      }
      throw new KitError(`cannot read: ${(e as Error).message}`, { file: source }, { cause: e });
    }
  }
  const read = await openBytes(source);
  let buf = new Uint8Array(1 << 20);
  let len = 0;
  for (;;) {
    if (len === buf.length) {
      const bigger = new Uint8Array(buf.length * 2);
      bigger.set(buf);
      buf = bigger;
    }
    const n = await read(buf.subarray(len));
    if (n === 0) break;
    len += n;
  }
  return buf.subarray(0, len);
}

// ---------------------------------------------------------------- scanning

/** C isspace(): space, \t, \n, \v, \f, \r. */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/**
 * Splits the line `buf[start, end)` into whitespace-separated fields; writes [start, end)
 * pairs of the first `bounds.length / 2` fields into `bounds` and returns the field count.
 * Returns -1 when the line has a byte >= 0x80 (the caller then checks the UTF-8).
 */
export function splitFieldBytes(
  buf: Uint8Array,
  start: number,
  end: number,
  bounds: Int32Array,
): number {
  let n = 0;
  let i = start;
  let high = 0;
  const max = bounds.length >> 1;
  while (i < end) {
    let c = buf[i];
    while (c === 32 || (c >= 9 && c <= 13)) {
      if (++i >= end) return high & 0x80 ? -1 - n : n;
      c = buf[i];
    }
    const s = i;
    while (i < end && !isSpace(c = buf[i])) {
      high |= c;
      i++;
    }
    if (n < max) {
      bounds[2 * n] = s;
      bounds[2 * n + 1] = i;
    }
    n++;
  }
  return high & 0x80 ? -1 - n : n;
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
    if (end - start < 64) {
      let s = "";
      for (let i = start; i < end; i++) s += String.fromCharCode(buf[i]);
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

/** Checks that `buf[start, end)` is valid UTF-8. */
export function checkUtf8(
  buf: Uint8Array,
  start: number,
  end: number,
  where: { file: string; line: number },
): void {
  try {
    utf8.decode(buf.subarray(start, end));
  } catch {
    fail("invalid UTF-8; expected UTF-8 text", where);
  }
}

/** Whether the line is blank or a `#` comment (both skipped). */
export function isSkippableLine(buf: Uint8Array, start: number, end: number): boolean {
  let i = start;
  while (i < end && isSpace(buf[i])) i++;
  return i >= end || buf[i] === 35;
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

function equalBytes(a: Uint8Array, as: number, ae: number, b: Uint8Array, bs: number, be: number) {
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

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

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

/** One query's judgments as a byte-keyed hash table. */
export class JudgmentTable {
  /** Number of judgments. */
  readonly size: number;
  /** Count of judgments >= the level it was built for. */
  readonly numRel: number;
  /** Positive values, highest first. */
  readonly idealGains: Float64Array;
  private readonly index: QrelsIndex;
  private readonly docs: Uint8Array;
  private readonly docStart: Int32Array;
  private readonly rel: Int32Array;
  private readonly entries: Int32Array;
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(index: QrelsIndex, entries: Int32Array, level: number) {
    this.index = index;
    this.entries = entries;
    this.size = entries.length;
    const { docs, docStart, rel } = index.columns();
    this.docs = docs;
    this.docStart = docStart;
    this.rel = rel;
    let cap = 8;
    while (cap < this.size * 2) cap <<= 1;
    this.slots = new Int32Array(cap);
    this.mask = cap - 1;
    let numRel = 0;
    const gains: number[] = [];
    for (let k = 0; k < this.size; k++) {
      const i = entries[k];
      let h = hashBytes(docs, docStart[i], docStart[i + 1]) & this.mask;
      for (;;) {
        const slot = this.slots[h];
        if (slot === 0) {
          this.slots[h] = k + 1;
          break;
        }
        const j = entries[slot - 1];
        if (equalBytes(docs, docStart[j], docStart[j + 1], docs, docStart[i], docStart[i + 1])) {
          index.duplicate(i);
        }
        h = (h + 1) & this.mask;
      }
      if (rel[i] >= level) numRel++;
      if (rel[i] > 0) gains.push(rel[i]);
    }
    this.numRel = numRel;
    gains.sort((a, b) => b - a);
    this.idealGains = Float64Array.from(gains);
  }

  /** The judgment of the docno `b[s, e)` (whose hash is `hash`), or undefined. */
  lookup(b: Uint8Array, s: number, e: number, hash: number): number | undefined {
    const docs = this.docs, docStart = this.docStart;
    let h = hash & this.mask;
    for (;;) {
      const slot = this.slots[h];
      if (slot === 0) return undefined;
      const i = this.entries[slot - 1];
      if (equalBytes(docs, docStart[i], docStart[i + 1], b, s, e)) return this.rel[i];
      h = (h + 1) & this.mask;
    }
  }

  /** The judgments as a Map (docno to relevance). */
  toMap(): Map<string, number> {
    const { docs, docStart, rel } = this;
    const m = new Map<string, number>();
    for (let k = 0; k < this.size; k++) {
      const i = this.entries[k];
      m.set(decodeField(docs, docStart[i], docStart[i + 1], { file: this.index.file, line: 0 }), rel[i]);
    }
    return m;
  }
}

/**
 * Growable typed columns. Docnos are packed back to back, so a judgment's docno ends where
 * the next one starts (`docStart[i + 1]`, one extra slot at the end).
 */
class Columns {
  docs: Uint8Array;
  docLen = 0;
  docStart: Int32Array;
  rel: Int32Array;
  count = 0;
  constructor(docBytes: number, judgments: number) {
    this.docs = new Uint8Array(Math.max(1024, docBytes));
    this.docStart = new Int32Array(Math.max(256, judgments + 1));
    this.rel = new Int32Array(Math.max(256, judgments + 1));
  }
  addDoc(src: Uint8Array, s: number, e: number, rel: number): void {
    const len = e - s;
    if (this.docLen + len > this.docs.length) {
      const d = new Uint8Array(Math.ceil(Math.max(this.docs.length * 1.5, this.docLen + len)));
      d.set(this.docs.subarray(0, this.docLen));
      this.docs = d;
    }
    if (this.count + 1 >= this.rel.length) {
      const n = Math.ceil(this.rel.length * 1.5);
      const grow = (a: Int32Array) => {
        const b = new Int32Array(n);
        b.set(a);
        return b;
      };
      this.docStart = grow(this.docStart);
      this.rel = grow(this.rel);
    }
    const docs = this.docs;
    let o = this.docLen;
    for (let k = s; k < e; k++) docs[o++] = src[k];
    this.docLen = o;
    this.rel[this.count] = rel;
    this.count++;
    this.docStart[this.count] = o;
  }
}

/**
 * Qrels held compactly: the docno bytes packed in one buffer, typed columns of
 * (docno range, relevance) per judgment, and per query the ranges of its judgments.
 * Reading streams the file and validates every line (exactly 4 fields, an integer
 * relevance, UTF-8); a query's hash table is built when the run reaches it.
 */
export class QrelsIndex {
  readonly file: string;
  private cols: Columns;
  /** qid -> flat [firstEntry, endEntry) pairs. */
  private segments = new Map<string, number[]>();
  private source: TextSource;

  private constructor(source: TextSource) {
    this.source = source;
    this.file = sourceName(source);
    this.cols = new Columns(0, 0);
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
  static async read(source: TextSource): Promise<QrelsIndex> {
    let size = 0;
    if (typeof source !== "string") size = source.bytes.length;
    else if (source !== "-") {
      try {
        size = (await Deno.stat(source)).size;
      } catch { /* openBytes reports it */ }
    }
    const idx = new QrelsIndex(source);
    const file = idx.file;
    let cols = idx.cols;
    let cur: number[] | undefined;
    let curQid = new Uint8Array(64);
    let curQidLen = -1;
    let any = false;
    let line = 1;
    let sized = false;
    for await (const { buf, start, end } of lineChunks(source)) {
      if (!sized) {
        // Size the columns from the first chunk, extrapolated to the whole (plain) file, so
        // the typed arrays are allocated about once: their pages are touched, so size matters.
        sized = true;
        const lines = countByte(buf, start, end, 10) + 1;
        const scale = size > end - start ? size / (end - start) : 1;
        idx.cols = cols = new Columns(
          Math.ceil((end - start) * scale * 0.6),
          Math.ceil(lines * scale * 1.02) + 16,
        );
      }
      let pos = start;
      while (pos < end) {
        let eol = buf.indexOf(10, pos);
        if (eol < 0 || eol > end) eol = end;
        // Field scan, specialized: qid iter docno rel, nothing after.
        let i = pos;
        let high = 0;
        let n = 0;
        let qs = 0, qe = 0, ds = 0, de = 0, rs = 0, re = 0;
        while (i < eol) {
          let c = buf[i];
          while ((c === 32 || (c >= 9 && c <= 13)) && ++i < eol) c = buf[i];
          if (i >= eol) break;
          if (n === 0 && c === 35) break; // '#' comment line
          const fs = i;
          while (i < eol && !((c = buf[i]) === 32 || (c >= 9 && c <= 13))) {
            high |= c;
            i++;
          }
          if (n === 0) {
            qs = fs;
            qe = i;
          } else if (n === 2) {
            ds = fs;
            de = i;
          } else if (n === 3) {
            rs = fs;
            re = i;
          }
          n++;
        }
        if (n > 0) {
          if (high & 0x80) checkUtf8(buf, pos, eol, { file, line });
          if (n !== 4) {
            fail(`expected 4 fields (qid iter docno relevance), found ${n}`, { file, line });
          }
          const rel = parseRelevanceBytes(buf, rs, re, file, line);
          const qlen = qe - qs;
          let same = qlen === curQidLen;
          for (let k = 0; same && k < qlen; k++) same = curQid[k] === buf[qs + k];
          if (!same || !cur) {
            const qid = decodeField(buf, qs, qe, { file, line });
            cur = idx.segments.get(qid);
            if (!cur) idx.segments.set(qid, cur = []);
            cur.push(cols.count, cols.count);
            if (qlen > curQid.length) curQid = new Uint8Array(qlen * 2);
            curQid.set(buf.subarray(qs, qe));
            curQidLen = qlen;
          }
          cols.addDoc(buf, ds, de, rel);
          cur[cur.length - 1] = cols.count;
          any = true;
        }
        pos = eol + 1;
        line++;
      }
    }
    if (!any) fail("qrels file has no judgments (empty file?)", { file });
    return idx;
  }

  /** The packed columns (for the judgment tables). */
  columns(): { docs: Uint8Array; docStart: Int32Array; rel: Int32Array } {
    return this.cols;
  }

  /** Reports a duplicate judgment (entry i), locating its line in the file when it can. */
  duplicate(i: number): never {
    const c = this.cols;
    const docno = decodeField(c.docs, c.docStart[i], c.docStart[i + 1], { file: this.file, line: 0 });
    let qid = "";
    for (const [q, segs] of this.segments) {
      for (let k = 0; k < segs.length; k += 2) if (i >= segs[k] && i < segs[k + 1]) qid = q;
    }
    // The entry number is the number of judgment lines before it: find that line.
    let line: number | undefined;
    if (this.source !== "-") line = lineOfEntry(this.source, i);
    return fail(`duplicate judgment for query ${qid}, document ${docno}`, {
      file: this.file,
      line,
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

  /** A query's judgments as a byte-keyed table for a relevance level, or undefined. */
  table(qid: string, level: number): JudgmentTable | undefined {
    const segs = this.segments.get(qid);
    if (!segs) return undefined;
    let n = 0;
    for (let k = 0; k < segs.length; k += 2) n += segs[k + 1] - segs[k];
    const entries = new Int32Array(n);
    let j = 0;
    for (let k = 0; k < segs.length; k += 2) {
      for (let i = segs[k]; i < segs[k + 1]; i++) entries[j++] = i;
    }
    return new JudgmentTable(this, entries, level);
  }

  /** The judgments of one query (docno to relevance), or undefined. */
  judgments(qid: string): Map<string, number> | undefined {
    return this.table(qid, 1)?.toMap();
  }

  /** Materializes every query's judgments. */
  toQrels(): Map<string, Map<string, number>> {
    const q = new Map<string, Map<string, number>>();
    for (const qid of this.segments.keys()) q.set(qid, this.judgments(qid)!);
    return q;
  }
}

function countByte(buf: Uint8Array, start: number, end: number, byte: number): number {
  let n = 0;
  let i = buf.indexOf(byte, start);
  while (i >= 0 && i < end) {
    n++;
    i = buf.indexOf(byte, i + 1);
  }
  return n;
}

/** Finds the line of the i-th judgment line (0-based) of an in-memory or file source. */
function lineOfEntry(source: TextSource, entry: number): number | undefined {
  let bytes: Uint8Array;
  try {
    bytes = typeof source === "string" ? Deno.readFileSync(source) : source.bytes;
  } catch {
    return undefined;
  }
  let seen = -1;
  let line = 0;
  let pos = 0;
  while (pos < bytes.length) {
    line++;
    let eol = bytes.indexOf(10, pos);
    if (eol < 0) eol = bytes.length;
    if (!isSkippableLine(bytes, pos, eol) && ++seen === entry) return line;
    pos = eol + 1;
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
    if (d < 0 || d > 9 || digits === 0) break;
    v = v * 10 + d;
  }
  if (i !== e || digits === 0) {
    const where = { file, line };
    fail(
      `relevance '${decodeField(buf, s, e, where)}' is not an integer (expected: qid iter docno relevance)`,
      where,
    );
  }
  if (digits > 9 && v > 0x7fffffff) {
    fail(`relevance '${decodeField(buf, s, e, { file, line })}' is out of range`, { file, line });
  }
  return neg ? -v : v;
}

/**
 * Streams a source as chunks of whole lines (bytes; `end` is the last newline, or the end of
 * the data for the final chunk), the BOM skipped. The consumer counts lines across chunks.
 */
async function* lineChunks(
  source: TextSource,
  chunkBytes = 1 << 22,
): AsyncGenerator<{ buf: Uint8Array; start: number; end: number }> {
  const read = await openBytes(source);
  let buf = new Uint8Array(chunkBytes);
  let len = 0;
  let first = true;
  for (;;) {
    if (len === buf.length) {
      const b = new Uint8Array(buf.length * 2);
      b.set(buf);
      buf = b;
    }
    const n = await read(buf.subarray(len));
    len += n;
    let start = 0;
    if (first && len >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) start = 3;
    if (first && len >= 3) first = false;
    if (n === 0) {
      if (len > start) yield { buf, start, end: len };
      return;
    }
    const last = buf.lastIndexOf(10, len - 1);
    if (last < start) continue; // no whole line yet: read more
    yield { buf, start, end: last };
    buf.copyWithin(0, last + 1, len);
    len -= last + 1;
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
  count: number;
  docStart: Int32Array;
  docEnd: Int32Array;
  score: Float64Array;
  line: Int32Array;
}

/**
 * Streams a run file as blocks of consecutive lines with the same query id, validating
 * field counts and scores. `onRunId` receives the last line's runid.
 */
export async function* scanRunBlocks(
  source: TextSource,
  onRunId?: (runId: string) => void,
): AsyncGenerator<ByteRunBlock> {
  const file = sourceName(source);
  const read = await openBytes(source);
  let buf = new Uint8Array(1 << 23);
  let len = 0;
  let pos = 0;
  let eof = false;
  let line = 0;
  let first = true;
  const bounds = new Int32Array(12);
  let cap = 256;
  let docStart = new Int32Array(cap), docEnd = new Int32Array(cap);
  let score = new Float64Array(cap), lines = new Int32Array(cap);
  let count = 0;
  let blockStart = -1; // byte offset where the open block's first line starts
  let qidS = 0, qidE = 0;
  let qid = "";
  let runIdS = 0, runIdE = 0, runIdLine = 0;
  let runId = "";
  let any = false;

  const block = (): ByteRunBlock => ({
    buf,
    qid,
    count,
    docStart,
    docEnd,
    score,
    line: lines,
  });

  for (;;) {
    // Find a whole line; refill (keeping the open block) when the buffer runs out.
    let eol = pos < len ? buf.indexOf(10, pos) : -1;
    if (eol < 0 || eol >= len) {
      if (!eof) {
        // Keep the open block's bytes; move them to the front.
        const keep = blockStart >= 0 ? blockStart : pos;
        if (keep > 0) {
          // The last runid seen is about to move or be overwritten: decode it now.
          if (runIdLine > 0) {
            runId = decodeField(buf, runIdS, runIdE, { file, line: runIdLine });
            runIdLine = 0;
          }
          buf.copyWithin(0, keep, len);
          const shift = keep;
          len -= shift;
          pos -= shift;
          if (blockStart >= 0) {
            blockStart -= shift;
            qidS -= shift;
            qidE -= shift;
            for (let i = 0; i < count; i++) {
              docStart[i] -= shift;
              docEnd[i] -= shift;
            }
          }
        }
        if (len === buf.length) {
          const bigger = new Uint8Array(buf.length * 2);
          bigger.set(buf);
          buf = bigger;
        }
        const n = await read(buf.subarray(len));
        if (n === 0) eof = true;
        len += n;
        if (first && len >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) pos = 3;
        first = false;
        continue;
      }
      if (pos >= len) break;
      eol = len; // last line without a newline
    }
    line++;
    if (!isSkippableLine(buf, pos, eol)) {
      let n = splitFieldBytes(buf, pos, eol, bounds);
      if (n < 0) {
        checkUtf8(buf, pos, eol, { file, line });
        n = -1 - n;
      }
      if (n < 6) {
        fail(`expected 6 fields (qid Q0 docno rank score runid), found ${n}`, { file, line });
      }
      const qs = bounds[0], qe = bounds[1];
      if (blockStart < 0 || !equalBytes(buf, qs, qe, buf, qidS, qidE)) {
        if (blockStart >= 0) {
          yield block();
          count = 0;
        }
        blockStart = pos;
        qidS = qs;
        qidE = qe;
        qid = decodeField(buf, qs, qe, { file, line });
      }
      const v = parseNumberBytes(buf, bounds[8], bounds[9]);
      if (!Number.isFinite(v)) {
        const where = { file, line };
        fail(
          `score '${decodeField(buf, bounds[8], bounds[9], where)}' is not a finite number ` +
            "(expected: qid Q0 docno rank score runid)",
          where,
        );
      }
      if (count === cap) {
        cap *= 2;
        const grow = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
          const b = make(cap);
          b.set(a);
          return b;
        };
        docStart = grow(docStart, (k) => new Int32Array(k));
        docEnd = grow(docEnd, (k) => new Int32Array(k));
        score = grow(score, (k) => new Float64Array(k));
        lines = grow(lines, (k) => new Int32Array(k));
      }
      docStart[count] = bounds[4];
      docEnd[count] = bounds[5];
      score[count] = v;
      lines[count] = line;
      count++;
      runIdS = bounds[10];
      runIdE = bounds[11];
      runIdLine = line;
      any = true;
    }
    pos = eol + 1;
  }
  if (runIdLine > 0) runId = decodeField(buf, runIdS, runIdE, { file, line: runIdLine });
  if (blockStart >= 0 && count > 0) yield block();
  if (!any) fail("run file has no result lines (empty file?)", { file });
  onRunId?.(runId);
}

/**
 * Ranks a block's documents in trec_eval order (score desc, then docno desc by bytes):
 * in-order input is detected in one pass and only tie groups are sorted.
 */
export function rankBlock(b: ByteRunBlock): Int32Array {
  const n = b.count;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const s = b.score, buf = b.buf, ds = b.docStart, de = b.docEnd;
  const byDocDesc = (x: number, y: number) => compareBytes(buf, ds[y], de[y], buf, ds[x], de[x]);
  let sorted = true;
  for (let i = 1; i < n; i++) {
    if (s[i] > s[i - 1]) {
      sorted = false;
      break;
    }
  }
  if (!sorted) {
    order.sort((x, y) => (s[y] - s[x]) || byDocDesc(x, y));
    return order;
  }
  let start = 0;
  while (start < n) {
    let end = start + 1;
    while (end < n && s[end] === s[start]) end++;
    if (end - start === 2) {
      if (byDocDesc(start, start + 1) > 0) {
        order[start] = start + 1;
        order[start + 1] = start;
      }
    } else if (end - start > 2) {
      order.subarray(start, end).sort(byDocDesc);
    }
    start = end;
  }
  return order;
}

/** Checks a block for a docno that occurs twice (trec_eval rejects it too). */
export function checkBlockDuplicates(b: ByteRunBlock, file: string, scratch: { slots: Int32Array }) {
  let cap = scratch.slots.length;
  if (cap < b.count * 2) {
    while (cap < b.count * 2) cap <<= 1;
    scratch.slots = new Int32Array(cap);
  } else scratch.slots.fill(0);
  const slots = scratch.slots;
  const mask = cap - 1;
  const buf = b.buf;
  for (let i = 0; i < b.count; i++) {
    let h = hashBytes(buf, b.docStart[i], b.docEnd[i]) & mask;
    for (;;) {
      const s = slots[h];
      if (s === 0) {
        slots[h] = i + 1;
        break;
      }
      if (equalBytes(buf, b.docStart[s - 1], b.docEnd[s - 1], buf, b.docStart[i], b.docEnd[i])) {
        const where = { file, line: b.line[i] };
        fail(
          `duplicate document ${decodeField(buf, b.docStart[i], b.docEnd[i], where)} for query ${b.qid} ` +
            "(trec_eval rejects this too)",
          where,
        );
      }
      h = (h + 1) & mask;
    }
  }
}
