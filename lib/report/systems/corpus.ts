/**
 * Which corpus a systems report reads: the bundled sample or the fetched corpus, as asked, or
 * by default the installed corpus (the real one once fetched), as every command reads it.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import { datasetDir, defaultCacheDir, isInstalled } from "../../data/paths.ts";
import type { DatasetName } from "../../data/types.ts";

/**
 * The corpus folder of `dataset`: `sample` the bundled samples, `real` the fetched corpus (an
 * error when it is not fetched), and by default the installed corpus, else the samples.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chooseCorpus } from "./corpus.ts";
 * assert.equal(chooseCorpus("wikiqa", "sample").data, "sample");
 * assert.equal(chooseCorpus("wikiqa").chosen, "default");
 * ```
 */
export function chooseCorpus(
  dataset: DatasetName,
  data?: "real" | "sample",
): { data: "real" | "sample"; chosen: "asked" | "default"; folder: string } {
  const chosen = data === undefined ? "default" : "asked";
  const use = data ?? (isInstalled(dataset) ? "real" : "sample");
  if (use === "sample") return { data: use, chosen, folder: datasetDir(dataset, "samples") };
  if (!isInstalled(dataset)) {
    throw new KitError(
      `the real ${dataset} corpus is not fetched into ${defaultCacheDir()}: run ` +
        `'./kit data fetch ${dataset}' first (or ask for the bundled sample: data sample)`,
    );
  }
  return { data: use, chosen, folder: datasetDir(dataset) };
}
