/**
 * The answer-selection systems of a spec as runs in memory: the given run files read and
 * checked against the split (the shards of one run joined), the models scored, and the kit's
 * baselines scored on the same corpus.
 *
 * @module
 */
import { basename } from "../../io/path.ts";
import { type LoadedSplit, readRunForSplit } from "../../data/mod.ts";
import { shardSets, withoutEmptyShards } from "../../scoring/shard_record.ts";
import { type Run, runFromScores, writeRun } from "../../metrics/mod.ts";
import { scoreSplit } from "../../scoring/pipeline.ts";
import { chooseBackend } from "../../scoring/model/backend.ts";
import type { RunLine } from "../notebook/blocks.ts";
import type { EvaluateSystemsOptions } from "./types.ts";
import { KIT_BASELINES, type ResolvedSpec } from "./spec.ts";

/** A file-name-safe form of a system name (the name itself stays in the report's texts). */
export function scoredRunName(name: string, i: number): string {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._]+/, "").slice(0, 60);
  return `runs/${String(i + 1).padStart(2, "0")}-${safe || "system"}.run`;
}

/** An answer-selection system with its runs in memory. */
export interface SystemRuns {
  name: string;
  kind: "user" | "baseline";
  runs: Run[];
  files: string[];
  model?: string;
}

/** The run files of the spec's systems, each read once and checked (a model's: none yet). */
export async function readSystemRuns(
  spec: ResolvedSpec,
  split: LoadedSplit,
  lines: { notes: RunLine[]; warnings: RunLine[] },
): Promise<Map<string, { runs: Run[]; files: string[] }>> {
  const read = new Map<string, { runs: Run[]; files: string[] }>();
  for (const s of spec.systems.filter((s) => s.model === undefined)) {
    const runs: Run[] = [], names: string[] = [];
    // The shards of one run (score --shard, with their records) are one run, checked whole.
    for (const files of await shardSets(s.runs)) {
      const nonEmpty = await withoutEmptyShards(files);
      const r = await readRunForSplit(nonEmpty.length ? nonEmpty : files, split);
      const file = files.length === 1 ? files[0] : `${files[0]} (+${files.length - 1} shards)`;
      names.push(file);
      for (const text of r.notes) lines.notes.push({ system: s.name, file: basename(file), text });
      for (const text of r.warnings) {
        lines.warnings.push({ system: s.name, file: basename(file), text });
      }
      runs.push(r.run);
    }
    read.set(s.name, { runs, files: names });
  }
  return read;
}

/** Every answer-selection system of the spec in its order, models scored, then the baselines. */
export async function systemRuns(
  spec: ResolvedSpec,
  split: LoadedSplit,
  read: Map<string, { runs: Run[]; files: string[] }>,
  options: EvaluateSystemsOptions,
): Promise<SystemRuns[]> {
  const log = options.log ?? (() => {});
  const out: SystemRuns[] = [];
  // Said once the inputs are read and checked, and only when a model runs on a backend (the
  // lexical scorers and the ltr ranker have none).
  if (spec.systems.some((s) => s.model !== undefined && !/^(lexical:|ltr$)/.test(s.model))) {
    log((await chooseBackend(options.backend ?? "auto")).line);
  }
  for (const [i, s] of spec.systems.entries()) {
    if (s.model === undefined) {
      out.push({ name: s.name, kind: "user", ...read.get(s.name)! });
      continue;
    }
    const t0 = performance.now();
    const scored = await scoreSplit(s.model, split.dataset, split.split, {
      filter: split.report.filter,
      dir: split.dir,
      backend: options.backend,
    });
    const run = runFromScores(scored.questions, scored.scores);
    const files: string[] = [];
    if (options.folder) {
      const file = scoredRunName(s.name, i);
      await writeRun(`${options.folder}/${file}`, run, {
        runId: scored.scorerId.replace(/[^\w.:-]+/g, "_"),
      });
      files.push(file);
    }
    log(
      `scored ${s.model} for ${JSON.stringify(s.name)} in ${
        ((performance.now() - t0) / 1000).toFixed(1)
      } s${files.length ? `: ${files[0]}` : ""}`,
    );
    out.push({ name: s.name, kind: "user", runs: [run], files, model: s.model });
  }
  if (spec.baselines && out.length) {
    for (const b of KIT_BASELINES) {
      const t0 = performance.now();
      const scored = await scoreSplit(b.model, split.dataset, split.split, {
        filter: split.report.filter,
        dir: split.dir,
      });
      log(`scored the baseline ${b.name} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      out.push({
        name: b.name,
        kind: "baseline",
        runs: [runFromScores(scored.questions, scored.scores)],
        files: [],
        model: b.model,
      });
    }
  }
  return out;
}
