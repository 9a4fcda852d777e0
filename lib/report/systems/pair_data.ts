/**
 * The pair of the systems page's error analysis and the breakdowns: which two systems are
 * compared ({@link comparedPair}), how often each wins on a question with the sign test
 * beside the paired test ({@link pairOutcomes}), their per-question differences (each value a
 * per-question mean over a system's runs, with its spread over runs), and every system's MAP
 * by question type and by number of candidates.
 *
 * @module
 */
import type { Question } from "../../data/types.ts";
import { rankDocuments } from "../../metrics/rank.ts";
import type { Run } from "../../metrics/types.ts";
import { measureLabel } from "../../metrics/protocol_measures.ts";
import type { Row } from "../../plot/table.ts";
import {
  breakdown,
  CANDIDATE_GROUPS,
  candidateGroup,
  questionWord,
} from "../../stats/breakdown.ts";
import type { PerQueryValues } from "../../stats/compare.ts";
import { type Family, SAME_VALUE } from "../../stats/family.ts";
import { signTest } from "../../stats/sign_test.ts";
import { mean, pairedTTest, sampleSd } from "../../stats/significance.ts";
import { KIT_BASELINES, type ResolvedSpec } from "./spec.ts";

/** A system of the pair: its runs and each run's per-question values. */
export interface PairSystem {
  name: string;
  runs: readonly Run[];
  perRun: readonly PerQueryValues[];
}

/** The pair of the error analysis and why it is that pair. */
export interface ComparedPair {
  a: string;
  b: string;
  /** Why these two, as a phrase for the page. */
  reason: string;
}

/**
 * The two systems of the error analysis: `spec.compare` when given; else, with two or more
 * systems of the user's, their best by MAP and the next best that is not identical to it on
 * every question's MAP (`identical`; the same run under two names has nothing to analyse);
 * with one, or when all of the user's are identical to the best (said in the reason), the
 * best against the strongest kit baseline that is not the same model (a `--model` system
 * scored from `ltr` is not compared with `ltr (kit)`) nor identical to it; when every
 * candidate is identical, the user's two best, the reason saying so; none without a system of
 * the user's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { comparedPair } from "./pair_data.ts";
 * const spec = { dataset: "wikiqa" as const, split: "test", filter: "clean" as const, baselines: true,
 *   systems: [{ name: "mine", runs: [], model: "ltr" }] };
 * const maps = new Map([["mine", 0.7], ["BM25 (kit)", 0.6], ["ltr (kit)", 0.68]]);
 * // --model mine=ltr is the kit's ltr: compared with BM25, the strongest other model.
 * assert.deepEqual([comparedPair(spec, maps)!.a, comparedPair(spec, maps)!.b], ["mine", "BM25 (kit)"]);
 * const two = { ...spec, systems: [...spec.systems, { name: "other", runs: ["/r"] }] };
 * assert.deepEqual([comparedPair(two, new Map([...maps, ["other", 0.5]]))!.b], ["other"]);
 * // "other" is "mine" under another name: the next best that differs is a baseline.
 * const same = (a: string, b: string) => [a, b].sort().join() === "mine,other";
 * assert.equal(comparedPair(two, new Map([...maps, ["other", 0.7]]), same)!.b, "BM25 (kit)");
 * ```
 */
export function comparedPair(
  spec: Pick<ResolvedSpec, "systems" | "compare">,
  maps: ReadonlyMap<string, number>,
  identical: (a: string, b: string) => boolean = () => false,
): ComparedPair | undefined {
  if (spec.compare) {
    return { a: spec.compare[0], b: spec.compare[1], reason: "the pair given (compare)" };
  }
  const byMap = [...maps].sort((x, y) => y[1] - x[1]).map(([n]) => n);
  const user = byMap.filter((n) => spec.systems.some((s) => s.name === n));
  if (user.length === 0) return undefined;
  const best = user[0];
  const next = user.slice(1).find((n) => !identical(best, n));
  if (next !== undefined) {
    return {
      a: best,
      b: next,
      reason: next === user[1]
        ? "your two best systems by MAP"
        : `your best system by MAP and the next best that is not identical to it on every ` +
          `question (${user.slice(1, user.indexOf(next)).join(", ")} identical to it)`,
    };
  }
  // Every other system of the user's, if any, gives the best's MAP on every question.
  const same = user.length > 1
    ? `your systems are identical on every question by MAP (${user.join(", ")}): `
    : "";
  const model = spec.systems.find((s) => s.name === best)?.model;
  const baseline = byMap.find((n) =>
    KIT_BASELINES.some((b) => b.name === n && b.model !== model) && !identical(best, n)
  );
  if (baseline !== undefined) {
    return {
      a: best,
      b: baseline,
      reason: `${same}your ${
        same ? "best " : ""
      }system against the strongest kit baseline that is not the same model`,
    };
  }
  if (user.length < 2) return undefined;
  return {
    a: best,
    b: user[1],
    reason: `your two best systems by MAP; ${same}no question tells them apart`,
  };
}

/**
 * Whether two systems have the same value of `measure` on every question (within
 * `SAME_VALUE`, as the family's identical pairs), from each system's per-question values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { identicalOn } from "./pair_data.ts";
 * const q = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
 * const same = identicalOn(new Map([["a", q([1, 0.5])], ["b", q([1, 0.5])], ["c", q([1, 0])]]), "map");
 * assert.deepEqual([same("a", "b"), same("a", "c")], [true, false]);
 * ```
 */
export function identicalOn(
  values: ReadonlyMap<string, PerQueryValues>,
  measure: string,
): (a: string, b: string) => boolean {
  return (a, b) => {
    const va = values.get(a), vb = values.get(b);
    if (!va || !vb || va.size !== vb.size) return false;
    for (const [q, row] of va) {
      const other = vb.get(q)?.[measure];
      if (other === undefined || !(Math.abs(row[measure] - other) <= SAME_VALUE)) return false;
    }
    return true;
  };
}

/** One measure of the pair: wins, losses, ties with the sign test, beside the paired test. */
export interface PairOutcome {
  measure: string;
  label: string;
  /** Questions where a is higher, lower, equal. */
  wins: number;
  losses: number;
  ties: number;
  /** The exact two-sided sign test's p. */
  signP: number;
  /**
   * The paired t-test's p (unadjusted), and adjusted when the pair is in the family; neither
   * when the two systems are identical on every question (`identical`: no test).
   */
  p?: number;
  pAdjusted?: number;
  /** The two systems have the same value on every question: untestable, not in the family. */
  identical?: boolean;
}

/**
 * Per measure, how often a beats b on a question (each question's value the mean over a
 * system's runs), the sign test of those counts, and the paired t-test's p: the family's
 * (adjusted too) when the pair is one of it, else unadjusted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairOutcomes } from "./pair_data.ts";
 * const q = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
 * const [o] = pairOutcomes({ name: "a", values: q([1, 1, 0.5]) }, { name: "b", values: q([0, 0.5, 0.5]) }, ["map"]);
 * assert.deepEqual([o.wins, o.losses, o.ties, o.signP, o.pAdjusted], [2, 0, 1, 0.5, undefined]);
 * ```
 */
export function pairOutcomes(
  a: { name: string; values: PerQueryValues },
  b: { name: string; values: PerQueryValues },
  measures: readonly string[],
  family?: Family,
): PairOutcome[] {
  const ids = [...a.values.keys()].sort();
  return measures.map((measure) => {
    const va = ids.map((q) => a.values.get(q)![measure]);
    const vb = ids.map((q) => b.values.get(q)?.[measure] ?? 0);
    const sign = signTest(va, vb);
    // The pair may be one spelling of a test (`same`: systems identical to the test's).
    const inFamily = family?.tests.find((t) =>
      t.measure === measure &&
      [[t.a, t.b], ...(t.same ?? [])].some(([x, y]) =>
        (x === a.name && y === b.name) || (x === b.name && y === a.name)
      )
    );
    const counts = {
      measure,
      label: measureLabel(measure),
      wins: sign.wins,
      losses: sign.losses,
      ties: sign.ties,
      signP: sign.p,
    };
    // Equal on every question: the differences have no variance, so there is no t to test.
    if (sign.ties === ids.length) return { ...counts, identical: true };
    return {
      ...counts,
      p: inFamily ? inFamily.p : pairedTTest(va, vb).p,
      ...(inFamily ? { pAdjusted: inFamily.pAdjusted } : {}),
    };
  });
}

function meanSd(xs: readonly number[]): { mean: number; sd?: number } {
  return xs.length < 2 ? { mean: mean(xs) } : { mean: mean(xs), sd: sampleSd(xs) };
}

function clip(text: string, max = 200): string {
  return text.length <= max ? text : text.slice(0, max - 1) + "\u2026";
}

/** The candidate most runs put first, with how many of the runs did. */
function topOverRuns(q: Question, runs: readonly Run[]): string {
  const counts = new Map<string, number>();
  let missing = 0;
  for (const run of runs) {
    const r = run.get(q.id);
    const top = r ? rankDocuments(r)[0] : undefined;
    if (top === undefined) missing++;
    else counts.set(top, (counts.get(top) ?? 0) + 1);
  }
  if (counts.size === 0) return "(question missing from the run: scores 0)";
  const [id, k] = [...counts].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))[0];
  const c = q.candidates.find((c) => c.id === id);
  const text = c
    ? `${c.label > 0 ? "[correct] " : "[wrong] "}${clip(c.text)}`
    : `(${id}: not a candidate)`;
  return runs.length > 1
    ? `${text} (first in ${k} of ${runs.length} runs${missing ? `, missing from ${missing}` : ""})`
    : text;
}

/** A question's value of `measure` for each run of a system (a missing question: 0). */
function perRunValues(s: PairSystem, id: string, measure: string): number[] {
  return s.perRun.map((v) => v.get(id)?.[measure] ?? 0);
}

/**
 * Every question of the split with both systems' AP and RR (each the mean over the system's
 * runs) and their differences, largest absolute AP difference first: the exported table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairDifferenceRows } from "./pair_data.ts";
 * const q = { id: "q1", text: "who won?", candidates: [{ id: "c", text: "x", label: 1 }] };
 * const a = { name: "a", runs: [], perRun: [new Map([["q1", { map: 1, recip_rank: 1 }]]), new Map([["q1", { map: 0.5, recip_rank: 0.5 }]])] };
 * const b = { name: "b", runs: [], perRun: [new Map([["q1", { map: 0.25, recip_rank: 0.25 }]])] };
 * const [row] = pairDifferenceRows([q], a, b);
 * assert.deepEqual([row["a: AP"], row["b: AP"], row["AP first - second"], row.type], [0.75, 0.25, 0.5, "who"]);
 * ```
 */
export function pairDifferenceRows(
  questions: readonly Question[],
  a: PairSystem,
  b: PairSystem,
): Row[] {
  const rows = questions.map((q) => {
    const apA = meanSd(perRunValues(a, q.id, "map")).mean;
    const apB = meanSd(perRunValues(b, q.id, "map")).mean;
    const rrA = meanSd(perRunValues(a, q.id, "recip_rank")).mean;
    const rrB = meanSd(perRunValues(b, q.id, "recip_rank")).mean;
    return {
      "question id": q.id,
      question: q.text,
      type: questionWord(q.text),
      candidates: q.candidates.length,
      [`${a.name}: AP`]: apA,
      [`${b.name}: AP`]: apB,
      "AP first - second": apA - apB,
      [`${a.name}: RR`]: rrA,
      [`${b.name}: RR`]: rrB,
      "RR first - second": rrA - rrB,
    };
  });
  return rows.sort((x, y) =>
    Math.abs(y["AP first - second"]) - Math.abs(x["AP first - second"]) ||
    (x["question id"] < y["question id"] ? -1 : 1)
  );
}

/**
 * The `limit` questions where the two systems' AP differs most, as text: the question, the
 * correct answers, and per system its AP and RR (means over its runs; `± sd` over runs when
 * it has several) and the candidate its runs put first (the most frequent, with how many
 * runs did).
 */
export function pairTextRows(
  questions: readonly Question[],
  a: PairSystem,
  b: PairSystem,
  limit = 10,
): Row[] {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const value = (s: PairSystem, id: string, m: string) => {
    const { mean, sd } = meanSd(perRunValues(s, id, m));
    return sd === undefined ? mean : `${mean.toFixed(4)} ± ${sd.toFixed(4)}`;
  };
  return pairDifferenceRows(questions, a, b).filter((r) => r["AP first - second"] !== 0).slice(
    0,
    limit,
  )
    .map((r) => {
      const q = byId.get(String(r["question id"]))!;
      const correct = q.candidates.filter((c) => c.label > 0).map((c) => clip(c.text));
      return {
        question: `${q.text} (${q.id})`,
        "correct answer(s)": correct.length ? correct.join(" | ") : "(no correct candidate)",
        [`${a.name}: AP`]: value(a, q.id, "map"),
        [`${a.name}: RR`]: value(a, q.id, "recip_rank"),
        [`${a.name}: first`]: topOverRuns(q, a.runs),
        [`${b.name}: AP`]: value(b, q.id, "map"),
        [`${b.name}: RR`]: value(b, q.id, "recip_rank"),
        [`${b.name}: first`]: topOverRuns(q, b.runs),
      };
    });
}

/**
 * Every system's MAP by question type (question word) or by number of candidates: one row
 * per group, its question count and each system's mean AP over the group's questions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { breakdownRows } from "./pair_data.ts";
 * const qs = [{ id: "q1", text: "what?", candidates: [] }, { id: "q2", text: "who?", candidates: [] }];
 * const rows = breakdownRows(qs, new Map([["a", new Map([["q1", { map: 1 }], ["q2", { map: 0 }]])]]), "type");
 * assert.deepEqual(rows.map((r) => [r["question type"], r["a: MAP"]]), [["what", 1], ["who", 0]]);
 * ```
 */
export function breakdownRows(
  questions: readonly Question[],
  systems: ReadonlyMap<string, PerQueryValues>,
  by: "type" | "candidates",
): Row[] {
  const groups = by === "type"
    ? breakdown(questions, systems, (q) => questionWord(q.text), "map")
    : breakdown(
      questions,
      systems,
      (q) => candidateGroup(q.candidates.length),
      "map",
      CANDIDATE_GROUPS.map(([lo]) => candidateGroup(lo)),
    );
  return groups.map((g) => ({
    [by === "type" ? "question type" : "candidates"]: g.group,
    questions: g.questions.length,
    ...Object.fromEntries(Object.entries(g.means).map(([s, m]) => [`${s}: MAP`, m])),
  }));
}
