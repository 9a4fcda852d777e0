/**
 * The table's fifth block, in trec_eval's order: average precision, relative precision and
 * success after k documents.
 *
 * @module
 */
import { defineMeasure } from "./measure.ts";
import { relevantInTop } from "./query.ts";
import { averagePrecisionAt, TREC_CUTOFFS } from "./precision.ts";
import { averagePrecision, hits, numRelevant } from "./brute.ts";

/** map_cut, relative_P, success. */
export const CUTOFF = [
  defineMeasure({
    name: "map_cut",
    description: "average precision over the first k documents, divided by every relevant document",
    params: "cutoffs",
    defaults: TREC_CUTOFFS,
    aggregate: "mean",
    compute: (q, k) => (q.numRel === 0 ? 0 : averagePrecisionAt(q, k)),
    reference: (q, k) => averagePrecision(q, k),
    examples: ["1,2,4"],
  }),
  defineMeasure({
    name: "relative_P",
    description:
      "precision after k documents relative to the best possible: relevant in the top k " +
      "divided by min(k, R) (0 when R = 0)",
    params: "cutoffs",
    defaults: TREC_CUTOFFS,
    aggregate: "mean",
    compute: (q, k) => (q.numRel === 0 ? 0 : relevantInTop(q, k) / Math.min(k, q.numRel)),
    reference: (q, k) => {
      const R = numRelevant(q);
      return R === 0 ? 0 : hits(q, k) / Math.min(k, R);
    },
    examples: ["1,2,3"],
  }),
  defineMeasure({
    name: "success",
    description: "1 when a relevant document is in the top k, else 0",
    params: "cutoffs",
    defaults: [1, 5, 10],
    aggregate: "mean",
    compute: (q, k) => (relevantInTop(q, k) > 0 ? 1 : 0),
    reference: (q, k) => (hits(q, k) > 0 ? 1 : 0),
    examples: ["2,3"],
  }),
];
