import assert from "node:assert/strict";
import { KitError } from "../../lib/errors.ts";
import { loadQrcd, loadQrcdSplit, qrcdStats } from "../../lib/qrcd/mod.ts";
import { realDataTest } from "../helpers.ts";

const mem = (lines: unknown[]) => ({
  name: "mem.jsonl",
  bytes: new TextEncoder().encode(
    lines.map((l) => typeof l === "string" ? l : JSON.stringify(l)).join("\n") + "\n",
  ),
});
const good = {
  pq_id: "108:1-3_7",
  passage: "إنا أعطيناك الكوثر. فصل لربك وانحر.",
  surah: 108,
  verses: "1-3",
  question: "ماذا أعطي النبي؟",
  answers: [{ text: "الكوثر", start_char: 12 }, { text: "فصل لربك", start_char: 20 }],
};

async function rejectsAt(lines: unknown[], line: number, pattern: RegExp) {
  await assert.rejects(loadQrcd(mem(lines)), (e) => {
    assert.ok(e instanceof KitError, String(e));
    assert.equal(e.file, "mem.jsonl");
    assert.equal(e.line, line);
    assert.match(e.message, pattern);
    return true;
  });
}

Deno.test("records load with ids split from pq_id and answers checked against the passage", async () => {
  const [r] = await loadQrcd(mem([good]));
  assert.equal(r.questionId, "7");
  assert.equal(r.passageId, "108:1-3");
  assert.deepEqual(r.answers, [{ text: "الكوثر", start: 12 }, { text: "فصل لربك", start: 20 }]);
});

Deno.test("an answer that is not the passage text at start_char names the pq_id and line", async () => {
  const shifted = { ...good, pq_id: "108:1-3_8", answers: [{ text: "الكوثر", start_char: 13 }] };
  await rejectsAt([good, "", shifted], 3, /record 108:1-3_8: answer 1 "الكوثر" is not the passage/);
  const beyond = { ...good, answers: [{ text: "الكوثر", start_char: 500 }] };
  await rejectsAt([beyond], 1, /108:1-3_7/);
  const negative = { ...good, answers: [{ text: "", start_char: -1 }] };
  await rejectsAt([negative], 1, /start_char -1/);
});

Deno.test("missing or mistyped fields, bad JSON and repeated pq_ids are errors with lines", async () => {
  await rejectsAt(
    [good, { ...good, pq_id: "x_9", surah: "108" }],
    2,
    /field "surah" is not an integer/,
  );
  await rejectsAt([{ ...good, answers: undefined }], 1, /field "answers" is missing/);
  await rejectsAt([{ ...good, pq_id: "nounderscore" }], 1, /pq_id "nounderscore"/);
  await rejectsAt([good, "{not json"], 2, /not valid JSON/);
  await rejectsAt([good, good], 2, /repeats the record on line 1/);
});

Deno.test("the bundled samples load for every split; stats count by pq_id parts", async () => {
  const train = await loadQrcdSplit("train", { dir: "samples" });
  const dev = await loadQrcdSplit("dev", { dir: "samples" });
  const test = await loadQrcdSplit("test", { dir: "samples" });
  assert.deepEqual(qrcdStats(dev), { records: 7, questions: 6, passages: 7, answers: 12 });
  assert.deepEqual(qrcdStats(train), { records: 4, questions: 4, passages: 4, answers: 6 });
  assert.deepEqual(qrcdStats(test), { records: 3, questions: 2, passages: 3, answers: 0 });
});

realDataTest(
  "real QRCD v1.1: every split loads and matches the published counts",
  "qrcd",
  async (real) => {
    const want = {
      train: { records: 710, questions: 118, passages: 468, answers: 861 },
      dev: { records: 109, questions: 17, passages: 101, answers: 128 },
      test: { records: 274, questions: 34, passages: 256, answers: 0 },
    };
    for (const split of ["train", "dev", "test"] as const) {
      const records = await loadQrcdSplit(split, { dir: real });
      assert.deepEqual(qrcdStats(records), want[split], split);
    }
  },
);
