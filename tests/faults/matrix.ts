/**
 * The bad-input matrix: every reader of the kit against every bad input that applies to its
 * format. Each case is generated from a small valid file; its expected outcome is declared
 * here (read with the same result as the clean file, or an error on a given line saying what
 * was expected). `bad_input_test.ts` runs the matrix and asserts the outcomes;
 * `renderMatrix` turns the observed outcomes into the tables of `docs/bad-input.md`
 * (`deno run --allow-all tests/faults/update_doc.ts` rewrites them; the test fails when the
 * doc is out of date).
 *
 * @module
 */
import { gzipSync } from "fflate";
import { readJacanaXml, readTrecQaJsonl, readWikiQaTsv } from "../../lib/data/mod.ts";
import { KitError } from "../../lib/errors.ts";
import { evaluateTrecFiles, readQrels, readRun } from "../../lib/metrics/mod.ts";
import { formatIssue, loadQrcd, readSpanRun } from "../../lib/qrcd/mod.ts";
import { FUZZ_PLAN, FUZZ_TOTAL } from "./fuzz_plan.ts";

/** The kinds of bad input tried, in table order. */
export const FAULTS = [
  { id: "wrong-fields", label: "wrong column count (a field missing)" },
  { id: "non-numeric", label: "non-numeric score or label" },
  { id: "nan", label: "NaN score or label" },
  { id: "inf", label: "infinite score or label" },
  { id: "empty", label: "empty file (0 bytes)" },
  { id: "blank", label: "only blank lines" },
  { id: "bom", label: "UTF-8 byte-order mark" },
  { id: "crlf", label: "CRLF line ends" },
  { id: "no-final-newline", label: "no newline at the end" },
  { id: "gzip", label: "gzip-compressed (intact)" },
  { id: "gzip-truncated", label: "truncated gzip" },
  { id: "invalid-utf8", label: "invalid UTF-8 byte" },
  { id: "broken-json", label: "broken JSON line" },
  { id: "duplicate-id", label: "duplicate ids" },
  { id: "cut-off", label: "file cut off in its last line" },
  { id: "hash-line", label: "a line starting with '#' (a comment elsewhere)" },
  { id: "blank-inside", label: "a blank line between lines" },
  { id: "non-decimal", label: "number in hexadecimal or binary (0x10, 0b1)" },
  { id: "gzip-members", label: "gzip in two members (cat a.gz b.gz)" },
  { id: "endless", label: "no newline ever (/dev/zero)" },
] as const;

/** A fault id. */
export type FaultId = typeof FAULTS[number]["id"];

/** What a case must do. */
export type Expect =
  /** Read, with the same result as the clean file. */
  | { ok: true }
  /**
   * Fail on `line` (undefined: a whole-file problem) with a message matching `says`. With
   * `bug`, the kit does not do that yet: the matrix test skips the cell, an ignored test
   * asserts it, and the doc shows what happens today.
   */
  | { line: number | undefined; says: RegExp; bug?: string }
  /**
   * Read as the number it is, on purpose (so the result differs from the clean file's):
   * `reads` says why (an infinite score ranks above every finite one, as in trec_eval).
   */
  | { reads: string }
  /** Does not apply to this format, and why. */
  | { na: string };

/** A change to the clean file's lines (0-based index) that makes the bad input. */
export type Mutation =
  | { replace: number; with: string }
  | { remove: number }
  | { append: string };

/** One reader and its cases. */
export interface ReaderSpec {
  /** Column heading in the doc. */
  title: string;
  /** The function(s) under test, for the doc. */
  api: string;
  /** File name the cases are written under. */
  fileName: string;
  /** The clean file, line by line. */
  lines: string[];
  /** The 0-based line the invalid UTF-8 byte goes into. */
  utf8Line: number;
  /** Reads a file (`dir` holds the fixed other side of a pair); compared with the clean file's. */
  read(path: string, dir: string): Promise<unknown>;
  /** Format-specific line changes, and every case's expectation. */
  cases: Record<FaultId, Expect & { mutate?: Mutation }>;
}

const enc = new TextEncoder();

/** A fixed qrels file for the run-side column of the streaming evaluator. */
export const EVAL_QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\n";
/** A fixed run file for the qrels-side column of the streaming evaluator. */
export const EVAL_RUN = "q1 Q0 d1 1 2.5 sys\nq1 Q0 d2 2 1.5 sys\nq2 Q0 d3 1 0.25 sys\n";

const QRCD_A = {
  passage: "إنا أعطيناك الكوثر. فصل لربك وانحر.",
  answer: "الكوثر",
};
const QRCD_B = { passage: "قل هو الله أحد. الله الصمد.", answer: "الله الصمد" };
function qrcdRecord(pqId: string, r: { passage: string; answer: string }, extra = {}): string {
  const [verses] = pqId.split("_");
  return JSON.stringify({
    pq_id: pqId,
    passage: r.passage,
    surah: Number(verses.split(":")[0]),
    verses: verses.split(":")[1],
    question: "ما هو؟",
    answers: [{ text: r.answer, start_char: r.passage.indexOf(r.answer) }],
    ...extra,
  });
}
const QRCD_LINE_B = qrcdRecord("112:1-4_9", QRCD_B);

/** Where a run or qrels file is only one side: evaluates it against the fixed other side. */
async function evalWith(qrels: string, run: string) {
  const r = await evaluateTrecFiles(qrels, run, ["map", "recip_rank", "P.5"], {
    warn: () => {},
  });
  return { summary: r.summary, perQuery: r.perQuery, numQ: r.numQ };
}

const na = (why: string) => ({ na: why });

const okCase = { ok: true } as const;

/** Cases every line-oriented text format shares (file-level faults). */
function textCases(emptyLine: number | undefined, empty: RegExp, blank: Expect) {
  return {
    empty: { line: emptyLine, says: empty },
    blank,
    bom: okCase,
    crlf: okCase,
    "no-final-newline": okCase,
    gzip: okCase,
  } as const;
}

const WIKIQA_HEADER =
  "QuestionID\tQuestion\tDocumentID\tDocumentTitle\tSentenceID\tSentence\tLabel";
const wikiRow = (q: string, d: string, s: number, text: string, label: string) =>
  `${q}\t${
    q === "Q1" ? "Who wrote it?" : "Where is it?"
  }\t${d}\tBook\t${d}-${s}\t${text}\t${label}`;

/** Every reader of the kit with its cases. */
export const READERS: ReaderSpec[] = [
  {
    title: "WikiQA TSV",
    api: "readWikiQaTsv, loadSplit('wikiqa')",
    fileName: "WikiQA-dev.tsv",
    lines: [
      WIKIQA_HEADER,
      wikiRow("Q1", "D1", 0, 'He said "it was 1900 .', "0"),
      wikiRow("Q1", "D1", 1, "Jane Doe wrote it .", "1"),
      wikiRow("Q2", "D2", 0, "It is in Paris .", "1"),
    ],
    utf8Line: 2,
    read: (p) => readWikiQaTsv(p),
    cases: {
      "wrong-fields": {
        mutate: {
          replace: 2,
          with: wikiRow("Q1", "D1", 1, "Jane Doe wrote it .", "1").split("\t").slice(0, 6).join(
            "\t",
          ),
        },
        line: 3,
        says: /expected 7 tab-separated fields, found 6/,
      },
      "non-numeric": {
        mutate: { replace: 2, with: wikiRow("Q1", "D1", 1, "Jane Doe wrote it .", "yes") },
        line: 3,
        says: /label 'yes' is not 0 or 1/,
      },
      nan: {
        mutate: { replace: 2, with: wikiRow("Q1", "D1", 1, "Jane Doe wrote it .", "NaN") },
        line: 3,
        says: /label 'NaN' is not 0 or 1/,
      },
      inf: {
        mutate: { replace: 2, with: wikiRow("Q1", "D1", 1, "Jane Doe wrote it .", "Infinity") },
        line: 3,
        says: /label 'Infinity' is not 0 or 1/,
      },
      ...textCases(undefined, /empty file \(expected the WikiQA header\)/, {
        line: 1,
        says: /expected the WikiQA header/,
      }),
      "gzip-truncated": {
        line: 2,
        says: /corrupt or truncated gzip data.*download or write the file again/,
      },
      "invalid-utf8": { line: 3, says: /invalid UTF-8( at byte \d+)?; expected UTF-8 text/ },
      "broken-json": na("not JSON"),
      "duplicate-id": {
        mutate: { append: wikiRow("Q1", "D1", 1, "Jane Doe wrote it again .", "0") },
        line: 5,
        says: /duplicate SentenceID D1-1 in question Q1/,
      },
      "cut-off": { line: 4, says: /expected 7 tab-separated fields, found 5/ },
      "hash-line": {
        mutate: { append: "# comment" },
        line: 5,
        says: /expected 7 tab-separated fields, found 1/,
      },
      "blank-inside": okCase,
      "non-decimal": {
        mutate: { replace: 2, with: wikiRow("Q1", "D1", 1, "Jane Doe wrote it .", "0x1") },
        line: 3,
        says: /label '0x1' is not 0 or 1/,
      },
      "gzip-members": okCase,
      endless: { line: 1, says: /a NUL byte: not a text file\?/ },
    },
  },
  {
    title: "TREC qrels, WikiQA .ref",
    api: "readQrels",
    fileName: "WikiQA-dev.ref",
    lines: ["1 0 0 0", "1 0 1 1", "2 0 0 1"],
    utf8Line: 1,
    read: (p) => readQrels(p),
    cases: {
      "wrong-fields": {
        mutate: { replace: 1, with: "1 0 1" },
        line: 2,
        says: /expected 4 fields \(qid iter docno relevance\), found 3/,
      },
      "non-numeric": {
        mutate: { replace: 1, with: "1 0 1 yes" },
        line: 2,
        says:
          /relevance 'yes' is not an integer: trec_eval would read it as 0 .*\(expected: qid iter docno relevance\)/,
      },
      nan: {
        mutate: { replace: 1, with: "1 0 1 NaN" },
        line: 2,
        says: /relevance 'NaN' is not an integer/,
      },
      inf: { mutate: { replace: 1, with: "1 0 1 inf" }, line: 2, says: /relevance 'inf' is not/ },
      ...textCases(undefined, /qrels file has no judgments \(empty file\?\)/, {
        line: 1,
        says: /empty line; expected qid iter docno relevance \(trec_eval rejects it too\)/,
      }),
      "gzip-truncated": { line: 2, says: /corrupt or truncated gzip data/ },
      "invalid-utf8": { line: 2, says: /invalid UTF-8( at byte \d+)?; expected UTF-8 text/ },
      "broken-json": na("not JSON"),
      "duplicate-id": {
        mutate: { append: "1 0 1 0" },
        line: 4,
        says: /duplicate judgment for query 1, document 1/,
      },
      "cut-off": { line: 3, says: /expected 4 fields \(qid iter docno relevance\), found 2/ },
      ...trecQrelsCases("1 0 1 0x1"),
    },
  },
  {
    title: "TREC run",
    api: "readRun",
    fileName: "bm25.run",
    lines: EVAL_RUN.trimEnd().split("\n"),
    utf8Line: 1,
    read: (p) => readRun(p),
    cases: runCases(),
  },
  {
    title: "TREC run, streaming evaluation",
    api: "evaluateTrecFiles (eval trec, eval compare)",
    fileName: "bm25.run",
    lines: EVAL_RUN.trimEnd().split("\n"),
    utf8Line: 1,
    read: (p, dir) => evalWith(`${dir}/fixed.qrels`, p),
    cases: runCases(),
  },
  {
    title: "TREC qrels, streaming evaluation",
    api: "evaluateTrecFiles (eval trec, eval compare)",
    fileName: "test.qrels",
    lines: EVAL_QRELS.trimEnd().split("\n"),
    utf8Line: 1,
    read: (p, dir) => evalWith(p, `${dir}/fixed.run`),
    cases: {
      "wrong-fields": {
        mutate: { replace: 1, with: "q1 0 d2" },
        line: 2,
        says: /expected 4 fields \(qid iter docno relevance\), found 3/,
      },
      "non-numeric": {
        mutate: { replace: 1, with: "q1 0 d2 no" },
        line: 2,
        says: /relevance 'no' is not an integer/,
      },
      nan: { mutate: { replace: 1, with: "q1 0 d2 NaN" }, line: 2, says: /relevance 'NaN' is not/ },
      inf: {
        mutate: { replace: 1, with: "q1 0 d2 1e999" },
        line: 2,
        says: /relevance '1e999' is not an integer/,
      },
      ...textCases(undefined, /qrels file has no judgments \(empty file\?\)/, {
        line: 1,
        says: /empty line; expected qid iter docno relevance \(trec_eval rejects it too\)/,
      }),
      "gzip-truncated": { line: 2, says: /corrupt or truncated gzip data/ },
      "invalid-utf8": { line: 2, says: /invalid UTF-8( at byte \d+)?; expected UTF-8 text/ },
      "broken-json": na("not JSON"),
      "duplicate-id": {
        mutate: { append: "q1 0 d1 0" },
        line: 4,
        says: /duplicate judgment for query q1, document d1/,
      },
      "cut-off": { line: 3, says: /expected 4 fields \(qid iter docno relevance\), found 2/ },
      ...trecQrelsCases("q1 0 d2 0x1"),
    },
  },
  {
    title: "TREC-QA jacana XML",
    api: "readJacanaXml, loadSplit('trecqa', 'train'|'dev'|'test')",
    fileName: "DEV.xml",
    lines: [
      "<QApairs id='1.1'>",
      "<question>",
      ...annotation(["Who", "wrote", "it", "?"]),
      "</question>",
      "<positive>",
      ...annotation(["Jane", "Doe", "wrote", "it", "&", "<num>"]),
      "</positive>",
      "<negative>",
      ...annotation(["It", "is", "old"]),
      "</negative>",
      "</QApairs>",
      "<QApairs id='1.2'>",
      "<question>",
      ...annotation(["Where", "?"]),
      "</question>",
      "<positive>",
      ...annotation(["Paris", "."]),
      "</positive>",
      "</QApairs>",
    ],
    utf8Line: 9,
    read: (p) => readJacanaXml(p),
    cases: {
      "wrong-fields": {
        // The POS line of the positive block loses a token.
        mutate: { replace: 10, with: "NN\tNN\tNN\tNN\tNN" },
        line: 11,
        says: /expected 6 tab-separated fields \(one per token, as on the tokens line\), found 5/,
      },
      "non-numeric": na("labels are the <positive>/<negative> tags; there is no score"),
      nan: na("no numeric field is read"),
      inf: na("no numeric field is read"),
      ...textCases(undefined, /no <QApairs> found \(empty file\?\)/, {
        line: undefined,
        says: /no <QApairs> found/,
      }),
      "gzip-truncated": { line: 10, says: /corrupt or truncated gzip data/ },
      "invalid-utf8": { line: 10, says: /invalid UTF-8( at byte \d+)?; expected UTF-8 text/ },
      "broken-json": na("not JSON"),
      "duplicate-id": {
        mutate: { replace: 23, with: "<QApairs id='1.1'>" },
        line: 24,
        says: /duplicate QApairs id '1.1'/,
      },
      "cut-off": { line: 39, says: /unexpected line '<\/QApa' \(expected a jacana tag\)/ },
      "hash-line": {
        mutate: { append: "# comment" },
        line: 40,
        says: /unexpected line '# comment' \(expected a jacana tag\)/,
      },
      // A blank line may be a block's line (an empty sentence's 5 lines are blank): the block
      // then has one line too many, reported where it closes.
      "blank-inside": { line: 9, says: /<question> block has 6 lines, expected 5/ },
      "non-decimal": na("no numeric field is read"),
      "gzip-members": okCase,
      endless: { line: 1, says: /a NUL byte: not a text file\?/ },
    },
  },
  {
    title: "TREC-QA JSONL",
    api: "readTrecQaJsonl, loadSplit('trecqa', 'train-all')",
    fileName: "dev.jsonl",
    lines: [
      JSON.stringify({
        question: "Who wrote it ?",
        candidates: [{ sentence: "Jane Doe wrote it .", label: 1 }, {
          sentence: "It is <num> years old .",
          label: 0,
        }],
      }),
      JSON.stringify({ question: "Where ?", candidates: [{ sentence: "Paris .", label: 1 }] }),
    ],
    utf8Line: 1,
    read: (p) => readTrecQaJsonl(p, "dev"),
    cases: {
      "wrong-fields": {
        mutate: { replace: 1, with: '{"question": "Where ?"}' },
        line: 2,
        says: /expected an array "candidates"/,
      },
      "non-numeric": {
        mutate: { replace: 1, with: jsonlWithLabel('"yes"') },
        line: 2,
        says: /candidate 0: label must be 0 or 1/,
      },
      nan: {
        mutate: { replace: 1, with: jsonlWithLabel("NaN") },
        line: 2,
        says: /broken JSON line/,
      },
      inf: {
        mutate: { replace: 1, with: jsonlWithLabel("1e999") },
        line: 2,
        says: /candidate 0: label must be 0 or 1/,
      },
      ...textCases(undefined, /no questions \(empty file\?\)/, {
        line: undefined,
        says: /no questions \(empty file\?\)/,
      }),
      "gzip-truncated": { line: 1, says: /corrupt or truncated gzip data/ },
      "invalid-utf8": { line: 2, says: /invalid UTF-8( at byte \d+)?; expected UTF-8 text/ },
      "broken-json": {
        mutate: { replace: 1, with: jsonlWithLabel("1").slice(0, -1) },
        line: 2,
        says: /broken JSON line/,
      },
      "duplicate-id": na("ids are derived from line numbers, so they cannot repeat"),
      "cut-off": { line: 2, says: /broken JSON line/ },
      "hash-line": { mutate: { append: "# comment" }, line: 3, says: /broken JSON line/ },
      "blank-inside": okCase,
      "non-decimal": {
        mutate: { replace: 1, with: jsonlWithLabel("0x1") },
        line: 2,
        says: /broken JSON line/,
      },
      "gzip-members": okCase,
      endless: { line: 1, says: /a NUL byte: not a text file\?/ },
    },
  },
  {
    title: "QRCD JSONL",
    api: "loadQrcd, loadQrcdSplit",
    fileName: "qrcd_v1.1_dev.jsonl",
    lines: [qrcdRecord("108:1-3_7", QRCD_A), QRCD_LINE_B],
    utf8Line: 1,
    read: (p) => loadQrcd(p),
    cases: {
      "wrong-fields": {
        mutate: { replace: 1, with: QRCD_LINE_B.replace(/"passage":"[^"]*",/, "") },
        line: 2,
        says: /record 112:1-4_9: field "passage" is missing/,
      },
      "non-numeric": {
        mutate: { replace: 1, with: QRCD_LINE_B.replace(/"start_char":\d+/, '"start_char":"x"') },
        line: 2,
        says: /field "start_char" is not an integer/,
      },
      nan: {
        mutate: { replace: 1, with: QRCD_LINE_B.replace(/"start_char":\d+/, '"start_char":NaN') },
        line: 2,
        says: /not valid JSON/,
      },
      inf: {
        mutate: { replace: 1, with: QRCD_LINE_B.replace(/"start_char":\d+/, '"start_char":1e999') },
        line: 2,
        says: /field "start_char" is not an integer/,
      },
      ...textCases(undefined, /no records \(empty file\?\); expected JSON lines/, {
        line: undefined,
        says: /no records \(empty file\?\)/,
      }),
      "gzip-truncated": { line: 1, says: /corrupt or truncated gzip data/ },
      "invalid-utf8": { line: 2, says: /invalid UTF-8( at byte \d+)?; expected UTF-8 text/ },
      "broken-json": {
        mutate: { replace: 1, with: QRCD_LINE_B.slice(0, -2) },
        line: 2,
        says: /not valid JSON/,
      },
      "duplicate-id": {
        mutate: { append: qrcdRecord("108:1-3_7", QRCD_A, { question: "سؤال آخر؟" }) },
        line: 3,
        says: /pq_id 108:1-3_7 repeats the record on line 1/,
      },
      "cut-off": { line: 2, says: /not valid JSON/ },
      "hash-line": { mutate: { append: "# comment" }, line: 3, says: /not valid JSON/ },
      "blank-inside": okCase,
      "non-decimal": {
        mutate: { replace: 1, with: QRCD_LINE_B.replace(/"start_char":\d+/, '"start_char":0x1') },
        line: 2,
        says: /not valid JSON/,
      },
      "gzip-members": okCase,
      endless: { line: 1, says: /a NUL byte: not a text file\?/ },
    },
  },
  {
    title: "QRCD run JSON",
    api: "readSpanRun (eval qrcd, eval qrcd-check)",
    fileName: "team_run01.json",
    lines: [
      "{",
      '  "108:1-3_7": [',
      '    {"answer": "الكوثر", "rank": 1, "score": 0.9},',
      '    {"answer": "وانحر", "rank": 2, "score": 0.5}',
      "  ],",
      '  "112:1-4_9": [',
      '    {"answer": "الله الصمد", "rank": 1, "score": 0.7}',
      "  ]",
      "}",
    ],
    utf8Line: 2,
    read: (p) => readSpanRun(p),
    cases: {
      "wrong-fields": {
        mutate: { replace: 3, with: '    {"answer": "وانحر", "rank": 2}' },
        line: 4,
        says: /answer 2: field "score" is missing/,
      },
      "non-numeric": {
        mutate: { replace: 3, with: '    {"answer": "وانحر", "rank": 2, "score": "high"}' },
        line: 4,
        says: /answer 2: field "score" is not a number/,
      },
      nan: {
        mutate: { replace: 3, with: '    {"answer": "وانحر", "rank": 2, "score": NaN}' },
        line: 4,
        says: /invalid JSON: expected a JSON value, found "N"/,
      },
      inf: {
        mutate: { replace: 3, with: '    {"answer": "وانحر", "rank": 2, "score": 1e999}' },
        line: 4,
        says: /answer 2: score 1e999 is not a finite number/,
      },
      empty: { line: 1, says: /invalid JSON: expected a JSON value, found end of file/ },
      blank: { line: 4, says: /invalid JSON: expected a JSON value, found end of file/ },
      bom: { line: 1, says: /byte-order mark, which the official checker rejects/ },
      crlf: okCase,
      "no-final-newline": okCase,
      gzip: okCase,
      "gzip-truncated": { line: 4, says: /corrupt or truncated gzip data/ },
      "invalid-utf8": { line: 3, says: /invalid UTF-8( at byte \d+)?; expected UTF-8 text/ },
      "broken-json": {
        mutate: { replace: 3, with: '    {"answer": "وانحر", "rank": 2, "score": 0.5' },
        line: 5,
        says: /invalid JSON: expected ',' or '}', found "\]"/,
      },
      "duplicate-id": {
        mutate: { replace: 5, with: '  "108:1-3_7": [' },
        line: 6,
        says: /108:1-3_7: duplicate pq_id \(first on line 2\)/,
      },
      "cut-off": { line: 9, says: /invalid JSON: expected ',' or '}', found end of file/ },
      "hash-line": {
        mutate: { append: "# comment" },
        line: 10,
        says: /invalid JSON: unexpected data after the JSON value, found "#"/,
      },
      "blank-inside": okCase,
      "non-decimal": {
        mutate: { replace: 3, with: '    {"answer": "وانحر", "rank": 2, "score": 0x10}' },
        line: 4,
        says: /invalid JSON: expected ',' or '}', found "x"/,
      },
      "gzip-members": okCase,
      endless: { line: 1, says: /a NUL byte: not a text file\?/ },
    },
  },
];

function annotation(tokens: string[]): string[] {
  return [
    tokens.join("\t"),
    tokens.map(() => "NN").join("\t"),
    tokens.map(() => "dep").join("\t"),
    tokens.map((_, i) => String(i)).join("\t"),
    tokens.map(() => "O").join("\t"),
  ];
}

function jsonlWithLabel(label: string): string {
  return `{"question": "Where ?", "candidates": [{"sentence": "Paris .", "label": ${label}}]}`;
}

/** The TREC qrels readers' cases for '#' lines, blank lines, hexadecimal, gzip members, no newline. */
function trecQrelsCases(hexLine: string) {
  return {
    "hash-line": {
      mutate: { append: "# comment" },
      line: 4,
      says: /expected 4 fields \(qid iter docno relevance\), found 2/,
    },
    "blank-inside": { line: 3, says: /empty line; expected qid iter docno relevance/ },
    "non-decimal": {
      mutate: { replace: 1, with: hexLine },
      line: 2,
      says: /relevance '0x1' is not an integer/,
    },
    "gzip-members": okCase,
    endless: { line: 1, says: /line longer than 16 MiB \(the limit of every reader\)/ },
  } as const;
}

function runCases(): ReaderSpec["cases"] {
  return {
    "wrong-fields": {
      mutate: { replace: 1, with: "q1 Q0 d2 2 1.5" },
      line: 2,
      says: /expected 6 fields \(qid Q0 docno rank score runid\), found 5/,
    },
    "non-numeric": {
      mutate: { replace: 1, with: "q1 Q0 d2 2 high sys" },
      line: 2,
      says:
        /score 'high' is not a decimal number: trec_eval would read it as 0 \(expected: qid Q0 docno rank score runid\)/,
    },
    nan: {
      mutate: { replace: 1, with: "q1 Q0 d2 2 NaN sys" },
      line: 2,
      says: /score 'NaN' is NaN, which trec_eval cannot rank/,
    },
    inf: {
      mutate: { replace: 1, with: "q1 Q0 d2 2 1e999 sys" },
      reads: "as +inf, as trec_eval's atof reads it: above every finite score, tied with +inf",
    },
    ...textCases(undefined, /run file has no result lines \(empty file\?\)/, {
      line: undefined,
      says: /run file has no result lines/,
    }),
    "gzip-truncated": { line: 2, says: /corrupt or truncated gzip data/ },
    "invalid-utf8": { line: 2, says: /invalid UTF-8( at byte \d+)?; expected UTF-8 text/ },
    "broken-json": na("not JSON"),
    "duplicate-id": {
      mutate: { append: "q1 Q0 d1 3 0.5 sys" },
      line: 4,
      says: /duplicate document d1 for query q1/,
    },
    "cut-off": { line: 3, says: /expected 6 fields \(qid Q0 docno rank score runid\), found 4/ },
    "hash-line": {
      mutate: { append: "# comment" },
      line: 4,
      says: /expected 6 fields \(qid Q0 docno rank score runid\), found 2/,
    },
    "blank-inside": okCase,
    "non-decimal": {
      mutate: { replace: 1, with: "q1 Q0 d2 2 0x10 sys" },
      line: 2,
      says: /score '0x10' is hexadecimal: trec_eval would read it as 16/,
    },
    "gzip-members": okCase,
    endless: { line: 1, says: /line longer than 16 MiB \(the limit of every reader\)/ },
  };
}

/** gzip with a pinned library and a fixed header, so truncation points are reproducible. */
function gzip(bytes: Uint8Array): Uint8Array {
  return gzipSync(bytes, { level: 6, mtime: 0 });
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function applyMutation(lines: string[], m: Mutation | undefined): string[] {
  if (!m) return lines;
  const out = [...lines];
  if ("replace" in m) out[m.replace] = m.with;
  else if ("remove" in m) out.splice(m.remove, 1);
  else out.push(m.append);
  return out;
}

/** The bytes of one case. */
export function caseBytes(spec: ReaderSpec, fault: FaultId): Uint8Array {
  const lines = applyMutation(spec.lines, spec.cases[fault].mutate);
  const text = lines.join("\n") + "\n";
  switch (fault) {
    case "empty":
      return new Uint8Array();
    case "blank":
      return enc.encode("\n  \n\t\n");
    case "bom":
      return enc.encode("\uFEFF" + text);
    case "crlf":
      return enc.encode(text.replace(/\n/g, "\r\n"));
    case "no-final-newline":
      return enc.encode(text.slice(0, -1));
    case "gzip":
      return gzip(enc.encode(text));
    case "gzip-members": {
      const half = text.indexOf("\n", text.length >> 1) + 1;
      return new Uint8Array([
        ...gzip(enc.encode(text.slice(0, half))),
        ...gzip(enc.encode(text.slice(half))),
      ]);
    }
    case "blank-inside":
      return enc.encode([...lines.slice(0, 2), "", ...lines.slice(2)].join("\n") + "\n");
    case "gzip-truncated": {
      const gz = gzip(enc.encode(text));
      return gz.subarray(0, Math.floor(gz.length * 0.6));
    }
    case "invalid-utf8": {
      const before = lines.slice(0, spec.utf8Line).join("\n") + (spec.utf8Line > 0 ? "\n" : "");
      const head = enc.encode(before + lines[spec.utf8Line].slice(0, 4));
      const tail = enc.encode(
        lines[spec.utf8Line].slice(4) + "\n" +
          lines.slice(spec.utf8Line + 1).map((l) => l + "\n").join(""),
      );
      return new Uint8Array([...head, 0xff, ...tail]);
    }
    case "cut-off": {
      const last = lines[lines.length - 1];
      return enc.encode(
        lines.slice(0, -1).join("\n") + "\n" + last.slice(0, Math.floor(last.length * 0.6)),
      );
    }
    default:
      return enc.encode(text);
  }
}

/** What a case did. */
export type Outcome =
  | { kind: "ok"; value: unknown }
  | {
    kind: "error";
    /** Whether a KitError (or a checker error of the QRCD run file) reported it. */
    kitError: boolean;
    file?: string;
    line?: number;
    /** The message, with the temporary folder removed from paths. */
    message: string;
    name: string;
  }
  | { kind: "na"; why: string };

/** Runs one reader on one file, folding the QRCD run file's checker errors into errors. */
export async function attempt(spec: ReaderSpec, path: string, dir: string): Promise<Outcome> {
  // Paths in messages are shown as the bare file name: `<dir>/<case>/<name>` -> `<name>`.
  const strip = (s: string) => s.replace(new RegExp(`${escapeRegExp(dir)}/([^/\\s]*/)?`, "g"), "");
  try {
    const value = await spec.read(path, dir);
    const issues = (value as { issues?: { severity: string; line?: number }[] }).issues;
    const firstError = issues?.find((i) => i.severity === "error");
    if (firstError) {
      return {
        kind: "error",
        kitError: true,
        file: path,
        line: firstError.line,
        message: strip(formatIssue(firstError as Parameters<typeof formatIssue>[0], path)),
        name: "checker error",
      };
    }
    return { kind: "ok", value: issues ? (value as { run: unknown }).run : value };
  } catch (e) {
    const err = e as Error;
    return {
      kind: "error",
      kitError: e instanceof KitError,
      file: (e as KitError).file,
      line: (e as KitError).line,
      message: strip(String(err?.message ?? e)),
      name: err?.name ?? typeof e,
    };
  }
}

/** One observed cell of the matrix. */
export interface Cell {
  reader: ReaderSpec;
  fault: FaultId;
  path: string;
  outcome: Outcome;
}

/** Runs the whole matrix in a fresh temporary folder. */
export async function runMatrix(): Promise<{ cells: Cell[]; clean: Map<ReaderSpec, Outcome> }> {
  const dir = await Deno.makeTempDir({ prefix: "bad-input-" });
  await Deno.writeTextFile(`${dir}/fixed.qrels`, EVAL_QRELS);
  await Deno.writeTextFile(`${dir}/fixed.run`, EVAL_RUN);
  const cells: Cell[] = [];
  const clean = new Map<ReaderSpec, Outcome>();
  try {
    for (const [r, reader] of READERS.entries()) {
      const cleanPath = `${dir}/clean-${r}-${reader.fileName}`;
      await Deno.writeTextFile(cleanPath, reader.lines.join("\n") + "\n");
      clean.set(reader, await attempt(reader, cleanPath, dir));
      for (const { id } of FAULTS) {
        const expect = reader.cases[id];
        const path = `${dir}/${r}-${id}/${reader.fileName}`;
        if ("na" in expect) {
          cells.push({ reader, fault: id, path, outcome: { kind: "na", why: expect.na } });
          continue;
        }
        await Deno.mkdir(`${dir}/${r}-${id}`);
        // An endless file without newlines: the device itself.
        if (id === "endless") await Deno.symlink("/dev/zero", path);
        else await Deno.writeFile(path, caseBytes(reader, id));
        cells.push({ reader, fault: id, path, outcome: await attempt(reader, path, dir) });
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  return { cells, clean };
}

function escapeCell(s: string): string {
  return s.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** The doc's tables: a summary matrix, then every reader's messages. */
/** The summary table: one row per bad input, one column per reader (also in docs/bad-input.md's summary). */
export function renderSummary(cells: Cell[]): string {
  const out: string[] = [];
  const symbol = (o: Outcome) =>
    o.kind === "ok"
      ? "read"
      : o.kind === "na"
      ? "n/a"
      : !o.kitError
      ? `**bug: ${o.name}**`
      : o.line === undefined
      ? "error"
      : `error, line ${o.line}`;
  out.push(`| bad input | ${READERS.map((r) => r.title).join(" | ")} |`);
  out.push(`|---|${READERS.map(() => "---").join("|")}|`);
  for (const f of FAULTS) {
    const row = READERS.map((r) =>
      symbol(cells.find((c) => c.reader === r && c.fault === f.id)!.outcome)
    );
    out.push(`| ${f.label} | ${row.join(" | ")} |`);
  }
  return out.join("\n");
}

export function renderMatrix(cells: Cell[]): string {
  const out: string[] = [renderSummary(cells)];
  for (const r of READERS) {
    out.push(
      "",
      `### ${r.title} (\`${r.api}\`)`,
      "",
      "| bad input | what the kit does |",
      "|---|---|",
    );
    for (const f of FAULTS) {
      const o = cells.find((c) => c.reader === r && c.fault === f.id)!.outcome;
      const expect = r.cases[f.id];
      const bug = "bug" in expect ? expect.bug : undefined;
      const what = o.kind === "ok"
        ? "reads" in expect ? `read ${expect.reads}` : "read; same result as the clean file"
        : o.kind === "na"
        ? `does not apply: ${o.why}`
        : bug
        ? `**known bug**: \`${o.name}: ${escapeCell(o.message)}\` (${escapeCell(bug)})`
        : `\`${escapeCell(o.message)}\``;
      out.push(`| ${f.label} | ${what} |`);
    }
  }
  return out.join("\n") + "\n";
}

/** Markers around a generated part of `docs/bad-input.md`. */
export function markers(part: string): [string, string] {
  return [
    `<!-- BEGIN GENERATED ${part} by tests/faults/update_doc.ts: do not edit -->`,
    `<!-- END GENERATED ${part} -->`,
  ];
}

/** The doc with each generated part (by name) replaced. */
export function spliceDoc(doc: string, parts: Record<string, string>): string {
  let out = doc;
  for (const [part, text] of Object.entries(parts)) {
    const [begin, end] = markers(part);
    const a = out.indexOf(begin);
    const b = out.indexOf(end);
    if (a < 0 || b < a) throw new Error(`docs/bad-input.md lacks the markers ${begin} ... ${end}`);
    out = out.slice(0, a + begin.length) + "\n" + text + out.slice(b);
  }
  return out;
}

/** Every generated part of the doc: the matrix tables and the fuzz case count. */
export function generatedParts(cells: Cell[]): Record<string, string> {
  const perParser = Object.entries(FUZZ_PLAN).map(([name, c]) =>
    `${name} ${(c.randomBytes + c.formatAlphabet + c.mutatedValid).toLocaleString("en-US")}`
  ).join(", ");
  return {
    tables: renderMatrix(cells),
    fuzz: `Fuzz cases per test run: **${FUZZ_TOTAL.toLocaleString("en-US")}** (${perParser}).\n`,
  };
}

/** The summary table of docs/bad-input.md. */
export function summaryParts(cells: Cell[]): Record<string, string> {
  return { "bad-input summary": renderSummary(cells) + "\n" };
}

/** Formats Markdown as `deno fmt` does (it aligns table columns), so the doc stays fmt-clean. */
export async function formatMarkdown(text: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext", "md", "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(text));
  await w.close();
  const out = await child.output();
  if (!out.success) throw new Error(`deno fmt failed: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}
