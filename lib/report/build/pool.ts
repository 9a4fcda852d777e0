/**
 * A few jobs at a time: the report finishes two notebooks at once (build.ts).
 *
 * @module
 */

/** What {@link pool} returns. */
export interface Pool {
  /** Queues `job`; it starts once fewer than the pool's size run, in the order added. */
  add(job: () => Promise<void>): void;
  /** Resolves once every job added has ended (or been skipped after a failure). */
  done(): Promise<void>;
}

/**
 * Jobs run at most `size` at a time, started in the order added. The first job that throws
 * stops the pool: `failed` gets its error (and any other running job's), and the jobs still
 * queued are skipped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pool } from "./pool.ts";
 * let running = 0, most = 0;
 * const ran: number[] = [];
 * const errors: unknown[] = [];
 * const jobs = pool(2, (e) => errors.push(e));
 * for (let i = 0; i < 5; i++) {
 *   jobs.add(async () => {
 *     if (i === 2) throw new Error("job 2");
 *     most = Math.max(most, ++running);
 *     await new Promise((r) => setTimeout(r, 5 - i));
 *     running--;
 *     ran.push(i);
 *   });
 * }
 * await jobs.done();
 * assert.equal(most, 2);
 * assert.deepEqual(errors.map((e) => (e as Error).message), ["job 2"]);
 * assert.deepEqual(ran.sort(), [0, 1], "a job queued after the failure ran");
 * ```
 */
export function pool(size: number, failed: (error: unknown) => void): Pool {
  let free = size, stopped = false;
  const queue: (() => void)[] = [];
  const jobs: Promise<void>[] = [];
  const slot = () =>
    free > 0 ? (free--, Promise.resolve()) : new Promise<void>((go) => queue.push(go));
  const leave = () => {
    const next = queue.shift();
    if (next) next();
    else free++;
  };
  return {
    add(job) {
      jobs.push(
        slot().then(() => stopped ? undefined : job())
          .catch((error) => {
            stopped = true;
            failed(error);
          })
          .finally(leave),
      );
    },
    done: () => Promise.all(jobs).then(() => {}),
  };
}
