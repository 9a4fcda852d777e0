/**
 * Splitting a split's questions into N shards that separate machines score: shard I of N
 * holds the questions whose id hashes to I (FNV-1a, 32 bits, over the id's UTF-8 bytes,
 * modulo N). A question's shard depends on its id and N alone, never on which other
 * questions there are, so every shard of a job array agrees without talking to the others,
 * and the shards' runs together hold every question exactly once.
 *
 * The index comes from `--shard I/N` (0-based), or with `--shards N` from the scheduler:
 * `JOB_COMPLETION_INDEX` (a Kubernetes Indexed Job, 0-based) or `SLURM_ARRAY_TASK_ID`, taken
 * relative to `SLURM_ARRAY_TASK_MIN` so that `--array=0-2` and `--array=1-3` both give shards
 * 0, 1, 2. Anything that leaves the index in doubt is refused.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import type { Run } from "../metrics/types.ts";

/** One share of the questions. */
export interface Shard {
  /** 0-based index, below `count`. */
  index: number;
  /** How many shards there are. */
  count: number;
  /** Where the index came from, in words (`--shard 1/3`, `SLURM_ARRAY_TASK_ID=2 ...`). */
  source: string;
}

/**
 * FNV-1a (32 bits) of a string's UTF-8 bytes: a hash any language reproduces in a line
 * (offset basis 2166136261, prime 16777619).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fnv1a32 } from "./shard.ts";
 * // the published test vectors of FNV-1a 32
 * assert.equal(fnv1a32(""), 0x811c9dc5);
 * assert.equal(fnv1a32("a"), 0xe40c292c);
 * assert.equal(fnv1a32("foobar"), 0xbf9cf968);
 * ```
 */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/**
 * The shard (0-based) a question id belongs to among `count`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardOf } from "./shard.ts";
 * assert.equal(shardOf("a", 1), 0);
 * assert.equal(shardOf("a", 3), 0xe40c292c % 3);
 * ```
 */
export function shardOf(id: string, count: number): number {
  return fnv1a32(id) % count;
}

/**
 * The items of `shard`, in their order; every item when `shard` is undefined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardItems } from "./shard.ts";
 * const qs = ["Q1", "Q2", "Q3", "Q4", "Q5"].map((id) => ({ id }));
 * const parts = [0, 1, 2].map((index) => shardItems(qs, { index, count: 3, source: "" }, (q) => q.id));
 * assert.deepEqual(parts.flat().map((q) => q.id).sort(), ["Q1", "Q2", "Q3", "Q4", "Q5"]);
 * ```
 */
export function shardItems<T>(items: readonly T[], shard: Shard | undefined, id: (x: T) => string) {
  return shard ? items.filter((x) => shardOf(id(x), shard.count) === shard.index) : [...items];
}

const INTEGER = /^(0|[1-9][0-9]*)$/;

/** The most shards: Slurm's largest array (MaxArraySize) is 4,000,001 tasks. */
export const MAX_SHARDS = 4_000_000;

function count(text: string, what: string): number {
  if (!INTEGER.test(text) || Number(text) < 1) {
    throw new KitError(`${what} must be a positive integer, not '${text}'`);
  }
  if (text.length > String(MAX_SHARDS).length || Number(text) > MAX_SHARDS) {
    throw new KitError(
      `${what} must be at most ${MAX_SHARDS} (Slurm's largest job array), not '${text}'`,
    );
  }
  return Number(text);
}

/** What {@link resolveShard} reads: the flags as given, and the environment. */
export interface ShardRequest {
  /** `--shard I/N`. */
  shard?: string;
  /** `--shards N`. */
  shards?: string;
  /** The environment (default: the process's). */
  env?: Record<string, string | undefined>;
}

/**
 * The shard a command runs: from `--shard I/N`, or with `--shards N` from
 * `JOB_COMPLETION_INDEX` or `SLURM_ARRAY_TASK_ID` (relative to `SLURM_ARRAY_TASK_MIN`, the
 * array's task count checked against N); `undefined` when neither flag is given (the
 * scheduler's variables alone shard nothing: a job array may vary something else).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveShard } from "./shard.ts";
 * assert.equal(resolveShard({ env: { SLURM_ARRAY_TASK_ID: "2" } }), undefined);
 * assert.equal(resolveShard({ shard: "1/3", env: {} })!.index, 1);
 * // a 1-based Slurm array: --array=1-3
 * const slurm = { SLURM_ARRAY_TASK_ID: "1", SLURM_ARRAY_TASK_MIN: "1", SLURM_ARRAY_TASK_MAX: "3",
 *   SLURM_ARRAY_TASK_COUNT: "3" };
 * assert.equal(resolveShard({ shards: "3", env: slurm })!.index, 0);
 * assert.equal(resolveShard({ shards: "3", env: { JOB_COMPLETION_INDEX: "2" } })!.index, 2);
 * assert.throws(() => resolveShard({ shards: "3", env: {} }), /needs the shard's index/);
 * ```
 */
export function resolveShard(request: ShardRequest): Shard | undefined {
  const env = request.env ?? Deno.env.toObject();
  const n = request.shards === undefined ? undefined : count(request.shards, "--shards");
  if (request.shard !== undefined) {
    const m = /^([^/]*)\/([^/]*)$/.exec(request.shard);
    if (!m || !INTEGER.test(m[1])) {
      throw new KitError(
        `--shard takes I/N, shard I (from 0) of N, e.g. --shard 0/4; not '${request.shard}'`,
      );
    }
    const total = count(m[2], "N of --shard I/N");
    const index = Number(m[1]);
    if (index >= total) {
      throw new KitError(
        `--shard ${request.shard}: shards are numbered from 0, so I must be below ${total}`,
      );
    }
    if (n !== undefined && n !== total) {
      throw new KitError(`--shard ${request.shard} and --shards ${n} disagree on N`);
    }
    return { index, count: total, source: `--shard ${index}/${total}` };
  }
  if (n === undefined) return undefined;
  // an empty variable counts as unset, as schedulers never set one empty
  const k8s = env.JOB_COMPLETION_INDEX || undefined;
  const slurm = env.SLURM_ARRAY_TASK_ID || undefined;
  if (k8s !== undefined && slurm !== undefined) {
    throw new KitError(
      `both JOB_COMPLETION_INDEX (${k8s}) and SLURM_ARRAY_TASK_ID (${slurm}) are set: which ` +
        "one is the shard's index is ambiguous; give --shard I/N",
    );
  }
  if (k8s !== undefined) {
    if (!INTEGER.test(k8s)) {
      throw new KitError(
        `JOB_COMPLETION_INDEX='${k8s}' is not an index (a whole number from 0, no sign, ` +
          "space or leading zero, as Kubernetes sets it)",
      );
    }
    if (Number(k8s) >= n) {
      throw new KitError(
        `JOB_COMPLETION_INDEX=${k8s} is not a shard of --shards ${n} (0 to ${n - 1}): ` +
          "the Indexed Job's completions must equal --shards",
      );
    }
    return { index: Number(k8s), count: n, source: `JOB_COMPLETION_INDEX=${k8s}` };
  }
  if (slurm !== undefined) return slurmShard(env, slurm, n);
  throw new KitError(
    `--shards ${n} needs the shard's index: --shard I/${n}, or run it as a Slurm job array ` +
      "(SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX)",
  );
}

/** The shard of a Slurm array task: its id relative to the array's first id. */
function slurmShard(env: Record<string, string | undefined>, id: string, n: number): Shard {
  const min = env.SLURM_ARRAY_TASK_MIN || undefined, max = env.SLURM_ARRAY_TASK_MAX || undefined;
  if (min === undefined || max === undefined) {
    throw new KitError(
      `SLURM_ARRAY_TASK_ID=${id} without SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_MAX: whether ` +
        "the array counts from 0 or from 1 is unknown; give --shard I/N",
    );
  }
  for (const [name, value] of [["ID", id], ["MIN", min], ["MAX", max]]) {
    if (!INTEGER.test(value)) {
      throw new KitError(`SLURM_ARRAY_TASK_${name}='${value}' is not an array task id`);
    }
  }
  if (Number(min) > Number(max)) {
    throw new KitError(
      `SLURM_ARRAY_TASK_MIN=${min} is above SLURM_ARRAY_TASK_MAX=${max}: not a Slurm array`,
    );
  }
  const tasks = env.SLURM_ARRAY_TASK_COUNT || String(Number(max) - Number(min) + 1);
  const step = env.SLURM_ARRAY_TASK_STEP || "1";
  if (Number(max) - Number(min) + 1 !== Number(tasks) || step !== "1") {
    throw new KitError(
      `the Slurm array's task ids are not consecutive (${min}-${max}, ${tasks} tasks, step ` +
        `${step}): give it as --array=0-${n - 1} or --array=1-${n}`,
    );
  }
  if (Number(tasks) !== n) {
    throw new KitError(
      `the Slurm array has ${tasks} tasks (${min}-${max}) but --shards is ${n}: they must agree`,
    );
  }
  const index = Number(id) - Number(min);
  if (index < 0 || index >= n) {
    throw new KitError(`SLURM_ARRAY_TASK_ID=${id} lies outside the array ${min}-${max}`);
  }
  return {
    index,
    count: n,
    source: `SLURM_ARRAY_TASK_ID=${id} of the array ${min}-${max}`,
  };
}

/**
 * The runs of several shards as one run; a question found in two of them (shards that
 * overlap, or one run given twice) is an error naming both files.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeShardRuns } from "./shard.ts";
 * const a = new Map([["Q1", new Map([["D1", 0.5]])]]);
 * const b = new Map([["Q2", new Map([["D2", 0.25]])]]);
 * assert.deepEqual([...mergeShardRuns([{ file: "a", run: a }, { file: "b", run: b }]).keys()], ["Q1", "Q2"]);
 * assert.throws(() => mergeShardRuns([{ file: "a", run: a }, { file: "c", run: a }]), /Q1 is in both a and c/);
 * ```
 */
export function mergeShardRuns(parts: readonly { file: string; run: Run }[]): Run {
  const merged: Run = new Map();
  const from = new Map<string, string>();
  for (const { file, run } of parts) {
    for (const [qid, docs] of run) {
      const seen = from.get(qid);
      if (seen !== undefined) {
        throw new KitError(
          `question ${qid} is in both ${seen} and ${file}: the runs are not disjoint shards`,
          { file },
        );
      }
      from.set(qid, file);
      merged.set(qid, docs);
    }
  }
  return merged;
}
