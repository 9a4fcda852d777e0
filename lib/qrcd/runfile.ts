/**
 * Run files of the Qur'an QA 2022 task: `{pq_id: [{"answer", "rank", "score"}, ...]}` in
 * UTF-8 JSON. Reading applies the rules of the official submission checker
 * (`quranqa22_submission_checker.py`) and sorts what it finds into errors (the checker
 * rejects the file) and warnings (it accepts the file and prints a warning).
 *
 * @module
 */
import { fail } from "../errors.ts";
import { writeOutput } from "../io/atomic.ts";
import { countNewlines, MAX_TEXT_BYTES, readText } from "../io/text.ts";
import { readAllBytes } from "../io/source.ts";
import { type JsonNode, parseJsonWithLines } from "../io/json_scan.ts";
import { MAX_PREDICTIONS } from "./metrics.ts";
import type { PassageQuestion, SpanPrediction, SpanRun } from "./types.ts";

/** One finding of the run-file checks. */
export interface RunIssue {
  /** `error`: the submission checker rejects the file; `warning`: it accepts it. */
  severity: "error" | "warning";
  /** The message (without location). */
  message: string;
  /** The pq_id concerned, if any. */
  pqId?: string;
  /** The 1-based line in the run file, if known. */
  line?: number;
}

/** A run read from a file, with every issue found. */
export interface CheckedRun {
  /** The predictions (for a duplicated pq_id, the last list, as the scorer's json.load keeps). */
  run: SpanRun;
  /** Errors and warnings, in file order. */
  issues: RunIssue[];
}

/** The submission checker's file-name rule: `TeamID_RunID.json`. */
export const RUN_FILE_NAME = /^[a-zA-Z0-9]{3,9}_[a-zA-Z0-9]{2,9}\.json$/;

/**
 * Formats an issue as `file:line: severity: [pq_id] message`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatIssue } from "./runfile.ts";
 * const s = formatIssue({ severity: "warning", message: "m", pqId: "1:1_2", line: 4 }, "r.json");
 * assert(s === "r.json:4: warning: 1:1_2: m");
 * ```
 */
export function formatIssue(issue: RunIssue, file: string): string {
  const where = issue.line === undefined ? file : `${file}:${issue.line}`;
  return `${where}: ${issue.severity}: ${issue.pqId ? issue.pqId + ": " : ""}${issue.message}`;
}

/**
 * Checks a run-file name against the submission rule (`TeamID_RunID.json`, TeamID 3-9 and
 * RunID 2-9 ASCII letters or digits). Returns the issue, or undefined when the name is fine.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkRunFileName } from "./runfile.ts";
 * assert(checkRunFileName("runs/bigIR_run01.json") === undefined);
 * assert(checkRunFileName("RUN.json", "warning")?.severity === "warning");
 * ```
 */
export function checkRunFileName(
  path: string,
  severity: RunIssue["severity"] = "error",
): RunIssue | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1);
  if (RUN_FILE_NAME.test(base)) return undefined;
  return {
    severity,
    message: `file name "${base}" does not follow the submission format TeamID_RunID.json ` +
      `(TeamID 3-9 and RunID 2-9 letters or digits, e.g. bigIR_run01.json)`,
  };
}

/**
 * Parses run-file text, applying the submission checker's rules:
 * errors for a top level that is not an object, a pq_id value that is not a list, an empty
 * list, an entry without `answer` (a string), `rank` (an integer; `1.0` is a float, as in
 * Python) or `score` (a finite number), a rank that is not the entry's 1-based position, scores that
 * increase down the list, a duplicate pq_id or a duplicate field in an entry; warnings for an
 * empty answer string, equal scores at consecutive ranks, and more than 5 answers.
 * Invalid JSON throws a `KitError` with the line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSpanRun } from "./runfile.ts";
 * const text = '{"1:1_1": [{"answer": "أ", "rank": 1, "score": 0.5}],\n' +
 *   ' "1:1_1": [{"answer": "ب", "rank": 1, "score": 0.5}]}';
 * const { run, issues } = parseSpanRun(text, "r.json");
 * assert(run.get("1:1_1")?.[0].answer === "ب"); // the last one, as json.load keeps
 * assert(issues[0].severity === "error" && issues[0].line === 2);
 * ```
 */
export function parseSpanRun(text: string, file: string): CheckedRun {
  const issues: RunIssue[] = [];
  const root = parseJsonWithLines(text, file);
  const run: SpanRun = new Map();
  if (root.kind !== "object") {
    issues.push({
      severity: "error",
      message: `expected a JSON object {pq_id: [...]} at the top level, found ${root.kind}`,
      line: root.line,
    });
    return { run, issues };
  }
  const err = (message: string, pqId: string, line: number) =>
    issues.push({ severity: "error", message, pqId, line });
  const warn = (message: string, pqId: string, line: number) =>
    issues.push({ severity: "warning", message, pqId, line });
  const firstLine = new Map<string, number>();
  for (const { key: pqId, line, value } of root.entries) {
    const earlier = firstLine.get(pqId);
    if (earlier !== undefined) {
      err(`duplicate pq_id (first on line ${earlier}); the scorer keeps this last one`, pqId, line);
    } else firstLine.set(pqId, line);
    if (value.kind !== "array") {
      err(`expected a list of answers, found ${value.kind}`, pqId, value.line);
      run.delete(pqId); // a repeated pq_id: the last value counts, as with json.load
      continue;
    }
    if (value.items.length === 0) {
      err("empty answer list (the official scorer fails on it)", pqId, value.line);
    }
    if (value.items.length > MAX_PREDICTIONS) {
      warn(
        `${value.items.length} answers; only the first ${MAX_PREDICTIONS} are scored`,
        pqId,
        value.line,
      );
    }
    const predictions: SpanPrediction[] = [];
    value.items.forEach((item, i) => {
      const p = checkEntry(item, i, pqId, err, warn);
      if (p) predictions.push(p);
    });
    for (let i = 1; i < predictions.length; i++) {
      const [prev, cur] = [predictions[i - 1], predictions[i]];
      if (cur.score > prev.score) {
        err(
          `scores increase from rank ${i} (${prev.score}) to rank ${i + 1} (${cur.score}); ` +
            `they must not increase down the list`,
          pqId,
          value.items[i].line,
        );
      } else if (cur.score === prev.score) {
        warn(`equal scores at ranks ${i} and ${i + 1} (${cur.score})`, pqId, value.items[i].line);
      }
    }
    run.set(pqId, predictions);
  }
  return { run, issues };
}

function checkEntry(
  item: JsonNode,
  i: number,
  pqId: string,
  err: (m: string, pqId: string, line: number) => void,
  warn: (m: string, pqId: string, line: number) => void,
): SpanPrediction | undefined {
  const at = `answer ${i + 1}`;
  if (item.kind !== "object") {
    err(`${at}: expected an object {answer, rank, score}, found ${item.kind}`, pqId, item.line);
    return undefined;
  }
  const fields = new Map<string, JsonNode>();
  for (const e of item.entries) {
    if (fields.has(e.key)) err(`${at}: duplicate field "${e.key}"`, pqId, e.line);
    fields.set(e.key, e.value);
  }
  let ok = true;
  const answer = fields.get("answer");
  if (answer === undefined || answer.kind !== "string") {
    err(`${at}: field "answer" is ${answer ? "not a string" : "missing"}`, pqId, item.line);
    ok = false;
  } else if (answer.value.length === 0) {
    warn(`${at}: empty answer`, pqId, answer.line);
  }
  const rank = fields.get("rank");
  if (rank === undefined || rank.kind !== "number" || /[.eE]/.test(rank.raw)) {
    const why = rank === undefined
      ? "missing"
      : rank.kind === "number"
      ? `a float (${rank.raw}), not an integer`
      : "not an integer";
    err(`${at}: field "rank" is ${why}`, pqId, rank?.line ?? item.line);
    ok = false;
  } else if (rank.value !== i + 1) {
    err(`${at}: rank is ${rank.raw}, expected ${i + 1} (ranks are 1, 2, 3, ...)`, pqId, rank.line);
  }
  const score = fields.get("score");
  if (score === undefined || score.kind !== "number") {
    err(`${at}: field "score" is ${score ? "not a number" : "missing"}`, pqId, item.line);
    ok = false;
  } else if (!Number.isFinite(score.value)) {
    // JSON has no infinity, but 1e999 overflows to it (Python's json.load reads it as inf).
    err(`${at}: score ${score.raw} is not a finite number`, pqId, score.line);
    ok = false;
  }
  if (!ok) return undefined;
  return {
    answer: (answer as { value: string }).value,
    rank: (rank as { value: number }).value,
    score: (score as { value: number }).value,
  };
}

/**
 * Reads and checks a run file. A UTF-8 byte-order mark is an error (Python's json.load, which
 * the checker uses, rejects it); invalid UTF-8 or JSON throws a `KitError` with the line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readSpanRun } from "./runfile.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/team_run1.json`, '{"2:1_3": [{"answer": "x", "rank": 1, "score": 1}]}');
 * const { run, issues } = await readSpanRun(`${dir}/team_run1.json`);
 * assert(run.size === 1 && issues.length === 0);
 * ```
 */
export async function readSpanRun(path: string): Promise<CheckedRun> {
  // Through the kit's one opener (gzip, errors naming the file), whole, at most the size of a
  // text; a file with a NUL byte in its first 64 KiB (`/dev/zero`) is refused at once.
  const bytes = await readAllBytes(path, MAX_TEXT_BYTES, (head, file) => {
    const nul = head.indexOf(0);
    if (nul >= 0) {
      fail("a NUL byte: not a text file?", { file, line: countNewlines(head, 0, nul) + 1 });
    }
  });
  const hasBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const text = await readText({ name: path, bytes });
  const checked = parseSpanRun(text, path);
  if (hasBom) {
    checked.issues.unshift({
      severity: "error",
      message: "starts with a UTF-8 byte-order mark, which the official checker rejects",
      line: 1,
    });
  }
  return checked;
}

/**
 * Checks a run against gold records: gold pq_ids without predictions are one warning (they score
 * 0), as are run pq_ids not in the gold file (they are ignored).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkRunAgainstGold } from "./runfile.ts";
 * const gold = [{ pqId: "a" }, { pqId: "b" }] as Parameters<typeof checkRunAgainstGold>[0];
 * const run = new Map([["a", []], ["z", []]]);
 * const issues = checkRunAgainstGold(gold, run);
 * assert(issues.length === 2 && issues.every((i) => i.severity === "warning"));
 * ```
 */
export function checkRunAgainstGold(gold: PassageQuestion[], run: SpanRun): RunIssue[] {
  const issues: RunIssue[] = [];
  const goldIds = new Set(gold.map((r) => r.pqId));
  const missing = [...goldIds].filter((id) => !run.has(id));
  if (missing.length === 1) {
    issues.push({
      severity: "warning",
      pqId: missing[0],
      message: "no predictions for this gold pq_id; it scores 0",
    });
  } else if (missing.length > 1) {
    issues.push({
      severity: "warning",
      message: `${missing.length} of ${goldIds.size} gold pq_ids have no predictions and score ` +
        `0: ${shortList(missing)}`,
    });
  }
  const extra = [...run.keys()].filter((id) => !goldIds.has(id));
  if (extra.length > 0) {
    issues.push({
      severity: "warning",
      message: `${extra.length} pq_id(s) not in the gold file are ignored: ${shortList(extra)}`,
    });
  }
  return issues;
}

function shortList(ids: string[]): string {
  return ids.slice(0, 5).join(", ") + (ids.length > 5 ? ", ..." : "");
}

/**
 * Why a run cannot be meant for these gold records: it shares no pq_id with them (an empty run,
 * or a run of another split or question set); `undefined` when it shares at least one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unrelatedToGold } from "./runfile.ts";
 * const gold = [{ pqId: "a" }] as Parameters<typeof unrelatedToGold>[0];
 * assert(unrelatedToGold(gold, new Map([["a", []]])) === undefined);
 * assert.match(unrelatedToGold(gold, new Map())!, /shares no pq_id/);
 * ```
 */
export function unrelatedToGold(gold: PassageQuestion[], run: SpanRun): string | undefined {
  if (gold.length === 0 || gold.some((r) => run.has(r.pqId))) return undefined;
  const ours = shortList(gold.map((r) => r.pqId));
  const why = run.size === 0
    ? "the run has no pq_id at all (an empty file, or a run not yet filled)"
    : `its pq_ids (${shortList([...run.keys()])}) are not the gold's: a run of another ` +
      "split or question set, or scored against the wrong gold";
  return `shares no pq_id with the gold records (${gold.length} records: ${ours}): ${why}`;
}

/**
 * Serializes a run in the official format (2-space indented JSON, pq_ids in map order).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatSpanRun } from "./runfile.ts";
 * const s = formatSpanRun(new Map([["1:1_1", [{ answer: "أ", rank: 1, score: 0.5 }]]]));
 * assert(JSON.parse(s)["1:1_1"][0].rank === 1);
 * ```
 */
export function formatSpanRun(run: SpanRun): string {
  const obj: Record<string, SpanPrediction[]> = {};
  for (const [id, preds] of run) {
    Object.defineProperty(obj, id, {
      value: preds.map((p) => ({ answer: p.answer, rank: p.rank, score: p.score })),
      enumerable: true,
    });
  }
  return JSON.stringify(obj, null, 2) + "\n";
}

/**
 * Writes a run file atomically (an existing file only with `force`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readSpanRun, writeSpanRun } from "./runfile.ts";
 * const path = `${await Deno.makeTempDir()}/kit_base.json`;
 * await writeSpanRun(path, new Map([["1:1_1", [{ answer: "أ", rank: 1, score: 0.5 }]]]));
 * assert((await readSpanRun(path)).run.get("1:1_1")?.[0].answer === "أ");
 * ```
 */
export async function writeSpanRun(
  path: string,
  run: SpanRun,
  options: { force?: boolean } = {},
): Promise<void> {
  await writeOutput(path, formatSpanRun(run), options);
}
