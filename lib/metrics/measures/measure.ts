/**
 * What a measure is: the shape of one entry of the measure table (`table.ts`). An entry is
 * everything the kit knows about a measure: its name, the parameters `-m` takes and how they
 * parse, a description (help text and docs/measures.md are generated from it), whether it is a count,
 * how per-query values combine into `all`, the fast computation, and a brute-force reference
 * the property tests hold the computation to.
 *
 * @module
 */
import type { TrecRelease } from "../release.ts";

/** Marks a retrieved document that has no judgment in the qrels. */
export const UNJUDGED = -Infinity;

/**
 * One query as every measure sees it: the run's documents ranked (trec_eval order), judged.
 * Built by the file engine and by the in-memory `evaluate`; the evaluator applies `-M` and
 * `-J` to it before the measures run.
 */
export interface RankedQuery {
  /**
   * Judgment of each retrieved document in rank order: `UNJUDGED` when the qrels do not
   * name it, the qrels value otherwise (a negative value is trec_eval's "in the pool but
   * not judged").
   */
  rels: Float64Array;
  /** Number of judgments >= `level` (the relevant documents, retrieved or not). */
  numRel: number;
  /** Every judgment value of the query's qrels (0 and negatives too), highest first. */
  judged: Float64Array;
  /** Relevance level: a judgment counts as relevant when >= this (trec_eval `-l`). */
  level: number;
}

/**
 * How `-m NAME.PARAMS` parses, trec_eval's five kinds:
 * - `none`: no parameters (`map`);
 * - `cutoffs`: integer cutoffs, one output line each (`P.5,10` gives `P_5`, `P_10`),
 *   sorted, positive, no duplicates;
 * - `fractions`: numeric cutoffs, one line each named with two decimals
 *   (`iprec_at_recall.0.1` gives `iprec_at_recall_0.10`), sorted, no duplicates;
 * - `floats`: a list of numbers for one line, named with the list as written
 *   (`utility.2,-1,0,0` gives `utility_2,-1,0,0`);
 * - `gains`: `level=gain` pairs for one line, named as written (`ndcg.1=3,2=9`);
 * - `pairs`: `name=value` pairs for one line, named as written, the names kept as text
 *   (trec_eval 10.0's `rbp.p=0.8,2=3`: `p` the persistence, an integer name a level's gain).
 */
export type ParamKind = "none" | "cutoffs" | "fractions" | "floats" | "gains" | "pairs";

/** A relevance level's gain, as `ndcg.1=3,2=9` gives them. */
export interface GainPair {
  level: number;
  gain: number;
}

/** One `name=value` pair of a `pairs` parameter, the name as written, the value read by atof. */
export interface NamedPair {
  name: string;
  value: number;
}

/**
 * How per-query values form the `all` line: `mean` (sum in query id order / number of
 * queries), `sum` (counts), `geometric` (exp of the mean of log(max(value, 0.00001)), as
 * gm_map and gm_bpref), `none` (per-query only, as relstring), `meta` (summary-only lines
 * that are not per-query values: runid, num_q).
 */
export type Aggregate = "mean" | "sum" | "geometric" | "none" | "meta";

/** Evaluation-wide settings a measure may read. */
export interface MeasureOptions {
  /** Number of documents in the collection (trec_eval `-N`; utility's fourth cell). */
  numDocs: number;
  /**
   * The trec_eval release whose definitions apply (default 9.0.8): 10.0 rounds the recall
   * cutoffs of iprec_at_recall and 11pt_avg with lround, 9.0.8 as (long)(p R + 0.9).
   */
  release?: TrecRelease;
}

/**
 * One query for the brute-force references: plain docnos and a plain record, ranked by the
 * reference's own sort, `-M` and `-J` already applied.
 */
export interface ReferenceQuery {
  /** Retrieved docnos in rank order. */
  ranking: readonly string[];
  /** The query's judgments (docno to value). */
  judgments: Readonly<Record<string, number>>;
  /** Relevance level. */
  level: number;
}

/** A measure's parameter as the computation receives it, by kind. */
export type ParamValue<K extends ParamKind> = K extends "cutoffs" | "fractions" ? number
  : K extends "floats" ? readonly number[]
  : K extends "gains" ? readonly GainPair[]
  : K extends "pairs" ? readonly NamedPair[]
  : undefined;

/** One entry of the measure table. */
export interface Measure<K extends ParamKind = ParamKind> {
  /** The `-m` name (trec_eval's where trec_eval has the measure). */
  name: string;
  /** One or two sentences for `eval trec -h` and docs/measures.md's measure list. */
  description: string;
  /** Which parameters `-m` takes. */
  params: K;
  /**
   * Parameters used when `-m` names the measure without any (trec_eval's defaults).
   * `cutoffs` may hold `Infinity`: the whole ranking, printed without a suffix.
   */
  defaults?: readonly number[];
  /** For `pairs`: the named values used when the pairs do not name them (rbp's `p=0.9`). */
  pairDefaults?: Readonly<Record<string, number>>;
  /** For `floats`: how many numbers the measure needs (utility's four), when fixed. */
  paramCount?: number;
  /**
   * The parameter's range, checked once for every spelling (`-m rbp_binary.0.5` and
   * `RBP(rel=1,p=0.5)`): the problem with `param`, or undefined when it is fine.
   */
  checkParam?(param: ParamValue<K>): string | undefined;
  /** A count: printed without decimals (`%ld`), per query and in the summary. */
  integer?: boolean;
  /** How per-query values form the `all` line. */
  aggregate: Aggregate;
  /** trec_eval prints no per-query line for it (gm_map, gm_bpref, num_q, runid). */
  summaryOnly?: boolean;
  /**
   * The one trec_eval release that has the measure (10.0's `rbp`, `rbp_resid`, `unj`): named
   * under another release, it is an error, as that release's trec_eval has no such measure.
   */
  release?: TrecRelease;
  /**
   * Not trec_eval's: a kit or ir_measures measure (kept out of `all_trec`; its section in
   * the help says where it comes from).
   */
  origin?: string;
  /** The per-query value. `param` is this output line's parameter (see `ParamValue`). */
  compute(q: RankedQuery, param: ParamValue<K>, options: MeasureOptions): number;
  /** For `aggregate: "none"` text measures (relstring): the per-query string. */
  text?(q: RankedQuery, param: ParamValue<K>): string;
  /**
   * With `-c`, the `all` value sums this over every qrels query instead of the per-query
   * values (trec_eval 9.0.8's num_rel counts judgments > 0 there, whatever `-l`).
   */
  completeSum?(judged: Float64Array): number;
  /**
   * The brute-force definition, written from the measure's documentation with plain
   * arrays and records and sharing no code with `compute`: the property tests compare the
   * two on random runs for every entry of the table.
   */
  reference(q: ReferenceQuery, param: ParamValue<K>, options: MeasureOptions): number | string;
  /** Parameters the property tests try besides the defaults (as `-m` would write them). */
  examples?: readonly string[];
}

/** Any entry of the table. */
export type AnyMeasure = Measure<ParamKind>;

/**
 * Declares a table entry with its parameter type checked against its kind.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineMeasure } from "./measure.ts";
 * const numRet = defineMeasure({
 *   name: "num_ret", description: "documents retrieved", params: "none", integer: true,
 *   aggregate: "sum", compute: (q) => q.rels.length, reference: (q) => q.ranking.length,
 * });
 * assert(numRet.name === "num_ret");
 * ```
 */
export function defineMeasure<K extends ParamKind>(m: Measure<K>): AnyMeasure {
  return m as unknown as AnyMeasure;
}
