/**
 * The sections of page 00, in order: answer selection's, then each task part's (lib/tasks
 * `ReportPart`), then `files`. The notebook has one Markdown cell and one `showSection` cell
 * per section, tagged `section:NAME`.
 *
 * @module
 */
import { reportParts } from "../../tasks/registry.ts";

/** The sections of page 00 about answer-selection systems, in order. */
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

/**
 * The sections of page 00, in order: answer selection's, each task part's (its key, e.g.
 * `qrcd`), then `files`.
 */
export function sections(): string[] {
  return [...AS2_SECTIONS, ...reportParts().map((p) => p.key), "files"];
}

/** {@link sections} of the built-in tasks, as loaded (a task added later is in `sections()`). */
export const SECTIONS: readonly string[] = sections();

/** One section's name: one of {@link AS2_SECTIONS}, a task part's key, or `files`. */
export type SectionName = string;
