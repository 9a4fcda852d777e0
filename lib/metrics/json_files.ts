/**
 * Runs and qrels in the JSON of ranx and pytrec_eval: one object, query id to (document id
 * to score or relevance), `{"q1": {"d1": 1.2, "d2": 0.7}, ...}`. Read wherever a TREC file
 * is read (a `.json` or `.json.gz` name, or a file or standard input starting with `{"`), through the kit's
 * opener (gzip too), whole into memory (a minified file is one line, so no line limit
 * applies; the Maps it fills take more than its text anyway); errors give the line and
 * column. Written one query per line.
 *
 * The same rules as the TREC readers: a score is a finite JSON number, a relevance an
 * integer (no fraction or exponent), a document twice in a query is an error, and so is a
 * query twice. A query with no documents is dropped (a TREC file cannot hold it).
 *
 * @module
 */
import { fail, KitError } from "../errors.ts";
import { openSource, readAllBytes, sourceName, type TextSource } from "../io/source.ts";
import { duplicateDocument, duplicateJudgment } from "./engine/reading_rules.ts";
import { asciiText } from "./engine/trec_scan.ts";

/** Query id to (document id to number): a run's scores or the qrels' judgments. */
export type NestedScores = Map<string, Map<string, number>>;

/**
 * Whether a source holds ranx/pytrec_eval JSON: by its name (`.json`, `.json.gz`), else by
 * its content (the first bytes, after a BOM and blanks, are `{` then `"` or `}`). Content is
 * looked at only in regular files and in memory (the readers hold standard input, a pipe, a
 * FIFO or `<(...)` first, `holdStdin`: such a stream is read once, and the bytes looked at
 * would be gone for the reader), so an unheld stream is JSON only by its name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isJsonSource } from "./json_files.ts";
 * const enc = new TextEncoder();
 * assert.equal(await isJsonSource({ name: "run", bytes: enc.encode(' {"q": {}}') }), true);
 * assert.equal(await isJsonSource({ name: "run", bytes: enc.encode("q Q0 d 1 1 r\n") }), false);
 * ```
 */
export async function isJsonSource(source: TextSource): Promise<boolean> {
  const name = sourceName(source);
  if (/\.json(\.gz)?$/i.test(name)) return true;
  if (typeof source === "string" && !(await isRegularFile(source))) return false;
  const reader = await openSource(source);
  try {
    const head = new Uint8Array(256);
    let n = 0;
    for (let got = 1; got > 0 && n < head.length; n += got) {
      got = await reader.read(head.subarray(n));
    }
    let i = n >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
    const skip = () => {
      while (i < n && (head[i] === 32 || head[i] === 9 || head[i] === 10 || head[i] === 13)) i++;
    };
    skip();
    if (head[i++] !== 123) return false; // {
    skip();
    return i < n && (head[i] === 34 || head[i] === 125); // " or }
  } catch {
    return false; // the TREC reader reports it
  } finally {
    reader.close();
  }
}

async function isRegularFile(path: string): Promise<boolean> {
  if (path === "-") return false;
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false; // the TREC reader reports it
  }
}

/** A parser over the bytes of a JSON file, tracking the line. */
class JsonBytes {
  pos = 0;
  line = 1;
  /** Where the current line starts (for columns). */
  private lineStart = 0;
  private utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  constructor(private b: Uint8Array, readonly file: string) {
    if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) this.pos = this.lineStart = 3;
  }

  /** Skips blanks and returns the next byte, not taken (-1 at the end). */
  peek(): number {
    const b = this.b;
    for (;;) {
      const c = this.pos < b.length ? b[this.pos] : -1;
      if (c === 10) {
        this.line++;
        this.lineStart = this.pos + 1;
      } else if (c !== 32 && c !== 9 && c !== 13) return c;
      this.pos++;
    }
  }

  /** An error at the current position, or at `at` on the current line (line and column). */
  fail(problem: string, at = this.pos): never {
    throw new KitError(`invalid JSON at column ${at - this.lineStart + 1}: ${problem}`, {
      file: this.file,
      line: this.line,
    });
  }

  /** Where the last number read starts. */
  numberStart = 0;

  /** Takes `want` (after blanks) or fails saying what was expected. */
  expect(want: number, what: string): void {
    const c = this.peek();
    if (c !== want) this.fail(`expected ${what}, found ${describe(c)}`);
    this.pos++;
  }

  /** Reads a JSON string. */
  string(what: string): string {
    const c = this.peek();
    if (c !== 34) this.fail(`expected ${what} (a string), found ${describe(c)}`);
    const b = this.b, start = ++this.pos;
    let plain = true;
    for (;;) {
      const x = this.pos < b.length ? b[this.pos] : -1;
      if (x === 34) break;
      if (x < 0) this.fail("unterminated string");
      if (x < 32) this.fail("control character in a string (escape it)");
      if (x === 92 || x >= 128) plain = false;
      this.pos += x === 92 ? 2 : 1;
    }
    const end = this.pos++;
    if (plain) {
      return asciiText(b, start, end);
    }
    // Escapes or UTF-8: JSON.parse decodes the string's text, once checked as UTF-8.
    let text: string;
    try {
      text = this.utf8.decode(b.subarray(start - 1, end + 1));
    } catch {
      this.pos = start;
      return this.fail("invalid UTF-8 in a string; expected UTF-8 text");
    }
    try {
      return JSON.parse(text);
    } catch {
      this.pos = start;
      return this.fail(`bad escape in the string ${text}`);
    }
  }

  /** Reads a JSON number's text. */
  number(what: string): string {
    const c = this.peek();
    if (c !== 45 && (c < 48 || c > 57)) {
      this.fail(`expected ${what} (a number), found ${describe(c)}`);
    }
    const b = this.b, start = this.numberStart = this.pos;
    let x = 0;
    while (
      this.pos < b.length &&
      (((x = b[this.pos]) >= 48 && x <= 57) || x === 45 || x === 43 || x === 46 || x === 101 ||
        x === 69)
    ) this.pos++;
    const s = asciiText(b, start, this.pos);
    if (!/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(s)) {
      this.pos = start;
      this.fail(`'${s}' is not a JSON number`);
    }
    return s;
  }
}

function describe(c: number): string {
  return c < 0 ? "end of file" : c < 128 ? `'${String.fromCharCode(c)}'` : "a non-ASCII byte";
}

/** The largest JSON run or qrels file read (into memory). */
const MAX_JSON_BYTES = 2 ** 31 - 1;

/** Refuses at once a file that cannot be JSON (`/dev/zero`, a binary file). */
function startsLikeJson(head: Uint8Array, file: string): void {
  const p = new JsonBytes(head, file);
  const c = p.peek();
  if (c >= 0 && c !== 123) p.fail(`expected '{' (an object of queries), found ${describe(c)}`);
}

/** Reads ranx/pytrec_eval JSON into Maps; `integer` requires integer values (qrels). */
async function readNested(source: TextSource, integer: boolean): Promise<NestedScores> {
  const file = sourceName(source);
  const p = new JsonBytes(await readAllBytes(source, MAX_JSON_BYTES, startsLikeJson), file);
  const out: NestedScores = new Map();
  const firstLine = new Map<string, number>();
  p.expect(123, "'{' (an object of queries)");
  let c = p.peek();
  if (c === 125) p.pos++;
  else {
    for (;;) {
      const line = p.line;
      const qid = p.string("a query id");
      if (firstLine.has(qid)) {
        p.fail(`query ${qid} appears twice (first on line ${firstLine.get(qid)})`);
      }
      firstLine.set(qid, line);
      p.expect(58, "':'");
      p.expect(123, `'{' (the documents of query ${qid})`);
      const docs = new Map<string, number>();
      c = p.peek();
      if (c === 125) p.pos++;
      else {
        for (;;) {
          const docno = p.string("a document id");
          p.expect(58, "':'");
          const text = p.number(integer ? "a relevance" : "a score");
          // A JSON number is decimal: a relevance that is an integer (`2.0`, `1e3`) is read
          // as one; a score that overflows is an infinity, as in a TREC file.
          const value = Number(text) + 0;
          const problem = integer && !Number.isInteger(value)
            ? `relevance ${text} is not an integer`
            : integer && Math.abs(value) > 0x7fffffff
            ? `relevance ${text} is out of range (the kit reads -2147483647 to 2147483647)`
            : undefined;
          if (problem) p.fail(problem, p.numberStart);
          if (docs.has(docno)) {
            const where = { file, line: p.line };
            throw integer
              ? duplicateJudgment(qid, docno, where)
              : duplicateDocument(qid, docno, where);
          }
          docs.set(docno, value);
          c = p.peek();
          if (c !== 125 && c !== 44) {
            p.fail(`expected ',' or '}' after a document, found ${describe(c)}`);
          }
          p.pos++;
          if (c === 125) break;
        }
      }
      if (docs.size > 0) out.set(qid, docs);
      c = p.peek();
      if (c !== 125 && c !== 44) p.fail(`expected ',' or '}' after a query, found ${describe(c)}`);
      p.pos++;
      if (c === 125) break;
    }
  }
  c = p.peek();
  if (c >= 0) p.fail(`expected the end of the file after the object, found ${describe(c)}`);
  // As the TREC readers: a file with nothing to evaluate is an error naming it.
  if (out.size === 0) {
    fail(
      integer
        ? "qrels file has no judgments (a JSON object without any query's documents)"
        : "run file has no results (a JSON object without any query's documents)",
      { file },
    );
  }
  return out;
}

/**
 * Reads a ranx/pytrec_eval JSON run: query id to (document id to score).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readJsonRun } from "./json_files.ts";
 * const bytes = new TextEncoder().encode('{"q1": {"d1": 1.5, "d2": 0.25}}');
 * assert.equal((await readJsonRun({ name: "run.json", bytes })).get("q1")!.get("d2"), 0.25);
 * ```
 */
export function readJsonRun(source: TextSource): Promise<NestedScores> {
  return readNested(source, false);
}

/**
 * Reads ranx/pytrec_eval JSON qrels: query id to (document id to integer relevance).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readJsonQrels } from "./json_files.ts";
 * const bytes = new TextEncoder().encode('{"q1": {"d1": 2}}');
 * assert.equal((await readJsonQrels({ name: "qrels.json", bytes })).get("q1")!.get("d1"), 2);
 * await assert.rejects(readJsonQrels({ name: "q.json", bytes: new TextEncoder().encode('{"q": {"d": 1.5}}') }),
 *   /q\.json:1: invalid JSON at column 13: relevance 1\.5 is not an integer/);
 * ```
 */
export function readJsonQrels(source: TextSource): Promise<NestedScores> {
  return readNested(source, true);
}

/**
 * A number as JSON text: JSON has no infinity, so +-inf is written `1e999` / `-1e999`, a
 * number that overflows back to the infinity in every reader (this one, Python's `json`).
 */
function jsonNumber(v: number): string {
  return v === Infinity ? "1e999" : v === -Infinity ? "-1e999" : String(v);
}

/**
 * Formats nested scores as JSON, one query per line (ranx and pytrec_eval read it as is;
 * an infinite score is `1e999`).
 * `order` gives each query's document order (default: as in the Map).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatScoresJson } from "./json_files.ts";
 * const text = [...formatScoresJson(new Map([["q1", new Map([["d1", 0.5]])]]))].join("");
 * assert.equal(text, '{\n"q1": {"d1": 0.5}\n}\n');
 * assert.deepEqual(JSON.parse(text), { q1: { d1: 0.5 } });
 * ```
 */
export function* formatScoresJson(
  scores: NestedScores,
  order?: (qid: string, docs: Map<string, number>) => string[],
): Generator<string> {
  yield "{\n";
  let first = true;
  for (const [qid, docs] of scores) {
    const docnos = order ? order(qid, docs) : [...docs.keys()];
    const entries = docnos.map((d) => `${JSON.stringify(d)}: ${jsonNumber(docs.get(d)!)}`);
    yield `${first ? "" : ",\n"}${JSON.stringify(qid)}: {${entries.join(", ")}}`;
    first = false;
  }
  yield first ? "}\n" : "\n}\n";
}
