/**
 * Where a report keeps what its cache (cache.ts) needs in the report folder itself: the keys
 * and entries of its notebooks (`.kit-cache/keys.json`) and each lesson's page of the PDF
 * (`.kit-cache/parts/NN-name.pdf`).
 *
 * @module
 */

/**
 * The cache's folder in a report folder: the files of it a report wrote stay the kit's even
 * when changed since (a damaged record is rewritten, foreign.ts `cachesOwn`).
 */
export const CACHE_DIR = ".kit-cache";

/** The cache's record in a report folder: keys, entries, the report's own key. */
export const CACHE_KEYS = `${CACHE_DIR}/keys.json`;

/**
 * A lesson's part of the PDF, kept so that the PDF can be united again without printing it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cachedPart } from "./cache_files.ts";
 * assert.equal(cachedPart("02-filters"), ".kit-cache/parts/02-filters.pdf");
 * ```
 */
export function cachedPart(name: string): string {
  return `${CACHE_DIR}/parts/${name}.pdf`;
}
