/**
 * Published numbers the notebooks compare against, each with its source. They describe the
 * full corpora: on the bundled samples the kit's counts differ by design.
 *
 * @module
 */

/** Questions and candidates of one split under one filter setting. */
export interface PublishedSize {
  questions: number;
  candidates?: number;
  /** Where the number comes from. */
  source: string;
}

const YANG = "Yang et al. 2015";
const TANDA = "TANDA (Garg et al. 2020)";
const FILTERED_REF = "official -filtered.ref";
const WANG = "Wang et al. 2007, Yao et al. 2013";

/**
 * Published split sizes: dataset, split, filter setting.
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
  Record<string, Partial<Record<"raw" | "no-all" | "clean", PublishedSize>>>
> = {
  wikiqa: {
    train: {
      raw: { questions: 2118, candidates: 20360, source: YANG },
      "no-all": { questions: 873, source: TANDA },
    },
    dev: {
      raw: { questions: 296, candidates: 2733, source: YANG },
      "no-all": { questions: 126, source: TANDA },
      clean: { questions: 122, source: FILTERED_REF },
    },
    test: {
      raw: { questions: 633, candidates: 6165, source: YANG },
      "no-all": { questions: 243, source: TANDA },
      clean: { questions: 237, source: FILTERED_REF },
    },
  },
  trecqa: {
    "train-all": { raw: { questions: 1229, candidates: 53417, source: WANG } },
    train: { raw: { questions: 94, candidates: 4718, source: WANG } },
    dev: {
      raw: { questions: 82, candidates: 1148, source: WANG },
      clean: { questions: 65, source: TANDA },
    },
    test: {
      raw: { questions: 100, candidates: 1517, source: WANG },
      clean: { questions: 68, source: TANDA },
    },
  },
};

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
> = {
  train: { records: 710, questions: 118, passages: 468, answers: 861, source: "QRCD v1.1" },
  dev: { records: 109, questions: 17, passages: 101, answers: 128, source: "QRCD v1.1" },
  test: { records: 274, questions: 34, passages: 256, source: "QRCD v1.1 (no answers)" },
};

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
