import assert from "node:assert/strict";
import { realDataTest } from "../helpers.ts";
import { readLines } from "../../lib/io/text.ts";
import { loadSplit } from "../../lib/data/mod.ts";
import { qrelsFromQuestions } from "../../lib/metrics/mod.ts";
import { analyzeTies, checkLeakage, splitByQuery } from "../../lib/stats/mod.ts";
import { checkQrcdLeakage, type QrcdRecordLike } from "../../lib/qrcd/mod.ts";
import { mulberry32, shuffleInPlace } from "../../lib/stats/random.ts";

async function readJsonl(path: string): Promise<QrcdRecordLike[]> {
  const out: QrcdRecordLike[] = [];
  for await (const { text } of readLines(path)) if (text.trim()) out.push(JSON.parse(text));
  return out;
}

realDataTest("QRCD official splits: questions disjoint, passages shared", "qrcd", async (dir) => {
  const slices = {
    train: await readJsonl(`${dir}/qrcd/qrcd_v1.1_train.jsonl`),
    dev: await readJsonl(`${dir}/qrcd/qrcd_v1.1_dev.jsonl`),
    test: await readJsonl(`${dir}/qrcd/qrcd_v1.1_test_noAnswers.jsonl`),
  };
  const r = checkQrcdLeakage(slices);
  assert.equal(r.questionsDisjoint, true);
  assert.equal(r.sharedQuestionIds.length, 0);
  // Independent count: passages identified by their "surah:verses" key (the pq_id prefix).
  const keys = (rs: QrcdRecordLike[]) => new Set(rs.map((x) => x.pq_id.split("_")[0]));
  const shared = (a: Set<string>, b: Set<string>) => [...a].filter((k) => b.has(k)).length;
  const [tr, dv, te] = [keys(slices.train), keys(slices.dev), keys(slices.test)];
  assert.equal(r.sharedPassagesByPair["train/dev"], shared(tr, dv));
  assert.equal(r.sharedPassagesByPair["train/test"], shared(tr, te));
  assert.equal(r.sharedPassagesByPair["dev/test"], shared(dv, te));
  assert.equal(r.sharedPassagesByPair["train/dev"], 72); // shared/datasets/README.md
});

realDataTest(
  "WikiQA: official splits do not leak; a seeded 125/32/10 split",
  "wikiqa",
  async (dir) => {
    const load = async (split: string) =>
      (await loadSplit("wikiqa", split, { filter: "raw", dir })).questions;
    const official = {
      train: await load("train"),
      dev: await load("dev"),
      test: await load("test"),
    };
    assert.equal(checkLeakage(official).clean, true);
    const train = (await loadSplit("wikiqa", "train", { filter: "no-all", dir })).questions;
    assert.equal(train.length, 873);
    const counts = { train: 125, test: 32, validation: 10 };
    const s = splitByQuery(train, { counts, seed: 2015, stratify: true });
    assert.deepEqual([s.train.length, s.test.length, s.validation.length], [125, 32, 10]);
    assert.equal(s.unused.length, 873 - 167);
    assert.equal(checkLeakage(s).clean, true);
    const again = splitByQuery(shuffleInPlace(train.slice(), mulberry32(1)), {
      counts,
      seed: 2015,
      stratify: true,
    });
    assert.deepEqual(again.queries, s.queries);
  },
);

realDataTest(
  "WikiQA test clean, constant-score run: tie range and Monte Carlo expectation",
  "wikiqa",
  async (dir) => {
    const { questions } = await loadSplit("wikiqa", "test", { filter: "clean", dir });
    const qrels = qrelsFromQuestions(questions);
    const run = new Map(questions.map((q) => [q.id, new Map(q.candidates.map((c) => [c.id, 0]))]));
    const t = analyzeTies(qrels, run, { complete: true });
    assert.equal(t.numQ, 237);
    // Every clean question has a positive and a negative: one mixed group each.
    assert.equal(t.mixedGroups, 237);
    assert.equal(t.map.max, 1);
    assert.equal(t.mrr.max, 1);
    // Independent check of the expectation: average AP/RR over random shuffles.
    const random = mulberry32(5);
    const trials = 400;
    let apSum = 0, rrSum = 0;
    for (let k = 0; k < trials; k++) {
      for (const q of questions) {
        const labels = shuffleInPlace(q.candidates.map((c) => c.label > 0), random);
        const r = labels.filter(Boolean).length;
        let hits = 0, ap = 0;
        labels.forEach((rel, i) => {
          if (rel) ap += ++hits / (i + 1);
        });
        apSum += ap / r;
        rrSum += 1 / (labels.indexOf(true) + 1);
      }
    }
    const n = trials * questions.length;
    // Standard error of the per-query mean over 94,800 draws is below 0.002.
    assert.ok(Math.abs(apSum / n - t.map.expected) < 0.006, `${apSum / n} vs ${t.map.expected}`);
    assert.ok(Math.abs(rrSum / n - t.mrr.expected) < 0.006, `${rrSum / n} vs ${t.mrr.expected}`);
  },
);
