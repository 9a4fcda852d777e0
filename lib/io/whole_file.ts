/**
 * Reading a file whole, with a bound: the kit's one reader of files it holds in memory at
 * once (model weights, tokenizers, configs, specs, manifests, caches), where the streamed
 * readers of `text.ts` and their line cap do not apply. A path is `stat`ed before it is opened,
 * so that anything that is not a regular file (a folder, a FIFO, which would block an `open`
 * until a writer came, a device such as `/dev/zero`, a socket) and a file over its kind's
 * limit ({@link WHOLE_FILE_LIMITS}) is refused before a byte is read; the opened file is
 * checked again (`fstat`) and read with the bound, so a file that grows meanwhile, or one that
 * says it is smaller than it is (`/proc`), still cannot hold more than the limit in memory.
 * Every refusal is a `KitError` naming the file and what it is.
 *
 * (A path swapped for a FIFO between the `stat` and the `open` would still make the `open`
 * wait: Deno opens without `O_NONBLOCK`. The window is the two system calls.)
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { inputError, notRegularFile } from "./source.ts";
import { readText } from "./text.ts";

const MiB = 1 << 20;
const GiB = 1 << 30;

/** One kind of file the kit reads whole: what it is called in messages, and its limit. */
export interface WholeFileLimit {
  /** What the file is, in messages ("ONNX model weights"). */
  what: string;
  /** Which files, for the docs. */
  files: string;
  /** The largest file accepted, in bytes. */
  bytes: number;
}

/**
 * Every kind of file the kit reads whole, with its size limit. Each limit is far above any
 * real file of its kind and low enough that a wrong path (a disk image, `/dev/zero`) is
 * refused at once: ONNX weights stop at 2 GiB because protobuf cannot hold more (larger
 * models keep their weights in external data files, which the kit does not load); the
 * score cache and a qrels file read again at JavaScript's longest string, about 512 MiB.
 */
export const WHOLE_FILE_LIMITS = {
  weights: {
    what: "ONNX model weights",
    files: "`model.onnx`, `onnx/model.onnx` of a model folder",
    bytes: 2 * GiB,
  },
  tokenizer: {
    what: "a tokenizer",
    files: "`tokenizer.json`, `vocab.txt` of a model folder",
    bytes: 256 * MiB,
  },
  config: {
    what: "a model configuration",
    files: "`config.json`, `tokenizer_config.json`, `special_tokens_map.json` of a model folder",
    bytes: 16 * MiB,
  },
  ranker: {
    what: "a saved ranker model",
    files: "`score --init-model FILE`, `readLtrModel`",
    bytes: 64 * MiB,
  },
  spec: {
    what: "a systems spec",
    files: "`readSpecFile` (the systems page's spec)",
    bytes: 16 * MiB,
  },
  manifest: {
    what: "a report manifest",
    files: "`.kit-report` of a report folder",
    bytes: 64 * MiB,
  },
  marker: {
    what: "an install marker",
    files: "`.installed.json` of a corpus, the user's `verified-stamps.json`",
    bytes: 16 * MiB,
  },
  corpus: {
    what: "a corpus file",
    files:
      "a split's file in a corpus folder (`--dir`); `data fetch`'s installed and mirror copies",
    bytes: 256 * MiB,
  },
  shardRecord: {
    what: "a shard record",
    files: "`<run>.shard.json` beside a shard's run (`score --shard`)",
    bytes: 1 * MiB,
  },
  scoreCache: {
    what: "a score cache",
    files: "`<cache>/scores/*.json`",
    bytes: 512 * MiB,
  },
  qrels: {
    what: "a qrels file read again to locate a duplicate judgment",
    files: "the qrels of `eval trec` and `readQrels` (only for the line number of the message)",
    bytes: 512 * MiB,
  },
  asset: {
    what: "a script inlined into a page",
    files: "plotly.js, an npm package's file",
    bytes: 64 * MiB,
  },
} as const satisfies Record<string, WholeFileLimit>;

/** A kind of file read whole (a key of {@link WHOLE_FILE_LIMITS}). */
export type WholeFileKind = keyof typeof WHOLE_FILE_LIMITS;

/**
 * A size in words: `16 MiB`, `2 GiB`, or bytes when not a whole number of either.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatLimit } from "./whole_file.ts";
 * assert.equal(formatLimit(2 ** 31), "2 GiB");
 * assert.equal(formatLimit(16 * 2 ** 20), "16 MiB");
 * assert.equal(formatLimit(100), "100 bytes");
 * ```
 */
export function formatLimit(bytes: number): string {
  if (bytes >= GiB && bytes % GiB === 0) return `${bytes / GiB} GiB`;
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  return `${bytes} bytes`;
}

/**
 * The problem (without the file name) of a file over its kind's limit; `size` is the size
 * it states, undefined when more was read than it stated.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tooLargeProblem } from "./whole_file.ts";
 * assert.equal(tooLargeProblem("config", 2 ** 25),
 *   "33554432 bytes, larger than the 16 MiB limit for a model configuration");
 * ```
 */
export function tooLargeProblem(
  kind: WholeFileKind,
  size?: number,
  limit: number = WHOLE_FILE_LIMITS[kind].bytes,
): string {
  return `${size === undefined ? `more than ${limit} bytes read` : `${size} bytes`}, larger ` +
    `than the ${formatLimit(limit)} limit for ${WHOLE_FILE_LIMITS[kind].what}`;
}

/** Refuses what is not a regular file, or is over the limit; `stat` of the path or handle. */
function check(path: string, kind: WholeFileKind, info: Deno.FileInfo, limit: number): void {
  const type = notRegularFile(info);
  if (type !== undefined) {
    throw new KitError(
      `is ${type}, not a regular file; expected ${WHOLE_FILE_LIMITS[kind].what}`,
      { file: path },
    );
  }
  if (info.size > limit) {
    throw new KitError(tooLargeProblem(kind, info.size, limit), { file: path });
  }
}

/** Options of {@link readWholeFile}. */
export interface WholeFileOptions {
  /** A missing file (not a dangling link) is `undefined` instead of an error. */
  missingOk?: boolean;
  /** A lower limit than the kind's, in bytes (a caller that knows the size to expect). */
  limit?: number;
}

/** The limit that applies: the kind's, or a lower one the caller gave. */
function limitOf(kind: WholeFileKind, options: WholeFileOptions): number {
  return Math.min(WHOLE_FILE_LIMITS[kind].bytes, options.limit ?? Infinity);
}

/**
 * The checks made before a file is read whole, without reading it: it is a regular file (a
 * link is followed) within its kind's limit. Returns its `stat`; a missing file is
 * `undefined` with `missingOk`, else an error, like every other refusal a `KitError` naming
 * the file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkWholeFileSync } from "./whole_file.ts";
 * assert.throws(() => checkWholeFileSync("/dev/zero", "weights"),
 *   /^KitError: \/dev\/zero: is a character device, not a regular file; expected ONNX model weights$/);
 * assert.equal(checkWholeFileSync("/no/such/file", "config", { missingOk: true }), undefined);
 * ```
 */
export function checkWholeFileSync(
  path: string,
  kind: WholeFileKind,
  options: WholeFileOptions = {},
): Deno.FileInfo | undefined {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (e) {
    const err = inputError(e, path);
    if (options.missingOk && err.problem === "file not found") return undefined;
    throw err;
  }
  check(path, kind, info, limitOf(kind, options));
  return info;
}

/**
 * Gathers a file's bytes into one buffer of its stated size, and past that (a file that grew,
 * or a `/proc` file that states 0) through a small spare buffer, refusing more than the limit.
 */
class Gather {
  private buf: Uint8Array;
  private len = 0;
  private spare = new Uint8Array(1 << 16);

  constructor(
    private path: string,
    private kind: WholeFileKind,
    size: number,
    private limit: number,
  ) {
    this.buf = new Uint8Array(Math.min(size, limit));
  }

  /** Where the next read goes. */
  space(): Uint8Array {
    return this.len < this.buf.length ? this.buf.subarray(this.len) : this.spare;
  }

  /** Takes a read's count (null or 0: the end); whether to read on. */
  took(n: number | null): boolean {
    if (!n) return false;
    if (this.len < this.buf.length) {
      this.len += n;
      return true;
    }
    if (this.len + n > this.limit) {
      throw new KitError(tooLargeProblem(this.kind, undefined, this.limit), { file: this.path });
    }
    const grown = new Uint8Array(Math.min(this.limit, Math.max(2 * this.len, this.len + n)));
    grown.set(this.buf.subarray(0, this.len));
    grown.set(this.spare.subarray(0, n), this.len);
    this.buf = grown;
    this.len += n;
    return true;
  }

  bytes(): Uint8Array {
    return this.len === this.buf.length ? this.buf : this.buf.subarray(0, this.len);
  }
}

/** A read error of an opened file, as a `KitError` naming it. */
function readError(e: unknown, path: string): KitError {
  return new KitError(`cannot read: ${(e as Error)?.message ?? e}`, { file: path }, { cause: e });
}

/**
 * Reads a whole file into memory after {@link checkWholeFileSync}'s checks, and with its
 * kind's limit as a bound on the bytes read. A missing file is `undefined` with `missingOk`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readWholeFile } from "./whole_file.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/config.json`, "{}");
 * assert.equal((await readWholeFile(`${dir}/config.json`, "config")).length, 2);
 * await Deno.mkdir(`${dir}/model.onnx`);
 * await assert.rejects(readWholeFile(`${dir}/model.onnx`, "weights"),
 *   /model\.onnx: is a folder, not a regular file; expected ONNX model weights$/);
 * await Deno.symlink("/dev/zero", `${dir}/zero.onnx`);
 * await assert.rejects(readWholeFile(`${dir}/zero.onnx`, "weights"), /is a character device/);
 * await Deno.truncate(`${dir}/config.json`, 2 ** 24 + 1); // sparse: nothing is written
 * await assert.rejects(readWholeFile(`${dir}/config.json`, "config"),
 *   /16777217 bytes, larger than the 16 MiB limit for a model configuration/);
 * ```
 */
export async function readWholeFile(
  path: string,
  kind: WholeFileKind,
  options?: WholeFileOptions & { missingOk?: false },
): Promise<Uint8Array>;
export async function readWholeFile(
  path: string,
  kind: WholeFileKind,
  options: WholeFileOptions,
): Promise<Uint8Array | undefined>;
export async function readWholeFile(
  path: string,
  kind: WholeFileKind,
  options: WholeFileOptions = {},
): Promise<Uint8Array | undefined> {
  if (!checkWholeFileSync(path, kind, options)) return undefined;
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (e) {
    throw inputError(e, path);
  }
  try {
    const info = await file.stat();
    check(path, kind, info, limitOf(kind, options));
    const gather = new Gather(path, kind, info.size, limitOf(kind, options));
    for (;;) {
      let n: number | null;
      try {
        n = await file.read(gather.space());
      } catch (e) {
        throw readError(e, path);
      }
      if (!gather.took(n)) return gather.bytes();
    }
  } finally {
    file.close();
  }
}

/**
 * {@link readWholeFile}, synchronously.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readWholeFileSync } from "./whole_file.ts";
 * assert.throws(() => readWholeFileSync("/tmp", "manifest"), /tmp: is a folder, not a regular file/);
 * assert.equal(readWholeFileSync("/no/such/file", "marker", { missingOk: true }), undefined);
 * // /proc files say they are empty: the bound is on the bytes read, not on the stated size.
 * assert(readWholeFileSync("/proc/self/maps", "asset").length > 0);
 * assert.throws(() => readWholeFileSync("/proc/self/maps", "asset", { limit: 100 }),
 *   /maps: more than 100 bytes read, larger than the 100 bytes limit for a script inlined/);
 * ```
 */
export function readWholeFileSync(
  path: string,
  kind: WholeFileKind,
  options?: WholeFileOptions & { missingOk?: false },
): Uint8Array;
export function readWholeFileSync(
  path: string,
  kind: WholeFileKind,
  options: WholeFileOptions,
): Uint8Array | undefined;
export function readWholeFileSync(
  path: string,
  kind: WholeFileKind,
  options: WholeFileOptions = {},
): Uint8Array | undefined {
  if (!checkWholeFileSync(path, kind, options)) return undefined;
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch (e) {
    throw inputError(e, path);
  }
  try {
    const info = file.statSync();
    check(path, kind, info, limitOf(kind, options));
    const gather = new Gather(path, kind, info.size, limitOf(kind, options));
    for (;;) {
      let n: number | null;
      try {
        n = file.readSync(gather.space());
      } catch (e) {
        throw readError(e, path);
      }
      if (!gather.took(n)) return gather.bytes();
    }
  } finally {
    file.close();
  }
}

/**
 * Reads a whole text file with {@link readWholeFile}'s checks and bound, decoded as every
 * text of the kit (`text.ts`' `readText`: strict UTF-8, BOM dropped, CRLF normalized, gzip
 * detected). A missing file is `undefined` with `missingOk`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readWholeText } from "./whole_file.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "\uFEFF{\"a\": 1}\r\n");
 * assert.equal(await readWholeText(path, "spec"), "{\"a\": 1}\n");
 * await assert.rejects(readWholeText("/dev/zero", "spec"), /is a character device/);
 * ```
 */
export async function readWholeText(
  path: string,
  kind: WholeFileKind,
  options?: WholeFileOptions & { missingOk?: false },
): Promise<string>;
export async function readWholeText(
  path: string,
  kind: WholeFileKind,
  options: WholeFileOptions,
): Promise<string | undefined>;
export async function readWholeText(
  path: string,
  kind: WholeFileKind,
  options: WholeFileOptions = {},
): Promise<string | undefined> {
  const bytes = await readWholeFile(path, kind, options);
  return bytes === undefined ? undefined : await readText({ name: path, bytes });
}
