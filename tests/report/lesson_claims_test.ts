/**
 * Every comparative sentence of a lesson sits under the test behind it (tests/report/
 * lesson_claims.ts), or carries its reviewed reason; and the scan finds what it should.
 */
import "../quick.ts";
import assert from "node:assert/strict";
import { LESSONS } from "../../lib/report/build/lessons.ts";
import { COMPARATIVE, unbackedClaims } from "./lesson_claims.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("lessons: every comparative sentence sits under a printed test or is reviewed", () => {
  const problems: string[] = [];
  let reviewed = 0;
  for (const l of LESSONS) {
    const nb = JSON.parse(Deno.readTextFileSync(`${ROOT}notebooks/${l.file}`));
    reviewed += nb.cells.filter((c: { metadata?: { kit?: { reviewed?: string } } }) =>
      c.metadata?.kit?.reviewed
    ).length;
    for (const c of unbackedClaims(nb)) {
      problems.push(`${l.file} cell ${c.cell} (${c.section}): ${c.sentence}`);
    }
  }
  assert.deepEqual(problems, [], `comparisons with no test above them:\n${problems.join("\n")}`);
  // the exceptions stay few: each is a definition or a question, not a finding
  assert.ok(reviewed <= 4 * LESSONS.length, `${reviewed} reviewed exceptions`);
});

Deno.test("lessons' claim scan: the words it knows, and the ones it ignores", () => {
  for (
    const s of ["ltr beats BM25", "is better", "worse than", "improves MAP", "MAP drops to 0.4"]
  ) {
    assert.match(s, COMPARATIVE, s);
  }
  assert.match("there is no difference", COMPARATIVE);
  for (const s of ["a dropdown", "betterment", "the filter drops questions"]) {
    assert.doesNotMatch(s, COMPARATIVE, s);
  }
  const nb = {
    cells: [
      { cell_type: "markdown", source: "## S\n\n`better` in code, $a > b$ in maths." },
      { cell_type: "markdown", source: "A claim: ltr is better." },
      { cell_type: "code", source: "const t = pairedTTest(a, b);" },
      { cell_type: "markdown", source: "ltr is better (p 0.01)." },
      { cell_type: "markdown", source: "## T\n\nOne more is better. Is it better?" },
    ],
  };
  assert.deepEqual(unbackedClaims(nb).map((c) => [c.cell, c.section]), [[1, "S"], [4, "T"]]);
});
