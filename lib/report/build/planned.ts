/**
 * The files a report writes, named before it is built: `checkReplaceable` and `carryForeign`
 * (foreign.ts) check that no file the report did not write sits where one of them goes, and
 * the report's cache (cache.ts) reuses a notebook's files by these names.
 *
 * @module
 */
import { scoredRunName } from "../systems/report.ts";
import type { ResolvedSpec } from "../systems/spec.ts";
import { reportParts } from "../../tasks/registry.ts";
import { slideFiles } from "./slides.ts";
import { courseFiles } from "./course.ts";
import { CACHE_KEYS, cachedPart } from "./cache_files.ts";

import { SYSTEMS_NOTEBOOK } from "./notebooks.ts";

/** What of a report's options decides which files it writes. */
export interface PlannedOptions {
  /** Print the PDF (default true). */
  pdf?: boolean;
  /** Export the lessons as slides (default true). */
  slides?: boolean;
  /** The user's systems, when given. */
  systems?: ResolvedSpec;
}

/**
 * Whether the report makes slides of this notebook: every lesson, unless turned off.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withSlides } from "./planned.ts";
 * assert.equal(withSlides("02-filters.ipynb", {}), true);
 * assert.equal(withSlides("00-your-systems.ipynb", {}), false);
 * assert.equal(withSlides("02-filters.ipynb", { slides: false }), false);
 * ```
 */
export function withSlides(file: string, options: PlannedOptions): boolean {
  return options.slides !== false && file !== SYSTEMS_NOTEBOOK;
}

/**
 * The files one notebook's page, slides, course files and (a lesson's, with the PDF) cached
 * PDF part are, relative to the report folder.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notebookFiles } from "./planned.ts";
 * assert.deepEqual(notebookFiles("00-your-systems.ipynb", { pdf: false }), [
 *   "html/00-your-systems.html",
 *   "notebooks/00-your-systems.ipynb",
 *   "screenshots/00-your-systems.png",
 * ]);
 * assert.equal(notebookFiles("02-filters.ipynb", {}).length, 8);
 * ```
 */
export function notebookFiles(file: string, options: PlannedOptions): string[] {
  const name = file.replace(/\.ipynb$/, "");
  const files = [`html/${name}.html`, `notebooks/${file}`, `screenshots/${name}.png`];
  if (withSlides(file, options)) files.push(...slideFiles(name));
  if (file === SYSTEMS_NOTEBOOK) return files;
  files.push(...Object.values(courseFiles(name)));
  if (options.pdf !== false) files.push(cachedPart(name));
  return files;
}

/**
 * The files a report of these notebooks will write (relative paths): what a file the report
 * did not write must not sit at (checked again, exactly, when it is carried over).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plannedFiles } from "./planned.ts";
 * const files = plannedFiles(["01-datasets.ipynb"], { pdf: false, slides: false });
 * assert(files.includes("syllabus.html") && files.includes("html/01-datasets.html"));
 * assert(!files.includes("report.pdf"));
 * ```
 */
export function plannedFiles(names: readonly string[], options: PlannedOptions): string[] {
  const files = ["index.html", "summary.json", "screenshots/index.png", CACHE_KEYS];
  if (options.pdf !== false) files.push("report.pdf");
  for (const file of names) files.push(...notebookFiles(file, options));
  if (names.some((n) => n !== SYSTEMS_NOTEBOOK)) files.push("syllabus.html");
  const spec = options.systems;
  if (spec) {
    files.push("spec.json", "systems.json");
    if (spec.systems.length) files.push("per-question.csv", "pair-differences.csv");
    for (const p of reportParts()) if (spec[p.key] !== undefined) files.push(...p.fileNames);
    spec.systems.forEach((s, i) => s.model && files.push(scoredRunName(s.name, i)));
  }
  return files;
}
