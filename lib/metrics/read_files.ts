/**
 * Reading a run or qrels file into memory (TREC or ranx/pytrec_eval JSON, gzip too, or
 * standard input), with trec_eval's reading rules: the same readers as the file evaluation
 * (`evaluate_files.ts`), so a file it refuses is refused here with the same message.
 *
 * @module
 */
import { holdStdin, sourceName, type TextSource } from "../io/source.ts";
import { QrelsIndex } from "./engine/qrels_index.ts";
import { runBlockChunks } from "./engine/run_reader.ts";
import { duplicateDocument } from "./engine/reading_rules.ts";
import { decodeField, type SkippedLines } from "./engine/trec_scan.ts";
import { isJsonSource, readJsonRun } from "./json_files.ts";
import type { TrecRelease } from "./release.ts";
import type { Qrels, Run } from "./types.ts";

/** Options of {@link readRun} and {@link readQrels}. */
export interface ReadOptions {
  /** The trec_eval release whose reading rules apply (comment lines; default 9.0.8). */
  release?: TrecRelease;
  /** Tolerant mode: skip malformed lines, counting them here. */
  skip?: SkippedLines;
}

/**
 * Reads a qrels file (TREC or ranx/pytrec_eval JSON, gzip too) into memory.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readQrels } from "./read_files.ts";
 * const q = await readQrels({ name: "q", bytes: new TextEncoder().encode("7 0 a 2\n") });
 * assert.equal(q.get("7")!.get("a"), 2);
 * ```
 */
export async function readQrels(source: TextSource, options: ReadOptions = {}): Promise<Qrels> {
  return (await QrelsIndex.read(source, options)).toQrels();
}

/**
 * Reads a run file (TREC or ranx/pytrec_eval JSON, gzip too) into memory: the scores as
 * written (`trecScore` gives them as a release stores them). Duplicates are rejected;
 * queries need not be grouped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readRun } from "./read_files.ts";
 * const bytes = new TextEncoder().encode("q1 Q0 d1 1 0.5 r\nq1 Q0 d2 2 0.25 r\n");
 * const run = await readRun({ name: "run", bytes });
 * assert.equal(run.get("q1")!.get("d2"), 0.25);
 * ```
 */
export async function readRun(source: TextSource, options: ReadOptions = {}): Promise<Run> {
  return (await readRunWithId(source, options)).run;
}

/**
 * {@link readRun}, with the run's id (the last line's runid; `kit` for JSON, which has none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readRunWithId } from "./read_files.ts";
 * const bytes = new TextEncoder().encode("q1 Q0 d1 1 0.5 bm25\n");
 * assert.equal((await readRunWithId({ name: "run", bytes })).runId, "bm25");
 * ```
 */
export async function readRunWithId(
  source: TextSource,
  options: ReadOptions = {},
): Promise<{ run: Run; runId: string }> {
  source = await holdStdin(source); // looked at twice: the JSON sniff, then the reader
  if (await isJsonSource(source)) return { run: await readJsonRun(source), runId: "kit" };
  const file = sourceName(source);
  const run: Run = new Map();
  let runId = "";
  // Scores as written: the 32-bit rounding of 9.0.8 is for ranking, not for this Map.
  const chunks = runBlockChunks(source, {
    release: options.release,
    skip: options.skip,
    onRunId: (id) => runId = id,
    scoresAsWritten: true,
  });
  for await (const blocks of chunks) {
    for (const b of blocks) {
      let docs = run.get(b.qid);
      if (!docs) run.set(b.qid, docs = new Map());
      for (let i = b.first; i < b.first + b.count; i++) {
        const where = { file, line: b.line[i] };
        const docno = decodeField(b.buf, b.docStart[i], b.docEnd[i], where);
        if (docs.has(docno)) throw duplicateDocument(b.qid, docno, where);
        docs.set(docno, b.score[i]);
      }
    }
  }
  return { run, runId };
}
