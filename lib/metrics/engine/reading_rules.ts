/**
 * How the kit reads TREC files as trec_eval does, and what it says when it cannot: the field
 * layouts, the numbers (a score as C's `atof` reads it, a relevance as `atol` reads it, and
 * what the kit refuses of them), and the messages every reader shares (so each says it the
 * same way). What a release changes in reading is in `../release.ts`.
 *
 * @module
 */
import { KitError, type Location } from "../../errors.ts";
import { checkStdinOnce } from "../../io/source.ts";

/** The fields of a qrels line. */
export const QRELS_LAYOUT = "qid iter docno relevance";
/** The fields of a run line. */
export const RUN_LAYOUT = "qid Q0 docno rank score runid";

/**
 * A document listed twice for one query of a run (trec_eval stops on it too).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { duplicateDocument } from "./reading_rules.ts";
 * assert.equal(duplicateDocument("q1", "d7", { file: "r", line: 3 }).message,
 *   "r:3: duplicate document d7 for query q1 (trec_eval rejects this too)");
 * ```
 */
export function duplicateDocument(qid: string, docno: string, where: Location): KitError {
  return new KitError(
    `duplicate document ${docno} for query ${qid} (trec_eval rejects this too)`,
    where,
  );
}

/**
 * A document judged twice for one query of the qrels (trec_eval stops on it too).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { duplicateJudgment } from "./reading_rules.ts";
 * assert.match(duplicateJudgment("q1", "d7", { file: "q" }).message, /duplicate judgment/);
 * ```
 */
export function duplicateJudgment(qid: string, docno: string, where: Location): KitError {
  return new KitError(`duplicate judgment for query ${qid}, document ${docno}`, where);
}

/**
 * Standard input given for both files of an evaluation.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkOneStdin } from "./reading_rules.ts";
 * assert.throws(() => checkOneStdin("-", "-"), /cannot both be standard input/);
 * ```
 */
export function checkOneStdin(qrels: unknown, run: unknown): void {
  checkStdinOnce([["the qrels", qrels], ["the run", run]]);
}

// ---------------------------------------------------------------- numbers as trec_eval reads them

const DECIMAL_PREFIX = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/;
const HEX_PREFIX = /^[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?\d+)?/;
const INF_NAN_PREFIX = /^[+-]?(?:infinity|inf|nan)/i;

/**
 * What C's `atof` (glibc `strtod`) reads from a field and where it stops: a decimal or
 * hexadecimal number, `inf`/`infinity`/`nan` in any case, else 0 having read nothing. Only
 * for messages: the kit reads a score when `atof` reads the field whole as a decimal number
 * or an infinity (`scoreFromText`).
 */
function atofReading(text: string): { value: number; read: string } {
  const hex = HEX_PREFIX.exec(text)?.[0];
  if (hex) {
    const neg = hex[0] === "-";
    const body = hex.replace(/^[+-]?0[xX]/, "");
    const [mant, exp = "0"] = body.split(/[pP]/);
    const [int, frac = ""] = mant.split(".");
    const digits = parseInt(int + frac || "0", 16);
    const value = digits * 2 ** (Number(exp) - 4 * frac.length);
    return { value: neg ? -value : value, read: hex };
  }
  const special = INF_NAN_PREFIX.exec(text)?.[0];
  if (special) {
    const neg = special[0] === "-";
    const value = /nan/i.test(special) ? NaN : neg ? -Infinity : Infinity;
    return { value, read: special };
  }
  const dec = DECIMAL_PREFIX.exec(text)?.[0];
  return dec ? { value: Number(dec), read: dec } : { value: 0, read: "" };
}

/**
 * What C's `atol` reads from a field (an optional sign and decimal digits; 0 when none), as
 * trec_eval reads a relevance and `-l`.
 */
function atolReading(text: string): number {
  const m = /^[+-]?\d+/.exec(text)?.[0];
  return m ? Number(m) + 0 : 0;
}

function atofSays(text: string): string {
  const { value, read } = atofReading(text);
  const shown = Number.isNaN(value) ? "NaN" : String(value);
  if (read === "") return `trec_eval would read it as 0`;
  if (read === text) return `trec_eval would read it as ${shown}`;
  return `trec_eval would read '${read}' (${shown}) and ignore '${text.slice(read.length)}'`;
}

/**
 * A run score as the kit reads it, or why it refuses it: a decimal number that `atof` reads
 * whole (one that overflows a double is an infinity, as `atof` makes it), or `inf` /
 * `infinity` with an optional sign. The kit refuses what trec_eval turns into a number
 * silently or cannot rank: hexadecimal (`0x10`, which only C reads), a number followed by
 * anything (`1e`, `1.5abc`), text (`abc`, read as 0) and NaN (trec_eval's sort cannot order
 * it: the ranking would depend on the line order). The problem says what trec_eval would
 * have done.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoreFromText } from "./reading_rules.ts";
 * assert.equal(scoreFromText("1e400"), Infinity);
 * assert.equal(scoreFromText("-Inf"), -Infinity);
 * assert.equal(scoreFromText("2.5"), 2.5);
 * assert.match(String(scoreFromText("0x10")), /would read it as 16/);
 * assert.match(String(scoreFromText("1e")), /would read '1' \(1\) and ignore 'e'/);
 * ```
 */
export function scoreFromText(text: string): number | string {
  const dec = DECIMAL_PREFIX.exec(text)?.[0];
  if (dec === text) return Number(text);
  if (/^[+-]?(?:infinity|inf)$/i.test(text)) return text[0] === "-" ? -Infinity : Infinity;
  const what = /^[+-]?nan/i.test(text)
    ? "is NaN, which trec_eval cannot rank (its order would depend on the line order)"
    : HEX_PREFIX.exec(text)?.[0] === text
    ? `is hexadecimal: ${atofSays(text)} (C's atof reads hexadecimal; ranx does not)`
    : `is not a decimal number: ${atofSays(text)}`;
  return `score '${text}' ${what}`;
}

/**
 * A relevance (or `-l` level) as the kit reads it, or why it refuses it: the kit reads the
 * value when it is an integer within 32 bits and C's `atol` (which trec_eval reads it with)
 * gives the same (`2`, `2.0`, `+1`, `1e0`). It refuses what `atol` would read as another
 * number (`2.7` as 2, `1e3` as 1, `0x10` as 0, `abc` as 0), saying so.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { relevanceFromText } from "./reading_rules.ts";
 * assert.equal(relevanceFromText("2.0"), 2);
 * assert.equal(relevanceFromText("-1"), -1);
 * assert.match(String(relevanceFromText("2.7")), /trec_eval would read it as 2/);
 * assert.match(String(relevanceFromText("1e3")), /trec_eval would read it as 1\b/);
 * ```
 */
export function relevanceFromText(text: string): number | string {
  const dec = DECIMAL_PREFIX.exec(text)?.[0];
  const value = dec === text ? Number(text) + 0 : NaN;
  const atol = atolReading(text);
  if (value === atol) {
    if (Math.abs(value) <= 0x7fffffff) return value;
    return `relevance '${text}' is out of range (the kit reads -2147483647 to 2147483647)`;
  }
  const what = Number.isInteger(value) ? `is ${value}, but` : "is not an integer:";
  return `relevance '${text}' ${what} trec_eval would read it as ${atol} ` +
    "(its atol stops at the first character that is not a digit)";
}
