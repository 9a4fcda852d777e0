/**
 * Building blocks the measures' fast computations share: counting relevant documents,
 * trec_eval's codes for unjudged documents, relevance-level counts, gain levels and their
 * ideal ranking, and the interpolated-precision walk. The brute-force references
 * (`reference.ts` in this folder) use none of these.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import type { TrecRelease } from "../release.ts";
import { type GainPair, type RankedQuery, UNJUDGED } from "./measure.ts";

/**
 * trec_eval's code for a retrieved document: its judgment, -1 when the qrels do not name
 * it ("not in the pool"), -2 when its judgment is negative ("in the pool, not judged").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { trecRel } from "./query.ts";
 * assert(trecRel(-Infinity) === -1 && trecRel(-3) === -2 && trecRel(2) === 2);
 * ```
 */
export function trecRel(rel: number): number {
  return rel === UNJUDGED ? -1 : rel < 0 ? -2 : rel;
}

/**
 * Relevant documents among the first `k` retrieved (all of them for `k` = Infinity).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { relevantInTop } from "./query.ts";
 * const q = { rels: Float64Array.of(1, 0, 2), numRel: 2, judged: Float64Array.of(2, 1, 0), level: 1 };
 * assert(relevantInTop(q, 2) === 1 && relevantInTop(q, Infinity) === 2);
 * ```
 */
export function relevantInTop(q: RankedQuery, k: number): number {
  const rels = q.rels, level = q.level;
  const n = k < rels.length ? k : rels.length;
  let c = 0;
  for (let i = 0; i < n; i++) if (trecRel(rels[i]) >= level) c++;
  return c;
}

/**
 * trec_eval's `num_rel_ret`: retrieved documents judged (>= 0) at or above the level. It is
 * {@link relevantInTop} of the whole ranking at levels >= 0; below 0, `relevantInTop` also
 * counts documents the qrels do not judge (trec_eval's codes -1 and -2), this does not.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { relevantInTop, relevantRetrieved } from "./query.ts";
 * const q = { rels: Float64Array.of(1, -Infinity, 0), numRel: 2, judged: Float64Array.of(1, 0), level: -1 };
 * assert(relevantRetrieved(q) === 2 && relevantInTop(q, Infinity) === 3);
 * ```
 */
export function relevantRetrieved(q: RankedQuery): number {
  const rels = q.rels, level = q.level;
  let c = 0;
  for (let i = 0; i < rels.length; i++) if (rels[i] >= 0 && rels[i] >= level) c++;
  return c;
}

/**
 * How many judgments the query has at each non-negative level (index = level), up to its
 * highest level: trec_eval's `rel_levels`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { levelCounts } from "./query.ts";
 * assert(levelCounts(Float64Array.of(3, 1, 1, 0, -1)).join() === "1,2,0,1");
 * ```
 */
export function levelCounts(judged: Float64Array): number[] {
  const top = judged.length && judged[0] >= 0 ? Math.trunc(judged[0]) : -1;
  const counts = new Array<number>(top + 1).fill(0);
  for (let i = 0; i < judged.length && judged[i] >= 0; i++) counts[Math.trunc(judged[i])]++;
  return counts;
}

/**
 * Sorts `items` with C's qsort as glibc implements it for small arrays (a top-down merge
 * sort, left half `floor(n / 2)`, ties to the left): measures whose comparator is not a
 * total order (trec_eval compares gains by their difference truncated to an integer) then
 * order their items as trec_eval does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeSortC } from "./query.ts";
 * assert(mergeSortC([3, 1, 2], (a, b) => a - b).join() === "1,2,3");
 * ```
 */
export function mergeSortC<T>(items: readonly T[], cmp: (a: T, b: T) => number): T[] {
  if (items.length <= 1) return [...items];
  const half = Math.floor(items.length / 2);
  const left = mergeSortC(items.slice(0, half), cmp);
  const right = mergeSortC(items.slice(half), cmp);
  const out: T[] = [];
  let i = 0, j = 0;
  while (i < left.length && j < right.length) {
    out.push(cmp(left[i], right[j]) <= 0 ? left[i++] : right[j++]);
  }
  while (i < left.length) out.push(left[i++]);
  while (j < right.length) out.push(right[j++]);
  return out;
}

/** A relevance level with its gain and how many judgments it has. */
export interface GainLevel {
  level: number;
  gain: number;
  count: number;
}

/** With a gain that is not an integer, the most relevance levels listed (2^24). */
const MAX_LISTED_LEVELS = 1 << 24;

/**
 * The gain levels of the ndcg family (`ndcg`, `ndcg_rel`, `Rndcg`, `G`): every judged level
 * from 0 to the highest has gain = level unless `pairs` says otherwise; levels named in
 * `pairs` come first; sorted by gain ascending with trec_eval's comparator (the gain
 * difference truncated to an integer, so gains less than 1 apart keep their order).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gainLevels } from "./query.ts";
 * const g = gainLevels([{ level: 1, gain: 3 }], Float64Array.of(2, 1, 0));
 * assert(g.map((x) => `${x.level}:${x.gain}:${x.count}`).join() === "0:0:1,2:2:1,1:3:1");
 * ```
 */
export function gainLevels(pairs: readonly GainPair[], judged: Float64Array): GainLevel[] {
  const levels: GainLevel[] = pairs.map((p) => ({ level: p.level, gain: p.gain, count: 0 }));
  const byGain = (a: GainLevel, b: GainLevel) => Math.trunc(a.gain - b.gain);
  if (!levels.every((g) => Number.isInteger(g.gain))) {
    // Gains less than 1 apart compare as equal, and not transitively: the order depends on
    // every level listed, as trec_eval lists them (each from 0 to the highest judged).
    const top = judged.length ? judged[0] : -1;
    if (top >= MAX_LISTED_LEVELS) {
      throw new KitError(
        `a gain that is not an integer (${pairs.map((p) => `${p.level}=${p.gain}`).join(",")}) ` +
          `takes every relevance level from 0 to the highest judged, as in trec_eval; ${top} ` +
          `is too many (at most ${MAX_LISTED_LEVELS - 1}): give integer gains`,
      );
    }
    const counts = levelCounts(judged);
    for (let l = 0; l < counts.length; l++) {
      const named = levels.find((g) => g.level === l);
      if (named) named.count = counts[l];
      else levels.push({ level: l, gain: l, count: counts[l] });
    }
    return mergeSortC(levels, byGain);
  }
  // Integer gains compare as a total order, so the sort is a stable sort by gain, and a level
  // nobody named and nothing judges (its gain its level, its count 0) changes nothing but the
  // highest gain (the ideal walk's `top`): of those only the highest is listed. Listing them
  // all, as trec_eval does, took minutes for one judgment of relevance 100,000,000.
  for (let i = judged.length - 1; i >= 0; i--) {
    if (judged[i] < 0) continue;
    const l = Math.trunc(judged[i]);
    let count = 1;
    while (i > 0 && Math.trunc(judged[i - 1]) === l) {
      count++;
      i--;
    }
    const named = levels.find((g) => g.level === l);
    if (named) named.count = count;
    else levels.push({ level: l, gain: l, count });
  }
  const top = judged.length && judged[0] >= 0 ? Math.trunc(judged[0]) : -1;
  // (Every judged or named level is in `levels` by now.)
  let empty = top - 1;
  while (empty >= 0 && levels.some((g) => g.level === empty)) empty--;
  if (empty >= 0) levels.push({ level: empty, gain: empty, count: 0 });
  return mergeSortC(levels, byGain);
}

/**
 * The gain of a retrieved document (by its trec_eval code, see {@link trecRel}): the first
 * level in `levels` with that code, 0 when none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gainOf } from "./query.ts";
 * assert(gainOf([{ level: 1, gain: 3, count: 1 }], 1) === 3);
 * assert(gainOf([{ level: 1, gain: 3, count: 1 }], -Infinity) === 0);
 * ```
 */
export function gainOf(levels: readonly GainLevel[], rel: number): number {
  const code = trecRel(rel);
  for (const g of levels) if (g.level === code) return g.gain;
  return 0;
}

/** The ideal ranking of a query's gain levels (see {@link idealWalk}). */
export interface IdealWalk {
  /** The gain at each ideal rank while positive. */
  gains: number[];
  /** The highest level's gain, whatever its count (the walk starts only when it is > 0). */
  top: number;
  /** The gain the walk ends on: the first non-positive one met, 0 when the levels run out. */
  end: number;
}

/**
 * Walks the gain levels from the top down, each level as many times as it has judgments
 * (levels without judgments are passed over), while the gain is positive: the ideal
 * ranking's gains as trec_eval's ndcg family builds them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gainLevels, idealWalk } from "./query.ts";
 * const w = idealWalk(gainLevels([], Float64Array.of(2, 1, 1, 0)));
 * assert(w.gains.join() === "2,1,1" && w.end === 0 && w.top === 2);
 * ```
 */
export function idealWalk(levels: readonly GainLevel[]): IdealWalk {
  const top = levels.length ? levels[levels.length - 1].gain : 0;
  const gains: number[] = [];
  let end = 0;
  if (top > 0) {
    for (let l = levels.length - 1; l >= 0; l--) {
      const g = levels[l];
      if (g.count === 0) continue;
      if (!(g.gain > 0)) {
        end = g.gain;
        break;
      }
      for (let c = 0; c < g.count; c++) gains.push(g.gain);
    }
  }
  return { gains, top, end };
}

/**
 * Interpolated precision at recall points, as trec_eval walks it: each point is a number of
 * relevant documents `cuts[i]` (any order); the ranking is walked from the bottom up keeping
 * the best precision seen, and each point gets that best precision when the walk reaches its
 * relevant document. Points above the relevant retrieved get nothing (they stay 0), points at
 * or below 0 get the best precision overall. `visit(i, value)` is called in the walk's order
 * (which sums like 11pt_avg depend on). An empty ranking gives NaN, as in trec_eval.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { recallWalk } from "./query.ts";
 * const q = { rels: Float64Array.of(0, 1, 1), numRel: 2, judged: Float64Array.of(1, 1, 0), level: 1 };
 * const got: number[] = [];
 * recallWalk(q, [1, 2], (i, v) => got[i] = v);
 * assert(got[0] === 2 / 3 && got[1] === 2 / 3);
 * ```
 */
export function recallWalk(
  q: RankedQuery,
  cuts: readonly number[],
  visit: (index: number, value: number) => void,
): void {
  const rels = q.rels, level = q.level, n = rels.length;
  const relRet = relevantRetrieved(q); // trec_eval starts from num_rel_ret
  let next = cuts.length - 1;
  while (next >= 0 && cuts[next] > relRet) next--;
  let best = relRet / n;
  let found = relRet;
  for (let i = n; i > 0 && found > 0; i--) {
    const precision = found / i;
    if (best < precision) best = precision;
    if (trecRel(rels[i - 1]) >= level) {
      while (next >= 0 && found === cuts[next]) visit(next--, best);
      found--;
    }
  }
  while (next >= 0) visit(next--, best);
}

/**
 * A recall fraction `p` as a number of relevant documents, as trec_eval converts it: 9.0.8
 * `(long) (p * R + 0.9)`; 10.0 `lround(p * R)` (its source: the old way "is not
 * platform-safe"), so 0.6 of R = 2 is 2 in 9.0.8 and 1 in 10.0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { recallCut } from "./query.ts";
 * assert(recallCut(0.1, 5) === 1 && recallCut(0, 5) === 0 && recallCut(0.3, 3) === 1);
 * assert(recallCut(0.6, 2) === 2 && recallCut(0.6, 2, "10.0") === 1);
 * assert(recallCut(0.5, 3, "10.0") === 2); // lround: halves away from zero
 * ```
 */
export function recallCut(p: number, numRel: number, release: TrecRelease = "9.0.8"): number {
  if (release === "10.0") return Math.sign(p * numRel) * Math.round(Math.abs(p * numRel));
  return Math.trunc(p * numRel + 0.9); // C's (long) cast truncates toward zero
}
