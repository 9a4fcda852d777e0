/**
 * The computations the notebooks show, kept here so that a notebook cell stays one call:
 * split-size tables against the published sizes, question overlap between splits, the
 * leak of a split by judgment, what each filter removes, one run evaluated under every
 * filter setting, and per-question views of a run (first correct rank, AP against the
 * number of candidates, precision at k).
 *
 * @module
 */
import { applyFilter, type FilterName, FILTERS, questionKind } from "../data/filters.ts";
import { loadSplit, SPLITS } from "../data/splits.ts";
import { splitStats } from "../data/stats.ts";
import type { As2Dataset, Question } from "../data/types.ts";
import { evaluate, type Run } from "../metrics/evaluate.ts";
import { qrelsFromQuestions, runFromScores } from "../metrics/convert.ts";
import { scoreSplit } from "../scoring/pipeline.ts";
import { bootstrapCI } from "../stats/significance.ts";
import { analyzeTies } from "../stats/ties.ts";
import { rankDocuments } from "../metrics/rank.ts";
import type { Row } from "../plot/table.ts";
import { bar, type Figure } from "../plot/figures.ts";
import { normalizeText, removePrefixes, type Segmenter } from "../qrcd/normalize.ts";
import type { QrcdEvaluation, RecordScore } from "../qrcd/metrics.ts";
import { loadQrcdSplit, qrcdStats } from "../qrcd/load.ts";
import type { PassageQuestion } from "../qrcd/types.ts";
import { PUBLISHED_QRCD_SIZES, PUBLISHED_SIZES } from "./reference.ts";

/**
 * Every split of `dataset` under every filter, with the kit's counts next to the published
 * ones (empty where nothing was published).
 */
export async function splitSizeRows(dataset: As2Dataset, dir: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const split of SPLITS[dataset]) {
    const { questions } = await loadSplit(dataset, split, { dir });
    for (const filter of FILTERS) {
      const kept = applyFilter(questions, filter).questions;
      const s = splitStats(kept);
      const pub = PUBLISHED_SIZES[dataset]?.[split]?.[filter];
      rows.push({
        split,
        filter,
        questions: s.questions,
        candidates: s.candidates,
        correct: s.positives,
        "published questions": pub?.questions,
        "published candidates": pub?.candidates,
        source: pub?.source,
      });
    }
  }
  return rows;
}

/** Questions per kind (mixed, all-negative, all-positive, no candidates) of each split. */
export async function questionKindRows(dataset: As2Dataset, dir: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const split of SPLITS[dataset]) {
    const { questions } = await loadSplit(dataset, split, { dir });
    const s = splitStats(questions);
    rows.push({
      split,
      questions: s.questions,
      "with a correct answer": s.questions - s.allNegative - s.noCandidates,
      "all candidates correct": s.allPositive,
      "no correct candidate": s.allNegative,
      "no candidates": s.noCandidates,
    });
  }
  return rows;
}

function normalizeQuestion(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * For each pair of splits, how many question ids and question texts (lower-cased) they
 * share. A split by question keeps both at 0 for ids.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { questionOverlap } from "./lessons.ts";
 * const q = (id: string, text: string) => ({ id, text, candidates: [] });
 * const rows = questionOverlap({ train: [q("1", "Who?")], test: [q("2", "who?")] });
 * assert(rows[0]["shared ids"] === 0 && rows[0]["shared texts"] === 1);
 * ```
 */
export function questionOverlap(splits: Record<string, readonly Question[]>): Row[] {
  const names = Object.keys(splits);
  const rows: Row[] = [];
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const a = splits[names[i]], b = splits[names[j]];
      const idsA = new Set(a.map((q) => q.id));
      const textsA = new Set(a.map((q) => normalizeQuestion(q.text)));
      rows.push({
        splits: `${names[i]} / ${names[j]}`,
        "shared ids": b.filter((q) => idsA.has(q.id)).length,
        "shared texts": new Set(
          b.map((q) => normalizeQuestion(q.text)).filter((t) => textsA.has(t)),
        ).size,
      });
    }
  }
  return rows;
}

/** A small seeded generator (mulberry32), so the lessons are reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What splitting by judgment (candidate) instead of by question does. */
export interface JudgmentSplitLeak {
  /** Judgments put into the test side. */
  testJudgments: number;
  /** Questions with at least one test judgment. */
  testQuestions: number;
  /**
   * Of those, questions whose candidates are divided between train and test: the model
   * trains on the question, and the test ranks only part of its candidate list.
   */
  testQuestionsAlsoInTrain: number;
}

/**
 * Splits the judgments (question, candidate) of `questions` at random, `testFraction` to
 * test, and counts how many test questions leak into train and lose part of their
 * candidate list. (A split by question has 0 of both.)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgmentSplitLeak } from "./lessons.ts";
 * const qs = [{ id: "q", text: "", candidates: [0, 1, 2, 3].map((i) => ({ id: `${i}`, text: "", label: 0 })) }];
 * const leak = judgmentSplitLeak(qs, 0.5, 1);
 * assert(leak.testQuestions === 1);
 * ```
 */
export function judgmentSplitLeak(
  questions: readonly Question[],
  testFraction: number,
  seed: number,
): JudgmentSplitLeak {
  const random = seededRandom(seed);
  let testJudgments = 0, testQuestions = 0, divided = 0;
  for (const q of questions) {
    let inTest = 0;
    for (let i = 0; i < q.candidates.length; i++) if (random() < testFraction) inTest++;
    testJudgments += inTest;
    if (inTest === 0) continue;
    testQuestions++;
    if (inTest < q.candidates.length) divided++;
  }
  return { testJudgments, testQuestions, testQuestionsAlsoInTrain: divided };
}

/** One example question per kind that a filter drops. */
export function filterExamples(questions: readonly Question[]): Row[] {
  const rows: Row[] = [];
  for (const kind of ["allNegative", "allPositive", "noCandidates", "mixed"] as const) {
    const q = questions.find((x) => questionKind(x) === kind);
    if (!q) continue;
    const removedBy = kind === "mixed"
      ? "kept by every setting"
      : kind === "allPositive"
      ? "clean"
      : "no-all and clean";
    rows.push({
      kind,
      "removed by": removedBy,
      question: q.text,
      candidates: q.candidates.length,
      correct: q.candidates.filter((c) => c.label > 0).length,
    });
  }
  return rows;
}

/**
 * One run evaluated on the questions kept by each filter setting (trec_eval semantics:
 * a question without a correct candidate scores 0, one with only correct candidates 1).
 */
export function evaluateUnderFilters(
  questions: readonly Question[],
  run: Run,
  measures: readonly string[] = ["map", "recip_rank"],
): Row[] {
  return FILTERS.map((filter: FilterName) => {
    const kept = applyFilter(questions, filter).questions;
    const r = evaluate(qrelsFromQuestions(kept), run, measures, { warn: false });
    return { filter, questions: r.numQ, ...r.summary };
  });
}

/** Per-question view of a run: candidates, correct ones, rank of the first correct one. */
export interface QuestionView {
  id: string;
  candidates: number;
  correct: number;
  /** 1-based rank of the first correct candidate in trec_eval order; 0 when none. */
  firstCorrectRank: number;
}

/**
 * The rank of the first correct candidate of every question of `run` (trec_eval order:
 * score descending, ties by docno descending).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { questionViews } from "./lessons.ts";
 * const qs = [{ id: "q", text: "", candidates: [
 *   { id: "a", text: "", label: 1 }, { id: "b", text: "", label: 0 }] }];
 * const run = new Map([["q", new Map([["a", 0.1], ["b", 0.9]])]]);
 * assert(questionViews(qs, run)[0].firstCorrectRank === 2);
 * ```
 */
export function questionViews(questions: readonly Question[], run: Run): QuestionView[] {
  return questions.filter((q) => run.has(q.id)).map((q) => {
    const labels = new Map(q.candidates.map((c) => [c.id, c.label]));
    const ranked = rankDocuments(run.get(q.id)!);
    const first = ranked.findIndex((d) => (labels.get(d) ?? 0) > 0);
    return {
      id: q.id,
      candidates: q.candidates.length,
      correct: q.candidates.filter((c) => c.label > 0).length,
      firstCorrectRank: first + 1,
    };
  });
}

/**
 * Mean precision at k = 1..maxK of a run (trec_eval's P.k: divided by k even when fewer
 * candidates exist).
 */
export function precisionAtK(
  questions: readonly Question[],
  run: Run,
  maxK = 10,
): { k: number[]; precision: number[] } {
  const ks = Array.from({ length: maxK }, (_, i) => i + 1);
  const r = evaluate(qrelsFromQuestions(questions), run, ks.map((k) => `P.${k}`), { warn: false });
  return { k: ks, precision: ks.map((k) => r.summary[`P_${k}`]) };
}

/**
 * What the QRCD scorer does to a text, step by step: clitic segmentation (a pluggable
 * segmenter; `none` is the official scorer without Farasa), prefix removal, then the
 * normalization (punctuation deleted, the stopword tokens dropped, whitespace collapsed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizationSteps } from "./lessons.ts";
 * import { LIGHT_SEGMENTATION } from "../qrcd/normalize.ts";
 * const rows = normalizationSteps("من شر الوسواس الخناس.", LIGHT_SEGMENTATION);
 * assert.equal(rows[1].text, "من شر ال+وسواس ال+خناس");
 * assert.equal(rows.at(-1)!.text, "شر وسواس خناس");
 * ```
 */
export function normalizationSteps(text: string, segmenter: Segmenter): Row[] {
  const segmented = segmenter.segment(text);
  const stripped = removePrefixes(text, segmenter);
  return [
    { step: "original", text },
    { step: `segmented (${segmenter.name})`, text: segmented },
    { step: "clitic prefixes removed", text: stripped },
    { step: "punctuation and stopwords removed", text: normalizeText(stripped) },
  ];
}

/**
 * QRCD results per question: a question is asked of several passages (records); its
 * scores are the means over its records.
 */
export function qrcdByQuestion(
  gold: readonly PassageQuestion[],
  evaluation: QrcdEvaluation,
): Row[] {
  const byQuestion = new Map<string, { question: string; scores: RecordScore[] }>();
  evaluation.perRecord.forEach((score, i) => {
    const id = gold[i].questionId;
    const entry = byQuestion.get(id) ?? { question: gold[i].question, scores: [] };
    entry.scores.push(score);
    byQuestion.set(id, entry);
  });
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return [...byQuestion.entries()].map(([id, { question, scores }]) => ({
    "question id": id,
    question,
    records: scores.length,
    pRR: mean(scores.map((s) => s.pRR)),
    EM: mean(scores.map((s) => s.exactMatch)),
    "F1@1": mean(scores.map((s) => s.f1At1)),
  })).sort((a, b) => b.pRR - a.pRR);
}

/** Records, questions, passages and answers of each QRCD split next to the published ones. */
export async function qrcdSizeRows(dir: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const split of ["train", "dev", "test"] as const) {
    const s = qrcdStats(await loadQrcdSplit(split, { dir }));
    const pub = PUBLISHED_QRCD_SIZES[split];
    rows.push({
      split,
      records: s.records,
      questions: s.questions,
      passages: s.passages,
      answers: s.answers,
      "published records": pub.records,
      "published questions": pub.questions,
      "published answers": pub.answers,
    });
  }
  return rows;
}

/**
 * The gold answer of at most `maxWords` words that normalization changes most (most tokens
 * removed, then most characters), to show the steps on a real example.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mostChangedAnswer } from "./lessons.ts";
 * import { NO_SEGMENTATION } from "../qrcd/normalize.ts";
 * const r = { pqId: "p_1", questionId: "1", passageId: "p", surah: 1, verses: "1", line: 1,
 *   passage: "", question: "", answers: [{ text: "شر ما خلق", start: 0 }, { text: "من شر ما خلق.", start: 0 }] };
 * assert(mostChangedAnswer([r], NO_SEGMENTATION) === "من شر ما خلق.");
 * ```
 */
export function mostChangedAnswer(
  records: readonly PassageQuestion[],
  segmenter: Segmenter,
  maxWords = 12,
): string {
  let best = "", bestScore = -1;
  for (const r of records) {
    for (const a of r.answers) {
      if (a.text.split(" ").length > maxWords) continue;
      const after = normalizeText(removePrefixes(a.text, segmenter));
      const score = Math.abs(a.text.split(" ").length - after.split(" ").length) * 1000 +
        (a.text.length - after.length);
      if (score > bestScore) [best, bestScore] = [a.text, score];
    }
  }
  return best;
}

/** Questions per filter setting of each split, with the reasons questions were dropped. */
export async function filterCountRows(dataset: As2Dataset, dir: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const split of SPLITS[dataset]) {
    const { questions } = await loadSplit(dataset, split, { dir });
    const noAll = applyFilter(questions, "no-all").report;
    const clean = applyFilter(questions, "clean").report;
    rows.push({
      split,
      raw: questions.length,
      "no-all": noAll.kept,
      clean: clean.kept,
      "dropped: no correct candidate": clean.dropped.allNegative,
      "dropped: all correct": clean.dropped.allPositive,
      "dropped: no candidates": clean.dropped.noCandidates,
    });
  }
  return rows;
}

/**
 * Mean AP and RR of a run per question kind: what each kind contributes to a raw-setting
 * mean (trec_eval gives a question without a correct candidate 0, one whose candidates are
 * all correct 1).
 */
export function scoreByKind(questions: readonly Question[], run: Run): Row[] {
  const r = evaluate(qrelsFromQuestions(questions), run, ["map", "recip_rank"], { warn: false });
  const groups = new Map<string, { ap: number[]; rr: number[] }>();
  for (const q of questions) {
    const v = r.perQuery.get(q.id);
    if (!v) continue;
    const kind = questionKind(q);
    const g = groups.get(kind) ?? { ap: [], rr: [] };
    g.ap.push(v.map);
    g.rr.push(v.recip_rank);
    groups.set(kind, g);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return [...groups.entries()].map(([kind, g]) => ({
    kind,
    questions: g.ap.length,
    "mean AP": mean(g.ap),
    "mean RR": mean(g.rr),
  }));
}

/** Runs of several systems on one split, as `scoreSplit` makes them. */
export interface SystemRuns {
  /** The scored questions (after the filter). */
  questions: Question[];
  /** System spec to run. */
  runs: Map<string, Run>;
}

/** Scores `dataset`/`split` with each system spec of `lib/scoring` (`lexical:bm25`, `ltr`, ...). */
export async function scoreSystems(
  specs: readonly string[],
  dataset: As2Dataset,
  split: string,
  options: { filter?: FilterName; dir?: string; backend?: "webgpu" | "cpu" } = {},
): Promise<SystemRuns> {
  const runs = new Map<string, Run>();
  let questions: Question[] = [];
  for (const spec of specs) {
    const scored = await scoreSplit(spec, dataset, split, options);
    questions = scored.questions;
    runs.set(spec, runFromScores(scored.questions, scored.scores));
  }
  return { questions, runs };
}

/** Per-question values of one measure (trec_eval output name, e.g. `map`), in question order. */
export function perQuestion(questions: readonly Question[], run: Run, measure = "map"): number[] {
  const name = measure.replace(".", "_");
  const r = evaluate(qrelsFromQuestions(questions), run, [measure], { warn: false });
  return questions.filter((q) => r.perQuery.has(q.id)).map((q) => r.perQuery.get(q.id)![name]);
}

/**
 * MAP and MRR of each system with 95% percentile-bootstrap intervals over questions
 * (`lib/stats` `bootstrapCI`, seeded).
 */
export function systemSummary(s: SystemRuns, samples = 2000): Row[] {
  return [...s.runs.entries()].map(([system, run]) => {
    const ap = bootstrapCI(perQuestion(s.questions, run, "map"), { samples });
    const rr = bootstrapCI(perQuestion(s.questions, run, "recip_rank"), { samples });
    return {
      system,
      questions: s.questions.length,
      MAP: ap.mean,
      "MAP low": ap.lower,
      "MAP high": ap.upper,
      MRR: rr.mean,
      "MRR low": rr.lower,
      "MRR high": rr.upper,
    };
  });
}

/** How ties in each system's scores move MAP and MRR (`lib/stats` `analyzeTies`). */
export function tieRows(s: SystemRuns): Row[] {
  const qrels = qrelsFromQuestions(s.questions);
  return [...s.runs.entries()].map(([system, run]) => {
    const t = analyzeTies(qrels, run);
    return {
      system,
      "questions with ties": t.queriesWithTies,
      "questions affected": t.queriesAffected,
      "MAP (trec_eval)": t.map.trecEval,
      "MAP min": t.map.min,
      "MAP max": t.map.max,
      "MAP expected": t.map.expected,
      "MRR min": t.mrr.min,
      "MRR max": t.mrr.max,
    };
  });
}

/** A grouped bar chart of MAP and MRR per system with their bootstrap intervals. */
export function summaryFigure(summary: readonly Row[]): Figure {
  return bar(
    ["MAP", "MRR"],
    summary.map((r) => ({
      name: String(r.system),
      values: [r.MAP as number, r.MRR as number],
      interval: {
        low: [r["MAP low"] as number, r["MRR low"] as number],
        high: [r["MAP high"] as number, r["MRR high"] as number],
      },
    })),
    { title: "MAP and MRR with 95% bootstrap intervals", yRange: [0, 1] },
  );
}

/** Expected MAP per system under random orders of tied candidates, whiskers min to max. */
export function tieFigure(ties: readonly Row[]): Figure {
  return bar(
    ["MAP"],
    ties.map((r) => ({
      name: String(r.system),
      values: [r["MAP expected"] as number],
      interval: { low: [r["MAP min"] as number], high: [r["MAP max"] as number] },
    })),
    {
      title: "MAP under every order of tied candidates (bar: expected, whiskers: min-max)",
      yRange: [0, 1],
    },
  );
}

/** MAP of each system (rows of {@link evaluateUnderFilters} with a `system`) per filter. */
export function filterFigure(rows: readonly Row[]): Figure {
  const systems = [...new Set(rows.map((r) => String(r.system)))];
  return bar(
    FILTERS,
    systems.map((system) => ({
      name: system,
      values: FILTERS.map((f) =>
        rows.find((r) => r.system === system && r.filter === f)!.map as number
      ),
    })),
    { title: "MAP of the same run under each setting", yTitle: "MAP", yRange: [0, 1] },
  );
}
