/** The published split sizes, asserted on the real corpora (fetched; skipped otherwise). */
import { assertEquals } from "../assert.ts";
import {
  applyFilter,
  loadSplit,
  readSplit,
  readWikiQaTsv,
  splitStats,
} from "../../lib/data/mod.ts";
import { refIdsToCorpusIds } from "../../lib/data/wikiqa.ts";
import { qrelsFromQuestions, readQrels } from "../../lib/metrics/mod.ts";
import { realDataTest } from "../helpers.ts";

realDataTest("WikiQA sizes: raw, no-all (TANDA) and clean, as published", "wikiqa", async (dir) => {
  const want = {
    train: { raw: [2118, 20360], "no-all": [873, 8672], clean: [857, 8651] },
    dev: { raw: [296, 2733], "no-all": [126, 1130], clean: [122, 1126] },
    test: { raw: [633, 6165], "no-all": [243, 2351], clean: [237, 2341] },
  } as const;
  for (const [split, byFilter] of Object.entries(want)) {
    for (const [filter, [q, c]] of Object.entries(byFilter)) {
      const s = splitStats(
        (await loadSplit("wikiqa", split, { filter: filter as "raw", dir })).questions,
      );
      assertEquals([s.questions, s.candidates], [q, c], `${split} ${filter}`);
    }
  }
  const train = splitStats(await readSplit("wikiqa", "train", dir));
  assertEquals(train, {
    questions: 2118,
    candidates: 20360,
    positives: 1040,
    allPositive: 16,
    allNegative: 1245,
    noCandidates: 0,
  });
});

realDataTest(
  "WikiQA clean filter equals the official -filtered.ref files",
  "wikiqa",
  async (dir) => {
    for (const split of ["dev", "test"]) {
      const all = await readWikiQaTsv(`${dir}/wikiqa/WikiQA-${split}.tsv`);
      const official = await readQrels(`${dir}/wikiqa/WikiQA-${split}-filtered.ref`);
      const mapped = new Map<string, Map<string, number>>();
      for (const [qnum, docs] of official) {
        for (const [idx, rel] of docs) {
          const [qid, cid] = refIdsToCorpusIds(all, qnum, idx)!;
          if (!mapped.has(qid)) mapped.set(qid, new Map());
          mapped.get(qid)!.set(cid, rel);
        }
      }
      const ours = qrelsFromQuestions(applyFilter(all, "clean").questions);
      assertEquals(mapped, ours, split);
      // And the unfiltered .ref is the raw split (questions without judgments have no lines).
      const raw = await readQrels(`${dir}/wikiqa/WikiQA-${split}.ref`);
      assertEquals(
        [...raw.values()].reduce((n, d) => n + d.size, 0),
        all.reduce((n, q) => n + q.candidates.length, 0),
      );
    }
  },
);

realDataTest(
  "WikiQA quotes inside fields do not merge rows (tab split, not RFC 4180)",
  "wikiqa",
  async (dir) => {
    const train = await readWikiQaTsv(`${dir}/wikiqa/WikiQA-train.tsv`);
    const withQuote = train.flatMap((q) => q.candidates).filter((c) => c.text.includes('"'));
    assertEquals(withQuote.length > 1000, true);
    assertEquals(train.reduce((n, q) => n + q.candidates.length, 0), 20360);
  },
);

realDataTest(
  "TREC-QA sizes: TRAIN-ALL 1,229 / 53,417; DEV clean 65 / 1,117; TEST clean 68 / 1,442",
  "trecqa",
  async (dir) => {
    const size = async (split: string, filter: "raw" | "clean") => {
      const s = splitStats((await loadSplit("trecqa", split, { filter, dir })).questions);
      return [s.questions, s.candidates];
    };
    assertEquals(await size("train-all", "raw"), [1229, 53417]);
    assertEquals(await size("dev", "clean"), [65, 1117]);
    assertEquals(await size("test", "clean"), [68, 1442]);
    assertEquals(await size("train", "clean"), [78, 4619]);
    assertEquals(splitStats(await readSplit("trecqa", "test", dir)), {
      questions: 100,
      candidates: 1517,
      positives: 284,
      allPositive: 21,
      allNegative: 6,
      noCandidates: 5,
    });
    assertEquals(splitStats(await readSplit("trecqa", "train-all", dir)).positives, 6410);
  },
);
