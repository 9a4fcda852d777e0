/**
 * Measures trec_eval 9.0.8 does not have, defined as ir_measures' providers compute them
 * (https://ir-measur.es; the provider named in each `origin`). They follow the table's
 * trec_eval blocks, are reachable by their ir_measures names (`Judged@10`, `RR@10`,
 * `nDCG(dcg='exp-log2')@10`) or by these names with trec_eval syntax, and are not part of
 * `all_trec`.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import { defineMeasure, UNJUDGED } from "./measure.ts";
import { relevantInTop, trecRel } from "./query.ts";
import { hits, isRelevant, judgment, numRelevant, rankOf, sumOver, top } from "./brute.ts";

/** gdeval's largest judgment (`$MAX_JUDGMENT`): ERR's gains are (2^g - 1) / 2^4. */
const GDEVAL_MAX_JUDGMENT = 4;
/** cwl_eval reads the first 1000 documents of a ranking (`max_n`), so RBP does. */
const CWL_MAX_DOCS = 1000;

function checkGdevalJudgments(highest: number): void {
  if (highest > GDEVAL_MAX_JUDGMENT) {
    throw new KitError(
      `ERR (gdeval's) takes judgments up to ${GDEVAL_MAX_JUDGMENT}, the qrels have ` +
        `${highest}: gdeval stops on such qrels, ir_measures with it`,
    );
  }
}

/** judged, recip_rank_cut, ndcg_exp, hits, num_q_both, num_rel_both, err, rbp_binary. */
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
  defineMeasure({
    name: "num_q_both",
    description: "1 for each query in both the run and the qrels, summed: the queries " +
      "evaluated, not counting those -c adds (ir_measures' NumQ)",
    params: "none",
    integer: true,
    aggregate: "sum",
    origin: "ir_measures NumQ (pytrec_eval's num_q per query, summed)",
    compute: () => 1,
    reference: () => 1,
  }),
  defineMeasure({
    name: "num_rel_both",
    description: "relevant judgments of each query in both the run and the qrels, summed: " +
      "not counting the queries -c adds, at the level (ir_measures' NumRel)",
    params: "none",
    integer: true,
    aggregate: "sum",
    origin: "ir_measures NumRel (pytrec_eval's num_rel per query, summed)",
    compute: (q) => q.numRel,
    reference: (q) => numRelevant(q),
  }),
  defineMeasure({
    name: "err",
    description: "expected reciprocal rank over the top k: sum over ranks r of R_r / r times " +
      "the product of (1 - R_i) above r, R = (2^g - 1) / 16 for a judgment g > 0 (gdeval's, " +
      "judgments up to 4), else 0 (ir_measures' ERR@k)",
    params: "cutoffs",
    defaults: [20],
    aggregate: "mean",
    origin: "ir_measures gdeval provider",
    compute: (q, k) => {
      if (q.judged.length) checkGdevalJudgments(q.judged[0]);
      let err = 0, reach = 1;
      const n = Math.min(k, q.rels.length);
      for (let i = 0; i < n; i++) {
        const g = q.rels[i] > 0 ? q.rels[i] : 0;
        const r = (2 ** g - 1) / 2 ** GDEVAL_MAX_JUDGMENT;
        err += reach * r / (i + 1);
        reach *= 1 - r;
      }
      return err;
    },
    reference: (q, k) => {
      // The probability that the user stops at rank r, satisfied, over the top k.
      const stop = top(q, k).map((d) => (2 ** Math.max(judgment(q, d) ?? 0, 0) - 1) / 16);
      return sumOver(stop.length, (r) => {
        let goOn = 1;
        for (let i = 0; i < r; i++) goOn *= 1 - stop[i];
        return goOn * stop[r] / (r + 1);
      });
    },
    examples: ["1,3,10"],
  }),
  defineMeasure({
    name: "rbp_binary",
    description: "rank-biased precision, (1 - p) times the sum of p^(r - 1) over the ranks r " +
      "of relevant documents (the first 1000), persistence p (default 0.8): " +
      "ir_measures' RBP(rel=1, p=0.8) (cwl_eval's; binary relevance at the level)",
    params: "floats",
    defaults: [0.8],
    paramCount: 1,
    // A persistence: p >= 1 sums growing weights (1 - p < 0), p <= 0 none (cwl_eval's range).
    checkParam: ([p]) => p > 0 && p < 1 ? undefined : `p must be between 0 and 1, got ${p}`,
    aggregate: "mean",
    origin: "ir_measures cwl_eval provider",
    compute: (q, [p]) => {
      let sum = 0, w = 1;
      const n = Math.min(q.rels.length, CWL_MAX_DOCS);
      for (let i = 0; i < n; i++) {
        if (trecRel(q.rels[i]) >= q.level) sum += w;
        w *= p;
      }
      return (1 - p) * sum;
    },
    reference: (q, [p]) =>
      sumOver(
        Math.min(q.ranking.length, 1000),
        (i) => (isRelevant(q, q.ranking[i]) ? (1 - p) * Math.pow(p, i) : 0),
      ),
    examples: ["0.5", "0.95"],
  }),
];
