/**
 * Reading text files the way every reader of the kit needs it: streamed in chunks that end
 * on line boundaries, through the kit's one opener (`source.ts`: files, standard input,
 * bytes, gzip with every member), a UTF-8 byte-order mark dropped, CRLF accepted, and
 * invalid UTF-8, a broken gzip stream or a line longer than {@link MAX_LINE_BYTES} reported
 * as a `KitError` naming the file and line.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import {
  CorruptGzip,
  corruptGzip,
  countNewlines,
  openSource,
  sourceName,
  type TextSource,
} from "./source.ts";

export { countNewlines, sourceName, type TextSource } from "./source.ts";

/**
 * The longest line any reader accepts (16 MiB): no line of a real file comes near it, and a
 * file without newlines (`/dev/zero`, a binary file) fails here instead of filling memory.
 */
export const MAX_LINE_BYTES = 1 << 24;

/** The most text {@link readText} holds (a JavaScript string cannot be much longer). */
export const MAX_TEXT_BYTES = 1 << 29;

/** A chunk of whole lines and the 1-based number of its first line. */
export interface TextChunk {
  /** Whole lines, each ending in `\n` except possibly the file's last. CR before LF removed. */
  text: string;
  /** Line number of the first line in `text`. */
  firstLine: number;
}

/** Bytes read at a time. */
const CHUNK = 1 << 22;

/**
 * The error for a line longer than the cap (a file without newlines, `/dev/zero`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineTooLong } from "./text.ts";
 * assert.match(lineTooLong("run.txt", 1, 1 << 24).message, /^run\.txt:1: line longer than 16 MiB/);
 * ```
 */
export function lineTooLong(file: string, line: number, cap: number): KitError {
  const size = cap % (1 << 20) === 0 ? `${cap / (1 << 20)} MiB` : `${cap} bytes`;
  return new KitError(
    `line longer than ${size} (the limit of every reader): not a text file of lines? ` +
      "(a file without newlines, such as /dev/zero)",
    { file, line },
  );
}

/** Where strict decoding of `bytes` breaks (a slow path, used only to report errors). */
function firstInvalidUtf8(bytes: Uint8Array): number {
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

/** Options of {@link textChunks}. */
export interface TextChunkOptions {
  /** The longest line accepted, in bytes (default {@link MAX_LINE_BYTES}). */
  maxLineBytes?: number;
}

/**
 * Decodes the bytes of a source piece by piece (strict UTF-8, BOM dropped), refusing a NUL
 * byte (no text file has one; `/dev/zero` and binary files do) and more than `maxBytes`.
 * `line(bytes, at)` gives the line number of byte `at` of a piece, for the messages.
 */
async function* decodedPieces(
  source: TextSource,
  maxBytes: number,
  line: (bytes: Uint8Array, at: number) => number,
): AsyncGenerator<{ text: string; bytes: Uint8Array }> {
  const name = sourceName(source);
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  const reader = await openSource(source);
  const buf = new Uint8Array(CHUNK);
  let seen = 0;
  try {
    for (;;) {
      let n = 0;
      try {
        n = await reader.read(buf);
      } catch (e) {
        // Where the readable text ends: the line after the last whole one.
        if (e instanceof CorruptGzip) throw corruptGzip(name, e, line(buf, 0));
        throw e;
      }
      const bytes = buf.subarray(0, n);
      if (seen + n > maxBytes) {
        throw new KitError(`larger than ${maxBytes} bytes: too large to read as one text`, {
          file: name,
        });
      }
      const nul = bytes.indexOf(0);
      if (nul >= 0) {
        throw new KitError("a NUL byte: not a text file?", { file: name, line: line(bytes, nul) });
      }
      let text: string;
      try {
        text = decoder.decode(bytes, { stream: n > 0 });
      } catch {
        const bad = firstInvalidUtf8(bytes);
        throw new KitError(`invalid UTF-8 at byte ${seen + bad}; expected UTF-8 text`, {
          file: name,
          line: line(bytes, bad),
        });
      }
      seen += n;
      yield { text, bytes };
      if (n === 0) return;
    }
  } finally {
    reader.close();
  }
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
export async function* textChunks(
  source: TextSource,
  options: TextChunkOptions = {},
): AsyncGenerator<TextChunk> {
  const name = sourceName(source);
  const maxLine = options.maxLineBytes ?? MAX_LINE_BYTES;
  let carry = ""; // the text after the last newline so far
  let line = 1; // the line `carry` starts on
  let lineBytes = 0; // bytes of the line being read
  const lineOf = (bytes: Uint8Array, at: number) =>
    line + countLines(carry) + countNewlines(bytes, 0, at);
  for await (const { text: piece, bytes } of decodedPieces(source, Infinity, lineOf)) {
    const lastNewline = bytes.lastIndexOf(10);
    lineBytes = lastNewline < 0 ? lineBytes + bytes.length : bytes.length - lastNewline - 1;
    if (lineBytes > maxLine) throw lineTooLong(name, lineOf(bytes, bytes.length), maxLine);
    let text = carry + piece;
    if (text.indexOf("\r") >= 0) text = text.replace(/\r\n/g, "\n");
    const cut = bytes.length === 0 ? text.length : text.lastIndexOf("\n") + 1;
    carry = text.slice(cut);
    if (cut > 0) {
      const out = text.slice(0, cut);
      yield { text: out, firstLine: line };
      line += countLines(out);
    }
  }
}

function countLines(s: string): number {
  let n = 0, i = -1;
  while ((i = s.indexOf("\n", i + 1)) >= 0) n++;
  return n;
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
 * Lines may be of any length (JSON is often one line), the whole at most
 * {@link MAX_TEXT_BYTES}.
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
  let line = 1;
  const lineOf = (bytes: Uint8Array, at: number) => line + countNewlines(bytes, 0, at);
  for await (const { text, bytes } of decodedPieces(source, MAX_TEXT_BYTES, lineOf)) {
    parts.push(text);
    line += countNewlines(bytes);
  }
  const text = parts.join("");
  return text.indexOf("\r") >= 0 ? text.replace(/\r\n/g, "\n") : text;
}
