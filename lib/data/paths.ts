/**
 * Where corpora live: the fetched cache (default `data/cache/` in the project, git-ignored;
 * `QA_KIT_DATA_DIR` overrides it) and the bundled samples (`data/samples/`).
 *
 * @module
 */
import { fromFileUrl } from "../io/path.ts";
import { installMarker, verifyInstalled } from "./installed.ts";
import type { DatasetName } from "./types.ts";

export { installMarker } from "./installed.ts";

/** The project's root folder (two levels above this file). */
export const PROJECT_ROOT: string = fromFileUrl(new URL("../../", import.meta.url)).replace(
  /\/$/,
  "",
);

/**
 * The folder fetched corpora are installed in.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultCacheDir } from "./paths.ts";
 * assert(defaultCacheDir().length > 0);
 * ```
 */
export function defaultCacheDir(): string {
  return Deno.env.get("QA_KIT_DATA_DIR") || `${PROJECT_ROOT}/data/cache`;
}

/** The bundled samples folder (same layout as the cache, a few questions per split). */
export const SAMPLES_DIR = `${PROJECT_ROOT}/data/samples`;

/**
 * Whether a corpus was fetched completely into `dir` (default: the cache).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isInstalled } from "./paths.ts";
 * assert(typeof isInstalled("wikiqa", "/nonexistent") === "boolean");
 * ```
 */
export function isInstalled(dataset: DatasetName, dir = defaultCacheDir()): boolean {
  try {
    return Deno.statSync(installMarker(dir, dataset)).isFile;
  } catch {
    return false;
  }
}

/** Whether this process printed its line about the corpus check already. */
let corpusNoted = false;

/**
 * The folder to read a corpus from: `dir` when given (`"samples"` means the bundled samples),
 * else the cache when the corpus is installed there, else the samples. A folder holding an
 * install marker is verified first (`verifyInstalled`): a corpus file changed or removed
 * after installation is an error naming the file and how to restore it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { datasetDir, SAMPLES_DIR } from "./paths.ts";
 * assert(datasetDir("wikiqa", "samples") === SAMPLES_DIR);
 * ```
 */
export function datasetDir(dataset: DatasetName, dir?: string): string {
  if (dir === "samples") return SAMPLES_DIR;
  const chosen = dir ?? (isInstalled(dataset) ? defaultCacheDir() : SAMPLES_DIR);
  if (chosen !== SAMPLES_DIR) {
    const fetch = `deno task data fetch ${dataset}${dir === undefined ? "" : ` --dir ${dir}`}`;
    // One line at most per process about the corpus check (a copied checkout touches them all).
    for (const note of verifyInstalled(dataset, chosen, fetch)) {
      if (!corpusNoted) console.error(note);
      corpusNoted = true;
    }
  }
  return chosen;
}
