/**
 * One writer per output at a time: a lock file beside the output (`.<name>.kit-lock` in its
 * folder) held with the operating system's advisory lock (`flock`), which the kernel releases
 * when its process ends however it ends (a `kill -9` leaves no lock stuck; the file itself
 * stays, empty of meaning: it is reused, or removed by {@link sweepStaleLock}). The file is
 * removed when the lock is released and on an interrupt (Ctrl-C, SIGTERM). A second writer is
 * refused at once, with the holder's process id and start time, which the holder writes into
 * the file.
 *
 * The lock path is never followed: whatever stands there that is not a lock file the kit
 * wrote (a symbolic link, a folder, a FIFO, a device, a socket, a hard link to another file,
 * another user's file, a regular file with other contents) is refused in one line naming the path and what it is,
 * and left as it is. Nothing of such a file is read out or printed; a holder's line is shown
 * only when it has the kit's own form. Taking the lock retries a bounded number of times when
 * another writer removes or replaces the file meanwhile.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { onInterrupt } from "./interrupt.ts";
import { outputError } from "./output.ts";
import { notRegularFile } from "./source.ts";
import { basename, dirname } from "./path.ts";

/** A held lock. */
export interface OutputLock {
  /** The lock file. */
  path: string;
  /** Releases the lock and removes its file (idempotent). */
  release(): void;
}

/** What the kit writes into a lock it holds: `process PID, since ISO-TIME`. */
const HOLDER_LINE = /^process \d{1,10}, since \d{4}-\d\d-\d\dT[\d:.]+Z\n$/;
/** Longer than any holder line: a file past it is not one of the kit's lock files. */
const MAX_LOCK_BYTES = 128;
/** Tries to take a lock whose file other writers remove or replace meanwhile. */
const MAX_TRIES = 100;

/** The lock file of an output path. */
export function lockPathFor(output: string): string {
  return `${dirname(output)}/.${basename(output)}.kit-lock`;
}

/** What a file system entry is, in words ("a symbolic link", "a folder", "a FIFO ..."). */
function entryKind(info: Deno.FileInfo): string {
  return info.isSymlink ? "a symbolic link" : notRegularFile(info) ?? "a regular file";
}

/** The refusal of a lock path that holds something other than one of the kit's lock files. */
function notALock(path: string, what: string): KitError {
  return new KitError(
    `the lock path is ${what}, not a lock file the kit wrote; the kit neither follows nor ` +
      "replaces it: move it away, or choose another --out",
    { file: path },
  );
}

/** The entry at `path` without following a link, or undefined when there is none. */
async function lstatOrNone(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}

/** Whether `a` and `b` are the same file. */
const sameFile = (a: Deno.FileInfo, b: Deno.FileInfo) => a.ino === b.ino && a.dev === b.dev;

/**
 * The contents of an opened lock file when they are the kit's (empty, or a holder line), read
 * from the descriptor with a bound; undefined for anything else.
 */
function kitLockText(file: Deno.FsFile, info: Deno.FileInfo): string | undefined {
  if (!info.isFile || info.nlink !== 1 || info.size > MAX_LOCK_BYTES) return undefined;
  // Another user's file is not this kit's lock, whatever it holds.
  const uid = Deno.uid();
  if (uid !== null && info.uid !== null && info.uid !== uid) return undefined;
  const buf = new Uint8Array(MAX_LOCK_BYTES + 1);
  let n = 0;
  file.seekSync(0, Deno.SeekMode.Start);
  for (;;) {
    const got = file.readSync(buf.subarray(n));
    if (got === null || got === 0) break;
    n += got;
    if (n > MAX_LOCK_BYTES) return undefined;
  }
  const text = new TextDecoder().decode(buf.subarray(0, n));
  return text === "" || HOLDER_LINE.test(text) ? text : undefined;
}

/**
 * Opens the lock file at `path` as it is named (creating it when there is none), or returns
 * undefined when another writer created, removed or replaced it meanwhile (try again).
 * Refuses anything that is not a regular file of this one name.
 */
async function openLockFile(path: string, output: string): Promise<Deno.FsFile | undefined> {
  const before = await lstatOrNone(path).catch(async (e) => {
    throw await outputError(e, output);
  });
  if (before && !before.isFile) throw notALock(path, entryKind(before));
  if (before && before.nlink !== 1) throw notALock(path, "a hard link to another file");
  let file: Deno.FsFile;
  try {
    // O_CREAT | O_EXCL never follows a link: a link put there meanwhile makes it fail.
    file = await Deno.open(
      path,
      before ? { read: true, write: true } : { read: true, write: true, createNew: true },
    );
  } catch (e) {
    if (e instanceof Deno.errors.AlreadyExists || e instanceof Deno.errors.NotFound) {
      return undefined;
    }
    throw await outputError(e, output);
  }
  // Replaced between the look and the open (a link followed, another file): not this one.
  if (before && !sameFile(before, await file.stat())) {
    file.close();
    return undefined;
  }
  return file;
}

/**
 * Takes the lock of `output` (a report folder, a file), or throws a `KitError` naming `output`
 * when another process holds it (`what` names the other writer: "report"). Where the folder
 * cannot be written the error is the writers' usual one, naming `output`; where the lock path
 * holds anything but one of the kit's lock files, the error names the lock path and what is
 * there, and leaves it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lockOutput } from "./lock.ts";
 * const dir = await Deno.makeTempDir();
 * const lock = await lockOutput(`${dir}/R`, "report");
 * assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), [".R.kit-lock"]);
 * lock.release();
 * assert.deepEqual([...Deno.readDirSync(dir)], []);
 * Deno.symlinkSync("/etc/hostname", `${dir}/.R.kit-lock`);
 * await assert.rejects(() => lockOutput(`${dir}/R`, "report"), /is a symbolic link/);
 * ```
 */
export async function lockOutput(output: string, what: string): Promise<OutputLock> {
  const path = lockPathFor(output);
  try {
    await Deno.mkdir(dirname(output), { recursive: true });
  } catch (e) {
    throw await outputError(e, output);
  }
  for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
    const file = await openLockFile(path, output);
    if (!file) continue;
    try {
      const mine = await file.stat();
      const held = await file.tryLock(true);
      const text = kitLockText(file, mine);
      if (!held) {
        throw new KitError(
          `another ${what} is writing here now (${text?.trim() || "a process"}); wait for it ` +
            "to end, or choose another --out",
          { file: output },
        );
      }
      if (text === undefined) throw notALock(path, "a file the kit did not write");
      // The holder before us may have removed the file after we opened it: then the lock we
      // hold is on a file no one else will open, and we start again.
      const named = await lstatOrNone(path);
      if (!named || !sameFile(named, mine)) {
        file.close();
        continue;
      }
      // Who holds it, for the message of a writer refused meanwhile (best effort: on a full
      // disk the lock holds all the same, and the write that follows says the disk is full).
      try {
        await file.truncate(0);
        await file.seek(0, Deno.SeekMode.Start);
        await file.write(new TextEncoder().encode(
          `process ${Deno.pid}, since ${new Date().toISOString()}\n`,
        ));
      } catch { /* the lock holds without it */ }
    } catch (e) {
      try {
        file.close();
      } catch { /* closed */ }
      throw e;
    }
    return heldLock(path, file);
  }
  throw new KitError(
    `could not take the lock: its file was removed or replaced ${MAX_TRIES} times while the ` +
      "kit took it (another program keeps changing it); try again, or choose another --out",
    { file: path },
  );
}

/** The handle of a lock this process holds on `file`, named `path`. */
function heldLock(path: string, file: Deno.FsFile): OutputLock {
  let released = false;
  // Interrupted: the file goes (the lock goes with the process); nothing to say about it.
  const unregister = onInterrupt(() => removeIfSame(path, file));
  return {
    path,
    release() {
      if (released) return;
      released = true;
      unregister();
      // Removed while held, then closed: a writer that opened it meanwhile finds it gone
      // once it holds the lock, and starts again on a new file.
      removeIfSame(path, file);
      try {
        file.close();
      } catch { /* closed */ }
    },
  };
}

/** Removes `path` if it still names the open `file` (never what replaced it). */
function removeIfSame(path: string, file: Deno.FsFile): void {
  try {
    const named = Deno.lstatSync(path);
    if (named.isFile && sameFile(named, file.statSync())) Deno.removeSync(path);
  } catch { /* gone, or closed */ }
}

/**
 * Removes the lock file of `output` that a writer killed outright (SIGKILL) left, when no
 * process holds its lock; returns whether it did. A lock this process holds is held here too
 * (a second descriptor cannot take it), so it is kept; anything at the lock path that is not
 * one of the kit's lock files is left alone (taking the lock refuses it, naming it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lockOutput, lockPathFor, sweepStaleLock } from "./lock.ts";
 * const dir = await Deno.makeTempDir();
 * const lock = await lockOutput(`${dir}/R`, "report");
 * assert.equal(sweepStaleLock(`${dir}/R`), false); // held
 * lock.release();
 * Deno.writeTextFileSync(lockPathFor(`${dir}/R`), "process 999999999, since 2026-01-01T00:00:00.000Z\n");
 * assert.equal(sweepStaleLock(`${dir}/R`), true); // its holder is gone
 * assert.deepEqual([...Deno.readDirSync(dir)], []);
 * ```
 */
export function sweepStaleLock(output: string): boolean {
  const path = lockPathFor(output);
  let before: Deno.FileInfo;
  try {
    before = Deno.lstatSync(path);
  } catch {
    return false; // none
  }
  if (!before.isFile || before.nlink !== 1) return false;
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true, write: true });
  } catch {
    return false; // not ours to open
  }
  try {
    const mine = file.statSync();
    if (!sameFile(before, mine) || kitLockText(file, mine) === undefined) return false;
    if (!file.tryLockSync(true)) return false;
    // Removed while held: a writer that opened it meanwhile finds it gone once it holds the
    // lock, and starts again on a new file (lockOutput).
    const named = Deno.lstatSync(path);
    if (!sameFile(named, mine)) return false;
    Deno.removeSync(path);
    return true;
  } catch {
    return false;
  } finally {
    file.close();
  }
}
