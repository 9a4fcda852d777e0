/**
 * The in-memory model every answer-selection corpus is loaded into.
 *
 * @module
 */

/** A candidate answer sentence with its label (1 correct, 0 not). */
export interface Candidate {
  /** Stable id, unique within its question (WikiQA: the corpus `SentenceID`). */
  id: string;
  /** The sentence text. */
  text: string;
  /** Relevance label: 1 correct, 0 incorrect. */
  label: number;
}

/** A question with its full candidate set. */
export interface Question {
  /** Stable id, unique within its split (WikiQA: the corpus `QuestionID`). */
  id: string;
  /** The question text. */
  text: string;
  /** Every candidate, in corpus order. */
  candidates: Candidate[];
}

/** The name of an answer-selection corpus in `DATASETS` (datasets.ts): `wikiqa`, `trecqa`, ... */
export type As2Dataset = string;

/** The name of any corpus in `DATASETS`, e.g. `qrcd`. */
export type DatasetName = string;
