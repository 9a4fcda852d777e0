/**
 * Rank fusion of several runs into one, with the methods as ranx defines them
 * (`ranx/fusion/*.py`, ranx 0.3.x; https://github.com/AmenRa/ranx). Per query, each run's
 * scores are normalized (`normalize.ts`), then each document retrieved by any run gets a
 * fused score:
 * - `combsum`: the sum of its scores (0 where a run lacks it);
 * - `wsum`: the weighted sum, sum of w_r s_r (0 where a run lacks it);
 * - `combmnz`: the sum of its scores times the number of runs retrieving it;
 * - `anz`: the mean of its scores over the runs retrieving it;
 * - `max`, `min`, `med`: the largest, smallest, median (numpy's: the mean of the two middle
 *   values for an even count) of its scores over the runs retrieving it;
 * - `rrf` (reciprocal rank fusion, Cormack et al. 2009): the sum over the runs retrieving it
 *   of 1 / (k + rank), rank 1-based (k = 60 by default); ranks only, so the normalization
 *   does not change it.
 *
 * Where the kit differs from ranx: ranks (for `rank` and `rrf`) are trec_eval's order, ties
 * broken by docno descending, where ranx leaves tied documents in numpy's argsort order; runs
 * need not share their query set (ranx asserts they do): a query is fused over the runs that
 * have it; ranx's `max` and `min` treat a missing document as -1e9 and 1e9, which is the
 * same for scores within those bounds (all normalized scores).
 *
 * @module
 */
import { KitError } from "../errors.ts";
import type { Run } from "../metrics/types.ts";
import { rankDocuments } from "../metrics/rank.ts";
import { InfiniteScore, type Normalization, normalizeScores } from "./normalize.ts";

/** The methods `fuse --method` takes. */
export const FUSION_METHODS = [
  "rrf",
  "combsum",
  "combmnz",
  "wsum",
  "max",
  "min",
  "anz",
  "med",
] as const;
/** One of {@link FUSION_METHODS}. */
export type FusionMethod = typeof FUSION_METHODS[number];

/** Options of {@link fuse}. */
export interface FuseOptions {
  /** The fusion method (default `rrf`; ranx's default, `wsum`, needs weights). */
  method?: FusionMethod;
  /** Normalization applied to each run first (default `min-max`, ranx's default). */
  norm?: Normalization;
  /** One weight per run, for `wsum`. */
  weights?: readonly number[];
  /** rrf's k (default 60). */
  k?: number;
  /** The runs' names (their files), for the errors; default `run 1`, `run 2`, ... */
  names?: readonly string[];
}

/**
 * `normalizeScores` of a query's ranked documents; an infinite score it cannot place
 * (`InfiniteScore`) is refused naming the file, query and document.
 */
function normalizeRanked(
  ranked: string[],
  docs: Map<string, number>,
  norm: Normalization,
  where: { qid: string; file: string },
): number[] {
  try {
    return normalizeScores(ranked.map((d) => docs.get(d)!), norm);
  } catch (e) {
    if (!(e instanceof InfiniteScore)) throw e;
    throw new KitError(
      `query ${where.qid}, document ${ranked[e.index]}: score ${e.score > 0 ? "inf" : "-inf"} ` +
        `is infinite, which --norm ${norm} cannot normalize (ranx gets NaN); use --norm rank or ` +
        `none, or rrf`,
      { file: where.file },
    );
  }
}

/** Median of a non-empty list, numpy style. */
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

/**
 * Fuses `runs` into one run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fuse } from "./fuse.ts";
 * const a = new Map([["q", new Map([["d1", 3], ["d2", 1]])]]);
 * const b = new Map([["q", new Map([["d2", 5], ["d3", 4]])]]);
 * const f = fuse([a, b], { method: "rrf" });
 * assert(f.get("q")!.get("d2") === 1 / 62 + 1 / 61);
 * ```
 */
export function fuse(runs: readonly Run[], options: FuseOptions = {}): Run {
  const method = options.method ?? "rrf";
  const norm = options.norm ?? "min-max";
  const k = options.k ?? 60;
  if (runs.length < 2) throw new KitError("fusion needs at least two runs");
  const weights = options.weights;
  if (method === "wsum") {
    if (!weights) throw new KitError("wsum needs one weight per run (--weights w1,w2,...)");
    if (weights.length !== runs.length) {
      throw new KitError(`got ${weights.length} weights for ${runs.length} runs`);
    }
  } else if (weights) throw new KitError(`weights are for wsum, not ${method}`);
  if (!(k >= 0)) throw new KitError(`rrf's k must be a non-negative number, got ${k}`);
  const names = options.names;
  const name = (all: readonly Run[], run: Run) => {
    const i = all.indexOf(run);
    return names?.[i] ?? `run ${i + 1}`;
  };
  const queries = new Set(runs.flatMap((r) => [...r.keys()]));
  const fused: Run = new Map();
  for (const qid of queries) {
    // Each run's documents for the query: docno to (normalized score, 1-based rank).
    const perRun = runs.map((run) => {
      const docs = run.get(qid);
      const got = new Map<string, { score: number; rank: number }>();
      if (!docs) return got;
      // Ranked in doubles, as ranx ranks (trec_eval 9.0.8's 32-bit ties are an evaluation
      // matter, not fusion's): 0.6000000000000001 ranks above 0.6.
      const ranked = rankDocuments(docs, "10.0");
      // (rrf reads ranks only: its scores are not normalized.)
      const normalized = normalizeRanked(ranked, docs, method === "rrf" ? "none" : norm, {
        qid,
        file: name(runs, run),
      });
      ranked.forEach((d, i) => got.set(d, { score: normalized[i], rank: i + 1 }));
      return got;
    });
    const docs = new Map<string, number>();
    for (const doc of new Set(perRun.flatMap((r) => [...r.keys()]))) {
      const present = perRun.flatMap((r, i) => (r.has(doc) ? [{ ...r.get(doc)!, run: i }] : []));
      const scores = present.map((p) => p.score);
      const sum = scores.reduce((s, x) => s + x, 0);
      docs.set(
        doc,
        method === "combsum"
          ? sum
          : method === "wsum"
          ? present.reduce((s, p) => s + weights![p.run] * p.score, 0)
          : method === "combmnz"
          ? sum * present.length
          : method === "anz"
          ? sum / present.length
          : method === "max"
          ? Math.max(...scores)
          : method === "min"
          ? Math.min(...scores)
          : method === "med"
          ? median(scores)
          : present.reduce((s, p) => s + 1 / (k + p.rank), 0),
      );
    }
    fused.set(qid, docs);
  }
  return fused;
}
