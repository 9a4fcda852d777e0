/**
 * Query blocks of a run that the chunk-by-chunk pass cannot take as it comes: a TREC run whose
 * queries come back after others ({@link regroupedBlocks}: read whole again, one block per
 * query) and a run held in memory, a JSON run ({@link blocksOfRun}). Both go through the same
 * judging, ranking and measures as a grouped run (`grouped_run.ts`), so `-M`, ties and
 * duplicates are read alike on every route.
 *
 * @module
 */
import type { TextSource } from "../../io/source.ts";
import { type TrecRelease, trecScore } from "../release.ts";
import type { Run } from "../types.ts";
import { type RunBlock, runBlockChunks, type RunReadOptions } from "./run_reader.ts";
import { hashBytes } from "./trec_scan.ts";

/** The lines of one query, gathered: each docno as a range of the builder's buffer. */
interface QueryLines {
  start: number[];
  end: number[];
  hash: number[];
  score: number[];
  line: number[];
}

/**
 * Query blocks built line by line: one block per query, its lines in the order added, their
 * docnos copied into one buffer.
 */
class BlockBuilder {
  private bytes = new Uint8Array(1 << 16);
  private used = 0;
  private queries = new Map<string, QueryLines>();

  /** Adds a line of query `qid`: its docno `buf[start, end)` and the rest of its columns. */
  add(
    qid: string,
    buf: Uint8Array,
    start: number,
    end: number,
    hash: number,
    score: number,
    line: number,
  ): void {
    let q = this.queries.get(qid);
    if (!q) this.queries.set(qid, q = { start: [], end: [], hash: [], score: [], line: [] });
    const len = end - start;
    if (this.used + len > this.bytes.length) {
      const bigger = new Uint8Array(Math.max(2 * this.bytes.length, this.used + len));
      bigger.set(this.bytes.subarray(0, this.used));
      this.bytes = bigger;
    }
    this.bytes.set(buf.subarray(start, end), this.used);
    q.start.push(this.used);
    q.end.push(this.used += len);
    q.hash.push(hash);
    q.score.push(score);
    q.line.push(line);
  }

  /** The blocks, one per query in the order queries were first added. */
  blocks(): RunBlock[] {
    const out: RunBlock[] = [];
    for (const [qid, q] of this.queries) {
      out.push({
        buf: this.bytes,
        qid,
        first: 0,
        count: q.start.length,
        docStart: Int32Array.from(q.start),
        docEnd: Int32Array.from(q.end),
        docHash: Int32Array.from(q.hash),
        score: Float64Array.from(q.score),
        line: Int32Array.from(q.line),
      });
    }
    return out;
  }
}

/**
 * A run not grouped by query, read whole and regrouped: one block per query, its lines in
 * file order (trec_eval sorts each query's lines itself).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { regroupedBlocks } from "./regroup.ts";
 * const bytes = new TextEncoder().encode("q1 Q0 a 1 1 r\nq2 Q0 b 1 1 r\nq1 Q0 c 2 0 r\n");
 * const blocks: string[] = [];
 * for await (const chunk of regroupedBlocks({ name: "run", bytes }, {})) {
 *   for (const b of chunk) blocks.push(`${b.qid}:${b.count}`);
 * }
 * assert.deepEqual(blocks, ["q1:2", "q2:1"]);
 * ```
 */
export async function* regroupedBlocks(
  run: TextSource,
  options: RunReadOptions,
): AsyncGenerator<RunBlock[]> {
  const builder = new BlockBuilder();
  for await (const blocks of runBlockChunks(run, options)) {
    for (const b of blocks) {
      for (let i = b.first; i < b.first + b.count; i++) {
        builder.add(b.qid, b.buf, b.docStart[i], b.docEnd[i], b.docHash[i], b.score[i], b.line[i]);
      }
    }
  }
  yield builder.blocks();
}

/**
 * A run held in memory as query blocks, one per query in the run's order: its docnos encoded
 * as UTF-8 and hashed as the run reader hashes them, its scores as `release` stores them
 * (line 0: a run in memory has no lines; its readers refuse a document twice in a query).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { blocksOfRun } from "./regroup.ts";
 * const run = new Map([["q1", new Map([["a", 0.30000001], ["b", 0.3]])]]);
 * const [b] = blocksOfRun(run, "9.0.8");
 * assert.equal(b.count, 2);
 * assert.equal(b.score[0], b.score[1]); // a tie as 9.0.8 stores the scores
 * ```
 */
export function blocksOfRun(run: Run, release: TrecRelease): RunBlock[] {
  const builder = new BlockBuilder();
  const utf8 = new TextEncoder();
  for (const [qid, docs] of run) {
    for (const [docno, score] of docs) {
      const bytes = utf8.encode(docno);
      const hash = hashBytes(bytes, 0, bytes.length);
      builder.add(qid, bytes, 0, bytes.length, hash, trecScore(score, release), 0);
    }
  }
  return builder.blocks();
}
