/**
 * Named splits of the answer-selection corpora and {@link loadSplit}, the one call that
 * goes from a dataset name to filtered questions.
 *
 * | dataset | split | file |
 * |---|---|---|
 * | wikiqa | train, dev, test | `wikiqa/WikiQA-<split>.tsv` |
 * | trecqa | train-all | `trecqa/jsonl/train-all.jsonl.gz` (Wang's TRAIN-ALL, 1,229 questions) |
 * | trecqa | train, dev, test | `trecqa/jacana-xml/{TRAIN,DEV,TEST}.xml` |
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { applyFilter, type FilterName, type FilterReport } from "./filters.ts";
import { datasetDir, SAMPLES_DIR } from "./paths.ts";
import { readJacanaXml, readTrecQaJsonl } from "./trecqa.ts";
import type { As2Dataset, Question } from "./types.ts";
import { readWikiQaTsv } from "./wikiqa.ts";

/** The splits of each answer-selection corpus. */
export const SPLITS: Record<As2Dataset, readonly string[]> = {
  wikiqa: ["train", "dev", "test"],
  trecqa: ["train-all", "train", "dev", "test"],
};

/** The relative path of a split's file inside a corpus folder. */
export function splitFile(dataset: As2Dataset, split: string): string {
  checkSplit(dataset, split);
  if (dataset === "wikiqa") return `wikiqa/WikiQA-${split}.tsv`;
  if (split === "train-all") return "trecqa/jsonl/train-all.jsonl.gz";
  return `trecqa/jacana-xml/${split.toUpperCase()}.xml`;
}

function checkSplit(dataset: string, split: string): void {
  const known = SPLITS[dataset as As2Dataset];
  if (!known) throw new KitError(`unknown dataset '${dataset}' (expected: wikiqa, trecqa)`);
  if (!known.includes(split)) {
    throw new KitError(`unknown ${dataset} split '${split}' (expected: ${known.join(", ")})`);
  }
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
  if (dataset === "wikiqa") return await readWikiQaTsv(path);
  if (split === "train-all") return await readTrecQaJsonl(path, split);
  return await readJacanaXml(path);
}

/** Options of {@link loadSplit}. */
export interface LoadOptions {
  /**
   * Filter setting. Default `raw`: the split as published (the sizes the papers and
   * `data stats` give), so a library call never drops questions unasked. The commands and the
   * report default to the protocol's filter instead (`protocolFilter(split)`: clean for dev and
   * test, no-all for training) and say so; pass it here to evaluate as they do.
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
  /** What the filter did. */
  report: FilterReport;
  /** The folder read. */
  dir: string;
  /** Whether the bundled samples were read (not the real corpus). */
  isSample: boolean;
}

/**
 * Loads a split with a filter setting.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadSplit } from "./splits.ts";
 * const s = await loadSplit("wikiqa", "test", { filter: "clean", dir: "samples" });
 * assert(s.isSample && s.report.filter === "clean");
 * ```
 */
export async function loadSplit(
  dataset: As2Dataset,
  split: string,
  options: LoadOptions = {},
): Promise<LoadedSplit> {
  checkSplit(dataset, split);
  const dir = datasetDir(dataset, options.dir);
  const raw = await readSplit(dataset, split, dir);
  const { questions, report } = applyFilter(raw, options.filter ?? "raw");
  return { dataset, split, questions, report, dir, isSample: dir === SAMPLES_DIR };
}
