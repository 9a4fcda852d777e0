import "../quick.ts";
import assert from "node:assert/strict";
import fc from "fast-check";
import { KitError } from "../../lib/errors.ts";
import {
  checkRunAgainstGold,
  checkRunFileName,
  formatSpanRun,
  parseSpanRun,
  readSpanRun,
  type RunIssue,
  writeSpanRun,
} from "../../lib/qrcd/mod.ts";
import { parseJsonWithLines, toPlain } from "../../lib/io/json_scan.ts";
import { IKHLAS, preds, QADR } from "./fixtures.ts";

const entry = (answer: string, rank: string | number, score: string | number) =>
  `{"answer": ${JSON.stringify(answer)}, "rank": ${rank}, "score": ${score}}`;
const messages = (issues: RunIssue[], severity: RunIssue["severity"]) =>
  issues.filter((i) => i.severity === severity).map((i) => `${i.line}: ${i.message}`);

Deno.test("duplicate pq_ids are an error naming both lines; the last list is kept", () => {
  const text = [
    "{",
    `"1:1_1": [${entry("أ", 1, 0.9)}],`,
    `"1:1_2": [${entry("ب", 1, 0.9)}],`,
    `"1:1_1": [${entry("ج", 1, 0.9)}]`,
    "}",
  ].join("\n");
  const { run, issues } = parseSpanRun(text, "r.json");
  assert.deepEqual(messages(issues, "error"), [
    "4: duplicate pq_id (first on line 2); the scorer keeps this last one",
  ]);
  assert.equal(issues[0].pqId, "1:1_1");
  assert.equal(run.get("1:1_1")?.[0].answer, "ج");
  assert.equal(run.size, 2);
});

Deno.test("a duplicate field inside an answer is an error", () => {
  const { issues } = parseSpanRun(
    `{"a": [{"answer": "x", "rank": 1, "rank": 1, "score": 1}]}`,
    "r",
  );
  assert.deepEqual(messages(issues, "error"), ['1: answer 1: duplicate field "rank"']);
});

Deno.test("an empty answer list is an error (the official scorer crashes on it)", () => {
  const { run, issues } = parseSpanRun(`{"a": []}`, "r");
  assert.equal(issues.length, 1);
  assert.equal(issues[0].severity, "error");
  assert.match(issues[0].message, /empty answer list/);
  assert.deepEqual(run.get("a"), []);
});

Deno.test("ranks: integers 1..n in list order; 1.0 is a float as in Python", () => {
  const bad = parseSpanRun(`{"a": [${entry("x", "1.0", 2)}, ${entry("y", 3, 1)}]}`, "r");
  assert.deepEqual(messages(bad.issues, "error"), [
    '1: answer 1: field "rank" is a float (1.0), not an integer',
    "1: answer 2: rank is 3, expected 2 (ranks are 1, 2, 3, ...)",
  ]);
  const str = parseSpanRun(`{"a": [${entry("x", '"1"', 2)}]}`, "r");
  assert.deepEqual(messages(str.issues, "error"), ['1: answer 1: field "rank" is not an integer']);
});

Deno.test("scores: increasing is an error, equal is a warning", () => {
  const text = `{"a": [\n${entry("x", 1, 0.5)},\n${entry("y", 2, 0.5)},\n${entry("z", 3, 0.7)}]}`;
  const { issues } = parseSpanRun(text, "r");
  assert.deepEqual(messages(issues, "warning"), ["3: equal scores at ranks 1 and 2 (0.5)"]);
  assert.deepEqual(messages(issues, "error"), [
    "4: scores increase from rank 2 (0.5) to rank 3 (0.7); they must not increase down the list",
  ]);
});

Deno.test("more than five answers and an empty answer string are warnings", () => {
  const six = Array.from({ length: 6 }, (_, i) => entry(i === 2 ? "" : `w${i}`, i + 1, 1 - i / 10));
  const { run, issues } = parseSpanRun(`{"a": [${six.join(", ")}]}`, "r");
  assert.deepEqual(messages(issues, "error"), []);
  assert.deepEqual(messages(issues, "warning"), [
    "1: 6 answers; only the first 5 are scored",
    "1: answer 3: empty answer",
  ]);
  assert.equal(run.get("a")?.length, 6);
});

Deno.test("missing or mistyped fields are errors", () => {
  const { issues } = parseSpanRun(
    `{"a": [{"rank": 1, "score": 1}, {"answer": ["x"], "rank": 2, "score": "high"}], "b": {}}`,
    "r",
  );
  assert.deepEqual(messages(issues, "error"), [
    '1: answer 1: field "answer" is missing',
    '1: answer 2: field "answer" is not a string',
    '1: answer 2: field "score" is not a number',
    "1: expected a list of answers, found object",
  ]);
  assert.deepEqual(
    parseSpanRun("[1]", "r").issues.map((i) => i.message),
    ["expected a JSON object {pq_id: [...]} at the top level, found array"],
  );
});

Deno.test("invalid JSON throws a KitError with file and line", () => {
  for (
    const [text, line] of [
      ['{\n"a": [\n{"answer": "x",}\n]}', 3],
      ['{"a": 1}\n\nx', 3],
      ['{"a": NaN}', 1],
      ['{"a": "tab\there"}', 1],
      ["", 1],
    ] as const
  ) {
    assert.throws(() => parseSpanRun(text, "r.json"), (e) => {
      assert.ok(e instanceof KitError);
      assert.equal(e.file, "r.json");
      assert.equal(e.line, line, text);
      return true;
    });
  }
});

Deno.test("the line-keeping parser agrees with JSON.parse on random JSON", () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
      const text = JSON.stringify(value, null, pretty ? 2 : undefined);
      assert.deepEqual(toPlain(parseJsonWithLines(text, "m")), JSON.parse(text));
    }),
    { numRuns: 300 },
  );
  const node = parseJsonWithLines('{"k": "\\u0623\\n\\"", "n": -1.5e3}', "m");
  assert.deepEqual(toPlain(node), { k: 'أ\n"', n: -1500 });
});

Deno.test("file name rule: TeamID_RunID.json", () => {
  for (const ok of ["bigIR_run01.json", "dir/abc_12.json", "abcdefghi_123456789.json"]) {
    assert.equal(checkRunFileName(ok), undefined, ok);
  }
  for (
    const bad of ["RUN.json", "ab_run1.json", "team_r.json", "team_run1.jsonl", "te-am_run1.json"]
  ) {
    assert.equal(checkRunFileName(bad)?.severity, "error", bad);
  }
});

Deno.test("a UTF-8 byte-order mark is an error; invalid UTF-8 throws with the line", async () => {
  const dir = await Deno.makeTempDir();
  const body = new TextEncoder().encode(`{"a": [${entry("x", 1, 1)}]}`);
  await Deno.writeFile(`${dir}/bom_run1.json`, new Uint8Array([0xef, 0xbb, 0xbf, ...body]));
  const { run, issues } = await readSpanRun(`${dir}/bom_run1.json`);
  assert.equal(run.size, 1);
  assert.deepEqual(messages(issues, "error"), [
    "1: starts with a UTF-8 byte-order mark, which the official checker rejects",
  ]);
  await Deno.writeFile(`${dir}/bad_run1.json`, new Uint8Array([0x7b, 0x0a, 0xff, 0x7d]));
  await assert.rejects(readSpanRun(`${dir}/bad_run1.json`), (e) => {
    assert.ok(e instanceof KitError && e.line === 2);
    return true;
  });
  await assert.rejects(readSpanRun(`${dir}/none.json`), /file not found/);
});

Deno.test("written runs read back identically and pass every check", async () => {
  const path = `${await Deno.makeTempDir()}/kit_rt.json`;
  const run = new Map([[IKHLAS.pqId, preds("لم يلد", "قل", "أحد")], [QADR.pqId, preds("في")]]);
  await writeSpanRun(path, run);
  const back = await readSpanRun(path);
  assert.deepEqual(back.issues, []);
  assert.deepEqual(back.run, run);
  assert.equal(await Deno.readTextFile(path), formatSpanRun(run));
  await assert.rejects(writeSpanRun(path, run), /--force/);
  await writeSpanRun(path, run, { force: true });
});

Deno.test("against gold: missing ids and extra ids are one summary warning each", () => {
  const issues = checkRunAgainstGold([IKHLAS, QADR], new Map([["x", []], ["y", []]]));
  assert.deepEqual(issues.map((i) => [i.severity, i.pqId]), [
    ["warning", undefined],
    ["warning", undefined],
  ]);
  assert.match(issues[0].message, /^2 of 2 gold pq_ids have no predictions and score 0: /);
  assert.match(issues[1].message, /2 pq_id\(s\) not in the gold file are ignored: x, y/);
  const one = checkRunAgainstGold([IKHLAS, QADR], new Map([[IKHLAS.pqId, []]]));
  assert.deepEqual(one.map((i) => i.pqId), [QADR.pqId]);
});
