/**
 * The pass every route of `evaluateTrecFiles` (`../evaluate_files.ts`) makes over a run's query
 * blocks, on one thread or on each of the halves (`halves.ts`): each block is judged against
 * the qrels, ranked in trec_eval order and handed to the measures.
 *
 * @module
 */
import type { FileRange, TextSource } from "../../io/source.ts";
import { sourceName } from "../../io/source.ts";
import { type EvaluatorOptions, QueryEvaluator } from "./query_evaluator.ts";
import { BlockJudge, QueryRanker, rankInto } from "./judge.ts";
import type { QrelsIndex } from "./qrels_index.ts";
import { type RunBlock, runBlockChunks } from "./run_reader.ts";
import type { TrecRelease } from "../release.ts";
import type { StageTimes } from "../types.ts";

/** What evaluating a grouped run gives. */
export interface RunPass {
  /** Per qrels query (its index in the query table): 1 when the run has it. */
  judged: Uint8Array;
  runOnly: string[];
}

/**
 * The pass over query blocks: judges, ranks (unless `-M`'s cut ranked it already) and
 * measures each query block into `ev`. Undefined when the run turns out not to be grouped by
 * query (a query comes back after another).
 */
export async function evaluateGroupedRun(
  qrels: QrelsIndex,
  chunks: AsyncIterable<RunBlock[]> | Iterable<RunBlock[]>,
  run: TextSource,
  ev: QueryEvaluator,
  lap: (stage: keyof StageTimes) => void,
): Promise<RunPass | undefined> {
  const file = sourceName(run);
  // Which queries the run has: a flag per qrels query, a set of the others (a Set of 100,000
  // ids costs more), to see a query come back.
  const judgedQueries = new Uint8Array(qrels.size);
  const runOnly = new Set<string>();
  const judge = new BlockJudge();
  const ranker = new QueryRanker(ev.level);
  const maxDocs = ev.options.maxDocs;
  for await (const blocks of chunks) {
    lap("read the run");
    for (const whole of blocks) {
      // -M: trec_eval ranks every line, keeps the first M, and only then looks for duplicate
      // docnos, so a duplicate below rank M is no error: judge the first M only.
      // A query that comes back (the run is not grouped) is read whole instead: seen before
      // judging, so a duplicate split across its blocks is judged there, with all its lines.
      const known = qrels.lookup(whole.qid);
      if (known >= 0 && judgedQueries[known]) return undefined;
      const b = maxDocs !== undefined && whole.count > maxDocs ? topOf(whole, maxDocs) : whole;
      const judged = judge.judge(b, qrels, ev.level, file, false, known);
      lap("judge");
      if (!judged) {
        if (runOnly.has(b.qid)) return undefined; // the query came back
        runOnly.add(b.qid);
        continue;
      }
      judgedQueries[judge.query] = 1;
      const query = ranker.rank(b, judge);
      lap("rank");
      ev.addRanked(b.qid, query);
      lap("measures");
    }
  }
  lap("read the run");
  return { judged: judgedQueries, runOnly: [...runOnly] };
}

/** What one thread's part of a run gives (see {@link evaluateRunRange}). */
export interface RunRangePass {
  /** Undefined when the part is not grouped by query. */
  pass?: RunPass;
  evaluator: QueryEvaluator;
  /** The part's last runid. */
  runId: string;
}

/** How {@link evaluateRunRange} reads its part of the run. */
export interface RunRangeRead {
  release: TrecRelease;
  chunkBytes?: number;
  /** Called when the part starts the file with a byte-order mark (which is skipped). */
  onBom?: () => void;
}

/**
 * The pass on bytes `range` of a run file, into an evaluator of its own (its measure warnings
 * silenced: the caller's evaluator gave them): each thread's half in `halves.ts`.
 */
export async function evaluateRunRange(
  qrels: QrelsIndex,
  path: string,
  range: FileRange,
  measures: readonly string[],
  settings: EvaluatorOptions,
  read: RunRangeRead,
): Promise<RunRangePass> {
  const evaluator = new QueryEvaluator(measures, { ...settings, warn: false });
  let runId = "";
  const blocks = runBlockChunks(path, { ...read, range, onRunId: (id) => runId = id });
  const pass = await evaluateGroupedRun(qrels, blocks, path, evaluator, () => {});
  return { pass, evaluator, runId };
}

/** The first `m` documents of a block in trec_eval order, as a block of their own. */
function topOf(b: RunBlock, m: number): RunBlock {
  let order = b.order, at = b.first;
  if (!order) {
    order = new Int32Array(b.count);
    rankInto(b, order, 0);
    at = 0;
  }
  const keep = (col: Int32Array) =>
    Int32Array.from({ length: m }, (_, r) => col[b.first + order![at + r]]);
  return {
    buf: b.buf,
    qid: b.qid,
    first: 0,
    count: m,
    docStart: keep(b.docStart),
    docEnd: keep(b.docEnd),
    docHash: keep(b.docHash),
    score: Float64Array.from({ length: m }, (_, r) => b.score[b.first + order![at + r]]),
    line: keep(b.line),
    order: Int32Array.from({ length: m }, (_, r) => r), // already in trec_eval order
  };
}
