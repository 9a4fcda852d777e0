/**
 * What a task of the kit is: one object that says, for its corpora, how a run is read and
 * judged, its measures with their official names, the rule for a question a run leaves out,
 * its baselines, its commands and what page 00 shows. The shared code (the `data`, `eval` and
 * `score` commands, the docs' generated tables) asks the task; a task's own folder holds its
 * reading, checking and scoring. The registry is lib/tasks/registry.ts.
 *
 * A task object is light: metadata and its corpora's table entries. What is heavy (its commands,
 * its statistics, its scoring) is loaded on demand through the functions, so that starting
 * `eval trec` loads no task's code.
 *
 * @module
 */
import type { Command, Option } from "../cli/command.ts";
import type { DatasetEntry } from "../data/corpus_entry.ts";
import type { Backend } from "../scoring/model/session_types.ts";

/** One measure of a task, as the kit prints it and as its official scorer names it. */
export interface TaskMeasure {
  /** The kit's output name (`map`, `map_cut_10`, `pRR`): the key of every value. */
  name: string;
  /** The page's label (`MAP`, `MAP@10`). */
  label: string;
  /** Its name in the official scorer or in trec_eval (`map_cut.10`, `pRR`). */
  official: string;
  /** Whether it is the task's primary measure (one per task). */
  primary?: boolean;
}

/** A baseline the kit runs for a task. */
export interface TaskBaseline {
  /** Its name on the page. */
  name: string;
  /** The command that makes its run. */
  command: string;
}

/** What `score --dataset D` hands a task whose corpora it scores (flags already parsed). */
export interface ScoreRequest {
  /** `--model`. */
  model: string;
  dataset: string;
  split: string;
  /** `--out`, checked writable. */
  out: string;
  force: boolean;
  /** `--dir`. */
  dir?: string;
  /** A flag's value (`top-k`), as typed; undefined when not given. */
  flag(name: string): string | undefined;
  /** An integer flag, checked (at least `min`). */
  integer(name: string, min?: 0 | 1): number | undefined;
  /** Whether a switch flag (no value) was given. */
  has(name: string): boolean;
  /** The backend chosen for a transformer model (undefined for lexical models). */
  backend?: Backend;
  /** Whether `--shard`/`--shards` was given. */
  sharded: boolean;
}

/** A task of the kit: an entry of {@link import("./registry.ts").TASKS}. */
export interface Task {
  /** Its name: the `task` of its corpora, a plain lower-case word (`as2`, `qrcd`). */
  name: string;
  /** One line for lists and docs. */
  title: string;
  /** Its corpora's entries, registered in the kit's table of corpora in this order. */
  corpora: readonly DatasetEntry[];
  /** Its measures, the primary first. */
  measures: readonly TaskMeasure[];
  /** The rule for a question a run leaves out, as one sentence. */
  missing: string;
  /** The baselines the kit runs for it. */
  baselines: readonly TaskBaseline[];
  /** What page 00 (`./kit report`) shows for it, as one sentence. */
  page: string;
  /** The doc page of the task (under docs/). */
  doc: string;
  /** Its `eval` subcommands (loaded on demand). */
  evalCommands(): Promise<Record<string, Command>>;
  /** `data stats CORPUS` for one of its corpora that is not answer selection. */
  stats?(dataset: string, split: string | undefined, dir: string | undefined): Promise<unknown>;
  /** What `score --out` writes for it, for `score`'s help (`RUN.json, the shared task's format`). */
  scoreOut?: string;
  /** Flags `score` takes for this task only (declared in `score`'s table, named in its help). */
  scoreOptions?: readonly Option[];
  /** `score --dataset D` for one of its corpora (absent: answer selection's own path). */
  score?(request: ScoreRequest): Promise<void>;
  /** Refuses a `score` request before anything is loaded (a model or flag that does not apply). */
  checkScore?(request: Pick<ScoreRequest, "model" | "sharded" | "dataset">): void;
}
