/**
 * Lexical retrieval over the Qur'an QA 2023 passage collection: BM25, Word Cnt and Wgt Word Cnt
 * (lib/scoring/lexical.ts) with collection statistics over all 1,266 passages, the run file the
 * official checker accepts, and `score --dataset qqa23`'s work.
 *
 * Arabic normalisation ({@link normalizeArabic}), applied to passages and questions alike. The
 * collection is Tanzil's simple-clean text: no diacritics, no tatweel, hamza written on its seat
 * (أ إ آ ؤ ئ ء), final ى and ي told apart, ة told apart from ه. The questions are typed MSA:
 * some carry harakat, shadda, tanween, a tatweel, and punctuation (؟ ، " : ( )). So:
 * - removed: harakat, tanween, shadda, sukun and the other combining marks U+064B-U+065F,
 *   superscript alef U+0670, the Qur'anic annotation marks U+06D6-U+06ED, tatweel U+0640, and
 *   zero-width and direction marks; punctuation separates words (the tokeniser keeps letters,
 *   digits and marks only: lib/scoring/text.ts `words`);
 * - alef unified (أ إ آ ٱ to ا): question writers drop the hamza (ابراهيم, الارض, القران, الى,
 *   اسماء; 20 question words absent from the collection are found once unified), and what it
 *   merges inside the collection is mostly a particle with its variants (أن/إن, إلا/ألا);
 * - final yaa unified (ى to ي): questions written in the Egyptian style (بنى, الذى) then find
 *   the collection's بني, الذي; the merges it makes in the collection (على with the rare علي)
 *   change no dev or test number;
 * - taa marbuta kept (ة not made ه): unifying it finds no question word the collection has
 *   and merges different words (ملكة with ملكه "his kingdom", أمة with أمه);
 * - no stemming (a `stem` function may be given), and question stopwords
 *   ({@link ARABIC_STOPWORDS}: question words, pronouns, particles) dropped from questions.
 *
 * Ranking: a passage scoring 0 (sharing no term with the question) is never returned; ties are
 * ordered as trec_eval orders them (passage id descending), so the written ranks and trec_eval's
 * reading agree. A question no passage matches, or whose best score is below `abstainBelow`, is
 * answered with `-1` alone: the official scorer's "no answer in the Qur'an".
 *
 * @module
 */
import { QQA23_MODELS } from "./task.ts";
import { KitError } from "../errors.ts";
import { bm25Words, collectionStats, idf, type LexicalKind } from "../scoring/lexical.ts";
import { words } from "../scoring/text.ts";
import {
  isQqa23Split,
  loadQqa23Split,
  QQA23_SPLITS,
  type Qqa23Question,
  type Qqa23Split,
} from "./load.ts";

/** At most this many passages a question in a run (the official checker's limit). */
export const QQA23_MAX_DEPTH = 10;

/** The lexical models, by their `score --model` spec: the task entry's list (./task.ts). */
export const QQA23_MODEL_SPECS: readonly string[] = QQA23_MODELS;

// Combining marks (harakat, tanween, shadda, sukun, maddah, hamza marks), superscript alef,
// Qur'anic annotation marks, tatweel, zero-width and direction marks, byte order mark.
const STRIPPED = /[\u064B-\u065F\u0670\u06D6-\u06ED\u0640\u200B-\u200F\u2066-\u2069\uFEFF]/g;
const ALEF = /[\u0623\u0625\u0622\u0671]/g; // أ إ آ ٱ

/**
 * The normalisation of the module doc: marks, tatweel and invisible marks removed, أ إ آ ٱ to ا,
 * ى to ي; ة and the hamza on waw and yaa kept. Punctuation is left for the tokeniser.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeArabic } from "./retrieve.ts";
 * assert.equal(normalizeArabic("إِبْرَاهِيمُ"), "ابراهيم");
 * assert.equal(normalizeArabic("إلى الذى في الجنّة؟"), "الي الذي في الجنة؟");
 * assert.equal(normalizeArabic("بـــسم"), "بسم");
 * ```
 */
export function normalizeArabic(text: string): string {
  return text.replace(STRIPPED, "").replace(ALEF, "\u0627").replace(/\u0649/g, "\u064A");
}

/**
 * The terms of a text: {@link normalizeArabic}, then the kit's word tokeniser (letters, digits
 * and marks; punctuation separates), then `stem` on each word when given.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { arabicTerms } from "./retrieve.ts";
 * assert.deepEqual(arabicTerms("ما هِيَ شجرةُ الزقوم؟"), ["ما", "هي", "شجرة", "الزقوم"]);
 * const noArticle = (w: string) => w.replace(/^ال(?=..)/, "");
 * assert.deepEqual(arabicTerms("الزقوم", noArticle), ["زقوم"]);
 * ```
 */
export function arabicTerms(text: string, stem?: (word: string) => string): string[] {
  const ws = words(normalizeArabic(text));
  // Re-tokenised after stemming, so that a term is always one word of `words` (the collection
  // statistics count words of the joined terms).
  return stem ? words(ws.map(stem).join(" ")) : ws;
}

/**
 * Words dropped from questions before matching (in {@link normalizeArabic}'s form): question
 * words, pronouns, demonstratives, relatives, prepositions and particles. A question's content
 * words are its nouns and verbs; these occur in most passages and add only noise.
 */
export const ARABIC_STOPWORDS: ReadonlySet<string> = new Set(
  ("ما ماذا من هل كيف كم متي اين لماذا اي هو هي هم هن انت انا نحن هذا هذه ذلك تلك الذي " +
    "التي الذين في علي الي عن مع منذ حتي ثم او ام ان لا لن لم قد بل كل بعض عند غير بين قبل " +
    "بعد عليه عليها عليهم فيه فيها فيهم له لها لهم به بها بهم منه منها منهم الا اذا اذ كان " +
    "كانت يكون تكون وما ومن وهل وكيف فما").split(" "),
);

/** Options of {@link retrieve}. */
export interface RetrieveOptions {
  /** `bm25` (default), `wordcnt` or `wgtwordcnt` (Yang et al.'s counts, IDF-weighted). */
  model?: LexicalKind;
  /** Passages returned a question (default 10). */
  depth?: number;
  /** Answer `-1` alone for a question whose best score is below this. */
  abstainBelow?: number;
  /** Words dropped from questions (default {@link ARABIC_STOPWORDS}; an empty set keeps all). */
  stopwords?: ReadonlySet<string>;
  /** A stemmer applied to every word of passages and questions (default: none). */
  stem?: (word: string) => string;
  /** BM25's k1 (default 1.2) and b (default 0.75). */
  k1?: number;
  b?: number;
}

/** One ranked passage. */
export interface RankedPassage {
  id: string;
  score: number;
}

/** A question's answer: its ranked passages, or an abstention (`-1` alone in the run). */
export interface Qqa23Ranking {
  questionId: string;
  /** Best score first; empty when abstained. */
  passages: RankedPassage[];
  /** Whether the run answers `-1` (no answer in the Qur'an). */
  abstained: boolean;
  /** The best passage's score (0 when no passage matched), also when abstained. */
  topScore: number;
}

/** trec_eval's order: score descending, then passage id descending. */
export function byTrecOrder(a: RankedPassage, b: RankedPassage): number {
  return b.score - a.score || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/**
 * Ranks the whole collection for every question with a lexical model (statistics over the
 * collection), keeping the best `depth` passages with a score above 0. A question with no
 * matching passage, or whose best score is below `abstainBelow`, is abstained.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { retrieve } from "./retrieve.ts";
 * const collection = new Map([
 *   ["1:1-2", "النحل يصنع العسل."], ["1:3-4", "السفينة تجري في البحر."], ["2:1-5", "المطر ينزل."],
 * ]);
 * const questions = [{ id: "1", text: "ماذا يَصنعُ النحل؟" }, { id: "2", text: "ما لون الكتاب؟" }];
 * const [bees, book] = retrieve(collection, questions, { depth: 2 });
 * assert.deepEqual(bees.passages.map((p) => p.id), ["1:1-2"]);
 * assert(book.abstained && book.passages.length === 0); // no passage shares a word
 * const strict = retrieve(collection, questions, { abstainBelow: 100 });
 * assert(strict[0].abstained && strict[0].topScore > 0);
 * ```
 */
export function retrieve(
  collection: ReadonlyMap<string, string>,
  questions: Iterable<Qqa23Question> | ReadonlyMap<string, string>,
  options: RetrieveOptions = {},
): Qqa23Ranking[] {
  const model = options.model ?? "bm25";
  const depth = options.depth ?? QQA23_MAX_DEPTH;
  if (!Number.isInteger(depth) || depth < 1) {
    throw new KitError(`depth ${depth}: expected a whole number of passages, at least 1`);
  }
  const stop = options.stopwords ?? ARABIC_STOPWORDS;
  const ids = [...collection.keys()];
  const docs = [...collection.values()].map((t) => arabicTerms(t, options.stem));
  const stats = collectionStats(docs.map((d) => d.join(" ")));
  const docSets = model === "bm25" ? [] : docs.map((d) => new Set(d));
  const list = questions instanceof Map
    ? [...questions].map(([id, text]) => ({ id, text }))
    : [...questions as Iterable<Qqa23Question>];
  return list.map((q) => {
    const all = arabicTerms(q.text, options.stem).filter((w) => !stop.has(w));
    const distinct = [...new Set(all)];
    const scored: RankedPassage[] = [];
    for (let i = 0; i < docs.length; i++) {
      let score = 0;
      if (model === "bm25") {
        score = bm25Words(all, docs[i], stats, options.k1, options.b);
      } else {
        // Word Cnt / Wgt Word Cnt (lexical.ts' wordCount, weightedWordCount) on the terms.
        for (const w of distinct) {
          if (docSets[i].has(w)) score += model === "wordcnt" ? 1 : idf(stats, w);
        }
      }
      if (score > 0) scored.push({ id: ids[i], score });
    }
    return rankingOf(q.id, scored.sort(byTrecOrder), depth, options.abstainBelow);
  });
}

/**
 * A question's ranking from its passages in trec_eval's order: the first `depth`, or `-1` alone
 * (abstained) when there is none or the top score is below `abstainBelow`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rankingOf } from "./retrieve.ts";
 * const p = [{ id: "2:1-5", score: 3 }, { id: "1:1-7", score: 1 }];
 * assert.deepEqual(rankingOf("7", p, 1).passages, [p[0]]);
 * assert.equal(rankingOf("7", p, 10, 5).abstained, true);
 * assert.equal(rankingOf("7", [], 10).abstained, true);
 * ```
 */
export function rankingOf(
  questionId: string,
  sorted: RankedPassage[],
  depth: number,
  abstainBelow?: number,
): Qqa23Ranking {
  const topScore = sorted.length ? sorted[0].score : 0;
  const abstained = sorted.length === 0 || (abstainBelow !== undefined && topScore < abstainBelow);
  return { questionId, passages: abstained ? [] : sorted.slice(0, depth), abstained, topScore };
}

/**
 * A number as a plain decimal, never with an exponent (the checker's `^-?\d+(?:\.\d+)?$`): the
 * shortest digits that read back as the same number (JavaScript's), with the point moved by hand
 * where `String` would write `1e-7` or `1e+21`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plainDecimal } from "./retrieve.ts";
 * assert.equal(plainDecimal(12.5), "12.5");
 * assert.equal(plainDecimal(1.5e-7), "0.00000015");
 * assert.equal(plainDecimal(-2e21), "-2000000000000000000000");
 * assert.equal(plainDecimal(-0), "0");
 * assert.throws(() => plainDecimal(NaN), /not a finite number/);
 * ```
 */
export function plainDecimal(x: number): string {
  if (!Number.isFinite(x)) throw new KitError(`score ${x} is not a finite number`);
  if (x === 0) return "0";
  const s = String(x);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, lead, rest = "", e] = m;
  const digits = lead + rest;
  const point = 1 + Number(e); // digits before the decimal point
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + "0".repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * The run file of a ranking: `qid\tQ0\tdocid\trank\tscore\ttag` lines (rank from 1, scores as
 * plain decimals), an abstained question as the one line with docid `-1`. Refuses what the
 * official checker refuses: more than 10 lines a question, a repeated (question, passage) pair,
 * and what would break its columns (an id or tag with white space, an empty one); and a question
 * with neither passages nor abstention (the official scorer would leave it out).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatQqa23Run } from "./retrieve.ts";
 * const text = formatQqa23Run([
 *   { questionId: "1", passages: [{ id: "2:1-5", score: 3.5 }, { id: "1:1-2", score: 1e-7 }],
 *     abstained: false, topScore: 3.5 },
 *   { questionId: "2", passages: [], abstained: true, topScore: 0.2 },
 * ], "kitBM25");
 * assert.equal(text, "1\tQ0\t2:1-5\t1\t3.5\tkitBM25\n1\tQ0\t1:1-2\t2\t0.0000001\tkitBM25\n" +
 *   "2\tQ0\t-1\t1\t0\tkitBM25\n");
 * ```
 */
export function formatQqa23Run(ranking: readonly Qqa23Ranking[], tag: string): string {
  const plain = (what: string, s: string) => {
    if (!/^\S+$/.test(s)) throw new KitError(`${what} "${s}" is empty or has white space`);
  };
  plain("run tag", tag);
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const r of ranking) {
    plain("question id", r.questionId);
    if (seen.has(r.questionId)) {
      throw new KitError(`question ${r.questionId} is ranked twice`);
    }
    seen.add(r.questionId);
    if (r.abstained) {
      lines.push(`${r.questionId}\tQ0\t-1\t1\t0\t${tag}`);
      continue;
    }
    if (r.passages.length === 0) {
      throw new KitError(
        `question ${r.questionId} has no passage and is not abstained (the official scorer ` +
          "leaves such a question out): abstain with -1 or rank passages",
      );
    }
    if (r.passages.length > QQA23_MAX_DEPTH) {
      throw new KitError(
        `question ${r.questionId} has ${r.passages.length} passages; the official checker ` +
          `allows at most ${QQA23_MAX_DEPTH}`,
      );
    }
    const docs = new Set<string>();
    r.passages.forEach((p, i) => {
      plain("passage id", p.id);
      if (docs.has(p.id)) throw new KitError(`question ${r.questionId} ranks ${p.id} twice`);
      docs.add(p.id);
      lines.push(`${r.questionId}\tQ0\t${p.id}\t${i + 1}\t${plainDecimal(p.score)}\t${tag}`);
    });
  }
  return lines.map((l) => l + "\n").join("");
}

/** Options of {@link scoreQqa23Split}. */
export interface ScoreQqa23Options {
  /** The folder holding `qqa23/` (default: the cache). */
  dir?: string;
  /** Passages a question, 1-10 (default 10). */
  depth?: number;
  /** Answer `-1` for a question whose best score is below this. */
  abstainBelow?: number;
  /** The run's tag (default: the model spec). */
  tag?: string;
}

/** What {@link scoreQqa23Split} made. */
export interface ScoreQqa23Result {
  /** The run file's text. */
  text: string;
  /** Questions in the run (every question of the split). */
  questions: number;
  /** Of them, answered `-1`. */
  abstained: number;
}

/** The lexical kind of a `lexical:*` model spec, or the error listing the specs. */
function lexicalKind(spec: string): LexicalKind {
  if (!QQA23_MODEL_SPECS.includes(spec)) {
    throw new KitError(
      `--model ${spec}: Qur'an QA 2023 passage retrieval ranks the whole collection with ` +
        QQA23_MODEL_SPECS.join(", "),
    );
  }
  return spec.slice("lexical:".length) as LexicalKind;
}

/**
 * `score --dataset qqa23`: ranks the collection for every question of a split (a name the user
 * typed: `train`, `dev` or `test`, checked here) with a lexical model (`lexical:bm25`, `lexical:wordcnt`, `lexical:wgtwordcnt`) and returns the run file's text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PROJECT_ROOT } from "../data/paths.ts";
 * import { scoreQqa23Split } from "./retrieve.ts";
 * const dir = `${PROJECT_ROOT}/tests/fixtures/qqa23`;
 * const r = await scoreQqa23Split("lexical:bm25", "dev", { dir, tag: "kitBM25" });
 * assert(r.questions === 3 && r.abstained === 1);
 * assert(r.text.startsWith("1\tQ0\t1:1-3\t1\t"));
 * await assert.rejects(scoreQqa23Split("ltr", "dev", { dir }), /lexical:bm25/);
 * ```
 */
export async function scoreQqa23Split(
  model: string,
  split: Qqa23Split | string,
  options: ScoreQqa23Options = {},
): Promise<ScoreQqa23Result> {
  const kind = lexicalKind(model);
  if (!isQqa23Split(split)) {
    throw new KitError(`unknown qqa23 split '${split}' (expected: ${QQA23_SPLITS.join(", ")})`);
  }
  const depth = options.depth ?? QQA23_MAX_DEPTH;
  if (!Number.isInteger(depth) || depth < 1 || depth > QQA23_MAX_DEPTH) {
    throw new KitError(
      `depth ${depth}: a Qur'an QA 2023 run has 1 to ${QQA23_MAX_DEPTH} passages a question`,
    );
  }
  if (options.abstainBelow !== undefined && !Number.isFinite(options.abstainBelow)) {
    throw new KitError(`abstain-below ${options.abstainBelow} is not a finite number`);
  }
  const data = await loadQqa23Split(split, { dir: options.dir });
  const ranking = retrieve(data.collection, data.questions, {
    model: kind,
    depth,
    abstainBelow: options.abstainBelow,
  });
  return {
    text: formatQqa23Run(ranking, options.tag ?? model),
    questions: ranking.length,
    abstained: ranking.filter((r) => r.abstained).length,
  };
}
