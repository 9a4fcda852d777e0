/**
 * The systems report as plain data: `evaluateSystems` (evaluate.ts) turns a spec (spec.ts)
 * into every number page 00 shows, once, each section computing its part (section.ts,
 * sections/). `./kit report --run ...` calls it once and writes the result once
 * (`systems.json` beside the pages, paths inside the report folder relative to it;
 * files.ts); notebook 00 only renders it (show.ts), and opened on its own it calls the same
 * function on the spec of its first cell ({@link systemsReportFor}).
 *
 * Procedures, each named once on the page:
 * - every measure is trec_eval's over every question of the split (`-c`: a question missing
 *   from a run scores 0); a system with several runs takes each question's mean over them;
 * - a system's interval: the percentile bootstrap over questions (`DEFAULT_BOOTSTRAP_SAMPLES`
 *   resamples, seed 42);
 * - the family of tests, chosen in the spec (`family`; default `all`: your systems against each
 *   other and each against each kit baseline), per measure, one test per distinct question
 *   (systems identical on every question are one system); the paired t-test, Bonferroni over
 *   the family, t intervals at the family's level, which agree with the decisions
 *   (`testFamily`); the baselines against each other are not tested;
 * - the pair of the error analysis: wins / losses / ties per question and the sign test.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import type { SystemsSpec } from "./spec.ts";
import type { SystemsReport } from "./types.ts";
import { evaluateSystems } from "./evaluate.ts";

export type {
  EvaluateSystemsOptions,
  PairReport,
  PublishedSet,
  ReportCorpus,
  ReportFamily,
  ReportMeasure,
  ReportSystem,
  SectionName,
  SystemsReport,
} from "./types.ts";
export type { RunLine } from "../notebook/blocks.ts";
export type { TieSummary } from "./ties_data.ts";
export { evaluateSystems, scoredRunName } from "./evaluate.ts";
export { AS2_SECTIONS, SECTIONS, sections } from "./sections.ts";

/** The environment variable through which `./kit report` hands notebook 00 its report file. */
export const SYSTEMS_REPORT_ENV = "KIT_SYSTEMS_REPORT";

/**
 * Reads a systems report written by `./kit report` (`systems.json`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readSystemsReport } from "./report.ts";
 * await assert.rejects(() => readSystemsReport("/nonexistent/systems.json"), /cannot read/);
 * ```
 */
export async function readSystemsReport(file: string): Promise<SystemsReport> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (e) {
    throw new KitError(`cannot read the systems report: ${(e as Error).message}`, { file });
  }
  const report = JSON.parse(text) as SystemsReport;
  if (!Array.isArray(report?.systems) || !Array.isArray(report?.sections)) {
    throw new KitError("not a systems report (systems.json of ./kit report)", { file });
  }
  return report;
}

/**
 * The report notebook 00 shows: under `./kit report`, the one the command computed (it names
 * the file in {@link SYSTEMS_REPORT_ENV}); opened on its own, `evaluateSystems(spec)` on the
 * spec of its first cell (relative paths from the notebook's folder).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemsReportFor } from "./report.ts";
 * import { SAMPLES_DIR } from "../../data/paths.ts";
 * const spec = { data: "sample" as const, baselines: false,
 *   systems: [{ name: "mine", runs: [`${SAMPLES_DIR}/runs/wikiqa-test.run`] }] };
 * const report = await systemsReportFor(spec, {});
 * assert.deepEqual(report.systems.map((s) => s.name), ["mine"]);
 * ```
 */
export async function systemsReportFor(
  spec: SystemsSpec,
  env: Record<string, string | undefined> = Deno.env.toObject(),
): Promise<SystemsReport> {
  const file = env[SYSTEMS_REPORT_ENV];
  if (file) return await readSystemsReport(file);
  return await evaluateSystems(spec);
}
