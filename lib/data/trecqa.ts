/**
 * TREC-QA readers: Yao et al.'s jacana pseudo-XML and the JSONL edition.
 *
 * Ids (documented choice):
 * - jacana XML: a question keeps the file's `<QApairs id='...'>` (e.g. `32.1`, the TREC
 *   question number); its candidates are `<qid>-<n>`, n = 0-based position among the
 *   question's `<positive>`/`<negative>` blocks in file order.
 * - JSONL (no ids in the file): question `<split>-<n>` with n = 1-based line number, candidates
 *   `<qid>-<i>`, i = 0-based index in `candidates`. Both are stable as long as the file is.
 *
 * @module
 */
import { fail } from "../errors.ts";
import { readLines, sourceName, type TextSource } from "../io/text.ts";
import type { Question } from "./types.ts";

type BlockKind = "question" | "positive" | "negative";

/** Annotation lines a block holds: tokens, POS, dependency label, head, NER (+2 in positives). */
const BLOCK_LINES: Record<BlockKind, readonly number[]> = {
  question: [5],
  negative: [5],
  // Positives of the distributed files add the answer's tokens and their positions.
  positive: [5, 7],
};

/** The four tags of the format, opening or closing (attributes kept for `<QApairs id=...>`). */
const JACANA_TAG = /^<(\/?)(QApairs|question|positive|negative)(\s[^>]*)?>$/;
/** Anything else shaped like a tag (`<neutral>`, `<Positive>`, `</answer>`). */
const OTHER_TAG = /^<\/?[A-Za-z][\w:-]*(\s[^>]*)?>$/;

/**
 * Reads a jacana pseudo-XML file. It is not well-formed XML (unescaped `&` and `<` in the
 * token lines), so it is read as lines: a tag line, then the block's annotation lines
 * (tokens, POS, dependency label, head, NER; positives may carry the answer's tokens and
 * positions too), of which the first gives the text (tokens joined by spaces).
 *
 * The structure is checked strictly, since a lost or altered tag would otherwise merge two
 * candidates silently (a `</positive>` deleted or turned into `</negative>` moved a positive
 * into its neighbour): each `<question>`, `<positive>` or `<negative>` block must close with
 * its own tag and hold its number of lines; a tag of the format inside a block, a closing tag
 * that closes nothing, an unknown tag, a second question, a candidate before the question
 * and a `<QApairs>` left open are errors naming the line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readJacanaXml } from "./trecqa.ts";
 * const xml = "<QApairs id='1.1'>\n<question>\nWho\t?\nWP\t.\nx\tx\n0\t0\n-\t-\n</question>\n" +
 *   "<positive>\nAT&T\t<b>\nNN\tNN\nx\tx\n0\t0\n-\t-\n</positive>\n</QApairs>\n";
 * const [q] = await readJacanaXml({ name: "t.xml", bytes: new TextEncoder().encode(xml) });
 * assert(q.id === "1.1" && q.candidates[0].text === "AT&T <b>" && q.candidates[0].label === 1);
 * await assert.rejects(
 *   () => readJacanaXml({ name: "t.xml", bytes: new TextEncoder().encode(xml.replace("</positive>", "</negative>")) }),
 *   /t\.xml:15: <\/negative> does not close the <positive> block opened on line 9/,
 * );
 * ```
 */
export async function readJacanaXml(source: TextSource): Promise<Question[]> {
  const file = sourceName(source);
  const questions: Question[] = [];
  const ids = new Map<string, number>();
  let current: (Question & { line: number; questionLine?: number }) | undefined;
  let block: { kind: BlockKind; line: number; lines: string[] } | undefined;
  for await (const { text, line } of readLines(source)) {
    const where = { file, line };
    const tagLine = text.trim(); // tags may be indented (re-indented files, the samples)
    const tag = JACANA_TAG.exec(tagLine);
    if (block) {
      if (!tag) {
        block.lines.push(text);
        continue;
      }
      const [, closing, name] = tag;
      const opened = `the <${block.kind}> block opened on line ${block.line}`;
      if (closing && name === block.kind) {
        closeBlock(block, current!, file, line);
        block = undefined;
        continue;
      }
      if (closing) fail(`</${name}> does not close ${opened} (expected </${block.kind}>)`, where);
      fail(`<${name}> inside ${opened} (expected </${block.kind}> first)`, where);
    }
    if (!tag) {
      if (tagLine === "") continue;
      if (OTHER_TAG.test(tagLine)) {
        fail(
          `unknown tag ${tagLine.slice(0, 40)} (a jacana file has <QApairs id='...'>, ` +
            "<question>, <positive> and <negative>)",
          where,
        );
      }
      fail(`unexpected line '${text.slice(0, 40)}' (expected a jacana tag)`, where);
    }
    const [, closing, name, attrs] = tag;
    if (name === "QApairs") {
      if (closing) {
        if (!current) fail("</QApairs> without an open <QApairs>", where);
        if (current.questionLine === undefined) {
          fail(`QApairs ${current.id} has no <question>`, where);
        }
        const { line: _l, questionLine: _q, ...question } = current;
        questions.push(question);
        current = undefined;
        continue;
      }
      const id = /^\s+id='([^']+)'\s*$/.exec(attrs ?? "")?.[1];
      if (id === undefined) {
        fail(`expected <QApairs id='...'>, found ${tagLine.slice(0, 40)}`, where);
      }
      if (current) {
        fail(
          `<QApairs> opened before the previous one (line ${current.line}) was closed`,
          where,
        );
      }
      if (ids.has(id)) fail(`duplicate QApairs id '${id}' (first on line ${ids.get(id)})`, where);
      ids.set(id, line);
      current = { id, text: "", candidates: [], line };
      continue;
    }
    const kind = name as BlockKind;
    if (closing) fail(`</${kind}> closes nothing: no <${kind}> block is open`, where);
    if (attrs !== undefined) fail(`expected <${kind}> without attributes`, where);
    if (!current) fail(`<${kind}> outside <QApairs>`, where);
    if (kind === "question" && current.questionLine !== undefined) {
      fail(
        `a second <question> in QApairs ${current.id} (the first is on line ${current.questionLine})`,
        where,
      );
    }
    if (kind !== "question" && current.questionLine === undefined) {
      fail(`<${kind}> before the <question> of QApairs ${current.id}`, where);
    }
    if (kind === "question") current.questionLine = line;
    block = { kind, line, lines: [] };
  }
  if (block) {
    fail(`unclosed <${block.kind}> block: the file ends before </${block.kind}>`, {
      file,
      line: block.line,
    });
  }
  if (current) {
    fail(`unclosed <QApairs id='${current.id}'>: the file ends before </QApairs>`, {
      file,
      line: current.line,
    });
  }
  if (questions.length === 0) fail("no <QApairs> found (empty file?)", { file });
  return questions;
}

/** Checks a finished block's lines and adds it to its question. */
function closeBlock(
  block: { kind: BlockKind; line: number; lines: string[] },
  current: Question,
  file: string,
  line: number,
): void {
  const allowed = BLOCK_LINES[block.kind];
  if (!allowed.includes(block.lines.length)) {
    fail(
      `<${block.kind}> block has ${block.lines.length} lines, expected ${allowed.join(" or ")}`,
      { file, line },
    );
  }
  // The 5 annotation lines hold one tab-separated field per token each.
  const tokens = block.lines[0].split("\t").length;
  for (let k = 1; k < 5; k++) {
    const n = block.lines[k].split("\t").length;
    if (n !== tokens) {
      fail(
        `expected ${tokens} tab-separated fields (one per token, as on the tokens line), ` +
          `found ${n}`,
        { file, line: block.line + 1 + k },
      );
    }
  }
  // The answer's tokens and their positions, one field each.
  if (block.lines.length === 7) {
    const answer = block.lines[5].split("\t").length;
    const positions = block.lines[6].split("\t").length;
    if (answer !== positions) {
      fail(
        `expected ${answer} tab-separated answer positions (one per answer token), found ` +
          positions,
        { file, line: block.line + 7 },
      );
    }
  }
  const sentence = block.lines[0].split("\t").join(" ");
  if (block.kind === "question") current.text = sentence;
  else {
    current.candidates.push({
      id: `${current.id}-${current.candidates.length}`,
      text: sentence,
      label: block.kind === "positive" ? 1 : 0,
    });
  }
}

/**
 * Reads TREC-QA JSONL (`{"question": str, "candidates": [{"sentence": str, "label": 0|1}]}` per
 * line; gzip detected by its magic bytes). `split` prefixes the derived ids.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readTrecQaJsonl } from "./trecqa.ts";
 * const line = JSON.stringify({ question: "Who?", candidates: [{ sentence: "Him .", label: 1 }] });
 * const [q] = await readTrecQaJsonl({ name: "t.jsonl", bytes: new TextEncoder().encode(line) }, "dev");
 * assert(q.id === "dev-1" && q.candidates[0].id === "dev-1-0");
 * ```
 */
export async function readTrecQaJsonl(source: TextSource, split: string): Promise<Question[]> {
  const file = sourceName(source);
  const questions: Question[] = [];
  for await (const { text, line } of readLines(source)) {
    if (text.trim() === "") continue;
    const where = { file, line };
    let rec: unknown;
    try {
      rec = JSON.parse(text);
    } catch (e) {
      fail(`broken JSON line (${(e as Error).message})`, where);
    }
    const r = rec as { question?: unknown; candidates?: unknown };
    if (typeof r !== "object" || r === null || typeof r.question !== "string") {
      fail('expected an object with a string "question"', where);
    }
    if (!Array.isArray(r.candidates)) fail('expected an array "candidates"', where);
    const id = `${split}-${line}`;
    questions.push({
      id,
      text: r.question as string,
      candidates: (r.candidates as unknown[]).map((c, i) => {
        const cc = c as { sentence?: unknown; label?: unknown };
        if (typeof cc?.sentence !== "string") {
          fail(`candidate ${i}: expected a string "sentence"`, where);
        }
        if (cc.label !== 0 && cc.label !== 1) fail(`candidate ${i}: label must be 0 or 1`, where);
        return { id: `${id}-${i}`, text: cc.sentence as string, label: cc.label as number };
      }),
    });
  }
  if (questions.length === 0) fail("no questions (empty file?)", { file });
  return questions;
}
