/**
 * The one opener of the kit: every reader (TREC files, JSON runs, corpora, JSON lines) gets
 * its bytes here. A source is a path, `-` for standard input, or bytes in memory; gzip is
 * detected by its magic bytes and decompressed on the fly, every member of a multi-member
 * file (what `cat a.gz b.gz` or appending with Python's `gzip.open(..., "at")` makes) in
 * turn, through `node:zlib` (built into Deno; the web `DecompressionStream` stops after the
 * first member). A broken gzip stream gives one message, {@link corruptGzip}.
 *
 * @module
 */
import { KitError } from "../errors.ts";

/** Where input comes from: a path, `-` for standard input, or bytes already in memory. */
export type TextSource = string | { name: string; bytes: Uint8Array };

/**
 * The display name of a source: the path, `<stdin>`, or the in-memory source's name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sourceName } from "./source.ts";
 * assert.equal(sourceName("-"), "<stdin>");
 * assert.equal(sourceName({ name: "mem", bytes: new Uint8Array() }), "mem");
 * ```
 */
export function sourceName(source: TextSource): string {
  return typeof source === "string" ? (source === "-" ? "<stdin>" : source) : source.name;
}

/**
 * Refuses standard input named twice among a command's inputs (`labels` says what each is):
 * it can be read once, and the second reader would find it empty ("no result lines").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkStdinOnce } from "./source.ts";
 * checkStdinOnce([["the qrels", "-"], ["run 1", "a.run"]]);
 * assert.throws(
 *   () => checkStdinOnce([["run 1", "-"], ["run 2", "b.run"], ["run 3", "-"]]),
 *   /run 1 and run 3 cannot both be standard input \('-'\)/,
 * );
 * ```
 */
export function checkStdinOnce(inputs: readonly (readonly [string, unknown])[]): void {
  const named = inputs.filter(([, source]) => source === "-").map(([label]) => label);
  if (named.length < 2) return;
  const list = named.length === 2
    ? `${named[0]} and ${named[1]} cannot both`
    : `${named.slice(0, -1).join(", ")} and ${named.at(-1)} cannot all`;
  throw new KitError(
    `${list} be standard input ('-'): it can be read once; give ` +
      (named.length === 2 ? "one of them as a file" : "all but one of them as files"),
  );
}

/**
 * A source that can be read only once held in memory (read once, whole): standard input, and
 * any path that is not a regular file (a pipe such as `<(zcat run.gz)` or `/dev/stdin`, a
 * FIFO); a regular file or bytes as they are. For readers that look at their input more than
 * once (the JSON sniff, then the parser; a run not grouped by query, read again whole; a
 * duplicate judgment located), which a stream read once cannot give them: the second open of
 * a pipe finds it empty, of a FIFO waits for a writer forever. The held source keeps its name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { holdStdin } from "./source.ts";
 * assert.equal(await holdStdin("runs/a.run"), "runs/a.run");
 * const held = await holdStdin("/dev/null"); // a character device: read once
 * assert.equal(typeof held === "string" ? "path" : held.name, "/dev/null");
 * ```
 */
export async function holdStdin(source: TextSource): Promise<TextSource> {
  if (typeof source !== "string") return source;
  if (source !== "-") {
    try {
      if ((await Deno.stat(source)).isFile) return source;
    } catch {
      return source; // not found, no permission: the reader reports it
    }
  }
  // A stream without newlines (`<(cat /dev/zero)`) is held only up to the readers' line cap.
  return {
    name: sourceName(source),
    bytes: await readAllBytes(source, 2 ** 31, undefined, LINE_CAP),
  };
}

/** text.ts's `MAX_LINE_BYTES`, every reader's longest line (text.ts imports this module). */
const LINE_CAP = 1 << 24;

/** An opened path: a file, or standard input (whose `close` does nothing). */
export interface Input {
  read(into: Uint8Array): Promise<number | null>;
  /** Files only: a synchronous read (no round trip through the runtime's thread pool). */
  readSync?(into: Uint8Array): number | null;
  close(): void;
}

/**
 * What a file system entry that is not a regular file is, in words, for messages: "a
 * folder", "a FIFO (a named pipe)", "a character device", ...; undefined for a regular file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notRegularFile } from "./source.ts";
 * assert.equal(notRegularFile(Deno.statSync("/dev/zero")), "a character device");
 * assert.equal(notRegularFile(Deno.statSync("/tmp")), "a folder");
 * assert.equal(notRegularFile(Deno.statSync(Deno.makeTempFileSync())), undefined);
 * ```
 */
export function notRegularFile(info: Deno.FileInfo): string | undefined {
  if (info.isFile) return undefined;
  if (info.isDirectory) return "a folder";
  if (info.isFifo) return "a FIFO (a named pipe)";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device (a disk)";
  if (info.isSocket) return "a socket";
  return "not a regular file";
}

/**
 * The `KitError` for a failed `stat` or `open` of an input `path`: not found (or a dangling
 * link, with where it leads), a link loop, unreadable (permission denied), anything else the
 * system says.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inputError } from "./source.ts";
 * const dir = Deno.makeTempDirSync();
 * Deno.symlinkSync(`${dir}/gone`, `${dir}/link`);
 * const e = (() => { try { Deno.statSync(`${dir}/link`); } catch (e) { return e; } })();
 * assert.match(inputError(e, `${dir}/link`).message, /link: a dangling link \(to '.*gone', which does not exist\)/);
 * ```
 */
export function inputError(e: unknown, path: string): KitError {
  if (e instanceof KitError) return e;
  if (e instanceof Deno.errors.NotFound) {
    let target: string | undefined;
    try {
      if (Deno.lstatSync(path).isSymlink) target = Deno.readLinkSync(path);
    } catch { /* not there at all */ }
    const problem = target === undefined
      ? "file not found"
      : `a dangling link (to '${target}', which does not exist)`;
    return new KitError(problem, { file: path }, { cause: e });
  }
  if (e instanceof Deno.errors.PermissionDenied) {
    return new KitError("unreadable: permission denied", { file: path }, { cause: e });
  }
  if (e instanceof Deno.errors.FilesystemLoop) {
    return new KitError("too many levels of symbolic links (a link loop?)", { file: path }, {
      cause: e,
    });
  }
  if (e instanceof Deno.errors.IsADirectory) {
    return new KitError("is a folder, expected a file", { file: path }, { cause: e });
  }
  return new KitError(`cannot open: ${(e as Error)?.message ?? e}`, { file: path }, { cause: e });
}

/**
 * Opens a path for reading (`-`: standard input), turning the usual failures into a
 * `KitError` naming the file: not found, a dangling link, unreadable, a folder, anything else
 * the system says ({@link inputError}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openInput } from "./source.ts";
 * await assert.rejects(openInput("/no/such/file"), /file not found/);
 * await assert.rejects(openInput("/tmp"), /is a folder, expected a file/);
 * ```
 */
export async function openInput(path: string): Promise<Input> {
  if (path === "-") return { read: (into) => Deno.stdin.read(into), close: () => {} };
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (e) {
    throw inputError(e, path);
  }
  // Opening a folder succeeds on Linux; reading it would fail with a less clear message.
  if ((await file.stat()).isDirectory) {
    file.close();
    throw new KitError("is a folder, expected a file", { file: path });
  }
  return file;
}

/** An open source: decompressed bytes pulled into the caller's buffers. */
export interface ByteReader {
  /** The source's display name (see {@link sourceName}). */
  readonly name: string;
  /** Whether the bytes are decompressed gzip. */
  readonly gzip: boolean;
  /** Reads into `into` from its start; returns how many bytes (0 at the end). */
  read(into: Uint8Array): Promise<number>;
  /** Releases the file (idempotent; reading to the end also does it). */
  close(): void;
}

/**
 * The one message for a gzip stream that cannot be read to its end, with where the readable
 * text ended when the reader knows (`line`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { corruptGzip } from "./source.ts";
 * assert.match(corruptGzip("a.gz", new Error("unexpected end of file")).message,
 *   /^a\.gz: corrupt or truncated gzip data \(unexpected end of file\)/);
 * ```
 */
export function corruptGzip(file: string, cause: unknown, line?: number): KitError {
  const detail = cause instanceof KitError ? cause.problem : (cause as Error)?.message ?? cause;
  const problem = cause instanceof CorruptGzip
    ? cause.problem
    : `corrupt or truncated gzip data (${detail}); expected a complete gzip stream: ` +
      "download or write the file again";
  return new CorruptGzip(problem, { file, line }, { cause });
}

/** The error of {@link corruptGzip}: readers catch it to add the line they reached. */
export class CorruptGzip extends KitError {}

/**
 * Opens a source for reading bytes, gzip (by its magic bytes) decompressed member by member.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gzipSync } from "node:zlib";
 * import { openSource } from "./source.ts";
 * const two = new Uint8Array([...gzipSync("a\n"), ...gzipSync("b\n")]); // two members
 * const r = await openSource({ name: "x.gz", bytes: two });
 * const buf = new Uint8Array(16);
 * let n = 0, got = 0;
 * while ((got = await r.read(buf.subarray(n))) > 0) n += got;
 * assert.equal(new TextDecoder().decode(buf.subarray(0, n)), "a\nb\n");
 * assert.equal(r.gzip, true);
 * ```
 */
export async function openSource(source: TextSource): Promise<ByteReader> {
  const name = sourceName(source);
  const raw = await openRaw(source);
  // Sniff the magic bytes, then hand them back in front of the rest.
  const head = new Uint8Array(2);
  let got = 0;
  for (let n = 1; got < 2 && n > 0; got += n) n = await raw.read(head.subarray(got));
  let pending = head.subarray(0, got);
  const read = async (into: Uint8Array) => {
    if (pending.length === 0) return await raw.read(into);
    const n = Math.min(pending.length, into.length);
    into.set(pending.subarray(0, n));
    pending = pending.subarray(n);
    return n;
  };
  if (!(got === 2 && head[0] === 0x1f && head[1] === 0x8b)) {
    return { name, gzip: false, read, close: raw.close };
  }
  // node:zlib is loaded when a gzip file is met (it costs every command some start-up).
  zlib ??= await import("node:zlib");
  return { name, gzip: true, read: gunzip(read, name), close: raw.close };
}

/** Bytes `[from, to)` of a regular file: one thread's part of a file read in two halves. */
export interface FileRange {
  from: number;
  to: number;
}

/**
 * Opens bytes `[range.from, range.to)` of a regular file for reading as they are (a plain
 * text file: the halves of a gzip stream cannot be read apart).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openFileRange } from "./source.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "a\nbb\nccc\n");
 * const r = await openFileRange(path, { from: 2, to: 5 });
 * const buf = new Uint8Array(16);
 * assert.equal(new TextDecoder().decode(buf.subarray(0, await r.read(buf))), "bb\n");
 * assert.equal(await r.read(buf), 0);
 * ```
 */
export async function openFileRange(path: string, range: FileRange): Promise<ByteReader> {
  const file = await openInput(path) as Deno.FsFile;
  file.seekSync(range.from, Deno.SeekMode.Start);
  let left = range.to - range.from;
  let open = true;
  const close = () => {
    if (open) file.close();
    open = false;
  };
  return {
    name: path,
    gzip: false,
    read: (into) => {
      if (!open || left <= 0) {
        close();
        return Promise.resolve(0);
      }
      let n: number | null;
      try {
        n = file.readSync(into.subarray(0, Math.min(into.length, left)));
      } catch (e) {
        close();
        throw new KitError(`cannot read: ${(e as Error).message}`, { file: path }, { cause: e });
      }
      left -= n ?? left;
      return Promise.resolve(n ?? 0);
    },
    close,
  };
}

/** A plain reader of a path, standard input or bytes (no gzip). */
async function openRaw(
  source: TextSource,
): Promise<{ read: (into: Uint8Array) => Promise<number>; close: () => void }> {
  if (typeof source !== "string") {
    const bytes = source.bytes;
    let off = 0;
    return {
      read: (into) => {
        const n = Math.min(into.length, bytes.length - off);
        into.set(bytes.subarray(off, off + n));
        off += n;
        return Promise.resolve(n);
      },
      close: () => {},
    };
  }
  const file = await openInput(source);
  let open = true;
  const close = () => {
    if (open) file.close();
    open = false;
  };
  // Files are read synchronously: the data is usually in the page cache, and an async read
  // costs a trip through the runtime's thread pool (0.09 s against 0.05 s for 319 MB in
  // 4 MiB reads). Standard input may wait for a writer: it stays async.
  const readSync = file.readSync?.bind(file);
  return {
    read: async (into) => {
      if (!open) return 0;
      let n: number | null;
      try {
        n = readSync ? readSync(into) : await file.read(into);
      } catch (e) {
        close();
        throw new KitError(`cannot read: ${(e as Error).message}`, { file: sourceName(source) }, {
          cause: e,
        });
      }
      if (n === null) close();
      return n ?? 0;
    },
    close,
  };
}

/** `node:zlib`, once a gzip file has been opened. */
let zlib: typeof import("node:zlib") | undefined;

/**
 * Decompresses gzip bytes held in memory (every member) when a gzip file has been opened
 * before, so that `node:zlib` is loaded; undefined otherwise. For synchronous error paths.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gunzipLoaded, openSource } from "./source.ts";
 * import { gzipSync } from "node:zlib";
 * await openSource({ name: "x.gz", bytes: gzipSync("a\n") });
 * assert.equal(new TextDecoder().decode(gunzipLoaded(gzipSync("b\n"))), "b\n");
 * ```
 */
export function gunzipLoaded(bytes: Uint8Array): Uint8Array | undefined {
  return zlib?.gunzipSync(bytes);
}

/**
 * Decompresses gzip pulled from `read`, every member, feeding the inflater one compressed
 * read at a time and only when its output is used up (so memory stays at a few buffers).
 * Errors become {@link corruptGzip}; a read error of the file itself keeps its own message.
 */
function gunzip(read: (into: Uint8Array) => Promise<number>, name: string) {
  const inflater = zlib!.createGunzip({ chunkSize: 1 << 20 });
  const out: Uint8Array[] = [];
  let ended = false, inputDone = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  inflater.on("data", (c: Uint8Array) => {
    out.push(c);
    wake?.();
  });
  inflater.on("end", () => {
    ended = true;
    wake?.();
  });
  inflater.on("error", (e: unknown) => {
    failure ??= e;
    wake?.();
  });
  /** Waits until the inflater has output, ended or failed, feeding it as needed. */
  const more = async () => {
    while (out.length === 0 && !ended && failure === undefined) {
      if (inputDone) {
        await new Promise<void>((resolve) => wake = resolve);
        wake = undefined;
        continue;
      }
      const buf = new Uint8Array(1 << 20);
      const n = await read(buf);
      if (n === 0) {
        inputDone = true;
        inflater.end();
      } else {await new Promise<void>((resolve) =>
          inflater.write(buf.subarray(0, n), () => resolve())
        );}
    }
    if (failure !== undefined && out.length === 0) {
      inflater.destroy();
      throw failure instanceof KitError ? failure : corruptGzip(name, failure);
    }
  };
  let rest: Uint8Array = new Uint8Array(0);
  // An error after some bytes were read is held back until they are used, so that readers
  // can say where the readable text ends.
  let pending: unknown;
  return async (into: Uint8Array): Promise<number> => {
    if (pending !== undefined) throw pending;
    let n = 0;
    while (n < into.length) {
      if (rest.length === 0) {
        try {
          await more();
        } catch (e) {
          inputDone = true;
          if (n === 0) throw e;
          pending = e;
          break;
        }
        if (out.length === 0) break; // the end of the last member
        rest = out.shift()!;
      }
      const take = Math.min(rest.length, into.length - n);
      into.set(rest.subarray(0, take), n);
      rest = rest.subarray(take);
      n += take;
    }
    return n;
  };
}

/**
 * Reads a whole source into memory (decompressed), refusing more than `maxBytes`. Standard
 * input is read this way where a reader may need the data twice. `checkHead` sees the first
 * bytes read (up to 64 KiB) before the rest is read, to refuse a file of the wrong kind at
 * once (a JSON reader given `/dev/zero`). With `lineCap`, reading stops once the open line
 * is longer than that (a stream without newlines): the bytes held end in that line, which
 * the reader then refuses with its line-cap error, on its line number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readAllBytes } from "./source.ts";
 * const b = await readAllBytes({ name: "m", bytes: new TextEncoder().encode("abc") });
 * assert.equal(b.length, 3);
 * ```
 */
export async function readAllBytes(
  source: TextSource,
  maxBytes = 2 ** 31,
  checkHead?: (head: Uint8Array, name: string) => void,
  lineCap = Infinity,
): Promise<Uint8Array> {
  const r = await openSource(source);
  let buf = new Uint8Array(1 << 16);
  let len = 0, lineStart = 0;
  try {
    for (;;) {
      if (len === buf.length) {
        checkHead?.(buf.subarray(0, len), r.name); // the first 64 KiB, before reading on
        checkHead = undefined;
        if (len >= maxBytes) {
          throw new KitError(`more than ${maxBytes} bytes; too large to hold in memory`, {
            file: r.name,
          });
        }
        const bigger = new Uint8Array(Math.min(2 * buf.length, maxBytes + 1));
        bigger.set(buf);
        buf = bigger;
      }
      let n = 0;
      try {
        n = await r.read(buf.subarray(len));
      } catch (e) {
        // Where the readable text ends.
        if (e instanceof CorruptGzip) throw corruptGzip(r.name, e, countNewlines(buf, 0, len) + 1);
        throw e;
      }
      if (n === 0) break;
      const nl = buf.subarray(len, len + n).lastIndexOf(10);
      len += n;
      if (nl >= 0) lineStart = len - n + nl + 1;
      if (len - lineStart > lineCap) break;
    }
    checkHead?.(buf.subarray(0, len), r.name);
  } finally {
    r.close();
  }
  return buf.subarray(0, len);
}

/**
 * Counts the newline bytes in `bytes[start, end)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { countNewlines } from "./source.ts";
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
