/**
 * The record a shard leaves beside its run (`<run>.shard.json`): which job it belongs to (the
 * model, the corpus, the split, the filter and the settings that decide the scores), which shard
 * of how many, and the run file's sha256. With it:
 *
 * - a shard run again (a Slurm array resubmitted, a requeued task, a Kubernetes Job re-applied)
 *   whose run is complete for the same job is skipped, exit 0 ({@link completeShard});
 * - the merge (`convert shards`), `eval as2` and the report refuse a set of shard files with a
 *   shard missing or incomplete, naming it ({@link shardSets}), where a missing shard's questions
 *   would otherwise count 0 without a word.
 *
 * A record saying the run is unfinished is written before the run and replaced after it, so a
 * task killed between the writes leaves a record that gets its shard redone; a run with no
 * record at all is not taken for the kit's (refused without `--force`). A model folder and the corpus folder are fingerprinted
 * by their files' names, sizes and modification times: a changed file is a different job.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { KitError } from "../errors.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { fileSha256 } from "../data/installed.ts";
import { readWholeText } from "../io/whole_file.ts";
import { basename, dirname } from "../io/path.ts";
import type { Shard } from "./shard.ts";

/** What decides a shard's scores: two shards of one job have equal jobs. */
export type ShardJob = Record<string, string>;

/** The record beside a shard's run. */
export interface ShardRecord {
  /** Always `qa-eval-kit shard`. */
  format: "qa-eval-kit shard";
  /** The job, as {@link shardJob} built it. */
  job: ShardJob;
  /** sha256 of the job (the same for every shard of it). */
  jobKey: string;
  /** This shard: index (from 0) and count. */
  shard: { index: number; count: number };
  /** The run file's name (in the record's folder). */
  run: string;
  /** The run file's sha256 when it was written. */
  sha256: string;
  /** Questions in the run. */
  questions: number;
}

/** The record's path beside a run. */
export function shardRecordPath(run: string): string {
  return `${run}.shard.json`;
}

/**
 * A fingerprint of a folder's files (relative name, size, modification time, recursively;
 * links followed), or of one file; `-` when nothing is there.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { folderFingerprint } from "./shard_record.ts";
 * const dir = await Deno.makeTempDir();
 * const empty = folderFingerprint(dir);
 * await Deno.writeTextFile(`${dir}/a`, "x");
 * assert.notEqual(folderFingerprint(dir), empty);
 * assert.equal(folderFingerprint(`${dir}/none`), "-");
 * ```
 */
export function folderFingerprint(path: string): string {
  const entries: string[] = [];
  const walk = (p: string, rel: string, depth: number) => {
    let st: Deno.FileInfo;
    try {
      st = Deno.statSync(p);
    } catch {
      return;
    }
    if (st.isFile) entries.push(`${rel}\t${st.size}\t${st.mtime?.getTime() ?? 0}`);
    if (!st.isDirectory || depth > 8) return;
    const names = [...Deno.readDirSync(p)].map((e) => e.name).filter((n) => !n.startsWith("."))
      .sort();
    for (const n of names) walk(`${p}/${n}`, rel ? `${rel}/${n}` : n, depth + 1);
  };
  walk(path, "", 0);
  if (entries.length === 0) return "-";
  return createHash("sha256").update(entries.join("\n")).digest("hex").slice(0, 32);
}

/**
 * The job a shard belongs to: `settings` (model spec, dataset, split, filter, backend, seed,
 * anything that decides a score, as strings) and, for each entry of `paths` (the model's
 * folder, the corpus folder, a file a flag names), the fingerprint of its files as `<name>Files`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardJob } from "./shard_record.ts";
 * const a = shardJob({ model: "lexical:bm25", split: "test" });
 * assert.deepEqual(a, { model: "lexical:bm25", split: "test" });
 * assert.equal(shardJob({}, { corpus: "/nowhere" }).corpusFiles, "-");
 * ```
 */
export function shardJob(
  settings: Record<string, string | number | boolean | undefined>,
  paths: Record<string, string | undefined> = {},
): ShardJob {
  const job: ShardJob = {};
  for (const [k, v] of Object.entries(settings).sort(([a], [b]) => a < b ? -1 : 1)) {
    if (v !== undefined) job[k] = String(v);
  }
  for (const [k, path] of Object.entries(paths)) {
    if (path !== undefined) job[`${k}Files`] = folderFingerprint(path);
  }
  return job;
}

function jobKeyOf(job: ShardJob): string {
  return createHash("sha256").update(JSON.stringify(job)).digest("hex");
}

/**
 * Reads the record beside `run`; undefined when there is none or its contents are not one (a
 * `KitError` when it is not a regular file or past its size limit).
 */
export async function readShardRecord(run: string): Promise<ShardRecord | undefined> {
  // A folder, a device, a file past the limit: refused, naming it (never taken for no record).
  const text = await readWholeText(shardRecordPath(run), "shardRecord", { missingOk: true });
  if (text === undefined) return undefined;
  try {
    const r = JSON.parse(text) as ShardRecord;
    const ok = r?.format === "qa-eval-kit shard" && typeof r.jobKey === "string" &&
      Number.isInteger(r.shard?.index) && Number.isInteger(r.shard?.count) &&
      typeof r.sha256 === "string" && typeof r.job === "object";
    return ok ? r : undefined;
  } catch {
    return undefined;
  }
}

/** What a shard's run and record say, against the job it would be scored for. */
export type ShardState =
  | { state: "complete"; record: ShardRecord }
  | { state: "absent" }
  /** A run and record of another job or shard, or a run changed since: redone. */
  | { state: "different"; why: string }
  /** A run with no record beside it: not taken for the kit's. */
  | { state: "unrecorded" }
  /** A run changed since the kit wrote it (someone's edit?): not replaced without `force`. */
  | { state: "changed" };

/**
 * Whether the run at `run` is complete for `job` and `shard`: its record names the same job,
 * index and count, and the file still has the sha256 recorded.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { completeShard, shardJob, writeShardRecord } from "./shard_record.ts";
 * const dir = await Deno.makeTempDir();
 * const job = shardJob({ model: "lexical:bm25" }), shard = { index: 0, count: 2, source: "" };
 * assert.equal((await completeShard(`${dir}/r.0.run`, job, shard)).state, "absent");
 * await Deno.writeTextFile(`${dir}/r.0.run`, "q Q0 d 1 1 x\n");
 * assert.equal((await completeShard(`${dir}/r.0.run`, job, shard)).state, "unrecorded");
 * await writeShardRecord(`${dir}/r.0.run`, job, shard, 1);
 * assert.equal((await completeShard(`${dir}/r.0.run`, job, shard)).state, "complete");
 * await Deno.writeTextFile(`${dir}/r.0.run`, "q Q0 d 1 2 x\n");
 * assert.equal((await completeShard(`${dir}/r.0.run`, job, shard)).state, "changed");
 * ```
 */
export async function completeShard(
  run: string,
  job: ShardJob,
  shard: Shard,
): Promise<ShardState> {
  let exists = false;
  try {
    exists = Deno.statSync(run).isFile;
  } catch { /* none */ }
  const record = await readShardRecord(run);
  if (!exists) return { state: "absent" };
  if (!record) return { state: "unrecorded" };
  if (record.jobKey !== jobKeyOf(job)) {
    const changed = Object.keys({ ...job, ...record.job })
      .filter((k) => job[k] !== record.job[k]);
    return {
      state: "different",
      why: `the run of another job (${changed.join(", ") || "its settings"} differ)`,
    };
  }
  if (record.shard.index !== shard.index || record.shard.count !== shard.count) {
    return {
      state: "different",
      why: `the run of shard ${record.shard.index} of ${record.shard.count}`,
    };
  }
  if (record.sha256 === PENDING) {
    return { state: "different", why: "an unfinished run (its task stopped while writing it)" };
  }
  if (fileSha256(run) !== record.sha256) return { state: "changed" };
  return { state: "complete", record };
}

/** The sha256 of a record written before its run (`pending`): the run is not complete yet. */
const PENDING = "pending";

/**
 * Writes the record of the run just written at `run`; with `pending`, the record written
 * before the run is replaced, so a task killed between the two writes leaves a record that
 * says the run is unfinished (redone by the next try), never a run without a record.
 */
export async function writeShardRecord(
  run: string,
  job: ShardJob,
  shard: Shard,
  questions: number,
  options: { pending?: boolean } = {},
): Promise<void> {
  const record: ShardRecord = {
    format: "qa-eval-kit shard",
    job,
    jobKey: jobKeyOf(job),
    shard: { index: shard.index, count: shard.count },
    run: basename(run),
    sha256: options.pending ? PENDING : fileSha256(run),
    questions,
  };
  await writeFileAtomic(shardRecordPath(run), JSON.stringify(record, null, 1) + "\n", {
    force: true,
  });
}

/** One job's shard files among a command's run files. */
export interface ShardSet {
  /** The files, by shard index. */
  files: string[];
  /** The count of shards. */
  count: number;
  /** The job. */
  record: ShardRecord;
}

/**
 * Groups `files` (run files as a command got them) into the shard sets they hold, checked
 * whole: a file with a shard record belongs to its job's set, and each set must hold every
 * shard 0..N-1 once, each complete (its sha256 as recorded); a missing or incomplete shard is
 * a `KitError` naming it and the file it would be. Files without a record come back alone.
 * Returns the groups in the order of their first file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardJob, shardSets, writeShardRecord } from "./shard_record.ts";
 * const dir = await Deno.makeTempDir();
 * const job = shardJob({ model: "m" });
 * for (const i of [0, 1]) {
 *   await Deno.writeTextFile(`${dir}/r.${i}.run`, `q${i} Q0 d 1 1 x\n`);
 *   await writeShardRecord(`${dir}/r.${i}.run`, job, { index: i, count: 3, source: "" }, 1);
 * }
 * await assert.rejects(
 *   () => shardSets([`${dir}/r.0.run`, `${dir}/r.1.run`]),
 *   /shard 2 of 3 is missing/,
 * );
 * ```
 */
export async function shardSets(files: readonly string[]): Promise<string[][]> {
  const groups: string[][] = [];
  const sets = new Map<string, { group: string[]; byIndex: Map<number, string>; r: ShardRecord }>();
  for (const file of files) {
    const record = file === "-" ? undefined : await readShardRecord(file);
    if (!record) {
      groups.push([file]);
      continue;
    }
    let set = sets.get(record.jobKey);
    if (!set) {
      set = { group: [], byIndex: new Map(), r: record };
      sets.set(record.jobKey, set);
      groups.push(set.group);
    }
    if (record.shard.count !== set.r.shard.count) {
      throw new KitError(
        `shard ${record.shard.index} of ${record.shard.count} beside shards of ${set.r.shard.count}` +
          ` of the same job: the shards come from two runs of different sizes`,
        { file },
      );
    }
    const seen = set.byIndex.get(record.shard.index);
    if (seen !== undefined) {
      throw new KitError(`shard ${record.shard.index} is given twice (also ${seen})`, { file });
    }
    if (record.sha256 === PENDING || fileSha256(file) !== record.sha256) {
      throw new KitError(
        `shard ${record.shard.index} of ${record.shard.count} is incomplete: ` +
          (record.sha256 === PENDING
            ? "its task stopped while writing it"
            : "the run changed after it was written (its sha256 differs from its record's)") +
          "; score that shard again",
        { file },
      );
    }
    set.byIndex.set(record.shard.index, file);
    set.group.push(file);
  }
  for (const set of sets.values()) {
    const missing: number[] = [];
    for (let i = 0; i < set.r.shard.count; i++) if (!set.byIndex.has(i)) missing.push(i);
    if (missing.length > 0) {
      const some = [...set.byIndex.values()][0];
      const shown = missing.slice(0, 10).join(", ") + (missing.length > 10 ? ", ..." : "");
      throw new KitError(
        `${
          missing.length === 1
            ? `shard ${shown} of ${set.r.shard.count} is`
            : `shards ${shown} of ${set.r.shard.count} are`
        } ` +
          `missing (the files given hold ${set.byIndex.size} of the job's ${set.r.shard.count} ` +
          `shards, e.g. ${some}): a missing shard's questions would count 0; score it, or ` +
          "give every shard",
      );
    }
    set.group.sort((a, b) => indexOf(set, a) - indexOf(set, b));
  }
  return groups;
}

/**
 * `files` less the shards recorded as holding no question (a shard of few questions among
 * many shards writes an empty run, which no run reader accepts): what a reader reads (empty
 * when every file is such a shard).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardJob, withoutEmptyShards, writeShardRecord } from "./shard_record.ts";
 * const dir = await Deno.makeTempDir();
 * const job = shardJob({ model: "m" });
 * await Deno.writeTextFile(`${dir}/r.0.run`, "");
 * await writeShardRecord(`${dir}/r.0.run`, job, { index: 0, count: 2, source: "" }, 0);
 * await Deno.writeTextFile(`${dir}/r.1.run`, "q Q0 d 1 1 x\n");
 * await writeShardRecord(`${dir}/r.1.run`, job, { index: 1, count: 2, source: "" }, 1);
 * assert.deepEqual(await withoutEmptyShards([`${dir}/r.0.run`, `${dir}/r.1.run`]), [`${dir}/r.1.run`]);
 * ```
 */
export async function withoutEmptyShards(files: readonly string[]): Promise<string[]> {
  const kept: string[] = [];
  for (const f of files) {
    const r = f === "-" ? undefined : await readShardRecord(f);
    if (!(r && r.questions === 0 && r.sha256 !== PENDING)) kept.push(f);
  }
  return kept;
}

function indexOf(set: { byIndex: Map<number, string> }, file: string): number {
  for (const [i, f] of set.byIndex) if (f === file) return i;
  return -1;
}

/**
 * The files of a sharded run named by `pattern` (`runs/ce.{shard}.run`), in shard order: the
 * count comes from their records; every shard 0..N-1 must be there and complete, else a
 * `KitError` names the missing or incomplete ones.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardFiles, shardJob, writeShardRecord } from "./shard_record.ts";
 * const dir = await Deno.makeTempDir();
 * const job = shardJob({ model: "m" });
 * for (const i of [0, 1]) {
 *   await Deno.writeTextFile(`${dir}/r.${i}.run`, `q${i} Q0 d 1 1 x\n`);
 *   await writeShardRecord(`${dir}/r.${i}.run`, job, { index: i, count: 2, source: "" }, 1);
 * }
 * assert.deepEqual(await shardFiles(`${dir}/r.{shard}.run`), [`${dir}/r.0.run`, `${dir}/r.1.run`]);
 * ```
 */
export async function shardFiles(pattern: string): Promise<string[]> {
  if (!pattern.includes("{shard}") || basename(pattern).indexOf("{shard}") < 0) {
    throw new KitError(
      `the shards' pattern must have {shard} in the file's name, as score's --out had ` +
        `(e.g. 'runs/ce.{shard}.run'), not '${pattern}'`,
    );
  }
  const dir = dirname(pattern), name = basename(pattern);
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(`^${name.split("{shard}").map(esc).join("(0|[1-9][0-9]*)")}$`);
  const found: string[] = [];
  try {
    // Named as the pattern names them (no `./` added), so they compare with `expected`.
    const prefix = pattern.slice(0, pattern.length - name.length);
    for (const e of Deno.readDirSync(dir)) if (re.test(e.name)) found.push(`${prefix}${e.name}`);
  } catch (e) {
    throw new KitError(`cannot list ${dir}: ${(e as Error).message}`, { file: pattern });
  }
  const recorded: string[] = [];
  let count: number | undefined;
  for (const f of found.sort()) {
    const r = await readShardRecord(f);
    if (r) {
      recorded.push(f);
      count = Math.max(count ?? 0, r.shard.count);
    }
  }
  if (count === undefined) {
    throw new KitError(
      found.length === 0
        ? "no file matches the pattern: no shard was written yet"
        : `no shard record beside any of the ${found.length} matching files (${
          shardRecordPath(found[0])
        } ...): they were not written by score --shard, or by an older kit; concatenate them ` +
          "yourself, or score them again",
      { file: pattern },
    );
  }
  const expected = Array.from({ length: count }, (_, i) => pattern.replaceAll("{shard}", `${i}`));
  const absent = expected.filter((f) => !recorded.includes(f));
  if (absent.length > 0) {
    const shown = absent.slice(0, 10).join(", ") + (absent.length > 10 ? ", ..." : "");
    throw new KitError(
      `${absent.length} of ${count} shards missing or without their record: ${shown}; score ` +
        "them (a finished shard run again is skipped), then merge",
      { file: pattern },
    );
  }
  for (const [i, f] of expected.entries()) {
    const r = await readShardRecord(f);
    if (r && r.shard.index !== i) {
      throw new KitError(
        `holds the record of shard ${r.shard.index} of ${r.shard.count}, not of shard ${i}: ` +
          "a record copied or moved from another shard; score this shard again",
        { file: f },
      );
    }
  }
  const sets = await shardSets(expected);
  if (sets.length !== 1) {
    throw new KitError(
      "the shards come from different jobs (model, corpus, split or settings differ): score " +
        "every shard with the same command",
      { file: pattern },
    );
  }
  return sets[0];
}
