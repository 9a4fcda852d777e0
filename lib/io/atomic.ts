/**
 * Writing files without ever leaving a half-written one behind: every file the
 * kit writes goes to a temporary file in the same folder, is flushed, and is then
 * renamed over the target (rename is atomic on one file system). An existing file
 * is only replaced when the caller passes `force`; special files are written through,
 * never replaced (lib/io/output.ts); temporary files are removed on Ctrl-C
 * (lib/io/interrupt.ts) and swept when a killed process left them (lib/io/temp.ts).
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { removeOnInterrupt } from "./interrupt.ts";
import { outputError, ReaderClosed, refuseExisting, resolveOutput, writeStdout } from "./output.ts";
import { dirname } from "./path.ts";
import { sweepStaleTemps, tempPathFor } from "./temp.ts";

export { tempPathFor } from "./temp.ts";

/** Options for {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** Replace an existing file (otherwise an existing target is an error). */
  force?: boolean;
  /** Create missing parent folders. Default true. */
  mkdirs?: boolean;
  /**
   * Writes bytes to the open temporary file and returns how many were written (default
   * `file.write`). Tests substitute it to simulate a full disk or a failing device.
   */
  write?: (file: Deno.FsFile, bytes: Uint8Array) => Promise<number>;
}

/**
 * Writes an output a user named: `-` is standard output (written through, as `--out -` is in
 * every command; whatever it redirects to is the caller's and never replaced, and a reader that
 * stops early, `| head`, gives `ReaderClosed`), any other path {@link writeFileAtomic}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeOutput } from "./atomic.ts";
 * const dir = await Deno.makeTempDir();
 * await writeOutput(`${dir}/a.txt`, "hello\n");
 * assert.equal(await Deno.readTextFile(`${dir}/a.txt`), "hello\n");
 * await writeOutput("-", ""); // standard output
 * ```
 */
export async function writeOutput(
  path: string,
  data: string | Iterable<string>,
  options: { force?: boolean } = {},
): Promise<void> {
  if (path !== "-") {
    const text = typeof data === "string"
      ? data
      : ReadableStream.from(data).pipeThrough(new TextEncoderStream());
    return await writeFileAtomic(path, text, { force: options.force });
  }
  if (typeof data === "string") return await writeStdout(data);
  for (const piece of data) await writeStdout(piece);
}

/** Returns true when `path` exists (file or folder). */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

/**
 * Whether an error is the operating system saying the disk (or quota) is full.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isDiskFull } from "./atomic.ts";
 * assert(isDiskFull(new Error("No space left on device (os error 28)")));
 * assert(isDiskFull("OSError: [Errno 28] No space left on device")); // a Python traceback
 * assert(isDiskFull(new Error("wrapped", { cause: new Error("ENOSPC: no space left on device, write") })));
 * assert(!isDiskFull(new Error("Permission denied (os error 13)")));
 * ```
 */
export function isDiskFull(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  const message = String((e as Error)?.message ?? e);
  if (
    code === "ENOSPC" || code === "EDQUOT" ||
    /os error (28|122)\b|no space left|disk quota exceeded|\bENOSPC\b|errno 28\b/i.test(message)
  ) return true;
  const cause = (e as Error)?.cause;
  return cause !== undefined && cause !== e && isDiskFull(cause);
}

/**
 * Writes `data` (text, bytes or a stream of byte chunks) to `path` atomically.
 *
 * `path` is resolved as `resolveOutput` describes (lib/io/output.ts): a link is followed to
 * its target (a replaced file keeps its permissions), a character device, FIFO or descriptor (`/dev/null`, `/dev/stdout`) is written
 * through and never replaced, a folder, disk or socket is refused. A regular file is written
 * to a temporary file next to it (registered for removal on Ctrl-C / SIGTERM), flushed and
 * moved into place; stale temporary files left in that folder by killed processes are swept
 * first (lib/io/temp.ts). Without `force` the final step links the temporary file to `path`, which
 * fails when `path` exists, so a file another process created meanwhile is not replaced
 * either. On a full disk (or any write error) the temporary file is removed and an existing
 * `path` is left as it was. Every failure is a `KitError` naming `path`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeFileAtomic } from "./atomic.ts";
 * const dir = await Deno.makeTempDir();
 * await writeFileAtomic(`${dir}/a.txt`, "hello\n");
 * await writeFileAtomic(`${dir}/a.txt`, "again\n", { force: true });
 * assert(await Deno.readTextFile(`${dir}/a.txt`) === "again\n");
 * ```
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array | AsyncIterable<Uint8Array | string>,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const target = await resolveOutput(path);
  const write = options.write ?? ((f: Deno.FsFile, b: Uint8Array) => f.write(b));
  if (target.kind === "stream") return await writeThrough(path, data, write);
  if (!options.force && target.exists) throw refuseExisting(path, target.path);
  const dest = target.path;
  if (options.mkdirs !== false) {
    try {
      await Deno.mkdir(dirname(dest), { recursive: true });
    } catch (e) {
      throw await outputError(e, path);
    }
  }
  // Any command writing here sweeps what killed ones left here, of every target.
  await sweepStaleTemps(dirname(dest));
  // A replaced file keeps its permissions (a private 0600 file stays private).
  const mode = target.exists ? (await Deno.stat(dest).catch(() => undefined))?.mode : undefined;
  const tmp = tempPathFor(dest);
  let file: Deno.FsFile | undefined;
  const done = removeOnInterrupt(tmp);
  try {
    file = await Deno.open(tmp, { write: true, createNew: true });
    if (typeof mode === "number") await Deno.chmod(tmp, mode & 0o7777);
    await writeData(file, data, write);
    await file.sync();
    file.close();
    file = undefined;
    if (options.force) await Deno.rename(tmp, dest);
    else await linkNoClobber(tmp, dest, path);
  } catch (e) {
    try {
      file?.close();
    } catch { /* already closed */ }
    await Deno.remove(tmp).catch(() => {});
    if (e instanceof KitError) throw e;
    throw await writeError(e, path);
  } finally {
    done();
  }
}

/** A failure while writing: the disk-full and generic messages name the path. */
async function writeError(e: unknown, path: string): Promise<KitError> {
  const kept = "; nothing was written and any earlier file there is unchanged";
  if (isDiskFull(e)) {
    return new KitError(`could not write: the disk is full (${(e as Error).message})${kept}`, {
      file: path,
    }, { cause: e });
  }
  const code = (e as { code?: string })?.code;
  if (code && code !== "EIO") {
    const k = await outputError(e, path);
    return new KitError(k.problem + kept, { file: path }, { cause: e });
  }
  return new KitError(`could not write: ${(e as Error).message}${kept}`, { file: path }, {
    cause: e,
  });
}

/**
 * Writes to a character device, FIFO or open descriptor as a shell's `>` would; a reader
 * that goes away is {@link ReaderClosed}, as for standard output.
 */
async function writeThrough(
  path: string,
  data: string | Uint8Array | AsyncIterable<Uint8Array | string>,
  write: (file: Deno.FsFile, bytes: Uint8Array) => Promise<number>,
): Promise<void> {
  let file: Deno.FsFile | undefined;
  try {
    // append: behind /dev/stdout may be the shell's `>> file`; writing at offset 0 would
    // overwrite it. For devices and pipes it makes no difference.
    file = await Deno.open(path, { write: true, append: true });
    await writeData(file, data, write);
  } catch (e) {
    if (e instanceof KitError) throw e;
    if (e instanceof Deno.errors.BrokenPipe) throw new ReaderClosed(path, { cause: e });
    if (isDiskFull(e)) {
      throw new KitError(`could not write: the device is full (${(e as Error).message})`, {
        file: path,
      }, { cause: e });
    }
    throw await outputError(e, path);
  } finally {
    try {
      file?.close();
    } catch { /* already closed */ }
  }
}

async function writeData(
  file: Deno.FsFile,
  data: string | Uint8Array | AsyncIterable<Uint8Array | string>,
  write: (file: Deno.FsFile, bytes: Uint8Array) => Promise<number>,
): Promise<void> {
  const encoder = new TextEncoder();
  if (typeof data === "string") await writeAll(file, encoder.encode(data), write);
  else if (data instanceof Uint8Array) await writeAll(file, data, write);
  else {
    for await (const chunk of data) {
      await writeAll(file, typeof chunk === "string" ? encoder.encode(chunk) : chunk, write);
    }
  }
}

/**
 * Moves `tmp` to `dest` unless `dest` exists (checked by the file system, not before);
 * errors name `path`, the path as given.
 */
async function linkNoClobber(tmp: string, dest: string, path: string): Promise<void> {
  try {
    await Deno.link(tmp, dest);
  } catch (e) {
    if (e instanceof Deno.errors.AlreadyExists) {
      throw new KitError(
        "refusing to overwrite a file that appeared while writing (pass --force to replace it)",
        { file: path },
      );
    }
    // A file system without hard links: fall back to check-then-rename.
    if (await exists(dest)) throw refuseExisting(path, dest);
    await Deno.rename(tmp, dest);
    return;
  }
  await Deno.remove(tmp);
}

async function writeAll(
  file: Deno.FsFile,
  bytes: Uint8Array,
  write: (file: Deno.FsFile, bytes: Uint8Array) => Promise<number>,
): Promise<void> {
  let off = 0;
  while (off < bytes.length) {
    const n = await write(file, bytes.subarray(off));
    if (!(n > 0)) throw new Error(`write made no progress (${n} bytes written)`);
    off += n;
  }
}

/**
 * Writes `text` to `path` through a temporary file and a rename (never half a file), synchronously:
 * for the kit's own bookkeeping files (install markers, the stamp cache), which it replaces without
 * `--force`. A user's output goes through {@link writeFileAtomic}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { replaceFileSync } from "./atomic.ts";
 * const dir = Deno.makeTempDirSync();
 * replaceFileSync(`${dir}/marker.json`, "{}\n");
 * replaceFileSync(`${dir}/marker.json`, "{\"a\": 1}\n");
 * assert.equal(Deno.readTextFileSync(`${dir}/marker.json`), "{\"a\": 1}\n");
 * assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["marker.json"]);
 * ```
 */
export function replaceFileSync(path: string, text: string): void {
  const tmp = `${path}.tmp-${Deno.pid}-${Date.now().toString(36)}`;
  try {
    Deno.writeTextFileSync(tmp, text);
    Deno.renameSync(tmp, path);
  } catch (e) {
    try {
      Deno.removeSync(tmp);
    } catch { /* not made */ }
    throw e;
  }
}
