import "../quick.ts";
import assert from "node:assert/strict";
import {
  formatSpanRun,
  isSpanOfPassage,
  loadQrcdSplit,
  overlapBaseline,
  parseSpanRun,
  questionKeys,
  rankSpans,
} from "../../lib/qrcd/mod.ts";
import { record } from "./fixtures.ts";

Deno.test("baseline ranks verses by the share of question keys they contain", () => {
  const rec = {
    ...record("113:1-5_1", "قل أعوذ برب الفلق. من شر ما خلق. ومن شر حاسد إذا حسد.", [
      "من شر ما خلق",
    ]),
    question: "ما هو شر الحاسد؟",
  };
  assert.deepEqual([...questionKeys(rec.question)], ["شر", "حاسد"]);
  const top = rankSpans(rec);
  // Verse 3 holds both keys (شر, حاسد), verse 2 one, verse 1 none.
  assert.deepEqual(top.map((p) => p.answer), [
    "ومن شر حاسد إذا حسد",
    "من شر ما خلق",
    "قل أعوذ برب الفلق",
  ]);
  assert.deepEqual(top.map((p) => p.rank), [1, 2, 3]);
  assert.ok(Math.abs(top[0].score - 1) < 1e-5 && Math.abs(top[1].score - 0.5) < 1e-5);
  assert.ok(top.every((p, i) => i === 0 || p.score < top[i - 1].score));
});

Deno.test("baseline windows stay inside a verse and drop the verse's full stop", () => {
  const rec = record("1:1_1", "قل هو الله أحد. الله الصمد.", ["الله الصمد"]);
  const spans = rankSpans(rec, { windows: [2], topK: 10 }).map((p) => p.answer);
  assert.deepEqual(spans.toSorted(), [
    "الله أحد",
    "الله الصمد",
    "قل هو",
    "قل هو الله أحد",
    "هو الله",
  ]);
});

Deno.test("baseline on the sample splits: every answer is a passage span, run passes the checker", async () => {
  for (const split of ["train", "dev", "test"] as const) {
    const records = await loadQrcdSplit(split, { dir: "samples" });
    const run = overlapBaseline(records);
    assert.equal(run.size, records.length);
    for (const r of records) {
      const p = run.get(r.pqId)!;
      assert.ok(p.length >= 1 && p.length <= 5);
      for (const x of p) assert.ok(isSpanOfPassage(r.passage, x.answer), x.answer);
    }
    assert.deepEqual(parseSpanRun(formatSpanRun(run), "m").issues, []);
  }
});
