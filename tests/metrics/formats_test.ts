/** Output formats (text, JSON, CSV long and wide), the generated help, as2 and compare JSON. */
import { assert, assertEquals } from "../assert.ts";
import {
  evaluate,
  formatCsv,
  formatJson,
  formatTrecEval,
  MEASURES,
} from "../../lib/metrics/mod.ts";
import { runCli } from "../helpers.ts";

const SAMPLE_QRELS = "data/samples/runs/wikiqa-test-clean.qrels";
const SAMPLE_RUN = "data/samples/runs/wikiqa-test.run";
const m = (o: Record<string, Record<string, number>>) =>
  new Map(Object.entries(o).map(([q, d]) => [q, new Map(Object.entries(d))]));

// q1: a (rel) ranked 2nd; q2: b (rel) 1st; "q,3" needs quoting in CSV.
const result = () =>
  evaluate(
    m({ q1: { a: 1, x: 0 }, q2: { b: 2 }, "q,3": { c: 1 } }),
    m({ q1: { a: 1, x: 2 }, q2: { b: 1 }, "q,3": { z: 1 } }),
    ["num_q", "num_ret", "map", "gm_map", "relstring.2", "P(rel=2)@1"],
    { warn: false },
  );

Deno.test("JSON: summary at full precision, per-query values with -q, names as asked", () => {
  const j = JSON.parse(formatJson(result(), { perQuery: true }));
  assertEquals(j.measures, ["num_ret", "map", "gm_map", "relstring_2", "P(rel=2)@1"]);
  assertEquals(j.numQ, 3);
  assertEquals(j.summary.map, 0.5);
  assertEquals(j.summary["P(rel=2)@1"], 1 / 3);
  assertEquals(j.summary.num_ret, 4);
  assert(!("relstring_2" in j.summary)); // per query only
  assertEquals(j.perQuery.q1, { num_ret: 2, map: 0.5, relstring_2: "01", "P(rel=2)@1": 0 });
  assert(!("gm_map" in j.perQuery.q1)); // summary only, as in trec_eval
  assertEquals(Object.keys(j.perQuery), ["q,3", "q1", "q2"]); // strcmp order
  assert(!("perQuery" in JSON.parse(formatJson(result()))));
});

Deno.test("CSV long and wide: one row per query and measure, or per query; quoting", () => {
  const long = formatCsv(result(), { perQuery: true }).split("\n");
  assertEquals(long[0], "scope,query,measure,value");
  assert(long.includes('query,"q,3",map,0'));
  assert(long.includes("query,q1,relstring_2,01"));
  assert(long.includes("summary,all,num_q,3"));
  assert(long.includes(`summary,all,P(rel=2)@1,${1 / 3}`));
  const wide = formatCsv(result(), { perQuery: true, shape: "wide" }).trimEnd().split("\n");
  assertEquals(wide[0], "scope,query,num_q,num_ret,map,gm_map,relstring_2,P(rel=2)@1");
  assertEquals(wide[2], "query,q1,,2,0.5,,01,0");
  assertEquals(wide.at(-1)!.split(",").slice(0, 5), ["summary", "all", "3", "4", "0.5"]);
});

Deno.test("CSV: a query named all stays apart from the summary; formulas are neutralised (issue 28, item 9)", () => {
  const r = evaluate(
    m({ all: { a: 1 }, "=cmd|' /C calc'!A1": { a: 1 }, "-1": { a: 1 }, "@x": { a: 0 } }),
    m({ all: { a: 1 }, "=cmd|' /C calc'!A1": { a: 1 }, "-1": { a: 1 }, "@x": { a: 1 } }),
    ["map", "num_q"],
  );
  const long = formatCsv(r, { perQuery: true }).trimEnd().split("\n");
  assertEquals(long, [
    "scope,query,measure,value",
    "query,-1,map,1",
    "query,'=cmd|' /C calc'!A1,map,1",
    "query,'@x,map,0",
    "query,all,map,1",
    "summary,all,num_q,4",
    "summary,all,map,0.75",
  ]);
  const wide = formatCsv(r, { perQuery: true, shape: "wide" }).trimEnd().split("\n");
  assertEquals(wide[0], "scope,query,num_q,map");
  assertEquals(wide.slice(-2), ["query,all,,1", "summary,all,4,0.75"]);
  // Every measure asked for has a column, num_q and runid included.
  const all = formatCsv(
    evaluate(m({ q: { a: 1 } }), m({ q: { a: 1 } }), ["runid", "num_q", "relstring"]),
    { shape: "wide" },
  );
  assertEquals(all, "scope,query,runid,num_q,relstring\nsummary,all,kit,1,\n");
});

Deno.test("text: counts without decimals, relstring quoted, NaN as trec_eval's -nan", () => {
  const text = formatTrecEval(result(), { perQuery: true });
  assert(text.includes(`${"relstring_2".padEnd(22)}\tq1\t'01'\n`));
  assert(text.includes("num_ret               \tall\t4\n"));
  assert(text.includes("P(rel=2)@1            \tall\t0.3333\n"));
  const empty = evaluate(m({ q: { a: 1 } }), m({ q: { a: 1 } }), ["iprec_at_recall.0"], {
    maxDocs: 0,
  });
  assertEquals(formatTrecEval(empty), "iprec_at_recall_0.00  \tall\t  -nan\n");
  assertEquals(JSON.parse(formatJson(empty)).summary["iprec_at_recall_0.00"], null);
});

Deno.test("eval trec -h lists every measure of the table; --format json and csv from the CLI", async () => {
  const help = await runCli(["eval", "trec", "-h"]);
  assertEquals(help.code, 0);
  for (const measure of MEASURES) assert(help.stdout.includes(`  ${measure.name}`), measure.name);
  const j = await runCli([
    "eval",
    "trec",
    "--format",
    "json",
    "-q",
    "-m",
    "AP",
    SAMPLE_QRELS,
    SAMPLE_RUN,
  ]);
  assertEquals(j.code, 0, j.stderr);
  const parsed = JSON.parse(j.stdout);
  assertEquals(parsed.measures, ["AP"]);
  assertEquals(Object.keys(parsed.perQuery).length, 4);
  const c = await runCli([
    "eval",
    "trec",
    "--format",
    "csv-wide",
    "-m",
    "map",
    SAMPLE_QRELS,
    SAMPLE_RUN,
  ]);
  assertEquals(c.stdout, "scope,query,map\nsummary,all,0.6041666666666666\n");
  const bad = await runCli(["eval", "trec", "--format", "xml", SAMPLE_QRELS, SAMPLE_RUN]);
  assertEquals(bad.code, 2);
});

Deno.test("eval as2 -q --json has per-question values; eval compare --format json", async () => {
  const as2 = await runCli([
    "eval",
    "as2",
    "--dataset",
    "wikiqa",
    "--split",
    "test",
    "--dir",
    "samples",
    "-q",
    "--json",
    SAMPLE_RUN,
  ]);
  assertEquals(as2.code, 0, as2.stderr);
  const j = JSON.parse(as2.stdout);
  assertEquals(j.perQuery.Q300.map, 1);
  assertEquals(j.map, 0.6041666666666666);
  const cmp = await runCli([
    "eval",
    "compare",
    "--qrels",
    SAMPLE_QRELS,
    SAMPLE_RUN,
    SAMPLE_RUN,
    "--name",
    "a",
    "--name",
    "b",
    "--trials",
    "50",
    "--format",
    "json",
  ]);
  assertEquals(cmp.code, 0, cmp.stderr);
  const table = JSON.parse(cmp.stdout);
  assertEquals(table.measures, ["map", "recip_rank"]);
  assertEquals(table.cells.a.map.mean, 0.6041666666666666);
});
