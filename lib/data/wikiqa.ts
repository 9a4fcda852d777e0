/**
 * WikiQA (Yang, Yih & Meek, EMNLP 2015) TSV reader.
 *
 * The file is NOT RFC 4180: raw `"` characters occur inside fields without escaping, so a
 * quote-aware CSV parser merges rows. Rows are split on tabs, exactly 7 fields each:
 * `QuestionID Question DocumentID DocumentTitle SentenceID Sentence Label`.
 * Questions and candidates keep the corpus ids (`QuestionID`, `SentenceID`).
 *
 * @module
 */
import { fail } from "../errors.ts";
import { readLines, sourceName, type TextSource } from "../io/text.ts";
import type { Question } from "./types.ts";

const HEADER = [
  "QuestionID",
  "Question",
  "DocumentID",
  "DocumentTitle",
  "SentenceID",
  "Sentence",
  "Label",
];

/**
 * Reads a WikiQA TSV file into questions (corpus order; a question's rows are merged even
 * if not contiguous, in file order).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readWikiQaTsv } from "./wikiqa.ts";
 * const tsv = "QuestionID\tQuestion\tDocumentID\tDocumentTitle\tSentenceID\tSentence\tLabel\n" +
 *   "Q1\tWho?\tD1\tT\tD1-0\tHe said \"hi.\tThen\t0\n";
 * await assert.rejects(
 *   () => readWikiQaTsv({ name: "x.tsv", bytes: new TextEncoder().encode(tsv) }),
 *   /x\.tsv:2: expected 7 tab-separated fields, found 8/,
 * );
 * ```
 */
export async function readWikiQaTsv(source: TextSource): Promise<Question[]> {
  const file = sourceName(source);
  const byId = new Map<string, Question>();
  const seenCandidates = new Set<string>();
  let sawHeader = false;
  for await (const { text, line } of readLines(source)) {
    if (!sawHeader) {
      const got = text.split("\t");
      if (got.join("\t") !== HEADER.join("\t")) {
        fail(`expected the WikiQA header '${HEADER.join("<TAB>")}'`, { file, line });
      }
      sawHeader = true;
      continue;
    }
    if (text === "") continue;
    const f = text.split("\t");
    if (f.length !== 7) {
      fail(`expected 7 tab-separated fields, found ${f.length}`, { file, line });
    }
    const [qid, question, , , sid, sentence, label] = f;
    if (qid === "" || sid === "") fail("empty QuestionID or SentenceID", { file, line });
    if (label !== "0" && label !== "1") {
      fail(`label '${label}' is not 0 or 1`, { file, line });
    }
    let q = byId.get(qid);
    if (!q) byId.set(qid, q = { id: qid, text: question, candidates: [] });
    const key = `${qid}\t${sid}`;
    if (seenCandidates.has(key)) {
      fail(`duplicate SentenceID ${sid} in question ${qid}`, { file, line });
    }
    seenCandidates.add(key);
    q.candidates.push({ id: sid, text: sentence, label: Number(label) });
  }
  if (!sawHeader) fail("empty file (expected the WikiQA header)", { file });
  return [...byId.values()];
}

/**
 * Maps WikiQA's official `.ref` qrels (question number 1-based in file order, candidate
 * index 0-based) to the corpus ids, so the official files can be compared with the kit's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { refIdsToCorpusIds } from "./wikiqa.ts";
 * const qs = [{ id: "Q8", text: "", candidates: [{ id: "D8-0", text: "", label: 0 }] }];
 * assert(refIdsToCorpusIds(qs, "1", "0")!.join() === "Q8,D8-0");
 * ```
 */
export function refIdsToCorpusIds(
  questions: readonly Question[],
  questionNumber: string,
  candidateIndex: string,
): [string, string] | undefined {
  const q = questions[Number(questionNumber) - 1];
  const c = q?.candidates[Number(candidateIndex)];
  return q && c ? [q.id, c.id] : undefined;
}
