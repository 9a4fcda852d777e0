import "../quick.ts";
import assert from "node:assert/strict";
import {
  bm25,
  collectionStats,
  idf,
  lexicalScorer,
  weightedWordCount,
  wordCount,
} from "../../lib/scoring/lexical.ts";
import { scoreRun } from "../../lib/scoring/questions.ts";
import { contentTerms, words } from "../../lib/scoring/text.ts";

Deno.test("words: lowercase runs of letters and digits, accents kept", () => {
  assert.deepEqual(words("Où est l'Élysée? 3-D"), ["où", "est", "l", "élysée", "3", "d"]);
  assert.deepEqual(words("  ...  "), []);
});

Deno.test("contentTerms drops stopwords and repeats", () => {
  assert.deepEqual(contentTerms("What is the capital of France, the capital?"), [
    "capital",
    "france",
  ]);
});

Deno.test("Word Cnt counts distinct non-stopword question words found in the sentence", () => {
  // question content words: glacier, caves, formed (how/are are stopwords)
  const q = "How are glacier caves formed?";
  assert.equal(wordCount(q, "A glacier cave is a cave formed within the ice of a glacier."), 2);
  assert.equal(wordCount(q, "Caves are formed; caves, caves."), 2);
  assert.equal(wordCount(q, "How are they?"), 0);
});

Deno.test("Wgt Word Cnt sums log(N/df) of the matching words (worked by hand)", () => {
  const docs = ["the cat sat", "the dog ran", "a cat and a dog", "birds fly"];
  const s = collectionStats(docs);
  assert.equal(s.numDocs, 4);
  assert.equal(s.docFreq.get("cat"), 2);
  assert.equal(s.docFreq.get("dog"), 2);
  assert.equal(s.docFreq.get("birds"), 1);
  // cat: log(4/2); birds: log(4/1); "the" is a stopword and is ignored
  const v = weightedWordCount("the cat birds", "birds and the cat", s);
  assert.ok(Math.abs(v - (Math.log(2) + Math.log(4))) < 1e-12);
  assert.equal(idf(s, "never"), Math.log(4));
});

Deno.test("BM25 matches the formula evaluated by hand", () => {
  const s = collectionStats(["apple pie", "apple", "banana split pie"]);
  // avgdl = 6/3 = 2; df(apple)=2, df(pie)=2; N=3
  const k1 = 1.2, b = 0.75;
  const idfApple = Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5));
  const norm = k1 * (1 - b + b * 2 / 2);
  const expected = idfApple * 1 * (k1 + 1) / (1 + norm) * 2; // apple and pie: same df, tf
  assert.ok(Math.abs(bm25("apple pie", "apple pie", s) - expected) < 1e-12);
  // a longer document with one match scores below a short one with the same match
  assert.ok(bm25("pie", "pie", s) > bm25("pie", "banana split pie", s));
});

Deno.test("lexical scorers score pairs in order and build a run keyed by ids", async () => {
  const stats = collectionStats(["red dog", "blue cat"]);
  for (const kind of ["wordcnt", "wgtwordcnt", "bm25"] as const) {
    const scorer = lexicalScorer(kind, stats);
    assert.equal(scorer.id, `lexical:${kind}`);
    const run = await scoreRun(scorer, [
      {
        id: "q1",
        text: "red dog",
        candidates: [{ id: "a", text: "blue cat" }, { id: "b", text: "red dog" }],
      },
    ]);
    assert.equal(run.get("q1")!.get("a"), 0);
    assert.ok(run.get("q1")!.get("b")! > 0);
  }
});
