/**
 * Published numbers the notebooks compare against, each with its source. They describe the
 * full corpora: on the bundled samples the kit's counts differ by design.
 *
 * @module
 */

import { DATASETS, type PublishedSize } from "../data/datasets.ts";
import type { FilterName } from "../data/filters.ts";

export type { PublishedSize } from "../data/datasets.ts";

const YANG = "Yang et al. 2015";
const TANDA = "TANDA (Garg et al. 2020)";

/**
 * Published split sizes: dataset, split, filter setting (each corpus's entry in `DATASETS`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PUBLISHED_SIZES } from "./published.ts";
 * assert(PUBLISHED_SIZES.wikiqa.test["no-all"]?.questions === 243);
 * ```
 */
export const PUBLISHED_SIZES: Record<
  string,
  Record<string, Partial<Record<FilterName, PublishedSize>>>
> = Object.fromEntries(
  DATASETS.filter((d) => d.task === "as2").map((d) => [
    d.name,
    Object.fromEntries(Object.entries(d.splits).map(([split, s]) => [split, s.published])),
  ]),
);

/** Published MAP/MRR of answer-sentence-selection systems (test sets). */
export interface PublishedResult {
  system: string;
  dataset: "wikiqa" | "trecqa";
  map: number;
  mrr: number;
  source: string;
}

/**
 * Reference results (see PROTOCOL: TANDA's table and Yang et al.'s WikiQA baselines).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PUBLISHED_RESULTS } from "./published.ts";
 * assert(PUBLISHED_RESULTS.some((r) => r.system === "Word Cnt" && r.map === 0.4891));
 * ```
 */
export const PUBLISHED_RESULTS: readonly PublishedResult[] = [
  { system: "Word Cnt", dataset: "wikiqa", map: 0.4891, mrr: 0.4924, source: YANG },
  { system: "Wgt Word Cnt", dataset: "wikiqa", map: 0.5099, mrr: 0.5132, source: YANG },
  { system: "CNN-Cnt", dataset: "wikiqa", map: 0.652, mrr: 0.6652, source: YANG },
  { system: "TANDA RoBERTa-L", dataset: "wikiqa", map: 0.92, mrr: 0.933, source: TANDA },
  { system: "TANDA RoBERTa-L", dataset: "trecqa", map: 0.943, mrr: 0.974, source: TANDA },
];

/** Published QRCD v1.1 sizes (records, distinct questions and passages, gold answers). */
export const PUBLISHED_QRCD_SIZES: Record<
  string,
  { records: number; questions: number; passages: number; answers?: number; source: string }
> = Object.fromEntries(
  Object.entries(DATASETS.find((d) => d.name === "qrcd")!.splits).map(([split, s]) => {
    const { records, questions, passages, answers, source } = s.published.raw!;
    const counts = { records: records!, questions, passages: passages! };
    return [split, { ...counts, ...(answers === undefined ? {} : { answers }), source }];
  }),
);

/** Published Qur'an QA 2022 results (pRR is the primary measure). */
export const PUBLISHED_QRCD_RESULTS: readonly {
  system: string;
  split: "dev" | "test";
  pRR: number;
  exactMatch?: number;
  f1At1?: number;
  source: string;
}[] = [
  {
    system: "TCE (best accepted)",
    split: "test",
    pRR: 0.565,
    exactMatch: 0.273,
    f1At1: 0.494,
    source: "Qur'an QA 2022 overview",
  },
  { system: "TCE (best accepted)", split: "dev", pRR: 0.652, source: "Qur'an QA 2022 overview" },
];
