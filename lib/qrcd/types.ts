/**
 * The in-memory shapes of the Qur'an QA 2022 task (QRCD v1.1): passage-question records
 * with gold answer spans, and span runs (ranked answer strings per record).
 *
 * @module
 */

/** One gold answer: its text and the 0-based character offset where it starts in the passage. */
export interface GoldAnswer {
  /** The answer text, a verbatim span of the passage. */
  text: string;
  /** Offset of the first character in the passage (code points; all QRCD text is in the BMP). */
  start: number;
}

/** One QRCD record: a question asked about one passage (a run of consecutive verses). */
export interface PassageQuestion {
  /** `"{surah}:{verses}_{question id}"`, unique within a split. */
  pqId: string;
  /** The question id: the part of `pqId` after the last `_`. */
  questionId: string;
  /** The passage id: the part of `pqId` before the last `_` (`"{surah}:{verses}"`). */
  passageId: string;
  /** The passage text (Arabic, without diacritics, verses ended by `.`). */
  passage: string;
  /** The chapter number. */
  surah: number;
  /** The verse range, e.g. `"41-44"`. */
  verses: string;
  /** The question text. */
  question: string;
  /** Gold answers in file order (empty in the test file without answers). */
  answers: GoldAnswer[];
  /** 1-based line of the record in its file (0 for records built in memory). */
  line: number;
}

/** One predicted answer of a run file: `{"answer": str, "rank": int, "score": float}`. */
export interface SpanPrediction {
  /** The predicted answer text (should be a span of the passage). */
  answer: string;
  /** 1-based rank as written in the file (the scorer uses list order, not this field). */
  rank: number;
  /** The system's score (only checked for ordering by the submission checker). */
  score: number;
}

/** A span run: pq_id to the predictions in file order. */
export type SpanRun = Map<string, SpanPrediction[]>;
