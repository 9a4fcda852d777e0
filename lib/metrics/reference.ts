/**
 * Brute-force reference implementations of the measures, written straight from their
 * definitions (PROTOCOL.md section 1) and sharing no code with the rest of lib/metrics, so
 * the property tests and `deno task bench eval` compare two independent implementations.
 * Slow on purpose (quadratic scans, plain objects); not exported from `mod.ts`.
 *
 * @module
 */

export type Judgments = Record<string, Record<string, number>>;
export type Scores = Record<string, Record<string, number>>;

/** Docnos of a query in trec_eval order; docnos here are ASCII, where `<` equals strcmp. */
export function referenceRanking(docs: Record<string, number>): string[] {
  const entries = Object.entries(docs);
  entries.sort(([da, sa], [db, sb]) => {
    if (sa !== sb) return sa > sb ? -1 : 1;
    return da === db ? 0 : da > db ? -1 : 1;
  });
  return entries.map(([d]) => d);
}

function isRel(j: Record<string, number>, d: string, level: number): boolean {
  return d in j && j[d] >= level;
}

export function referenceQuery(
  ranking: string[],
  j: Record<string, number>,
  level: number,
): Record<string, number> {
  const relevant = Object.keys(j).filter((d) => j[d] >= level);
  const R = relevant.length;
  const precisionAt = (k: number) =>
    ranking.slice(0, k).filter((d) => isRel(j, d, level)).length / k;
  let ap = 0;
  for (const d of relevant) {
    const r = ranking.indexOf(d);
    if (r >= 0) ap += precisionAt(r + 1);
  }
  ap = R === 0 ? 0 : ap / R;
  const first = ranking.findIndex((d) => isRel(j, d, level));
  const rr = first < 0 ? 0 : 1 / (first + 1);
  const rprec = R === 0 ? 0 : ranking.slice(0, R).filter((d) => isRel(j, d, level)).length / R;
  const ndcg = (k: number) => {
    const gain = (d: string) => (d in j && j[d] > 0 ? j[d] : 0);
    let dcg = 0;
    ranking.slice(0, k).forEach((d, i) => dcg += gain(d) / Math.log2(i + 2));
    const ideal = Object.values(j).filter((v) => v > 0).sort((a, b) => b - a).slice(0, k);
    let idcg = 0;
    ideal.forEach((g, i) => idcg += g / Math.log2(i + 2));
    return idcg === 0 ? 0 : dcg / idcg;
  };
  return {
    num_ret: ranking.length,
    num_rel: R,
    num_rel_ret: ranking.filter((d) => isRel(j, d, level)).length,
    map: ap,
    Rprec: rprec,
    recip_rank: rr,
    P_1: precisionAt(1),
    P_5: precisionAt(5),
    ndcg_cut_3: ndcg(3),
    ndcg_cut_10: ndcg(10),
  };
}

/** The measures `referenceEvaluate` computes, as `-m` names. */
export const REFERENCE_MEASURES = [
  "num_ret",
  "num_rel",
  "num_rel_ret",
  "map",
  "Rprec",
  "recip_rank",
  "P.1,5",
  "ndcg_cut.3,10",
];

export function referenceEvaluate(
  qrels: Judgments,
  run: Scores,
  complete: boolean,
  level: number,
): {
  numQ: number;
  summary: Record<string, number>;
  perQuery: Record<string, Record<string, number>>;
} {
  const perQuery: Record<string, Record<string, number>> = {};
  for (const q of Object.keys(run)) {
    if (!(q in qrels)) continue;
    perQuery[q] = referenceQuery(referenceRanking(run[q]), qrels[q], level);
  }
  const rows = Object.values(perQuery);
  if (complete) {
    for (const q of Object.keys(qrels)) {
      if (!(q in run)) rows.push(referenceQuery([], qrels[q], level));
    }
  }
  const summary: Record<string, number> = {};
  for (const m of Object.keys(rows[0] ?? {})) {
    const sum = rows.reduce((s, r) => s + r[m], 0);
    summary[m] = m.startsWith("num_") ? sum : sum / rows.length;
  }
  return { numQ: rows.length, summary, perQuery };
}
