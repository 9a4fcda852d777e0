/**
 * Text normalization of the official Qur'an QA 2022 scorer (`quranqa22_eval.py`), reproduced
 * character for character, and the pluggable clitic-prefix segmentation step that precedes it
 * for Exact Match and F1.
 *
 * The scorer's `normalize_text` does, in this order:
 * 1. delete every character of Python's `string.punctuation` and the Arabic comma, semicolon
 *    and question mark (`، ؛ ؟`): deleted, not replaced by a space, so `a.b` becomes `ab`;
 * 2. split on whitespace (Python's `str.split()`) and drop the whole tokens
 *    `من الى إلى عن على في حتى`;
 * 3. join with single spaces.
 *
 * There is no diacritic, alef, yaa or taa-marbuta normalization.
 *
 * @module
 */

/** Python's `string.punctuation` (ASCII), in its order. */
export const ASCII_PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/** The Arabic marks the scorer adds to `string.punctuation`: comma, semicolon, question mark. */
export const ARABIC_PUNCTUATION = "\u060C\u061B\u061F";

/** Every character the scorer deletes. */
export const DELETED_PUNCTUATION: ReadonlySet<string> = new Set(
  ASCII_PUNCTUATION + ARABIC_PUNCTUATION,
);

/** The seven whole-token stopwords the scorer drops: من الى إلى عن على في حتى. */
export const STOPWORDS: ReadonlySet<string> = new Set([
  "\u0645\u0646", // من
  "\u0627\u0644\u0649", // الى
  "\u0625\u0644\u0649", // إلى
  "\u0639\u0646", // عن
  "\u0639\u0644\u0649", // على
  "\u0641\u064A", // في
  "\u062D\u062A\u0649", // حتى
]);

// Python's str.split() with no argument splits on runs of the characters for which
// str.isspace() is true (checked against CPython 3.11 over all code points). JavaScript's
// \s differs (it includes U+FEFF and lacks U+001C-U+001F and U+0085), so the class is spelled out.
// U+001C-U+001F are whitespace to Python.
const PY_WHITESPACE =
  // deno-lint-ignore no-control-regex
  /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/**
 * Splits like Python's `str.split()` without arguments: on runs of Unicode whitespace,
 * dropping empty strings at both ends.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pySplit } from "./normalize.ts";
 * assert(pySplit("  a\u00a0b\u3000 c ").join("|") === "a|b|c");
 * assert(pySplit("a\u200bb").length === 1); // zero-width space is not whitespace
 * ```
 */
export function pySplit(text: string): string[] {
  return text.split(PY_WHITESPACE).filter((t) => t.length > 0);
}

/**
 * Deletes the scorer's punctuation (ASCII punctuation and `، ؛ ؟`) without inserting spaces.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { removePunctuation } from "./normalize.ts";
 * assert(removePunctuation("قال: نعم، لا.") === "قال نعم لا");
 * assert(removePunctuation("أ.ب") === "أب"); // deleted, not replaced by a space
 * ```
 */
export function removePunctuation(text: string): string {
  let out = "";
  for (const ch of text) if (!DELETED_PUNCTUATION.has(ch)) out += ch;
  return out;
}

/**
 * The scorer's `normalize_text`: delete punctuation, drop the seven stopword tokens,
 * collapse whitespace.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeText } from "./normalize.ts";
 * // "في" is dropped as a token; "فيه" is not a stopword and stays.
 * assert(normalizeText(" في  البيت، فيه نور. ") === "البيت فيه نور");
 * ```
 */
export function normalizeText(text: string): string {
  return pySplit(removePunctuation(text)).filter((t) => !STOPWORDS.has(t)).join(" ");
}

/**
 * A clitic segmenter in Farasa's output format: the text with each token's segments joined
 * by `+` (e.g. `و+ال+كتاب`). The scorer then strips the prefixes و ف ب ك ل لل ال from the
 * start of each token and deletes the remaining `+` signs (see {@link removePrefixes}).
 */
export interface Segmenter {
  /** The name printed in evaluation output (`none`, `light`, or the plug-in's own). */
  name: string;
  /** Returns the segmented text. */
  segment(text: string): string;
}

// The scorer's prefix rules, applied once each in this order to every token.
const PREFIX_RULES: RegExp[] = [
  /^\u0648\+/, // و+
  /^\u0641\+/, // ف+
  /^\u0628\+/, // ب+
  /^\u0643\+/, // ك+
  /^\u0644\+/, // ل+
  /^\u0644\u0644\+/, // لل+
  /^\u0627\u0644\+/, // ال+
];

/**
 * The scorer's `remove_prefixes` with a pluggable segmenter: segment, split on whitespace,
 * strip the prefix rules (و+ ف+ ب+ ك+ ل+ لل+ ال+, each once, in that order) from each token,
 * delete the remaining `+`, join with single spaces.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { removePrefixes, NO_SEGMENTATION } from "./normalize.ts";
 * const farasaLike = { name: "fixed", segment: () => "و+ال+كتاب ب+قلم+ه" };
 * assert(removePrefixes("ignored", farasaLike) === "كتاب قلمه");
 * assert(removePrefixes(" والكتاب  ", NO_SEGMENTATION) === "والكتاب");
 * ```
 */
export function removePrefixes(text: string, segmenter: Segmenter): string {
  return pySplit(segmenter.segment(text)).map((token) => {
    for (const rule of PREFIX_RULES) token = token.replace(rule, "");
    return token.replaceAll("+", "");
  }).join(" ");
}

/**
 * No segmentation: the text is returned unchanged, so no prefix is stripped. This is what the
 * official scorer computes when Farasa is replaced by an identity segmenter, and the kit's default.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NO_SEGMENTATION } from "./normalize.ts";
 * assert(NO_SEGMENTATION.segment("والكتاب") === "والكتاب");
 * ```
 */
export const NO_SEGMENTATION: Segmenter = { name: "none", segment: (text) => text };

const WAW = "\u0648", FA = "\u0641", BA = "\u0628", KAF = "\u0643", LAM = "\u0644";
const AL = "\u0627\u0644"; // ال
const LIL = "\u0644\u0644"; // لل
const ALLAH = "\u0627\u0644\u0644\u0647"; // الله

/**
 * Marks the clitic prefixes of one token (no punctuation, no spaces) in Farasa's format,
 * by the light rules of {@link LIGHT_SEGMENTATION}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lightSegmentToken } from "./normalize.ts";
 * assert(lightSegmentToken("وبالوالدين") === "و+ب+ال+والدين");
 * assert(lightSegmentToken("للناس") === "لل+ناس");
 * assert(lightSegmentToken("ولد") === "ولد"); // would leave 2 letters: kept
 * assert(lightSegmentToken("بالله") === "ب+الله"); // the article of الله is kept
 * ```
 */
export function lightSegmentToken(token: string): string {
  const parts: string[] = [];
  let rest = token;
  // Conjunction و / ف, when at least 3 letters remain.
  if ((rest.startsWith(WAW) || rest.startsWith(FA)) && rest.length - 1 >= 3) {
    parts.push(rest[0]);
    rest = rest.slice(1);
  }
  // Preposition: لل (ل + the article with its alef dropped) when at least 2 letters remain,
  // else ب / ك / ل when at least 3 letters remain.
  if (rest.startsWith(LIL) && rest.length - 2 >= 2) {
    parts.push(LIL);
    rest = rest.slice(2);
  } else if (
    (rest.startsWith(BA) || rest.startsWith(KAF) || rest.startsWith(LAM)) && rest.length - 1 >= 3
  ) {
    parts.push(rest[0]);
    rest = rest.slice(1);
  }
  // Article ال when at least 2 letters remain; the word الله keeps its ال.
  if (rest.startsWith(AL) && rest.length - 2 >= 2 && rest !== ALLAH && parts.at(-1) !== LIL) {
    parts.push(AL);
    rest = rest.slice(2);
  }
  parts.push(rest);
  return parts.join("+");
}

/**
 * Light prefix stripping, a dictionary-free stand-in for Farasa (documented in docs/qrcd.md):
 * punctuation is deleted (as normalization would do next anyway), then each token is marked by
 * {@link lightSegmentToken}: an optional conjunction (و ف), an optional preposition (ب ك ل, or
 * لل), an optional article (ال), each only when enough letters remain (3 after و ف ب ك ل,
 * 2 after لل and ال), and never splitting الله. It over-strips some words whose first letter
 * is a root letter (وجدناه becomes جدناه), the same way on both sides of the comparison.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LIGHT_SEGMENTATION, removePrefixes } from "./normalize.ts";
 * assert(removePrefixes("والكتاب، للناس.", LIGHT_SEGMENTATION) === "كتاب ناس");
 * ```
 */
export const LIGHT_SEGMENTATION: Segmenter = {
  name: "light",
  segment: (text) => pySplit(removePunctuation(text)).map(lightSegmentToken).join(" "),
};

/** The segmenters the CLI offers by name. */
export const SEGMENTERS: Readonly<Record<string, Segmenter>> = {
  none: NO_SEGMENTATION,
  light: LIGHT_SEGMENTATION,
};
