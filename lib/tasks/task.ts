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
import type { Row } from "../plot/table.ts";

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

/** What a report part reads of `report`'s flags. */
export interface ReportFlags {
  /** Every value of a flag given several times (`run`). */
  list(name: string): string[];
  /** A flag's value, undefined when not given. */
  str(name: string): string | undefined;
  /** Whether a switch (a flag without a value, `--no-baselines`) was given. */
  has(name: string): boolean;
}

/** A part of a resolved spec: the task's own object, plain data (written into spec.json). */
export type PartSpec = Record<string, unknown>;

/** What a report part evaluated: plain data (JSON as it is), written into systems.json. */
export type PartData = Record<string, unknown>;

/**
 * A task's part of the systems report (page 00): its runs, judged by its own rules in its own
 * section (the notebook's cells tagged `section:KEY`), beside the answer-selection systems.
 * Everything but `evaluate` is light and synchronous (spec parsing and formatting the data it
 * evaluated), so that the registry stays cheap to load; `evaluate` loads the task's code.
 */
export interface ReportPart {
  /** Its key in the spec and in systems.json, and the name of its section of page 00. */
  key: string;
  /** What its runs are, for the index when the report has nothing else (`QRCD runs`). */
  title: string;
  /** The names of the files it writes beside the report (`per-record-qrcd.csv`). */
  fileNames: readonly string[];
  /** The flags of `report` it takes (declared in `report`'s table with the others). */
  options: readonly Option[];
  /** The flags of `report` it takes over when given (answer selection does not read them then). */
  claims(flags: ReportFlags): readonly string[];
  /** How a user gives it a run (`--qrcd-run`), for the messages that list the ways. */
  runFlag: string;
  /** The names of its baselines (a system of the user's cannot take them). */
  baselineNames: readonly string[];
  /** What its section says when it has nothing to show. */
  nothing: string;
  /** Its part of the spec from the flags (paths against `cwd`), undefined without its flags. */
  fromFlags(flags: ReportFlags, cwd: string): PartSpec | undefined;
  /** Its part of a spec object, checked; paths against `base`; `where(path)` starts a message. */
  fromSpec(raw: unknown, base: string, where: (path: string) => string): PartSpec;
  /** The names of the user's systems in a resolved part. */
  names(part: PartSpec): string[];
  /** The files the user gave it (the report never writes over them), with the flag of each. */
  inputs(part: PartSpec): { label: string; path: string }[];
  /** Reads, checks and scores its runs and baselines; `data`: the spec's corpus choice. */
  evaluate(
    part: PartSpec,
    data: "real" | "sample" | undefined,
    log: (line: string) => void,
  ): Promise<PartData>;
  /** Its rows of the page's table of systems. */
  systemRows(data: PartData): Row[];
  /** What its section shows (tables, notes), in order. */
  show(data: PartData): unknown[];
  /** Its files beside the report, by name (CSV text). */
  files(data: PartData): Record<string, string>;
  /** Its user systems as summary.json lists them. */
  summarySystems(data: PartData): Record<string, unknown>[];
  /** The numbers `report` prints for one of its summary.json systems, or undefined if not its. */
  numbers(system: Record<string, unknown>): string | undefined;
  /** How many user systems it has, and its entries of the report's headline. */
  headline(data: PartData): { systems: number; entries: Record<string, string | number> };
  /** Its user systems as the report's index lists them. */
  indexSystems(data: PartData): { name: string; what: string; numbers: Record<string, number> }[];
  /** The user's strings its section shows (names, file names), kept verbatim by the checks. */
  texts(data: PartData): string[];
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
  /** Its part of the systems report, if it has one. */
  report?: ReportPart;
  /** Refuses a `score` request before anything is loaded (a model or flag that does not apply). */
  checkScore?(request: Pick<ScoreRequest, "model" | "sharded" | "dataset">): void;
}
