/**
 * Evaluating a run file against a qrels file with trec_eval's semantics (`deno task eval
 * trec`, `eval compare`, `eval stability`). {@link evaluateTrecFiles} holds standard input in
 * memory (it may be read twice; not both files from it), looks once at whether each file is
 * ranx/pytrec_eval JSON, and takes one of four routes, each a function below:
 *
 * - {@link inHalves}: a large pair of plain files, read in two halves, one per thread
 *   (`engine/halves.ts`), each half through the one-thread steps, then joined;
 * - {@link groupedRun}: the qrels read whole into the packed index (`engine/qrels_index.ts`),
 *   then the run in chunks (`engine/run_reader.ts`), query block by query block: judged
 *   (`engine/judge.ts`), ranked in trec_eval order and measured (`engine/grouped_run.ts`);
 * - {@link regroupedRun}: a run not grouped by query (a query comes back after another), read
 *   again whole, one block per query (`engine/regroup.ts`), through the same steps;
 * - {@link jsonRun}: a JSON run, read whole into memory, one block per query, through the
 *   same steps.
 *
 * Every route ends in the one finish step (`engine/finish.ts`, which `evaluate` ends in too):
 * the qrels queries the run lacks (they count with `-c`), the run queries the qrels lack
 * (skipped with a warning), the means. The property and differential tests hold every route
 * to the brute-force reference and to trec_eval.
 *
 * Formats (trec_eval's): qrels lines `qid iter docno relevance` (exactly 4 fields, an
 * integer relevance; a blank line is an error, as in trec_eval); run lines `qid Q0 docno
 * rank score runid` (at least 6 fields, the rank and extra fields ignored, blank lines
 * skipped; the runid is the last line's). Scores are read as C's `atof` reads decimal
 * numbers and infinities (`1e400`, `inf`); what it would read as another number (`0x10`,
 * `1.5abc`, `abc` as 0) or cannot rank (`nan`) is refused with the line, saying what
 * trec_eval would have read (`engine/reading_rules.ts`, `scoreFromText`). The release
 * reproduced (`release.ts`) decides comments and score precision.
 *
 * @module
 */
import { holdStdin, sourceName, type TextSource } from "../io/source.ts";
import { finishEvaluation } from "./engine/finish.ts";
import { evaluateGroupedRun, type RunPass } from "./engine/grouped_run.ts";
import { HALVES_MIN_BYTES, halvesWorthIt, readInHalves } from "./engine/halves.ts";
import { BlockJudge } from "./engine/judge.ts";
import { QrelsIndex } from "./engine/qrels_index.ts";
import { type EvaluatorOptions, QueryEvaluator } from "./engine/query_evaluator.ts";
import { checkOneStdin } from "./engine/reading_rules.ts";
import { blocksOfRun, regroupedBlocks } from "./engine/regroup.ts";
import { runBlockChunks } from "./engine/run_reader.ts";
import type { SkippedLines } from "./engine/trec_scan.ts";
import { isJsonSource, readJsonRun } from "./json_files.ts";
import { DEFAULT_RELEASE, type TrecRelease } from "./release.ts";
import type { EvalOptions, EvalResult, StageTimes } from "./types.ts";

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
 * comment for its routes).
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
  const files = await FileEvaluation.open(qrelsSource, runSource, measures, options);
  // The one look at each file's format.
  const json = { qrels: await isJsonSource(files.qrels), run: await isJsonSource(files.run) };
  const halves = json.qrels || json.run ? undefined : await inHalves(files);
  options.onRoute?.(halves ? "halves" : "one thread");
  if (halves) return files.finish(halves);
  const qrels = await QrelsIndex.read(files.qrels, {
    json: json.qrels,
    chunkBytes: options.chunkBytes,
    skip: files.skipped?.qrels,
    release: files.release,
    onBom: files.noteBom(files.qrels),
  });
  files.lap("read the qrels");
  const measured = json.run
    ? await jsonRun(files, qrels)
    : await groupedRun(files, qrels) ?? await regroupedRun(files, qrels);
  return files.finish(measured);
}

/** What a route hands to the finish step: the run's queries measured. */
interface Measured {
  qrels: QrelsIndex;
  pass: RunPass;
  evaluator: QueryEvaluator;
  runId: string;
}

/**
 * The route for a large pair of plain files on a machine with two CPUs or more: the halves,
 * one per thread; undefined when the files are not worth it (`halvesWorthIt`) or the halves
 * give up (then the one-thread routes read the files and say why).
 */
async function inHalves(files: FileEvaluation): Promise<Measured | undefined> {
  const { qrels, run, options } = files;
  if (files.threads < 2) return undefined;
  const minBytes = options.parallelMinBytes ?? HALVES_MIN_BYTES;
  if (!(await halvesWorthIt(qrels, run, minBytes))) return undefined;
  const halves = await readInHalves(qrels as string, run as string, files.measures, {
    release: files.release,
    chunkBytes: options.chunkBytes,
    evaluator: evaluatorSettings(options),
    firstShare: options.firstShare,
    onBom: (path) => files.noteBom(path)(),
  });
  files.lap("read the qrels");
  return halves;
}

/**
 * The route for a TREC run on one thread: read in chunks, query block by query block, into
 * the first evaluator; undefined when the run turns out not to be grouped by query.
 */
async function groupedRun(files: FileEvaluation, qrels: QrelsIndex): Promise<Measured | undefined> {
  let runId = "";
  const blocks = runBlockChunks(files.run, {
    release: files.release,
    chunkBytes: files.options.chunkBytes,
    skip: files.skipped?.run,
    onRunId: (id) => runId = id,
    onBom: files.noteBom(files.run),
  });
  const evaluator = files.evaluator();
  const pass = await evaluateGroupedRun(qrels, blocks, files.run, evaluator, files.lap);
  return pass && { qrels, pass, evaluator, runId };
}

/**
 * The route for a TREC run not grouped by query: read again, whole, regrouped into one block
 * per query, through the same judging and ranking (so -M and duplicates are read as in a
 * grouped run), into a fresh evaluator.
 */
async function regroupedRun(files: FileEvaluation, qrels: QrelsIndex): Promise<Measured> {
  const skipped = files.skipped;
  if (skipped) skipped.run = { count: 0, examples: [] }; // counted again on the re-read
  let runId = "";
  const blocks = regroupedBlocks(files.run, {
    release: files.release,
    chunkBytes: files.options.chunkBytes,
    skip: skipped?.run,
    onRunId: (id) => runId = id,
  });
  const evaluator = files.evaluator();
  const pass = await evaluateGroupedRun(qrels, blocks, files.run, evaluator, files.lap);
  return { qrels, pass: pass!, evaluator, runId }; // (whole, it is grouped)
}

/**
 * The route for a ranx/pytrec_eval JSON run: read whole into memory, then one block per
 * query through the same judging and ranking. A JSON run has no runid: `kit`.
 */
async function jsonRun(files: FileEvaluation, qrels: QrelsIndex): Promise<Measured> {
  const run = await readJsonRun(files.run);
  files.lap("read the run");
  const blocks = [blocksOfRun(run, files.release)];
  const evaluator = files.evaluator();
  const pass = await evaluateGroupedRun(qrels, blocks, files.run, evaluator, files.lap);
  return { qrels, pass: pass!, evaluator, runId: "kit" }; // (a query appears once in JSON)
}

/** One evaluation of files: what every route shares. */
class FileEvaluation {
  readonly release: TrecRelease;
  readonly threads: number;
  /** Tolerant mode: the malformed lines skipped in each file. */
  readonly skipped?: { qrels: SkippedLines; run: SkippedLines };
  /** The files whose byte-order mark was noted. */
  private noted = new Set<string>();
  /** When the last stage ended (with `options.times`). */
  private t = performance.now();

  /**
   * Checks the sources and the measures, and holds standard input in memory: it is looked at
   * for JSON, and a run may be read twice.
   */
  static async open(
    qrels: TextSource,
    run: TextSource,
    measures: readonly string[],
    options: FileEvalOptions,
  ): Promise<FileEvaluation> {
    checkOneStdin(qrels, run);
    const heldRun = await holdStdin(run);
    // The measures are checked, and their warnings given, before the qrels are read.
    const first = new QueryEvaluator(measures, options);
    return new FileEvaluation(await holdStdin(qrels), heldRun, measures, options, first);
  }

  private constructor(
    readonly qrels: TextSource,
    readonly run: TextSource,
    readonly measures: readonly string[],
    readonly options: FileEvalOptions,
    /** The first route's evaluator: it gave the measures' warnings; later ones give none. */
    private first: QueryEvaluator | undefined,
  ) {
    this.release = options.release ?? DEFAULT_RELEASE;
    this.skipped = options.skipBadLines
      ? { qrels: { count: 0, examples: [] }, run: { count: 0, examples: [] } }
      : undefined;
    this.threads = this.skipped
      ? 1
      : options.threads ?? (navigator.hardwareConcurrency >= 2 ? 2 : 1);
  }

  /** A fresh evaluator of the measures (a route that reads the run again needs one). */
  evaluator(): QueryEvaluator {
    const first = this.first;
    this.first = undefined;
    return first ?? new QueryEvaluator(this.measures, { ...this.options, warn: false });
  }

  /**
   * Says once per file that it starts with a UTF-8 byte-order mark, which the kit skips and
   * trec_eval reads as part of the first query id (a file read again says it once).
   */
  noteBom(source: TextSource): () => void {
    return () => {
      const name = sourceName(source);
      const warn = this.options.warn;
      if (warn === false || this.noted.has(name)) return;
      this.noted.add(name);
      (warn ?? console.warn)(
        `warning: ${name} starts with a UTF-8 byte-order mark, skipped; trec_eval reads it as ` +
          `part of the first query id`,
      );
    };
  }

  /**
   * Ends a stage of the profile (`options.times`): the clock is read per query block only when
   * a profile is asked for.
   */
  readonly lap = (stage: keyof StageTimes): void => {
    const times = this.options.times;
    if (!times) return;
    const now = performance.now();
    times[stage] += (now - this.t) / 1000;
    this.t = now;
  };

  /** The finish step (`engine/finish.ts`) on what a route measured. */
  finish(measured: Measured): EvalResult {
    const { qrels, pass, evaluator } = measured;
    const table = qrels.queryTable();
    const judge = new BlockJudge();
    const missing: string[] = [];
    for (let q = 0; q < table.size; q++) if (!pass.judged[q]) missing.push(table.id(q));
    const result = finishEvaluation(evaluator, {
      missing,
      // As in trec_eval, a qrels-only query's judgments are looked at only with -c (and
      // 9.0.8 then only counts them: a docno judged twice counts twice; 10.0 stops on it).
      judgments: (qid, level) => qrels.digest(qid, level, judge, this.release === "9.0.8")!,
      runOnly: pass.runOnly,
      runId: measured.runId,
      file: sourceName(this.run),
    }, this.options);
    if (this.skipped) result.skipped = this.skipped; // (a spread would build the lazy perQuery)
    this.lap("summary");
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
