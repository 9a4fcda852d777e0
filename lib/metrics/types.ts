/**
 * The plain data of an evaluation: qrels and runs in memory, the options, the result, one
 * query's judgments (`evaluate.ts` re-exports them).
 *
 * @module
 */
import type { TrecRelease } from "./release.ts";

/** Relevance judgments: query id to (docno to relevance). */
export type Qrels = Map<string, Map<string, number>>;
/** A run: query id to (docno to score). */
export type Run = Map<string, Map<string, number>>;

/** Options of {@link evaluate} (and of the evaluator every route uses). */
export interface EvalOptions {
  /** Average over every qrels query, missing ones scoring 0 (`trec_eval -c`). */
  complete?: boolean;
  /** A judgment counts as relevant when >= this (`trec_eval -l`, default 1). */
  relevanceLevel?: number;
  /** Only the judged documents of each ranking count (`trec_eval -J`). */
  judgedOnly?: boolean;
  /** Only the first N documents of each ranking count (`trec_eval -M N`). */
  maxDocs?: number;
  /** Number of documents in the collection (`trec_eval -N`; utility's fourth cell). */
  numDocs?: number;
  /** Where warnings go (default: `console.warn`, i.e. stderr). `false` silences them. */
  warn?: ((message: string) => void) | false;
  /**
   * The trec_eval release reproduced (default 9.0.8: scores ranked as 32-bit floats; 10.0:
   * as doubles, and a qrels query missing from the run is an error without `complete`).
   */
  release?: TrecRelease;
}

/** One output line of an evaluation, in output order (what each format prints). */
export interface OutputLine {
  /** Output name. */
  label: string;
  /** `runid` and `num_q` are summary lines; `text` is relstring's per-query string. */
  kind: "runid" | "num_q" | "value" | "text";
  /** A count: per-query values print without decimals. */
  integer: boolean;
  /** The `all` value prints without decimals (a count summed over queries, num_q). */
  summaryInteger: boolean;
  /** Printed for each query with `-q`. */
  perQuery: boolean;
  /** Printed in the summary (`all`). */
  summary: boolean;
}

/** What {@link evaluate} returns: plain data. */
export interface EvalResult {
  /** Output names of the per-query measures, in output order (`map`, `P_5`, ...). */
  measures: string[];
  /** The `all` value of each measure (means; sums for counts; geometric means for gm_*). */
  summary: Record<string, number>;
  /**
   * Per-query values for every query of the run that has qrels (qid order as trec_eval:
   * strcmp). Made on first read (a getter; the summary does not need it).
   */
  readonly perQuery: Map<string, Record<string, number>>;
  /** Per-query strings of the text measures (relstring), same queries and order. */
  readonly perQueryText: Map<string, Record<string, string>>;
  /** Every output line in order, runid and num_q included. */
  layout: OutputLine[];
  /** Number of queries averaged over (`num_q`). */
  numQ: number;
  /** Queries of the run that have no qrels (skipped, as trec_eval does). */
  runOnlyQueries: string[];
  /** Queries of the qrels that the run lacks (they score 0 in complete mode). */
  missingQueries: string[];
  /**
   * Complete mode: each query of `missingQueries` with what it adds to each measure's sum in
   * the summary (trec_eval `-c`: 0, except `num_rel`; 10.0: its stand-in ranking's values), so
   * that these and `perQuery` average to the summary. Empty without complete mode.
   */
  readonly missingValues: Map<string, Record<string, number>>;
  /** The run id (the last line's runid column for run files). */
  runId: string;
  /** Whether complete mode (`-c`) was used. */
  complete: boolean;
  /** Tolerant mode only: the malformed lines skipped in each file. */
  skipped?: {
    qrels: { count: number; examples: string[] };
    run: { count: number; examples: string[] };
  };
}

/** Judgments of one query, pre-digested for the measures. */
export interface QueryJudgments {
  get(docno: string): number | undefined;
  /** Judgments that count as relevant (>= 0 and >= level, as trec_eval counts `num_rel`). */
  numRel: number;
  /** Every judgment value, highest first (see `RankedQuery.judged`). */
  judged: Float64Array;
}

/** Seconds spent per stage of `evaluateTrecFiles` (filled when passed in). */
export interface StageTimes {
  "read the qrels": number;
  "read the run": number;
  "judge": number;
  "rank": number;
  "measures": number;
  "summary": number;
}
