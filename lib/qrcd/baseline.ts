/**
 * An offline baseline for QRCD that needs no model: candidate spans are the passage's verses
 * and windows of consecutive words inside them, ranked by how many of the question's content
 * words they contain. It exists so the whole pipeline (load, run file, validate, score) can be
 * shown without downloads, and as a floor any trained reader should beat.
 *
 * @module
 */
import { lightSegmentToken, normalizeText, pySplit, removePunctuation } from "./normalize.ts";
import type { PassageQuestion, SpanPrediction, SpanRun } from "./types.ts";

/**
 * Question words and particles that say what is asked, not what the answer is about; they are
 * not counted as overlap (the scorer's seven stopwords are removed by normalization already).
 */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(
  ("ما ماذا من هي هو هم هل كيف لماذا متى أين اين كم أي اي الذي التي الذين اللذين ذكر " +
    "ذكرت ورد وردت القرآن القران الآيات آيات آية عن على في إلى الى مع ان أن إن أو او لا لم لن قد كل بعض تلك ذلك هذه هذا يوجد توجد")
    .split(" "),
);

/** Options of {@link overlapBaseline}. */
export interface BaselineOptions {
  /** Window lengths in words, besides whole verses. Default `[]`: whole verses only, which
   * scored best on the train split (windows of 3-12 words lowered pRR from 0.239 to 0.12-0.16). */
  windows?: number[];
  /** Predictions per record. Default 5. */
  topK?: number;
}

interface Token {
  start: number;
  end: number;
  key: string;
  verseEnd: boolean;
}

function tokens(passage: string): Token[] {
  const out: Token[] = [];
  for (const m of passage.matchAll(/\S+/g)) {
    const start = m.index!;
    const text = m[0];
    // Keys compare words without punctuation and clitic prefixes (و ف ب ك ل لل ال).
    const bare = removePunctuation(text);
    out.push({
      start,
      end: start + text.length,
      key: lightSegmentToken(bare).split("+").at(-1) ?? bare,
      verseEnd: /[.]$/.test(text),
    });
  }
  return out;
}

/**
 * The content words of a question, as prefix-stripped keys.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { questionKeys } from "./baseline.ts";
 * assert([...questionKeys("من هو النبي المعروف بالصبر؟")].join(" ") === "نبي معروف صبر");
 * ```
 */
export function questionKeys(question: string): Set<string> {
  const keys = new Set<string>();
  for (const t of pySplit(normalizeText(question))) {
    if (QUESTION_WORDS.has(t)) continue;
    keys.add(lightSegmentToken(t).split("+").at(-1)!);
  }
  return keys;
}

/**
 * Ranks candidate spans of one record. Each candidate is a whole verse or a window of `w` words
 * that does not cross a verse end; its score is the number of distinct question keys it contains
 * divided by the number of keys (0 when the question has none), minus a tiny penalty growing
 * with its start offset and length, so that ties go to earlier and shorter spans and no two
 * scores are equal. Texts are copied from the passage, so every prediction passes the span check.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rankSpans } from "./baseline.ts";
 * const rec = {
 *   pqId: "1:1_1", questionId: "1", passageId: "1:1", surah: 1, verses: "1", line: 0,
 *   passage: "واذكر عبدنا أيوب إذ نادى ربه. إنا وجدناه صابرا نعم العبد.",
 *   question: "من هو العبد الصابر؟", answers: [],
 * };
 * const top = rankSpans(rec);
 * assert(top.length === 2 && top[0].answer === "إنا وجدناه صابرا نعم العبد");
 * assert(top.every((p, i) => i === 0 || p.score < top[i - 1].score));
 * ```
 */
export function rankSpans(
  record: PassageQuestion,
  options: BaselineOptions = {},
): SpanPrediction[] {
  const windows = options.windows ?? [];
  const topK = options.topK ?? 5;
  const toks = tokens(record.passage);
  const keys = questionKeys(record.question);
  const seen = new Set<string>();
  const candidates: { answer: string; score: number }[] = [];
  const add = (from: number, to: number) => {
    // [from, to) in tokens; the text ends before a verse-final full stop.
    const start = toks[from].start;
    let end = toks[to - 1].end;
    if (toks[to - 1].verseEnd) end--;
    const answer = record.passage.slice(start, end);
    if (answer.length === 0 || seen.has(answer)) return;
    seen.add(answer);
    let hits = 0;
    const inSpan = new Set(toks.slice(from, to).map((t) => t.key));
    for (const k of keys) if (inSpan.has(k)) hits++;
    const overlap = keys.size === 0 ? 0 : hits / keys.size;
    const penalty = 1e-6 * (start / (record.passage.length + 1)) + 1e-9 * (to - from);
    candidates.push({ answer, score: overlap - penalty });
  };
  // Verses: maximal token runs ending with a full stop.
  const verses: [number, number][] = [];
  let begin = 0;
  toks.forEach((t, i) => {
    if (t.verseEnd || i === toks.length - 1) {
      verses.push([begin, i + 1]);
      begin = i + 1;
    }
  });
  for (const [from, to] of verses) {
    add(from, to);
    for (const w of windows) {
      for (let s = from; s + w <= to && w < to - from; s++) add(s, s + w);
    }
  }
  candidates.sort((a, b) => b.score - a.score);
  return candidates.slice(0, topK).map((c, i) => ({
    answer: c.answer,
    rank: i + 1,
    score: c.score,
  }));
}

/**
 * Builds the baseline run for a set of records (answers are not read, so it works on the test
 * file without answers).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { overlapBaseline } from "./baseline.ts";
 * const rec = {
 *   pqId: "108:1_1", questionId: "1", passageId: "108:1", surah: 108, verses: "1", line: 0,
 *   passage: "إنا أعطيناك الكوثر.", question: "ما هو الكوثر؟", answers: [],
 * };
 * const run = overlapBaseline([rec]);
 * assert(run.get("108:1_1")?.[0].answer === "إنا أعطيناك الكوثر");
 * ```
 */
export function overlapBaseline(
  records: PassageQuestion[],
  options: BaselineOptions = {},
): SpanRun {
  const run: SpanRun = new Map();
  for (const r of records) run.set(r.pqId, rankSpans(r, options));
  return run;
}
