/**
 * Section `breakdowns`: every system's MAP by question type (the question word) and by the
 * number of candidates.
 *
 * @module
 */
import { table } from "../../../plot/table.ts";
import { breakdownRows } from "../pair_data.ts";
import type { PageSection } from "../section.ts";

export const breakdownsSection: PageSection = {
  name: "breakdowns",
  nothing: "No answer-selection system given.",
  compute: (ctx) => ({
    breakdowns: {
      type: breakdownRows(ctx.split.questions, ctx.values, "type"),
      candidates: breakdownRows(ctx.split.questions, ctx.values, "candidates"),
    },
  }),
  has: (r) => r.systems.length > 0,
  show: (r) => [
    table(r.breakdowns.type, { caption: "MAP by question type" }),
    table(r.breakdowns.candidates, { caption: "MAP by number of candidates" }),
  ],
};
