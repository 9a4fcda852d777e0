/**
 * One form for every printed p (`formatP`): four decimals rounded as C rounds them (as
 * trec_eval and Python's `%.4f`), exponent form below 1e-4. Each place that prints a p is
 * checked against it and against Python's own formatting: `display` of test records (a
 * notebook's own cell), tables, headline numbers and the index page, the systems report's
 * tables, `eval compare`'s Markdown and LaTeX. Before, `display` of a record with p 3.4e-6
 * showed 0.0000 and the page's tables printed a sign test's p of 1/32 as 0.0313 (toFixed
 * rounds ties up) where `eval compare` and Python print 0.0312.
 */
import assert from "node:assert/strict";
import { formatP, isPValueColumn } from "../../lib/stats/p_value.ts";
import { plainBundle } from "../../lib/plot/show.ts";
import { formatCell, tableBundle } from "../../lib/plot/table.ts";
import { headlineBundle } from "../../lib/report/notebook/headline.ts";
import { pText } from "../../lib/report/systems/tables.ts";
import { outcomeRows } from "../../lib/report/systems/sections/pair.ts";
import { compareSystems, toLatex, toMarkdown } from "../../lib/stats/compare.ts";
import type { SystemsReport } from "../../lib/report/systems/report.ts";

// Values whose printing differs between the old forms: a tiny p, a tie at the 5th decimal
// (1/32, 3/32: a sign test's and an exact randomization test's p), ordinary ones.
const P = [3.4158e-6, 1 / 32, 3 / 32, 0.04213, 0.00015, 1];

/** Python's formatting of each p under the same rule (`%.4f`, `%.1e` without the exponent's 0). */
function pythonForms(): string[] | undefined {
  try {
    const out = new Deno.Command("python3", {
      args: [
        "-c",
        "import sys, json\n" +
        "print(json.dumps([('%.1e' % p).replace('e-0', 'e-') if p < 1e-4 else '%.4f' % p " +
        "for p in json.loads(sys.argv[1])]))",
        JSON.stringify(P),
      ],
      stderr: "null",
    }).outputSync();
    return out.success ? JSON.parse(new TextDecoder().decode(out.stdout)) : undefined;
  } catch {
    return undefined;
  }
}

Deno.test("formatP: C's rounding and exponent form below 1e-4, as Python prints them", () => {
  const expected = ["3.4e-6", "0.0312", "0.0938", "0.0421", "0.0001", "1.0000"];
  assert.deepEqual(P.map(formatP), expected);
  const python = pythonForms();
  if (python) assert.deepEqual(P.map(formatP), python);
  else console.error("python3 not found: the forms checked against the literal list only");
  assert.equal(formatP(0), "0");
  assert.equal(formatP(Number.NaN), "NaN");
});

Deno.test("every place that prints a p prints formatP's form", () => {
  // display of a test record (notebook): the p fields in the table, never 0.0000.
  const record = {
    measure: "map",
    a: "mine",
    b: "bm25",
    difference: 0.0812,
    p: P[0],
    pAdjusted: P[1],
  };
  for (const bundle of [plainBundle(record), plainBundle([record, { ...record, p: P[2] }])]) {
    for (const form of ["text/plain", "text/markdown", "text/html"]) {
      const text = String(bundle[form]);
      assert.ok(text.includes("3.4e-6") && text.includes("0.0312"), `${form}: ${text}`);
      assert.ok(!text.includes("0.0000") && !text.includes("0.0313"), `${form}: ${text}`);
      assert.ok(text.includes("0.0812"), "other numbers keep 4 decimals");
    }
  }
  // Tables (comparisonRows' "p (holm)", the page's columns) and a measure column untouched.
  const t = String(
    tableBundle([{ "p (holm)": P[0], "sign test p": P[1], "P@1": 0.03125 }])[
      "text/plain"
    ],
  );
  assert.match(t, /3\.4e-6\s+0\.0312\s+0\.0313$/m);
  // Headline numbers and the index page (formatCell with the key).
  const h = String(
    headlineBundle({ title: "t", numbers: { "paired t test p": P[0] } })["text/plain"],
  );
  assert.equal(h, "t: paired t test p: 3.4e-6");
  assert.equal(formatCell(P[0], 4, "paired t test p"), "3.4e-6");
  assert.equal(formatCell(0.03125, 4, "MAP"), "0.0313");
  // The systems report's tables.
  assert.deepEqual(P.map(pText), P.map(formatP));
  const rows = outcomeRows({
    pair: {
      a: "mine",
      b: "bm25",
      outcomes: [{
        measure: "map",
        label: "MAP",
        wins: 6,
        losses: 0,
        ties: 0,
        signP: 1 / 32,
        p: P[0],
        pAdjusted: P[2],
      }],
    },
  } as unknown as SystemsReport);
  assert.deepEqual(
    [
      rows[0]["sign test p (raw, not corrected)"],
      rows[0]["paired t p (raw)"],
      rows[0]["paired t p adjusted (no family)"],
    ],
    ["0.0312", "3.4e-6", "0.0938"],
  );
  // eval compare's exports: an exact randomization test over 6 queries, p = 2/64 = 1/32.
  const q = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
  const table = compareSystems({ a: q([1, 1, 1, 1, 1, 1]), b: q([0, 0, 0, 0, 0, 0]) }, ["map"]);
  assert.equal(table.pairs[0].p, 1 / 32);
  assert.match(toMarkdown(table), /\| 0\.0312 \| 0\.0312 \|/);
  assert.match(toLatex(table, { pValues: true }), / 0\.0312 & 0\.0312 /);
});

Deno.test("isPValueColumn: p columns by name, measures not", () => {
  for (
    const c of [
      "p",
      "pAdjusted",
      "signP",
      "p adjusted (x7)",
      "sign test p",
      "paired t p",
      "p (holm)",
      "p_raw_vs_a",
      "p-value",
    ]
  ) {
    assert.ok(isPValueColumn(c), c);
  }
  for (const c of ["P@1", "P_5", "P.5", "pRR", "map", "MAP", "p_1", "A - B", "top candidate"]) {
    assert.ok(!isPValueColumn(c), c);
  }
});
