/**
 * Reading QRCD v1.1 JSONL files (train, dev, test without answers) into
 * {@link PassageQuestion} records, checking every gold answer against its passage.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { findDataset } from "../data/datasets.ts";
import { datasetDir } from "../data/paths.ts";
import { readLines, sourceName, type TextSource } from "../io/text.ts";
import { checkWholeFileSync } from "../io/whole_file.ts";
import type { GoldAnswer, PassageQuestion } from "./types.ts";

/** A QRCD split name. */
export type QrcdSplit = "train" | "dev" | "test";

/**
 * The QRCD splits and their file names in the v1.1 distribution (the `qrcd` entry of
 * `DATASETS`).
 */
export const QRCD_FILES: Readonly<Record<QrcdSplit, string>> = Object.fromEntries(
  Object.entries(findDataset("qrcd").splits).map(([split, s]) => [
    split,
    s.file.replace(/^qrcd\//, ""),
  ]),
) as Record<QrcdSplit, string>;

function field<T>(
  obj: Record<string, unknown>,
  name: string,
  type: "string" | "integer" | "array",
  where: { file: string; line: number },
  pqId?: string,
): T {
  const v = obj[name];
  const ok = type === "string"
    ? typeof v === "string"
    : type === "integer"
    ? Number.isInteger(v)
    : Array.isArray(v);
  if (!ok) {
    const what = v === undefined ? "missing" : `not ${type === "integer" ? "an" : "a"} ${type}`;
    throw new KitError(`${pqId ? `record ${pqId}: ` : ""}field "${name}" is ${what}`, where);
  }
  return v as T;
}

/**
 * Parses one JSONL line into a record; throws a `KitError` naming the file, line and pq_id
 * when a field is missing or mistyped or an answer is not the passage text at its `start_char`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseQrcdLine } from "./load.ts";
 * const r = parseQrcdLine(JSON.stringify({
 *   pq_id: "108:1-3_7", passage: "إنا أعطيناك الكوثر.", surah: 108, verses: "1-3",
 *   question: "ماذا أعطي النبي؟", answers: [{ text: "الكوثر", start_char: 12 }],
 * }), { file: "mem.jsonl", line: 1 });
 * assert(r.questionId === "7" && r.passageId === "108:1-3" && r.answers[0].start === 12);
 * ```
 */
export function parseQrcdLine(
  text: string,
  where: { file: string; line: number },
): PassageQuestion {
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch (e) {
    throw new KitError(`not valid JSON (${(e as Error).message})`, where);
  }
  if (typeof obj !== "object" || obj === null || Array.isArray(obj)) {
    throw new KitError("expected a JSON object per line", where);
  }
  const o = obj as Record<string, unknown>;
  const pqId = field<string>(o, "pq_id", "string", where);
  const sep = pqId.lastIndexOf("_");
  if (sep <= 0 || sep === pqId.length - 1) {
    throw new KitError(
      `pq_id "${pqId}" is not of the form "{surah}:{verses}_{question id}"`,
      where,
    );
  }
  const passage = field<string>(o, "passage", "string", where, pqId);
  const surah = field<number>(o, "surah", "integer", where, pqId);
  const verses = field<string>(o, "verses", "string", where, pqId);
  const question = field<string>(o, "question", "string", where, pqId);
  const rawAnswers = field<unknown[]>(o, "answers", "array", where, pqId);
  const answers: GoldAnswer[] = rawAnswers.map((a, i) => {
    if (typeof a !== "object" || a === null || Array.isArray(a)) {
      throw new KitError(`record ${pqId}: answer ${i + 1} is not an object`, where);
    }
    const ans = a as Record<string, unknown>;
    const answerText = field<string>(ans, "text", "string", where, `${pqId} answer ${i + 1}`);
    const start = field<number>(ans, "start_char", "integer", where, `${pqId} answer ${i + 1}`);
    const found = passage.slice(start, start + answerText.length);
    if (start < 0 || found !== answerText) {
      throw new KitError(
        `record ${pqId}: answer ${i + 1} "${answerText}" is not the passage text at start_char ` +
          `${start} (found "${found}")`,
        where,
      );
    }
    return { text: answerText, start };
  });
  return {
    pqId,
    questionId: pqId.slice(sep + 1),
    passageId: pqId.slice(0, sep),
    passage,
    surah,
    verses,
    question,
    answers,
    line: where.line,
  };
}

/**
 * Loads a QRCD JSONL file (a path, `-`, or bytes in memory). Blank lines are skipped; a
 * repeated pq_id is an error (it would be counted twice in every mean), and so is a file
 * without records.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadQrcd } from "./load.ts";
 * const line = JSON.stringify({
 *   pq_id: "108:1-3_7", passage: "إنا أعطيناك الكوثر.", surah: 108, verses: "1-3",
 *   question: "ماذا أعطي النبي؟", answers: [{ text: "الكوثر", start_char: 12 }],
 * });
 * const recs = await loadQrcd({ name: "mem.jsonl", bytes: new TextEncoder().encode(line + "\n") });
 * assert(recs.length === 1 && recs[0].line === 1);
 * ```
 */
export async function loadQrcd(source: TextSource): Promise<PassageQuestion[]> {
  const file = sourceName(source);
  const records: PassageQuestion[] = [];
  const seen = new Map<string, number>();
  for await (const { text, line } of readLines(source)) {
    if (text.trim() === "") continue;
    const rec = parseQrcdLine(text, { file, line });
    const first = seen.get(rec.pqId);
    if (first !== undefined) {
      throw new KitError(`pq_id ${rec.pqId} repeats the record on line ${first}`, { file, line });
    }
    seen.set(rec.pqId, line);
    records.push(rec);
  }
  // Every mean over zero records is 0/0: an empty file is a mistake, not an empty split.
  if (records.length === 0) {
    throw new KitError("no records (empty file?); expected JSON lines", { file });
  }
  return records;
}

/**
 * The path of a split's file under a corpus folder laid out like `../shared/datasets`
 * (`<dir>/qrcd/<file>`); `"samples"` means the bundled samples, undefined means the fetched
 * corpus in the cache when it is installed there, else the samples (as `datasetDir` decides).
 * Something there that is not a regular file (a FIFO, a folder, a device) is refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { qrcdSplitPath } from "./load.ts";
 * assert.equal(qrcdSplitPath("dev", "/c"), "/c/qrcd/qrcd_v1.1_dev.jsonl");
 * assert.ok(qrcdSplitPath("test", "samples").endsWith("data/samples/qrcd/qrcd_v1.1_test_noAnswers.jsonl"));
 * ```
 */
export function qrcdSplitPath(split: QrcdSplit, dir?: string): string {
  const path = `${datasetDir("qrcd", dir).replace(/\/+$/, "")}/qrcd/${QRCD_FILES[split]}`;
  // What stands there must be a regular file: a FIFO would wait for a writer, /dev/zero never
  // end (a missing file is the reader's "file not found").
  checkWholeFileSync(path, "corpus", { missingOk: true });
  return path;
}

/**
 * Checks that `split` is a QRCD split name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isQrcdSplit } from "./load.ts";
 * assert(isQrcdSplit("dev") && !isQrcdSplit("valid"));
 * ```
 */
export function isQrcdSplit(split: string): split is QrcdSplit {
  return Object.hasOwn(QRCD_FILES, split);
}

/** Summary counts of a set of records, as `data stats qrcd` prints them. */
export interface QrcdStats {
  /** Number of records (passage-question pairs). */
  records: number;
  /** Distinct question ids (the pq_id suffix). */
  questions: number;
  /** Distinct passages (the pq_id prefix `surah:verses`). */
  passages: number;
  /** Gold answers over all records. */
  answers: number;
}

/**
 * Counts records, distinct questions, distinct passages and answers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { qrcdStats } from "./load.ts";
 * const r = (pqId: string, q: string, p: string, n: number) => ({
 *   pqId, questionId: q, passageId: p, passage: "", surah: 1, verses: "1", question: "",
 *   answers: Array.from({ length: n }, () => ({ text: "", start: 0 })), line: 0,
 * });
 * const s = qrcdStats([r("1:1_5", "5", "1:1", 2), r("1:2_5", "5", "1:2", 1)]);
 * assert(s.records === 2 && s.questions === 1 && s.passages === 2 && s.answers === 3);
 * ```
 */
export function qrcdStats(records: PassageQuestion[]): QrcdStats {
  return {
    records: records.length,
    questions: new Set(records.map((r) => r.questionId)).size,
    passages: new Set(records.map((r) => r.passageId)).size,
    answers: records.reduce((n, r) => n + r.answers.length, 0),
  };
}

/**
 * Loads a split (`train`, `dev`, `test`) from the file {@link qrcdSplitPath} names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadQrcdSplit } from "./load.ts";
 * const dev = await loadQrcdSplit("dev", { dir: "samples" });
 * assert(dev.length > 0 && dev.every((r) => r.answers.length > 0));
 * ```
 */
export async function loadQrcdSplit(
  split: QrcdSplit,
  options: { dir?: string } = {},
): Promise<PassageQuestion[]> {
  return await loadQrcd(qrcdSplitPath(split, options.dir));
}
