/**
 * Protocol checks of a run against a split (lib/data/run_checks.ts), as `eval as2` prints
 * them: every way a run can depart from "rank the whole candidate set of every question".
 */
import assert from "node:assert/strict";
import { checkRunAgainstSplit, runWarnings } from "../../lib/data/run_checks.ts";
import type { Question } from "../../lib/data/types.ts";
import { runCli } from "../helpers.ts";

const q = (id: string, labels: number[]): Question => ({
  id,
  text: `question ${id}`,
  candidates: labels.map((label, i) => ({ id: `${id}-${i}`, text: `s${i}`, label })),
});
const split = [q("Q1", [1, 0, 0]), q("Q2", [0, 1]), q("Q3", [1, 0])];

Deno.test("a run that follows the protocol: no warning", () => {
  const run = new Map(split.map((x) => [x.id, new Map(x.candidates.map((c, i) => [c.id, i]))]));
  const c = checkRunAgainstSplit(run, split);
  assert.deepEqual(runWarnings(c), []);
  assert.equal(c.questions, 3);
});

Deno.test("each departure is found and named, with examples and counts", () => {
  const run = new Map<string, Map<string, number>>([
    ["Q1", new Map([["Q1-0", 3], ["Q1-9", 2]])], // Q1-1, Q1-2 unranked; Q1-9 not a candidate
    ["Q2", new Map([["Q2-0", 1], ["Q2-1", 2], ["Q3-0", 0]])], // another question's candidate
    ["Q7", new Map([["x", 1]])], // dropped by the filter
    ["Z1", new Map([["y", 1]])], // not in the split at all
  ]);
  const c = checkRunAgainstSplit(run, split, { filter: "no-all", dropped: ["Q7", "Q8"] });
  assert.deepEqual(c.missingQuestions, ["Q3"]);
  assert.deepEqual(c.unrankedCandidates, [
    { question: "Q1", candidate: "Q1-1" },
    { question: "Q1", candidate: "Q1-2" },
  ]);
  assert.deepEqual(c.unknownCandidates, [
    { question: "Q1", candidate: "Q1-9" },
    { question: "Q2", candidate: "Q3-0" },
  ]);
  assert.deepEqual(c.filteredQuestions, ["Q7"]);
  assert.deepEqual(c.unknownQuestions, ["Z1"]);
  const w = runWarnings(c);
  assert.equal(w.length, 5);
  assert.match(w[0], /^1 question of the split \(of 3\) missing from the run, each scoring 0: Q3$/);
  assert.match(w[1], /^2 candidates of 1 question not ranked .*: Q1\/Q1-1, Q1\/Q1-2$/);
  assert.match(w[2], /^2 ranked ids are not a candidate .*: Q1\/Q1-9, Q2\/Q3-0$/);
  assert.match(w[3], /^1 question id of the run not in the split .*: Z1$/);
  assert.match(w[4], /filter 'no-all', not 'clean'/);
});

Deno.test("examples are capped at three", () => {
  const many = Array.from({ length: 5 }, (_, i) => q(`Q${i}`, [1, 0]));
  const c = checkRunAgainstSplit(new Map(), many);
  assert.match(runWarnings(c)[0], /^5 questions .*: Q0, Q1, Q2, \.\.\.$/);
});

Deno.test("eval as2 warns about ids not in the split, unranked candidates, missing questions", async () => {
  const dir = await Deno.makeTempDir();
  const sample = await Deno.readTextFile("data/samples/runs/wikiqa-test.run");
  const lines = sample.split("\n").filter((l) => l && !l.startsWith("#"));
  // Rename one ranked candidate of Q300 (so D300-1 is unranked and D300-X unknown).
  const edited = lines.map((l) => l.replace(" D300-1 ", " D300-X "));
  await Deno.writeTextFile(`${dir}/edited.run`, edited.join("\n") + "\n");
  // eval as2 on the bundled WikiQA test sample, with more flags.
  const as2 = (...more: string[]) =>
    runCli(["eval", "as2", "--dataset", "wikiqa", "--split", "test", "--dir", "samples", ...more]);
  const r = await as2(`${dir}/edited.run`);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /warning: 1 ranked id is not a candidate .*: Q300\/D300-X/);
  assert.match(r.stderr, /warning: 1 candidate of 1 question not ranked .*: Q300\/D300-1/);
  assert.match(r.stdout, /^map\s+all\s+\d\.\d{4}$/m);
  const raw = await as2("--filter", "raw", `${dir}/edited.run`);
  assert.match(raw.stderr, /warning: evaluated with the filter 'raw', not 'clean'/);
  await Deno.remove(dir, { recursive: true });
});
