/**
 * The sections of page 00, in order: answer selection's (each one file under `sections/`),
 * then each task part's (lib/tasks `ReportPart`, as a section), then `files`. The notebook
 * has one Markdown cell and one `showSection` cell per section, tagged `section:NAME`.
 *
 * @module
 */
import { reportParts } from "../../tasks/registry.ts";
import type { PartData, ReportPart } from "../../tasks/task.ts";
import type { PageSection, SectionItem } from "./section.ts";
import { breakdownsSection } from "./sections/breakdowns.ts";
import { filesSection } from "./sections/files.ts";
import { pairSection } from "./sections/pair.ts";
import { publishedSection } from "./sections/published.ts";
import { resultsSection } from "./sections/results.ts";
import { significanceSection } from "./sections/significance.ts";
import { spreadSection } from "./sections/spread.ts";
import { systemsSection } from "./sections/systems.ts";
import { tiesSection } from "./sections/ties.ts";
import { warningsSection } from "./sections/warnings.ts";

/** The sections of page 00 about answer-selection systems, in order. */
export const AS2_PAGE_SECTIONS: readonly PageSection[] = [
  systemsSection,
  warningsSection,
  resultsSection,
  publishedSection,
  spreadSection,
  significanceSection,
  tiesSection,
  pairSection,
  breakdownsSection,
];

/** The names of {@link AS2_PAGE_SECTIONS}. */
export const AS2_SECTIONS = [
  "systems",
  "warnings",
  "results",
  "published",
  "spread",
  "significance",
  "ties",
  "pair",
  "breakdowns",
] as const;

/** A task's report part as a section of the page: shown when the spec gave it. */
function partSection(part: ReportPart): PageSection {
  return {
    name: part.key,
    nothing: part.nothing,
    has: (r) => r[part.key] !== undefined,
    show: (r) => part.show(r[part.key] as PartData) as SectionItem[],
    files: (r) => part.files(r[part.key] as PartData),
  };
}

/** Every section of page 00, in order: answer selection's, each task part's, then `files`. */
export function pageSections(): PageSection[] {
  return [...AS2_PAGE_SECTIONS, ...reportParts().map(partSection), filesSection];
}

/**
 * The sections of page 00, in order: answer selection's, each task part's (its key, e.g.
 * `qrcd`), then `files`.
 */
export function sections(): string[] {
  return pageSections().map((s) => s.name);
}

/** {@link sections} of the built-in tasks, as loaded (a task added later is in `sections()`). */
export const SECTIONS: readonly string[] = sections();

export type { SectionName } from "./types.ts";
