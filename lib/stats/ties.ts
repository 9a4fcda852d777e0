/**
 * Tied scores and what they do to AP and RR. A run that gives several candidates the same
 * score leaves their order to the tool's tie-break; trec_eval orders ties by docno
 * descending, other tools differently, so the same run gets different MAP/MRR. For each
 * query this module reports the trec_eval value beside the range (min, max) and the exact
 * expected value over uniformly random orders of every tied group.
 *
 * Closed forms (linearity of expectation, so no enumeration): take a tied group of n
 * documents, r of them relevant, with t documents and c relevant documents ranked above it.
 * In a random order, position t + i (i = 1..n) holds a relevant document with probability
 * r / n, and given that, the i - 1 places before it in the group hold (i - 1)(r - 1)/(n - 1)
 * relevant documents on average (hypergeometric). So the group adds to the AP sum
 *   sum_i (r / n) * (c + 1 + (i - 1)(r - 1)/(n - 1)) / (t + i),
 * and AP = that sum over groups / R (R = relevant documents in the qrels). For RR only the
 * first group holding a relevant document matters: the first relevant document is at
 * position i of it with probability prod_{j<i-1} (n - r - j)/(n - j) * r/(n - i + 1).
 * The extremes put every group's relevant documents first (max) or last (min): moving a
 * relevant document above a non-relevant one never lowers AP or RR.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { trecRel } from "../metrics/measures/query.ts";
import { rankOrder } from "../metrics/rank.ts";
import { type TrecRelease, trecScore } from "../metrics/release.ts";
import { checkSharedQueries } from "./query_set.ts";

/** Query id to (document id to relevance): lib/metrics' `Qrels`. */
export type QrelsLike = Map<string, Map<string, number>>;
/** Query id to (document id to score): lib/metrics' `Run`. */
export type RunLike = Map<string, Map<string, number>>;

/** The range and expectation of one measure over the orders of tied documents. */
export interface TieRange {
  /** Value with trec_eval's tie-break (score descending, then docno descending). */
  trecEval: number;
  /** Lowest value over all orders of tied documents. */
  min: number;
  /** Highest value over all orders of tied documents. */
  max: number;
  /** Exact expected value when every tied group is ordered uniformly at random. */
  expected: number;
}

/** Ties of one query. */
export interface QueryTies {
  /** Query id. */
  query: string;
  /** Documents the run scores for the query. */
  retrieved: number;
  /** Relevant documents in the qrels (R), retrieved or not. */
  relevant: number;
  /** Score values shared by two or more documents. */
  tiedGroups: number;
  /** Documents in those groups. */
  tiedDocs: number;
  /**
   * Tied groups holding both relevant and non-relevant documents: the only ties whose
   * order changes AP (and RR when it is the first group with a relevant document).
   */
  mixedGroups: number;
  /** Average precision. */
  ap: TieRange;
  /** Reciprocal rank. */
  rr: TieRange;
}

/** Options for the tie analysis. */
export interface TieOptions {
  /** A judgment counts as relevant when its value >= this (default 1, trec_eval `-l`). */
  relevanceLevel?: number;
  /** Scores compared as this trec_eval release stores them (default 9.0.8: 32-bit floats). */
  release?: TrecRelease;
  /**
   * Count qrels queries missing from the run, scoring 0 (trec_eval `-c`). Default false:
   * only queries in both the run and the qrels, like trec_eval.
   */
  complete?: boolean;
  /** The run's name, for the error when it shares no query with the qrels. */
  file?: string;
}

/** One group of equal scores, in rank order. */
interface Group {
  size: number;
  relevant: number;
}

/** trec_eval order (lib/metrics' `rankOrder`), with each score as the release stores it. */
function trecEvalOrder(scores: Map<string, number>, release?: TrecRelease): [string, number][] {
  const docs = [...scores.keys()];
  const stored = docs.map((d) => trecScore(scores.get(d)!, release));
  return Array.from(rankOrder(docs, stored, release), (i) => [docs[i], stored[i]]);
}

function apFromFlags(flags: boolean[], numRelevant: number): number {
  if (numRelevant === 0) return 0;
  let hits = 0, sum = 0;
  flags.forEach((rel, i) => {
    if (rel) sum += ++hits / (i + 1);
  });
  return sum / numRelevant;
}

function rrFromFlags(flags: boolean[]): number {
  const i = flags.indexOf(true);
  return i < 0 ? 0 : 1 / (i + 1);
}

/** AP with each group's relevant documents first (`best`) or last. */
function apExtreme(groups: Group[], numRelevant: number, best: boolean): number {
  const flags: boolean[] = [];
  for (const g of groups) {
    for (let i = 0; i < g.size; i++) {
      flags.push(best ? i < g.relevant : i >= g.size - g.relevant);
    }
  }
  return apFromFlags(flags, numRelevant);
}

function rrExtreme(groups: Group[], best: boolean): number {
  let above = 0;
  for (const g of groups) {
    if (g.relevant > 0) return 1 / (above + (best ? 1 : g.size - g.relevant + 1));
    above += g.size;
  }
  return 0;
}

/** Exact expected AP over uniformly random orders within groups (closed form above). */
function apExpected(groups: Group[], numRelevant: number): number {
  if (numRelevant === 0) return 0;
  let above = 0, relevantAbove = 0, sum = 0;
  for (const { size: n, relevant: r } of groups) {
    if (r > 0) {
      const sameGroupShare = n > 1 ? (r - 1) / (n - 1) : 0;
      for (let i = 1; i <= n; i++) {
        sum += (r / n) * (relevantAbove + 1 + (i - 1) * sameGroupShare) / (above + i);
      }
    }
    above += n;
    relevantAbove += r;
  }
  return sum / numRelevant;
}

/** Exact expected RR over uniformly random orders within groups. */
function rrExpected(groups: Group[]): number {
  let above = 0;
  for (const { size: n, relevant: r } of groups) {
    if (r > 0) {
      let noneYet = 1, sum = 0;
      for (let i = 1; i <= n - r + 1; i++) {
        sum += noneYet * (r / (n - i + 1)) / (above + i);
        noneYet *= (n - r - (i - 1)) / (n - (i - 1));
      }
      return sum;
    }
    above += n;
  }
  return 0;
}

/**
 * Tie analysis of one query: `scores` maps document id to score, `judgments` document id to
 * relevance (documents without a judgment are not relevant).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { queryTies } from "./ties.ts";
 * // d1 (relevant) and d2 tie at the top: trec_eval puts d2 first (docno descending).
 * const t = queryTies("q1", new Map([["d1", 0.5], ["d2", 0.5], ["d3", 0.1]]), new Map([["d1", 1]]));
 * assert(t.rr.trecEval === 0.5 && t.rr.min === 0.5 && t.rr.max === 1);
 * assert(t.rr.expected === 0.75 && t.mixedGroups === 1);
 * ```
 */
export function queryTies(
  query: string,
  scores: Map<string, number>,
  judgments: Map<string, number> | undefined,
  options: TieOptions = {},
): QueryTies {
  const level = options.relevanceLevel ?? 1;
  // As trec_eval counts (zero and negative levels included): a document not in the qrels
  // reads -1, a negative judgment -2 (`trecRel`).
  const relevant = (doc: string) => trecRel(judgments?.get(doc) ?? -Infinity) >= level;
  let numRelevant = 0;
  for (const rel of judgments?.values() ?? []) if (rel >= 0 && rel >= level) numRelevant++;
  const ordered = trecEvalOrder(scores, options.release);
  for (const [doc, score] of ordered) {
    if (Number.isNaN(score)) throw new KitError(`query ${query}: document ${doc} has score NaN`);
  }
  const flags = ordered.map(([doc]) => relevant(doc));
  const groups: Group[] = [];
  let tiedGroups = 0, tiedDocs = 0, mixedGroups = 0;
  for (let i = 0; i < ordered.length;) {
    let j = i;
    let relevant = 0;
    while (j < ordered.length && ordered[j][1] === ordered[i][1]) {
      if (flags[j]) relevant++;
      j++;
    }
    const size = j - i;
    groups.push({ size, relevant });
    if (size > 1) {
      tiedGroups++;
      tiedDocs += size;
      if (relevant > 0 && relevant < size) mixedGroups++;
    }
    i = j;
  }
  return {
    query,
    retrieved: ordered.length,
    relevant: numRelevant,
    tiedGroups,
    tiedDocs,
    mixedGroups,
    ap: {
      trecEval: apFromFlags(flags, numRelevant),
      min: apExtreme(groups, numRelevant, false),
      max: apExtreme(groups, numRelevant, true),
      expected: apExpected(groups, numRelevant),
    },
    rr: {
      trecEval: rrFromFlags(flags),
      min: rrExtreme(groups, false),
      max: rrExtreme(groups, true),
      expected: rrExpected(groups),
    },
  };
}

/** Tie analysis of a whole run. */
export interface TieAnalysis {
  /** Per-query analysis, in the qrels/run query order. */
  perQuery: QueryTies[];
  /** Queries averaged over. */
  numQ: number;
  /** Queries with at least one tied group. */
  queriesWithTies: number;
  /** Queries whose AP or RR depends on the order of ties (min < max). */
  queriesAffected: number;
  /** Tied groups over all queries. */
  tiedGroups: number;
  /** Tied groups mixing relevant and non-relevant documents, over all queries. */
  mixedGroups: number;
  /** MAP: trec_eval value, range and expectation (means of the per-query values). */
  map: TieRange;
  /** MRR: trec_eval value, range and expectation. */
  mrr: TieRange;
}

function meanRange(ranges: TieRange[]): TieRange {
  const n = ranges.length;
  const avg = (k: keyof TieRange) => n === 0 ? 0 : ranges.reduce((s, r) => s + r[k], 0) / n;
  return { trecEval: avg("trecEval"), min: avg("min"), max: avg("max"), expected: avg("expected") };
}

/**
 * Tie analysis of `run` against `qrels`. The queries are those in both (trec_eval's default)
 * or, with `complete`, every qrels query (missing ones score 0 everywhere). The MAP/MRR
 * extremes are means of the per-query extremes: each query's ties are ordered independently,
 * so the bounds are attained.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { analyzeTies } from "./ties.ts";
 * const qrels = new Map([["q1", new Map([["a", 1], ["b", 0]])]]);
 * const run = new Map([["q1", new Map([["a", 1], ["b", 1]])]]);
 * const t = analyzeTies(qrels, run);
 * assert(t.map.min === 0.5 && t.map.max === 1 && t.map.expected === 0.75);
 * ```
 */
export function analyzeTies(qrels: QrelsLike, run: RunLike, options: TieOptions = {}): TieAnalysis {
  checkSharedQueries(qrels, run.keys(), options);
  const perQuery: QueryTies[] = [];
  const queries = options.complete
    ? [...qrels.keys()]
    : [...run.keys()].filter((q) => qrels.has(q));
  for (const q of queries) {
    perQuery.push(queryTies(q, run.get(q) ?? new Map(), qrels.get(q), options));
  }
  return {
    perQuery,
    numQ: perQuery.length,
    queriesWithTies: perQuery.filter((t) => t.tiedGroups > 0).length,
    queriesAffected: perQuery.filter((t) => t.ap.min < t.ap.max || t.rr.min < t.rr.max).length,
    tiedGroups: perQuery.reduce((s, t) => s + t.tiedGroups, 0),
    mixedGroups: perQuery.reduce((s, t) => s + t.mixedGroups, 0),
    map: meanRange(perQuery.map((t) => t.ap)),
    mrr: meanRange(perQuery.map((t) => t.rr)),
  };
}

/**
 * A plain-text report of a tie analysis (the `eval ties` command prints it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { analyzeTies, formatTieAnalysis } from "./ties.ts";
 * const t = analyzeTies(new Map([["q", new Map([["a", 1]])]]), new Map([["q", new Map([["a", 1], ["b", 1]])]]));
 * assert(formatTieAnalysis(t).includes("MAP "));
 * ```
 */
export function formatTieAnalysis(t: TieAnalysis): string {
  const f = (x: number) => x.toFixed(4);
  const lines = [
    `queries                ${t.numQ}`,
    `queries with ties      ${t.queriesWithTies}`,
    `tied groups            ${t.tiedGroups}`,
    `mixed tied groups      ${t.mixedGroups}  (relevant and non-relevant share a score)`,
    `queries affected       ${t.queriesAffected}  (AP or RR depends on the tie order)`,
    "",
    "measure  trec_eval  min     max     expected  (MAP: trec_eval's map, MRR: recip_rank)",
  ];
  for (const [name, r] of [["MAP", t.map], ["MRR", t.mrr]] as const) {
    lines.push(
      `${name.padEnd(8)} ${f(r.trecEval)}     ${f(r.min)}  ${f(r.max)}  ${f(r.expected)}`,
    );
  }
  return lines.join("\n");
}
