/**
 * TREC qrels and run files: streaming readers, writers, and the streaming file
 * evaluator behind `deno task eval trec`.
 *
 * Formats (trec_eval's):
 * - qrels: `qid iter docno relevance`, exactly 4 whitespace-separated fields, relevance an integer.
 * - run: `qid Q0 docno rank score runid`, at least 6 fields (extra ones ignored); the rank
 *   column is ignored; the runid is the last line's.
 * Blank lines and lines starting with `#` are skipped in both. Anything else that does not
 * fit is an error naming the file and line, never a silently wrong number (stricter than
 * trec_eval, which reads a score of `abc` as 0).
 *
 * Memory: the file evaluator keeps the qrels as their text plus an index of where each
 * query's lines are, parses a query's judgments only when the run reaches it, and streams
 * the run one query block at a time. Runs are almost always grouped by query; a run that is
 * not is detected and evaluated again from a buffered copy, with the same results.
 *
 * @module
 */
import { fail, KitError } from "../errors.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { sourceName, textChunks, type TextSource } from "../io/text.ts";
import {
  digestJudgments,
  type EvalOptions,
  type EvalResult,
  type Qrels,
  QueryEvaluator,
  type QueryJudgments,
  type Run,
  warnRunOnly,
} from "./evaluate.ts";
import { compareDocnos, rankOrder } from "./rank.ts";

function isSpace(c: number): boolean {
  // C isspace(): space, \t, \n, \v, \f, \r.
  return c === 32 || (c >= 9 && c <= 13);
}

/**
 * Splits the line `text[start, end)` into whitespace-separated fields, writing
 * [start, end) pairs into `bounds`; returns the number of fields (at most `max`,
 * the last one then running to the end of its token).
 */
function splitFields(text: string, start: number, end: number, bounds: Int32Array): number {
  let n = 0;
  let i = start;
  const max = bounds.length >> 1;
  while (i < end) {
    while (i < end && isSpace(text.charCodeAt(i))) i++;
    if (i >= end) break;
    const s = i;
    while (i < end && !isSpace(text.charCodeAt(i))) i++;
    if (n < max) {
      bounds[2 * n] = s;
      bounds[2 * n + 1] = i;
    }
    n++;
  }
  return n;
}

function isSkippable(text: string, start: number, end: number): boolean {
  let i = start;
  while (i < end && isSpace(text.charCodeAt(i))) i++;
  return i >= end || text.charCodeAt(i) === 35; // blank or '#'
}

const INTEGER = /^[+-]?\d+$/;

function parseRelevance(token: string, where: { file: string; line: number }): number {
  if (!INTEGER.test(token)) {
    fail(`relevance '${token}' is not an integer (expected: qid iter docno relevance)`, where);
  }
  const v = Number(token);
  if (!Number.isSafeInteger(v)) fail(`relevance '${token}' is out of range`, where);
  return v;
}

/** Parses a run score: a finite decimal number (what C atof reads, minus its silent zeros). */
export function parseScore(token: string, where: { file: string; line: number }): number {
  const v = Number(token);
  if (!Number.isFinite(v) || token.length === 0) {
    fail(
      `score '${token}' is not a finite number (expected: qid Q0 docno rank score runid)`,
      where,
    );
  }
  return v;
}

/** Where one query's lines sit in the qrels text. */
interface Segment {
  chunk: number;
  start: number;
  end: number;
  firstLine: number;
}

/**
 * Qrels held as text with a per-query index; judgments are parsed on demand.
 * Reading validates every line, so later parsing cannot fail except on duplicates.
 */
export class QrelsIndex {
  readonly file: string;
  private chunks: string[] = [];
  private segments = new Map<string, Segment[]>();

  private constructor(file: string) {
    this.file = file;
  }

  /**
   * Reads and validates a qrels file (path, `-`, or bytes).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { QrelsIndex } from "./trec_files.ts";
   * const bytes = new TextEncoder().encode("q1 0 d1 1\nq1 0 d2 0\n");
   * const idx = await QrelsIndex.read({ name: "q.txt", bytes });
   * assert(idx.judgments("q1")!.get("d1") === 1);
   * ```
   */
  static async read(source: TextSource): Promise<QrelsIndex> {
    const idx = new QrelsIndex(sourceName(source));
    const bounds = new Int32Array(10);
    let current: Segment[] | undefined;
    let currentQid = "";
    let sawAny = false;
    for await (const chunk of textChunks(source)) {
      const text = chunk.text;
      const c = idx.chunks.length;
      idx.chunks.push(text);
      let line = chunk.firstLine;
      let pos = 0;
      let openSeg: Segment | undefined;
      while (pos < text.length) {
        let eol = text.indexOf("\n", pos);
        if (eol < 0) eol = text.length;
        if (!isSkippable(text, pos, eol)) {
          const n = splitFields(text, pos, eol, bounds);
          const where = { file: idx.file, line };
          if (n !== 4) {
            fail(`expected 4 fields (qid iter docno relevance), found ${n}`, where);
          }
          parseRelevance(text.slice(bounds[6], bounds[7]), where);
          const qs = bounds[0], qe = bounds[1];
          const sameQid = qe - qs === currentQid.length && text.startsWith(currentQid, qs) &&
            current !== undefined;
          if (!sameQid || openSeg === undefined) {
            if (!sameQid) {
              currentQid = text.slice(qs, qe);
              current = idx.segments.get(currentQid);
              if (!current) idx.segments.set(currentQid, current = []);
            }
            openSeg = { chunk: c, start: pos, end: eol, firstLine: line };
            current!.push(openSeg);
          }
          openSeg.end = eol;
          sawAny = true;
        } else if (openSeg) {
          openSeg.end = eol;
        }
        pos = eol + 1;
        line++;
      }
    }
    if (!sawAny) fail("qrels file has no judgments (empty file?)", { file: idx.file });
    return idx;
  }

  /** Query ids in first-appearance order. */
  queries(): IterableIterator<string> {
    return this.segments.keys();
  }

  /** Whether the qrels judge this query. */
  has(qid: string): boolean {
    return this.segments.has(qid);
  }

  /** Number of queries. */
  get size(): number {
    return this.segments.size;
  }

  /** The judgments of one query (docno to relevance), or undefined. */
  judgments(qid: string): Map<string, number> | undefined {
    const segs = this.segments.get(qid);
    if (!segs) return undefined;
    const out = new Map<string, number>();
    const bounds = new Int32Array(8);
    for (const seg of segs) {
      const text = this.chunks[seg.chunk];
      let pos = seg.start;
      let line = seg.firstLine;
      while (pos < seg.end) {
        let eol = text.indexOf("\n", pos);
        if (eol < 0 || eol > seg.end) eol = seg.end;
        if (!isSkippable(text, pos, eol)) {
          splitFields(text, pos, eol, bounds);
          if (text.slice(bounds[0], bounds[1]) === qid) {
            const docno = text.slice(bounds[4], bounds[5]);
            if (out.has(docno)) {
              fail(`duplicate judgment for query ${qid}, document ${docno}`, {
                file: this.file,
                line,
              });
            }
            out.set(docno, Number(text.slice(bounds[6], bounds[7])));
          }
        }
        pos = eol + 1;
        line++;
      }
    }
    return out;
  }

  /** Materializes every query's judgments. */
  toQrels(): Qrels {
    const q: Qrels = new Map();
    for (const qid of this.segments.keys()) q.set(qid, this.judgments(qid)!);
    return q;
  }
}

/**
 * Reads a qrels file into memory.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readQrels } from "./trec_files.ts";
 * const q = await readQrels({ name: "q", bytes: new TextEncoder().encode("7 0 a 2\n") });
 * assert(q.get("7")!.get("a") === 2);
 * ```
 */
export async function readQrels(source: TextSource): Promise<Qrels> {
  return (await QrelsIndex.read(source)).toQrels();
}

/** One query's block of a run file as it streams by. */
export interface RunBlock {
  qid: string;
  docnos: string[];
  scores: number[];
  /** Line number of each document's line. */
  lines: number[];
}

/**
 * Streams a run file as blocks of consecutive lines with the same query id.
 * A query can come back in a later block when the file is not grouped.
 * Checks field counts and scores; `onRunId` receives each line's runid column.
 */
export async function* runBlocks(
  source: TextSource,
  onRunId?: (runId: string) => void,
): AsyncGenerator<RunBlock> {
  const file = sourceName(source);
  const bounds = new Int32Array(12);
  let block: RunBlock | undefined;
  let sawAny = false;
  let runIdEnd = { text: "", s: 0, e: 0 };
  for await (const chunk of textChunks(source)) {
    const text = chunk.text;
    let line = chunk.firstLine;
    let pos = 0;
    while (pos < text.length) {
      let eol = text.indexOf("\n", pos);
      if (eol < 0) eol = text.length;
      if (!isSkippable(text, pos, eol)) {
        const n = splitFields(text, pos, eol, bounds);
        if (n < 6) {
          fail(`expected 6 fields (qid Q0 docno rank score runid), found ${n}`, { file, line });
        }
        const qs = bounds[0], qe = bounds[1];
        if (
          block === undefined || qe - qs !== block.qid.length || !text.startsWith(block.qid, qs)
        ) {
          if (block) yield block;
          block = { qid: text.slice(qs, qe), docnos: [], scores: [], lines: [] };
        }
        block.docnos.push(text.slice(bounds[4], bounds[5]));
        block.scores.push(parseScore(text.slice(bounds[8], bounds[9]), { file, line }));
        block.lines.push(line);
        runIdEnd = { text, s: bounds[10], e: bounds[11] };
        sawAny = true;
      }
      pos = eol + 1;
      line++;
    }
  }
  if (block) yield block;
  if (!sawAny) fail("run file has no result lines (empty file?)", { file });
  onRunId?.(runIdEnd.text.slice(runIdEnd.s, runIdEnd.e));
}

function checkDuplicates(block: RunBlock, file: string): void {
  const seen = new Set<string>();
  for (let i = 0; i < block.docnos.length; i++) {
    const d = block.docnos[i];
    if (seen.has(d)) {
      fail(`duplicate document ${d} for query ${block.qid} (trec_eval rejects this too)`, {
        file,
        line: block.lines[i],
      });
    }
    seen.add(d);
  }
}

/**
 * Reads a run file into memory (duplicates rejected, ungrouped files accepted).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readRun } from "./trec_files.ts";
 * const bytes = new TextEncoder().encode("q1 Q0 d1 1 0.5 r\nq1 Q0 d2 2 0.25 r\n");
 * const run = await readRun({ name: "run", bytes });
 * assert(run.get("q1")!.get("d2") === 0.25);
 * ```
 */
export async function readRun(source: TextSource): Promise<Run> {
  const file = sourceName(source);
  const run: Run = new Map();
  for await (const block of runBlocks(source)) {
    let docs = run.get(block.qid);
    if (!docs) run.set(block.qid, docs = new Map());
    for (let i = 0; i < block.docnos.length; i++) {
      if (docs.has(block.docnos[i])) {
        fail(`duplicate document ${block.docnos[i]} for query ${block.qid}`, {
          file,
          line: block.lines[i],
        });
      }
      docs.set(block.docnos[i], block.scores[i]);
    }
  }
  return run;
}

class NotGrouped extends Error {}

/**
 * Evaluates a run file against a qrels file with trec_eval's semantics, streaming.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluateTrecFiles } from "./trec_files.ts";
 * const enc = new TextEncoder();
 * const qrels = { name: "q", bytes: enc.encode("1 0 a 1\n1 0 b 0\n") };
 * const run = { name: "r", bytes: enc.encode("1 Q0 a 1 0.5 x\n1 Q0 b 2 0.5 x\n") };
 * const r = await evaluateTrecFiles(qrels, run, ["recip_rank"]);
 * assert(r.summary.recip_rank === 0.5); // tie: docno "b" ranks first
 * ```
 */
export async function evaluateTrecFiles(
  qrelsSource: TextSource | QrelsIndex,
  runSource: TextSource,
  measures: readonly string[],
  options: EvalOptions = {},
): Promise<EvalResult> {
  const qrels = qrelsSource instanceof QrelsIndex
    ? qrelsSource
    : await QrelsIndex.read(qrelsSource);
  const level = options.relevanceLevel ?? 1;
  const file = sourceName(runSource);
  const digest = (qid: string): QueryJudgments => digestJudgments(qrels.judgments(qid)!, level);

  const evaluateBlocks = async (
    blocks: AsyncIterable<RunBlock> | Iterable<RunBlock>,
    strictGrouping: boolean,
  ) => {
    const ev = new QueryEvaluator(measures, level);
    const seen = new Set<string>();
    const runOnly: string[] = [];
    for await (const block of blocks) {
      if (seen.has(block.qid)) {
        if (strictGrouping) throw new NotGrouped();
        fail(`query ${block.qid} appears twice`, { file }); // unreachable after grouping
      }
      seen.add(block.qid);
      checkDuplicates(block, file);
      if (!qrels.has(block.qid)) {
        runOnly.push(block.qid);
        continue;
      }
      ev.addQuery(block.qid, block.docnos, block.scores, digest(block.qid));
    }
    return { ev, seen, runOnly };
  };

  let runId = "";
  let state: Awaited<ReturnType<typeof evaluateBlocks>>;
  try {
    // Standard input cannot be read twice: group it in memory from the start.
    if (runSource === "-") throw new NotGrouped();
    state = await evaluateBlocks(runBlocks(runSource, (id) => runId = id), true);
  } catch (e) {
    if (!(e instanceof NotGrouped)) throw e;
    const grouped = new Map<string, RunBlock>();
    for await (const b of runBlocks(runSource, (id) => runId = id)) {
      const g = grouped.get(b.qid);
      if (!g) grouped.set(b.qid, b);
      else {
        g.docnos.push(...b.docnos);
        g.scores.push(...b.scores);
        g.lines.push(...b.lines);
      }
    }
    state = await evaluateBlocks(grouped.values(), false);
  }
  const { ev, seen, runOnly } = state;
  const missing: { qid: string; values: number[] }[] = [];
  for (const qid of qrels.queries()) {
    if (!seen.has(qid)) missing.push({ qid, values: ev.valuesForMissing(digest(qid)) });
  }
  runOnly.sort(compareDocnos);
  warnRunOnly(runOnly, options.warn);
  return ev.result({
    complete: options.complete ?? false,
    runOnlyQueries: runOnly,
    missing,
    runId,
  });
}

/** Options of {@link writeRun}. */
export interface WriteRunOptions {
  /** The runid column (default `kit`). */
  runId?: string;
  /** Replace an existing file. */
  force?: boolean;
}

function checkId(id: string, what: string): void {
  if (id.length === 0 || /\s/.test(id)) {
    throw new KitError(
      `${what} '${id}' is empty or contains whitespace; TREC files cannot hold it`,
    );
  }
}

/**
 * Formats a run as TREC run lines, each query's documents in trec_eval order with ranks
 * 1..n. Scores are written with full precision (shortest round-trip form).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatRun } from "./trec_files.ts";
 * const text = [...formatRun(new Map([["q", new Map([["a", 0.1], ["b", 0.7]])]]), "bm25")].join("");
 * assert(text === "q Q0 b 1 0.7 bm25\nq Q0 a 2 0.1 bm25\n");
 * ```
 */
export function* formatRun(run: Run, runId = "kit"): Generator<string> {
  checkId(runId, "run id");
  for (const [qid, docs] of run) {
    checkId(qid, "query id");
    const docnos = [...docs.keys()];
    const scores = docnos.map((d) => docs.get(d)!);
    const order = rankOrder(docnos, scores);
    const lines: string[] = [];
    for (let r = 0; r < order.length; r++) {
      const d = docnos[order[r]];
      checkId(d, "document id");
      const s = scores[order[r]];
      if (!Number.isFinite(s)) throw new KitError(`query ${qid}, document ${d}: score ${s}`);
      lines.push(`${qid} Q0 ${d} ${r + 1} ${s} ${runId}\n`);
    }
    yield lines.join("");
  }
}

/**
 * Writes a run file atomically (temp file + rename; `force` to replace).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readRun, writeRun } from "./trec_files.ts";
 * const path = (await Deno.makeTempDir()) + "/run.txt";
 * await writeRun(path, new Map([["q", new Map([["a", 1]])]]), { runId: "x" });
 * assert((await readRun(path)).get("q")!.get("a") === 1);
 * ```
 */
export async function writeRun(path: string, run: Run, options: WriteRunOptions = {}) {
  await writeFileAtomic(path, toAsync(formatRun(run, options.runId ?? "kit")), {
    force: options.force,
  });
}

/**
 * Formats qrels as TREC qrels lines (`qid 0 docno relevance`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatQrels } from "./trec_files.ts";
 * const t = [...formatQrels(new Map([["q", new Map([["a", 1]])]]))].join("");
 * assert(t === "q 0 a 1\n");
 * ```
 */
export function* formatQrels(qrels: Qrels): Generator<string> {
  for (const [qid, docs] of qrels) {
    checkId(qid, "query id");
    const lines: string[] = [];
    for (const [d, rel] of docs) {
      checkId(d, "document id");
      if (!Number.isSafeInteger(rel)) throw new KitError(`relevance ${rel} is not an integer`);
      lines.push(`${qid} 0 ${d} ${rel}\n`);
    }
    yield lines.join("");
  }
}

/**
 * Writes qrels atomically.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readQrels, writeQrels } from "./trec_files.ts";
 * const path = (await Deno.makeTempDir()) + "/qrels.txt";
 * await writeQrels(path, new Map([["q", new Map([["a", 1]])]]));
 * assert((await readQrels(path)).get("q")!.get("a") === 1);
 * ```
 */
export async function writeQrels(path: string, qrels: Qrels, options: { force?: boolean } = {}) {
  await writeFileAtomic(path, toAsync(formatQrels(qrels)), { force: options.force });
}

async function* toAsync(gen: Iterable<string>): AsyncGenerator<string> {
  yield* gen;
}
