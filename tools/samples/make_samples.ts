/**
 * Writes data/samples/{wikiqa,trecqa} in the corpora's real formats from the authored
 * questions in as2_sample.json (not copied from any corpus). The annotation lines of the
 * jacana XML (POS, dependencies, heads, NER) are simple placeholders of the right shape:
 * the kit reads only the token line.
 *
 * Run: deno run -A tools/samples/make_samples.ts
 *
 * @module
 */
import { writeFileAtomic } from "../../lib/io/atomic.ts";
import { PROJECT_ROOT } from "../../lib/data/paths.ts";

type WikiQ = [string, string, [string, number][]];
type TrecQ = [string, [string, number][]];
const spec = JSON.parse(
  await Deno.readTextFile(new URL("./as2_sample.json", import.meta.url)),
) as { wikiqa: Record<string, WikiQ[]>; trecqa: Record<string, TrecQ[]> };
const out = `${PROJECT_ROOT}/data/samples`;

// WikiQA TSV: ids in the corpus's style, numbered per split so splits never share ids.
const base: Record<string, number> = { train: 100, dev: 200, test: 300 };
for (const [split, questions] of Object.entries(spec.wikiqa)) {
  const rows = ["QuestionID\tQuestion\tDocumentID\tDocumentTitle\tSentenceID\tSentence\tLabel"];
  const ref: string[] = [];
  questions.forEach(([question, title, sentences], qi) => {
    const n = base[split] + qi;
    sentences.forEach(([sentence, label], si) => {
      rows.push(`Q${n}\t${question}\tD${n}\t${title}\tD${n}-${si}\t${sentence}\t${label}`);
      ref.push(`${qi + 1} 0 ${si} ${label}`);
    });
  });
  await writeFileAtomic(`${out}/wikiqa/WikiQA-${split}.tsv`, rows.join("\n") + "\n", {
    force: true,
  });
  await writeFileAtomic(`${out}/wikiqa/WikiQA-${split}.ref`, ref.join("\n") + "\n", {
    force: true,
  });
}

function jacanaBlock(tag: string, sentence: string): string {
  const tokens = sentence.split(" ");
  const lines = [
    tokens.join("\t"),
    tokens.map((t) => (/^[A-Z]/.test(t) ? "NNP" : /^\W+$/.test(t) ? "." : "NN")).join("\t"),
    tokens.map((_, i) => (i === 0 ? "ROOT" : "NMOD")).join("\t"),
    tokens.map((_, i) => String(i === 0 ? 0 : 1)).join("\t"),
    tokens.map(() => "-").join("\t"),
  ];
  return `<${tag}>\n${lines.join("\n")}\n</${tag}>`;
}

const trecBase: Record<string, number> = { train: 90, dev: 91, test: 92 };
for (const [split, questions] of Object.entries(spec.trecqa)) {
  if (split === "train-all") {
    const jsonl = questions.map(([question, cands]) =>
      JSON.stringify({
        question,
        candidates: cands.map(([sentence, label]) => ({ sentence, label })),
      })
    ).join("\n") + "\n";
    const gz = new Response(
      new Blob([jsonl]).stream().pipeThrough(new CompressionStream("gzip")),
    );
    await writeFileAtomic(
      `${out}/trecqa/jsonl/train-all.jsonl.gz`,
      new Uint8Array(await gz.arrayBuffer()),
      { force: true },
    );
    continue;
  }
  const parts = questions.map(([question, cands], qi) => {
    const blocks = [jacanaBlock("question", question)];
    for (const [sentence, label] of cands) {
      blocks.push(jacanaBlock(label ? "positive" : "negative", sentence));
    }
    return `<QApairs id='${trecBase[split]}.${qi + 1}'>\n${blocks.join("\n")}\n</QApairs>`;
  });
  await writeFileAtomic(
    `${out}/trecqa/jacana-xml/${split.toUpperCase()}.xml`,
    parts.join("\n") + "\n",
    { force: true },
  );
}
console.error(`samples written to ${out}`);
