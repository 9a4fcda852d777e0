/**
 * Reading a TREC run as bytes, chunk by chunk: each read (`lineChunks`) is parsed in one pass
 * into columns (docno bounds, score, line), and cut into query blocks (runs of
 * consecutive lines with the same query id). The block still open at the end of a read is
 * carried to the next one. A run line has at least 6 fields (`qid Q0 docno rank score
 * runid`; the rank is ignored, extra fields too); the runid is the last line's.
 *
 * @module
 */
import { fail } from "../../errors.ts";
import { sourceName, type TextSource } from "../../io/source.ts";
import { RUN_LAYOUT, scoreFromText } from "./reading_rules.ts";
import { commentByte, DEFAULT_RELEASE, type TrecRelease } from "../release.ts";
import {
  asciiFieldEnd,
  blankEnd,
  type ChunkOptions,
  decodeField,
  equalBytes,
  FNV_OFFSET,
  FNV_PRIME,
  hashBytes,
  isBlank,
  lineChunks,
  type LineFields,
  lineFields,
  lineProblem,
  parseScoreBytes,
  POW10,
  rejectLine,
  scanLine,
  type SkippedLines,
  warmBatch,
} from "./trec_scan.ts";
import { type WasmRunColumns, WasmRunLines } from "./wasm/lines.ts";

/**
 * Lines per call of the parser's hot loop (see `parseRunLines`): 4,096, after first calls of
 * 16, 32, ... lines (`warmBatch`).
 */
const BATCH_LINES = 4096;

/**
 * One query's block of consecutive run lines: entries `[first, first + count)` of the
 * columns, as byte ranges into `buf` (valid until the next chunk is asked for).
 */
export interface RunBlock {
  buf: Uint8Array;
  qid: string;
  first: number;
  count: number;
  docStart: Int32Array;
  docEnd: Int32Array;
  /** The docnos' hashes (`hashBytes`), taken as the parser reads them. */
  docHash: Int32Array;
  /** Scores as the release stores them (`trecScore`). */
  score: Float64Array;
  line: Int32Array;
  /**
   * The fast path whose memory holds the columns (set by the reader): it ranks the block
   * there when it can (`WasmRunLines.rankTies`).
   */
  wasm?: WasmRunLines;
  /**
   * When ranked ahead (`-M` keeps the first documents so): trec_eval order of the block,
   * positions 0..count-1 at `[first, first + count)`.
   */
  order?: Int32Array;
}

/** The columns of a parsed chunk (what another thread needs to read its blocks). */
export interface RunColumns {
  docS: Int32Array;
  docE: Int32Array;
  docH: Int32Array;
  score: Float64Array;
  line: Int32Array;
  /** Index of each block's first line, and one more: where the last one ends. */
  blockFirst: Int32Array;
}

/** The lines of one run chunk, parsed into columns, with where each query block starts. */
class RunLines implements RunColumns {
  n = 0;
  docS: Int32Array;
  docE: Int32Array;
  docH: Int32Array;
  score: Float64Array;
  line: Int32Array;
  /** Per block: index of its first line in the columns, byte offset and line number of it. */
  blocks = 0;
  blockFirst: Int32Array;
  blockByte: Int32Array;
  blockLine: Int32Array;
  blockQid: string[] = [];
  runIdS = -1;
  runIdE = -1;
  runIdLine = 0;
  /** Parser state between batches: the open block's query id bytes, the last line number. */
  qidS = -1;
  qidE = -1;
  lineNo = 0;
  fields: LineFields = lineFields();
  /**
   * The columns in WebAssembly memory, with the instance whose fast path fills them (the
   * buffer is then in the same memory); without, plain arrays and the JavaScript parser alone.
   */
  constructor(
    readonly capacity: number,
    readonly wasm?: { lines: WasmRunLines; columns: WasmRunColumns },
  ) {
    const cap = capacity;
    const w = wasm?.columns;
    this.docS = w?.docS ?? new Int32Array(cap);
    this.docE = w?.docE ?? new Int32Array(cap);
    this.docH = w?.docH ?? new Int32Array(cap);
    this.score = w?.score ?? new Float64Array(cap);
    this.line = w?.line ?? new Int32Array(cap);
    this.blockFirst = new Int32Array(cap + 1);
    this.blockByte = new Int32Array(cap + 1);
    this.blockLine = new Int32Array(cap + 1);
  }
}

/** What the run parser needs besides the bytes. */
interface RunParse {
  file: string;
  skip?: SkippedLines;
  /** The comment byte (`#` in 10.0), or -1. */
  comment: number;
  /** Whether scores are stored as 32-bit floats (9.0.8). */
  float32: boolean;
  /**
   * The last line already parsed: a chunk's last block is parsed again with the next chunk,
   * and a bad line in it is skipped again but counted once (tolerant mode).
   */
  parsed: number;
}

/**
 * The hot loop of run reading: up to `BATCH_LINES` whole lines from `buf[i]` (`buf[end]` is
 * a newline) into `out`'s columns; returns where it stopped. Batches let V8 optimize the
 * function as called (not on-stack), so its numbers stay unboxed from early on.
 */
function parseRunLines(
  buf: Uint8Array,
  i: number,
  end: number,
  p: RunParse,
  out: RunLines,
  batch: number,
) {
  const { file, skip, comment, float32 } = p;
  let line = out.lineNo;
  let qidS = out.qidS, qidE = out.qidE;
  // Counters and the last line's runid stay in locals in the hot loop (stored at the end).
  let n = out.n, blocks = out.blocks;
  let runIdS = out.runIdS, runIdE = out.runIdE, runIdLine = out.runIdLine;
  const blockFirst = out.blockFirst, blockByte = out.blockByte, blockLine = out.blockLine;
  const docS = out.docS, docE = out.docE, docH = out.docH, score = out.score;
  const lines = out.line;
  const lf = out.fields;
  const f = lf.fields;
  const wasm = out.wasm;
  const stop = line + batch;
  while (i < end && line < stop) {
    if (wasm && qidS >= 0) {
      // The WebAssembly fast path takes the open block's usual lines; this loop takes the
      // line it stops at (a new query, or any line that is not usual), with the rules below.
      i = wasm.lines.runLines(i, end, qidS, qidE - qidS, n, line, float32, wasm.columns);
      const taken = wasm.lines.taken();
      if (taken > 0) {
        n += taken;
        line = runIdLine = wasm.lines.lastLine();
        [runIdS, runIdE] = wasm.lines.runId();
      }
      if (i >= end) break;
    }
    line++;
    const lineStart = i;
    // Fast path, the usual line: six fields of printable ASCII separated by spaces or tabs,
    // then the newline, with a plain decimal score; parsed in one pass with no call. Any
    // other line (comments, CR, other whitespace, UTF-8, more fields, errors) is scanned
    // again by the general path below, which decides.
    let f0s = i;
    // The query id: most lines repeat the open block's, compared in place (those bytes were
    // checked when the block opened), else scanned.
    const qidLen = qidE - qidS;
    let k = 0;
    if (qidS >= 0) { while (k < qidLen && buf[i + k] === buf[qidS + k]) k++; }
    const sameQuery = qidS >= 0 && k === qidLen && isBlank(buf[i + k]);
    k = sameQuery ? i + qidLen : asciiFieldEnd(buf, f0s);
    let f0e = k;
    let ok = f0e > f0s && buf[f0s] !== comment && isBlank(buf[k]);
    let f2s = blankEnd(buf, asciiFieldEnd(buf, blankEnd(buf, k))); // Q0, then the docno
    ok = ok && isBlank(buf[f2s - 1]);
    // The docno, hashed as it is scanned (FNV-1a, as `hashBytes`): the judge's table key.
    let c = 0, hash = FNV_OFFSET;
    for (k = f2s; (c = buf[k]) > 32 && c < 128; k++) hash = Math.imul(hash ^ c, FNV_PRIME);
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
    // The score goes straight into its column (row n, overwritten if the line is not taken):
    // a variable holding it across the paths below made V8 box it, a heap number per line.
    // Exact (Clinger): at most 15 digits, so mantissa and 10^scale are exact.
    const plainScore = ok && digits > 0 && digits <= 15 && isBlank(c);
    score[n] = (neg ? -mant : mant) / POW10[scale];
    let f5s = blankEnd(buf, k);
    k = asciiFieldEnd(buf, f5s);
    let f5e = k;
    ok = ok && k > f5s;
    k = blankEnd(buf, k);
    if (ok && plainScore && buf[k] === 10) {
      i = k + 1;
      docH[n] = hash;
    } else {
      const eol = scanLine(buf, i, lf);
      i = eol + 1;
      // Blank lines are skipped, as trec_eval does; comment lines only in 10.0.
      if (lf.n === 0 || buf[f[0]] === comment) continue;
      const problem = lineProblem(buf, lineStart, eol, lf, 6, false, RUN_LAYOUT);
      if (problem && (line <= p.parsed || rejectLine(skip, problem, file, line))) continue;
      f0s = f[0];
      f0e = f[1];
      f2s = f[4];
      f2e = f[5];
      f5s = f[10];
      f5e = f[11];
      docH[n] = hashBytes(buf, f2s, f2e);
      score[n] = parseScoreBytes(buf, f[8], f[9]);
      if (Number.isNaN(score[n])) {
        // Not plain decimal: an infinity the kit reads, or a refusal saying what trec_eval does.
        const read = scoreFromText(decodeField(buf, f[8], f[9], { file, line }));
        if (typeof read === "number") score[n] = read;
        else {
          const problem = `${read} (expected: ${RUN_LAYOUT})`;
          if (line <= p.parsed || rejectLine(skip, problem, file, line)) continue;
        }
      }
    }
    if (float32) score[n] = Math.fround(score[n]);
    // (A line that began with the open block's id and a blank has that id on either path.)
    if (!sameQuery && (qidS < 0 || !equalBytes(buf, f0s, f0e, buf, qidS, qidE))) {
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

/** One parsed read of a run: `complete` whole query blocks in `lines` over `buf`. */
export interface RunChunk {
  buf: Uint8Array;
  lines: RunLines;
  complete: number;
}

/** Options of {@link readRunChunks}. */
export interface RunReadOptions extends ChunkOptions {
  /** Tolerant mode: skip malformed lines, counting them here. */
  skip?: SkippedLines;
  /** The trec_eval release whose reading rules apply (default 9.0.8). */
  release?: TrecRelease;
  /** Keep scores as written (for readers that hand them out), not as the release stores them. */
  scoresAsWritten?: boolean;
  /** Receives the last line's runid at the end. */
  onRunId?: (runId: string) => void;
  /**
   * Whether the WebAssembly fast path takes the usual lines (default true; false parses
   * every line in JavaScript, for the tests that compare the two).
   */
  wasm?: boolean;
}

/**
 * Reads and parses a run chunk by chunk: each read is parsed in one pass into columns; the
 * query block still open at the end of a read is carried to the next one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readRunChunks } from "./run_reader.ts";
 * const bytes = new TextEncoder().encode("q1 Q0 a 1 0.5 r\nq1 Q0 b 2 0.25 r\nq2 Q0 a 1 1 r\n");
 * const qids: string[] = [];
 * for await (const c of readRunChunks({ name: "run", bytes })) qids.push(...c.lines.blockQid);
 * assert.deepEqual(qids, ["q1", "q2"]);
 * ```
 */
export async function* readRunChunks(
  source: TextSource,
  options: RunReadOptions = {},
): AsyncGenerator<RunChunk> {
  const release = options.release ?? DEFAULT_RELEASE;
  const parse: RunParse = {
    file: sourceName(source),
    skip: options.skip,
    comment: commentByte(release),
    float32: release === "9.0.8" && !options.scoresAsWritten,
    parsed: 0,
  };
  let lineSet: RunLines | undefined;
  let batch = 16;
  let runId = "";
  let any = false;
  let line = 1; // the line of the chunk's first byte
  // The read buffer and the columns in the fast path's memory (see `wasm/lines.ts`).
  const wasm = options.wasm === false ? undefined : new WasmRunLines();
  const buffer = wasm ? (size: number) => wasm.buffer(size) : undefined;
  for await (const c of lineChunks(source, { ...options, buffer })) {
    const capacity = Math.floor(c.buf.length / 12) + 2; // a result line has 12 bytes or more
    let lines = lineSet;
    const columns = wasm?.runColumns(c.buf.length, capacity);
    if (!lines || lines.capacity < capacity || lines.wasm?.columns !== columns) {
      lines = lineSet = new RunLines(capacity, columns && { lines: wasm!, columns });
    }
    lines.blockQid.length = 0;
    lines.n = lines.blocks = lines.runIdLine = 0;
    lines.qidS = lines.qidE = -1;
    lines.lineNo = line - 1;
    for (let i = c.start; i < c.end; batch = warmBatch(batch, BATCH_LINES)) {
      i = parseRunLines(c.buf, i, c.end, parse, lines, batch);
    }
    parse.parsed = lines.lineNo;
    lines.blockFirst[lines.blocks] = lines.n;
    if (lines.runIdLine > 0) {
      runId = decodeField(c.buf, lines.runIdS, lines.runIdE, {
        file: parse.file,
        line: lines.runIdLine,
      });
    }
    if (lines.n > 0) any = true;
    // The last block may continue in the next chunk: carry it unless the data ended.
    const complete = c.eof ? lines.blocks : lines.blocks - 1;
    if (!c.eof && lines.blocks > 0) {
      c.keep = lines.blockByte[lines.blocks - 1];
      c.keepLine = lines.blockLine[lines.blocks - 1];
    } else c.keepLine = lines.lineNo + 1;
    line = c.keepLine;
    if (complete > 0) yield { buf: c.buf, lines, complete };
  }
  if (!any) fail("run file has no result lines (empty file?)", { file: parse.file });
  options.onRunId?.(runId);
}

/**
 * The complete blocks of a parsed chunk as block objects, reused from chunk to chunk
 * (`pool`): a block is valid until the next chunk is asked for.
 */
function chunkBlocks(
  buf: Uint8Array,
  lines: RunLines,
  qids: readonly string[],
  complete: number,
  pool: RunBlock[],
): RunBlock[] {
  const blocks: RunBlock[] = [];
  for (let b = 0; b < complete; b++) {
    const block = pool[b] ??= {
      buf,
      qid: "",
      first: 0,
      count: 0,
      docStart: lines.docS,
      docEnd: lines.docE,
      docHash: lines.docH,
      score: lines.score,
      line: lines.line,
    };
    block.buf = buf;
    block.qid = qids[b];
    block.first = lines.blockFirst[b];
    block.count = lines.blockFirst[b + 1] - block.first;
    block.docStart = lines.docS;
    block.docEnd = lines.docE;
    block.docHash = lines.docH;
    block.score = lines.score;
    block.line = lines.line;
    block.wasm = lines.wasm?.lines;
    blocks.push(block);
  }
  return blocks;
}

/**
 * The query blocks of a run, chunk by chunk, parsed on this thread (the blocks of a chunk
 * are valid until the next chunk is asked for, so a consumer handles them in a plain loop).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runBlockChunks } from "./run_reader.ts";
 * const bytes = new TextEncoder().encode("q1 Q0 a 1 0.5 r\nq2 Q0 a 1 1 r\nq1 Q0 b 1 1 r\n");
 * const qids: string[] = [];
 * for await (const blocks of runBlockChunks({ name: "run", bytes })) {
 *   qids.push(...blocks.map((b) => b.qid));
 * }
 * assert.deepEqual(qids, ["q1", "q2", "q1"]); // not grouped: q1 comes back
 * ```
 */
export async function* runBlockChunks(
  source: TextSource,
  options: RunReadOptions = {},
): AsyncGenerator<RunBlock[]> {
  const pool: RunBlock[] = [];
  for await (const c of readRunChunks(source, options)) {
    yield chunkBlocks(c.buf, c.lines, c.lines.blockQid, c.complete, pool);
  }
}
