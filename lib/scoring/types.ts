/**
 * The shapes every scorer shares: a pair scorer turns (question, candidate) texts into
 * scores; a question scorer sees whole candidate lists (so it may use positions and
 * per-question context); a span reader returns ranked answer spans of a passage.
 *
 * @module
 */

/** One (question, candidate sentence) pair to score. */
export interface TextPair {
  /** The question text. */
  question: string;
  /** The candidate answer sentence (or passage). */
  candidate: string;
}

/** Progress of a long scoring job: `done` of `total` units (pairs or passages). */
export type ProgressFn = (done: number, total: number) => void;

/** Options every scorer accepts. */
export interface ScoreOptions {
  /** Called now and then with the number of pairs scored so far. */
  onProgress?: ProgressFn;
  /** Pairs per model call (transformer scorers; ignored by lexical ones). */
  batchSize?: number;
}

/** Scores text pairs independently of each other. Higher means more likely correct. */
export interface PairScorer {
  /** A stable id naming the model and its settings (used in run ids and score caches). */
  id: string;
  /** One score per pair, in input order. */
  scorePairs(pairs: TextPair[], options?: ScoreOptions): Promise<Float32Array>;
}

/** One candidate of a question, as a question scorer sees it. */
export interface ScoredCandidateInput {
  /** Candidate id. */
  id: string;
  /** Candidate text. */
  text: string;
}

/** One question with its whole candidate list, as a question scorer sees it. */
export interface QuestionInput {
  /** Question id. */
  id: string;
  /** Question text. */
  text: string;
  /** Candidates in corpus order (positions are meaningful). */
  candidates: ScoredCandidateInput[];
}

/** Scores every candidate of every question; may look at the whole candidate list. */
export interface QuestionScorer {
  /** A stable id naming the model and its settings. */
  id: string;
  /** One score array per question (candidate order), in question order. */
  scoreQuestions(questions: QuestionInput[], options?: ScoreOptions): Promise<Float32Array[]>;
}

/** One answer span of a passage, with character offsets into the passage. */
export interface Span {
  /** The answer text: `passage.slice(start, end)`. */
  answer: string;
  /** Start offset (UTF-16 code units, inclusive). */
  start: number;
  /** End offset (exclusive). */
  end: number;
  /** The span's score (start logit + end logit for extractive readers). */
  score: number;
}

/** A question over one passage (QRCD's unit). */
export interface PassageQuestionInput {
  /** Record id (QRCD `pq_id`). */
  id: string;
  /** The question text. */
  question: string;
  /** The passage text the answers are spans of. */
  passage: string;
}

/** Options of a span reader. */
export interface SpanOptions extends ScoreOptions {
  /** Spans to return per passage (default 5). */
  topK?: number;
  /** Longest answer in tokens (default 30). */
  maxAnswerTokens?: number;
}

/** Returns ranked answer spans for questions over passages. */
export interface SpanReader {
  /** A stable id naming the model. */
  id: string;
  /** Ranked spans (best first) for each input, in input order. */
  readSpans(inputs: PassageQuestionInput[], options?: SpanOptions): Promise<Span[][]>;
}
