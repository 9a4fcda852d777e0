/**
 * The evaluation engine: one per-query computation (`QueryEvaluator`) shared by the
 * in-memory entry point {@link evaluate} (ranx style: plain data in, plain data out)
 * and the streaming file evaluator in `trec_files.ts`.
 *
 * Which queries count follows trec_eval: only queries in both the run and the qrels;
 * run-only queries are skipped with a warning; with `complete` (`trec_eval -c`) the mean
 * is over every qrels query, the ones missing from the run scoring 0.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import {
  type MeasureInstance,
  type MeasureSelection,
  type RankedQuery,
  selectMeasures,
  UNJUDGED,
} from "./measures.ts";
import { compareDocnos, rankOrder } from "./rank.ts";

/** Relevance judgments: query id to (docno to relevance). */
export type Qrels = Map<string, Map<string, number>>;
/** A run: query id to (docno to score). */
export type Run = Map<string, Map<string, number>>;

/** Options of {@link evaluate}. */
export interface EvalOptions {
  /** Average over every qrels query, missing ones scoring 0 (`trec_eval -c`). */
  complete?: boolean;
  /** A judgment counts as relevant when >= this (`trec_eval -l`, default 1). */
  relevanceLevel?: number;
  /** Where warnings go (default: `console.warn`, i.e. stderr). `false` silences them. */
  warn?: ((message: string) => void) | false;
}

/** What {@link evaluate} returns: plain data. */
export interface EvalResult {
  /** Output names of the per-query measures, in output order (`map`, `P_5`, ...). */
  measures: string[];
  /** The `all` value of each measure (means; sums for the `num_*` counts). */
  summary: Record<string, number>;
  /**
   * Per-query values for every query of the run that has qrels (qid order as trec_eval:
   * strcmp). Made on first read (a getter; the summary does not need it).
   */
  readonly perQuery: Map<string, Record<string, number>>;
  /** Number of queries averaged over (`num_q`). */
  numQ: number;
  /** Queries of the run that have no qrels (skipped, as trec_eval does). */
  runOnlyQueries: string[];
  /** Queries of the qrels that the run lacks (they score 0 in complete mode). */
  missingQueries: string[];
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
  /** Count of judgments >= level. */
  numRel: number;
  /** Positive judgment values, highest first. */
  idealGains: Float64Array;
}

/**
 * Pre-digests one query's qrels for a relevance level.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { digestJudgments } from "./evaluate.ts";
 * const j = digestJudgments(new Map([["d1", 2], ["d2", 0], ["d3", 1]]), 1);
 * assert(j.numRel === 2 && j.idealGains.join() === "2,1");
 * ```
 */
export function digestJudgments(
  judgments: ReadonlyMap<string, number>,
  level: number,
): QueryJudgments {
  let numRel = 0;
  const gains: number[] = [];
  for (const v of judgments.values()) {
    if (v >= level) numRel++;
    if (v > 0) gains.push(v);
  }
  gains.sort((a, b) => b - a);
  return { get: (d) => judgments.get(d), numRel, idealGains: Float64Array.from(gains) };
}

/**
 * Computes the selected measures query by query and keeps per-query values in
 * columnar arrays; `result()` forms the trec_eval summary. Used by every entry point.
 */
export class QueryEvaluator {
  readonly selection: MeasureSelection;
  readonly level: number;
  private readonly instances: MeasureInstance[];
  private qids: string[] = [];
  private columns: number[][];
  /** The measure names as given (so another thread can build the same evaluator). */
  readonly measureNames: readonly string[];

  constructor(measures: readonly string[], relevanceLevel = 1) {
    this.measureNames = [...measures];
    this.selection = selectMeasures(measures);
    this.instances = this.selection.instances;
    this.level = relevanceLevel;
    this.columns = this.instances.map(() => []);
  }

  /** Ranks one query's documents and records its measure values. */
  addQuery(
    qid: string,
    docnos: readonly string[],
    scores: ArrayLike<number>,
    judgments: QueryJudgments,
  ): void {
    const order = rankOrder(docnos, scores);
    const rels = new Float64Array(order.length);
    for (let i = 0; i < order.length; i++) {
      const r = judgments.get(docnos[order[i]]);
      rels[i] = r === undefined ? UNJUDGED : r;
    }
    this.addRanked(qid, {
      rels,
      numRel: judgments.numRel,
      idealGains: judgments.idealGains,
      level: this.level,
    });
  }

  /** Records the values of an already ranked query. */
  addRanked(qid: string, q: RankedQuery): void {
    this.qids.push(qid);
    for (let m = 0; m < this.instances.length; m++) {
      const inst = this.instances[m];
      this.columns[m].push(inst.measure.compute(q, inst.k));
    }
  }

  /** The recorded queries and values, as plain data (to move them between threads). */
  export(): { qids: string[]; columns: number[][] } {
    return { qids: this.qids, columns: this.columns };
  }

  /** Adds queries recorded by another evaluator with the same measures. */
  absorb(data: { qids: string[]; columns: number[][] }): void {
    this.qids.push(...data.qids);
    for (let m = 0; m < this.columns.length; m++) {
      for (const v of data.columns[m]) this.columns[m].push(v);
    }
  }

  /** Values computed for an empty ranking (a qrels query missing from the run). */
  valuesForMissing(judgments: Pick<QueryJudgments, "numRel" | "idealGains">): number[] {
    const q: RankedQuery = {
      rels: new Float64Array(0),
      numRel: judgments.numRel,
      idealGains: judgments.idealGains,
      level: this.level,
    };
    return this.instances.map((inst) => inst.measure.compute(q, inst.k));
  }

  /**
   * The result. `missing` lists qrels queries absent from the run with their values
   * for an empty ranking; they enter the summary only in complete mode.
   */
  result(
    info: {
      complete: boolean;
      runOnlyQueries: string[];
      missing: { qid: string; values: number[] }[];
      runId: string;
    },
  ): EvalResult {
    const n = this.qids.length;
    if (n === 0) {
      throw new KitError(
        "no query has both results and relevance judgments (check that the run and the qrels " +
          "use the same query ids)",
      );
    }
    const labels = this.instances.map((i) => i.label);
    const order = qidOrder(this.qids);
    const qids = this.qids, columns = this.columns;
    // Built on first access: 100,000 row objects cost about 0.1 s, which `eval trec`
    // without -q never needs.
    let perQuery: Map<string, Record<string, number>> | undefined;
    const buildPerQuery = () => {
      perQuery = new Map();
      for (const i of order) {
        const row: Record<string, number> = {};
        for (let m = 0; m < labels.length; m++) row[labels[m]] = columns[m][i];
        perQuery.set(qids[i], row);
      }
      return perQuery;
    };
    const numQ = info.complete ? n + info.missing.length : n;
    const summary: Record<string, number> = {};
    for (let m = 0; m < labels.length; m++) {
      // Sum in qid order, as trec_eval does, so the last bit does not depend on input order.
      let sum = 0;
      const col = this.columns[m];
      for (const i of order) sum += col[i];
      if (info.complete) { for (const x of info.missing) sum += x.values[m]; }
      summary[labels[m]] = this.instances[m].measure.aggregate === "sum" ? sum : sum / numQ;
    }
    return {
      measures: labels,
      summary,
      get perQuery() {
        return perQuery ?? buildPerQuery();
      },
      numQ,
      runOnlyQueries: info.runOnlyQueries,
      missingQueries: info.missing.map((x) => x.qid),
      runId: info.runId,
      complete: info.complete,
    };
  }
}

/**
 * Indices of `qids` in trec_eval's query order (strcmp on UTF-8 bytes). Without surrogate
 * pairs, UTF-16 code-unit order is that order, so the engine's own string sort does it with
 * no comparator call (100,000 queries: a few ms instead of about 0.1 s); otherwise
 * `compareDocnos`. Query ids are unique.
 */
function qidOrder(qids: readonly string[]): number[] {
  let plain = true;
  for (const q of qids) {
    for (let i = 0; i < q.length; i++) {
      if (q.charCodeAt(i) >= 0xd800) {
        plain = false;
        break;
      }
    }
    if (!plain) break;
  }
  if (!plain) {
    const order = Array.from({ length: qids.length }, (_, i) => i);
    return order.sort((a, b) => compareDocnos(qids[a], qids[b]));
  }
  const index = new Map<string, number>();
  for (let i = 0; i < qids.length; i++) index.set(qids[i], i);
  return [...qids].sort().map((q) => index.get(q)!);
}

/** Emits the run-only warning the way trec_eval users expect to see it. */
export function warnRunOnly(
  runOnly: readonly string[],
  warn: EvalOptions["warn"],
): void {
  if (runOnly.length === 0 || warn === false) return;
  const shown = runOnly.slice(0, 5).join(", ") + (runOnly.length > 5 ? ", ..." : "");
  (warn ?? console.warn)(
    `warning: ${runOnly.length} run quer${
      runOnly.length === 1 ? "y has" : "ies have"
    } no relevance judgments and ${runOnly.length === 1 ? "is" : "are"} ignored: ${shown}`,
  );
}

/**
 * Evaluates a run against qrels (ranx-style entry point; trec_eval semantics).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluate } from "./evaluate.ts";
 * const qrels = new Map([["q1", new Map([["d1", 1], ["d2", 0]])]]);
 * const run = new Map([["q1", new Map([["d1", 0.2], ["d2", 0.9]])]]);
 * const r = evaluate(qrels, run, ["map", "recip_rank", "P.1"]);
 * assert(r.summary.map === 0.5 && r.summary.P_1 === 0);
 * ```
 */
export function evaluate(
  qrels: Qrels,
  run: Run,
  measures: readonly string[],
  options: EvalOptions = {},
): EvalResult {
  const ev = new QueryEvaluator(measures, options.relevanceLevel ?? 1);
  const runOnlyQueries: string[] = [];
  const digested = new Map<string, QueryJudgments>();
  const digest = (qid: string) => {
    let d = digested.get(qid);
    if (!d) digested.set(qid, d = digestJudgments(qrels.get(qid)!, ev.level));
    return d;
  };
  for (const [qid, docs] of run) {
    if (!qrels.has(qid)) {
      runOnlyQueries.push(qid);
      continue;
    }
    const docnos = [...docs.keys()];
    const scores = new Float64Array(docnos.length);
    for (let i = 0; i < docnos.length; i++) {
      const s = docs.get(docnos[i])!;
      if (!Number.isFinite(s)) {
        throw new KitError(
          `query ${qid}, document ${docnos[i]}: score ${s} is not a finite number`,
        );
      }
      scores[i] = s;
    }
    ev.addQuery(qid, docnos, scores, digest(qid));
  }
  const missing: { qid: string; values: number[] }[] = [];
  for (const qid of qrels.keys()) {
    if (!run.has(qid)) missing.push({ qid, values: ev.valuesForMissing(digest(qid)) });
  }
  runOnlyQueries.sort(compareDocnos);
  warnRunOnly(runOnlyQueries, options.warn);
  return ev.result({
    complete: options.complete ?? false,
    runOnlyQueries,
    missing,
    runId: "kit",
  });
}
