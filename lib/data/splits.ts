/**
 * Named splits of the answer-selection corpora and {@link loadSplit}, the one call that
 * goes from a dataset name to filtered questions. Which splits a corpus has, their files and
 * the reader are its entry in `DATASETS` (datasets.ts).
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { checkWholeFileSync } from "../io/whole_file.ts";
import { findDataset, type SplitEntry } from "./datasets.ts";
import { applyFilter, type FilterName, type FilterReport, protocolFilter } from "./filters.ts";
import { datasetDir, SAMPLES_DIR } from "./paths.ts";
import type { As2Dataset, Question } from "./types.ts";

/** A split's entry; an unknown dataset or split is an error naming the known ones. */
function splitEntry(dataset: string, split: string): SplitEntry {
  const entry = findDataset(dataset, "as2");
  const found = Object.hasOwn(entry.splits, split) ? entry.splits[split] : undefined;
  if (!found) {
    const known = Object.keys(entry.splits).join(", ");
    throw new KitError(`unknown ${dataset} split '${split}' (expected: ${known})`);
  }
  return found;
}

/**
 * The relative path of a split's file inside a corpus folder.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitFile } from "./splits.ts";
 * assert.equal(splitFile("wikiqa", "test"), "wikiqa/WikiQA-test.tsv");
 * assert.throws(() => splitFile("wikiqa", "valid"), /unknown wikiqa split 'valid'/);
 * ```
 */
export function splitFile(dataset: As2Dataset, split: string): string {
  return splitEntry(dataset, split).file;
}

/**
 * Reads a split's questions, unfiltered, from a corpus folder.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readSplit } from "./splits.ts";
 * import { SAMPLES_DIR } from "./paths.ts";
 * const qs = await readSplit("wikiqa", "dev", SAMPLES_DIR);
 * assert(qs.length > 0);
 * ```
 */
export async function readSplit(
  dataset: As2Dataset,
  split: string,
  dir: string,
): Promise<Question[]> {
  const path = `${dir}/${splitFile(dataset, split)}`;
  // A corpus file is a regular file: a FIFO would wait for a writer, /dev/zero never end.
  checkWholeFileSync(path, "corpus");
  return await findDataset(dataset, "as2").read!(path, split);
}

/** Options of {@link loadSplit}. */
export interface LoadOptions {
  /**
   * Filter setting. Default: the protocol's for the split (`protocolFilter(split)`: `clean`
   * for dev and test, `no-all` for training splits), as every command defaults, so a run
   * evaluated on `loadSplit(...).questions` gets the number `eval as2` prints. `raw` is the
   * split as published (the sizes the papers and `data stats` give). The filter applied is
   * in the result's `report.filter`; every question, filtered or not, in `all`.
   */
  filter?: FilterName;
  /**
   * Corpus folder: `"samples"` for the bundled samples, a path laid out like
   * `../shared/datasets`, or undefined for the cache when fetched, else the samples.
   */
  dir?: string;
}

/** A loaded split. */
export interface LoadedSplit {
  dataset: As2Dataset;
  split: string;
  /** The questions kept by the filter. */
  questions: Question[];
  /**
   * Every question of the split in file order, before the filter: what WikiQA's `.ref` files
   * number (see `renumberRun`).
   */
  all: Question[];
  /** What the filter did. */
  report: FilterReport;
  /** The folder read. */
  dir: string;
  /** Whether the bundled samples were read (not the real corpus). */
  isSample: boolean;
}

/**
 * Loads a split under a filter setting (default: the protocol's for the split, as every
 * command).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadSplit } from "./splits.ts";
 * const s = await loadSplit("wikiqa", "test", { dir: "samples" });
 * assert(s.isSample && s.report.filter === "clean" && s.questions.length < s.all.length);
 * const raw = await loadSplit("wikiqa", "test", { filter: "raw", dir: "samples" });
 * assert.equal(raw.questions.length, raw.all.length);
 * ```
 */
export async function loadSplit(
  dataset: As2Dataset,
  split: string,
  options: LoadOptions = {},
): Promise<LoadedSplit> {
  splitEntry(dataset, split);
  const dir = datasetDir(dataset, options.dir);
  const raw = await readSplit(dataset, split, dir);
  const { questions, report } = applyFilter(raw, options.filter ?? protocolFilter(split));
  return { dataset, split, questions, all: raw, report, dir, isSample: dir === SAMPLES_DIR };
}
