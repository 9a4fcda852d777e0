/**
 * Section `spread`: systems given with several runs (one per seed), each run's MAP and MRR
 * and their spread (TANDA's claim is stability across fine-tuning runs).
 *
 * @module
 */
import { type Figure, scatter } from "../../../plot/figures.ts";
import { type Row, table } from "../../../plot/table.ts";
import { plotlyText } from "../../../io/escape.ts";
import type { SystemsReport } from "../types.ts";
import type { PageSection } from "../section.ts";
import { fmt } from "../tables.ts";

/** Systems with several runs: each run's MAP and MRR, and their spread. */
export function spreadRows(r: SystemsReport): Row[] {
  return r.systems.filter((s) => s.spread).flatMap((s) =>
    r.measures.filter((m) => m.name === "map" || m.name === "recip_rank").map((m) => {
      const sp = s.spread![m.name];
      return {
        system: s.name,
        measure: m.label,
        runs: s.runCount,
        mean: s.mean[m.name],
        "sd (n-1)": sp.sd,
        min: sp.min,
        max: sp.max,
        "per run": sp.perRun.map((v) => fmt(v)).join(", "),
      };
    })
  );
}

/** Systems with several runs: each run's MAP, one series per system. */
export function spreadFigure(r: SystemsReport): Figure {
  return scatter(
    r.systems.filter((s) => s.spread).map((s) => {
      const perRun = s.spread!.map.perRun;
      return {
        name: plotlyText(s.name),
        x: perRun.map((_, i) => i + 1),
        y: perRun,
        text: perRun.map((_, i) => `run ${i + 1}`),
      };
    }),
    { title: "MAP of each run", xTitle: "run", yTitle: "MAP", height: 360 },
  );
}

export const spreadSection: PageSection = {
  name: "spread",
  nothing: "Every system has one run: give several (one per seed) to see their spread.",
  has: (r) => r.systems.some((s) => s.runCount > 1),
  show: (r) => [table(spreadRows(r)), spreadFigure(r)],
};
