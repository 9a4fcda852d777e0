/**
 * One writer per output at a time: a lock file beside the output (`.<name>.kit-lock` in its
 * folder) held with the operating system's advisory lock (`flock`), which the kernel releases
 * when its process ends however it ends (a `kill -9` leaves no lock stuck; the file itself
 * stays, empty of meaning: it is reused, or removed by {@link sweepStaleLock}). The file is
 * removed when the lock is released and on an interrupt (Ctrl-C, SIGTERM). A second writer is
 * refused at once, with the holder's process id and start time, which the holder writes into
 * the file.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { onInterrupt } from "./interrupt.ts";
import { outputError } from "./output.ts";
import { basename, dirname } from "./path.ts";

/** A held lock. */
export interface OutputLock {
  /** The lock file. */
  path: string;
  /** Releases the lock and removes its file (idempotent). */
  release(): void;
}

/** The lock file of an output path. */
export function lockPathFor(output: string): string {
  return `${dirname(output)}/.${basename(output)}.kit-lock`;
}

/**
 * Takes the lock of `output` (a report folder, a file), or throws a `KitError` naming `output`
 * when another process holds it (`what` names the other writer: "report"). Where the folder
 * cannot be written the error is the writers' usual one, naming `output`.
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
 * ```
 */
export async function lockOutput(output: string, what: string): Promise<OutputLock> {
  const path = lockPathFor(output);
  try {
    await Deno.mkdir(dirname(output), { recursive: true });
  } catch (e) {
    throw await outputError(e, output);
  }
  for (;;) {
    let file: Deno.FsFile;
    try {
      file = await Deno.open(path, { read: true, write: true, create: true });
    } catch (e) {
      throw await outputError(e, output);
    }
    let held = false;
    try {
      held = await file.tryLock(true);
      if (!held) {
        const holder = await Deno.readTextFile(path).catch(() => "");
        throw new KitError(
          `another ${what} is writing here now (${holder.trim() || "a process"}); wait for it ` +
            "to end, or choose another --out",
          { file: output },
        );
      }
      // The holder before us may have removed the file after we opened it: then the lock we
      // hold is on a file no one else will open, and we start again.
      const [mine, named] = [await file.stat(), await Deno.lstat(path).catch(() => undefined)];
      if (!named || named.ino !== mine.ino || named.dev !== mine.dev) {
        file.close();
        continue;
      }
      // Who holds it, for the message of a writer refused meanwhile (best effort: on a full
      // disk the lock holds all the same, and the write that follows says the disk is full).
      try {
        await file.truncate(0);
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
    let released = false;
    // Interrupted: the file goes (the lock goes with the process); nothing to say about it.
    const unregister = onInterrupt(() => {
      try {
        Deno.removeSync(path);
      } catch { /* gone */ }
    });
    return {
      path,
      release() {
        if (released) return;
        released = true;
        unregister();
        // Removed while held, then closed: a writer that opened it meanwhile finds it gone
        // once it holds the lock, and starts again on a new file.
        try {
          Deno.removeSync(path);
        } catch { /* gone */ }
        try {
          file.close();
        } catch { /* closed */ }
      },
    };
  }
}

/**
 * Removes the lock file of `output` that a writer killed outright (SIGKILL) left, when no
 * process holds its lock; returns whether it did. A lock this process holds is held here too
 * (a second descriptor cannot take it), so it is kept.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lockOutput, lockPathFor, sweepStaleLock } from "./lock.ts";
 * const dir = await Deno.makeTempDir();
 * const lock = await lockOutput(`${dir}/R`, "report");
 * assert.equal(sweepStaleLock(`${dir}/R`), false); // held
 * lock.release();
 * Deno.writeTextFileSync(lockPathFor(`${dir}/R`), "process 999999999, since 2026-01-01\n");
 * assert.equal(sweepStaleLock(`${dir}/R`), true); // its holder is gone
 * assert.deepEqual([...Deno.readDirSync(dir)], []);
 * ```
 */
export function sweepStaleLock(output: string): boolean {
  const path = lockPathFor(output);
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true, write: true });
  } catch {
    return false; // none, or not ours to open
  }
  try {
    if (!file.tryLockSync(true)) return false;
    // Removed while held: a writer that opened it meanwhile finds it gone once it holds the
    // lock, and starts again on a new file (lockOutput).
    const [mine, named] = [file.statSync(), Deno.lstatSync(path)];
    if (named.ino !== mine.ino || named.dev !== mine.dev) return false;
    Deno.removeSync(path);
    return true;
  } catch {
    return false;
  } finally {
    file.close();
  }
}
