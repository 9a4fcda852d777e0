/**
 * The table's sixth block, in trec_eval's order: measures of the retrieved set as a whole
 * (cut it with -M), and the count of judged non-relevant documents retrieved.
 *
 * @module
 */
import { defineMeasure, type RankedQuery } from "./measure.ts";
import { relevantRetrieved } from "./query.ts";
import { hits, isNonRelevant, numRelevant } from "./brute.ts";

/** Retrieved, relevant retrieved and relevant counts of a query. */
function counts(q: RankedQuery): { n: number; hit: number; R: number } {
  return { n: q.rels.length, hit: relevantRetrieved(q), R: q.numRel };
}

/** The same counts from the reference's side. */
function refCounts(q: Parameters<typeof hits>[0]): { n: number; hit: number; R: number } {
  return { n: q.ranking.length, hit: hits(q), R: numRelevant(q) };
}

/** set_P, set_relative_P, set_recall, set_map, set_F, num_nonrel_judged_ret. */
export const SET = [
  defineMeasure({
    name: "set_P",
    description: "precision of the retrieved set: relevant retrieved / retrieved",
    params: "none",
    aggregate: "mean",
    compute: (q) => {
      const { n, hit } = counts(q);
      return n ? hit / n : 0;
    },
    reference: (q) => {
      const { n, hit } = refCounts(q);
      return n === 0 ? 0 : hit / n;
    },
  }),
  defineMeasure({
    name: "set_relative_P",
    description: "relevant retrieved / min(retrieved, R): precision relative to the best possible",
    params: "none",
    aggregate: "mean",
    compute: (q) => {
      const { n, hit, R } = counts(q);
      return n && R ? hit / Math.min(n, R) : 0;
    },
    reference: (q) => {
      const { n, hit, R } = refCounts(q);
      return n === 0 || R === 0 ? 0 : hit / Math.min(n, R);
    },
  }),
  defineMeasure({
    name: "set_recall",
    description: "recall of the retrieved set: relevant retrieved / R",
    params: "none",
    aggregate: "mean",
    compute: (q) => {
      const { hit, R } = counts(q);
      return R ? hit / R : 0;
    },
    reference: (q) => {
      const { hit, R } = refCounts(q);
      return R === 0 ? 0 : hit / R;
    },
  }),
  defineMeasure({
    name: "set_map",
    description: "unranked average precision: set precision x set recall",
    params: "none",
    aggregate: "mean",
    compute: (q) => {
      const { n, hit, R } = counts(q);
      return n && R ? (hit * hit) / (n * R) : 0;
    },
    reference: (q) => {
      const { n, hit, R } = refCounts(q);
      return n === 0 || R === 0 ? 0 : (hit / n) * (hit / R);
    },
  }),
  defineMeasure({
    name: "set_F",
    description:
      "F measure of the retrieved set: (b + 1) P R / (b P + R), b the weight of recall " +
      "(default 1), as set_F.0.5",
    params: "floats",
    defaults: [1],
    aggregate: "mean",
    compute: (q, p) => {
      const { n, hit, R } = counts(q);
      if (!hit) return 0;
      const precision = hit / n, recall = hit / R, b = p[0];
      return (b + 1) * precision * recall / (b * precision + recall);
    },
    reference: (q, p) => {
      const { n, hit, R } = refCounts(q);
      if (hit === 0) return 0;
      const P = hit / n, Rc = hit / R;
      return ((1 + p[0]) * P * Rc) / (p[0] * P + Rc);
    },
    examples: ["0.5", "2"],
  }),
  defineMeasure({
    name: "num_nonrel_judged_ret",
    description: "number of judged non-relevant documents retrieved; summed over queries",
    params: "none",
    integer: true,
    aggregate: "sum",
    compute: (q) => {
      let c = 0;
      for (let i = 0; i < q.rels.length; i++) if (q.rels[i] >= 0 && !(q.rels[i] >= q.level)) c++;
      return c;
    },
    reference: (q) => q.ranking.filter((d) => isNonRelevant(q, d)).length,
  }),
];
