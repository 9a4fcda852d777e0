/**
 * ranx's metric names (https://amenra.github.io/ranx/metrics/): `mrr`, `map@100`,
 * `ndcg@10`, `precision@1`, `recall@100`, `hit_rate@5`, `hits@10`, `r-precision`, `bpref`,
 * `ndcg_burges@10`, read as the table entry computing the same number. The kit ranks as
 * trec_eval does (score descending, ties by docno descending); ranx orders tied scores as
 * its sort leaves them, so on ties the two can differ (docs/measures.md).
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import type { IrMeasure } from "./ir_measures.ts";
import { findMeasure } from "./table.ts";

/** ranx's name to the table entry, with whether it takes a cutoff `@k`. */
const RANX: Record<string, { bare?: string; cut?: string }> = {
  hits: { cut: "hits" },
  hit_rate: { cut: "success" },
  precision: { cut: "P" },
  recall: { cut: "recall" },
  "r-precision": { bare: "Rprec" },
  mrr: { bare: "recip_rank", cut: "recip_rank_cut" },
  map: { bare: "map", cut: "map_cut" },
  ndcg: { bare: "ndcg", cut: "ndcg_cut" },
  ndcg_burges: { bare: "ndcg_exp", cut: "ndcg_exp" },
  bpref: { bare: "bpref" },
};

/** ranx metrics the kit does not compute, and why (refused with that reason). */
const RANX_MISSING: Record<string, string> = {
  f1: "ranx's f1@k is not in the measure table (set_F is over the whole ranking)",
  rbp: "ranx's rbp weights graded judgments (it can exceed 1); use RBP(rel=1, p=...)",
  dcg: "ranx's dcg is not normalized; the table has nDCG (ndcg@k)",
  dcg_burges: "ranx's dcg_burges is not normalized; the table has ndcg_burges@k",
};

/**
 * Reads a ranx metric name; undefined when `text` is not one. A KitError for a ranx name
 * the kit does not compute or a bad cutoff.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseRanxMeasure } from "./ranx_names.ts";
 * assert.equal(parseRanxMeasure("ndcg@10")!.measure.name, "ndcg_cut");
 * assert.equal(parseRanxMeasure("hit_rate@5")!.param, 5);
 * assert.equal(parseRanxMeasure("mrr")!.measure.name, "recip_rank");
 * assert.equal(parseRanxMeasure("AP@10"), undefined); // ir_measures', not ranx's
 * assert.throws(() => parseRanxMeasure("f1@10"), /not in the measure table/);
 * ```
 */
export function parseRanxMeasure(text: string): IrMeasure | undefined {
  const m = /^([a-z][a-z0-9_-]*)(?:@(\S+))?$/.exec(text.trim());
  if (!m) return undefined;
  const [, name, k] = m;
  if (RANX_MISSING[name]) throw new KitError(`measure '${text}': ${RANX_MISSING[name]}`);
  const entry = RANX[name];
  if (!entry) return undefined;
  if (k === undefined) {
    if (!entry.bare) throw new KitError(`measure '${text}': ranx's ${name} needs a cutoff (@k)`);
    const measure = findMeasure(entry.bare)!;
    // ndcg: trec_eval's default gains; ndcg_burges: the whole ranking.
    const param = entry.bare === "ndcg" ? [] : entry.bare === "ndcg_exp" ? Infinity : undefined;
    return { measure, param, view: {} };
  }
  if (!/^\d+$/.test(k) || Number(k) < 1) {
    throw new KitError(`measure '${text}': the cutoff must be a positive integer, got '${k}'`);
  }
  if (!entry.cut) throw new KitError(`measure '${text}': ranx's ${name} takes no cutoff`);
  return { measure: findMeasure(entry.cut)!, param: Number(k), view: {} };
}
