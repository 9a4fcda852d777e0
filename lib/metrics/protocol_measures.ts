/**
 * The answer-selection protocol's measures (TANDA, WikiQA, TREC-QA): MAP first (the primary
 * measure), MRR, P@1 and nDCG@10, each with the name readers know, trec_eval's `-m` name and
 * the name of its output line. The report, its page, its exports, its terminal lines and the
 * commands (`eval as2`'s measures, `eval compare`'s and `eval stability`'s headers) all name
 * them from this one table.
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
export const PROTOCOL_MEASURES = [
  { label: "MAP", trecEval: "map", name: "map" },
  { label: "MRR", trecEval: "recip_rank", name: "recip_rank" },
  { label: "P@1", trecEval: "P.1", name: "P_1" },
  { label: "nDCG@10", trecEval: "ndcg_cut.10", name: "ndcg_cut_10" },
] as const satisfies readonly ProtocolMeasure[];

/** The output names of the protocol's measures (`map`, `recip_rank`, `P_1`, `ndcg_cut_10`). */
export type ProtocolMeasureName = typeof PROTOCOL_MEASURES[number]["name"];

/**
 * The label of a measure's output name, as the report's tables name it: the protocol's four
 * (`map` is `MAP`, `recip_rank` is `MRR`), and the other cutoffs of P and nDCG in the same
 * form (`P_5` is `P@5`, `ndcg_cut_20` is `nDCG@20`); other names as they are.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { measureLabel } from "./protocol_measures.ts";
 * assert.equal(measureLabel("recip_rank"), "MRR");
 * assert.equal(measureLabel("P_5"), "P@5");
 * assert.equal(measureLabel("recall_5"), "recall_5");
 * ```
 */
export function measureLabel(name: string): string {
  const protocol = PROTOCOL_MEASURES.find((m) => m.name === name)?.label;
  if (protocol) return protocol;
  const cutoff = /^(P|ndcg_cut)_(\d+)$/.exec(name);
  return cutoff ? `${cutoff[1] === "P" ? "P" : "nDCG"}@${cutoff[2]}` : name;
}

/**
 * What the labels of `names` are in trec_eval's names, for a caption (`MAP = map, MRR =
 * recip_rank`); empty when every label is the name itself.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { labelLegend } from "./protocol_measures.ts";
 * assert.equal(labelLegend(["map", "recip_rank", "recall_5"]), "MAP = map, MRR = recip_rank");
 * ```
 */
export function labelLegend(names: readonly string[]): string {
  return names.filter((n) => measureLabel(n) !== n).map((n) => `${measureLabel(n)} = ${n}`)
    .join(", ");
}

/** One measure under the names each tool gives it. */
export interface MeasureNames {
  /** The label the kit's pages and tables show ({@link measureLabel} of the output name). */
  label: string;
  /** trec_eval's `-m` name (what `evaluate` and `eval trec -m` take). */
  trecEval: string;
  /** The name on trec_eval's output line (the key of `evaluate`'s per-query values). */
  output: string;
  /** ir_measures' name (https://ir-measur.es). */
  irMeasures: string;
  /** ranx's metric name (https://amenra.github.io/ranx/metrics/). */
  ranx: string;
}

/**
 * The measures of the lessons under each tool's name: the kit's label, trec_eval's `-m` and
 * output names, ir_measures' and ranx's. Each name is read by the kit's own parsers
 * (`selectMeasures`), and `tests/metrics/measure_names_test.ts` checks that all the names of a
 * row compute the same number. (ranx and some ir_measures backends order tied scores their own
 * way, trec_eval by docno descending: on ties the tools can still differ; docs/measures.md.)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MEASURE_NAMES, measureLabel } from "./protocol_measures.ts";
 * const map = MEASURE_NAMES.find((m) => m.label === "MAP")!;
 * assert.deepEqual([map.trecEval, map.irMeasures, map.ranx], ["map", "AP", "map"]);
 * assert(MEASURE_NAMES.every((m) => measureLabel(m.output) === m.label));
 * ```
 */
export const MEASURE_NAMES: readonly MeasureNames[] = [
  { label: "MAP", trecEval: "map", output: "map", irMeasures: "AP", ranx: "map" },
  { label: "MRR", trecEval: "recip_rank", output: "recip_rank", irMeasures: "RR", ranx: "mrr" },
  { label: "P@1", trecEval: "P.1", output: "P_1", irMeasures: "P@1", ranx: "precision@1" },
  { label: "P@5", trecEval: "P.5", output: "P_5", irMeasures: "P@5", ranx: "precision@5" },
  {
    label: "nDCG@5",
    trecEval: "ndcg_cut.5",
    output: "ndcg_cut_5",
    irMeasures: "nDCG@5",
    ranx: "ndcg@5",
  },
  {
    label: "nDCG@10",
    trecEval: "ndcg_cut.10",
    output: "ndcg_cut_10",
    irMeasures: "nDCG@10",
    ranx: "ndcg@10",
  },
  { label: "Rprec", trecEval: "Rprec", output: "Rprec", irMeasures: "Rprec", ranx: "r-precision" },
];
