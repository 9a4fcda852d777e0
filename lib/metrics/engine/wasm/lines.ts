/**
 * The parsers' fast paths in WebAssembly (`lines.wat`): one instance per reader, whose memory
 * holds the read buffer and what the fast path reads and writes besides it. The readers read
 * into `buffer()` of {@link WasmRunLines} or {@link WasmQrelsLines}; the JavaScript parsers call
 * the fast path for the usual lines of the query being read and take every other line themselves
 * (`run_reader.ts`, `qrels_index.ts`).
 *
 * Why WebAssembly: on the benchmark's 30,000-query files, in one process, reading the run took
 * 0.35-0.40 s with the parser's loop in JavaScript and 0.18-0.22 s with this fast path, the
 * same columns out (`readRunChunks` over the 94 MB run held in memory, five times each).
 *
 * @module
 */
import { LINES_WASM_BASE64 } from "./lines_wasm.ts";

/** The module's exports (see `lines.wat`). */
interface LinesExports {
  memory: WebAssembly.Memory;
  n: WebAssembly.Global;
  line: WebAssembly.Global;
  runIdStart: WebAssembly.Global;
  runIdEnd: WebAssembly.Global;
  written: WebAssembly.Global;
  prevLen: WebAssembly.Global;
  runLines(
    i: number,
    end: number,
    qid: number,
    qidLen: number,
    n: number,
    line: number,
    float32: number,
    pow10: number,
    docStart: number,
    docEnd: number,
    docHash: number,
    score: number,
    lines: number,
  ): number;
  qrelsLines(
    i: number,
    end: number,
    qid: number,
    qidLen: number,
    comment: number,
    line: number,
    prev: number,
    prevLen: number,
    out: number,
    room: number,
  ): number;
  rankTies(n: number, score: number, docStart: number, docEnd: number, out: number): number;
}

let compiled: WebAssembly.Module | undefined;

/** A fresh instance of `lines.wat` (the module is compiled once per thread). */
function instance(): LinesExports {
  compiled ??= new WebAssembly.Module(Uint8Array.fromBase64(LINES_WASM_BASE64));
  return new WebAssembly.Instance(compiled, {}).exports as unknown as LinesExports;
}

/** A read buffer in an instance's memory, `front` bytes from its start. */
abstract class WasmLines {
  protected readonly ex: LinesExports = instance();
  constructor(readonly front: number) {}

  /**
   * The read buffer: `size` bytes at address `front`, with room after it for what the
   * reader keeps there. What the previous buffer held stays where it was (a bigger buffer
   * grows in place); earlier views of the memory may be detached, so the caller asks again
   * for what it uses.
   */
  buffer(size: number): Uint8Array {
    this.reserve(this.front + size + this.after(size));
    return new Uint8Array(this.ex.memory.buffer, this.front, size);
  }

  /** Bytes the reader keeps after a buffer of `size`. */
  protected abstract after(size: number): number;

  /** Grows the memory to at least `bytes` (at most 4 GiB: a query's lines, 1.3 GiB, in a run). */
  protected reserve(bytes: number): void {
    const have = this.ex.memory.buffer.byteLength;
    if (bytes <= have) return;
    try {
      this.ex.memory.grow(Math.ceil((bytes - have) / 65536));
    } catch {
      throw new RangeError(
        `the reader cannot hold ${bytes} bytes (a read buffer and what it keeps beside it): ` +
          `one query's lines in a run, or one line, take more than the 4 GiB of its memory`,
      );
    }
  }

  /** The line number of the last line the fast path took. */
  lastLine(): number {
    return this.ex.line.value as number;
  }
}

/** The columns of a run chunk in an instance's memory, and their addresses. */
export interface WasmRunColumns {
  docS: Int32Array;
  docE: Int32Array;
  docH: Int32Array;
  score: Float64Array;
  line: Int32Array;
  /** Where `rankTies` writes a block's order (its rows' indexes, from the block's first). */
  order: Int32Array;
  /** Addresses: the powers of ten 1e0..1e22, then each column. */
  at: {
    pow10: number;
    docS: number;
    docE: number;
    docH: number;
    score: number;
    line: number;
    order: number;
  };
}

/** Bytes of the powers of ten (23 doubles, 1e0..1e22). */
const POW10_BYTES = 23 * 8;

/** Where the columns of `rows` rows after a run buffer of `bufferBytes` end. */
function columnsEnd(bufferBytes: number, rows: number): number {
  return ((bufferBytes + 7) & ~7) + POW10_BYTES + 28 * rows;
}

/**
 * A run reader's fast path: the buffer at address 0 (an index into it is its address), then
 * the powers of ten and the columns (`runColumns`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { WasmRunLines } from "./lines.ts";
 * const w = new WasmRunLines();
 * const buf = w.buffer(64);
 * const line = new TextEncoder().encode("q1 Q0 d7 1 0.25 run\n");
 * buf.set(line);
 * const cols = w.runColumns(buf.length, 4);
 * // The open query is q1 (bytes 0-1 of the buffer); buf[end] is the line's newline.
 * const end = line.length - 1;
 * assert.equal(w.runLines(0, end, 0, 2, 0, 0, false, cols), line.length);
 * assert.equal(w.taken(), 1);
 * assert.equal(cols.score[0], 0.25);
 * ```
 */
export class WasmRunLines extends WasmLines {
  private cols: WasmRunColumns | undefined;
  private colsBase = -1;
  private colsCap = 0;
  private start = 0;

  constructor() {
    super(0);
  }

  /** Room for the columns of as many rows as the buffer holds lines (12 bytes or more). */
  protected after(size: number): number {
    return columnsEnd(size, Math.floor(size / 12) + 2) - size;
  }

  /**
   * Columns for `rows` lines after a buffer of `bufferBytes` (the same views as the last
   * call's when they still fit and the memory has not moved).
   */
  runColumns(bufferBytes: number, rows: number): WasmRunColumns {
    const base = (bufferBytes + 7) & ~7;
    const c = this.cols;
    const mem = this.ex.memory.buffer;
    if (c && this.colsBase === base && this.colsCap >= rows && c.score.buffer === mem) return c;
    // (Growing the memory here would detach the buffer being parsed: `buffer` made room.)
    if (columnsEnd(bufferBytes, rows) > mem.byteLength) {
      throw new RangeError(`no room for ${rows} rows after a buffer of ${bufferBytes} bytes`);
    }
    const score = base + POW10_BYTES;
    const at = {
      pow10: base,
      score,
      docS: score + 8 * rows,
      docE: score + 12 * rows,
      docH: score + 16 * rows,
      line: score + 20 * rows,
      order: score + 24 * rows,
    };
    const pow10 = new Float64Array(mem, at.pow10, 23);
    for (let k = 0; k < 23; k++) pow10[k] = Number(`1e${k}`);
    this.cols = {
      docS: new Int32Array(mem, at.docS, rows),
      docE: new Int32Array(mem, at.docE, rows),
      docH: new Int32Array(mem, at.docH, rows),
      score: new Float64Array(mem, at.score, rows),
      line: new Int32Array(mem, at.line, rows),
      order: new Int32Array(mem, at.order, rows),
      at,
    };
    this.colsBase = base;
    this.colsCap = rows;
    return this.cols;
  }

  /**
   * The run fast path (`runLines` in `lines.wat`): the usual lines from `i` (before `end`,
   * where the buffer has a newline) whose query id is the `qidLen` bytes at `qid`, into rows
   * `n`, `n + 1`, ... of `cols`; returns the start of the first line not taken. Then
   * {@link taken} rows were written, the last with line number `lastLine()` and the runid
   * {@link runId}.
   */
  runLines(
    i: number,
    end: number,
    qid: number,
    qidLen: number,
    n: number,
    line: number,
    float32: boolean,
    cols: WasmRunColumns,
  ): number {
    const a = cols.at;
    this.start = n;
    return this.ex.runLines(
      i,
      end,
      qid,
      qidLen,
      n,
      line,
      float32 ? 1 : 0,
      a.pow10,
      a.docS,
      a.docE,
      a.docH,
      a.score,
      a.line,
    );
  }

  /**
   * Ranks rows `[first, first + n)` of the last {@link runColumns} in trec_eval order into
   * their `order` (`rankTies` in `lines.wat`: `order[r]` is a row index from `first`) when
   * they are in score order with tie groups of at most 16 rows (the usual); false leaves the
   * ranking to the caller (`rankInto` in judge.ts, whose rules these are).
   */
  rankTies(first: number, n: number): boolean {
    const a = this.cols!.at;
    return this.ex.rankTies(
      n,
      a.score + 8 * first,
      a.docS + 4 * first,
      a.docE + 4 * first,
      a.order,
    ) ===
      1;
  }

  /** The order {@link rankTies} wrote (valid until the next chunk's columns). */
  order(): Int32Array {
    return this.cols!.order;
  }

  /** Rows the last {@link runLines} wrote. */
  taken(): number {
    return (this.ex.n.value as number) - this.start;
  }

  /** The runid's bounds on the last line {@link runLines} took. */
  runId(): [number, number] {
    return [this.ex.runIdStart.value as number, this.ex.runIdEnd.value as number];
  }
}

/** The longest previous docno the qrels fast path keeps (the longest a record takes). */
const PREV_BYTES = 65536;
/** The longest open query id the qrels fast path compares (longer ones: JavaScript). */
export const QRELS_QID_BYTES = 4096;
/** The records the qrels fast path writes in one call, at most. */
const RECORDS_BYTES = 65536;

/**
 * A qrels reader's fast path: the previous docno, the open query's id and the records being
 * written, then the buffer (an index `i` into it is address `front + i`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { WasmQrelsLines } from "./lines.ts";
 * const w = new WasmQrelsLines();
 * const buf = w.buffer(64);
 * const lines = new TextEncoder().encode("q1 0 d7 1\nq1 0 d8 5\n");
 * buf.set(lines);
 * w.qid().set(lines.subarray(0, 2)); // the open query: q1
 * // buf[end] is the last line's newline; the open query is q1.
 * assert.equal(w.qrelsLines(0, lines.length - 1, 2, -1, 0, 0, 1024), lines.length);
 * assert.deepEqual([...w.records()], [
 *   0b0000_10_01, 100, 55, // no byte shared, 2 new ("d7"), relevance 1
 *   0b0001_01_11, 56, 5, // "d" shared, 1 new ("8"), relevance 3 or more: 5
 * ]);
 * ```
 */
export class WasmQrelsLines extends WasmLines {
  constructor() {
    super(PREV_BYTES + QRELS_QID_BYTES + RECORDS_BYTES);
  }

  /** Room for the fast path's 8-byte loads of a query id at the buffer's last line. */
  protected after(): number {
    return 8;
  }

  /** The previous docno's bytes (valid until the buffer grows). */
  prev(): Uint8Array {
    return new Uint8Array(this.ex.memory.buffer, 0, PREV_BYTES);
  }

  /** Where the open query's id goes (valid until the buffer grows). */
  qid(): Uint8Array {
    return new Uint8Array(this.ex.memory.buffer, PREV_BYTES, QRELS_QID_BYTES);
  }

  /** The records the last {@link qrelsLines} wrote (valid until the next call). */
  records(): Uint8Array {
    const at = PREV_BYTES + QRELS_QID_BYTES;
    return new Uint8Array(this.ex.memory.buffer, at, this.ex.written.value as number);
  }

  /**
   * The qrels fast path (`qrelsLines` in `lines.wat`): the usual lines of buffer from `i`
   * (before `end`, a newline) whose query id is the first `qidLen` bytes of {@link qid},
   * into records (at most `room` bytes of them) after the previous docno's `prevLen` bytes;
   * returns where it stopped. Then {@link records} holds them, `lastLine()` is the last line
   * taken (`line` when none) and {@link prevLen} the last docno's length.
   */
  qrelsLines(
    i: number,
    end: number,
    qidLen: number,
    comment: number,
    line: number,
    prevLen: number,
    room: number,
  ): number {
    const f = this.front;
    const out = PREV_BYTES + QRELS_QID_BYTES;
    const r = Math.min(room, RECORDS_BYTES);
    const stop = this.ex.qrelsLines(
      f + i,
      f + end,
      PREV_BYTES,
      qidLen,
      comment,
      line,
      0,
      prevLen,
      out,
      out + r,
    );
    return stop - f;
  }

  /** The length of the last docno {@link qrelsLines} took. */
  prevLen(): number {
    return this.ex.prevLen.value as number;
  }
}
