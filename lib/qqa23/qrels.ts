/**
 * Reading a Qur'an QA 2023 Task A qrels file as the official scorer (`QQA23_TaskA_eval.py`) reads
 * it: tab-separated `qid<TAB>0<TAB>docid<TAB>relevance`, blank lines skipped, ids as pandas turns
 * them into text (a column of integers is rewritten: `007` becomes `7`). A question whose line has
 * the docid `-1` has no answer in the Qur'an (a **zero-answer** question).
 *
 * What the scorer would read differently from what the file says, or not at all, is refused with
 * a `KitError` naming the line: a line without exactly 4 tab-separated fields, an empty id, an id
 * with white space or a `"` (pandas' quote), an id pandas reads as missing (`NA`, `nan`, `null`),
 * a relevance that is not an integer (pytrec_eval takes integers only), a repeated
 * (question, passage) pair, a question with `-1` beside passages, and a file without judgments.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { readLines, sourceName, type TextSource } from "../io/text.ts";

/** A Task A qrels file as the official scorer splits it. */
export interface Qqa23Qrels {
  /** The file's name as given (`<memory>` for text). */
  file: string;
  /** Questions with answers: qid to (passage id to relevance), in file order. */
  judged: Map<string, Map<string, number>>;
  /** Zero-answer questions (the docid `-1`), in file order. */
  zeroAnswer: string[];
  /** Every judged question of both kinds, in the order of its first line. */
  questions: string[];
  /** The line of each question's first judgment. */
  firstLine: Map<string, number>;
  /** Judgment lines read (blank lines not counted). */
  lines: number;
}

/** One row of a file split into fields, with its line number. */
export interface FieldRow {
  fields: string[];
  line: number;
}

/**
 * The strings pandas' `read_csv` reads as a missing value by default (an id among them becomes
 * `nan`, and turns a column of integers into decimals: `114` becomes `114.0`).
 */
export const PANDAS_NA: ReadonlySet<string> = new Set([
  "",
  "#N/A",
  "#N/A N/A",
  "#NA",
  "-1.#IND",
  "-1.#QNAN",
  "-NaN",
  "-nan",
  "1.#IND",
  "1.#QNAN",
  "<NA>",
  "N/A",
  "NA",
  "NULL",
  "NaN",
  "None",
  "n/a",
  "nan",
  "null",
]);

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$|^[+-]?inf(?:inity)?$/i;
const BOOLEAN = new Set(["True", "TRUE", "true", "False", "FALSE", "false"]);
const INT64_MIN = -(2n ** 63n), UINT64_END = 2n ** 64n, INT64_END = 2n ** 63n;

/**
 * An id column as pandas' `read_csv(...)[col].astype(str)` turns it into text: a column whose
 * every value is an integer (within 64 bits) is rewritten canonically (`007` → `7`, `+5` → `5`),
 * a column of booleans as `True`/`False`; any other column keeps its text. A column pandas would
 * read as decimals (`1.5` beside `2`: `2` becomes `2.0`) is refused, naming its first decimal.
 * `where(i)` is the location of value `i`, for the message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pandasIds } from "./qrels.ts";
 * const at = (i: number) => ({ file: "q", line: i + 1 });
 * assert.deepEqual(pandasIds(["007", "+5", "-0"], "qid", at), ["7", "5", "0"]);
 * assert.deepEqual(pandasIds(["007", "2:1-5"], "docid", at), ["007", "2:1-5"]);
 * assert.throws(() => pandasIds(["1", "1.5"], "qid", at), /q:2: .*decimal numbers/);
 * ```
 */
export function pandasIds(
  values: readonly string[],
  column: string,
  where: (i: number) => { file: string; line: number },
): string[] {
  if (values.length === 0) return [];
  if (values.every((v) => INTEGER.test(v))) {
    const ints = values.map((v) => BigInt(v));
    const signed = ints.every((n) => n >= INT64_MIN && n < INT64_END);
    const unsigned = ints.every((n) => n >= 0n && n < UINT64_END);
    return signed || unsigned ? ints.map(String) : [...values];
  }
  if (values.every((v) => BOOLEAN.has(v))) {
    return values.map((v) => (v.toLowerCase() === "true" ? "True" : "False"));
  }
  if (values.every((v) => DECIMAL.test(v))) {
    const i = values.findIndex((v) => !INTEGER.test(v));
    throw new KitError(
      `${column} '${values[i]}': every ${column} of this file is a number and this one is not ` +
        `an integer, so pandas (the official scorer) reads the column as decimal numbers and ` +
        `renames every id ('1' becomes '1.0'); the kit does not reproduce that: use integer ` +
        `or textual ids`,
      where(i),
    );
  }
  return [...values];
}

/**
 * The checks every id field of the official files needs: not empty, no white space, no `"`, not
 * a string pandas reads as missing. Returns the problem, or undefined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { idProblem } from "./qrels.ts";
 * assert.equal(idProblem("2:255-257", "docid"), undefined);
 * assert.match(idProblem("NA", "qid")!, /missing value/);
 * assert.match(idProblem("a b", "docid")!, /white space/);
 * ```
 */
export function idProblem(id: string, column: string): string | undefined {
  if (id === "") return `empty ${column}`;
  if (/\s/.test(id)) {
    return `${column} '${id}' holds white space, which the official scorer's reading (pandas) ` +
      "treats differently from its checker";
  }
  if (id.includes('"')) {
    return `${column} '${id}' holds '"', which pandas (the official scorer) reads as a quote`;
  }
  if (PANDAS_NA.has(id)) {
    return `${column} '${id}' is read by pandas (the official scorer) as a missing value ('nan')`;
  }
  return undefined;
}

/**
 * Parses the rows of a qrels file (see the module comment for what is refused).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { qrelsFromRows } from "./qrels.ts";
 * const q = qrelsFromRows([
 *   { fields: ["1", "0", "2:1-5", "1"], line: 1 },
 *   { fields: ["2", "0", "-1", "1"], line: 2 },
 * ], "q.gold");
 * assert.deepEqual(q.zeroAnswer, ["2"]);
 * assert.equal(q.judged.get("1")?.get("2:1-5"), 1);
 * ```
 */
export function qrelsFromRows(rows: readonly FieldRow[], file: string): Qqa23Qrels {
  for (const { fields, line } of rows) {
    if (fields.length !== 4) {
      throw new KitError(
        `expected 4 tab-separated fields (qid, 0, passage id, relevance), found ` +
          `${fields.length}: the official scorer reads qrels with pandas, split on tabs`,
        { file, line },
      );
    }
    for (const [i, column] of [[0, "qid"], [2, "passage id"]] as const) {
      const problem = idProblem(fields[i], column);
      if (problem) throw new KitError(problem, { file, line });
    }
    if (!INTEGER.test(fields[3])) {
      throw new KitError(
        `relevance '${fields[3]}' is not an integer (pytrec_eval, which the official scorer ` +
          "calls, takes integer relevance only)",
        { file, line },
      );
    }
  }
  if (rows.length === 0) {
    throw new KitError("no judgments (empty file?); expected qid<TAB>0<TAB>passage id<TAB>rel", {
      file,
    });
  }
  const at = (i: number) => ({ file, line: rows[i].line });
  const qids = pandasIds(rows.map((r) => r.fields[0]), "qid", at);
  const docids = pandasIds(rows.map((r) => r.fields[2]), "passage id", at);
  const judged = new Map<string, Map<string, number>>();
  const zeroAnswer: string[] = [];
  const firstLine = new Map<string, number>();
  const questions: string[] = [];
  const pairLine = new Map<string, number>();
  const zeroLine = new Map<string, number>();
  const passageLine = new Map<string, number>();
  for (let i = 0; i < rows.length; i++) {
    const qid = qids[i], docid = docids[i], line = rows[i].line;
    const key = `${qid}\t${docid}`;
    const seen = pairLine.get(key);
    if (seen !== undefined) {
      throw new KitError(
        `question ${qid}, passage ${docid}: judged again (first on line ${seen}); one judgment ` +
          "per pair (pytrec_eval would keep the last silently)",
        { file, line },
      );
    }
    pairLine.set(key, line);
    if (!firstLine.has(qid)) {
      firstLine.set(qid, line);
      questions.push(qid);
    }
    const zero = docid === "-1";
    const other = zero ? passageLine.get(qid) : zeroLine.get(qid);
    if (other !== undefined) {
      throw new KitError(
        `question ${qid} has both the zero-answer line (-1) and passages (lines ${
          Math.min(other, line)
        } and ${Math.max(other, line)}): a question has answers or has none`,
        { file, line },
      );
    }
    if (zero) {
      zeroLine.set(qid, line);
      zeroAnswer.push(qid);
    } else {
      if (!passageLine.has(qid)) passageLine.set(qid, line);
      let docs = judged.get(qid);
      if (!docs) judged.set(qid, docs = new Map());
      docs.set(docid, Number(rows[i].fields[3]));
    }
  }
  return { file, judged, zeroAnswer, questions, firstLine, lines: rows.length };
}

/**
 * The rows of a qrels text: blank lines skipped (as pandas does), every other line split on
 * tabs. A carriage return inside a line (pandas ends the line there) is refused.
 */
function qrelsRow(text: string, line: number, file: string): FieldRow | undefined {
  if (text === "") return undefined;
  if (text.includes("\r")) {
    throw new KitError(
      "a carriage return inside the line (pandas, which the official scorer reads with, ends " +
        "a line there)",
      { file, line },
    );
  }
  return { fields: text.split("\t"), line };
}

/**
 * Parses qrels held in a string (`file` names it in messages).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseQqa23Qrels } from "./qrels.ts";
 * const q = parseQqa23Qrels("1\t0\t2:1-5\t1\n1\t0\t3:4-9\t1\n\n2\t0\t-1\t1\n");
 * assert.deepEqual([...q.judged.keys()], ["1"]);
 * assert.deepEqual(q.zeroAnswer, ["2"]);
 * assert.equal(q.lines, 3);
 * assert.throws(() => parseQqa23Qrels("1 0 2:1-5 1\n", "q.gold"), /q\.gold:1: expected 4/);
 * ```
 */
export function parseQqa23Qrels(text: string, file = "<memory>"): Qqa23Qrels {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const rows: FieldRow[] = [];
  for (let i = 0; i < lines.length; i++) {
    const row = qrelsRow(lines[i].replace(/\r$/, ""), i + 1, file);
    if (row) rows.push(row);
  }
  return qrelsFromRows(rows, file);
}

/**
 * Reads a qrels file (a path, `-`, or bytes) through the kit's text layer (BOM, CRLF, gzip,
 * invalid UTF-8 handled there).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readQqa23Qrels } from "./qrels.ts";
 * const bytes = new TextEncoder().encode("\uFEFF7\t0\t-1\t1\r\n");
 * const q = await readQqa23Qrels({ name: "q.gold", bytes });
 * assert.deepEqual(q.zeroAnswer, ["7"]);
 * ```
 */
export async function readQqa23Qrels(source: TextSource): Promise<Qqa23Qrels> {
  const file = sourceName(source);
  const rows: FieldRow[] = [];
  for await (const { text, line } of readLines(source)) {
    const row = qrelsRow(text, line, file);
    if (row) rows.push(row);
  }
  return qrelsFromRows(rows, file);
}
