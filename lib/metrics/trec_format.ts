/**
 * Facts of the TREC file formats that every reader shares: which trec_eval release is
 * reproduced (and what that changes when reading), the field layouts, and the messages for
 * the errors every reader can meet (so each says it the same way).
 *
 * The releases differ in what they read (checked against their sources and binaries):
 * - 9.0.8 (the default; most published numbers and pytrec_eval come from the 9.0.x releases)
 *   stores a run's scores as 32-bit floats, so `0.30000001` and `0.3` tie (then the docno
 *   decides), and has no comment lines: a query id `#q` is data.
 * - 10.0 stores scores as doubles, skips lines whose first field starts with `#` in both
 *   files, and stops with an error when a qrels query has no results in the run and `-c` is
 *   not given.
 *
 * @module
 */
import { KitError, type Location } from "../errors.ts";

/** The trec_eval releases the kit reproduces. */
export const RELEASES = ["9.0.8", "10.0"] as const;

/** A trec_eval release (see the module comment for what each changes). */
export type TrecRelease = typeof RELEASES[number];

/** The release reproduced when none is asked for. */
export const DEFAULT_RELEASE: TrecRelease = "9.0.8";

/**
 * A run score as the release stores it: rounded to a 32-bit float by 9.0.8, kept by 10.0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { trecScore } from "./trec_format.ts";
 * assert.equal(trecScore(0.30000001, "9.0.8"), trecScore(0.3, "9.0.8")); // a tie in 9.0.8
 * assert.notEqual(trecScore(0.30000001, "10.0"), trecScore(0.3, "10.0"));
 * ```
 */
export function trecScore(score: number, release: TrecRelease = DEFAULT_RELEASE): number {
  return release === "9.0.8" ? Math.fround(score) : score;
}

/** The byte that starts a comment line in the release (`#` in 10.0), or -1 (none, 9.0.8). */
export function commentByte(release: TrecRelease = DEFAULT_RELEASE): number {
  return release === "10.0" ? 35 : -1;
}

/**
 * Checks a release name (the `--trec-eval` flag, the `release` option).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseRelease } from "./trec_format.ts";
 * assert.equal(parseRelease("10.0"), "10.0");
 * assert.equal(parseRelease("10"), "10.0");
 * assert.throws(() => parseRelease("8.1"), /trec_eval release '8.1'/);
 * ```
 */
export function parseRelease(raw: string | undefined): TrecRelease {
  if (raw === undefined) return DEFAULT_RELEASE;
  const r = raw === "9" ? "9.0.8" : raw === "10" ? "10.0" : raw;
  if (!(RELEASES as readonly string[]).includes(r)) {
    throw new KitError(
      `trec_eval release '${raw}' is not reproduced (expected one of: ${RELEASES.join(", ")})`,
    );
  }
  return r as TrecRelease;
}

/** The fields of a qrels line. */
export const QRELS_LAYOUT = "qid iter docno relevance";
/** The fields of a run line. */
export const RUN_LAYOUT = "qid Q0 docno rank score runid";

/**
 * A document listed twice for one query of a run (trec_eval stops on it too).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { duplicateDocument } from "./trec_format.ts";
 * assert.equal(duplicateDocument("q1", "d7", { file: "r", line: 3 }).message,
 *   "r:3: duplicate document d7 for query q1 (trec_eval rejects this too)");
 * ```
 */
export function duplicateDocument(qid: string, docno: string, where: Location): KitError {
  return new KitError(
    `duplicate document ${docno} for query ${qid} (trec_eval rejects this too)`,
    where,
  );
}

/**
 * A document judged twice for one query of the qrels (trec_eval stops on it too).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { duplicateJudgment } from "./trec_format.ts";
 * assert.match(duplicateJudgment("q1", "d7", { file: "q" }).message, /duplicate judgment/);
 * ```
 */
export function duplicateJudgment(qid: string, docno: string, where: Location): KitError {
  return new KitError(`duplicate judgment for query ${qid}, document ${docno}`, where);
}

/**
 * Standard input given for both files of an evaluation.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkOneStdin } from "./trec_format.ts";
 * assert.throws(() => checkOneStdin("-", "-"), /cannot both be standard input/);
 * ```
 */
export function checkOneStdin(qrels: unknown, run: unknown): void {
  if (qrels === "-" && run === "-") {
    throw new KitError(
      "the qrels and the run cannot both be standard input ('-'): give one of them as a file",
    );
  }
}

/**
 * trec_eval 10.0 stops when a qrels query has no results in the run and `-c` is not given
 * (9.0.8 skips such a query); in 10.0 mode the kit does the same, saying why.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkMissingQueries } from "./trec_format.ts";
 * checkMissingQueries("9.0.8", false, ["q2"]); // skipped, as 9.0.8 does
 * assert.throws(() => checkMissingQueries("10.0", false, ["q2"]), /query q2 of the qrels/);
 * ```
 */
export function checkMissingQueries(
  release: TrecRelease,
  complete: boolean,
  missing: readonly string[],
): void {
  if (release !== "10.0" || complete || missing.length === 0) return;
  const more = missing.length > 1 ? ` (and ${missing.length - 1} more)` : "";
  throw new KitError(
    `query ${missing[0]} of the qrels has no results in the run${more}: trec_eval 10.0 stops ` +
      "here; pass -c to score missing queries 0, or evaluate as trec_eval 9.0.8 (the " +
      "default), which skips them",
  );
}
