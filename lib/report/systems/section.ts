/**
 * A section of page 00 as one object: what it computes from the evaluated systems, whether it
 * has something to show, what it shows, the files it writes beside `systems.json`, and what
 * it says when it has nothing. `evaluateSystems` is a loop over the sections' `compute`,
 * `showSection` calls one section's `show`, `systemsFiles` collects their `files`. Adding a
 * section is one file under `sections/` listed in `sections.ts`, plus its two cells in
 * notebook 00 (docs/CONVENTIONS.md).
 *
 * @module
 */
import type { Displayable } from "../../plot/display.ts";
import type { Figure } from "../../plot/figures.ts";
import type { LoadedSplit } from "../../data/mod.ts";
import type { Qrels, Run } from "../../metrics/mod.ts";
import type { PerQueryValues } from "../../stats/compare.ts";
import type { ResolvedSpec } from "./spec.ts";
import type { ReportSystem, SystemsReport } from "./types.ts";

/** What a section shows: tables, notes and blocks, figures. */
export type SectionItem = Displayable | Figure;

/** An answer-selection system with its runs in memory and each run's per-question values. */
export interface EvaluatedSystem {
  name: string;
  kind: "user" | "baseline";
  runs: Run[];
  /** Each run's per-question values (trec_eval's, every question of the split: `-c`). */
  perRun: PerQueryValues[];
}

/** What the sections compute from: the answer-selection systems, evaluated once. */
export interface EvaluationContext {
  spec: ResolvedSpec;
  /** The split the systems are judged on (after the filter). */
  split: LoadedSplit;
  qrels: Qrels;
  /** The measures' output names, in the report's order. */
  measures: string[];
  /** Your systems, then the kit's baselines, with their runs. */
  evaluated: EvaluatedSystem[];
  /** The systems as the report holds them (means, intervals, per-question values). */
  systems: ReportSystem[];
  /** Each system's per-question values (each question's mean over its runs). */
  values: Map<string, PerQueryValues>;
  /** Progress and what was chosen, a line at a time. */
  log: (line: string) => void;
}

/** One section of page 00. */
export interface PageSection {
  /** Its name: the notebook's cells are tagged `section:NAME`. */
  name: string;
  /** The one line it shows when it has nothing to show. */
  nothing: string;
  /**
   * Its data, added to the report (sections compute in order: a later one reads an earlier
   * one's fields from `sofar`). Absent for a section that only shows what others computed.
   */
  compute?(
    ctx: EvaluationContext,
    sofar: Partial<SystemsReport>,
  ): Partial<SystemsReport> | Promise<Partial<SystemsReport>>;
  /** Whether it has something to show. */
  has(r: SystemsReport): boolean;
  /** What it shows (called only when `has`). */
  show(r: SystemsReport): SectionItem[];
  /** The files it writes beside `systems.json` (relative name to text), when it has content. */
  files?(r: SystemsReport): Record<string, string>;
}
