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

/**
 * Reads a jacana pseudo-XML file. It is not well-formed XML (unescaped `&` and `<` in the
 * token lines), so it is read as lines: a tag line, then 5 tab-separated annotation lines
 * (tokens, POS, dependency label, head, NER; positives may carry 2 more), of which the
 * first gives the text (tokens joined by spaces).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readJacanaXml } from "./trecqa.ts";
 * const xml = "<QApairs id='1.1'>\n<question>\nWho\t?\nWP\t.\nx\tx\n0\t0\n-\t-\n</question>\n" +
 *   "<positive>\nAT&T\t<b>\nNN\tNN\nx\tx\n0\t0\n-\t-\n</positive>\n</QApairs>\n";
 * const [q] = await readJacanaXml({ name: "t.xml", bytes: new TextEncoder().encode(xml) });
 * assert(q.id === "1.1" && q.candidates[0].text === "AT&T <b>" && q.candidates[0].label === 1);
 * ```
 */
export async function readJacanaXml(source: TextSource): Promise<Question[]> {
  const file = sourceName(source);
  const questions: Question[] = [];
  const ids = new Set<string>();
  let current: Question | undefined;
  let currentLine = 0;
  let block:
    | { kind: "question" | "positive" | "negative"; line: number; lines: string[] }
    | undefined;
  for await (const { text, line } of readLines(source)) {
    const where = { file, line };
    if (block) {
      const close = `</${block.kind}>`;
      if (text.trim() === close) {
        if (block.lines.length < 5) {
          fail(`<${block.kind}> block has ${block.lines.length} lines, expected at least 5`, where);
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
        const sentence = block.lines[0].split("\t").join(" ");
        if (block.kind === "question") current!.text = sentence;
        else {
          current!.candidates.push({
            id: `${current!.id}-${current!.candidates.length}`,
            text: sentence,
            label: block.kind === "positive" ? 1 : 0,
          });
        }
        block = undefined;
      } else block.lines.push(text);
      continue;
    }
    const tagLine = text.trim(); // tags may be indented (re-indented files, the samples)
    const open = /^<QApairs id='([^']+)'>$/.exec(tagLine);
    if (open) {
      if (current) fail("<QApairs> opened before the previous one was closed", where);
      if (ids.has(open[1])) fail(`duplicate QApairs id '${open[1]}'`, where);
      ids.add(open[1]);
      current = { id: open[1], text: "", candidates: [] };
      currentLine = line;
      continue;
    }
    if (tagLine === "</QApairs>") {
      if (!current) fail("</QApairs> without an open <QApairs>", where);
      if (current.text === "") fail(`QApairs ${current.id} has no <question>`, where);
      questions.push(current);
      current = undefined;
      continue;
    }
    const tag = /^<(question|positive|negative)>$/.exec(tagLine);
    if (tag) {
      if (!current) fail(`<${tag[1]}> outside <QApairs>`, where);
      block = { kind: tag[1] as "question", line, lines: [] };
      continue;
    }
    if (tagLine === "") continue;
    fail(`unexpected line '${text.slice(0, 40)}' (expected a jacana tag)`, where);
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
      line: currentLine,
    });
  }
  if (questions.length === 0) fail("no <QApairs> found (empty file?)", { file });
  return questions;
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
