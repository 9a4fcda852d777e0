/**
 * The table's block of trec_eval 10.0's additions, in 10.0's table order (after
 * `num_nonrel_judged_ret`): rank-biased precision `rbp`, its residual `rbp_resid` and the share
 * of unjudged documents at cutoffs `unj`, as 10.0's `m_rbp.c`, `m_rbp_resid.c` and
 * `m_unjudged.c` compute them. They exist under `--trec-eval 10.0` only (9.0.8 has none of
 * them: there naming one is an error), where `all_trec` prints them.
 *
 * One rule of 10.0's binary is no definition: `te_calc_rbp` never sets its `min` and `max`
 * (it normalizes the gains by them), so it reads what the measure computed just before it left
 * in those two stack slots. {@link rbpLeftovers} says when that can change the value; the kit
 * then refuses rather than print a number 10.0 would not.
 *
 * @module
 */
import { defineMeasure, type NamedPair } from "./measure.ts";
import { gainLevels, trecRel } from "./query.ts";
import { judgment, sumOver, top } from "./brute.ts";

/** rbp's and rbp_resid's persistence when no pair names `p` (m_rbp.c). */
const DEFAULT_P = 0.9;

/** 10.0's `valid_int` (gain_init.c): an optional sign and decimal digits, nothing else. */
const VALID_INT = /^[+-]?[0-9]+$/;

/** The persistence: the value of the last pair named `p` (m_rbp.c reads them all in order). */
function persistence(pairs: readonly NamedPair[]): number {
  let p = DEFAULT_P;
  for (const pair of pairs) if (pair.name === "p") p = pair.value;
  return p;
}

/** The level=gain pairs among `pairs` (an integer name, as setup_gains reads it with atol). */
function gainPairs(pairs: readonly NamedPair[]) {
  return pairs.filter((x) => VALID_INT.test(x.name))
    .map((x) => ({ level: Number(x.name), gain: x.value }));
}

/** rbp and rbp_resid print NaN or an infinity for such a value: refused instead. */
function checkFinite(pairs: readonly NamedPair[], gains: boolean): string | undefined {
  const bad = pairs.find((x) =>
    (x.name === "p" || (gains && VALID_INT.test(x.name))) &&
    !Number.isFinite(x.value)
  );
  return bad ? `${bad.name}=${bad.value} is not a finite number` : undefined;
}

/**
 * What a measure's computation in 10.0's binary (as `./kit setup` builds it, `-O0`) leaves in the
 * two stack slots `te_calc_rbp` reads as `min` and `max`, read from its frame layout (gdb's
 * `info scope`): `clears` (a pointer or a count, which reads as a tiny positive number: the
 * value of rbp is then the one computed from 0), `keeps` (may leave the slot as it was),
 * `fraction` (may leave a number in [0, 1]: harmless unless rbp has level=gain pairs),
 * `spoils` (may leave a number that changes rbp: a DCG, a gain, or -1, a NaN as a double).
 * In 10.0's table order; each query's measures run in that order, and nothing else writes
 * there between two of them (the slots hold pointers when no measure wrote them).
 */
const LEFTOVERS: readonly [string, Slot, Slot][] = [
  ["runid", "clears", "clears"],
  ["num_q", "clears", "clears"],
  ["num_ret", "clears", "clears"],
  ["num_rel", "clears", "clears"],
  ["num_rel_ret", "clears", "clears"],
  ["map", "clears", "clears"],
  ["gm_map", "keeps", "fraction"], // its AP (more than 1, or inf, below -l 0)
  ["Rprec", "keeps", "clears"],
  ["bpref", "clears", "clears"],
  ["recip_rank", "keeps", "clears"],
  ["iprec_at_recall", "keeps", "spoils"], // current_cut ends at -1
  ["P", "clears", "clears"],
  ["relstring", "clears", "fraction"], // the last character in the slot's top byte
  ["recall", "keeps", "clears"],
  ["infAP", "clears", "clears"],
  ["gm_bpref", "keeps", "clears"],
  ["Rprec_mult", "clears", "clears"],
  ["utility", "keeps", "clears"],
  ["11pt_avg", "keeps", "spoils"], // current_cut ends at -1
  ["binG", "clears", "clears"],
  ["G", "spoils", "spoils"],
  ["dcg", "spoils", "spoils"],
  ["ideal_dcg", "spoils", "spoils"],
  ["ndcg", "spoils", "spoils"],
  ["ndcg_rel", "spoils", "spoils"],
  ["Rndcg", "spoils", "spoils"],
  ["ndcg_cut", "spoils", "spoils"],
  ["map_cut", "keeps", "clears"],
  ["relative_P", "keeps", "clears"],
  ["success", "clears", "clears"],
  ["set_P", "clears", "clears"],
  ["set_relative_P", "clears", "clears"],
  ["set_recall", "clears", "clears"],
  ["set_map", "clears", "clears"],
  ["set_F", "fraction", "fraction"], // P and R, when something relevant is retrieved
  ["num_nonrel_judged_ret", "clears", "clears"],
];
type Slot = "clears" | "keeps" | "fraction" | "spoils";

/**
 * The measure among `names` (trec_eval names, any order) whose leftovers can change trec_eval
 * 10.0's `rbp` (see {@link LEFTOVERS}), or undefined when none can: then 10.0 prints what the
 * kit computes. `names` are measures, not groups (`all_trec` expanded); `level` is `-l`; `gains`
 * says whether rbp has level=gain pairs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rbpLeftovers } from "./release10.ts";
 * assert.equal(rbpLeftovers(["rbp"], 1, false), undefined);
 * assert.equal(rbpLeftovers(["ndcg_cut", "rbp"], 1, false), "ndcg_cut");
 * assert.equal(rbpLeftovers(["ndcg_cut", "set_P", "rbp"], 1, false), undefined);
 * assert.equal(rbpLeftovers(["set_F", "rbp"], 1, true), "set_F");
 * ```
 */
export function rbpLeftovers(
  names: readonly string[],
  level: number,
  gains: boolean,
): string | undefined {
  const before = LEFTOVERS.filter(([name]) => names.includes(name));
  for (const slot of [1, 2] as const) {
    for (let i = before.length - 1; i >= 0; i--) {
      const name = before[i][0];
      let kind = before[i][slot];
      if (name === "gm_map" && slot === 2 && level < 0) kind = "spoils";
      if (kind === "clears") break;
      if (kind === "spoils" || (kind === "fraction" && gains)) return name;
    }
  }
  return undefined;
}

/** rbp, rbp_resid, unj: trec_eval 10.0 only. */
export const RELEASE_10 = [
  defineMeasure({
    name: "rbp",
    description: "rank-biased precision (Moffat and Zobel), graded: (1 - p) times the sum of " +
      "gain x p^(r - 1) over the ranks r, p the persistence (rbp.p=0.8; default 0.9); a " +
      "level's gain is the level unless level=gain pairs say otherwise (rbp.p=0.8,2=3); when a " +
      "gain (of a level from 0 to the highest judged, or named) is below 0 or above 1 every " +
      "gain becomes (gain - min) / (max - min), min and max taken with 0. -l does not change it",
    params: "pairs",
    pairDefaults: { p: DEFAULT_P },
    checkParam: (pairs) => checkFinite(pairs, true),
    aggregate: "mean",
    release: "10.0",
    compute: (q, pairs) => {
      const p = persistence(pairs), named = gainPairs(pairs);
      // m_rbp.c's min and max start unset (see rbpLeftovers): here, as when they read 0.
      let min = 0, max = 0;
      for (const g of named) {
        if (g.gain < min) min = g.gain;
        if (g.gain > max) max = g.gain;
      }
      // Levels 0 to the highest judged that no pair names have their level as gain.
      const highest = q.judged.length && q.judged[0] >= 0 ? Math.trunc(q.judged[0]) : -1;
      for (let l = highest; l > max; l--) {
        if (!named.some((g) => g.level === l)) {
          max = l;
          break;
        }
      }
      const scale = min < 0 || max > 1;
      const gainOf = new Map<number, number>();
      // A level named twice: the first in 10.0's order (sorted by gain) is the one found.
      for (const g of gainLevels(named, q.judged)) {
        if (!gainOf.has(g.level)) {
          gainOf.set(g.level, scale ? (g.gain - min) / (max - min) : g.gain);
        }
      }
      const rels = q.rels;
      let sum = 0, weight = 1;
      for (let i = 0; i < rels.length; i++) {
        const gain = gainOf.get(trecRel(rels[i])) ?? 0;
        if (gain !== 0) sum += gain * weight;
        weight *= p;
      }
      return (1 - p) * sum;
    },
    reference: (q, pairs) => {
      const p = pairs.filter((x) => x.name === "p").map((x) => x.value).at(-1) ?? 0.9;
      // 10.0's gain list: the level=gain pairs, then every level from 0 to the highest judged
      // that they do not name, with its level as gain.
      const list = pairs.filter((x) => /^[+-]?\d+$/.test(x.name))
        .map((x) => ({ level: parseInt(x.name, 10), gain: x.value }));
      const judgedLevels = Object.values(q.judgments).filter((v) => v >= 0);
      const highest = judgedLevels.length ? Math.max(...judgedLevels) : -1;
      for (let l = 0; l <= highest; l++) {
        if (!list.some((x) => x.level === l)) list.push({ level: l, gain: l });
      }
      const lo = Math.min(0, ...list.map((x) => x.gain));
      const hi = Math.max(0, ...list.map((x) => x.gain));
      const gain = (doc: string) => {
        const j = judgment(q, doc);
        const entry = list.find((x) => x.level === (j === undefined ? -1 : j < 0 ? -2 : j));
        if (!entry) return 0;
        return lo < 0 || hi > 1 ? (entry.gain - lo) / (hi - lo) : entry.gain;
      };
      return (1 - p) * sumOver(q.ranking.length, (i) => gain(q.ranking[i]) * Math.pow(p, i));
    },
    examples: ["p=0.5", "p=0.95", "p=0.8,1=3,2=1", "2=-1,p=0.7", "0=0.5,-1=2,p=0.6"],
  }),
  defineMeasure({
    name: "rbp_resid",
    description: "rbp's residual: how much rbp could rise were every unjudged document " +
      "retrieved (not in the qrels, or judged below 0) of gain 1: p^n + (1 - p) times the sum " +
      "of p^(r - 1) over their ranks r, n the documents retrieved; 0 when none is unjudged. p " +
      "as rbp's (rbp_resid.p=0.8; default 0.9); a query -c adds is 0 (10.0 clears it, but not " +
      "rbp_resid.p=x)",
    params: "pairs",
    pairDefaults: { p: DEFAULT_P },
    checkParam: (pairs) => checkFinite(pairs, false),
    aggregate: "mean",
    release: "10.0",
    compute: (q, pairs) => {
      const p = persistence(pairs), rels = q.rels;
      let unjudged = 0, sum = 0, weight = 1;
      for (let i = 0; i < rels.length; i++) {
        if (rels[i] < 0) {
          unjudged++;
          sum += weight;
        }
        weight *= p;
      }
      return unjudged ? weight + (1 - p) * sum : 0;
    },
    reference: (q, pairs) => {
      const p = pairs.filter((x) => x.name === "p").map((x) => x.value).at(-1) ?? 0.9;
      const unjudged = (d: string) => (judgment(q, d) ?? -1) < 0;
      const n = q.ranking.length;
      if (!q.ranking.some(unjudged)) return 0;
      return Math.pow(p, n) +
        (1 - p) * sumOver(n, (i) => (unjudged(q.ranking[i]) ? Math.pow(p, i) : 0));
    },
    examples: ["p=0.5", "p=0.95"],
  }),
  defineMeasure({
    name: "unj",
    description: "unjudged documents (not in the qrels, or judged below 0) among the first k " +
      "retrieved, divided by k (missing ranks count as judged); a query -c adds is 0",
    params: "cutoffs",
    defaults: [5, 10, 20],
    aggregate: "mean",
    release: "10.0",
    compute: (q, k) => {
      const n = Math.min(k, q.rels.length);
      let c = 0;
      for (let i = 0; i < n; i++) if (q.rels[i] < 0) c++;
      return c / k;
    },
    reference: (q, k) => top(q, k).filter((d) => (judgment(q, d) ?? -1) < 0).length / k,
    examples: ["1,3", "2"],
  }),
];
