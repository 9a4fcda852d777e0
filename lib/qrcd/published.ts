/**
 * Published QRCD v1.1 sizes and Qur'an QA 2022 results, the numbers the lessons and the report
 * compare with.
 *
 * @module
 */
import { QRCD_DATASET } from "./dataset.ts";

/** Published QRCD v1.1 sizes (records, distinct questions and passages, gold answers). */
export const PUBLISHED_QRCD_SIZES: Record<
  string,
  { records: number; questions: number; passages: number; answers?: number; source: string }
> = Object.fromEntries(
  Object.entries(QRCD_DATASET.splits).map(([split, s]) => {
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
