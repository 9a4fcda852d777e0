/**
 * Abstention for Qur'an QA 2023 Task A: a system answers `-1` alone (no answer in the Qur'an)
 * for a question whose top score is below a threshold T, and the sweep over T that shows what
 * each choice scores, officially and by the complete protocol. Pick T on dev
 * ({@link pickThreshold}), then report test with that T (docs/qqa23.md).
 *
 * @module
 */
import type { Qqa23Qrels } from "./qrels.ts";
import { evaluateQqa23, type Qqa23Options, type Qqa23Summary } from "./official.ts";

/** A run's lines: what {@link abstain} reads and writes (extra fields of a line are kept). */
export interface AbstainLine {
  docid: string;
  score: number;
}

/** A run after {@link abstain}. */
export interface AbstainedRun<L extends AbstainLine> {
  /** Question id to its lines; an abstained question has the single line `-1`. */
  questions: Map<string, L[]>;
  /** The questions answered `-1` alone because their top score is below the threshold. */
  abstained: string[];
}

/** One row of {@link abstentionSweep}. */
export interface SweepRow {
  /** T: questions whose top score is below it answer `-1` alone. */
  threshold: number;
  /** How many questions of the run that abstains. */
  abstained: number;
  /** The official script's numbers for the run with those abstentions. */
  official: Qqa23Summary;
  /** The complete protocol's. */
  complete: Qqa23Summary;
}

/** The highest score of a question's lines. */
function topScore(lines: readonly AbstainLine[]): number {
  let top = -Infinity;
  for (const l of lines) if (l.score > top) top = l.score;
  return top;
}

/**
 * The run where every question whose top score is below `threshold` is answered by the single
 * line `-1` (keeping its top line's other fields: score, line number); the other questions are
 * unchanged. `-Infinity` abstains nothing, `Infinity` everything.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { abstain } from "./abstain.ts";
 * const run = { questions: new Map([
 *   ["1", [{ docid: "2:1-5", score: 0.9 }, { docid: "3:1-4", score: 0.2 }]],
 *   ["2", [{ docid: "4:1-3", score: 0.3 }]],
 * ]) };
 * const out = abstain(run, 0.5);
 * assert.deepEqual(out.abstained, ["2"]);
 * assert.deepEqual(out.questions.get("2"), [{ docid: "-1", score: 0.3 }]);
 * assert.equal(out.questions.get("1")?.length, 2);
 * ```
 */
export function abstain<L extends AbstainLine>(
  run: { questions: ReadonlyMap<string, readonly L[]> },
  threshold: number,
): AbstainedRun<L> {
  const questions = new Map<string, L[]>();
  const abstained: string[] = [];
  for (const [qid, lines] of run.questions) {
    const top = topScore(lines);
    if (lines.length && top < threshold) {
      const first = lines.find((l) => l.score === top)!;
      questions.set(qid, [{ ...first, docid: "-1" }]);
      abstained.push(qid);
    } else questions.set(qid, [...lines]);
  }
  return { questions, abstained };
}

/**
 * The thresholds worth trying on a run: `-Infinity` (abstain nothing), every distinct top score
 * of a question above the smallest (T abstains the questions whose top is below T; the smallest
 * top score is left out, since it abstains nothing, as `-Infinity` does), and `Infinity` (abstain
 * every question): one row per different set of abstentions, ascending.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sweepThresholds } from "./abstain.ts";
 * const run = { questions: new Map([
 *   ["1", [{ docid: "a", score: 0.9 }]],
 *   ["2", [{ docid: "b", score: 0.3 }]],
 *   ["3", [{ docid: "c", score: 0.9 }, { docid: "d", score: 0.1 }]],
 * ]) };
 * assert.deepEqual(sweepThresholds(run), [-Infinity, 0.9, Infinity]);
 * ```
 */
export function sweepThresholds(
  run: { questions: ReadonlyMap<string, readonly AbstainLine[]> },
): number[] {
  const tops = new Set<number>();
  for (const lines of run.questions.values()) if (lines.length) tops.add(topScore(lines));
  const sorted = [...tops].sort((a, b) => a - b);
  return [-Infinity, ...sorted.slice(1), ...(sorted.length ? [Infinity] : [])];
}

/**
 * Scores the run abstained at each threshold (default {@link sweepThresholds}), officially and
 * by the complete protocol; rows in the order of the thresholds given.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { abstentionSweep, parseQqa23Qrels, parseQqa23Run } from "./mod.ts";
 * const qrels = parseQqa23Qrels("1\t0\tA\t1\n2\t0\t-1\t1\n");
 * const run = parseQqa23Run("1 Q0 A 1 0.8 t\n2 Q0 B 1 0.2 t\n");
 * const rows = abstentionSweep(qrels, run);
 * assert.deepEqual(rows.map((r) => [r.threshold, r.abstained]), [
 *   [-Infinity, 0], [0.8, 1], [Infinity, 2],
 * ]);
 * assert.deepEqual(rows.map((r) => r.official.map_cut_10), [0.5, 1, 0.5]);
 * ```
 */
export function abstentionSweep<L extends AbstainLine>(
  qrels: Qqa23Qrels,
  run: { questions: ReadonlyMap<string, readonly L[]> },
  thresholds: readonly number[] = sweepThresholds(run),
  options: Qqa23Options = {},
): SweepRow[] {
  return thresholds.map((threshold) => {
    const abstained = abstain(run, threshold);
    const r = evaluateQqa23(qrels, abstained, options);
    return {
      threshold,
      abstained: abstained.abstained.length,
      official: r.official,
      complete: r.complete,
    };
  });
}

/**
 * The sweep row to keep (on dev): the highest value of `measure` in `protocol`, ties to the
 * fewest abstentions (the first such row: thresholds ascend). Apply its threshold to test with
 * {@link abstain}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { abstentionSweep, parseQqa23Qrels, parseQqa23Run, pickThreshold } from "./mod.ts";
 * const qrels = parseQqa23Qrels("1\t0\tA\t1\n2\t0\t-1\t1\n");
 * const run = parseQqa23Run("1 Q0 A 1 0.8 t\n2 Q0 B 1 0.2 t\n");
 * assert.equal(pickThreshold(abstentionSweep(qrels, run)).threshold, 0.8);
 * ```
 */
export function pickThreshold(
  rows: readonly SweepRow[],
  measure: "map_cut_10" | "recip_rank" = "map_cut_10",
  protocol: "official" | "complete" = "official",
): SweepRow {
  let best = rows[0];
  for (const r of rows) if (r[protocol][measure] > best[protocol][measure]) best = r;
  return best;
}
