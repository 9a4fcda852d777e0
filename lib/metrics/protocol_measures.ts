/**
 * The answer-selection protocol's measures (TANDA, WikiQA, TREC-QA): MAP first (the primary
 * measure), MRR, P@1 and nDCG@10, each with the name readers know, trec_eval's `-m` name and
 * the name of its output line. The report, its page, its exports and its terminal lines all
 * name them from this one table.
 *
 * @module
 */

/** One measure of the protocol. */
export interface ProtocolMeasure {
  /** What papers and the report's tables call it. */
  label: string;
  /** trec_eval's `-m` name. */
  trecEval: string;
  /** The name of trec_eval's output line (and the key of per-query values). */
  name: string;
}

/**
 * MAP, MRR, P@1, nDCG@10.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PROTOCOL_MEASURES } from "./protocol_measures.ts";
 * assert.deepEqual(PROTOCOL_MEASURES.map((m) => m.label), ["MAP", "MRR", "P@1", "nDCG@10"]);
 * assert.equal(PROTOCOL_MEASURES[2].name, "P_1");
 * ```
 */
export const PROTOCOL_MEASURES: readonly ProtocolMeasure[] = [
  { label: "MAP", trecEval: "map", name: "map" },
  { label: "MRR", trecEval: "recip_rank", name: "recip_rank" },
  { label: "P@1", trecEval: "P.1", name: "P_1" },
  { label: "nDCG@10", trecEval: "ndcg_cut.10", name: "ndcg_cut_10" },
];

/**
 * The label of a measure's output name (`map` is `MAP`); other names as they are.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { measureLabel } from "./protocol_measures.ts";
 * assert.equal(measureLabel("recip_rank"), "MRR");
 * assert.equal(measureLabel("P_5"), "P_5");
 * ```
 */
export function measureLabel(name: string): string {
  return PROTOCOL_MEASURES.find((m) => m.name === name)?.label ?? name;
}
