import "../quick.ts";
import assert from "node:assert/strict";
import {
  evaluateQrcd,
  exactMatch,
  isSpanOfPassage,
  LIGHT_SEGMENTATION,
  scoreRecord,
  type Segmenter,
  tokenF1,
} from "../../lib/qrcd/mod.ts";
import { ASR, IKHLAS, preds, QADR, record, TEACHER } from "./fixtures.ts";

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-15, `${a} != ${b}`);

Deno.test("deleted punctuation joins tokens: ':' and '،' glue words in the passage and the answer", () => {
  // Normalized passage: "قال المعلمالعلم نوروالجهل ظلام ثم سكت".
  // The gold "العلم نور" is still a substring of it (the check is on characters, not tokens).
  const exact = scoreRecord(TEACHER, preds("العلم نور"));
  assert.equal(exact.exactMatch, 1);
  assert.equal(exact.pRR, 1);
  // "المعلم:العلم" normalizes to the single token "المعلمالعلم": in the passage, but no token
  // in common with ["العلم", "نور"], so F1 0 (a space instead would give F1 0.5).
  const glued = scoreRecord(TEACHER, preds("المعلم:العلم"));
  assert.equal(glued.predictions[0].inPassage, true);
  assert.equal(glued.f1At1, 0);
  assert.equal(glued.pRR, 0);
  // With a space the words no longer occur in the normalized passage: outside, 0.
  assert.equal(isSpanOfPassage(TEACHER.passage, "المعلم العلم"), false);
  // "نور،والجهل" -> "نوروالجهل": one token, no overlap with the gold.
  assert.equal(scoreRecord(TEACHER, preds("نور،والجهل")).f1At1, 0);
  // A trailing Arabic comma on the prediction is deleted: exact match.
  assert.equal(scoreRecord(TEACHER, preds("العلم نور،")).exactMatch, 1);
});

Deno.test("stopword tokens are dropped, other words containing them are not", () => {
  // Gold "في ليلة القدر" normalizes to "ليلة القدر".
  const r = scoreRecord(QADR, preds("ليلة القدر"));
  assert.equal(r.exactMatch, 1);
  assert.equal(r.f1At1, 1);
  // "أنزلناه في ليلة" -> [أنزلناه, ليلة] vs [ليلة, القدر]: P = R = 1/2, F1 = 1/2.
  close(tokenF1("أنزلناه في ليلة", "في ليلة القدر"), 0.5);
  // "فيه" is not the token "في".
  assert.equal(exactMatch("فيه القدر", "القدر"), 0);
});

Deno.test("a prediction outside the passage scores 0 even when its tokens overlap the gold", () => {
  // "لم يلد أحدا" shares 2 tokens with the gold but is not a span of the passage.
  const r = scoreRecord(IKHLAS, preds("لم يلد أحدا", "لم يلد ولم يولد"));
  assert.equal(r.predictions[0].inPassage, false);
  assert.equal(r.predictions[0].f1, 0);
  assert.equal(r.f1At1, 0);
  assert.equal(r.exactMatch, 0);
  assert.equal(r.matchedRank, 2);
  assert.equal(r.pRR, 0.5);
});

Deno.test("the gold answer at rank 2 gives pRR 0.5, EM 0 and F1@1 0", () => {
  const r = scoreRecord(IKHLAS, preds("الله الصمد", "لم يلد ولم يولد"));
  assert.equal(r.pRR, 0.5);
  assert.equal(r.matchedRank, 2);
  assert.equal(r.exactMatch, 0);
  assert.equal(r.f1At1, 0);
});

Deno.test("a partial match at rank 1: F1 below 1 is the pRR, EM is 0", () => {
  // "ولم يولد" vs "لم يلد ولم يولد": 2 common, P = 1, R = 1/2, F1 = 2/3.
  const r = scoreRecord(IKHLAS, preds("ولم يولد"));
  close(r.pRR, 2 / 3);
  close(r.f1At1, 2 / 3);
  assert.equal(r.exactMatch, 0);
  assert.equal(r.matchedRank, 1);
});

Deno.test("pRR stops at the first partial match, not the best one", () => {
  // Rank 1 "يولد": P = 1, R = 1/4, F1 = 0.4; rank 2 is exact (1/2 would be higher).
  const r = scoreRecord(IKHLAS, preds("يولد", "لم يلد ولم يولد"));
  close(r.pRR, 0.4);
});

Deno.test("a sixth prediction is ignored", () => {
  const five = ["قل هو الله أحد", "الله الصمد", "كفوا أحد", "قل", "الصمد"];
  const r = scoreRecord(IKHLAS, preds(...five, "لم يلد ولم يولد"));
  assert.equal(r.pRR, 0);
  assert.equal(r.matchedRank, null);
  assert.equal(r.predictions.length, 5);
  assert.equal(r.ignored, 1);
  // The same answer fifth does count: 1/5.
  close(scoreRecord(IKHLAS, preds(...five.slice(0, 4), "لم يلد ولم يولد")).pRR, 0.2);
});

Deno.test("EM and F1@1 take the best gold answer", () => {
  const r = scoreRecord(ASR, preds("وتواصوا بالصبر"));
  assert.equal(r.exactMatch, 1);
  assert.equal(r.f1At1, 1);
  assert.equal(r.predictions[0].bestGold, "وتواصوا بالصبر");
});

Deno.test("a missing pq_id scores 0 in a mean over all gold records; extra ids are ignored", () => {
  const run = new Map([
    [IKHLAS.pqId, preds("ولم يولد")], // pRR 2/3, EM 0, F1 2/3
    [QADR.pqId, preds("أنزلناه في ليلة", "ليلة القدر")], // pRR 1/2, EM 0, F1 1/2
    ["999:1_9", preds("x")],
  ]);
  const r = evaluateQrcd([IKHLAS, QADR, TEACHER], run);
  // (2/3 + 1/2 + 0) / 3 = 7/18 for pRR and F1@1.
  close(r.pRR, 7 / 18);
  close(r.f1At1, 7 / 18);
  assert.equal(r.exactMatch, 0);
  assert.equal(r.records, 3);
  assert.deepEqual(r.missing, [TEACHER.pqId]);
  assert.deepEqual(r.extra, ["999:1_9"]);
  assert.equal(r.perRecord[2].missing, true);
  assert.equal(r.segmenter, "none");
});

Deno.test("an empty prediction list scores 0 on every metric (not a crash)", () => {
  const r = scoreRecord(IKHLAS, []);
  assert.deepEqual([r.pRR, r.exactMatch, r.f1At1, r.missing], [0, 0, 0, false]);
  assert.equal(r.matchedRank, null);
});

Deno.test("an empty or stopword-only answer: empty fails the span check, stopword-only passes with F1 0", () => {
  assert.equal(isSpanOfPassage(QADR.passage, ""), false);
  // "في" normalizes to "", which the scorer's str.find finds in any passage.
  assert.equal(isSpanOfPassage(QADR.passage, "في"), true);
  const r = scoreRecord(QADR, preds("في"));
  assert.equal(r.f1At1, 0);
  assert.equal(r.exactMatch, 0);
});

Deno.test("gold records without answers cannot be scored", () => {
  assert.throws(() => scoreRecord({ ...IKHLAS, answers: [] }, preds("قل")), /no answers/);
});

Deno.test("light segmentation strips و and ال: a match that no segmentation misses", () => {
  // Gold "عملوا الصالحات" (a span starting inside the word وعملوا).
  const none = scoreRecord(ASR, preds("وعملوا الصالحات"));
  assert.equal(none.exactMatch, 0);
  close(none.f1At1, 0.5); // [وعملوا, الصالحات] vs [عملوا, الصالحات]
  const light = scoreRecord(ASR, preds("وعملوا الصالحات"), LIGHT_SEGMENTATION);
  assert.equal(light.exactMatch, 1);
  assert.equal(light.f1At1, 1);
  const r = evaluateQrcd([ASR], new Map([[ASR.pqId, preds("وعملوا الصالحات")]]), {
    segmenter: LIGHT_SEGMENTATION,
  });
  assert.equal(r.segmenter, "light");
});

Deno.test("a plugged-in Farasa-format segmenter gets the official prefix rules", () => {
  // A lookup table standing in for Farasa's output.
  const table: Record<string, string> = { "وبالحق": "و+ب+ال+حق", "الحق": "ال+حق" };
  const lookup: Segmenter = {
    name: "table",
    segment: (t) => t.split(" ").map((w) => table[w] ?? w).join(" "),
  };
  assert.equal(exactMatch("وبالحق", "الحق", lookup), 1);
  assert.equal(exactMatch("وبالحق", "الحق"), 0);
  // The span check ignores the segmenter: "وبالحق" is not in this passage, so even the
  // segmenter's perfect match scores 0.
  const rec = record("2:1_5", "وتواصوا بالحق.", ["بالحق"]);
  const r = scoreRecord(rec, preds("وبالحق"), lookup);
  assert.equal(r.predictions[0].inPassage, false);
  assert.equal(r.exactMatch, 0);
});
