/**
 * The files of a systems report, written once beside its pages by `./kit report`: the spec
 * (`spec.json`, the one form a notebook can evaluate again), the report itself
 * (`systems.json`: every number of page 00, which the notebook renders), and CSV views of it
 * for spreadsheets (`per-question.csv`, `pair-differences.csv`, and each task part's own, e.g.
 * `per-record-qrcd.csv`), the systems table for a paper (`systems.tex`, `systems.md`), and the
 * figures drawn as SVG by `./kit report` (`figures/`). Each section gives its own files.
 * Paths inside the report folder are relative to it (`runs/02-name.run`), so the folder can
 * move; the user's own run files keep their absolute paths.
 *
 * @module
 */
import { writeFileAtomic } from "../../io/atomic.ts";
import { basename } from "../../io/path.ts";
import type { SystemsReport } from "./types.ts";
import { pageSections } from "./sections.ts";
import { differenceFigures } from "./sections/significance.ts";

export { rowsCsv } from "./csv.ts";
export { reportHeadline } from "./headline.ts";
import { partsOf } from "./headline.ts";
export { perQuestionCsv } from "./sections/results.ts";

/**
 * The files of a report (relative name to text): `systems.json` holds the report with the
 * list of these files in `files`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemsFiles } from "./files.ts";
 * const files = systemsFiles({ spec: { systems: [] }, measures: [], systems: [], sections: [] } as never);
 * assert.deepEqual(Object.keys(files), ["spec.json", "systems.json"]);
 * assert.deepEqual(JSON.parse(files["systems.json"]).files, ["spec.json", "systems.json"]);
 * ```
 */
export function systemsFiles(r: SystemsReport): Record<string, string> {
  const own: Record<string, string> = {};
  for (const section of pageSections()) {
    if (section.files && r.sections.includes(section.name)) Object.assign(own, section.files(r));
  }
  const names = ["spec.json", "systems.json", ...Object.keys(own), ...figureFiles(r)];
  return {
    "spec.json": JSON.stringify(r.spec, null, 1) + "\n",
    "systems.json": JSON.stringify({ ...r, files: names }) + "\n",
    ...own,
  };
}

/**
 * The figures `./kit report` draws as SVG files beside the report (the per-question
 * differences of every tested pair: the significance section's), relative names.
 */
export function figureFiles(r: SystemsReport): string[] {
  return r.sections.includes("significance") ? differenceFigures(r).map((d) => d.file) : [];
}

/** Writes the report's files into the report folder `dir`; returns the path of `systems.json`. */
export async function writeSystemsFiles(r: SystemsReport, dir: string): Promise<string> {
  for (const [file, text] of Object.entries(systemsFiles(r))) {
    await writeFileAtomic(`${dir}/${file}`, text, { force: true });
  }
  return systemsJsonPath(dir);
}

/**
 * Where {@link writeSystemsFiles} writes `systems.json` in the report folder `dir`: known
 * before it is written, so that page 00's kernel starts while the systems are evaluated.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemsJsonPath } from "./files.ts";
 * assert.equal(systemsJsonPath("/tmp/report"), "/tmp/report/systems.json");
 * ```
 */
export function systemsJsonPath(dir: string): string {
  return `${dir}/systems.json`;
}

/**
 * The `systems` entries of `summary.json`: your systems (answer selection, then each task
 * part's) with
 * their numbers, without per-question values.
 */
export function summarySystems(r: SystemsReport): Record<string, unknown>[] {
  return [
    ...r.systems.filter((s) => s.kind === "user").map((s) => ({
      name: s.name,
      dataset: r.spec.dataset,
      split: r.spec.split,
      filter: r.spec.filter,
      corpus: r.corpus?.data,
      runs: s.runs,
      ...(s.model ? { model: s.model } : {}),
      queries: s.queries,
      ...s.mean,
      ...(s.spread ? { map_sd: s.spread.map.sd } : {}),
    })),
    ...partsOf(r).flatMap(([p, d]) => p.summarySystems(d)),
  ];
}

/**
 * The user's strings the page shows (system and task part run names, run files' names): text as
 * typed, whatever they hold, which the PDF check does not take for TeX (`checkPdf`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { userText } from "./files.ts";
 * const r = { systems: [{ name: "$x^2$", runs: ["/r/a\\b.run"] }], qrcd: { runs: [{ name: "q", kind: "user" }] } };
 * assert.deepEqual(userText(r as never), ["$x^2$", "a\\b.run", "q"]);
 * ```
 */
export function userText(r: SystemsReport): string[] {
  return [
    ...r.systems.flatMap((s) => [s.name, ...s.runs.map(basename)]),
    ...partsOf(r).flatMap(([p, d]) => p.texts(d)),
  ];
}
