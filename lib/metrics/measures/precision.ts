/**
 * The table's second block, in trec_eval's order: average precision and its geometric mean,
 * R-precision, bpref, reciprocal rank, interpolated precision at recall points, precision at
 * cutoffs.
 *
 * @module
 */
import {
  defineMeasure,
  type MeasureOptions,
  type RankedQuery,
  type ReferenceQuery,
} from "./measure.ts";
import { recallCut, recallWalk, relevantInTop, trecRel } from "./query.ts";
import {
  averagePrecision,
  hits,
  isNonRelevant,
  isRelevant,
  numRelevant,
  precisionAt,
  rankOf,
} from "./brute.ts";

/** The cutoffs trec_eval uses when `P`, `recall`, `ndcg_cut`, ... are named bare. */
export const TREC_CUTOFFS = [5, 10, 15, 20, 30, 100, 200, 500, 1000];
/** trec_eval's default recall points. */
export const RECALL_POINTS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
/** trec_eval's floor for the geometric means (a query scoring 0 counts as 0.00001). */
export const MIN_GEO_MEAN = 0.00001;

/**
 * Average precision over the first `k` documents, divided by every relevant document.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { averagePrecisionAt } from "./precision.ts";
 * const q = { rels: Float64Array.of(0, 1, 1), numRel: 4, judged: Float64Array.of(1, 1, 1, 1, 0), level: 1 };
 * assert(averagePrecisionAt(q, Infinity) === (1 / 2 + 2 / 3) / 4 && averagePrecisionAt(q, 2) === 1 / 8);
 * ```
 */
export function averagePrecisionAt(q: RankedQuery, k: number): number {
  const rels = q.rels, level = q.level;
  const n = k < rels.length ? k : rels.length;
  let found = 0, sum = 0;
  for (let i = 0; i < n; i++) {
    if (trecRel(rels[i]) >= level) {
      found++;
      sum += found / (i + 1);
    }
  }
  return found ? sum / q.numRel : 0;
}

/**
 * trec_eval's bpref: relevant retrieved documents, each scored by the non-relevant above it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bpref } from "./precision.ts";
 * // relevant, non-relevant, relevant; one non-relevant judged, R = 2: (1 + (1 - 1/1)) / 2.
 * const q = { rels: Float64Array.of(1, 0, 1), numRel: 2, judged: Float64Array.of(1, 1, 0), level: 1 };
 * assert(bpref(q) === 0.5);
 * ```
 */
export function bpref(q: RankedQuery): number {
  const rels = q.rels, level = q.level, judged = q.judged;
  let nonRel = 0;
  for (let i = 0; i < judged.length; i++) if (judged[i] >= 0 && judged[i] < level) nonRel++;
  const denominator = Math.min(nonRel, q.numRel);
  let above = 0, sum = 0;
  for (let i = 0; i < rels.length; i++) {
    const r = rels[i];
    if (r < 0) continue; // not judged (not in the qrels, or a negative judgment)
    if (r < level) above++;
    else sum += above > 0 ? 1 - Math.min(above, q.numRel) / denominator : 1;
  }
  return q.numRel ? sum / q.numRel : sum;
}

/**
 * bpref from its definition (Buckley and Voorhees 2004, as trec_eval implements it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bprefReference } from "./precision.ts";
 * const q = { ranking: ["a", "b", "c"], judgments: { a: 1, b: 0, c: 1 }, level: 1 };
 * assert(bprefReference(q) === 0.5);
 * ```
 */
export function bprefReference(q: ReferenceQuery): number {
  const R = numRelevant(q);
  const N = Object.keys(q.judgments).filter((d) => isNonRelevant(q, d)).length;
  let sum = 0;
  q.ranking.forEach((d, i) => {
    if (!isRelevant(q, d)) return;
    const nonRelAbove = q.ranking.slice(0, i).filter((x) => isNonRelevant(q, x)).length;
    sum += nonRelAbove === 0 ? 1 : 1 - Math.min(nonRelAbove, R) / Math.min(N, R);
  });
  return R === 0 ? sum : sum / R;
}

/**
 * Interpolated precision at recall fraction `p` from its definition: the best precision at
 * any rank from the one where the needed relevant document is retrieved down to the end.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { iprecReference } from "./precision.ts";
 * const q = { ranking: ["x", "a", "b"], judgments: { a: 1, b: 1 }, level: 1 };
 * assert(iprecReference(q, 0.5) === 2 / 3 && iprecReference(q, 0) === 2 / 3);
 * ```
 */
export function iprecReference(q: ReferenceQuery, p: number, options?: MeasureOptions): number {
  const n = q.ranking.length;
  // The p-th share of R in documents: 9.0.8 adds 0.9 and truncates, 10.0 rounds (lround).
  const x = p * numRelevant(q);
  const needed = options?.release === "10.0" ? Math.floor(x + 0.5) : Math.trunc(x + 0.9);
  if (needed > hits(q)) return 0;
  if (n === 0) return NaN; // trec_eval divides 0 by 0 here
  // The rank where the needed-th relevant document is retrieved (the first for <= 0).
  let from = 1;
  for (let k = 1; k <= n; k++) {
    if (hits(q, k) >= Math.max(needed, 1)) {
      from = k;
      break;
    }
  }
  let best = 0;
  for (let k = from; k <= n; k++) best = Math.max(best, precisionAt(q, k));
  return best;
}

/** map, gm_map, Rprec, bpref, recip_rank, iprec_at_recall, P. */
export const PRECISION = [
  defineMeasure({
    name: "map",
    description:
      "average precision: precision at each relevant document retrieved, summed and divided " +
      "by the number of relevant documents in the qrels; mean over queries",
    params: "none",
    aggregate: "mean",
    compute: (q) => averagePrecisionAt(q, Infinity),
    reference: (q) => averagePrecision(q),
  }),
  defineMeasure({
    name: "gm_map",
    description: "average precision combined by the geometric mean over queries (a query's value " +
      "floored at 0.00001); summary only",
    params: "none",
    aggregate: "geometric",
    summaryOnly: true,
    compute: (q) => averagePrecisionAt(q, Infinity),
    reference: (q) => averagePrecision(q),
  }),
  defineMeasure({
    name: "Rprec",
    description:
      "precision after R documents, R = number of relevant documents (relevant in the top " +
      "min(R, retrieved), divided by R; 0 when R = 0)",
    params: "none",
    aggregate: "mean",
    compute: (q) => {
      const m = Math.min(q.numRel, q.rels.length);
      return m === 0 ? 0 : relevantInTop(q, m) / q.numRel;
    },
    reference: (q) => {
      const R = numRelevant(q);
      return R === 0 || q.ranking.length === 0 ? 0 : hits(q, R) / R;
    },
  }),
  defineMeasure({
    name: "bpref",
    description:
      "binary preference: for each relevant document retrieved, 1 - (judged non-relevant " +
      "above it, at most R) / min(judged non-relevant, R); summed and divided by R; unjudged " +
      "documents are ignored",
    params: "none",
    aggregate: "mean",
    compute: bpref,
    reference: bprefReference,
  }),
  defineMeasure({
    name: "recip_rank",
    description: "reciprocal rank of the first relevant document retrieved (0 when none)",
    params: "none",
    aggregate: "mean",
    compute: (q) => {
      for (let i = 0; i < q.rels.length; i++) if (trecRel(q.rels[i]) >= q.level) return 1 / (i + 1);
      return 0;
    },
    reference: (q) => {
      const first = q.ranking.find((d) => isRelevant(q, d));
      return first === undefined ? 0 : 1 / rankOf(q, first);
    },
  }),
  defineMeasure({
    name: "iprec_at_recall",
    description:
      "interpolated precision at recall points (the best precision at or after the rank " +
      "where the recall point's relevant document is retrieved); points given as fractions " +
      "of R, as in iprec_at_recall.0.1,0.5",
    params: "fractions",
    defaults: RECALL_POINTS,
    aggregate: "mean",
    compute: (q, p, o) => {
      let value = 0;
      recallWalk(q, [recallCut(p, q.numRel, o.release)], (_, v) => value = v);
      return value;
    },
    reference: iprecReference,
    examples: [".25,.5,.75", "0.1,1"],
  }),
  defineMeasure({
    name: "P",
    description: "precision after k documents: relevant in the top k divided by k (missing ranks " +
      "count as non-relevant)",
    params: "cutoffs",
    defaults: TREC_CUTOFFS,
    aggregate: "mean",
    compute: (q, k) => relevantInTop(q, k) / k,
    reference: (q, k) => precisionAt(q, k),
    examples: ["1,2,3"],
  }),
];
