/**
 * Section `ties`: how much of each system's MAP and MRR is the order of tied candidates
 * (trec_eval breaks ties by candidate id): the range over every order, and the expectation.
 *
 * @module
 */
import { bar, type Figure } from "../../../plot/figures.ts";
import { type Row, table } from "../../../plot/table.ts";
import { plotlyText } from "../../../io/escape.ts";
import type { SystemsReport } from "../types.ts";
import type { PageSection } from "../section.ts";
import { tieSummary } from "../ties_data.ts";

/** Tie analysis per system (means over its runs). */
export function tieRows(r: SystemsReport): Row[] {
  const several = r.ties.some((t) => t.runs > 1);
  return r.ties.map((t) => ({
    system: t.system,
    ...(several ? { runs: t.runs } : {}),
    "questions with ties": t.questionsWithTies,
    "questions affected": t.questionsAffected,
    "MAP (trec_eval's order)": t.map.trecEval,
    "MAP min": t.map.min,
    "MAP max": t.map.max,
    "MAP expected": t.map.expected,
    "MRR min": t.mrr.min,
    "MRR max": t.mrr.max,
  }));
}

/** Expected MAP under random tie orders per system, whiskers from the lowest to the highest. */
export function tieFigure(r: SystemsReport): Figure {
  return bar(
    ["MAP"],
    r.ties.map((t) => ({
      name: plotlyText(t.system),
      values: [t.map.expected],
      interval: { low: [t.map.min], high: [t.map.max] },
    })),
    {
      title: "MAP under every order of tied candidates (bar: expected, whiskers: min-max)",
      yRange: [0, 1],
    },
  );
}

export const tiesSection: PageSection = {
  name: "ties",
  nothing: "Tie-breaking moves no system's MAP or MRR: every range over the orders of tied " +
    "candidates is 0.",
  compute: (ctx) => ({ ties: ctx.evaluated.map((s) => tieSummary(s.name, ctx.qrels, s.runs)) }),
  has: (r) => r.ties.some((t) => t.map.max - t.map.min > 0 || t.mrr.max - t.mrr.min > 0),
  show: (r) => [table(tieRows(r)), tieFigure(r)],
};
