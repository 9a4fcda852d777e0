/**
 * Scanning TREC files as bytes: the one chunk loop both file kinds are read through
 * ({@link lineChunks}: fill a buffer, skip the BOM, put a newline sentinel after the data,
 * grow for long lines up to the cap, carry what the parser keeps to the next chunk), and the
 * pieces the qrels and run parsers share: field splitting, UTF-8 checks, the docno hash,
 * byte comparison and number parsing the way C's `atof`/`atol` read them.
 *
 * Lines are never decoded as a whole: query ids are decoded when they change, docnos are
 * hashed and compared as bytes (strcmp order comes for free).
 *
 * @module
 */
import { fail } from "../../errors.ts";
import {
  CorruptGzip,
  corruptGzip,
  type FileRange,
  openFileRange,
  openSource,
  type TextSource,
} from "../../io/source.ts";
import { countNewlines, lineTooLong, MAX_LINE_BYTES } from "../../io/text.ts";
import { relevanceFromText } from "./reading_rules.ts";

// ---------------------------------------------------------------- the chunk loop

/** One read of a file: whole lines in `buf[start, end)`, a newline at `buf[end]`. */
export interface LineChunk {
  buf: Uint8Array;
  start: number;
  /** The last newline (the data's end when `eof`); `buf[end]` is a newline (a sentinel). */
  end: number;
  /** Whether this is the last chunk. */
  eof: boolean;
  /**
   * Set by the reader before asking for the next chunk: the bytes from here on are carried
   * to the start of the next chunk (default `end + 1`: none). Keeping all of them (`start`)
   * asks for the same bytes again with more after them (the buffer grows).
   */
  keep: number;
  /**
   * Set with `keep`: the line number of `buf[keep]`, for the messages of the chunk loop (-1:
   * not tracked by the reader, then counted here).
   */
  keepLine: number;
}

/**
 * The default read size: 256 KiB. The judge and the ranking read a run's docnos in the read
 * buffer, through columns of 24 bytes a line; a 256 KiB buffer and its columns stay in a core's
 * 1 MiB L2 cache, a 1 MiB one does not. At 30,000 queries (one thread, medians of 8-12
 * alternating runs, four batches) 3 MB less peak memory, and from 9% less to 3% more time than
 * 1 MiB (0.97 against 1.065 s, 0.945 against 0.92, 0.885 against 0.955, 0.845 against 0.835);
 * 64 KiB was slower (more reads, more carried blocks); at 100,000 queries (two threads) the same
 * time. 1 MiB was itself as fast as 4 MiB.
 */
export const READ_CHUNK = 1 << 18;

/** Options of {@link lineChunks}. */
export interface ChunkOptions {
  /**
   * Read buffer size in bytes (default {@link READ_CHUNK}; tests use tiny ones to cross chunk
   * edges).
   */
  chunkBytes?: number;
  /** The longest line accepted (default {@link MAX_LINE_BYTES}). */
  maxLineBytes?: number;
  /**
   * Only bytes `[from, to)` of the file (a path; both at line starts): one thread's half. A
   * BOM is skipped only at the file's start; line numbers count from the range's start.
   */
  range?: FileRange;
  /** Called when the data starts with a UTF-8 byte-order mark (which is skipped). */
  onBom?: () => void;
  /**
   * Gives the read buffer: `size` bytes whose first `keep` bytes are those of `old` (the
   * buffer before, when it grows). Default: a new array, the kept bytes copied. The run and
   * qrels readers read into their fast path's WebAssembly memory this way (`wasm/lines.ts`:
   * the buffer grows in place there).
   */
  buffer?: (size: number, old: Uint8Array | undefined, keep: number) => Uint8Array;
}

/** The default {@link ChunkOptions.buffer}: a new array, the kept bytes copied. */
function newBuffer(size: number, old: Uint8Array | undefined, keep: number): Uint8Array {
  const buf = new Uint8Array(size);
  if (old) buf.set(old.subarray(0, keep));
  return buf;
}

/**
 * Streams a source as chunks of whole lines (see {@link LineChunk}): the one loop behind
 * every TREC reader. A UTF-8 BOM at the very start is skipped; a line longer than the cap is
 * an error naming its line; a broken gzip stream is reported at the line reading stopped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineChunks } from "./trec_scan.ts";
 * const bytes = new TextEncoder().encode("\uFEFFa b\nc d\ne");
 * const chunks: string[] = [];
 * for await (const c of lineChunks({ name: "m", bytes })) {
 *   chunks.push(new TextDecoder().decode(c.buf.subarray(c.start, c.end)));
 * }
 * assert.deepEqual(chunks, ["a b\nc d\ne"]); // BOM skipped, the last line without newline
 * ```
 */
export async function* lineChunks(
  source: TextSource,
  options: ChunkOptions = {},
): AsyncGenerator<LineChunk> {
  const maxLine = options.maxLineBytes ?? MAX_LINE_BYTES;
  const range = options.range;
  const reader = range ? await openFileRange(source as string, range) : await openSource(source);
  const wanted = options.chunkBytes ?? READ_CHUNK;
  const buffer = options.buffer ?? newBuffer;
  let buf = buffer(await bufferSize(source, wanted, range), undefined, 0);
  let len = 0;
  let start = 0; // 3 while a BOM at the very start of the data is still in the buffer
  let line = 1; // the line of buf[start]
  let first = !range || range.from === 0;
  const grow = (size: number) => {
    buf = buffer(size, buf, Math.min(len, size));
  };
  try {
    for (;;) {
      let eof = false;
      try {
        while (len < buf.length && !eof) {
          const n = await reader.read(buf.subarray(len));
          if (n === 0) eof = true;
          len += n;
        }
      } catch (e) {
        // Where the readable text ends: after the whole lines read.
        if (e instanceof CorruptGzip) {
          throw corruptGzip(reader.name, e, line + countNewlines(buf, start, len));
        }
        throw e;
      }
      if (first && len >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) {
        start = 3;
        options.onBom?.();
      }
      first = false;
      const lastNewline = buf.lastIndexOf(10, len - 1);
      // The line being read (the last one at the end): too long to be a line of a text file?
      const open = lastNewline < start ? start : lastNewline + 1;
      if (len - open > maxLine) {
        throw lineTooLong(reader.name, line + countNewlines(buf, start, open), maxLine);
      }
      if (!eof && lastNewline < start) {
        grow(2 * buf.length); // one line longer than the buffer
        continue;
      }
      const last = eof ? len : lastNewline;
      if (eof && len === buf.length) grow(len + 1); // room for the sentinel
      buf[last] = 10; // the parsers' sentinel (already a newline unless at the end)
      if (eof && len <= start) return;
      const chunk: LineChunk = {
        buf,
        start,
        end: last,
        eof,
        keep: last + 1,
        keepLine: -1,
      };
      yield chunk;
      if (eof) return;
      const keep = chunk.keep;
      line = chunk.keepLine >= 0 ? chunk.keepLine : line + countNewlines(buf, start, keep);
      if (keep === start) {
        grow(2 * buf.length); // the reader keeps the whole buffer (one long query block)
        continue;
      }
      buf.copyWithin(0, keep, len);
      len -= keep;
      start = 0;
    }
  } finally {
    reader.close();
  }
}

/**
 * The read buffer size for a source: `wanted`, but no more than the data (plus room to
 * detect its end), so reading a small file does not allocate megabytes.
 */
async function bufferSize(
  source: TextSource,
  wanted: number,
  range?: FileRange,
): Promise<number> {
  let size = Infinity;
  if (range) size = range.to - range.from;
  else if (typeof source !== "string") size = source.bytes.length;
  else if (source !== "-") {
    try {
      const st = await Deno.stat(source);
      if (st.isFile) size = st.size;
    } catch { /* the opener reports it */ }
  }
  return Math.max(64, Math.min(wanted, size + 16));
}

// ---------------------------------------------------------------- fields and lines

/** Field bounds of one line, filled by {@link scanLine}. */
export interface LineFields {
  /** [start, end) of the first six fields: fields[2k], fields[2k + 1]. */
  fields: Int32Array;
  /** Number of fields on the line (all of them, not only the first six). */
  n: number;
  /** Whether the line has a byte >= 0x80 (then it must be checked as UTF-8). */
  high: boolean;
}

/** A fresh {@link LineFields}. */
export function lineFields(): LineFields {
  return { fields: new Int32Array(12), n: 0, high: false };
}

/**
 * Scans one line starting at `i` (fields split on C `isspace()`, as trec_eval splits them)
 * and returns the index of its end (the newline). The parsers' general path: their fast
 * paths take the usual line without a call per field.
 */
export function scanLine(buf: Uint8Array, i: number, out: LineFields): number {
  const f = out.fields;
  let n = 0, high = 0, c = 0;
  for (;;) {
    while ((c = buf[i]) === 32 || c === 9 || c === 13 || c === 11 || c === 12) i++;
    if (c === 10) break;
    const fs = i;
    while ((c = buf[i]) > 32 || c < 9 || (c > 13 && c < 32)) {
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

/** End of a field of printable ASCII from `k` (the first byte <= 32 or >= 128). */
export function asciiFieldEnd(buf: Uint8Array, k: number): number {
  let c = 0;
  while ((c = buf[k]) > 32 && c < 128) k++;
  return k;
}

/** Whether a byte separates fields on the fast paths (space or tab). */
export function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}

/** End of a run of spaces and tabs from `k`. */
export function blankEnd(buf: Uint8Array, k: number): number {
  let c = 0;
  while ((c = buf[k]) === 32 || c === 9) k++;
  return k;
}

/**
 * Fields are decoded keeping a leading U+FEFF (a decoder drops it by default): a byte-order
 * mark at the start of a line inside a file is part of its query id for trec_eval, which
 * compares bytes (the one at the file's start is skipped by the chunk loop).
 */
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Decodes bytes as strict UTF-8 (ASCII fast path), or fails at the location. */
export function decodeField(
  buf: Uint8Array,
  start: number,
  end: number,
  where: { file: string; line: number },
): string {
  let ascii = true;
  for (let i = start; i < end && ascii; i++) ascii = buf[i] < 0x80;
  if (!ascii) {
    try {
      return utf8.decode(buf.subarray(start, end));
    } catch {
      return fail("invalid UTF-8; expected UTF-8 text", where);
    }
  }
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
  return asciiText(buf, start, end);
}

/**
 * The text of ASCII bytes `buf[start, end)`, of any length: `String.fromCharCode.apply` takes
 * the bytes as arguments, fine for an id, a stack overflow for a field of 130,000 bytes; ASCII is
 * UTF-8, so the decoder reads the long ones.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { asciiText } from "./trec_scan.ts";
 * assert.equal(asciiText(new TextEncoder().encode("q1 Q0"), 0, 2), "q1");
 * const long = "B".repeat(200_000);
 * assert.equal(asciiText(new TextEncoder().encode(long), 0, long.length), long);
 * ```
 */
export function asciiText(buf: Uint8Array, start: number, end: number): string {
  if (end - start <= 4096) {
    return String.fromCharCode.apply(null, buf.subarray(start, end) as unknown as number[]);
  }
  return utf8.decode(buf.subarray(start, end));
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
export function rejectLine(
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
 * The general path's checks of a line `scanLine` split (`buf[start, eol)`): not empty, no NUL
 * byte, valid UTF-8, then `fields` fields (exactly, or at least). The problem, or undefined.
 */
export function lineProblem(
  buf: Uint8Array,
  start: number,
  eol: number,
  lf: LineFields,
  fields: number,
  exact: boolean,
  layout: string,
): string | undefined {
  if (lf.n === 0) return `empty line; expected ${layout} (trec_eval rejects it too)`;
  // C's strings end at a NUL: trec_eval 9.0.8 stops reading the file there, or crashes.
  const nul = buf.subarray(start, eol).indexOf(0);
  if (nul >= 0) return `a NUL byte (column ${nul + 1}): trec_eval stops reading at it; remove it`;
  if (lf.high && !isValidUtf8(buf, start, eol)) return "invalid UTF-8; expected UTF-8 text";
  if (exact ? lf.n !== fields : lf.n < fields) {
    // Every source is sniffed (a pipe or FIFO held first): a `{` here is not JSON's start.
    const json = buf[start] === 123 // {
      ? '; ranx/pytrec_eval JSON is read as JSON when named .json or starting with {" or {}'
      : "";
    return `expected ${fields} fields (${layout}), found ${lf.n}${json}`;
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

// ---------------------------------------------------------------- bytes

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

/** Whether two byte ranges hold the same bytes. */
export function equalBytes(
  a: Uint8Array,
  as: number,
  ae: number,
  b: Uint8Array,
  bs: number,
  be: number,
): boolean {
  return ae - as === be - bs && compareBytes(a, as, ae, b, bs, be) === 0;
}

/**
 * 32-bit FNV-1a's offset basis and prime: the docno hash of the judge's table, taken where the
 * bytes are scanned (the run parser, the judge's walk of the records, {@link hashBytes}); the
 * WebAssembly run parser (`wasm/lines.wat`) writes the same two numbers.
 */
export const FNV_OFFSET = 0x811c9dc5;
/** See {@link FNV_OFFSET}. */
export const FNV_PRIME = 0x01000193;

/** FNV-1a over bytes: the docno hash of the judge's table (a run's docnos, the qrels' records). */
export function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], FNV_PRIME);
  return h;
}

// ---------------------------------------------------------------- numbers

/** Exact powers of ten (10^0..10^22 are exact doubles). */
export const POW10 = Float64Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

/**
 * Parses a score from bytes as C's `atof` reads it, for the text `atof` reads whole: a
 * decimal number (`-12.5`, `.5`, `5.`, `3e-2`; `1e400` overflows to an infinity, as in C).
 * Anything else (`0x10`, `1.5abc`, `inf`, `nan`) gives NaN: the caller reads it with
 * `scoreFromText`, which reads infinities and says why it refuses the rest. Up to 15
 * significant digits take Clinger's exact path (mantissa and power of ten both exact, one IEEE
 * operation rounds correctly); others `Number()`, which rounds the same
 * syntax correctly as glibc's strtod does.
 */
export function parseScoreBytes(buf: Uint8Array, start: number, end: number): number {
  let i = start;
  let neg = false;
  if (i < end && (buf[i] === 45 || buf[i] === 43)) neg = buf[i++] === 45;
  let mant = 0, digits = 0, sig = 0, exp = 0, c = 0;
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
  if (digits === 0) return NaN;
  if (i < end && (buf[i] === 101 || buf[i] === 69)) {
    i++;
    let eneg = false;
    if (i < end && (buf[i] === 45 || buf[i] === 43)) eneg = buf[i++] === 45;
    let e = 0, ed = 0;
    while (i < end && (c = buf[i] - 48) >= 0 && c <= 9) {
      if (e < 1e6) e = e * 10 + c;
      ed++;
      i++;
    }
    if (ed === 0) return NaN; // atof reads "1e" as 1: refused, not read another way
    exp += eneg ? -e : e;
  }
  if (i !== end) return NaN;
  if (sig <= 15 && exp >= -22 && exp <= 22) {
    const v = exp < 0 ? mant / POW10[-exp] : mant * POW10[exp];
    return neg ? -v : v;
  }
  let s = "";
  for (let k = start; k < end; k++) s += String.fromCharCode(buf[k]);
  return Number(s);
}

/**
 * Parses a relevance from bytes as C's `atol` reads it: an optional sign and decimal digits,
 * within 32 bits, or any number `atol` reads as its value (`2.0`); anything else is an error
 * at the line saying what trec_eval would read (`relevanceFromText`).
 */
export function parseRelevanceBytes(
  buf: Uint8Array,
  s: number,
  e: number,
  where: { file: string; line: number },
  layout: string,
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
  if (i !== e || digits === 0 || v > 0x7fffffff) {
    // Not plain digits: `2.0` is read, `2.7` refused saying what trec_eval's atol would read.
    const read = relevanceFromText(decodeField(buf, s, e, where));
    if (typeof read === "number") return read;
    fail(`${read} (expected: ${layout})`, where);
  }
  return neg ? -v : v;
}

/**
 * The next batch's size: doubled from 16 up to `most`. The first calls return after a few
 * lines, so V8 has seen the code after the loop run before it compiles the loop on-stack
 * (OSR) in a long first call; without them the Maglev code compiled that way left the loop
 * into code it had no type feedback for (`out.n = n`) and was thrown away 27 times in one
 * 30,000-query run (`--trace-deopt`), the parser running in slower tiers meanwhile; the qrels
 * parser's was thrown away on its first calls after the loop too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { warmBatch } from "./trec_scan.ts";
 * const sizes = [16];
 * while (sizes.length < 10) sizes.push(warmBatch(sizes[sizes.length - 1], 4096));
 * assert.deepEqual(sizes, [16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 4096]);
 * ```
 */
export function warmBatch(batch: number, most: number): number {
  return batch < most ? Math.min(most, 2 * batch) : most;
}
