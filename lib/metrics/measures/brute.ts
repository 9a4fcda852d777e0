/**
 * Brute-force primitives for the measures' reference definitions: plain docno arrays and
 * records, linear scans, no typed arrays, nothing shared with the fast computations. Slow on
 * purpose; only the property tests and `bench eval` call the references.
 *
 * @module
 */
import type { ReferenceQuery } from "./measure.ts";

/**
 * The judgment of `doc`, or undefined when the qrels do not name it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgment } from "./brute.ts";
 * const q = { ranking: ["z", "a", "b", "c"], judgments: { a: 2, b: 0, c: -1, d: 1 }, level: 1 };
 * assert(judgment(q, "a") === 2 && judgment(q, "z") === undefined);
 * ```
 */
export function judgment(q: ReferenceQuery, doc: string): number | undefined {
  return Object.hasOwn(q.judgments, doc) ? q.judgments[doc] : undefined;
}

/**
 * Whether `doc` is relevant: judged at or above the level.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isRelevant } from "./brute.ts";
 * const q = { ranking: ["z", "a", "b", "c"], judgments: { a: 2, b: 0, c: -1, d: 1 }, level: 1 };
 * assert(isRelevant(q, "a") && !isRelevant(q, "b") && !isRelevant(q, "z"));
 * ```
 */
export function isRelevant(q: ReferenceQuery, doc: string): boolean {
  const j = judgment(q, doc);
  return j !== undefined && j >= q.level;
}

/**
 * Whether `doc` is judged non-relevant: a judgment from 0 up to below the level.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isNonRelevant } from "./brute.ts";
 * const q = { ranking: ["z", "a", "b", "c"], judgments: { a: 2, b: 0, c: -1, d: 1 }, level: 1 };
 * assert(isNonRelevant(q, "b") && !isNonRelevant(q, "c") && !isNonRelevant(q, "z"));
 * ```
 */
export function isNonRelevant(q: ReferenceQuery, doc: string): boolean {
  const j = judgment(q, doc);
  return j !== undefined && j >= 0 && j < q.level;
}

/**
 * The relevant documents of the query, retrieved or not.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { relevantDocs } from "./brute.ts";
 * const q = { ranking: ["z", "a", "b", "c"], judgments: { a: 2, b: 0, c: -1, d: 1 }, level: 1 };
 * assert(relevantDocs(q).join() === "a,d");
 * ```
 */
export function relevantDocs(q: ReferenceQuery): string[] {
  return Object.keys(q.judgments).filter((d) => q.judgments[d] >= 0 && q.judgments[d] >= q.level);
}

/**
 * The first `k` retrieved documents (all for Infinity).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { top } from "./brute.ts";
 * const q = { ranking: ["z", "a", "b", "c"], judgments: { a: 2, b: 0, c: -1, d: 1 }, level: 1 };
 * assert(top(q, 2).join() === "z,a" && top(q, Infinity).length === 4);
 * ```
 */
export function top(q: ReferenceQuery, k: number): readonly string[] {
  return k >= q.ranking.length ? q.ranking : q.ranking.slice(0, k);
}

/**
 * Relevant documents among the first `k` retrieved.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hits } from "./brute.ts";
 * const q = { ranking: ["z", "a", "b", "c"], judgments: { a: 2, b: 0, c: -1, d: 1 }, level: 1 };
 * assert(hits(q, 2) === 1 && hits(q) === 1);
 * ```
 */
export function hits(q: ReferenceQuery, k = Infinity): number {
  return top(q, k).filter((d) => isRelevant(q, d)).length;
}

/**
 * Precision after `k` documents, missing ranks counting as non-relevant.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { precisionAt } from "./brute.ts";
 * const q = { ranking: ["z", "a", "b", "c"], judgments: { a: 2, b: 0, c: -1, d: 1 }, level: 1 };
 * assert(precisionAt(q, 2) === 0.5 && precisionAt(q, 10) === 0.1);
 * ```
 */
export function precisionAt(q: ReferenceQuery, k: number): number {
  return hits(q, k) / k;
}

/**
 * The 1-based rank of `doc`, 0 when not retrieved.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rankOf } from "./brute.ts";
 * const q = { ranking: ["z", "a", "b", "c"], judgments: { a: 2, b: 0, c: -1, d: 1 }, level: 1 };
 * assert(rankOf(q, "a") === 2 && rankOf(q, "d") === 0);
 * ```
 */
export function rankOf(q: ReferenceQuery, doc: string): number {
  return q.ranking.indexOf(doc) + 1;
}

/**
 * Average precision over the first `k` documents, divided by all relevant documents.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { averagePrecision } from "./brute.ts";
 * const q = { ranking: ["z", "a", "b", "c"], judgments: { a: 2, b: 0, c: -1, d: 1 }, level: 1 };
 * assert(averagePrecision(q) === 0.25 && averagePrecision(q, 1) === 0);
 * ```
 */
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

/**
 * Number of relevant documents (R).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { numRelevant } from "./brute.ts";
 * const q = { ranking: ["z", "a", "b", "c"], judgments: { a: 2, b: 0, c: -1, d: 1 }, level: 1 };
 * assert(numRelevant(q) === 2);
 * ```
 */
export function numRelevant(q: ReferenceQuery): number {
  return relevantDocs(q).length;
}

/**
 * Sums `f(i)` for i from 0 to n - 1 (a readable loop for the definitions).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sumOver } from "./brute.ts";
 * assert(sumOver(3, (i) => i) === 3);
 * ```
 */
export function sumOver(n: number, f: (i: number) => number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += f(i);
  return s;
}
