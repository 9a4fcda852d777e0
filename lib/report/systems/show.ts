/**
 * What each section of page 00 shows, from a `SystemsReport`: the section's own `show`
 * (sections/, one file each). The section's prose (what it shows and why) is the notebook's
 * Markdown cell above it; a notebook cell is `await showSection(report, "results")`. A
 * section with nothing to show shows one line saying so; `./kit report` leaves such sections
 * out of its page.
 *
 * @module
 */
import { display } from "../../plot/show.ts";
import { note } from "../notebook/blocks.ts";
import type { SectionName, SystemsReport } from "./types.ts";
import type { SectionItem } from "./section.ts";
import { pageSections } from "./sections.ts";

/**
 * The outputs of one section of page 00 (tables, figures, notes), in order; one note when the
 * section has nothing to show.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluateSystems } from "./report.ts";
 * import { sectionItems } from "./show.ts";
 * import { SAMPLES_DIR } from "../../data/paths.ts";
 * const report = await evaluateSystems({ data: "sample",
 *   systems: [{ name: "mine", runs: [`${SAMPLES_DIR}/runs/wikiqa-test.run`] }] }, { bootstrapSamples: 100 });
 * assert.equal(sectionItems(report, "results").length, 2); // the table and the figure
 * assert.equal(sectionItems(report, "spread").length, 1); // one run: a line saying so
 * ```
 */
export function sectionItems(r: SystemsReport, section: SectionName): SectionItem[] {
  const s = pageSections().find((s) => s.name === section);
  if (!s) throw new Error(`page 00 has no section '${section}'`);
  return r.sections.includes(section) ? s.show(r) : [note(s.nothing)];
}

/**
 * Shows one section of page 00 in the notebook: `await showSection(report, "results")`.
 *
 * @example
 * ```ts
 * import { evaluateSystems } from "./report.ts";
 * import { showSection } from "./show.ts";
 * import { SAMPLES_DIR } from "../../data/paths.ts";
 * const report = await evaluateSystems({ data: "sample", baselines: false,
 *   systems: [{ name: "mine", runs: [`${SAMPLES_DIR}/runs/wikiqa-test.run`] }] }, { bootstrapSamples: 100 });
 * await showSection(report, "warnings"); // outside a kernel: printed as text
 * ```
 */
export async function showSection(r: SystemsReport, section: SectionName): Promise<void> {
  for (const item of sectionItems(r, section)) await display(item);
}
