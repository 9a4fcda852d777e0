/**
 * The measure table, in the spirit of trec_eval's `te_trec_measures`: one entry per measure,
 * defined in the block files of this folder and listed here in trec_eval's order, which is
 * the output order. The evaluator, `-m` parsing, `eval trec -h`, docs/measures.md's measure list
 * and the property tests all read this one table; adding a measure is adding its entry to a
 * block (`extra.ts` for measures trec_eval lacks).
 *
 * @module
 */
import type { AnyMeasure } from "./measure.ts";
import { COUNTS } from "./counts.ts";
import { PRECISION } from "./precision.ts";
import { RECALL } from "./recall.ts";
import { GAIN } from "./gain.ts";
import { CUTOFF } from "./cutoff.ts";
import { SET } from "./set.ts";
import { RELEASE_10 } from "./release10.ts";
import { EXTRA } from "./extra.ts";
import type { TrecRelease } from "../release.ts";

/** Every measure, in output order (trec_eval's table order, then the kit's additions). */
export const MEASURES: readonly AnyMeasure[] = [
  ...COUNTS,
  ...PRECISION,
  ...RECALL,
  ...GAIN,
  ...CUTOFF,
  ...SET,
  ...RELEASE_10,
  ...EXTRA,
];

const OFFICIAL = [
  "runid",
  "num_q",
  "num_ret",
  "num_rel",
  "num_rel_ret",
  "map",
  "gm_map",
  "Rprec",
  "bpref",
  "recip_rank",
  "iprec_at_recall",
  "P",
];

const SET_NAMES = [
  "runid",
  "num_q",
  "num_ret",
  "num_rel",
  "num_rel_ret",
  "utility",
  "set_P",
  "set_recall",
  "set_relative_P",
  "set_map",
  "set_F",
];

/** trec_eval 9.0.8's nicknames for groups of measures (`-m official`, `-m all_trec`). */
export const NICKNAMES: Readonly<Record<string, readonly string[]>> = {
  official: OFFICIAL,
  set: SET_NAMES,
  all_trec: MEASURES.filter((m) => !m.origin && !m.release).map((m) => m.name),
};

/**
 * trec_eval 10.0's nicknames: its `all_trec` (measures.c's `trec_names`) adds `unj`, `rbp` and
 * `rbp_resid` to 9.0.8's (not `dcg` and `ideal_dcg`, which 10.0 prints only when named).
 */
export const NICKNAMES_10: Readonly<Record<string, readonly string[]>> = {
  official: OFFICIAL,
  set: SET_NAMES,
  all_trec: [
    ...["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec"],
    ...["bpref", "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "unj", "rbp"],
    ...["rbp_resid", "infAP", "gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P"],
    ...["Rprec_mult", "success", "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G"],
    ...["set_P", "set_recall", "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret"],
  ],
};

/**
 * The nicknames of `release` ({@link NICKNAMES}, {@link NICKNAMES_10}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nicknames } from "./table.ts";
 * assert(nicknames("10.0").all_trec.includes("rbp") && !nicknames("9.0.8").all_trec.includes("rbp"));
 * ```
 */
export function nicknames(
  release: TrecRelease = "9.0.8",
): Readonly<Record<string, readonly string[]>> {
  return release === "10.0" ? NICKNAMES_10 : NICKNAMES;
}

/**
 * trec_eval names the kit does not implement, with the reason: they need the preference or
 * judgment-group qrels formats (`-R prefs`, `-R qrels_prefs`, `-R qrels_jg`).
 */
export const NOT_IMPLEMENTED: Readonly<Record<string, string>> = Object.fromEntries(
  [
    "all_prefs",
    "prefs",
    "qrels_jg",
    "prefs_num_prefs_poss",
    "prefs_num_prefs_ful",
    "prefs_num_prefs_ful_ret",
    "prefs_simp",
    "prefs_pair",
    "prefs_avgjg",
    "prefs_avgjg_Rnonrel",
    "prefs_simp_ret",
    "prefs_pair_ret",
    "prefs_avgjg_ret",
    "prefs_avgjg_Rnonrel_ret",
    "prefs_simp_imp",
    "prefs_pair_imp",
    "prefs_avgjg_imp",
    "map_avgjg",
    "P_avgjg",
    "Rprec_mult_avgjg",
    "yaap",
  ].map((name) => [
    name,
    "needs trec_eval's preference or judgment-group qrels (-R prefs, qrels_prefs, qrels_jg), " +
    "which the kit does not read",
  ]),
);

/** The measures trec_eval prints when no `-m` is given. */
export const DEFAULT_MEASURES: readonly string[] = ["official"];

/**
 * The table entry named `name`, or undefined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findMeasure } from "./table.ts";
 * assert(findMeasure("map")?.aggregate === "mean" && findMeasure("mapp") === undefined);
 * ```
 */
export function findMeasure(name: string): AnyMeasure | undefined {
  return MEASURES.find((m) => m.name === name);
}
