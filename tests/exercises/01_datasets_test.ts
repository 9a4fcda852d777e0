/**
 * Solutions of notebook 01's exercises (notebooks/01-datasets.ipynb), each solved with the
 * kit's public API and checked against a count made independently from the corpus files
 * (tests/exercises/brute.ts), on the bundled samples and on the real corpora when fetched.
 */
import assert from "node:assert/strict";
import {
  applyFilter,
  checkQrcdLeakage,
  evaluate,
  loadQrcdSplit,
  loadSplit,
  qrelsFromQuestions,
  splitStats,
  tiedRun,
} from "../../lib/mod.ts";
import { realDataDir } from "../helpers.ts";
import * as brute from "./brute.ts";

// Exercise 1: from the TSV by hand, the raw test questions without a correct candidate and those
// with only correct ones (no-all minus clean), and the AP any ranking gets on the latter.
async function exercise1(dir: string) {
  const { questions } = await loadSplit("wikiqa", "test", { filter: "raw", dir });
  const labels = [...(await brute.wikiqaLabels(dir, "test"))];
  const noCorrect = labels.filter(([, l]) => !l.includes(1)).length;
  assert.equal(splitStats(questions).allNegative, noCorrect);
  const clean = new Set(applyFilter(questions, "clean").questions.map((q) => q.id));
  const extra = applyFilter(questions, "no-all").questions.filter((q) => !clean.has(q.id));
  const byHand = labels.filter(([, l]) => l.every((x) => x === 1)).map(([id]) => id);
  assert.deepEqual(extra.map((q) => q.id).sort(), byHand.sort());
  // any ranking: every candidate tied, ranked by trec_eval's tie order
  const ap = evaluate(qrelsFromQuestions(extra), tiedRun(extra), ["map"]).perQuery;
  for (const q of extra) assert.equal(ap.get(q.id)!.map, 1);
  return { noCorrect, allCorrect: extra.length };
}

// Exercise 2: QRCD train and dev share passages, no question.
async function exercise2(dir: string) {
  const records = async (split: "train" | "dev") =>
    (await loadQrcdSplit(split, { dir })).map((r) => ({
      pq_id: r.pqId,
      question: r.question,
      passage: r.passage,
    }));
  const kit = checkQrcdLeakage({ train: await records("train"), dev: await records("dev") });
  const [train, dev] = [await brute.qrcdRecords(dir, "train"), await brute.qrcdRecords(dir, "dev")];
  const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();
  const shared = <T>(key: (r: { pq_id: string; question: string; passage: string }) => T) => {
    const inTrain = new Set(train.map(key));
    return new Set(dev.map(key).filter((k) => inTrain.has(k))).size;
  };
  assert.equal(kit.sharedPassagesByPair["train/dev"], shared((r) => norm(r.passage)));
  assert.equal(
    kit.sharedQuestionIds.length,
    shared((r) => r.pq_id.slice(r.pq_id.lastIndexOf("_") + 1)),
  );
  assert.equal(kit.sharedQuestionTexts.length, shared((r) => norm(r.question)));
  assert.ok(kit.questionsDisjoint);
  return kit.sharedPassagesByPair["train/dev"];
}

Deno.test("exercises 01 on the samples", async () => {
  assert.deepEqual(await exercise1(brute.SAMPLE), { noCorrect: 1, allCorrect: 1 }); // Q303, Q304
  assert.equal(await exercise2(brute.SAMPLE), 4);
});

Deno.test({
  name: "exercises 01 on the real corpora",
  ignore: !realDataDir("wikiqa") || !realDataDir("qrcd"),
  fn: async () => {
    const dir = realDataDir("wikiqa")!;
    assert.deepEqual(await exercise1(dir), { noCorrect: 390, allCorrect: 243 - 237 });
    assert.equal(await exercise2(dir), 72);
  },
});
