/**
 * Brute-force definitions the exercise solutions are checked against, written from the
 * definitions (docs/measures.md, ../shared/PROTOCOL.md) without the kit's metrics code: the
 * order of a question's candidates (score as a 32-bit float descending, ties by candidate id
 * descending, trec_eval 9.0.8) and AP / RR / P@k / nDCG@k over labels in ranked order.
 *
 * @module
 */
import type { Question } from "../../lib/mod.ts";

/** The sample folder and, when fetched, the real corpus: where each exercise is solved. */
export const SAMPLE = "samples";

/** The running example of notebooks 01-04 on each data set (a real WikiQA test question). */
export const RUNNING_EXAMPLE = { sample: "Q301", real: "Q463" } as const;

/** Candidate ids in trec_eval 9.0.8's order. */
export function trecOrder(ids: readonly string[], scores: readonly number[]): string[] {
  const idx = ids.map((_, i) => i);
  idx.sort((a, b) => {
    const sa = Math.fround(scores[a]), sb = Math.fround(scores[b]);
    if (sa !== sb) return sb - sa;
    return ids[a] < ids[b] ? 1 : ids[a] > ids[b] ? -1 : 0;
  });
  return idx.map((i) => ids[i]);
}

/** 1/0 labels of a question's candidates in the order given. */
export function labelsInOrder(q: Question, order: readonly string[]): number[] {
  const label = new Map(q.candidates.map((c) => [c.id, c.label > 0 ? 1 : 0]));
  return order.map((id) => label.get(id)!);
}

/** AP: the mean, over the R correct candidates, of the precision at each one's rank. */
export function ap(rel: readonly number[]): number {
  const r = rel.reduce((a, b) => a + b, 0);
  let found = 0, sum = 0;
  rel.forEach((x, i) => {
    if (x) sum += ++found / (i + 1);
  });
  return r ? sum / r : 0;
}

/** RR: 1 / the rank of the first correct candidate (0 without one). */
export function rr(rel: readonly number[]): number {
  const i = rel.indexOf(1);
  return i < 0 ? 0 : 1 / (i + 1);
}

/** P@k: correct ones in the top k, divided by k. */
export function precisionAt(rel: readonly number[], k: number): number {
  return rel.slice(0, k).reduce((a, b) => a + b, 0) / k;
}

/** nDCG@k with binary gains. */
export function ndcgAt(rel: readonly number[], k: number): number {
  const dcg = rel.slice(0, k).reduce((a, x, i) => a + x / Math.log2(i + 2), 0);
  const r = rel.reduce((a, b) => a + b, 0);
  let ideal = 0;
  for (let i = 0; i < Math.min(k, r); i++) ideal += 1 / Math.log2(i + 2);
  return ideal ? dcg / ideal : 0;
}

/** The arithmetic mean. */
export function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** Scores of a scored split, per question, in corpus order. */
export function scoresPerQuestion(
  questions: readonly Question[],
  scores: ArrayLike<number>,
): number[][] {
  let at = 0;
  return questions.map((q) => Array.from({ length: q.candidates.length }, () => scores[at++]));
}

/** Questions of a WikiQA TSV file read by hand: question id to its labels, in file order. */
export async function wikiqaLabels(dir: string, split: string): Promise<Map<string, number[]>> {
  const folder = dir === SAMPLE ? new URL("../../data/samples", import.meta.url).pathname : dir;
  const lines = (await Deno.readTextFile(`${folder}/wikiqa/WikiQA-${split}.tsv`)).split("\n").slice(
    1,
  );
  const labels = new Map<string, number[]>();
  for (const line of lines) {
    if (!line.trim()) continue;
    const cols = line.replace(/\r$/, "").split("\t");
    labels.set(cols[0], [...labels.get(cols[0]) ?? [], Number(cols[6])]);
  }
  return labels;
}

/** A QRCD JSONL file read by hand: one object per line. */
export async function qrcdRecords(
  dir: string,
  split: "train" | "dev",
): Promise<{ pq_id: string; question: string; passage: string }[]> {
  const folder = dir === SAMPLE ? new URL("../../data/samples", import.meta.url).pathname : dir;
  const text = await Deno.readTextFile(`${folder}/qrcd/qrcd_v1.1_${split}.jsonl`);
  return text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
}

/**
 * Two-sided p of Student's t by quadrature: with x = sqrt(df) tan(u) the density is
 * proportional to cos(u)^(df - 1), so p = int_{u0}^{pi/2} cos^(df-1) / int_0^{pi/2} cos^(df-1),
 * u0 = atan(|t| / sqrt(df)) (Simpson's rule, 4000 intervals).
 */
export function twoSidedP(t: number, df: number): number {
  const integral = (from: number) => {
    const n = 4000, h = (Math.PI / 2 - from) / n;
    let s = 0;
    for (let i = 0; i <= n; i++) {
      const w = i === 0 || i === n ? 1 : i % 2 ? 4 : 2;
      s += w * Math.cos(from + i * h) ** (df - 1);
    }
    return s * h / 3;
  };
  return integral(Math.atan(Math.abs(t) / Math.sqrt(df))) / integral(0);
}

/** t(1 - alpha/2, df) by bisection on the quadrature p (alpha 0.05: the 0.975 quantile). */
export function tQuantile(df: number, alpha = 0.05): number {
  let lo = 0, hi = 100;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (twoSidedP(mid, df) > alpha) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Pearson's r by the textbook formula. */
export function pearson(x: number[], y: number[]): number {
  const n = x.length;
  const mx = x.reduce((s, v) => s + v, 0) / n, my = y.reduce((s, v) => s + v, 0) / n;
  let sxy = 0, sxx = 0, syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}
