/**
 * The measure table and `-m` parsing, from the `measures/` folder: one entry per measure
 * (`measures/table.ts` lists them in trec_eval's order; each block file defines a few), the
 * per-query input every measure reads ({@link RankedQuery}), trec_eval's and ir_measures'
 * names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MEASURES, selectMeasures } from "./measures.ts";
 * assert(MEASURES.some((m) => m.name === "ndcg_cut"));
 * assert(selectMeasures(["all_trec"]).instances.length === 95);
 * ```
 *
 * @module
 */
export {
  type Aggregate,
  type AnyMeasure,
  defineMeasure,
  type GainPair,
  type Measure,
  type MeasureOptions,
  type ParamKind,
  type ParamValue,
  type RankedQuery,
  type ReferenceQuery,
  UNJUDGED,
} from "./measures/measure.ts";
export {
  DEFAULT_MEASURES,
  findMeasure,
  MEASURES,
  NICKNAMES,
  NOT_IMPLEMENTED,
} from "./measures/table.ts";
export { type MeasureInstance, type MeasureSelection, selectMeasures } from "./measures/select.ts";
export { IR_MEASURES_NAMES, parseIrMeasure, type QueryView } from "./measures/ir_measures.ts";
export { MIN_GEO_MEAN } from "./measures/precision.ts";
