/**
 * Reading the Qur'an QA 2023 Task A files: the passage collection (QPC), a split's questions, and
 * the counts of its qrels (read by ./qrels.ts) that the loader and `data stats qqa23` show. The installed corpus is found as the other corpora are
 * (lib/data/paths.ts): `dir` when given, else the cache; there is no bundled sample (the licence
 * forbids modified copies), so a corpus that is not installed is an error saying how to fetch it.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { datasetDir, defaultCacheDir, isInstalled } from "../data/paths.ts";
import { readLines, sourceName, type TextSource } from "../io/text.ts";
import { checkWholeFileSync } from "../io/whole_file.ts";
import { QQA23_DATASET } from "./dataset.ts";
import { readQqa23Qrels } from "./qrels.ts";

/** A Qur'an QA 2023 Task A split. */
export type Qqa23Split = "train" | "dev" | "test";

/** The splits, in order. */
export const QQA23_SPLITS: readonly Qqa23Split[] = ["train", "dev", "test"];

/** The collection's file inside the corpus folder. */
const COLLECTION = "qqa23/QQA23_TaskA_QPC_v1.1.tsv";

/** A question of a split. */
export interface Qqa23Question {
  /** Its id (`qid` in the run and the qrels). */
  id: string;
  /** The question, as written in the file. */
  text: string;
}

/** The paths of a split's files inside the installed corpus. */
export interface Qqa23SplitFiles {
  /** The questions (`<qid>\t<question>`). */
  questions: string;
  /** The qrels (`<qid>\t0\t<passage-id>\t<rel>`; `-1` for a zero-answer question). */
  qrels: string;
  /** The passage collection (`<passage-id>\t<text>`), shared by the splits. */
  collection: string;
}

/** A loaded split. */
export interface Qqa23SplitData {
  split: Qqa23Split;
  /** The questions, in file order. */
  questions: Qqa23Question[];
  /** Passage id to text, in file order. */
  collection: Map<string, string>;
  /** The split's qrels file (for the evaluators). */
  qrelsPath: string;
  /** Questions with at least one qrels line (test: 51 of 52). */
  judged: number;
  /** Zero-answer questions (the qrels line `<qid> 0 -1 1`). */
  zeroAnswer: number;
}

/** `data stats qqa23` for one split. */
export interface Qqa23SplitStats {
  /** Questions in the questions file. */
  questions: number;
  /** Questions with qrels. */
  judged: number;
  /** Zero-answer questions. */
  zeroAnswer: number;
  /** Non-blank qrels lines (the README's question-passage pairs, zero-answer lines included). */
  qrelsLines: number;
  /** Relevant (question, passage) pairs: qrels lines with a passage id and a positive grade. */
  relevantPairs: number;
}

/** `data stats qqa23`: the collection's size and each split's counts. */
export interface Qqa23Stats {
  /** Passages in the collection. */
  passages: number;
  splits: Record<Qqa23Split, Qqa23SplitStats>;
}

/** A passage id: `surah:first-last` verses. */
const PASSAGE_ID = /^(\d{1,3}):(\d{1,3})-(\d{1,3})$/;

/** Splits a line into exactly `n` tab-separated fields, or throws naming the file and line. */
function fields(text: string, n: number, what: string, where: { file: string; line: number }) {
  const f = text.split("\t");
  if (f.length !== n) {
    throw new KitError(
      `expected ${n} tab-separated fields (${what}), found ${f.length}`,
      where,
    );
  }
  return f;
}

/**
 * Reads the passage collection (`<passage-id>\t<text>` a line) into a map from passage id to
 * text, in file order. Checks every line: two tab-separated fields, an id `surah:first-last`
 * (surah 1-114, verses from 1, first at most last), a text, no id twice. Blank lines are skipped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readCollection } from "./load.ts";
 * const bytes = new TextEncoder().encode("1:1-2\tنص أول.\n2:3-5\tنص ثان.\n");
 * const c = await readCollection({ name: "qpc.tsv", bytes });
 * assert.deepEqual([...c.keys()], ["1:1-2", "2:3-5"]);
 * await assert.rejects(
 *   readCollection({ name: "qpc.tsv", bytes: new TextEncoder().encode("1:1\tنص\n") }),
 *   /qpc\.tsv:1: passage id "1:1" is not surah:first-last/,
 * );
 * ```
 */
export async function readCollection(source: TextSource): Promise<Map<string, string>> {
  return await readIdTexts(source, "passage", "passage id, text", (id, where) => {
    const m = PASSAGE_ID.exec(id);
    if (!m) {
      throw new KitError(`passage id "${id}" is not surah:first-last (e.g. 2:255-257)`, where);
    }
    const [surah, first, last] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (surah < 1 || surah > 114 || first < 1 || first > last) {
      throw new KitError(
        `passage id "${id}": surah 1-114 and verses first-last with 1 <= first <= last expected`,
        where,
      );
    }
  });
}

/**
 * Reads a questions file (`<qid>\t<question>` a line; train and dev have no final newline) into
 * a map from question id to text, in file order. Two tab-separated fields, an id without spaces,
 * a text, no id twice; blank lines are skipped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readQuestions } from "./load.ts";
 * const q = await readQuestions({ name: "q.tsv", bytes: new TextEncoder().encode("7\tما هو؟") });
 * assert.equal(q.get("7"), "ما هو؟");
 * await assert.rejects(
 *   readQuestions({ name: "q.tsv", bytes: new TextEncoder().encode("7\ta\n7\tb\n") }),
 *   /q\.tsv:2: question id 7 repeats the question on line 1/,
 * );
 * ```
 */
export async function readQuestions(source: TextSource): Promise<Map<string, string>> {
  return await readIdTexts(source, "question", "question id, question", (id, where) => {
    if (!/^\S+$/.test(id)) throw new KitError(`question id "${id}" is empty or has spaces`, where);
  });
}

/**
 * A `<id>\t<text>` file (the collection, a questions file) as a map from id to text in file
 * order: blank lines skipped, two tab-separated fields, the id checked by `checkId`, a text, no
 * id twice, at least one line. `noun` names the rows in the messages.
 */
async function readIdTexts(
  source: TextSource,
  noun: "passage" | "question",
  columns: string,
  checkId: (id: string, where: { file: string; line: number }) => void,
): Promise<Map<string, string>> {
  const file = sourceName(source);
  const out = new Map<string, string>();
  const lineOf = new Map<string, number>();
  for await (const { text, line } of readLines(source)) {
    if (text.trim() === "") continue;
    const where = { file, line };
    const [id, value] = fields(text, 2, columns, where);
    checkId(id, where);
    if (value.trim() === "") throw new KitError(`${noun} ${id} has no text`, where);
    const seen = lineOf.get(id);
    if (seen !== undefined) {
      throw new KitError(`${noun} id ${id} repeats the ${noun} on line ${seen}`, where);
    }
    lineOf.set(id, line);
    out.set(id, value);
  }
  if (out.size === 0) throw new KitError(`no ${noun}s (empty file?)`, { file });
  return out;
}

/** What the loader needs of a qrels file. */
interface QrelsSummary {
  judged: number;
  zeroAnswer: number;
  lines: number;
  relevantPairs: number;
}

/**
 * Reads a split's qrels with the task's reader (./qrels.ts: the official scorer's reading) and
 * checks that every judged question is one of the split's questions.
 */
async function readQrelsSummary(
  path: string,
  questions: ReadonlyMap<string, string>,
): Promise<QrelsSummary> {
  const qrels = await readQqa23Qrels(path);
  for (const qid of qrels.questions) {
    if (!questions.has(qid)) {
      throw new KitError(`question ${qid} is not in the split's questions file`, {
        file: path,
        line: qrels.firstLine.get(qid),
      });
    }
  }
  let relevantPairs = 0;
  for (const docs of qrels.judged.values()) {
    for (const grade of docs.values()) if (grade > 0) relevantPairs++;
  }
  return {
    judged: qrels.questions.length,
    zeroAnswer: qrels.zeroAnswer.length,
    lines: qrels.lines,
    relevantPairs,
  };
}

/** The folder holding `qqa23/`, or the error saying how to fetch it. */
function corpusRoot(dir?: string): string {
  const fetch = "./kit data fetch qqa23 --mirror ../shared/datasets";
  if (dir === "samples") {
    throw new KitError(
      "qqa23 has no bundled sample (its licence forbids modified copies): fetch the corpus " +
        `with '${fetch}' (or without --mirror, from upstream)`,
    );
  }
  if (dir === undefined && !isInstalled("qqa23")) {
    throw new KitError(
      `the Qur'an QA 2023 corpus is not installed in ${defaultCacheDir()}: run '${fetch}' ` +
        "(from a folder laid out like ../shared/datasets; without --mirror it is downloaded), " +
        "or pass the folder holding qqa23/ as dir",
    );
  }
  return datasetDir("qqa23", dir).replace(/\/+$/, "");
}

/** `<root>/<file>`, checked to be a regular file; a missing one is the fetch error. */
function corpusFile(root: string, file: string, dir: string | undefined): string {
  const path = `${root}/${file}`;
  if (checkWholeFileSync(path, "corpus", { missingOk: true }) === undefined) {
    throw new KitError(
      `no Qur'an QA 2023 corpus here (${file} is missing): run './kit data fetch qqa23` +
        `${dir === undefined ? "" : ` --dir ${dir}`} --mirror ../shared/datasets' (without ` +
        "--mirror it is downloaded)",
      { file: path },
    );
  }
  return path;
}

function checkSplit(split: string): asserts split is Qqa23Split {
  if (!isQqa23Split(split)) {
    throw new KitError(`unknown qqa23 split '${split}' (expected: ${QQA23_SPLITS.join(", ")})`);
  }
}

/**
 * Whether `split` names a Qur'an QA 2023 split.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isQqa23Split } from "./load.ts";
 * assert(isQqa23Split("dev") && !isQqa23Split("valid"));
 * ```
 */
export function isQqa23Split(split: string): split is Qqa23Split {
  return (QQA23_SPLITS as readonly string[]).includes(split);
}

/**
 * The paths of a split's questions, qrels and the collection inside the corpus folder: `dir`
 * (a folder holding `qqa23/`, e.g. `../shared/datasets` or one `data fetch --dir` filled), else
 * the cache. A corpus that is not there is an error naming `./kit data fetch qqa23 --mirror ...`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PROJECT_ROOT } from "../data/paths.ts";
 * import { qqa23SplitFiles } from "./load.ts";
 * const f = qqa23SplitFiles("dev", `${PROJECT_ROOT}/tests/fixtures/qqa23`);
 * assert(f.questions.endsWith("qqa23/QQA23_TaskA_ayatec_v1.2_dev.tsv"));
 * assert(f.collection.endsWith("qqa23/QQA23_TaskA_QPC_v1.1.tsv"));
 * assert.throws(() => qqa23SplitFiles("dev", "/nonexistent"), /kit data fetch qqa23 --dir/);
 * ```
 */
export function qqa23SplitFiles(split: Qqa23Split, dir?: string): Qqa23SplitFiles {
  checkSplit(split);
  const root = corpusRoot(dir);
  const questions = QQA23_DATASET.splits[split].file;
  return {
    collection: corpusFile(root, COLLECTION, dir),
    questions: corpusFile(root, questions, dir),
    qrels: corpusFile(root, qrelsFile(split), dir),
  };
}

/** A split's qrels file inside the corpus folder. */
function qrelsFile(split: Qqa23Split): string {
  return `qqa23/QQA23_TaskA_ayatec_v1.2_qrels_${split}.gold`;
}

/**
 * The path of a split's qrels file (see {@link qqa23SplitFiles} for `dir`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PROJECT_ROOT } from "../data/paths.ts";
 * import { qqa23QrelsPath } from "./load.ts";
 * const path = qqa23QrelsPath("test", `${PROJECT_ROOT}/tests/fixtures/qqa23`);
 * assert(path.endsWith("qqa23/QQA23_TaskA_ayatec_v1.2_qrels_test.gold"));
 * ```
 */
export function qqa23QrelsPath(split: Qqa23Split, dir?: string): string {
  checkSplit(split);
  return corpusFile(corpusRoot(dir), qrelsFile(split), dir);
}

/**
 * Loads a split: its questions (file order), the collection, the qrels file's path, and how many
 * questions are judged and zero-answer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PROJECT_ROOT } from "../data/paths.ts";
 * import { loadQqa23Split } from "./load.ts";
 * const dev = await loadQqa23Split("dev", { dir: `${PROJECT_ROOT}/tests/fixtures/qqa23` });
 * assert.equal(dev.questions.length, 3);
 * assert.equal(dev.collection.size, 6);
 * assert(dev.judged === 3 && dev.zeroAnswer === 1);
 * ```
 */
export async function loadQqa23Split(
  split: Qqa23Split,
  options: { dir?: string } = {},
): Promise<Qqa23SplitData> {
  const files = qqa23SplitFiles(split, options.dir);
  const byId = await readQuestions(files.questions);
  const collection = await readCollection(files.collection);
  const qrels = await readQrelsSummary(files.qrels, byId);
  return {
    split,
    questions: [...byId].map(([id, text]) => ({ id, text })),
    collection,
    qrelsPath: files.qrels,
    judged: qrels.judged,
    zeroAnswer: qrels.zeroAnswer,
  };
}

/**
 * `data stats qqa23`: the collection's passages, and per split its questions, judged and
 * zero-answer questions, qrels lines and relevant pairs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PROJECT_ROOT } from "../data/paths.ts";
 * import { qqa23Stats } from "./load.ts";
 * const s = await qqa23Stats(`${PROJECT_ROOT}/tests/fixtures/qqa23`);
 * assert.equal(s.passages, 6);
 * assert.deepEqual(s.splits.test, {
 *   questions: 3, judged: 2, zeroAnswer: 1, qrelsLines: 3, relevantPairs: 2,
 * });
 * ```
 */
export async function qqa23Stats(dir?: string): Promise<Qqa23Stats> {
  const splits = {} as Record<Qqa23Split, Qqa23SplitStats>;
  let passages = 0;
  for (const split of QQA23_SPLITS) {
    const files = qqa23SplitFiles(split, dir);
    if (split === QQA23_SPLITS[0]) passages = (await readCollection(files.collection)).size;
    const questions = await readQuestions(files.questions);
    const q = await readQrelsSummary(files.qrels, questions);
    splits[split] = {
      questions: questions.size,
      judged: q.judged,
      zeroAnswer: q.zeroAnswer,
      qrelsLines: q.lines,
      relevantPairs: q.relevantPairs,
    };
  }
  return { passages, splits };
}
