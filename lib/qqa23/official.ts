/**
 * The official scorer of Qur'an QA 2023 Task A (`QQA23_TaskA_eval.py`), reproduced to the last
 * bit, and the complete protocol beside it.
 *
 * Officially:
 * - a zero-answer question (docid `-1` in the qrels) scores 1 on both measures when the run has
 *   exactly one line for it and that line's docid is `-1`, else 0; one **missing from the run
 *   adds two zeros** (the script appends 0 for "not in the run", then 0 again because the run has
 *   no single `-1` line for it);
 * - a question with answers is scored by pytrec_eval (trec_eval 9.0.x: `map_cut_10`,
 *   `recip_rank`; scores as 32-bit floats, ties by docid descending), over the run's lines for it
 *   (`-1` there is an ordinary passage, not relevant); one **missing from the run is left out**
 *   (pytrec_eval gives values only for the run's questions that have qrels), and so is a question
 *   of the run without qrels;
 * - the result is `np.mean` of the list [values of the questions with answers, in the order of
 *   their ids as text (pandas' `groupby`), then the zero-answer values, in qrels order].
 *   {@link numpyMean} reproduces numpy's pairwise summation, so the numbers are equal, not close.
 *
 * One more rule comes from pandas, not from the script's text: when the qrels have no question
 * with answers and the run no line outside the zero-answer questions, the two frames handed to
 * pytrec_eval are empty, `groupby(...).apply(...).to_dict()` gives `{column: {}}` for them, and
 * pytrec_eval scores their shared column names `qid`, `Q0`, `docid` as three questions: three
 * zeros at the head of the official list (checked against the script with pandas 1.5.3).
 *
 * The complete protocol counts every judged question once, a missing one 0 (same per-question
 * rule otherwise). The two agree exactly when the run answers every judged question.
 *
 * @module
 */
import { evaluate } from "../metrics/evaluate.ts";
import type { TrecRelease } from "../metrics/release.ts";
import type { Qqa23Qrels } from "./qrels.ts";
import { listIds, type Qqa23RunLike } from "./run_file.ts";

/** The two measures of Task A. */
export interface Qqa23Values {
  /** MAP@10 (trec_eval's `map_cut.10`), the primary measure. */
  map_cut_10: number;
  /** MRR (trec_eval's `recip_rank`). */
  recip_rank: number;
}

/** One protocol's result: the means and how many values they average. */
export interface Qqa23Summary extends Qqa23Values {
  /** Values averaged (officially a missing zero-answer question counts twice). */
  numQ: number;
}

/** One judged question's values and what it weighs in each protocol. */
export interface Qqa23QuestionRow extends Qqa23Values {
  qid: string;
  /** `answered`: the qrels list passages for it; `zero-answer`: its qrels line is `-1`. */
  kind: "answered" | "zero-answer";
  /** Whether the run has lines for it (a missing question's values are 0). */
  inRun: boolean;
  /**
   * How many times it counts in the official mean: 1, 0 (a question with answers missing from
   * the run) or 2 (a zero-answer question missing from the run). The complete protocol counts
   * each once.
   */
  weight: 0 | 1 | 2;
}

/** What {@link evaluateQqa23} returns. */
export interface Qqa23Evaluation {
  /** The official script's numbers (NaN when it averages no value: numpy's mean of nothing). */
  official: Qqa23Summary;
  /** The complete protocol: every judged question once, a missing one 0. */
  complete: Qqa23Summary;
  /**
   * Every judged question: those with answers in the official order (their ids as text), then
   * the zero-answer ones in qrels order.
   */
  perQuestion: Qqa23QuestionRow[];
  /** Run questions without qrels: ignored by both protocols. */
  ignored: string[];
  /**
   * Why the official numbers differ from the complete protocol's, one sentence per rule (which
   * questions, which rule); empty when every judged question is in the run (and the qrels have
   * a question with answers, or the run a line for one: see the module comment).
   */
  differences: string[];
}

/** Options of {@link evaluateQqa23}. */
export interface Qqa23Options {
  /**
   * The trec_eval release whose ranking is reproduced: 9.0.8 (the default, as pytrec_eval:
   * scores as 32-bit floats) or 10.0 (doubles).
   */
  release?: TrecRelease;
}

/** The measures asked of the kit's engine, and the names it gives them. */
const MEASURES = ["map_cut.10", "recip_rank"];

/**
 * numpy's pairwise sum of float64 values (`np.add.reduce`, numpy's `pairwise_sum`): a plain loop
 * below 8 values, 8 accumulators up to 128, halves (cut at a multiple of 8) above.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { numpyPairwiseSum } from "./official.ts";
 * const tenths = Array(10).fill(0.1);
 * assert.equal(numpyPairwiseSum(tenths), 1); // a plain loop gives 0.9999999999999999
 * assert.equal(tenths.reduce((a, b) => a + b, 0), 0.9999999999999999);
 * ```
 */
export function numpyPairwiseSum(values: ArrayLike<number>): number {
  return pairwise(values, 0, values.length);
}

function pairwise(a: ArrayLike<number>, start: number, n: number): number {
  if (n < 8) {
    let res = 0;
    for (let i = 0; i < n; i++) res += a[start + i];
    return res;
  }
  if (n <= 128) {
    const r = [0, 1, 2, 3, 4, 5, 6, 7].map((j) => a[start + j]);
    let i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (let j = 0; j < 8; j++) r[j] += a[start + i + j];
    }
    let res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; i++) res += a[start + i];
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwise(a, start, n2) + pairwise(a, start + n2, n - n2);
}

/**
 * `np.mean` of a list of float64 values: {@link numpyPairwiseSum} divided by the count; NaN for
 * no values (numpy warns and returns nan).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { numpyMean } from "./official.ts";
 * assert.equal(numpyMean([1, 0, 0.5]), 0.5);
 * assert(Number.isNaN(numpyMean([])));
 * ```
 */
export function numpyMean(values: ArrayLike<number>): number {
  return values.length === 0 ? NaN : numpyPairwiseSum(values) / values.length;
}

/** Python's `str` order (code points), which pandas' `groupby` sorts the question ids by. */
export function compareCodePoints(a: string, b: string): number {
  const x = [...a], y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/**
 * Scores a run as `QQA23_TaskA_eval.py` does (`official`), and by the complete protocol
 * (`complete`), with each judged question's values and weight and the sentences saying why the
 * two differ. The run is what {@link parseQqa23Run} / {@link readQqa23Run} return (checked), or
 * any map of question id to lines `{ docid, score }`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluateQqa23, parseQqa23Qrels, parseQqa23Run } from "./mod.ts";
 * const qrels = parseQqa23Qrels(
 *   "1\t0\tA\t1\n1\t0\tB\t1\n2\t0\tC\t1\n5\t0\tD\t1\n3\t0\t-1\t1\n4\t0\t-1\t1\n",
 * );
 * // Question 1: A at rank 2 (AP@10 = (1/2) / 2, RR 1/2); 3 abstains (1); 2, 5 and 4 are missing.
 * const run = parseQqa23Run("1 Q0 X 1 0.9 t\n1 Q0 A 2 0.5 t\n3 Q0 -1 1 0 t\n");
 * const r = evaluateQqa23(qrels, run);
 * assert.equal(r.official.map_cut_10, (0.25 + 1 + 0 + 0) / 4); // 1, then 3, 4, 4
 * assert.equal(r.complete.map_cut_10, (0.25 + 0 + 0 + 1 + 0) / 5); // 1, 2, 5, 3, 4
 * assert.equal(r.official.recip_rank, (0.5 + 1) / 4);
 * assert.deepEqual(r.perQuestion.map((q) => q.weight), [1, 0, 0, 1, 2]);
 * assert.equal(r.differences.length, 2);
 * ```
 */
export function evaluateQqa23(
  qrels: Qqa23Qrels,
  run: Qqa23RunLike | ReadonlyMap<string, readonly { docid: string; score: number }[]>,
  options: Qqa23Options = {},
): Qqa23Evaluation {
  const questions = run instanceof Map
    ? run as ReadonlyMap<string, readonly { docid: string; score: number }[]>
    : (run as Qqa23RunLike).questions;
  const zeroSet = new Set(qrels.zeroAnswer);
  // The questions with answers that pytrec_eval sees: the run's, without the zero-answer ones.
  const scored = new Map<string, Map<string, number>>();
  for (const [qid, lines] of questions) {
    if (zeroSet.has(qid) || !qrels.judged.has(qid)) continue;
    const docs = new Map<string, number>();
    for (const l of lines) docs.set(l.docid, l.score);
    scored.set(qid, docs);
  }
  const values = scored.size
    ? evaluate(qrels.judged, scored, MEASURES, { warn: false, release: options.release })
      .perQuery
    : new Map<string, Record<string, number>>();
  const rows: Qqa23QuestionRow[] = [];
  for (const qid of [...qrels.judged.keys()].sort(compareCodePoints)) {
    const v = values.get(qid);
    rows.push({
      qid,
      kind: "answered",
      inRun: v !== undefined,
      map_cut_10: v?.map_cut_10 ?? 0,
      recip_rank: v?.recip_rank ?? 0,
      weight: v === undefined ? 0 : 1,
    });
  }
  for (const qid of qrels.zeroAnswer) {
    const lines = questions.get(qid);
    const score = lines?.length === 1 && lines[0].docid === "-1" ? 1 : 0;
    rows.push({
      qid,
      kind: "zero-answer",
      inRun: lines !== undefined,
      map_cut_10: score,
      recip_rank: score,
      weight: lines === undefined ? 2 : 1,
    });
  }
  // With no question with answers in the qrels and none outside the zero-answer ones in the run,
  // both of pandas' groupby results are empty frames, whose to_dict() is {column: {}}: pytrec_eval
  // then scores the question ids 'qid', 'Q0' and 'docid' (columns of both frames) 0.
  const normalRun = [...questions.keys()].some((q) => !zeroSet.has(q));
  const emptyFrameZeros = qrels.judged.size === 0 && !normalRun ? EMPTY_FRAME_IDS.length : 0;
  const diffs = differences(rows);
  if (emptyFrameZeros) {
    diffs.push(
      `the qrels have no question with answers and the run none outside the zero-answer ` +
        `ones: pandas then hands pytrec_eval empty frames, whose column names (${
          EMPTY_FRAME_IDS.join(", ")
        }) it scores as questions, adding ${emptyFrameZeros} zeros to the official mean`,
    );
  }
  return {
    official: summary(rows, (r) => r.weight, emptyFrameZeros),
    complete: summary(rows, () => 1),
    perQuestion: rows,
    ignored: [...questions.keys()].filter((q) => !zeroSet.has(q) && !qrels.judged.has(q)),
    differences: diffs,
  };
}

/** The columns the qrels frame and the run frame share: pandas' ids of an empty groupby. */
const EMPTY_FRAME_IDS = ["qid", "Q0", "docid"];

/**
 * The mean of each measure over the rows, each repeated `weight(row)` times, after `zeros`
 * leading zeros, numpy's way.
 */
function summary(
  rows: readonly Qqa23QuestionRow[],
  weight: (r: Qqa23QuestionRow) => number,
  zeros = 0,
) {
  const map: number[] = Array(zeros).fill(0), rr: number[] = Array(zeros).fill(0);
  for (const r of rows) {
    for (let k = 0; k < weight(r); k++) {
      map.push(r.map_cut_10);
      rr.push(r.recip_rank);
    }
  }
  return { map_cut_10: numpyMean(map), recip_rank: numpyMean(rr), numQ: map.length };
}

/** The sentences saying which questions weigh differently officially, and by which rule. */
function differences(rows: readonly Qqa23QuestionRow[]): string[] {
  const out: string[] = [];
  const twice = rows.filter((r) => r.weight === 2).map((r) => r.qid);
  const left = rows.filter((r) => r.weight === 0).map((r) => r.qid);
  const s = (n: number) => (n > 1 ? "s" : "");
  if (twice.length) {
    out.push(
      `${twice.length} zero-answer question${s(twice.length)} missing from the run count${
        twice.length > 1 ? "" : "s"
      } twice officially, as 0 (the script appends 0 for the missing question, then 0 again ` +
        `for the missing -1 line), once in the complete protocol (id${s(twice.length)} ${
          listIds(twice)
        })`,
    );
  }
  if (left.length) {
    out.push(
      `${left.length} question${s(left.length)} with answers missing from the run ${
        left.length > 1 ? "are" : "is"
      } left out officially (pytrec_eval scores only the run's questions), counted as 0 in the ` +
        `complete protocol (id${s(left.length)} ${listIds(left)})`,
    );
  }
  return out;
}
