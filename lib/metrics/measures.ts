/**
 * The measure table, in the spirit of trec_eval's `te_trec_measures`: each measure is
 * one self-contained entry, and the evaluator, the CLI's `-m` flags, the notebooks and
 * the docs all read this one table. Adding a measure touches this file only.
 *
 * Table order is output order, as in trec_eval (map before Rprec before recip_rank
 * before P before ndcg_cut), so the kit's output diffs cleanly against trec_eval's.
 *
 * @module
 */
import { KitError } from "../errors.ts";

/** Marks a retrieved document that has no judgment in the qrels. */
export const UNJUDGED = -Infinity;

/** One query's retrieved documents, ranked, with what the qrels say about them. */
export interface RankedQuery {
  /** Judgment of each retrieved document in rank order (`UNJUDGED` when not in the qrels). */
  rels: Float64Array;
  /** Number of qrels entries with relevance >= the relevance level. */
  numRel: number;
  /** Every positive judgment value of the query's qrels, highest first (the ideal ranking's gains). */
  idealGains: Float64Array;
  /** Relevance level: a judgment counts as relevant when >= this (trec_eval `-l`). */
  level: number;
}

/** How a measure's per-query values combine into the `all` line. */
export type Aggregate = "mean" | "sum";

/** A measure: computes one value per query for a cutoff (when it takes cutoffs). */
export interface Measure {
  /** trec_eval's name (`map`, `P`, `ndcg_cut`). */
  name: string;
  /** One line for help texts and docs. */
  description: string;
  /** Cutoffs used when the measure is named without any (`-m P`), as in trec_eval. */
  defaultCutoffs?: number[];
  /** Integer-valued (printed without decimals). */
  integer?: boolean;
  /** How the `all` value is formed. */
  aggregate: Aggregate;
  /** The per-query value. `k` is the cutoff for measures that take one. */
  compute(q: RankedQuery, k: number): number;
}

const TREC_CUTOFFS = [5, 10, 15, 20, 30, 100, 200, 500, 1000];

function relevantInTop(q: RankedQuery, k: number): number {
  const n = Math.min(k, q.rels.length);
  let c = 0;
  for (let i = 0; i < n; i++) if (q.rels[i] >= q.level) c++;
  return c;
}

function averagePrecisionAt(q: RankedQuery, k: number): number {
  if (q.numRel === 0) return 0;
  const n = Math.min(k, q.rels.length);
  let found = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    if (q.rels[i] >= q.level) {
      found++;
      sum += found / (i + 1);
    }
  }
  return sum / q.numRel;
}

/** The measure table. Order is trec_eval's output order. */
export const MEASURES: readonly Measure[] = [
  {
    name: "num_ret",
    description: "number of documents retrieved",
    integer: true,
    aggregate: "sum",
    compute: (q) => q.rels.length,
  },
  {
    name: "num_rel",
    description: "number of relevant documents in the qrels",
    integer: true,
    aggregate: "sum",
    compute: (q) => q.numRel,
  },
  {
    name: "num_rel_ret",
    description: "number of relevant documents retrieved",
    integer: true,
    aggregate: "sum",
    compute: (q) => relevantInTop(q, q.rels.length),
  },
  {
    name: "map",
    description: "average precision (divided by all relevant in the qrels), mean over queries",
    aggregate: "mean",
    compute: (q) => averagePrecisionAt(q, Infinity),
  },
  {
    name: "Rprec",
    description: "precision after R documents, R = number relevant (0 when R = 0)",
    aggregate: "mean",
    compute: (q) => {
      if (q.numRel === 0) return 0;
      return relevantInTop(q, Math.min(q.numRel, q.rels.length)) / q.numRel;
    },
  },
  {
    name: "recip_rank",
    description: "reciprocal rank of the first relevant document (0 when none)",
    aggregate: "mean",
    compute: (q) => {
      for (let i = 0; i < q.rels.length; i++) if (q.rels[i] >= q.level) return 1 / (i + 1);
      return 0;
    },
  },
  {
    name: "P",
    description: "precision at cutoff k (always divided by k)",
    defaultCutoffs: TREC_CUTOFFS,
    aggregate: "mean",
    compute: (q, k) => relevantInTop(q, k) / k,
  },
  {
    name: "recall",
    description: "recall at cutoff k (relevant in the top k / number relevant)",
    defaultCutoffs: TREC_CUTOFFS,
    aggregate: "mean",
    compute: (q, k) => (q.numRel === 0 ? 0 : relevantInTop(q, k) / q.numRel),
  },
  {
    name: "ndcg_cut",
    description: "nDCG at cutoff k, gains = qrels values, log2(rank + 1) discount",
    defaultCutoffs: TREC_CUTOFFS,
    aggregate: "mean",
    compute: (q, k) => {
      let ideal = 0;
      const ni = Math.min(k, q.idealGains.length);
      for (let i = 0; i < ni; i++) ideal += q.idealGains[i] / Math.log2(i + 2);
      if (ideal === 0) return 0;
      let dcg = 0;
      const n = Math.min(k, q.rels.length);
      for (let i = 0; i < n; i++) {
        const g = q.rels[i];
        if (g > 0) dcg += g / Math.log2(i + 2);
      }
      return dcg / ideal;
    },
  },
  {
    name: "map_cut",
    description: "average precision over the top k, divided by all relevant",
    defaultCutoffs: TREC_CUTOFFS,
    aggregate: "mean",
    compute: (q, k) => averagePrecisionAt(q, k),
  },
  {
    name: "success",
    description: "1 when a relevant document is in the top k, else 0",
    defaultCutoffs: [1, 5, 10],
    aggregate: "mean",
    compute: (q, k) => (relevantInTop(q, k) > 0 ? 1 : 0),
  },
];

/** Summary-only lines that are not per-query measures. */
export const SUMMARY_ONLY = ["runid", "num_q"] as const;

/** A measure with its cutoff, ready to compute: what one output line reports. */
export interface MeasureInstance {
  /** Output name, trec_eval style (`map`, `P_5`, `ndcg_cut_10`). */
  label: string;
  measure: Measure;
  /** Cutoff (Infinity for measures without one). */
  k: number;
  /** Index in the measure table (for output order). */
  order: number;
}

/** Parsed `-m` selection: the per-query instances and which summary-only lines to print. */
export interface MeasureSelection {
  instances: MeasureInstance[];
  runid: boolean;
  numQ: boolean;
}

/**
 * Parses measure names as trec_eval's `-m` takes them: `map`, `P.5`, `P.5,10`, `P`
 * (the default cutoffs), `ndcg_cut.10`, `num_q`, `runid`, and the output form `P_5`.
 * The result is in table order, without duplicates.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { selectMeasures } from "./measures.ts";
 * const s = selectMeasures(["P.5,10", "map"]);
 * assert(s.instances.map((i) => i.label).join() === "map,P_5,P_10");
 * ```
 */
export function selectMeasures(names: readonly string[]): MeasureSelection {
  const chosen = new Map<string, MeasureInstance>();
  let runid = false;
  let numQ = false;
  for (const raw of names) {
    for (const spec of splitSpecs(raw)) {
      if (spec === "runid") {
        runid = true;
        continue;
      }
      if (spec === "num_q") {
        numQ = true;
        continue;
      }
      const { name, cutoffs } = parseSpec(spec);
      const order = MEASURES.findIndex((m) => m.name === name);
      if (order < 0) {
        throw new KitError(
          `unknown measure '${spec}' (known: ${
            [...SUMMARY_ONLY, ...MEASURES.map((m) => m.name)].join(", ")
          })`,
        );
      }
      const measure = MEASURES[order];
      if (!measure.defaultCutoffs) {
        if (cutoffs) throw new KitError(`measure '${name}' takes no cutoff (got '${spec}')`);
        chosen.set(name, { label: name, measure, k: Infinity, order });
        continue;
      }
      for (const k of cutoffs ?? measure.defaultCutoffs) {
        const label = `${name}_${k}`;
        chosen.set(label, { label, measure, k, order });
      }
    }
  }
  const instances = [...chosen.values()].sort((a, b) => a.order - b.order || a.k - b.k);
  return { instances, runid, numQ };
}

function splitSpecs(raw: string): string[] {
  // "P.5,10" is one spec with two cutoffs; "map,P.5" style lists are not trec_eval syntax.
  return raw.trim() === "" ? [] : [raw.trim()];
}

function parseSpec(spec: string): { name: string; cutoffs?: number[] } {
  let name = spec;
  let params: string | undefined;
  const dot = spec.indexOf(".");
  if (dot >= 0) {
    name = spec.slice(0, dot);
    params = spec.slice(dot + 1);
  } else {
    // Accept the output form too: P_5, ndcg_cut_10.
    const m = /^(.*)_(\d+)$/.exec(spec);
    if (m && MEASURES.some((x) => x.name === m[1] && x.defaultCutoffs)) {
      name = m[1];
      params = m[2];
    }
  }
  if (params === undefined) return { name };
  const cutoffs = params.split(",").map((p) => {
    if (!/^\d+$/.test(p) || Number(p) < 1) {
      throw new KitError(`bad cutoff '${p}' in measure '${spec}' (expected positive integers)`);
    }
    return Number(p);
  });
  return { name, cutoffs };
}

/** The default selection when no `-m` is given: the AS2 protocol's measures and trec_eval's counts. */
export const DEFAULT_MEASURES: readonly string[] = [
  "runid",
  "num_q",
  "num_ret",
  "num_rel",
  "num_rel_ret",
  "map",
  "Rprec",
  "recip_rank",
  "P.5,10",
  "ndcg_cut.10",
];
