/**
 * Tables of systems with several runs (notebook 09 and the report): per-setting spread and
 * TANDA's robustness layout, as rows for `table` (lib/plot draws the figures).
 *
 * @module
 */
import { KitError } from "../errors.ts";
import type { PerQueryValues } from "./compare.ts";
import { measureSpreadOverRuns } from "./seeds.ts";

/**
 * One row per system and measure: runs, mean, sample sd, min and max of the per-run means
 * ({@link measureSpreadOverRuns}), for a table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { spreadRows } from "./seed_tables.ts";
 * const run = (v: number) => new Map([["q1", { map: v }]]);
 * const rows = spreadRows({ a: [run(0.7), run(0.8)] }, { map: "MAP" });
 * assert(rows[0].measure === "MAP" && rows[0].runs === 2 && rows[0].max === 0.8);
 * ```
 */
export function spreadRows(
  systems: Record<string, readonly PerQueryValues[]>,
  measures: Record<string, string>,
): Record<string, string | number>[] {
  return Object.entries(systems).flatMap(([system, runs]) =>
    Object.entries(measures).map(([measure, label]) => {
      const s = measureSpreadOverRuns(runs, measure);
      return {
        system,
        measure: label,
        runs: s.runs,
        mean: s.mean,
        sd: s.sd,
        min: s.min,
        max: s.max,
      };
    })
  );
}

/** The runs of one system under one setting (e.g. a label-noise level). */
export interface SettingRuns {
  /** The setting, as shown (e.g. `10%`). */
  setting: string;
  /** The system's name. */
  system: string;
  /** Per-query values of each run. */
  runs: readonly PerQueryValues[];
}

/**
 * TANDA's robustness layout: one row per setting, for each system and measure `mean ± sd` over
 * its runs, and the relative change of the first measure's mean from the `baseline` setting
 * (e.g. `-1.8%` of MAP at 10% label noise against no noise).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { robustnessRows } from "./seed_tables.ts";
 * const run = (v: number) => new Map([["q1", { map: v }]]);
 * const rows = robustnessRows([
 *   { setting: "0%", system: "a", runs: [run(0.8), run(0.8)] },
 *   { setting: "10%", system: "a", runs: [run(0.7), run(0.74)] },
 * ], { map: "MAP" }, "0%");
 * assert(rows[1]["a MAP"] === "0.7200 ± 0.0283" && rows[1]["a MAP change"] === "-10.0%");
 * ```
 */
export function robustnessRows(
  cells: readonly SettingRuns[],
  measures: Record<string, string>,
  baseline: string,
): Record<string, string>[] {
  const [first, firstLabel] = Object.entries(measures)[0] ?? [];
  if (first === undefined) throw new KitError("robustness table: no measure");
  const base = new Map(
    cells.filter((c) => c.setting === baseline).map((
      c,
    ) => [c.system, measureSpreadOverRuns(c.runs, first)]),
  );
  const rows = new Map<string, Record<string, string>>();
  for (const c of cells) {
    const row = rows.get(c.setting) ?? { setting: c.setting };
    rows.set(c.setting, row);
    for (const [m, label] of Object.entries(measures)) {
      const s = measureSpreadOverRuns(c.runs, m);
      row[`${c.system} ${label}`] = `${s.mean.toFixed(4)} ± ${s.sd.toFixed(4)}`;
    }
    const b = base.get(c.system);
    if (!b) throw new KitError(`robustness table: ${c.system} has no runs at '${baseline}'`);
    const change = (measureSpreadOverRuns(c.runs, first).mean / b.mean - 1) * 100;
    row[`${c.system} ${firstLabel} change`] = `${change > 0 ? "+" : ""}${change.toFixed(1)}%`;
  }
  return [...rows.values()];
}
