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
 * Writes `data` (text, bytes or a stream of byte chunks) to `path` atomically.
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
  let file: Deno.FsFile | undefined;
  try {
    file = await Deno.open(tmp, { write: true, createNew: true });
    if (typeof data === "string") await writeAll(file, encoder.encode(data));
    else if (data instanceof Uint8Array) await writeAll(file, data);
    else {
      for await (const chunk of data) {
        await writeAll(file, typeof chunk === "string" ? encoder.encode(chunk) : chunk);
      }
    }
    await file.sync();
    file.close();
    file = undefined;
    await Deno.rename(tmp, path);
  } catch (e) {
    try {
      file?.close();
    } catch { /* already closed */ }
    await Deno.remove(tmp).catch(() => {});
    if (e instanceof KitError) throw e;
    throw new KitError(`could not write: ${(e as Error).message}`, { file: path }, { cause: e });
  }
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let off = 0;
  while (off < bytes.length) off += await file.write(bytes.subarray(off));
}
