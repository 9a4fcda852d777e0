/**
 * Qur'an QA 2023 Task A run files: `qid Q0 docid rank score tag`, read and checked by the rules of
 * the official submission checker (`QQA23_TaskA_submission_checker.py`), which the official scorer
 * runs first and which stops it on any failure. A run the checker refuses is refused here
 * (`KitError` naming the line, the question and the rule), in the checker's order:
 *
 * 1. one delimiter for the whole file: every line holds a tab (tab-separated) or else every line
 *    holds a space (space-separated); otherwise `Wrong column delimiter` (a blank line, which has
 *    neither, included);
 * 2. at most 10 lines per question;
 * 3. line by line: exactly 6 columns, the score matching `^-?\d+(?:\.\d+)?$` (no exponent, no
 *    `+`, no `.5`), no (question, passage) pair twice.
 *
 * (Where the checker's own pandas reading raises an error first, as when every line is short,
 * the run is refused all the same, with the rule the line breaks.) Then what the checker lets
 * through but the scorer (pandas) would read differently from what the checker checked is refused
 * too, saying so: a `"` (pandas' quote), white space inside a field of a space-separated file (the
 * checker splits on single spaces, the scorer on any white space), an empty id or one with white
 * space, an id pandas reads as missing, a carriage return inside a line (Python ends a line there),
 * a score column of integers only with one past 64 bits (pandas keeps it as text, which pytrec_eval
 * refuses). Ids are then turned into
 * text as pandas does (`pandasIds`: a column of integers is rewritten canonically). An empty file
 * passes the checker (pandas reads an empty frame) and scores every judged question as missing:
 * it is read, with a warning.
 *
 * The file-name rule (`TeamID_RunID.ext`) is a warning here, not a refusal.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { readLines, sourceName, type TextSource } from "../io/text.ts";
import { type FieldRow, idProblem, pandasIds, type Qqa23Qrels } from "./qrels.ts";

/** The checker's limit of lines (passages) per question. */
export const MAX_PASSAGES = 10;

/** The checker's score pattern (Python's `\d` also takes other digits; the scorer cannot). */
export const SCORE_PATTERN = /^-?\d+(?:\.\d+)?$/;

/** The checker's file-name rule, applied to the name without its last 4 characters. */
export const RUN_NAME_PATTERN = /^[a-zA-Z0-9]{3,9}_[a-zA-Z0-9]{2,9}$/;

/** One line of a run, as the scorer reads it. */
export interface Qqa23RunLine {
  /** The passage id as the scorer reads it (`-1`: no answer). */
  docid: string;
  /** The score as written. */
  scoreText: string;
  /** The score as a number. */
  score: number;
  /** The 1-based line in the file. */
  line: number;
}

/** What the scorer needs of a run: per question its lines (docid and score). */
export interface Qqa23RunLike {
  /** Question id to its lines, in file order. */
  questions: ReadonlyMap<string, readonly { docid: string; score: number }[]>;
}

/** A run file, parsed and checked. */
export interface Qqa23Run extends Qqa23RunLike {
  /** The file's name as given. */
  file: string;
  /** The delimiter the checker found. */
  delimiter: "tab" | "space";
  /** Question id (as the scorer reads it) to its lines, in file order of first appearance. */
  questions: Map<string, Qqa23RunLine[]>;
  /** Lines read. */
  lines: number;
  /**
   * Warnings (the file-name rule, an empty run); {@link qqa23RunWarnings} adds those that need
   * the qrels.
   */
  warnings: string[];
}

/**
 * The checker's file-name rule (`TeamID_RunID.ext`: 3-9 and 2-9 ASCII letters or digits around
 * one `_`, then a 4-character extension such as `.tsv`). Returns the warning, or undefined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkQqa23FileName } from "./run_file.ts";
 * assert.equal(checkQqa23FileName("runs/bigIR_run01.tsv"), undefined);
 * assert.match(checkQqa23FileName("my-run.txt")!, /TeamID_RunID/);
 * assert.match(checkQqa23FileName("bigIR_run01.trec")!, /TeamID_RunID/); // 5 characters
 * ```
 */
export function checkQqa23FileName(path: string): string | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1);
  if (RUN_NAME_PATTERN.test(base.slice(0, -4))) return undefined;
  return `file name "${base}" does not follow the submission format TeamID_RunID.ext (TeamID ` +
    "3-9 and RunID 2-9 letters or digits, then a 4-character extension such as .tsv, e.g. " +
    "bigIR_run01.tsv): the official checker refuses it, the kit only warns";
}

/** The checker's delimiter: tab when every line has one, else space when every line has one. */
function delimiterOf(lines: readonly NumberedText[], file: string): "\t" | " " {
  const noTab = lines.find((l) => !l.text.includes("\t"));
  if (!noTab) return "\t";
  const noSpace = lines.find((l) => !l.text.includes(" "));
  if (!noSpace) return " ";
  const blank = lines.find((l) => l.text === "");
  if (blank) {
    throw new KitError(
      "a blank line: Wrong column delimiter (the official checker needs a tab on every line, or " +
        "a space on every line, and a blank line has neither; remove it)",
      { file, line: blank.line },
    );
  }
  throw new KitError(
    `Wrong column delimiter: line ${noTab.line} has no tab and line ${noSpace.line} has no ` +
      "space (the official checker needs one delimiter for the whole file: a tab on every line, " +
      "or a space on every line)",
    { file, line: Math.max(noTab.line, noSpace.line) },
  );
}

/** A line of text with its number. */
interface NumberedText {
  text: string;
  line: number;
}

/**
 * Parses and checks the lines of a run (see the module comment for the rules and their order).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runFromLines } from "./run_file.ts";
 * const run = runFromLines([
 *   { text: "1\tQ0\t2:1-5\t1\t0.9\tt", line: 1 },
 *   { text: "2\tQ0\t-1\t1\t0\tt", line: 2 },
 * ], "a_b1.tsv");
 * assert.equal(run.delimiter, "tab");
 * assert.equal(run.questions.get("2")?.[0].docid, "-1");
 * ```
 */
export function runFromLines(given: readonly NumberedText[], file: string): Qqa23Run {
  let lines = given;
  if (lines.length === 0) {
    // pandas reads an empty file with column names as an empty frame: the checker passes it,
    // and the scorer scores every judged question as missing.
    return {
      file,
      delimiter: "tab",
      questions: new Map(),
      lines: 0,
      warnings: [
        "an empty run (no lines): the official checker passes it and every judged question is " +
        "missing from it",
      ],
    };
  }
  // Python and pandas end a line at a lone carriage return too: the files would be read as other
  // lines than these (a final one, before the end of the file, is only a line end).
  if (lines.at(-1)!.text.endsWith("\r")) {
    lines = [...lines.slice(0, -1), { ...lines.at(-1)!, text: lines.at(-1)!.text.slice(0, -1) }];
  }
  const cr = lines.find((l) => l.text.includes("\r"));
  if (cr) {
    throw new KitError(
      "a carriage return inside the line (old Mac line ends?): the official checker and scorer " +
        "end a line there; use LF or CRLF line ends",
      { file, line: cr.line },
    );
  }
  const sep = delimiterOf(lines, file);
  const rows: FieldRow[] = lines.map((l) => ({ fields: l.text.split(sep), line: l.line }));
  checkPassageLimit(rows, file);
  const pairs = new Map<string, number>();
  for (const { fields, line } of rows) {
    if (fields.length < 6) {
      throw new KitError(
        `Less columns than expected: ${fields.length}, expected 6 (qid Q0 docid rank score tag, ` +
          `${sep === "\t" ? "tab" : "space"}-separated)`,
        { file, line },
      );
    }
    if (fields.length > 6) {
      throw new KitError(
        `More columns than expected: ${fields.length}, expected 6 (qid Q0 docid rank score tag, ` +
          `${
            sep === "\t" ? "tab" : "single-space"
          }-separated; the official checker counts an empty field between two delimiters)`,
        { file, line },
      );
    }
    if (!SCORE_PATTERN.test(fields[4])) {
      throw new KitError(
        `question ${fields[0]}: The score is not a float: '${fields[4]}' (the official checker ` +
          "takes digits with an optional '-' and decimal part: no exponent, no '+', no '.5')",
        { file, line },
      );
    }
    if (!Number.isFinite(Number(fields[4]))) {
      throw new KitError(
        `question ${fields[0]}: the score '${fields[4].slice(0, 20)}...' is beyond a double ` +
          "(10^308): the checker passes it, but pandas then reads the score column as text and " +
          "the official scorer stops with a TypeError",
        { file, line },
      );
    }
    const key = `${fields[0]}\t${fields[2]}`;
    const first = pairs.get(key);
    if (first !== undefined) {
      throw new KitError(
        `Duplication of pair(question_id=${fields[0]}, doc_id=${fields[2]}) on lines ${first} ` +
          `and ${line}`,
        { file, line },
      );
    }
    pairs.set(key, line);
  }
  for (const { fields, line } of rows) checkScorerReading(fields, line, sep, file);
  checkScoreColumn(rows, file);
  return buildRun(rows, sep, file);
}

/** The checker's second rule: at most {@link MAX_PASSAGES} lines per question. */
function checkPassageLimit(rows: readonly FieldRow[], file: string): void {
  const qids = pandasIds(rows.map((r) => r.fields[0]), "qid", (i) => ({
    file,
    line: rows[i].line,
  }));
  const counts = new Map<string, number>();
  const over: { qid: string; line: number }[] = [];
  for (let i = 0; i < rows.length; i++) {
    const n = (counts.get(qids[i]) ?? 0) + 1;
    counts.set(qids[i], n);
    if (n === MAX_PASSAGES + 1) over.push({ qid: qids[i], line: rows[i].line });
  }
  if (over.length === 0) return;
  const others = over.slice(1).map((o) => `${o.qid} (${counts.get(o.qid)})`);
  throw new KitError(
    `question ${over[0].qid}: ${counts.get(over[0].qid)} lines, more than the ${MAX_PASSAGES} ` +
      `passages a question may have (this is its ${
        MAX_PASSAGES + 1
      }th line; the official checker refuses the run)` +
      (others.length ? `; also question${others.length > 1 ? "s" : ""} ${others.join(", ")}` : ""),
    { file, line: over[0].line },
  );
}

/** The kit's refusals of what the checker passes but the scorer reads differently. */
function checkScorerReading(fields: string[], line: number, sep: string, file: string): void {
  const text = fields.join(sep);
  if (text.includes('"')) {
    throw new KitError(
      `question ${fields[0]}: a '"', which pandas (the official scorer) reads as a quote that ` +
        "may span fields and lines: the scorer would not read what the checker checked",
      { file, line },
    );
  }
  if (sep === " " && /\s/.test(fields.join(""))) {
    throw new KitError(
      `question ${fields[0]}: white space other than single spaces between the fields (a tab?) ` +
        "in a space-separated run: the official checker splits on single spaces, its scorer on " +
        "any white space, so they would read this line differently",
      { file, line },
    );
  }
  for (const [i, column] of [[0, "qid"], [2, "docid"]] as const) {
    const problem = idProblem(fields[i], column);
    if (problem) throw new KitError(`question ${fields[0]}: ${problem}`, { file, line });
  }
}

/**
 * A score column of integers only, one of them past 64 bits: pandas keeps the column as text, and
 * pytrec_eval refuses text scores (the script stops with a TypeError).
 */
function checkScoreColumn(rows: readonly FieldRow[], file: string): void {
  if (!rows.every((r) => /^-?\d+$/.test(r.fields[4]))) return;
  const scores = rows.map((r) => BigInt(r.fields[4]));
  const signed = scores.every((n) => n >= -(2n ** 63n) && n < 2n ** 63n);
  const unsigned = scores.every((n) => n >= 0n && n < 2n ** 64n);
  if (signed || unsigned) return;
  const i = scores.findIndex((n) => n < -(2n ** 63n) || n >= 2n ** 63n);
  throw new KitError(
    `question ${rows[i].fields[0]}: score ${rows[i].fields[4]} is an integer past 64 bits, and ` +
      "every score is an integer: pandas keeps such a column as text, which pytrec_eval " +
      "refuses (the official scorer stops); write a decimal point in a score",
    { file, line: rows[i].line },
  );
}

/** The run as the scorer reads it: ids through pandas, lines grouped by question. */
function buildRun(rows: readonly FieldRow[], sep: string, file: string): Qqa23Run {
  const at = (i: number) => ({ file, line: rows[i].line });
  const qids = pandasIds(rows.map((r) => r.fields[0]), "qid", at);
  const docids = pandasIds(rows.map((r) => r.fields[2]), "docid", at);
  const questions = new Map<string, Qqa23RunLine[]>();
  const seen = new Map<string, number>();
  for (let i = 0; i < rows.length; i++) {
    const { fields, line } = rows[i];
    const key = `${qids[i]}\t${docids[i]}`;
    const first = seen.get(key);
    if (first !== undefined) {
      throw new KitError(
        `question ${qids[i]}, passage ${docids[i]}: also on line ${first} once pandas (the ` +
          `official scorer) has read the ids as numbers ('${fields[0]}' '${fields[2]}'): the ` +
          "checker sees two pairs, the scorer one",
        { file, line },
      );
    }
    seen.set(key, line);
    let list = questions.get(qids[i]);
    if (!list) questions.set(qids[i], list = []);
    list.push({ docid: docids[i], scoreText: fields[4], score: Number(fields[4]), line });
  }
  return {
    file,
    delimiter: sep === "\t" ? "tab" : "space",
    questions,
    lines: rows.length,
    warnings: [],
  };
}

/**
 * Parses and checks a run held in a string (`file` names it in messages; the file-name rule is
 * not applied to it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseQqa23Run } from "./run_file.ts";
 * const run = parseQqa23Run("7 Q0 2:1-5 1 0.5 t\n7 Q0 3:1-4 2 0.25 t\n");
 * assert.equal(run.delimiter, "space");
 * assert.deepEqual(run.questions.get("7")?.map((l) => l.score), [0.5, 0.25]);
 * assert.throws(() => parseQqa23Run("7 Q0 d 1 1e-3 t\n"), /The score is not a float/);
 * ```
 */
export function parseQqa23Run(text: string, file = "<memory>"): Qqa23Run {
  const parts = text.split("\n");
  if (parts.at(-1) === "") parts.pop();
  return runFromLines(parts.map((t, i) => ({ text: t.replace(/\r$/, ""), line: i + 1 })), file);
}

/**
 * Reads and checks a run file (a path, `-`, or bytes) through the kit's text layer (BOM, CRLF,
 * gzip, invalid UTF-8 handled there); a path that breaks the file-name rule gives a warning.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readQqa23Run } from "./run_file.ts";
 * const bytes = new TextEncoder().encode("\uFEFF7\tQ0\t-1\t1\t0\tt\r\n");
 * const run = await readQqa23Run({ name: "bigIR_run01.tsv", bytes });
 * assert.equal(run.questions.get("7")?.[0].docid, "-1");
 * ```
 */
export async function readQqa23Run(source: TextSource): Promise<Qqa23Run> {
  const file = sourceName(source);
  const lines: NumberedText[] = [];
  for await (const l of readLines(source)) lines.push(l);
  const run = runFromLines(lines, file);
  if (typeof source === "string" && source !== "-") {
    const name = checkQqa23FileName(source);
    if (name) run.warnings.push(name);
  }
  return run;
}

/**
 * The warnings that need the qrels: run questions the qrels lack (the scorer ignores them), `-1`
 * beside passages (a zero-answer question then scores 0; for a question with answers `-1` is an
 * ordinary passage that is not relevant), and questions with answers answered by `-1` alone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseQqa23Qrels } from "./qrels.ts";
 * import { parseQqa23Run, qqa23RunWarnings } from "./run_file.ts";
 * const qrels = parseQqa23Qrels("1\t0\t2:1-5\t1\n2\t0\t-1\t1\n");
 * const run = parseQqa23Run("2 Q0 -1 1 1 t\n2 Q0 3:1-4 2 0.5 t\n9 Q0 2:1-5 1 1 t\n");
 * const w = qqa23RunWarnings(run, qrels);
 * assert.equal(w.length, 2);
 * assert.match(w[0], /not judged .* question 9$/);
 * assert.match(w[1], /zero-answer question 2: -1 beside/);
 * ```
 */
export function qqa23RunWarnings(run: Qqa23RunLike, qrels: Qqa23Qrels): string[] {
  const zero = new Set(qrels.zeroAnswer);
  const unknown = [...run.questions.keys()].filter((q) => !zero.has(q) && !qrels.judged.has(q));
  const out: string[] = [];
  if (unknown.length) {
    out.push(
      `${unknown.length} question${unknown.length > 1 ? "s" : ""} of the run ${
        unknown.length > 1 ? "are" : "is"
      } not judged in ${qrels.file} and ignored (as the official scorer does): ` +
        `question${unknown.length > 1 ? "s" : ""} ${listIds(unknown)}` +
        (unknown.length === run.questions.size
          ? " (none of the run's questions is judged there: a run of another split?)"
          : ""),
    );
  }
  // A question with answers answered -1 alone (an abstention that costs it): one line for all.
  const abstained: string[] = [];
  for (const [qid, lines] of run.questions) {
    const abstains = lines.some((l) => l.docid === "-1");
    if (!abstains || lines.length === 1 && !qrels.judged.has(qid)) continue;
    if (zero.has(qid)) {
      out.push(
        `zero-answer question ${qid}: -1 beside ${lines.length - 1} passage(s); only -1 alone ` +
          "scores 1, so this question scores 0",
      );
    } else if (qrels.judged.has(qid)) {
      if (lines.length === 1) abstained.push(qid);
      else {
        out.push(
          `question ${qid} has answers and the run lists -1 among its passages: -1 is then ` +
            "an ordinary passage, not relevant",
        );
      }
    }
  }
  if (abstained.length) {
    out.push(
      `${abstained.length} question${abstained.length > 1 ? "s" : ""} with answers ` +
        `answered -1 alone (each scores 0): question${abstained.length > 1 ? "s" : ""} ` +
        listIds(abstained),
    );
  }
  return out;
}

/** Ids for a message: all of them up to 20, then the count of the rest. */
export function listIds(ids: readonly string[]): string {
  const shown = ids.slice(0, 20).join(", ");
  return ids.length > 20 ? `${shown} and ${ids.length - 20} more` : shown;
}
