/**
 * Lexical answer-selection baselines: Word Cnt and Wgt Word Cnt of Yang et al. (2015,
 * the WikiQA paper) and Okapi BM25. All three are pair scorers over a fixed set of
 * collection statistics (document frequencies), built once by {@link collectionStats}.
 *
 * @module
 */
import { ENGLISH_STOPWORDS, words } from "./text.ts";
import type { PairScorer, TextPair } from "./types.ts";

/** Document frequencies of a collection of sentences (each sentence is one document). */
export interface CollectionStats {
  /** Number of documents. */
  numDocs: number;
  /** Word to number of documents containing it. */
  docFreq: Map<string, number>;
  /** Mean document length in words (for BM25). */
  avgDocLength: number;
}

/**
 * Counts document frequencies over `documents` (tokenized with {@link words}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { collectionStats } from "./lexical.ts";
 * const s = collectionStats(["a cat sat", "a dog", "the cat"]);
 * assert(s.numDocs === 3 && s.docFreq.get("cat") === 2 && s.avgDocLength === 7 / 3);
 * ```
 */
export function collectionStats(documents: Iterable<string>): CollectionStats {
  const docFreq = new Map<string, number>();
  let numDocs = 0;
  let totalLength = 0;
  for (const doc of documents) {
    const ws = words(doc);
    numDocs++;
    totalLength += ws.length;
    for (const w of new Set(ws)) docFreq.set(w, (docFreq.get(w) ?? 0) + 1);
  }
  return { numDocs, docFreq, avgDocLength: numDocs === 0 ? 0 : totalLength / numDocs };
}

/**
 * IDF as Yang et al. weight words: `log(N / df)`; a word absent from the collection gets
 * `log(N)` (as if it occurred once), so it still counts when it matches.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { collectionStats, idf } from "./lexical.ts";
 * const s = collectionStats(["a b", "a c", "a d", "e"]);
 * assert(idf(s, "a") === Math.log(4 / 3) && idf(s, "zzz") === Math.log(4));
 * ```
 */
export function idf(stats: CollectionStats, word: string): number {
  const df = stats.docFreq.get(word) ?? 0;
  return Math.log(stats.numDocs / Math.max(df, 1));
}

/**
 * BM25's IDF (the Lucene form, never negative): `log(1 + (N - df + 0.5) / (df + 0.5))`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bm25Idf, collectionStats } from "./lexical.ts";
 * const s = collectionStats(["a b", "a c"]);
 * assert(Math.abs(bm25Idf(s, "b") - Math.log(1 + 1.5 / 1.5)) < 1e-12);
 * ```
 */
export function bm25Idf(stats: CollectionStats, word: string): number {
  const df = stats.docFreq.get(word) ?? 0;
  return Math.log(1 + (stats.numDocs - df + 0.5) / (df + 0.5));
}

/** Options of the lexical scorers. */
export interface LexicalOptions {
  /** Words ignored in questions (Word Cnt, Wgt Word Cnt). Default: {@link ENGLISH_STOPWORDS}. */
  stopwords?: ReadonlySet<string>;
  /** BM25 term-frequency saturation (default 1.2). */
  k1?: number;
  /** BM25 length normalization (default 0.75). */
  b?: number;
}

/** The three lexical measures, by the names the CLI uses (`lexical:<name>`). */
export type LexicalKind = "wordcnt" | "wgtwordcnt" | "bm25";

/** Every lexical kind. */
export const LEXICAL_KINDS: readonly LexicalKind[] = ["wordcnt", "wgtwordcnt", "bm25"];

/**
 * Word Cnt: the number of distinct non-stopword question words that occur in the sentence.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wordCount } from "./lexical.ts";
 * assert(wordCount("Who wrote the play Hamlet?", "Hamlet is a play by Shakespeare.") === 2);
 * ```
 */
export function wordCount(
  question: string,
  sentence: string,
  stopwords: ReadonlySet<string> = ENGLISH_STOPWORDS,
): number {
  const inSentence = new Set(words(sentence));
  let n = 0;
  for (const w of new Set(words(question))) if (!stopwords.has(w) && inSentence.has(w)) n++;
  return n;
}

/**
 * Wgt Word Cnt: like {@link wordCount}, each matching question word weighted by its IDF.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { collectionStats, idf, weightedWordCount } from "./lexical.ts";
 * const s = collectionStats(["hamlet is a play", "a play", "plays"]);
 * const v = weightedWordCount("which play is hamlet", "hamlet is a play", s);
 * assert(Math.abs(v - (idf(s, "play") + idf(s, "hamlet"))) < 1e-12);
 * ```
 */
export function weightedWordCount(
  question: string,
  sentence: string,
  stats: CollectionStats,
  stopwords: ReadonlySet<string> = ENGLISH_STOPWORDS,
): number {
  const inSentence = new Set(words(sentence));
  let sum = 0;
  for (const w of new Set(words(question))) {
    if (!stopwords.has(w) && inSentence.has(w)) sum += idf(stats, w);
  }
  return sum;
}

/**
 * Okapi BM25 of the sentence for the question (every question word, stopwords included,
 * each occurrence in the question counted, as in a bag-of-words query).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bm25, collectionStats } from "./lexical.ts";
 * const s = collectionStats(["red apple", "green apple pie", "blue sky"]);
 * assert(bm25("apple pie", "green apple pie", s) > bm25("apple pie", "red apple", s));
 * assert(bm25("apple pie", "blue sky", s) === 0);
 * ```
 */
export function bm25(
  question: string,
  sentence: string,
  stats: CollectionStats,
  k1 = 1.2,
  b = 0.75,
): number {
  return bm25Words(words(question), words(sentence), stats, k1, b);
}

/**
 * {@link bm25} on words already tokenized (`words(question)`, `words(sentence)`), for callers
 * that score many sentences against one question (the learned ranker's features).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bm25, bm25Words, collectionStats } from "./lexical.ts";
 * const s = collectionStats(["red apple", "green apple pie"]);
 * assert(bm25Words(["apple", "pie"], ["green", "apple", "pie"], s) === bm25("apple pie", "green apple pie", s));
 * ```
 */
export function bm25Words(
  questionWords: readonly string[],
  sentenceWords: readonly string[],
  stats: CollectionStats,
  k1 = 1.2,
  b = 0.75,
): number {
  const tf = new Map<string, number>();
  for (const w of sentenceWords) tf.set(w, (tf.get(w) ?? 0) + 1);
  const norm = k1 * (1 - b + b * sentenceWords.length / (stats.avgDocLength || 1));
  let sum = 0;
  for (const w of questionWords) {
    const f = tf.get(w);
    if (f) sum += bm25Idf(stats, w) * f * (k1 + 1) / (f + norm);
  }
  return sum;
}

/**
 * A pair scorer for one lexical measure over fixed collection statistics.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { collectionStats, lexicalScorer } from "./lexical.ts";
 * const s = lexicalScorer("wordcnt", collectionStats([]));
 * const out = await s.scorePairs([{ question: "big red dog", candidate: "a red dog" }]);
 * assert(s.id === "lexical:wordcnt" && out[0] === 2);
 * ```
 */
export function lexicalScorer(
  kind: LexicalKind,
  stats: CollectionStats,
  options: LexicalOptions = {},
): PairScorer {
  const stop = options.stopwords ?? ENGLISH_STOPWORDS;
  const one = (p: TextPair): number => {
    switch (kind) {
      case "wordcnt":
        return wordCount(p.question, p.candidate, stop);
      case "wgtwordcnt":
        return weightedWordCount(p.question, p.candidate, stats, stop);
      case "bm25":
        return bm25(p.question, p.candidate, stats, options.k1, options.b);
    }
  };
  return {
    id: `lexical:${kind}`,
    scorePairs(pairs, opts) {
      const out = new Float32Array(pairs.length);
      for (let i = 0; i < pairs.length; i++) {
        out[i] = one(pairs[i]);
        if (opts?.onProgress && (i + 1) % 10000 === 0) opts.onProgress(i + 1, pairs.length);
      }
      opts?.onProgress?.(pairs.length, pairs.length);
      return Promise.resolve(out);
    },
  };
}
