/**
 * The types of page 00's data: `SystemsReport` (every number the page shows, plain data, as
 * `systems.json` holds it) and its parts, and the options of `evaluateSystems`. Types only, so
 * every file of the page imports them without a cycle; `report.ts` is the public face.
 *
 * @module
 */
import type { Row } from "../../plot/table.ts";
import type { BackendChoice } from "../../scoring/model/session_types.ts";
import type { Failures } from "../../stats/error_analysis.ts";
import type { Family, FamilyChoice, OtherReading } from "../../stats/family.ts";
import type { PublishedGap, PublishedResult } from "./published.ts";
import type { ComparedPair, PairOutcome } from "./pair_data.ts";
import type { TieSummary } from "./ties_data.ts";
import type { RunLine } from "../notebook/blocks.ts";
import type { ResolvedSpec } from "./spec.ts";

/** One section's name: an answer-selection section, a task part's key, or `files`. */
export type SectionName = string;

/** Options of `evaluateSystems`. */
export interface EvaluateSystemsOptions {
  /** The folder relative paths of the spec are relative to (default: the current one). */
  base?: string;
  /**
   * The report folder: runs scored from a model are written into its `runs/` and named
   * relative to it. Without it they are scored in memory only.
   */
  folder?: string;
  /** Bootstrap resamples of the intervals (default `DEFAULT_BOOTSTRAP_SAMPLES`). */
  bootstrapSamples?: number;
  /** Where transformer models run. */
  backend?: BackendChoice;
  /** Progress and what was chosen, a line at a time (default: none). */
  log?: (line: string) => void;
}

/** The corpus the systems were judged on, and how it was chosen. */
export interface ReportCorpus {
  dataset: string;
  split: string;
  filter: string;
  /** `real` (the fetched corpus) or `sample` (the bundled samples). */
  data: "real" | "sample";
  /** Whether `data` was asked for, or the default (the installed corpus, else the sample). */
  chosen: "asked" | "default";
  /** The folder read. */
  folder: string;
  /** Questions every measure averages over (after the filter), and before it. */
  questions: number;
  allQuestions: number;
  candidates: number;
  /** What the filter did, as a sentence. */
  filterSummary: string;
  /** Said on the page and on stderr when the sample stands in for the real corpus. */
  sampleNote?: string;
}

/** A measure as the page names it. */
export interface ReportMeasure {
  /** Output name (`map`), the key of every value. */
  name: string;
  /** The page's label (`MAP`). */
  label: string;
  /** trec_eval's `-m` name (`map`). */
  trecEval: string;
}

/** An answer-selection system's results. */
export interface ReportSystem {
  name: string;
  /** `user`: given in the spec; `baseline`: the kit's. */
  kind: "user" | "baseline";
  /**
   * Its run files: absolute, or relative to the report folder for runs the report scored
   * (`runs/02-name.run`); empty for a baseline or a model scored in memory.
   */
  runs: string[];
  model?: string;
  /** How many runs it has (one per seed, for several). */
  runCount: number;
  /** Questions averaged over. */
  queries: number;
  /** Per measure: the mean over questions (of each question's mean over runs). */
  mean: Record<string, number>;
  /** Per measure: the percentile bootstrap interval over questions. */
  interval: Record<string, { lower: number; upper: number }>;
  /** With several runs, per measure: the spread of the runs' means (sample sd, n - 1). */
  spread?: Record<string, { sd: number; min: number; max: number; perRun: number[] }>;
  /** Question id to measure to value (each question's mean over the runs). */
  perQuery: Record<string, Record<string, number>>;
  /** With several runs: each run's per-question values. */
  perRun?: Record<string, Record<string, number>>[];
}

/** The error analysis of one pair. */
export interface PairReport extends ComparedPair {
  /** Per measure: wins / losses / ties, the sign test, the paired test. */
  outcomes: PairOutcome[];
  /** The questions where their AP differs most, as text rows. */
  differing: Row[];
  /** Where a puts a wrong candidate first (a system with one run only). */
  failures?: Failures;
  /** Every question with both systems' AP and RR and their differences (the CSV). */
  questions: Row[];
}

/** The family of tests as the report holds it: the tests, and the choice that made it. */
export interface ReportFamily extends Family {
  /** `all`, `mine` or `baseline:NAME` (the spec's `family`). */
  choice: FamilyChoice;
  /** The choice in words. */
  description: string;
  /** The tests whose decision another family would change (shown, never reported instead). */
  readings: OtherReading[];
}

/** Your systems' MAP and MRR on another question set of the split (a published row's). */
export interface PublishedSet {
  filter: string;
  questions: number;
  systems: {
    name: string;
    map: number;
    mrr: number;
    /** Questions of the set the run did not rank, added with every candidate correct. */
    completed: number;
  }[];
}

/** Every number page 00 shows: plain data (JSON as it is). */
export interface SystemsReport {
  /** What was asked, every default filled in. */
  spec: ResolvedSpec;
  /** Where the answer-selection systems were judged (absent with QRCD runs only). */
  corpus?: ReportCorpus;
  measures: ReportMeasure[];
  /** The procedures' settings. */
  procedures: { bootstrapSamples: number; seed: number; alpha: number };
  /** Your systems first, then the kit's baselines. */
  systems: ReportSystem[];
  notes: RunLine[];
  warnings: RunLine[];
  /** The family of tests (absent when the family chosen holds no pair). */
  family?: ReportFamily;
  /**
   * The published numbers the kit knows for the split, your systems beside them, and your
   * systems on each other question set a row counts (`sets`).
   */
  published: { rows: PublishedResult[]; gaps: PublishedGap[]; sets?: PublishedSet[] };
  ties: TieSummary[];
  pair?: PairReport;
  breakdowns: { type: Row[]; candidates: Row[] };
  /** The sections that have something to show. */
  sections: SectionName[];
  /** The files written beside it (relative to the report folder), when `./kit report` wrote it. */
  files?: string[];
  /** Each task part's data, by its key (lib/tasks `ReportPart`), between `breakdowns` and `sections`. */
  [part: string]: unknown;
}
