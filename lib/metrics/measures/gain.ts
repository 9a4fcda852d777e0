/**
 * The table's fourth block, in trec_eval's order: the graded measures (binary G, G, nDCG and
 * its averaged variants, nDCG at cutoffs). `G`, `ndcg`, `ndcg_rel` and `Rndcg` take
 * `level=gain` pairs (`ndcg.1=3,2=9`); without them a level's gain is the level.
 *
 * @module
 */
import { defineMeasure, type GainPair, type RankedQuery, type ReferenceQuery } from "./measure.ts";
import { gainLevels, gainOf, idealWalk, trecRel } from "./query.ts";
import { isRelevant, judgment, numRelevant, sumOver, top } from "./brute.ts";
import { TREC_CUTOFFS } from "./precision.ts";

/** The discount of rank i + 1 (0-based i). */
const discount = (i: number) => Math.log2(i + 2);

/** The gains of a query's retrieved documents and its ideal walk, for one set of pairs. */
function gainsOf(q: RankedQuery, pairs: readonly GainPair[]) {
  const levels = gainLevels(pairs, q.judged);
  const gains = new Float64Array(q.rels.length);
  for (let i = 0; i < gains.length; i++) gains[i] = gainOf(levels, q.rels[i]);
  return { gains, ideal: idealWalk(levels) };
}

/** nDCG over the whole ranking against the whole ideal ranking. */
function ndcg(q: RankedQuery, pairs: readonly GainPair[]): number {
  const { gains, ideal } = gainsOf(q, pairs);
  let dcg = 0, idcg = 0;
  for (let i = 0; i < gains.length; i++) if (gains[i] !== 0) dcg += gains[i] / discount(i);
  for (let i = 0; i < ideal.gains.length; i++) idcg += ideal.gains[i] / discount(i);
  return idcg > 0 ? dcg / idcg : 0;
}

/**
 * nDCG averaged at each retrieved document with a positive gain (the ideal DCG taken at the
 * same rank), relevant documents not retrieved adding the final nDCG each.
 */
function ndcgRel(q: RankedQuery, pairs: readonly GainPair[]): number {
  const { gains, ideal } = gainsOf(q, pairs);
  const n = gains.length, idealLen = ideal.gains.length;
  let dcg = 0, idcg = 0, sum = 0, positives = 0;
  for (let i = 0; i < n; i++) {
    if (gains[i] !== 0) dcg += gains[i] / discount(i);
    if (i < idealLen) idcg += ideal.gains[i] / discount(i);
    if (gains[i] > 0) {
      sum += dcg / idcg;
      positives++;
    }
  }
  for (let i = n; i < idealLen; i++) idcg += ideal.gains[i] / discount(i);
  sum += ((idealLen - positives) * dcg) / idcg;
  return sum > 0 ? sum / idealLen : 0;
}

/**
 * nDCG averaged at the ranks where the ideal gain changes (the "R levels"), plus at the end
 * of the ranking when it runs at least two documents past the ideal ranking (trec_eval
 * 9.0.8's loop structure; its help text describes the point as "num_retrieved").
 */
function rndcg(q: RankedQuery, pairs: readonly GainPair[]): number {
  const { gains, ideal } = gainsOf(q, pairs);
  if (q.numRel === 0) return 0;
  const n = gains.length, idealLen = ideal.gains.length;
  const idealAt = (i: number) => (i < idealLen ? ideal.gains[i] : ideal.end);
  let dcg = 0, idcg = 0, sum = 0, points = 0;
  let previous = ideal.top, current = ideal.top;
  const point = () => {
    if (idcg > 0) {
      sum += dcg / idcg;
      points++;
    }
  };
  const step = (i: number) => {
    current = idealAt(i);
    if (current !== previous) {
      point();
      previous = current;
    }
  };
  let i = 0;
  for (; i < n && current > 0; i++) {
    step(i);
    if (gains[i] !== 0) dcg += gains[i] / discount(i);
    if (current > 0) idcg += current / discount(i);
  }
  if (i < n) {
    for (; i < n; i++) if (gains[i] !== 0) dcg += gains[i] / discount(i);
    point();
  }
  for (; current > 0; i++) {
    step(i);
    if (current > 0) idcg += current / discount(i);
  }
  return sum / points;
}

/** G: each document's gain discounted by log2(2 + ideal cost so far - gain so far). */
function gMeasure(q: RankedQuery, pairs: readonly GainPair[]): number {
  const { gains, ideal } = gainsOf(q, pairs);
  let sumGain = 0, sumCost = 0, g = 0;
  for (let i = 0; i < gains.length; i++) {
    sumGain += gains[i];
    sumCost += i < ideal.gains.length && ideal.gains[i] >= 1 ? ideal.gains[i] : 1;
    if (gains[i] !== 0) g += gains[i] / Math.log2(2 + sumCost - sumGain);
  }
  let sumIdeal = 0;
  for (const x of ideal.gains) sumIdeal += x;
  return sumIdeal > 0 ? g / sumIdeal : 0;
}

// --- References (brute force: judgments looked up per document, ideal by sorting) ---

/** A document's gain from its judgment: pairs first, else the level; 0 outside the qrels. */
function refGain(q: ReferenceQuery, doc: string, pairs: readonly GainPair[]): number {
  const j = judgment(q, doc);
  const code = j === undefined ? -1 : j < 0 ? -2 : j;
  const named = pairs.find((p) => p.level === code);
  if (named) return named.gain;
  return code >= 0 ? code : 0;
}

/** The positive gains of every judged document, highest first. */
function refIdeal(q: ReferenceQuery, pairs: readonly GainPair[]): number[] {
  return Object.keys(q.judgments).map((d) => refGain(q, d, pairs)).filter((g) => g > 0)
    .sort((a, b) => b - a);
}

function refDcg(gains: readonly number[], k = Infinity): number {
  return sumOver(Math.min(k, gains.length), (i) => gains[i] / Math.log2(i + 2));
}

/** binG, G, ndcg, ndcg_rel, Rndcg, ndcg_cut. */
export const GAIN = [
  defineMeasure({
    name: "binG",
    description:
      "binary G: the mean over relevant documents of 1 / log2(2 + non-relevant retrieved " +
      "above it), those not retrieved adding 0",
    params: "none",
    aggregate: "mean",
    compute: (q) => {
      const rels = q.rels, level = q.level;
      let found = 0, sum = 0;
      for (let i = 0; i < rels.length; i++) {
        if (trecRel(rels[i]) >= level) {
          found++;
          sum += 1 / Math.log2(3 + i - found);
        }
      }
      return found ? sum / q.numRel : 0;
    },
    reference: (q) => {
      let sum = 0;
      q.ranking.forEach((d, i) => {
        if (!isRelevant(q, d)) return;
        const nonRelAbove = q.ranking.slice(0, i).filter((x) => !isRelevant(q, x)).length;
        sum += 1 / Math.log2(2 + nonRelAbove);
      });
      const R = numRelevant(q);
      return R === 0 ? 0 : sum / R;
    },
  }),
  defineMeasure({
    name: "G",
    description:
      "normalized gain (experimental in trec_eval): each document's gain / log2(2 + ideal " +
      "gain so far (at least 1 per rank) - gain so far), summed and divided by the ideal " +
      "total gain; level=gain pairs as ndcg",
    params: "gains",
    defaults: [],
    aggregate: "mean",
    compute: gMeasure,
    reference: (q, pairs) => {
      const ideal = refIdeal(q, pairs);
      const total = ideal.reduce((s, g) => s + g, 0);
      if (total <= 0) return 0;
      let g = 0;
      q.ranking.forEach((d, i) => {
        const gain = refGain(q, d, pairs);
        if (gain === 0) return;
        const cost = sumOver(i + 1, (j) => Math.max(ideal[j] ?? 0, 1));
        const got = sumOver(i + 1, (j) => refGain(q, q.ranking[j], pairs));
        g += gain / Math.log2(2 + cost - got);
      });
      return g / total;
    },
    examples: ["1=2,2=3", "0=1"],
  }),
  defineMeasure({
    name: "ndcg",
    description: "nDCG (Jarvelin and Kekalainen) over the whole ranking: gain / log2(rank + 1), " +
      "divided by the ideal DCG of every judged document; a level's gain is the level " +
      "unless level=gain pairs say otherwise (ndcg.1=3,2=9)",
    params: "gains",
    defaults: [],
    aggregate: "mean",
    compute: ndcg,
    reference: (q, pairs) => {
      const idcg = refDcg(refIdeal(q, pairs));
      return idcg > 0 ? refDcg(q.ranking.map((d) => refGain(q, d, pairs))) / idcg : 0;
    },
    examples: ["1=3,2=9,4=4.5", "0=1,2=1"],
  }),
  defineMeasure({
    name: "ndcg_rel",
    description:
      "nDCG averaged over the relevant documents (positive gain): at each one retrieved, " +
      "DCG / ideal DCG at its rank; each one not retrieved adds the final nDCG",
    params: "gains",
    defaults: [],
    aggregate: "mean",
    compute: ndcgRel,
    reference: (q, pairs) => {
      const ideal = refIdeal(q, pairs);
      const gains = q.ranking.map((d) => refGain(q, d, pairs));
      const final = refDcg(gains) / refDcg(ideal);
      let sum = 0, retrieved = 0;
      gains.forEach((g, i) => {
        if (g <= 0) return;
        sum += refDcg(gains, i + 1) / refDcg(ideal, i + 1);
        retrieved++;
      });
      sum += (ideal.length - retrieved) * final;
      return sum > 0 ? sum / ideal.length : 0;
    },
    examples: ["1=2"],
  }),
  defineMeasure({
    name: "Rndcg",
    description:
      "nDCG averaged at the R levels: the ranks where the ideal gain drops (after the top " +
      "level's count, the next level's, ...) and, when the ranking runs at least two " +
      "documents past the ideal ranking, its end",
    params: "gains",
    defaults: [],
    aggregate: "mean",
    compute: rndcg,
    reference: (q, pairs) => {
      if (numRelevant(q) === 0) return 0;
      const ideal = refIdeal(q, pairs);
      const gains = q.ranking.map((d) => refGain(q, d, pairs));
      const n = gains.length, L = ideal.length;
      // The ideal gain at rank p + 1 (0 once the ideal ranking is over).
      const at = (p: number) => (p < L ? ideal[p] : 0);
      const points: number[] = [];
      for (let p = 1; p <= L; p++) if (at(p) !== at(p - 1)) points.push(p);
      if (n >= L + 2) points.push(n);
      const values = points.map((p) => refDcg(gains, p) / refDcg(ideal, p));
      return values.reduce((s, v) => s + v, 0) / values.length;
    },
    examples: ["2=1"],
  }),
  defineMeasure({
    name: "ndcg_cut",
    description:
      "nDCG after k documents: gains are the qrels values (> 0), log2(rank + 1) discount, " +
      "ideal from every judged level >= 1; -l does not change it",
    params: "cutoffs",
    defaults: TREC_CUTOFFS,
    aggregate: "mean",
    compute: (q, k) => {
      const judged = q.judged, rels = q.rels;
      let idcg = 0;
      const ni = Math.min(k, judged.length);
      for (let i = 0; i < ni && judged[i] >= 1; i++) idcg += Math.trunc(judged[i]) / discount(i);
      if (idcg === 0) return 0;
      let dcg = 0;
      const n = Math.min(k, rels.length);
      for (let i = 0; i < n; i++) if (rels[i] > 0) dcg += rels[i] / discount(i);
      return dcg / idcg;
    },
    reference: (q, k) => {
      const gain = (d: string) => Math.max(judgment(q, d) ?? 0, 0);
      const ideal = Object.values(q.judgments).filter((v) => v >= 1).sort((a, b) => b - a);
      const idcg = refDcg(ideal, k);
      return idcg === 0 ? 0 : refDcg(top(q, k).map(gain), k) / idcg;
    },
    examples: ["1,3,7"],
  }),
];
