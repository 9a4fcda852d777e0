/**
 * The trec_eval releases the kit reproduces, and what each changes (checked against their
 * sources and binaries):
 * - 9.0.8 (the default; most published numbers and pytrec_eval come from the 9.0.x releases)
 *   stores a run's scores as 32-bit floats, so `0.30000001` and `0.3` tie (then the docno
 *   decides), and has no comment lines: a query id `#q` is data.
 * - 10.0 stores scores as doubles, skips lines whose first field starts with `#` in both
 *   files, and stops with an error when a qrels query has no results in the run and `-c` is
 *   not given.
 *
 * @module
 */
import { KitError } from "../errors.ts";

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
 * import { trecScore } from "./release.ts";
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
 * import { parseRelease } from "./release.ts";
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
