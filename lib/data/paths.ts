/**
 * Where corpora live: the fetched cache (default `data/cache/` in the project, git-ignored;
 * `QA_KIT_DATA_DIR` overrides it) and the bundled samples (`data/samples/`).
 *
 * @module
 */
import { installMarker, verifyInstalled } from "./installed.ts";
import { kitFolder, PROJECT_ROOT } from "./root.ts";
import type { DatasetName } from "./types.ts";

export { installMarker } from "./installed.ts";
export { KIT_ON_DISK, kitFolder, PROJECT_ROOT } from "./root.ts";

/**
 * The folder fetched corpora are installed in: `$QA_KIT_DATA_DIR`, else the project's
 * `data/cache` (an error when the kit was imported by URL: set `QA_KIT_DATA_DIR`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultCacheDir } from "./paths.ts";
 * assert(defaultCacheDir().length > 0);
 * ```
 */
export function defaultCacheDir(): string {
  return Deno.env.get("QA_KIT_DATA_DIR") ||
    kitFolder(
      "data/cache",
      "corpus cache",
      `set QA_KIT_DATA_DIR to a folder for the corpora (fill one with '${fetchByUrl("all")}'), ` +
        "or import the kit by path",
    );
}

/**
 * The bundled samples folder (same layout as the cache, a few questions per split). When the
 * kit was imported by URL it names that URL; {@link datasetDir} refuses it with a clear error.
 */
export const SAMPLES_DIR = `${PROJECT_ROOT}/data/samples`;

/**
 * Whether a corpus was fetched completely into `dir` (default: the cache).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isInstalled } from "./paths.ts";
 * assert.equal(isInstalled("wikiqa", await Deno.makeTempDir()), false); // an empty folder
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
  if (dir === "samples") return samplesDir(dataset);
  const chosen = dir ?? (isInstalled(dataset) ? defaultCacheDir() : samplesDir(dataset));
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

/** The samples folder, or the clear error when the kit was imported by URL. */
function samplesDir(dataset: DatasetName): string {
  return kitFolder(
    "data/samples",
    "bundled samples",
    `pass a folder holding the corpus (dir: DIR, filled by '${fetchByUrl(dataset)}'), or ` +
      "import the kit by path",
  );
}

/**
 * The command that fetches `what` (a corpus or `all`) into a folder `DIR` when the kit was
 * imported by URL: no checkout, so no `deno task`; its command line runs from the same URL.
 */
function fetchByUrl(what: string): string {
  return `deno run -A ${PROJECT_ROOT}/lib/cli/main.ts data fetch ${what} --dir DIR`;
}
