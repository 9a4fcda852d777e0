/**
 * Word-level text handling for the lexical scorers: lowercase, split on anything that is
 * not a letter or digit, and a stopword list. Kept separate from model tokenizers, which
 * come from each model's `tokenizer.json`.
 *
 * @module
 */

/**
 * The English stopword list of NLTK (179 words, `nltk.corpus.stopwords.words("english")`).
 * Yang et al. (2015) do not say which list they used; this is the most common one. Words
 * with an apostrophe never match because {@link words} splits on apostrophes; their
 * pieces (`don`, `t`, `s`, ...) are in the list themselves.
 */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  ("i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself " +
    "yourselves he him his himself she she's her hers herself it it's its itself they them " +
    "their theirs themselves what which who whom this that that'll these those am is are was " +
    "were be been being have has had having do does did doing a an the and but if or because " +
    "as until while of at by for with about against between into through during before after " +
    "above below to from up down in out on off over under again further then once here there " +
    "when where why how all any both each few more most other some such no nor not only own " +
    "same so than too very s t can will just don don't should should've now d ll m o re ve y " +
    "ain aren aren't couldn couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't haven " +
    "haven't isn isn't ma mightn mightn't mustn mustn't needn needn't shan shan't shouldn " +
    "shouldn't wasn wasn't weren weren't won won't wouldn wouldn't").split(" "),
);

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * Lowercased words of `text`: maximal runs of letters, digits and combining marks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { words } from "./text.ts";
 * assert(words("Who wrote 'Hamlet', in 1600?").join(" ") === "who wrote hamlet in 1600");
 * ```
 */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/**
 * The distinct non-stopword words of `text`, in first-occurrence order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { contentTerms } from "./text.ts";
 * assert(contentTerms("How are glacier caves formed? Caves!").join(" ") ===
 *   "glacier caves formed");
 * ```
 */
export function contentTerms(
  text: string,
  stopwords: ReadonlySet<string> = ENGLISH_STOPWORDS,
): string[] {
  const seen = new Set<string>();
  for (const w of words(text)) if (!stopwords.has(w)) seen.add(w);
  return [...seen];
}
