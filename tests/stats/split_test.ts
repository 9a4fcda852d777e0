import "../quick.ts";
import assert from "node:assert/strict";
import { checkLeakage, splitByQuery } from "../../lib/stats/split.ts";
import { checkQrcdLeakage, qrcdQuestionId } from "../../lib/qrcd/leakage.ts";
import { mulberry32, shuffleInPlace } from "../../lib/stats/random.ts";
import type { Question } from "../../lib/data/types.ts";
import { KitError } from "../../lib/errors.ts";

function questions(n: number, positiveEvery = 3): Question[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `Q${i}`,
    text: `question number ${i}`,
    candidates: [
      { id: `Q${i}-0`, text: "x", label: i % positiveEvery === 0 ? 1 : 0 },
      { id: `Q${i}-1`, text: "y", label: 0 },
    ],
  }));
}

Deno.test("split: counts, disjoint slices, deterministic and independent of input order", () => {
  const qs = questions(167);
  const counts = { train: 125, test: 32, validation: 10 };
  const a = splitByQuery(qs, { counts, seed: 7 });
  assert.equal(a.train.length, 125);
  assert.equal(a.test.length, 32);
  assert.equal(a.validation.length, 10);
  assert.equal(a.unused.length, 0);
  const all = [...a.queries.train, ...a.queries.test, ...a.queries.validation];
  assert.equal(new Set(all).size, 167);
  const shuffled = shuffleInPlace(qs.slice(), mulberry32(99));
  const b = splitByQuery(shuffled, { counts, seed: 7 });
  assert.deepEqual(b.queries, a.queries);
  const c = splitByQuery(qs, { counts, seed: 8 });
  assert.notDeepEqual(c.queries.train, a.queries.train);
  assert.throws(
    () => splitByQuery(qs, { counts: { train: 200, test: 0, validation: 0 } }),
    KitError,
  );
  const partial = splitByQuery(qs, { counts: { train: 10, test: 5, validation: 5 } });
  assert.equal(partial.unused.length, 147);
});

Deno.test("split: proportions rounded by largest remainder", () => {
  // 167 * (0.75, 0.19, 0.06) = 125.25, 31.73, 10.02 -> floors 125, 31, 10; the one left goes to
  // the largest remainder (test).
  const s = splitByQuery(questions(167), {
    proportions: { train: 0.75, test: 0.19, validation: 0.06 },
  });
  assert.deepEqual([s.train.length, s.test.length, s.validation.length], [125, 32, 10]);
  // Weights need not sum to 1.
  const w = splitByQuery(questions(10), { proportions: { train: 3, test: 1, validation: 1 } });
  assert.deepEqual([w.train.length, w.test.length, w.validation.length], [6, 2, 2]);
});

Deno.test("split: stratification keeps the share of questions with a positive", () => {
  // 160 questions, every 4th has a positive: 40 positive, 120 not.
  const qs = questions(160, 4);
  const s = splitByQuery(qs, { counts: { train: 100, test: 40, validation: 20 }, stratify: true });
  assert.equal(s.withPositive.train + s.withPositive.test + s.withPositive.validation, 40);
  // Exact shares would be 25 / 10 / 5.
  assert.ok(Math.abs(s.withPositive.train - 25) <= 1);
  assert.ok(Math.abs(s.withPositive.test - 10) <= 1);
  assert.ok(Math.abs(s.withPositive.validation - 5) <= 1);
  for (const slice of ["train", "test", "validation"] as const) {
    const counted = s[slice].filter((q) => q.candidates.some((c) => c.label > 0)).length;
    assert.equal(counted, s.withPositive[slice]);
  }
});

Deno.test("split: QRCD records stay together by question id", () => {
  const records = Array.from({ length: 60 }, (_, i) => ({
    pq_id: `${i % 7 + 1}:1-5_${i % 12}`,
    question: `q${i % 12}`,
    passage: `passage ${i % 7}`,
    answers: i % 12 < 4 ? [] : [{ text: "a", start_char: 0 }],
  }));
  const s = splitByQuery(records, {
    counts: { train: 8, test: 3, validation: 1 },
    queryOf: (r) => qrcdQuestionId(r.pq_id),
    hasPositive: (rs) => rs.some((r) => r.answers.length > 0),
    stratify: true,
  });
  assert.equal(s.train.length + s.test.length + s.validation.length, 60);
  const sliceOf = new Map<string, string>();
  for (const slice of ["train", "test", "validation"] as const) {
    for (const r of s[slice]) {
      const q = qrcdQuestionId(r.pq_id);
      assert.ok(!sliceOf.has(q) || sliceOf.get(q) === slice, `question ${q} in two slices`);
      sliceOf.set(q, slice);
    }
  }
  assert.equal(sliceOf.size, 12);
  const leak = checkQrcdLeakage(s);
  assert.equal(leak.questionsDisjoint, true);
});

Deno.test("leakage: shared ids and duplicate texts are reported", () => {
  const q = (id: string, text: string): Question => ({ id, text, candidates: [] });
  const r = checkLeakage({
    train: [q("1", "How old is the Earth?"), q("2", "who wrote hamlet")],
    test: [q("2", "who wrote hamlet"), q("3", "How  old is the earth?")],
    validation: [q("4", "something else")],
  });
  assert.equal(r.clean, false);
  assert.deepEqual(r.sharedIds.map((o) => [o.key, o.slices]), [["2", ["train", "test"]]]);
  assert.deepEqual(
    r.duplicateTexts.map((o) => [o.key, o.ids]),
    [
      ["how old is the earth?", { train: ["1"], test: ["3"] }],
      ["who wrote hamlet", { train: ["2"], test: ["2"] }],
    ],
  );
  const split = splitByQuery(questions(30), { counts: { train: 20, test: 5, validation: 5 } });
  assert.equal(checkLeakage(split).clean, true);
});

Deno.test("QRCD leakage: same record, question and passage across slices", () => {
  const r = checkQrcdLeakage({
    train: [
      { pq_id: "1:1-7_10", question: "ما هو", passage: "نص أ" },
      { pq_id: "2:1-5_11", question: "لماذا", passage: "نص ب" },
    ],
    dev: [
      { pq_id: "2:1-5_11", question: "لماذا", passage: "نص ب" },
      { pq_id: "3:1-9_12", question: "متى", passage: "نص أ" },
    ],
  });
  assert.equal(r.sharedRecords.length, 1);
  assert.deepEqual(r.sharedQuestionIds.map((o) => o.key), ["11"]);
  assert.equal(r.sharedQuestionTexts.length, 1);
  assert.equal(r.sharedPassagesByPair["train/dev"], 2);
  assert.equal(r.questionsDisjoint, false);
  assert.throws(() => qrcdQuestionId("nounderscore"), KitError);
});
