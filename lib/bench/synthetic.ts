/**
 * Seeded synthetic qrels and runs for the evaluation benchmark: many tied scores, some
 * queries without relevant documents, some queries only in the run or only in the qrels,
 * graded relevance, and runs written in score order (as tools write them) with ties in
 * arbitrary docno order.
 *
 * @module
 */
import { writeFileAtomic } from "../io/atomic.ts";
import { mulberry32 } from "../stats/random.ts";

/** Shape of a synthetic collection. */
export interface SyntheticSpec {
  queries: number;
  candidates: number;
  seed: number;
}

/** Paths and sizes of generated files. */
export interface SyntheticFiles {
  qrels: string;
  run: string;
  qrelsBytes: number;
  runBytes: number;
  runLines: number;
}

/**
 * Writes `qrels.txt` and `run.txt` for a spec into `dir` (reused when already there).
 * Query i: 5% have no relevant document, 2% appear only in the run, 2% only in the qrels;
 * 70% of candidates are judged (0..2); scores come from 50 levels, so ties are frequent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeSynthetic } from "./synthetic.ts";
 * const f = await writeSynthetic(await Deno.makeTempDir(), { queries: 10, candidates: 5, seed: 1 });
 * assert.ok(f.runLines > 0 && f.qrelsBytes > 0);
 * ```
 */
export async function writeSynthetic(dir: string, spec: SyntheticSpec): Promise<SyntheticFiles> {
  const qrels = `${dir}/qrels-${spec.queries}x${spec.candidates}-s${spec.seed}.txt`;
  const run = `${dir}/run-${spec.queries}x${spec.candidates}-s${spec.seed}.txt`;
  const meta = `${run}.meta.json`;
  try {
    const m = JSON.parse(await Deno.readTextFile(meta)) as SyntheticFiles;
    await Deno.stat(qrels);
    await Deno.stat(run);
    return m;
  } catch { /* generate */ }
  let runLines = 0;
  async function* gen(which: "qrels" | "run"): AsyncGenerator<string> {
    const r = mulberry32(spec.seed);
    let buf: string[] = [];
    for (let q = 0; q < spec.queries; q++) {
      const kind = r();
      const noRel = kind < 0.05;
      const runOnly = kind >= 0.05 && kind < 0.07;
      const qrelsOnly = kind >= 0.07 && kind < 0.09;
      const qid = `q${q}`;
      // Scores in rank order: non-increasing levels with many repeats.
      const levels: number[] = [];
      for (let j = 0; j < spec.candidates; j++) levels.push(Math.floor(r() * 50));
      levels.sort((a, b) => b - a);
      for (let j = 0; j < spec.candidates; j++) {
        const judged = r() < 0.7;
        const rel = noRel ? 0 : r() < 0.2 ? (r() < 0.3 ? 2 : 1) : 0;
        const docno = `d${q}_${j}`;
        if (which === "qrels" && judged && !runOnly) buf.push(`${qid} 0 ${docno} ${rel}\n`);
        if (which === "run" && !qrelsOnly) {
          buf.push(`${qid} Q0 ${docno} ${j + 1} ${(levels[j] / 10).toFixed(1)} bench\n`);
          runLines++;
        }
      }
      if (buf.length > 20000) {
        yield buf.join("");
        buf = [];
      }
    }
    yield buf.join("");
  }
  await writeFileAtomic(qrels, gen("qrels"), { force: true });
  await writeFileAtomic(run, gen("run"), { force: true });
  const out: SyntheticFiles = {
    qrels,
    run,
    qrelsBytes: (await Deno.stat(qrels)).size,
    runBytes: (await Deno.stat(run)).size,
    runLines,
  };
  await writeFileAtomic(meta, JSON.stringify(out), { force: true });
  return out;
}

/** Shape of a synthetic comparison: one qrels, several systems' runs over the same queries. */
export interface CompareCaseSpec {
  queries: number;
  candidates: number;
  /** Runs (systems) to write. */
  systems: number;
  seed: number;
}

/** Paths and sizes of a generated comparison. */
export interface CompareCaseFiles {
  qrels: string;
  runs: string[];
  qrelsBytes: number;
  runBytes: number[];
}

/**
 * Writes one qrels and `systems` runs for `eval compare` into `dir` (reused when already
 * there). Every run ranks every candidate of every query and every query has judgments, so all
 * runs cover the same queries; 5% of the queries have no relevant document, half of the
 * candidates are judged (0, 1 or 2), the first always.
 * System s scores a document rel * (0.3 + 0.0015 s) + uniform noise in [0, 1), written with three
 * decimals in rank order: the systems differ by far less than their noise, so that at 30,000
 * queries the tests between them give p-values across the range, not only the smallest.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeCompareCase } from "./synthetic.ts";
 * const dir = await Deno.makeTempDir();
 * const f = await writeCompareCase(dir, { queries: 20, candidates: 5, systems: 3, seed: 1 });
 * assert.equal(f.runs.length, 3);
 * assert.equal((await Deno.readTextFile(f.runs[2])).split("\n").length - 1, 100);
 * ```
 */
export async function writeCompareCase(
  dir: string,
  spec: CompareCaseSpec,
): Promise<CompareCaseFiles> {
  const stem = `${dir}/compare-${spec.queries}x${spec.candidates}-s${spec.seed}`;
  const qrels = `${stem}-qrels.txt`;
  const runs = Array.from({ length: spec.systems }, (_, s) => `${stem}-run${s + 1}.txt`);
  const meta = `${stem}.meta.json`;
  try {
    const m = JSON.parse(await Deno.readTextFile(meta)) as CompareCaseFiles;
    if (m.runs.length === spec.systems) {
      for (const f of [qrels, ...runs]) await Deno.stat(f);
      return m;
    }
  } catch { /* generate */ }
  // The relevance of query q's candidates, from the seed alone (every file draws it alike).
  const judgments = (q: number): Int8Array => {
    const r = mulberry32(`${spec.seed}/${q}`);
    const none = r() < 0.05;
    const rel = new Int8Array(spec.candidates);
    for (let j = 0; j < spec.candidates; j++) {
      const judged = r() < 0.5 || j === 0; // every query judged: every run query counts
      const x = r();
      rel[j] = !judged ? -1 : none ? 0 : x < 0.05 ? 2 : x < 0.2 ? 1 : 0;
    }
    return rel;
  };
  async function* qrelsLines(): AsyncGenerator<string> {
    let buf: string[] = [];
    for (let q = 0; q < spec.queries; q++) {
      const rel = judgments(q);
      for (let j = 0; j < spec.candidates; j++) {
        if (rel[j] >= 0) buf.push(`${q} 0 d${j} ${rel[j]}\n`);
      }
      if (buf.length > 20000) {
        yield buf.join("");
        buf = [];
      }
    }
    yield buf.join("");
  }
  async function* runLines(s: number): AsyncGenerator<string> {
    const r = mulberry32(`${spec.seed}/system ${s}`);
    const weight = 0.3 + 0.0015 * s;
    let buf: string[] = [];
    const order = Array.from({ length: spec.candidates }, (_, j) => j);
    const scores = new Float64Array(spec.candidates);
    for (let q = 0; q < spec.queries; q++) {
      const rel = judgments(q);
      for (let j = 0; j < spec.candidates; j++) {
        scores[j] = Math.round((Math.max(0, rel[j]) * weight + r()) * 1000) / 1000;
      }
      order.sort((a, b) => scores[b] - scores[a] || a - b);
      order.forEach((j, rank) => {
        buf.push(`${q} Q0 d${j} ${rank + 1} ${scores[j].toFixed(3)} s${s + 1}\n`);
      });
      if (buf.length > 20000) {
        yield buf.join("");
        buf = [];
      }
    }
    yield buf.join("");
  }
  await writeFileAtomic(qrels, qrelsLines(), { force: true });
  for (const [s, run] of runs.entries()) await writeFileAtomic(run, runLines(s), { force: true });
  const out: CompareCaseFiles = {
    qrels,
    runs,
    qrelsBytes: (await Deno.stat(qrels)).size,
    runBytes: await Promise.all(runs.map(async (f) => (await Deno.stat(f)).size)),
  };
  await writeFileAtomic(meta, JSON.stringify(out), { force: true });
  return out;
}
