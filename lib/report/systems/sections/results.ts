/**
 * Section `results`: every measure of every system with its interval, as a table, a figure,
 * the per-question values (`per-question.csv`) and the table for a paper (`systems.tex`,
 * `systems.md`: paper_table.ts).
 *
 * @module
 */
import { bar, type Figure } from "../../../plot/figures.ts";
import { type Row, table } from "../../../plot/table.ts";
import { plotlyText } from "../../../io/escape.ts";
import { csvField } from "../csv.ts";
import { paperTables } from "../paper_table.ts";
import type { SystemsReport } from "../types.ts";
import type { PageSection } from "../section.ts";
import { fmt, intervalText } from "../tables.ts";

/**
 * One row per system: each measure's mean with its interval; with several runs, MAP's and
 * MRR's sample sd and range over the runs (columns only when some system has several).
 */
export function resultRows(r: SystemsReport): Row[] {
  const several = r.systems.some((s) => s.runCount > 1);
  return r.systems.map((s) => {
    const row: Row = { system: s.name };
    if (several) row.runs = s.runCount;
    for (const m of r.measures) {
      row[m.label] = s.mean[m.name];
      row[`${m.label} interval`] = intervalText(
        s.interval[m.name].lower,
        s.interval[m.name].upper,
      );
      if (several && (m.name === "map" || m.name === "recip_rank")) {
        const sp = s.spread?.[m.name];
        row[`${m.label} sd (runs)`] = sp ? sp.sd : "";
        row[`${m.label} min-max (runs)`] = sp ? `${fmt(sp.min)} to ${fmt(sp.max)}` : "";
      }
    }
    return row;
  });
}

/** Every measure of every system, with whiskers at its interval. */
export function resultFigure(r: SystemsReport): Figure {
  return bar(
    r.measures.map((m) => m.label),
    r.systems.map((s) => ({
      name: plotlyText(s.name),
      values: r.measures.map((m) => s.mean[m.name]),
      interval: {
        low: r.measures.map((m) => s.interval[m.name].lower),
        high: r.measures.map((m) => s.interval[m.name].upper),
      },
    })),
    {
      title:
        `Every system on the split (whiskers: ${r.procedures.bootstrapSamples}-resample bootstrap intervals)`,
      yRange: [0, 1],
    },
  );
}

/**
 * The per-question values as CSV (RFC 4180): one row per system, run and question; a system
 * with several runs also gets rows with run `mean` (each question's mean over its runs, the
 * values its tests use).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { perQuestionCsv } from "./results.ts";
 * const csv = perQuestionCsv({ measures: [{ name: "map", label: "MAP", trecEval: "map" }],
 *   systems: [{ name: 'a,"b"', kind: "user", runs: ["/x"], runCount: 1, perQuery: { q1: { map: 1 } } }] } as never);
 * assert.equal(csv, 'system,kind,run,question,map\n"a,""b""",user,/x,q1,1\n');
 * ```
 */
export function perQuestionCsv(r: SystemsReport): string {
  const names = r.measures.map((m) => m.name);
  const lines = [["system", "kind", "run", "question", ...names].join(",")];
  const add = (
    system: string,
    kind: string,
    run: string,
    values: Record<string, Record<string, number>>,
  ) => {
    for (const [q, v] of Object.entries(values)) {
      lines.push([system, kind, run, q, ...names.map((m) => v[m])].map(csvField).join(","));
    }
  };
  for (const s of r.systems) {
    const runName = (i: number) => s.runs[i] ?? (s.model ? `model ${s.model}` : `run ${i + 1}`);
    if (s.perRun) {
      s.perRun.forEach((values, i) => add(s.name, s.kind, runName(i), values));
      add(s.name, s.kind, "mean", s.perQuery);
    } else {
      add(s.name, s.kind, runName(0), s.perQuery);
    }
  }
  return lines.join("\n") + "\n";
}

export const resultsSection: PageSection = {
  name: "results",
  nothing: "No answer-selection system given.",
  has: (r) => r.systems.length > 0,
  show(r) {
    const c = r.corpus!;
    return [
      table(resultRows(r), {
        caption: `${c.dataset} ${c.split} (${c.filter}): ${c.questions} questions; intervals: ` +
          `95%, percentile bootstrap over questions (${r.procedures.bootstrapSamples} ` +
          `resamples, seed ${r.procedures.seed})`,
      }),
      resultFigure(r),
    ];
  },
  files(r) {
    const paper = paperTables(r);
    return {
      "per-question.csv": perQuestionCsv(r),
      "systems.tex": paper.tex,
      "systems.md": paper.md,
    };
  },
};
