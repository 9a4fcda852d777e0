/**
 * pRR, Exact Match and F1@1 exactly as the official Qur'an QA 2022 scorer
 * (`quranqa22_eval.py`) computes them, with the prefix segmentation step pluggable.
 *
 * Per record (a gold pq_id): only the first 5 predictions count. A prediction scores 0 on every
 * metric when it is empty or when its normalized form is not a substring of the normalized
 * passage (the span check; it uses normalization without segmentation). Otherwise its F1 against
 * a gold answer is SQuAD's token-multiset F1 on `normalize(removePrefixes(text))`, and EM is
 * string equality of the same forms. pRR takes the first rank i (1..5) whose best F1 over the
 * gold answers is above 0 and scores that F1 / i; EM and F1@1 score the top prediction against
 * its best gold answer. The summary is the mean over every gold record: a missing pq_id scores 0,
 * pq_ids that are not in the gold file are ignored.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { NO_SEGMENTATION, normalizeText, removePrefixes, type Segmenter } from "./normalize.ts";
import type { PassageQuestion, SpanPrediction, SpanRun } from "./types.ts";

/** How many predictions per record the scorer reads. */
export const MAX_PREDICTIONS = 5;

/**
 * The scorer's span check (`find_all_occurences` non-empty): the answer is non-empty and its
 * normalized form occurs in the normalized passage. (An answer that normalizes to the empty
 * string, e.g. `"في"`, passes the check, as in the scorer, and then scores F1 0.)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSpanOfPassage } from "./metrics.ts";
 * const passage = "قال رب اشرح لي صدري. ويسر لي أمري.";
 * assert(isSpanOfPassage(passage, "صدري ويسر")); // the full stop is deleted on both sides
 * assert(!isSpanOfPassage(passage, "صدري، ويسر لي قلبي"));
 * assert(!isSpanOfPassage(passage, ""));
 * ```
 */
export function isSpanOfPassage(passage: string, answer: string): boolean {
  if (answer.length === 0) return false;
  return normalizeText(passage).includes(normalizeText(answer));
}

function comparable(text: string, segmenter: Segmenter): string {
  return normalizeText(removePrefixes(text, segmenter));
}

/**
 * SQuAD token F1 between a prediction and one gold answer on the scorer's normalized,
 * prefix-stripped tokens. The span check is the caller's job (see {@link scoreRecord}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tokenF1 } from "./metrics.ts";
 * // prediction 3 tokens, gold 2, 2 in common: P = 2/3, R = 1, F1 = 0.8
 * assert(Math.abs(tokenF1("ووهبنا له أهله", "له أهله") - 0.8) < 1e-12);
 * assert(tokenF1("", "له") === 0);
 * ```
 */
export function tokenF1(prediction: string, gold: string, segmenter = NO_SEGMENTATION): number {
  if (prediction.length === 0) return 0;
  const predTokens = comparable(prediction, segmenter).split(" ").filter((t) => t !== "");
  const goldTokens = comparable(gold, segmenter).split(" ").filter((t) => t !== "");
  const goldCounts = new Map<string, number>();
  for (const t of goldTokens) goldCounts.set(t, (goldCounts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of predTokens) {
    const left = goldCounts.get(t) ?? 0;
    if (left > 0) {
      same++;
      goldCounts.set(t, left - 1);
    }
  }
  if (same === 0) return 0;
  // Same operations, in the same order, as the scorer, so the doubles agree bit for bit.
  const precision = 1.0 * same / predTokens.length;
  const recall = 1.0 * same / goldTokens.length;
  return (2 * precision * recall) / (precision + recall);
}

/**
 * Exact match (1 or 0) of the normalized, prefix-stripped forms. The span check is the
 * caller's job (see {@link scoreRecord}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exactMatch } from "./metrics.ts";
 * assert(exactMatch("أيوب.", "أيوب") === 1);
 * assert(exactMatch("في سبيل الله", "سبيل الله") === 1); // stopword dropped
 * assert(exactMatch("عبدنا أيوب", "أيوب") === 0);
 * ```
 */
export function exactMatch(prediction: string, gold: string, segmenter = NO_SEGMENTATION): number {
  if (prediction.length === 0) return 0;
  return comparable(prediction, segmenter) === comparable(gold, segmenter) ? 1 : 0;
}

/** How one prediction of a record scored (only the first 5 are scored). */
export interface ScoredPrediction {
  /** 1-based position in the run's list (the scorer's rank). */
  rank: number;
  /** The predicted text. */
  answer: string;
  /** Whether it passed the span check. */
  inPassage: boolean;
  /** Best F1 over the gold answers (0 when outside the passage). */
  f1: number;
  /** Best EM over the gold answers (0 when outside the passage). */
  exactMatch: number;
  /** The gold answer giving the best F1 (first one on ties), or null when F1 is 0. */
  bestGold: string | null;
}

/** The per-record breakdown: what the scorer saw and what each metric gave. */
export interface RecordScore {
  /** The gold record's pq_id. */
  pqId: string;
  /** The question text. */
  question: string;
  /** The gold answer texts. */
  gold: string[];
  /** True when the run has no entry for this pq_id (every metric 0). */
  missing: boolean;
  /** The scored predictions (at most 5), in run order. */
  predictions: ScoredPrediction[];
  /** How many predictions after the 5th were ignored. */
  ignored: number;
  /** The rank that gave pRR (first prediction with F1 > 0), or null. */
  matchedRank: number | null;
  /** The F1 at `matchedRank` (0 when none). */
  matchedF1: number;
  /** Partial reciprocal rank: `matchedF1 / matchedRank`, or 0. */
  pRR: number;
  /** EM of the top prediction, best over the gold answers. */
  exactMatch: number;
  /** F1 of the top prediction, best over the gold answers. */
  f1At1: number;
}

/**
 * Scores one gold record against its predictions (undefined: missing from the run). An empty
 * prediction list scores 0 on every metric (the official scorer crashes on it; the kit's
 * validator reports it as an error).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoreRecord } from "./metrics.ts";
 * const rec = {
 *   pqId: "1:1-2_1", questionId: "1", passageId: "1:1-2", surah: 1, verses: "1-2", line: 1,
 *   passage: "واذكر عبدنا أيوب إذ نادى ربه.", question: "من الصابر؟",
 *   answers: [{ text: "أيوب", start: 12 }],
 * };
 * const s = scoreRecord(rec, [
 *   { answer: "نادى ربه", rank: 1, score: 2 },
 *   { answer: "أيوب", rank: 2, score: 1 },
 * ]);
 * assert(s.pRR === 0.5 && s.matchedRank === 2 && s.f1At1 === 0);
 * ```
 */
export function scoreRecord(
  record: PassageQuestion,
  predictions: SpanPrediction[] | undefined,
  segmenter: Segmenter = NO_SEGMENTATION,
): RecordScore {
  if (record.answers.length === 0) {
    throw new KitError(
      `gold record ${record.pqId} has no answers (the test file without answers cannot be scored)`,
      { line: record.line || undefined },
    );
  }
  const gold = record.answers.map((a) => a.text);
  const counted = (predictions ?? []).slice(0, MAX_PREDICTIONS);
  const scored: ScoredPrediction[] = counted.map((p, i) => {
    const inPassage = isSpanOfPassage(record.passage, p.answer);
    let f1 = 0, em = 0, bestGold: string | null = null;
    if (inPassage) {
      for (const g of gold) {
        const f = tokenF1(p.answer, g, segmenter);
        if (f > f1) {
          f1 = f;
          bestGold = g;
        }
        em = Math.max(em, exactMatch(p.answer, g, segmenter));
      }
    }
    return { rank: i + 1, answer: p.answer, inPassage, f1, exactMatch: em, bestGold };
  });
  const matched = scored.find((p) => p.f1 !== 0);
  return {
    pqId: record.pqId,
    question: record.question,
    gold,
    missing: predictions === undefined,
    predictions: scored,
    ignored: Math.max(0, (predictions?.length ?? 0) - MAX_PREDICTIONS),
    matchedRank: matched?.rank ?? null,
    matchedF1: matched?.f1 ?? 0,
    pRR: matched ? 1.0 * matched.f1 / matched.rank : 0,
    exactMatch: scored[0]?.exactMatch ?? 0,
    f1At1: scored[0]?.f1 ?? 0,
  };
}

/** The result of {@link evaluateQrcd}. */
export interface QrcdEvaluation {
  /** Mean partial reciprocal rank over all gold records (the primary measure). */
  pRR: number;
  /** Mean exact match of the top prediction. */
  exactMatch: number;
  /** Mean F1 of the top prediction. */
  f1At1: number;
  /** Number of gold records (the denominator). */
  records: number;
  /** Gold pq_ids the run lacks (scored 0), in gold order. */
  missing: string[];
  /** Run pq_ids that are not in the gold file (ignored), in run order. */
  extra: string[];
  /** The segmenter's name (`none`, `light`, ...). */
  segmenter: string;
  /** One breakdown per gold record, in gold order. */
  perRecord: RecordScore[];
}

/**
 * Evaluates a span run against gold records the way the official scorer does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluateQrcd } from "./metrics.ts";
 * const rec = (pqId: string) => ({
 *   pqId, questionId: pqId, passageId: "p", surah: 1, verses: "1", line: 1,
 *   passage: "إنا أعطيناك الكوثر.", question: "ماذا أعطي؟",
 *   answers: [{ text: "الكوثر", start: 12 }],
 * });
 * const run = new Map([["a", [{ answer: "الكوثر", rank: 1, score: 1 }]]]);
 * const r = evaluateQrcd([rec("a"), rec("b")], run);
 * assert(r.pRR === 0.5 && r.exactMatch === 0.5 && r.missing[0] === "b");
 * ```
 */
export function evaluateQrcd(
  gold: PassageQuestion[],
  run: SpanRun,
  options: { segmenter?: Segmenter } = {},
): QrcdEvaluation {
  const segmenter = options.segmenter ?? NO_SEGMENTATION;
  const perRecord = gold.map((r) => scoreRecord(r, run.get(r.pqId), segmenter));
  // Left-to-right sums as in the scorer (Python before 3.12 adds floats naively).
  let pRR = 0, em = 0, f1 = 0;
  for (const r of perRecord) {
    pRR += r.pRR;
    em += r.exactMatch;
    f1 += r.f1At1;
  }
  const total = gold.length;
  const goldIds = new Set(gold.map((r) => r.pqId));
  return {
    pRR: total === 0 ? 0 : 1.0 * pRR / total,
    exactMatch: total === 0 ? 0 : 1.0 * em / total,
    f1At1: total === 0 ? 0 : 1.0 * f1 / total,
    records: total,
    missing: perRecord.filter((r) => r.missing).map((r) => r.pqId),
    extra: [...run.keys()].filter((id) => !goldIds.has(id)),
    segmenter: segmenter.name,
    perRecord,
  };
}

/** One flat row per gold record, for tables in notebooks and reports. */
export interface RecordRow {
  pq_id: string;
  question: string;
  /** The gold answers joined with " | ". */
  gold: string;
  /** The top prediction ("" when none). */
  top_answer: string;
  /** The rank that gave pRR, or null. */
  matched_rank: number | null;
  /** The answer at that rank ("" when none). */
  matched_answer: string;
  /** Its F1. */
  matched_f1: number;
  pRR: number;
  exact_match: number;
  "f1@1": number;
  /** Predictions the scorer read (at most 5). */
  predictions: number;
  /** True when the run has no entry for this pq_id. */
  missing: boolean;
}

/**
 * Flattens the per-record breakdown into rows (plain objects, one per gold record, gold order).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluateQrcd, recordRows } from "./metrics.ts";
 * const rec = {
 *   pqId: "a", questionId: "a", passageId: "p", surah: 1, verses: "1", line: 1,
 *   passage: "إنا أعطيناك الكوثر.", question: "ماذا أعطي؟",
 *   answers: [{ text: "الكوثر", start: 12 }],
 * };
 * const run = new Map([["a", [{ answer: "أعطيناك", rank: 1, score: 2 }, { answer: "الكوثر", rank: 2, score: 1 }]]]);
 * const [row] = recordRows(evaluateQrcd([rec], run));
 * assert.deepEqual([row.matched_rank, row.matched_answer, row.pRR], [2, "الكوثر", 0.5]);
 * ```
 */
export function recordRows(evaluation: QrcdEvaluation): RecordRow[] {
  return evaluation.perRecord.map((r) => {
    const matched = r.matchedRank === null ? undefined : r.predictions[r.matchedRank - 1];
    return {
      pq_id: r.pqId,
      question: r.question,
      gold: r.gold.join(" | "),
      top_answer: r.predictions[0]?.answer ?? "",
      matched_rank: r.matchedRank,
      matched_answer: matched?.answer ?? "",
      matched_f1: r.matchedF1,
      pRR: r.pRR,
      exact_match: r.exactMatch,
      "f1@1": r.f1At1,
      predictions: r.predictions.length,
      missing: r.missing,
    };
  });
}
