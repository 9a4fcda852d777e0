/**
 * Measures trec_eval 9.0.8 does not have, defined as ir_measures' providers compute them
 * (https://ir-measur.es; the provider named in each `origin`). They follow the table's
 * trec_eval blocks, are reachable by their ir_measures names (`Judged@10`, `RR@10`,
 * `nDCG(dcg='exp-log2')@10`) or by these names with trec_eval syntax, and are not part of
 * `all_trec`.
 *
 * @module
 */
import { defineMeasure, UNJUDGED } from "./measure.ts";
import { relevantInTop, trecRel } from "./query.ts";
import { hits, isRelevant, judgment, rankOf, sumOver, top } from "./brute.ts";

/** judged, recip_rank_cut, ndcg_exp, hits. */
export const EXTRA = [
  defineMeasure({
    name: "judged",
    description: "share of the top k documents that have a judgment (any value), divided by " +
      "min(k, retrieved); without a cutoff, over the whole ranking (ir_measures' Judged@k)",
    params: "cutoffs",
    defaults: [Infinity],
    aggregate: "mean",
    origin: "ir_measures judged provider",
    compute: (q, k) => {
      const n = Math.min(k, q.rels.length);
      let c = 0;
      for (let i = 0; i < n; i++) if (q.rels[i] !== UNJUDGED) c++;
      return n ? c / n : 0;
    },
    reference: (q, k) => {
      const docs = top(q, k);
      return docs.length === 0
        ? 0
        : docs.filter((d) => judgment(q, d) !== undefined).length / docs.length;
    },
    examples: ["1,3,10"],
  }),
  defineMeasure({
    name: "recip_rank_cut",
    description:
      "reciprocal rank of the first relevant document within the top k, 0 when none there " +
      "(ir_measures' RR@k)",
    params: "cutoffs",
    defaults: [10],
    aggregate: "mean",
    origin: "ir_measures msmarco provider",
    compute: (q, k) => {
      const n = Math.min(k, q.rels.length);
      for (let i = 0; i < n; i++) if (trecRel(q.rels[i]) >= q.level) return 1 / (i + 1);
      return 0;
    },
    reference: (q, k) => {
      const first = top(q, k).find((d) => isRelevant(q, d));
      return first === undefined ? 0 : 1 / rankOf(q, first);
    },
    examples: ["1,3"],
  }),
  defineMeasure({
    name: "ndcg_exp",
    description:
      "nDCG with exponential gains: (2^judgment - 1) / log2(rank + 1) over the top k (the " +
      "whole ranking without a cutoff), ideal from the positive judgments; 0 without any " +
      "(ir_measures' nDCG(dcg='exp-log2')@k, gdeval's nDCG)",
    params: "cutoffs",
    defaults: [Infinity],
    aggregate: "mean",
    origin: "ir_measures gdeval provider (ranx without a cutoff)",
    compute: (q, k) => {
      const judged = q.judged, rels = q.rels;
      let idcg = 0;
      const ni = Math.min(k, judged.length);
      for (let i = 0; i < ni && judged[i] > 0; i++) idcg += (2 ** judged[i] - 1) / Math.log2(i + 2);
      if (idcg === 0) return 0;
      let dcg = 0;
      const n = Math.min(k, rels.length);
      for (let i = 0; i < n; i++) if (rels[i] > 0) dcg += (2 ** rels[i] - 1) / Math.log2(i + 2);
      return dcg / idcg;
    },
    reference: (q, k) => {
      const gain = (v: number) => (v > 0 ? Math.pow(2, v) - 1 : 0);
      const ideal = Object.values(q.judgments).map(gain).sort((a, b) => b - a);
      const got = top(q, k).map((d) => gain(judgment(q, d) ?? 0));
      const idcg = sumOver(Math.min(k, ideal.length), (i) => ideal[i] / Math.log2(i + 2));
      const dcg = sumOver(got.length, (i) => got[i] / Math.log2(i + 2));
      return idcg === 0 ? 0 : dcg / idcg;
    },
    examples: ["3,10"],
  }),
  defineMeasure({
    name: "hits",
    description: "number of relevant documents in the top k (ranx's Hits@k); mean over queries",
    params: "cutoffs",
    defaults: [10],
    integer: true,
    aggregate: "mean",
    origin: "ranx Hits",
    compute: (q, k) => relevantInTop(q, k),
    reference: (q, k) => hits(q, k),
    examples: ["1,3"],
  }),
];
