/**
 * Where corpora live: the fetched cache (default `data/cache/` in the project, git-ignored;
 * `QA_KIT_DATA_DIR` overrides it) and the bundled samples (`data/samples/`).
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { fromFileUrl } from "../io/path.ts";
import { installMarker, verifyInstalled } from "./installed.ts";
import type { DatasetName } from "./types.ts";

export { installMarker } from "./installed.ts";

/** The kit's root: a folder when imported by path or `file:` URL, else the URL it came from. */
const ROOT_URL = new URL("../../", import.meta.url);

/**
 * Whether the kit's own files are on this machine's disk: false when the kit was imported by
 * URL (`https://...`), where only its code came over, not its folders (samples, cache, tools).
 */
export const KIT_ON_DISK: boolean = ROOT_URL.protocol === "file:";

/**
 * The project's root folder (two levels above this file). When the kit is imported by URL it
 * is that URL, which no file API opens: what needs the folder says so ({@link kitFolder}).
 */
export const PROJECT_ROOT: string = (KIT_ON_DISK ? fromFileUrl(ROOT_URL) : ROOT_URL.href)
  .replace(/\/$/, "");

/**
 * A folder of the kit's own (`data/samples`, `data/cache`), or a clear error when the kit was
 * imported by URL and has no folders here (`what` says what was wanted, `instead` what to do).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { kitFolder, PROJECT_ROOT } from "./paths.ts";
 * assert.equal(kitFolder("data/samples", "the samples", "-"), `${PROJECT_ROOT}/data/samples`);
 * ```
 */
export function kitFolder(relative: string, what: string, instead: string): string {
  if (KIT_ON_DISK) return `${PROJECT_ROOT}/${relative}`;
  throw new KitError(
    `no ${what} here: ${relative} is a folder of the kit, which was imported from ` +
      `${ROOT_URL.href} (a URL import brings the code, not the folders); ${instead}`,
  );
}

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
      "set QA_KIT_DATA_DIR to a folder for the corpora (deno task data fetch --dir DIR fills " +
        "one), or import the kit by path",
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
  if (dir === "samples") return samplesDir();
  const chosen = dir ?? (isInstalled(dataset) ? defaultCacheDir() : samplesDir());
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
function samplesDir(): string {
  return kitFolder(
    "data/samples",
    "bundled samples",
    "pass a folder holding the corpus (dir: ..., filled by deno task data fetch --dir), or " +
      "import the kit by path",
  );
}
