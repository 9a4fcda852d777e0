/** Corpus readers on small authored inputs: formats, ids, and errors with file and line. */
import "../quick.ts";
import { assertEquals, assertRejects } from "../assert.ts";
import {
  applyFilter,
  describeFilter,
  loadSplit,
  readJacanaXml,
  readTrecQaJsonl,
  readWikiQaTsv,
  SPLITS,
  splitStats,
} from "../../lib/data/mod.ts";
import { mem } from "../helpers.ts";

const HEADER = "QuestionID\tQuestion\tDocumentID\tDocumentTitle\tSentenceID\tSentence\tLabel\n";

Deno.test("WikiQA: raw quotes stay inside their field; ids are the corpus ids", async () => {
  const tsv = HEADER +
    'Q1\tWhat is "x?\tD1\tT\tD1-0\t"Quoted start and no end\t0\n' +
    'Q1\tWhat is "x?\tD1\tT\tD1-1\tplain " middle\t1\n' +
    "Q2\tWho?\tD2\tT\tD2-0\tsomeone\t0\n";
  const qs = await readWikiQaTsv(mem("w.tsv", tsv));
  assertEquals(qs.map((q) => [q.id, q.candidates.map((c) => [c.id, c.label])]), [
    ["Q1", [["D1-0", 0], ["D1-1", 1]]],
    ["Q2", [["D2-0", 0]]],
  ]);
  assertEquals(qs[0].candidates[0].text, '"Quoted start and no end');
});

Deno.test("WikiQA: BOM and CRLF accepted; bad header, field count and labels rejected", async () => {
  const crlf = "\uFEFF" + (HEADER + "Q1\tq\tD1\tT\tD1-0\ts\t1\n").replace(/\n/g, "\r\n");
  assertEquals((await readWikiQaTsv(mem("w.tsv", crlf)))[0].candidates[0].text, "s");
  await assertRejects(
    () => readWikiQaTsv(mem("w.tsv", "a\tb\n")),
    /w\.tsv:1: expected the WikiQA header/,
  );
  await assertRejects(
    () => readWikiQaTsv(mem("w.tsv", HEADER + "Q1\tq\tD1\tT\tD1-0\ts\n")),
    /w\.tsv:2: expected 7 tab-separated fields, found 6/,
  );
  await assertRejects(
    () => readWikiQaTsv(mem("w.tsv", HEADER + "Q1\tq\tD1\tT\tD1-0\ts\tyes\n")),
    /w\.tsv:2: label 'yes' is not 0 or 1/,
  );
  await assertRejects(
    () =>
      readWikiQaTsv(mem("w.tsv", HEADER + "Q1\tq\tD1\tT\tD1-0\ts\t1\nQ1\tq\tD1\tT\tD1-0\ts\t0\n")),
    /w\.tsv:3: duplicate SentenceID D1-0/,
  );
  await assertRejects(() => readWikiQaTsv(mem("w.tsv", "")), /empty file/);
  await assertRejects(
    () =>
      readWikiQaTsv(
        mem("w.tsv", new Uint8Array([...new TextEncoder().encode(HEADER), 0xff, 0x0a])),
      ),
    /w\.tsv:2: invalid UTF-8/,
  );
});

function block(tag: string, tokens: string[], extra = 0): string {
  const lines = [tokens.join("\t"), ...Array(4 + extra).fill(tokens.map(() => "x").join("\t"))];
  return `<${tag}>\n${lines.join("\n")}\n</${tag}>\n`;
}

Deno.test("jacana XML: not well-formed text is fine; ids from QApairs and position", async () => {
  const xml = "<QApairs id='3.2'>\n" + block("question", ["Who", "?"]) +
    block("negative", ["A", "&", "B", "<", "C"]) + block("positive", ["Him", "."], 2) +
    "</QApairs>\n<QApairs id='4'>\n" + block("question", ["Q"]) + "</QApairs>\n";
  const qs = await readJacanaXml(mem("t.xml", xml));
  assertEquals(qs.map((q) => [q.id, q.text, q.candidates.map((c) => [c.id, c.text, c.label])]), [
    ["3.2", "Who ?", [["3.2-0", "A & B < C", 0], ["3.2-1", "Him .", 1]]],
    ["4", "Q", []],
  ]);
});

Deno.test("jacana XML: structural errors name the line", async () => {
  await assertRejects(
    () =>
      readJacanaXml(mem("t.xml", "<QApairs id='1'>\n<question>\nWho\n</question>\n</QApairs>\n")),
    /t\.xml:4: <question> block has 1 lines, expected 5/,
  );
  await assertRejects(
    () => readJacanaXml(mem("t.xml", "<QApairs id='1'>\n" + block("question", ["a"]))),
    /unclosed <QApairs/,
  );
  await assertRejects(() => readJacanaXml(mem("t.xml", "hello\n")), /t\.xml:1: unexpected line/);
  await assertRejects(
    () =>
      readJacanaXml(
        mem(
          "t.xml",
          "<QApairs id='1'>\n" + block("question", ["a"]) + "</QApairs>\n<QApairs id='1'>\n",
        ),
      ),
    /duplicate QApairs id/,
  );
});

async function gzip(text: string): Promise<Uint8Array> {
  const s = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(s).arrayBuffer());
}

Deno.test("TREC-QA JSONL: gzip detected, ids from line numbers, broken lines reported", async () => {
  const text = JSON.stringify({ question: "a?", candidates: [{ sentence: "x", label: 0 }] }) +
    "\n\n" +
    JSON.stringify({ question: "b?", candidates: [{ sentence: "y", label: 1 }] }) + "\n";
  const qs = await readTrecQaJsonl(mem("t.jsonl.gz", await gzip(text)), "train-all");
  assertEquals(qs.map((q) => q.id), ["train-all-1", "train-all-3"]);
  assertEquals(qs[1].candidates[0].id, "train-all-3-0");
  await assertRejects(
    () => readTrecQaJsonl(mem("t.jsonl", '{"question": "a"\n'), "dev"),
    /t\.jsonl:1: broken JSON line/,
  );
  await assertRejects(
    () =>
      readTrecQaJsonl(
        mem("t.jsonl", '{"question": "a", "candidates": [{"sentence": "s", "label": 2}]}\n'),
        "dev",
      ),
    /t\.jsonl:1: candidate 0: label must be 0 or 1/,
  );
  const gz = await gzip(text.repeat(50));
  await assertRejects(
    () => readTrecQaJsonl(mem("t.gz", gz.subarray(0, gz.length - 12)), "x"),
    /corrupt or truncated gzip/,
  );
});

Deno.test("filters report what they dropped and why", () => {
  const c = (id: string, label: number) => ({ id, text: "", label });
  const qs = [
    { id: "mixed", text: "", candidates: [c("a", 1), c("b", 0)] },
    { id: "allneg", text: "", candidates: [c("a", 0)] },
    { id: "allpos", text: "", candidates: [c("a", 1)] },
    { id: "empty", text: "", candidates: [] },
  ];
  assertEquals(applyFilter(qs, "raw").questions.length, 4);
  const noAll = applyFilter(qs, "no-all");
  assertEquals(noAll.questions.map((q) => q.id), ["mixed", "allpos"]);
  assertEquals(noAll.report.dropped, { noCandidates: 1, allNegative: 1, allPositive: 0 });
  const clean = applyFilter(qs, "clean");
  assertEquals(clean.questions.map((q) => q.id), ["mixed"]);
  assertEquals(
    describeFilter(clean.report),
    "clean: kept 1 of 4 questions (2 candidates); dropped 1 without candidates, 1 without a correct answer, 1 with only correct answers",
  );
});

Deno.test("the bundled samples load for every split and filter", async () => {
  for (const [dataset, splits] of Object.entries(SPLITS)) {
    for (const split of splits) {
      for (const filter of ["raw", "no-all", "clean"] as const) {
        const s = await loadSplit(dataset as "wikiqa", split, { filter, dir: "samples" });
        assertEquals(s.isSample, true);
        const st = splitStats(s.questions);
        if (filter === "clean") assertEquals(st.allNegative + st.allPositive + st.noCandidates, 0);
      }
    }
  }
  await assertRejects(() => loadSplit("wikiqa", "validation"), /unknown wikiqa split 'validation'/);
});
