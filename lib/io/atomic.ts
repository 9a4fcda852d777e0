/**
 * Writing files without ever leaving a half-written one behind: every file the
 * kit writes goes to a temporary file in the same folder, is flushed, and is then
 * renamed over the target (rename is atomic on one file system). An existing file
 * is only replaced when the caller passes `force`.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { dirname } from "./path.ts";

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

/** A fresh temporary path next to `path` (same folder, so the rename stays on one file system). */
export function tempPathFor(path: string): string {
  const rand = crypto.getRandomValues(new Uint32Array(2));
  return `${path}.tmp-${Deno.pid}-${rand[0].toString(36)}${rand[1].toString(36)}`;
}

/**
 * Whether an error is the operating system saying the disk (or quota) is full.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isDiskFull } from "./atomic.ts";
 * assert(isDiskFull(new Error("No space left on device (os error 28)")));
 * assert(!isDiskFull(new Error("Permission denied (os error 13)")));
 * ```
 */
export function isDiskFull(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  const message = String((e as Error)?.message ?? e);
  return code === "ENOSPC" || code === "EDQUOT" ||
    /os error (28|122)\b|no space left/i.test(message);
}

/**
 * Writes `data` (text, bytes or a stream of byte chunks) to `path` atomically.
 *
 * Without `force` the final step links the temporary file to `path`, which fails when
 * `path` exists, so a file another process created meanwhile is not replaced either. On a
 * full disk (or any write error) the temporary file is removed and an existing `path` is
 * left as it was.
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
  if (!options.force && await exists(path)) {
    throw new KitError("refusing to overwrite an existing file (pass --force to replace it)", {
      file: path,
    });
  }
  if (options.mkdirs !== false) await Deno.mkdir(dirname(path), { recursive: true });
  const tmp = tempPathFor(path);
  const encoder = new TextEncoder();
  const write = options.write ?? ((f: Deno.FsFile, b: Uint8Array) => f.write(b));
  let file: Deno.FsFile | undefined;
  try {
    file = await Deno.open(tmp, { write: true, createNew: true });
    if (typeof data === "string") await writeAll(file, encoder.encode(data), write);
    else if (data instanceof Uint8Array) await writeAll(file, data, write);
    else {
      for await (const chunk of data) {
        await writeAll(file, typeof chunk === "string" ? encoder.encode(chunk) : chunk, write);
      }
    }
    await file.sync();
    file.close();
    file = undefined;
    if (options.force) await Deno.rename(tmp, path);
    else await linkNoClobber(tmp, path);
  } catch (e) {
    try {
      file?.close();
    } catch { /* already closed */ }
    await Deno.remove(tmp).catch(() => {});
    if (e instanceof KitError) throw e;
    const kept = "; nothing was written and any earlier file there is unchanged";
    if (isDiskFull(e)) {
      throw new KitError(`could not write: the disk is full (${(e as Error).message})${kept}`, {
        file: path,
      }, { cause: e });
    }
    throw new KitError(`could not write: ${(e as Error).message}${kept}`, { file: path }, {
      cause: e,
    });
  }
}

/** Moves `tmp` to `path` unless `path` exists (checked by the file system, not before). */
async function linkNoClobber(tmp: string, path: string): Promise<void> {
  try {
    await Deno.link(tmp, path);
  } catch (e) {
    if (e instanceof Deno.errors.AlreadyExists) {
      throw new KitError(
        "refusing to overwrite a file that appeared while writing (pass --force to replace it)",
        { file: path },
      );
    }
    // A file system without hard links: fall back to check-then-rename.
    if (await exists(path)) {
      throw new KitError("refusing to overwrite an existing file (pass --force to replace it)", {
        file: path,
      });
    }
    await Deno.rename(tmp, path);
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
