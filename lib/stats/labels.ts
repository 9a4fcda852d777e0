/**
 * Golden and silver labels. Silver labels are generated automatically (a heuristic, a weak
 * model, an older judging round); golden labels are human-corrected. Both are read as TREC
 * qrels (`qid 0 docno rel`), compared on the (query, document) pairs both judge, and only the
 * golden set is used for evaluation and splitting.
 *
 * @module
 */
import type { QrelsLike } from "./ties.ts";

/** Options of {@link labelAgreement}. */
export interface AgreementOptions {
  /**
   * Compare binary relevance (label >= level) instead of the raw label values. Default: raw
   * values, each distinct value a category.
   */
  relevanceLevel?: number;
}

/** One pair the two label sets disagree on. */
export interface Disagreement {
  query: string;
  doc: string;
  golden: number;
  silver: number;
}

/** Agreement between golden and silver labels over their shared pairs. */
export interface Agreement {
  /** Pairs judged in both sets. */
  sharedPairs: number;
  /** Pairs only in the golden set. */
  onlyGolden: number;
  /** Pairs only in the silver set. */
  onlySilver: number;
  /** The label categories, ascending (0/1 with `relevanceLevel`). */
  categories: number[];
  /** Contingency table: `table[i][j]` pairs with golden = categories[i], silver = categories[j]. */
  table: number[][];
  /** Share of shared pairs with equal labels. */
  observedAgreement: number;
  /** Agreement expected by chance from the two marginals. */
  expectedAgreement: number;
  /**
   * Cohen's kappa = (observed - expected) / (1 - expected); `null` when undefined (no shared
   * pairs, or both sets use one and the same single category, so expected = 1).
   */
  kappa: number | null;
  /** Every disagreement, sorted by query then document. */
  disagreements: Disagreement[];
}

/**
 * Agreement (contingency table, observed agreement, Cohen's kappa) between two label sets
 * for the same pairs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { labelAgreement } from "./labels.ts";
 * const golden = new Map([["q", new Map([["a", 1], ["b", 0], ["c", 0], ["d", 1]])]]);
 * const silver = new Map([["q", new Map([["a", 1], ["b", 1], ["c", 0], ["d", 1]])]]);
 * const r = labelAgreement(golden, silver);
 * // observed 3/4; chance 0.5 * 0.75 + 0.5 * 0.25 = 0.5 -> kappa 0.5
 * assert(r.observedAgreement === 0.75 && r.kappa === 0.5);
 * ```
 */
export function labelAgreement(
  golden: QrelsLike,
  silver: QrelsLike,
  options: AgreementOptions = {},
): Agreement {
  const level = options.relevanceLevel;
  const cat = (v: number) => (level === undefined ? v : v >= level ? 1 : 0);
  const pairs: [string, string, number, number][] = [];
  let onlyGolden = 0, onlySilver = 0;
  for (const [q, docs] of golden) {
    const s = silver.get(q);
    for (const [d, g] of docs) {
      const sv = s?.get(d);
      if (sv === undefined) onlyGolden++;
      else pairs.push([q, d, cat(g), cat(sv)]);
    }
  }
  for (const [q, docs] of silver) {
    const g = golden.get(q);
    for (const d of docs.keys()) if (!g?.has(d)) onlySilver++;
  }
  const categories = [...new Set(pairs.flatMap((p) => [p[2], p[3]]))].sort((a, b) => a - b);
  const index = new Map(categories.map((c, i) => [c, i]));
  const table = categories.map(() => categories.map(() => 0));
  for (const [, , g, s] of pairs) table[index.get(g)!][index.get(s)!]++;
  const n = pairs.length;
  let agree = 0, chance = 0;
  categories.forEach((_, i) => {
    agree += table[i][i];
    const rowSum = table[i].reduce((a, b) => a + b, 0);
    const colSum = table.reduce((a, row) => a + row[i], 0);
    chance += n === 0 ? 0 : (rowSum / n) * (colSum / n);
  });
  const observed = n === 0 ? 0 : agree / n;
  const kappa = n === 0 || chance === 1 ? null : (observed - chance) / (1 - chance);
  const disagreements = pairs.filter((p) => p[2] !== p[3])
    .map(([query, doc, g, s]) => ({ query, doc, golden: g, silver: s }))
    .sort((a, b) =>
      a.query < b.query ? -1 : a.query > b.query ? 1 : a.doc < b.doc ? -1 : a.doc > b.doc ? 1 : 0
    );
  return {
    sharedPairs: n,
    onlyGolden,
    onlySilver,
    categories,
    table,
    observedAgreement: observed,
    expectedAgreement: chance,
    kappa,
    disagreements,
  };
}
