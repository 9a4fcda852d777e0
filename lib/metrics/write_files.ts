/**
 * Writing runs and qrels: as TREC files or as ranx/pytrec_eval JSON (chosen by the output's
 * name, `.json`, or the `format` option), gzip-compressed when the name ends in `.gz`, always
 * through `writeFileAtomic` (a temporary file renamed into place; an existing file is only
 * replaced with `force`). A run's documents are written in trec_eval order with ranks 1..n
 * and scores in their shortest exact form, so reading a written file gives the same values.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { writeFileAtomic, writeOutput } from "../io/atomic.ts";
import type { Qrels, Run } from "./types.ts";
import { rankDocuments } from "./rank.ts";
import { formatScoresJson } from "./json_files.ts";
import type { TrecRelease } from "./release.ts";

/** The file formats runs and qrels are written in. */
export type FileFormat = "trec" | "json";

/** Options of {@link writeRun} and {@link writeQrels}. */
export interface WriteOptions {
  /** Replace an existing file. */
  force?: boolean;
  /** `trec` or `json` (default: `json` for a `.json`/`.json.gz` name, else `trec`). */
  format?: FileFormat;
}

/** Options of {@link writeRun}. */
export interface WriteRunOptions extends WriteOptions {
  /** The runid column of a TREC run (default `kit`). */
  runId?: string;
  /** Whose tie order the documents are written in (default 9.0.8, see `trecScore`). */
  release?: TrecRelease;
}

/**
 * The format a file is written in: `format` when given, else by its name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatFor } from "./write_files.ts";
 * assert.equal(formatFor("run.json.gz"), "json");
 * assert.equal(formatFor("run.txt"), "trec");
 * ```
 */
export function formatFor(path: string, format?: FileFormat): FileFormat {
  return format ?? (/\.json(\.gz)?$/i.test(path) ? "json" : "trec");
}

/**
 * Why a TREC file cannot hold an id, or undefined: an empty id, or one holding what
 * trec_eval splits fields on (C's isspace: space, tab, line feed, vertical tab, form feed,
 * carriage return) or NUL (which ends a C string; trec_eval 9.0.8 crashes on it). Anything
 * else, a no-break space or another control character included, is kept by the kit's
 * readers and trec_eval alike.
 */
function idProblem(id: string): string | undefined {
  if (id.length === 0) return "is empty";
  const bad = /[ \t\n\v\f\r\0]/.exec(id);
  if (!bad) return undefined;
  return bad[0] === "\0"
    ? "holds a NUL character, which ends a C string (trec_eval 9.0.8 crashes on it)"
    : `holds ${JSON.stringify(bad[0])}, where trec_eval splits the fields of a line`;
}

function checkId(id: string, what: string, file?: string): void {
  const problem = idProblem(id);
  if (problem) {
    throw new KitError(
      `${what} ${JSON.stringify(id)} ${problem}: a TREC file cannot hold it (JSON can: ` +
        "write a .json file)",
      file === undefined ? undefined : { file },
    );
  }
}

/** Checks every id before a TREC file is written, so the error names the file. */
function checkIds(scores: Run | Qrels, file: string, runId?: string): void {
  if (runId !== undefined) checkId(runId, "run id", file);
  for (const [qid, docs] of scores) {
    checkId(qid, "query id", file);
    for (const d of docs.keys()) checkId(d, "document id", file);
  }
}

function checkRelevance(rel: number): void {
  if (!Number.isSafeInteger(rel)) throw new KitError(`relevance ${rel} is not an integer`);
}

/** A query's docnos in trec_eval order (no NaN score: it has no place in that order). */
function ranked(qid: string, docs: ReadonlyMap<string, number>, release?: TrecRelease) {
  for (const [d, s] of docs) {
    if (Number.isNaN(s)) {
      throw new KitError(
        `query ${qid}, document ${d}: score NaN has no place in trec_eval's order`,
      );
    }
  }
  return rankDocuments(docs, release);
}

/** A score in a TREC run: shortest round-trip form; an infinity as `inf`, which atof reads. */
function trecScoreText(s: number): string {
  return s === Infinity ? "inf" : s === -Infinity ? "-inf" : String(s);
}

/**
 * Formats a run as TREC run lines, each query's documents in trec_eval order with ranks
 * 1..n. Scores are written with full precision (shortest round-trip form; `inf`, `-inf`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatRun } from "./write_files.ts";
 * const text = [...formatRun(new Map([["q", new Map([["a", 0.1], ["b", 0.7]])]]), "bm25")].join("");
 * assert(text === "q Q0 b 1 0.7 bm25\nq Q0 a 2 0.1 bm25\n");
 * ```
 */
export function* formatRun(run: Run, runId = "kit", release?: TrecRelease): Generator<string> {
  checkId(runId, "run id");
  for (const [qid, docs] of run) {
    checkId(qid, "query id");
    const lines: string[] = [];
    ranked(qid, docs, release).forEach((d, r) => {
      checkId(d, "document id");
      lines.push(`${qid} Q0 ${d} ${r + 1} ${trecScoreText(docs.get(d)!)} ${runId}\n`);
    });
    yield lines.join("");
  }
}

/**
 * Formats qrels as TREC qrels lines (`qid 0 docno relevance`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatQrels } from "./write_files.ts";
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
      checkRelevance(rel);
      lines.push(`${qid} 0 ${d} ${rel}\n`);
    }
    yield lines.join("");
  }
}

/**
 * Writes a run atomically, as TREC or JSON (see {@link formatFor}), gzip for a `.gz` name, `-`
 * to standard output. An id a TREC file cannot hold is an error naming the file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeRun } from "./write_files.ts";
 * import { readRun } from "./read_files.ts";
 * const dir = await Deno.makeTempDir();
 * await writeRun(`${dir}/run.txt`, new Map([["q", new Map([["a", 1]])]]), { runId: "x" });
 * assert((await readRun(`${dir}/run.txt`)).get("q")!.get("a") === 1);
 * await writeRun(`${dir}/run.json.gz`, new Map([["q", new Map([["a", 1]])]]));
 * assert((await readRun(`${dir}/run.json.gz`)).get("q")!.get("a") === 1);
 * ```
 */
export async function writeRun(path: string, run: Run, options: WriteRunOptions = {}) {
  const json = formatFor(path, options.format) === "json";
  if (!json) checkIds(run, path, options.runId ?? "kit");
  const text = json
    ? formatScoresJson(run, (qid, docs) => ranked(qid, docs, options.release))
    : formatRun(run, options.runId ?? "kit", options.release);
  await writeText(path, text, options.force);
}

/**
 * Writes qrels atomically, as TREC or JSON (see {@link formatFor}), gzip for a `.gz` name,
 * `-` to standard output.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeQrels } from "./write_files.ts";
 * import { readQrels } from "./read_files.ts";
 * const path = (await Deno.makeTempDir()) + "/qrels.json";
 * await writeQrels(path, new Map([["q", new Map([["a", 1]])]]));
 * assert.equal(await Deno.readTextFile(path), '{\n"q": {"a": 1}\n}\n');
 * assert((await readQrels(path)).get("q")!.get("a") === 1);
 * ```
 */
export async function writeQrels(path: string, qrels: Qrels, options: WriteOptions = {}) {
  let text: Iterable<string>;
  if (formatFor(path, options.format) === "json") {
    // Checked before writing starts (formatQrels checks each line as it goes).
    for (const docs of qrels.values()) for (const rel of docs.values()) checkRelevance(rel);
    text = formatScoresJson(qrels);
  } else {
    checkIds(qrels, path);
    text = formatQrels(qrels);
  }
  await writeText(path, text, options.force);
}

/** Writes text pieces atomically, gzip-compressed for a `.gz` name; `-` is standard output. */
async function writeText(path: string, text: Iterable<string>, force?: boolean): Promise<void> {
  if (path === "-" || !/\.gz$/i.test(path)) return await writeOutput(path, text, { force });
  const pieces = ReadableStream.from(text).pipeThrough(new TextEncoderStream());
  const gzip = new CompressionStream("gzip") as TransformStream<Uint8Array, Uint8Array>;
  await writeFileAtomic(path, pieces.pipeThrough(gzip), { force });
}
