/**
 * Brute-force primitives for the measures' reference definitions: plain docno arrays and
 * records, linear scans, no typed arrays, nothing shared with the fast computations. Slow on
 * purpose; only the property tests and `bench eval` call the references.
 *
 * @module
 */
import type { ReferenceQuery } from "./measure.ts";

/** The judgment of `doc`, or undefined when the qrels do not name it. */
export function judgment(q: ReferenceQuery, doc: string): number | undefined {
  return Object.hasOwn(q.judgments, doc) ? q.judgments[doc] : undefined;
}

/** Whether `doc` is relevant: judged at or above the level. */
export function isRelevant(q: ReferenceQuery, doc: string): boolean {
  const j = judgment(q, doc);
  return j !== undefined && j >= q.level;
}

/** Whether `doc` is judged non-relevant: a judgment from 0 up to below the level. */
export function isNonRelevant(q: ReferenceQuery, doc: string): boolean {
  const j = judgment(q, doc);
  return j !== undefined && j >= 0 && j < q.level;
}

/** The relevant documents of the query, retrieved or not. */
export function relevantDocs(q: ReferenceQuery): string[] {
  return Object.keys(q.judgments).filter((d) => q.judgments[d] >= 0 && q.judgments[d] >= q.level);
}

/** The first `k` retrieved documents (all for Infinity). */
export function top(q: ReferenceQuery, k: number): readonly string[] {
  return k >= q.ranking.length ? q.ranking : q.ranking.slice(0, k);
}

/** Relevant documents among the first `k` retrieved. */
export function hits(q: ReferenceQuery, k = Infinity): number {
  return top(q, k).filter((d) => isRelevant(q, d)).length;
}

/** Precision after `k` documents, missing ranks counting as non-relevant. */
export function precisionAt(q: ReferenceQuery, k: number): number {
  return hits(q, k) / k;
}

/** The 1-based rank of `doc`, 0 when not retrieved. */
export function rankOf(q: ReferenceQuery, doc: string): number {
  return q.ranking.indexOf(doc) + 1;
}

/** Average precision over the first `k` documents, divided by all relevant documents. */
export function averagePrecision(q: ReferenceQuery, k = Infinity): number {
  const rel = relevantDocs(q);
  if (rel.length === 0) return 0;
  let sum = 0;
  for (const d of rel) {
    const r = rankOf(q, d);
    if (r > 0 && r <= k) sum += precisionAt(q, r);
  }
  return sum / rel.length;
}

/** Number of relevant documents (R). */
export function numRelevant(q: ReferenceQuery): number {
  return relevantDocs(q).length;
}

/** Sums `f(i)` for i from 0 to n - 1 (a readable loop for the definitions). */
export function sumOver(n: number, f: (i: number) => number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += f(i);
  return s;
}
