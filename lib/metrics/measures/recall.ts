/**
 * The table's third block, in trec_eval's order: the relevance string, recall at cutoffs,
 * inferred AP, bpref's geometric mean, precision at multiples of R, set utility, 11-point
 * average.
 *
 * @module
 */
import { defineMeasure, type RankedQuery, UNJUDGED } from "./measure.ts";
import { recallCut, recallWalk, relevantInTop, relevantRetrieved } from "./query.ts";
import { bpref, bprefReference, iprecReference, RECALL_POINTS, TREC_CUTOFFS } from "./precision.ts";
import { hits, isNonRelevant, isRelevant, judgment, numRelevant, precisionAt } from "./brute.ts";

/** infAP's smoothing constant (trec_eval's INFAP_EPSILON). */
const EPSILON = 0.00001;

/** Inferred AP (Yilmaz and Aslam), walked as trec_eval does. */
function infAP(q: RankedQuery): number {
  const rels = q.rels, level = q.level;
  let rel = 0, nonRel = 0, pooledUnjudged = 0, sum = 0;
  for (let j = 0; j < rels.length; j++) {
    const r = rels[j];
    if (r === UNJUDGED) continue; // not in the pool
    if (r < 0) {
      pooledUnjudged++;
      continue;
    }
    if (r < level) {
      nonRel++;
      continue;
    }
    rel++;
    if (j === 0) sum += 1;
    else {
      sum += 1 / (j + 1) +
        (j / (j + 1)) * ((rel - 1 + nonRel + pooledUnjudged) / j) *
          ((rel - 1 + EPSILON) / (rel - 1 + nonRel + 2 * EPSILON));
    }
  }
  return q.numRel ? sum / q.numRel : sum;
}

/** relstring, recall, infAP, gm_bpref, Rprec_mult, utility, 11pt_avg. */
export const RECALL = [
  defineMeasure({
    name: "relstring",
    description:
      "the judgments of the first N documents (default 10) as a string: 0-9 the judgment, " +
      "'>' above 9, '-' not in the qrels, '.' a negative judgment; per query only",
    params: "floats",
    defaults: [10],
    aggregate: "none",
    compute: () => 0,
    text: (q, p) => {
      const n = Math.max(0, Math.min(Math.trunc(p[0]), q.rels.length));
      let s = "";
      for (let i = 0; i < n; i++) {
        const r = q.rels[i];
        s += r === UNJUDGED ? "-" : r < 0 ? "." : r > 9 ? ">" : String(Math.trunc(r));
      }
      return s;
    },
    reference: (q, p) =>
      q.ranking.slice(0, Math.max(0, Math.trunc(p[0]))).map((d) => {
        const j = judgment(q, d);
        if (j === undefined) return "-";
        if (j < 0) return ".";
        return j > 9 ? ">" : String(Math.trunc(j));
      }).join(""),
    examples: ["3", "20"],
  }),
  defineMeasure({
    name: "recall",
    description: "recall after k documents: relevant in the top k divided by the number relevant " +
      "(0 when none)",
    params: "cutoffs",
    defaults: TREC_CUTOFFS,
    aggregate: "mean",
    compute: (q, k) => (q.numRel === 0 ? 0 : relevantInTop(q, k) / q.numRel),
    reference: (q, k) => {
      const R = numRelevant(q);
      return R === 0 ? 0 : hits(q, k) / R;
    },
    examples: ["1,2,3"],
  }),
  defineMeasure({
    name: "infAP",
    description: "inferred AP (Yilmaz and Aslam): AP estimated from a judged sample of the pool; " +
      "documents outside the qrels count as non-relevant, negative judgments as pooled but " +
      "unjudged",
    params: "none",
    aggregate: "mean",
    compute: infAP,
    reference: (q) => {
      // At each relevant document retrieved at rank k > 1: 1/k + (k-1)/k * (pooled above /
      // (k-1)) * (relevant above + e) / (judged above + 2e), summed and divided by R.
      const R = numRelevant(q);
      let sum = 0;
      q.ranking.forEach((d, i) => {
        if (!isRelevant(q, d)) return;
        const k = i + 1;
        if (k === 1) {
          sum += 1;
          return;
        }
        const above = q.ranking.slice(0, i);
        const pooled = above.filter((x) => judgment(q, x) !== undefined).length;
        const relAbove = above.filter((x) => isRelevant(q, x)).length;
        const nonRelAbove = above.filter((x) => isNonRelevant(q, x)).length;
        sum += 1 / k +
          ((k - 1) / k) * (pooled / (k - 1)) *
            ((relAbove + EPSILON) / (relAbove + nonRelAbove + 2 * EPSILON));
      });
      return R === 0 ? sum : sum / R;
    },
  }),
  defineMeasure({
    name: "gm_bpref",
    description: "bpref combined by the geometric mean over queries; summary only",
    params: "none",
    aggregate: "geometric",
    summaryOnly: true,
    compute: bpref,
    reference: bprefReference,
  }),
  defineMeasure({
    name: "Rprec_mult",
    description:
      "precision after m x R documents for multiples m of R (rounded as (long)(m R + 0.9); " +
      "0 when that is 0)",
    params: "fractions",
    defaults: [0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4, 1.6, 1.8, 2],
    aggregate: "mean",
    compute: (q, m) => {
      const c = recallCut(m, q.numRel);
      if (c <= 0) return 0;
      // trec_eval walks back from num_rel_ret; at levels >= 0 that leaves the relevant in the
      // top c (below 0 the two counts differ, see relevantRetrieved).
      const n = q.rels.length, relRet = relevantRetrieved(q);
      const left = c > n ? relRet : relRet - relevantInTop(q, n) + relevantInTop(q, c);
      return left > 0 ? left / c : 0;
    },
    reference: (q, m) => {
      const c = Math.trunc(m * numRelevant(q) + 0.9);
      return c <= 0 ? 0 : precisionAt(q, c);
    },
    examples: ["0.5,1,3"],
  }),
  defineMeasure({
    name: "utility",
    description:
      "set utility p1 a + p2 b + p3 c + p4 d over relevant retrieved (a), non-relevant " +
      "retrieved (b), relevant not retrieved (c), non-relevant not retrieved (d, needs -N); " +
      "default 1,-1,0,0",
    params: "floats",
    defaults: [1, -1, 0, 0],
    paramCount: 4,
    aggregate: "mean",
    compute: (q, p, o) => {
      const n = q.rels.length, hit = relevantRetrieved(q), R = q.numRel;
      return p[0] * hit + p[1] * (n - hit) + p[2] * (R - hit) + p[3] * (o.numDocs + hit - n - R);
    },
    reference: (q, p, o) => {
      const a = hits(q), b = q.ranking.length - a, c = numRelevant(q) - a;
      const d = o.numDocs - a - b - c;
      return p[0] * a + p[1] * b + p[2] * c + p[3] * d;
    },
    examples: ["2,-1,0,0", "1,0,-1,0.5"],
  }),
  defineMeasure({
    name: "11pt_avg",
    description:
      "interpolated precision averaged over recall points (default the 11 points 0, 0.1, " +
      "..., 1)",
    params: "floats",
    defaults: RECALL_POINTS,
    aggregate: "mean",
    compute: (q, points, o) => {
      let sum = 0;
      recallWalk(q, points.map((p) => recallCut(p, q.numRel, o.release)), (_, v) => sum += v);
      return sum / points.length;
    },
    reference: (q, points, o) =>
      points.reduce((s, p) => s + iprecReference(q, p, o), 0) / points.length,
    examples: [".25,.5,.75", "0.2,0.5,0.8"],
  }),
];
