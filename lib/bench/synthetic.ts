/**
 * Seeded synthetic qrels and runs for the evaluation benchmark: many tied scores, some
 * queries without relevant documents, some queries only in the run or only in the qrels,
 * graded relevance, and runs written in score order (as tools write them) with ties in
 * arbitrary docno order.
 *
 * @module
 */
import { writeFileAtomic } from "../io/atomic.ts";

/**
 * mulberry32: a small, fast, seeded 32-bit PRNG (public domain), returning floats in [0, 1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mulberry32 } from "./synthetic.ts";
 * const a = mulberry32(1), b = mulberry32(1);
 * assert.equal(a(), b());
 * ```
 */
export function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
