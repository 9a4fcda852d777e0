/**
 * Evaluating a run file against a qrels file with trec_eval's semantics (`deno task eval
 * trec`, `eval compare`, `eval stability`). One route,
 * top to bottom ({@link evaluateTrecFiles}):
 *
 * 1. open the sources (`io/source.ts`: a file, gzip with every member, or standard input,
 *    which is held in memory as it may be read twice; not both files from it);
 * 2. read the qrels whole into the packed index (`qrels_index.ts`);
 * 3. read the run in chunks (`run_reader.ts`), query block by query block: judge it
 *    (`judge.ts`), rank it in trec_eval order, and hand it to the measures (`QueryEvaluator`;
 *    `grouped_run.ts`). A large pair of plain files is read in two halves instead, one per
 *    thread, each through steps 2 and 3 (`halves.ts`), then joined;
 * 4. summarize: qrels queries the run lacks (they count with `-c`), run queries the qrels
 *    lack (skipped with a warning), the means.
 *
 * A run that is not grouped by query (a query comes back after another) is read again,
 * whole, regrouped into one block per query, and goes through the same steps; a JSON run is
 * read into memory and goes through `evaluateFrom`, with the same semantics (the property
 * and differential tests hold every path to the reference and to trec_eval).
 *
 * Formats (trec_eval's): qrels lines `qid iter docno relevance` (exactly 4 fields, an
 * integer relevance; a blank line is an error, as in trec_eval); run lines `qid Q0 docno
 * rank score runid` (at least 6 fields, the rank and extra fields ignored, blank lines
 * skipped; the runid is the last line's). Scores are read as C's `atof` reads decimal
 * numbers and infinities (`1e400`, `inf`); what it would read as another number (`0x10`,
 * `1.5abc`, `abc` as 0) or cannot rank (`nan`) is refused with the line, saying what
 * trec_eval would have read (`trec_format.ts`, `scoreFromText`). The release
 * reproduced (`trec_format.ts`) decides comments and score precision.
 *
 * @module
 */
import { holdStdin, sourceName, type TextSource } from "../io/source.ts";
import { evaluateFrom, type JudgmentSource, warnAllNegative, warnRunOnly } from "./evaluate.ts";
import {
  type EvaluatorOptions,
  QueryEvaluator,
  type ShownForMissing,
} from "./engine/query_evaluator.ts";
import type { EvalOptions, EvalResult } from "./types.ts";
import { BlockJudge } from "./engine/judge.ts";
import { evaluateGroupedRun, type RunPass } from "./engine/grouped_run.ts";
import { type StageTimes } from "./types.ts";
import { QrelsIndex } from "./engine/qrels_index.ts";
import { compareDocnos } from "./rank.ts";
import { HALVES_MIN_BYTES, halvesWorthIt, readInHalves } from "./engine/halves.ts";
import { type RunBlock, runBlockChunks, type RunReadOptions } from "./engine/run_reader.ts";
import { checkMissingQueries, checkOneStdin } from "./engine/reading_rules.ts";
import { DEFAULT_RELEASE, type TrecRelease } from "./release.ts";
import { isJsonSource } from "./json_files.ts";
import { readRunWithId } from "./read_files.ts";

/** Options of {@link evaluateTrecFiles}. */
export interface FileEvalOptions extends EvalOptions {
  /**
   * Read buffer size in bytes (default 256 KiB, `READ_CHUNK`; tests use tiny ones to cross chunk
   * edges).
   */
  chunkBytes?: number;
  /**
   * Threads: 2 reads a large pair of files (`parallelMinBytes` of run on; plain text, not
   * gzip or JSON) in two halves, one per thread (`halves.ts`); 1 does it all here. Default: 2
   * where the machine has two or more CPUs. Results are identical (tested); tolerant mode
   * uses one.
   */
  threads?: number;
  /** Smallest run file (bytes) read in halves (default `HALVES_MIN_BYTES`, 128 MB). */
  parallelMinBytes?: number;
  /**
   * The share of each file the calling thread reads when reading in halves (default 0.55:
   * the worker starts later; tests move the cut).
   */
  firstShare?: number;
  /** Told which route the evaluation took: `halves` (two threads) or `one thread`. */
  onRoute?: (route: "halves" | "one thread") => void;
  /**
   * Tolerant mode (opt-in): skip malformed lines (field count, number, UTF-8) instead of
   * failing, and report them in the result's `skipped`. Duplicates still fail.
   */
  skipBadLines?: boolean;
  /** Stage timing (for `bench eval --profile`), filled in when given (one thread). */
  times?: StageTimes;
}

/**
 * Evaluates a run file against a qrels file with trec_eval's semantics (see the module
 * comment for the route).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluateTrecFiles } from "./evaluate_files.ts";
 * const enc = new TextEncoder();
 * const qrels = { name: "q", bytes: enc.encode("1 0 a 1\n1 0 b 0\n") };
 * const run = { name: "r", bytes: enc.encode("1 Q0 a 1 0.5 x\n1 Q0 b 2 0.5 x\n") };
 * const r = await evaluateTrecFiles(qrels, run, ["recip_rank"]);
 * assert.equal(r.summary.recip_rank, 0.5); // tie: docno "b" ranks first
 * ```
 */
export async function evaluateTrecFiles(
  qrelsSource: TextSource,
  runSource: TextSource,
  measures: readonly string[],
  options: FileEvalOptions = {},
): Promise<EvalResult> {
  const release = options.release ?? DEFAULT_RELEASE;
  const times = options.times;
  let t = performance.now();
  // The clock is read per query block only when a profile is asked for.
  const lap = times
    ? (stage: keyof StageTimes) => {
      const now = performance.now();
      times[stage] += (now - t) / 1000;
      t = now;
    }
    : () => {};
  // 1. The sources: standard input is held in memory, as the run may be read twice. A large
  //    pair of files is read in halves, one per thread (steps 2 and 3; `halves.ts`).
  checkOneStdin(qrelsSource, runSource);
  const run = await holdStdin(runSource);
  const skipped = options.skipBadLines
    ? { qrels: { count: 0, examples: [] }, run: { count: 0, examples: [] } }
    : undefined;
  // The evaluator of the route taken; this first one gives the measures' warnings, once.
  let ev = new QueryEvaluator(measures, options);
  const evaluator = () => new QueryEvaluator(measures, { ...options, warn: false });
  // trec_eval reads a file's byte-order mark as part of its first query id; the kit skips it,
  // and says so once per file (a file read again, on one thread or regrouped, says it once).
  const noted = new Set<string>();
  const noteBom = (source: TextSource) => () => {
    const name = sourceName(source);
    if (options.warn === false || noted.has(name)) return;
    noted.add(name);
    (options.warn ?? console.warn)(
      `warning: ${name} starts with a UTF-8 byte-order mark, skipped; trec_eval reads it as ` +
        `part of the first query id`,
    );
  };
  const threads = skipped ? 1 : options.threads ?? (navigator.hardwareConcurrency >= 2 ? 2 : 1);
  const inHalves = threads > 1 &&
      await halvesWorthIt(qrelsSource, run, options.parallelMinBytes ?? HALVES_MIN_BYTES)
    ? await readInHalves(qrelsSource as string, run as string, measures, {
      release,
      chunkBytes: options.chunkBytes,
      evaluator: evaluatorSettings(options),
      firstShare: options.firstShare,
      onBom: (path) => noteBom(path)(),
    })
    : undefined;
  options.onRoute?.(inHalves ? "halves" : "one thread");
  if (inHalves) {
    lap("read the qrels");
    return summarize(inHalves.qrels, inHalves.pass, inHalves.evaluator, inHalves.runId);
  }
  // 2. The qrels, whole.
  const json = await isJsonSource(run);
  const qrels = await QrelsIndex.read(qrelsSource, {
    chunkBytes: options.chunkBytes,
    skip: skipped?.qrels,
    release,
    onBom: noteBom(qrelsSource),
  });
  lap("read the qrels");
  // 3. The run, query block by query block: judged, ranked and measured.
  let runId = "";
  const onRunId = (id: string) => runId = id;
  const blocks = runBlockChunks(run, {
    release,
    chunkBytes: options.chunkBytes,
    skip: skipped?.run,
    onRunId,
    onBom: noteBom(run),
  });
  let pass = json ? undefined : await evaluateGroupedRun(qrels, blocks, run, ev, lap);
  if (!pass && !json) {
    // Not grouped by query: read whole, regrouped into one block per query, and through
    // the same judging and ranking (so -M and duplicates are read as in a grouped run).
    if (skipped) skipped.run = { count: 0, examples: [] }; // counted again on the re-read
    ev = evaluator();
    const whole = regroupedBlocks(run, {
      release,
      chunkBytes: options.chunkBytes,
      skip: skipped?.run,
      onRunId,
    });
    pass = await evaluateGroupedRun(qrels, whole, run, ev, lap);
  }
  if (!pass) {
    // JSON: in memory, through `evaluateFrom`.
    const read = await readRunWithId(run, { release });
    const result = evaluateFrom(indexJudgments(qrels, release), read.run, measures, options);
    result.runId = read.runId;
    if (skipped) result.skipped = skipped;
    return result;
  }
  const result = summarize(qrels, pass, ev, runId);
  if (skipped) result.skipped = skipped; // (a spread would build the lazy perQuery)
  return result;

  // 4. The summary.
  function summarize(qrels: QrelsIndex, pass: RunPass, ev: QueryEvaluator, runId: string) {
    const missing: { qid: string; values: number[]; shown?: ShownForMissing }[] = [];
    const judge = new BlockJudge();
    const table = qrels.queryTable();
    for (let q = 0; q < table.size; q++) {
      if (pass.judged[q]) continue;
      const qid = table.id(q);
      if (!options.complete) {
        missing.push({ qid, values: [] });
        continue;
      }
      // As in trec_eval, a qrels-only query's judgments are looked at only with -c (and
      // 9.0.8 then only counts them: a docno judged twice counts twice; 10.0 stops on it and
      // prints the query's per-query lines).
      const j = qrels.digest(qid, ev.level, judge, release === "9.0.8")!;
      const values = ev.valuesForMissing(j, release);
      missing.push({ qid, values, shown: release === "10.0" ? ev.shownForMissing(j) : undefined });
    }
    checkMissingQueries(release, options.complete ?? false, missing.map((m) => m.qid));
    const runOnly = pass.runOnly.sort(compareDocnos);
    warnRunOnly(runOnly, options.warn);
    warnAllNegative(ev.allNegativeQueries(), options.warn);
    const result = ev.result({
      complete: options.complete ?? false,
      runOnlyQueries: runOnly,
      missing,
      runId,
      release,
      file: sourceName(run),
    });
    lap("summary");
    return result;
  }
}

/** The evaluator's settings as plain data (for the worker; warnings stay here). */
function evaluatorSettings(o: FileEvalOptions): EvaluatorOptions {
  return {
    relevanceLevel: o.relevanceLevel,
    judgedOnly: o.judgedOnly,
    maxDocs: o.maxDocs,
    numDocs: o.numDocs,
    release: o.release,
  };
}

/**
 * A run not grouped by query, read whole and regrouped: one block per query, its lines in
 * file order (trec_eval sorts each query's lines itself), their docnos copied into one
 * buffer.
 */
async function* regroupedBlocks(
  run: TextSource,
  options: RunReadOptions,
): AsyncGenerator<RunBlock[]> {
  let bytes = new Uint8Array(1 << 16);
  let used = 0;
  const queries = new Map<
    string,
    { start: number[]; end: number[]; hash: number[]; score: number[]; line: number[] }
  >();
  for await (const blocks of runBlockChunks(run, options)) {
    for (const b of blocks) {
      let q = queries.get(b.qid);
      if (!q) queries.set(b.qid, q = { start: [], end: [], hash: [], score: [], line: [] });
      for (let i = b.first; i < b.first + b.count; i++) {
        const len = b.docEnd[i] - b.docStart[i];
        if (used + len > bytes.length) {
          const bigger = new Uint8Array(Math.max(2 * bytes.length, used + len));
          bigger.set(bytes.subarray(0, used));
          bytes = bigger;
        }
        bytes.set(b.buf.subarray(b.docStart[i], b.docEnd[i]), used);
        q.start.push(used);
        q.end.push(used += len);
        q.hash.push(b.docHash[i]);
        q.score.push(b.score[i]);
        q.line.push(b.line[i]);
      }
    }
  }
  const out: RunBlock[] = [];
  for (const [qid, q] of queries) {
    out.push({
      buf: bytes,
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
  yield out;
}

/**
 * The index as `evaluateFrom` reads it: a query the run ranks is judged with duplicates
 * checked; a qrels-only one (read only with -c) has its judgments counted, a docno judged
 * twice counting twice, as 9.0.8 does (10.0 stops on it, as the kit then does).
 */
function indexJudgments(qrels: QrelsIndex, release: TrecRelease): JudgmentSource {
  const judge = new BlockJudge();
  return {
    has: (qid) => qrels.lookup(qid) >= 0,
    queries: () => qrels.queries(),
    digest: (qid, level, retrieved) => {
      const count = !retrieved && release === "9.0.8";
      const j = qrels.digest(qid, level, judge, count)!;
      const docs = j.judgedOnly(qrels);
      return { get: (d) => docs.get(d), numRel: j.numRel, judged: j.judged.slice() };
    },
  };
}
