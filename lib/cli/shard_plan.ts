/**
 * What `score --shard` does with a shard's output that exists: skipped when it is complete for
 * the same job (a resubmitted array, a requeued task, a re-applied Job: exit 0 and nothing
 * changes), redone when its record says it is another job's or unfinished (the kit's own output,
 * replaced without `--force`), refused without `--force` when it changed since the kit wrote it
 * (an edit is never lost) or no record says the kit wrote it.
 *
 * @module
 */
import { datasetDir } from "../data/paths.ts";
import type { DatasetName } from "../data/types.ts";
import { KitError } from "../errors.ts";
import type { Shard } from "../scoring/shard.ts";
import {
  completeShard,
  type ShardJob,
  shardJob,
  shardRecordPath,
  type ShardState,
} from "../scoring/shard_record.ts";
import type { Parsed } from "./grammar.ts";

/** Flags that change how a shard is scored or written, not its scores. */
const NOT_THE_JOB = new Set([
  "out",
  "force",
  "shard",
  "shards",
  "no-cache",
  "threads",
  "batch-size",
]);

/** A shard's job and what its output holds now. */
export interface ShardPlan {
  job: ShardJob;
  state: ShardState;
}

/**
 * The job of the shard `p` asks for (every flag that decides a score, the filter, the model's
 * and the corpus's files) and the state of its output `out`.
 */
export async function shardPlan(
  p: Parsed,
  shard: Shard,
  out: string,
  dataset: DatasetName,
  filter: string,
): Promise<ShardPlan> {
  const settings: Record<string, string> = { filter };
  const files: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.values)) {
    if (NOT_THE_JOB.has(k) || v === undefined) continue;
    const text = Array.isArray(v) ? v.join("\u0000") : String(v);
    settings[k] = text;
    // A path (the model's folder, --init-model, --dir): its files are part of the job.
    try {
      if (typeof v === "string" && v !== "" && Deno.statSync(v)) files[k] = Deno.realPathSync(v);
    } catch { /* not a path */ }
  }
  for (const [k, real] of Object.entries(files)) settings[k] = real;
  const job = shardJob(settings, {
    ...files,
    corpus: `${datasetDir(dataset, p.values.dir as string | undefined)}/${dataset}`,
  });
  return { job, state: await completeShard(out, job, shard) };
}

/**
 * What to say and do for a planned shard: `skip` (complete, no `--force`), `redo` (replace the
 * kit's own output of another job), `write` (nothing there, or `--force`); a run with no record
 * is refused without `--force`.
 */
export function shardAction(
  plan: ShardPlan,
  shard: Shard,
  out: string,
  force: boolean,
): { action: "skip" | "redo" | "write"; line?: string } {
  const s = plan.state;
  const of = `shard ${shard.index} of ${shard.count}`;
  if (s.state === "complete" && !force) {
    return {
      action: "skip",
      line: `${of}: ${out} is already complete for this job (${s.record.questions} questions, ` +
        `sha256 ${s.record.sha256.slice(0, 12)}...; its record ${shardRecordPath(out)}): ` +
        "skipped, nothing changed (--force scores it again)",
    };
  }
  if (s.state === "different") {
    return { action: "redo", line: `${of}: ${out} holds ${s.why}: scoring it again` };
  }
  if (s.state === "changed" && !force) {
    throw new KitError(
      "changed since the kit wrote it (its sha256 differs from its record's: an edit?); it is " +
        "not replaced without --force, which scores the shard again",
      { file: out },
    );
  }
  if (s.state === "unrecorded" && !force) {
    throw new KitError(
      `exists without its shard record (${shardRecordPath(out)}): a shard killed between ` +
        "writing its run and its record, or a file the kit did not write; --force scores the " +
        "shard again and replaces it",
      { file: out },
    );
  }
  return { action: "write" };
}
