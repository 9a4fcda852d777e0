/**
 * The page's headline numbers, which the report's index shows, and the task parts a report
 * holds (the files and the summary read them too).
 *
 * @module
 */
import { reportParts } from "../../tasks/registry.ts";
import type { PartData, ReportPart } from "../../tasks/task.ts";
import type { SystemsReport } from "./types.ts";

/** The task parts a report has, each with its data. */
export function partsOf(r: SystemsReport): [ReportPart, PartData][] {
  return reportParts().flatMap((p) =>
    r[p.key] === undefined ? [] : [[p, r[p.key] as PartData] as [ReportPart, PartData]]
  );
}

/**
 * The page's headline numbers (the report's index shows them): the best of your
 * answer-selection systems by MAP, then each task part's (the best of your QRCD runs by pRR).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportHeadline } from "./headline.ts";
 * const h = reportHeadline({ systems: [
 *   { name: "a", kind: "user", mean: { map: 0.5, recip_rank: 0.6 } },
 *   { name: "b", kind: "baseline", mean: { map: 0.9, recip_rank: 1 } }] } as never);
 * assert.deepEqual(h, { systems: 1, "best system": "a", MAP: 0.5, MRR: 0.6 });
 * ```
 */
export function reportHeadline(r: SystemsReport): Record<string, number | string> {
  const user = r.systems.filter((s) => s.kind === "user").sort((a, b) => b.mean.map - a.mean.map);
  const parts = partsOf(r).map(([p, d]) => p.headline(d));
  return {
    systems: user.length + parts.reduce((n, h) => n + h.systems, 0),
    ...(user.length
      ? { "best system": user[0].name, MAP: user[0].mean.map, MRR: user[0].mean.recip_rank }
      : {}),
    ...Object.assign({}, ...parts.map((h) => h.entries)),
  };
}
