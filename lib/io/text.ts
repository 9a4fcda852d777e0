/**
 * Reading text files the way every reader of the kit needs it: streamed in
 * chunks that end on line boundaries, gzip detected by its magic bytes, a UTF-8
 * byte-order mark dropped, CRLF accepted, and invalid UTF-8 or a truncated gzip
 * reported as a `KitError` naming the file and line.
 *
 * @module
 */
import { KitError } from "../errors.ts";

/** A chunk of whole lines and the 1-based number of its first line. */
export interface TextChunk {
  /** Whole lines, each ending in `\n` except possibly the file's last. CR before LF removed. */
  text: string;
  /** Line number of the first line in `text`. */
  firstLine: number;
}

/** Where text comes from: a path, `-` for standard input, or bytes already in memory. */
export type TextSource = string | { name: string; bytes: Uint8Array };

const CHUNK = 1 << 22;

/** An opened input: a file, or standard input (whose `close` does nothing). */
export interface Input {
  read(into: Uint8Array): Promise<number | null>;
  /** Files only: a synchronous read (no round trip through the async op machinery). */
  readSync?(into: Uint8Array): number | null;
  readable: ReadableStream<Uint8Array>;
  close(): void;
}

/**
 * Opens a path for reading (`-`: standard input), turning the usual failures into a
 * `KitError` naming the file: not found, a folder, anything else the system says. Shared by
 * the text reader and the TREC byte reader.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openInput } from "./text.ts";
 * await assert.rejects(openInput("/no/such/file"), /file not found/);
 * await assert.rejects(openInput("/tmp"), /is a folder, expected a file/);
 * ```
 */
export async function openInput(source: string): Promise<Input> {
  if (source === "-") {
    return {
      read: (into) => Deno.stdin.read(into),
      readable: Deno.stdin.readable,
      close: () => {},
    };
  }
  let file: Deno.FsFile;
  try {
    file = await Deno.open(source, { read: true });
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new KitError("file not found", { file: source });
    if (e instanceof Deno.errors.IsADirectory) {
      throw new KitError("is a folder, expected a file", { file: source });
    }
    throw new KitError(`cannot open: ${(e as Error).message}`, { file: source }, { cause: e });
  }
  // Opening a folder succeeds on Linux; reading it would fail with a less clear message.
  if ((await file.stat()).isDirectory) {
    file.close();
    throw new KitError("is a folder, expected a file", { file: source });
  }
  return file;
}

async function* byteChunks(source: TextSource): AsyncGenerator<Uint8Array> {
  if (typeof source !== "string") {
    yield source.bytes;
    return;
  }
  const input = await openInput(source);
  for await (const chunk of input.readable) yield chunk;
}

/** The display name of a source. */
export function sourceName(source: TextSource): string {
  return typeof source === "string" ? (source === "-" ? "<stdin>" : source) : source.name;
}

/** A broken gzip stream; {@link textChunks} adds the line where the readable text ends. */
class GzipError extends KitError {}

async function* maybeGunzip(
  chunks: AsyncGenerator<Uint8Array>,
  name: string,
): AsyncGenerator<Uint8Array> {
  const first = await chunks.next();
  if (first.done) return;
  const head = first.value;
  const rest = (async function* () {
    yield head;
    yield* chunks;
  })();
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
    const ds = new DecompressionStream("gzip");
    const writer = ds.writable.getWriter();
    const pump = (async () => {
      for await (const c of rest) await writer.write(c as Uint8Array<ArrayBuffer>);
      await writer.close();
    })();
    pump.catch(() => {});
    try {
      for await (const c of ds.readable) yield c;
      await pump;
    } catch (e) {
      throw new GzipError(
        `corrupt or truncated gzip data (${(e as Error).message}); expected a complete gzip ` +
          "stream: download the file again",
        { file: name },
        { cause: e },
      );
    }
  } else {
    yield* rest;
  }
}

/**
 * Counts the newline bytes in `bytes[start, end)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { countNewlines } from "./text.ts";
 * assert.equal(countNewlines(new TextEncoder().encode("a\nb\nc"), 0, 3), 1);
 * ```
 */
export function countNewlines(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let n = 0;
  let i = bytes.indexOf(10, start);
  while (i >= 0 && i < end) {
    n++;
    i = bytes.indexOf(10, i + 1);
  }
  return n;
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  // Returns the offset where strict decoding breaks (a slow path, used only to report errors).
  const d = new TextDecoder("utf-8", { fatal: true });
  let lo = 0, hi = bytes.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    try {
      d.decode(bytes.subarray(0, mid), { stream: true });
      lo = mid;
    } catch {
      hi = mid;
    }
  }
  return lo;
}

/**
 * Streams a text source as chunks of whole lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { textChunks } from "./text.ts";
 * const bytes = new TextEncoder().encode("\uFEFFa\r\nb\n");
 * let all = "";
 * for await (const c of textChunks({ name: "mem", bytes })) all += c.text;
 * assert(all === "a\nb\n");
 * ```
 */
export async function* textChunks(source: TextSource): AsyncGenerator<TextChunk> {
  const name = sourceName(source);
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  let carry = "";
  let line = 1;
  let pending: Uint8Array[] = [];
  let pendingLen = 0;
  let seenBytes = 0;
  const flushBytes = function* (final: boolean): Generator<TextChunk> {
    if (pendingLen === 0 && !final) return;
    const bytes = pending.length === 1 ? pending[0] : concat(pending, pendingLen);
    pending = [];
    pendingLen = 0;
    let text: string;
    try {
      text = decoder.decode(bytes, { stream: !final });
    } catch {
      const bad = firstInvalidUtf8(bytes);
      const lineNo = line + countNewlines(carryBytes(carry)) + countNewlines(bytes, 0, bad);
      throw new KitError(`invalid UTF-8 at byte ${seenBytes + bad}; expected UTF-8 text`, {
        file: name,
        line: lineNo,
      });
    }
    seenBytes += bytes.length;
    text = carry + text;
    if (text.indexOf("\r") >= 0) text = text.replace(/\r\n/g, "\n");
    const cut = final ? text.length : text.lastIndexOf("\n") + 1;
    carry = text.slice(cut);
    if (cut > 0) {
      const out = text.slice(0, cut);
      yield { text: out, firstLine: line };
      line += countLines(out);
    }
  };
  try {
    for await (const chunk of maybeGunzip(byteChunks(source), name)) {
      pending.push(chunk);
      pendingLen += chunk.length;
      if (pendingLen >= CHUNK) yield* flushBytes(false);
    }
  } catch (e) {
    // A gzip stream that breaks off: say on which line the readable text ends.
    if (e instanceof GzipError) {
      const lineNo = line + countNewlines(carryBytes(carry)) +
        pending.reduce((n, p) => n + countNewlines(p), 0);
      throw new KitError(e.problem, { file: name, line: lineNo }, { cause: e.cause });
    }
    throw e;
  }
  yield* flushBytes(true);
  if (carry.length > 0) yield { text: carry, firstLine: line };
}

function carryBytes(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

function countLines(s: string): number {
  let n = 0, i = -1;
  while ((i = s.indexOf("\n", i + 1)) >= 0) n++;
  return n;
}

function concat(parts: Uint8Array[], len: number): Uint8Array {
  const out = new Uint8Array(len);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** One line of a text source with its 1-based number (no line terminator). */
export interface NumberedLine {
  text: string;
  line: number;
}

/**
 * Streams a text source line by line (LF or CRLF ends, BOM dropped, gzip detected).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readLines } from "./text.ts";
 * const bytes = new TextEncoder().encode("x\ny");
 * const got = [];
 * for await (const l of readLines({ name: "mem", bytes })) got.push(`${l.line}:${l.text}`);
 * assert(got.join(",") === "1:x,2:y");
 * ```
 */
export async function* readLines(source: TextSource): AsyncGenerator<NumberedLine> {
  for await (const chunk of textChunks(source)) {
    const t = chunk.text;
    let line = chunk.firstLine;
    let start = 0;
    while (start < t.length) {
      let end = t.indexOf("\n", start);
      if (end < 0) end = t.length;
      yield { text: t.slice(start, end), line };
      line++;
      start = end + 1;
    }
  }
}

/**
 * Reads a whole text source into a string (BOM dropped, CRLF normalized, gzip detected).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readText } from "./text.ts";
 * const bytes = new TextEncoder().encode("a\r\n");
 * assert(await readText({ name: "m", bytes }) === "a\n");
 * ```
 */
export async function readText(source: TextSource): Promise<string> {
  const parts: string[] = [];
  for await (const c of textChunks(source)) parts.push(c.text);
  return parts.join("");
}
