/**
 * `display` of plain values (what a user's own cell shows): a number or string as text, an
 * array of records or one record as a table with the user's strings escaped, anything else as
 * `Deno.inspect` shows it; never the "expected a figure" error it gave before.
 */
import "../quick.ts";
import assert from "node:assert/strict";
import { plainBundle } from "../../lib/plot/show.ts";
import { display } from "../../lib/plot/mod.ts";

Deno.test("plain values: numbers and strings as text, records as an escaped table, the rest inspected", async () => {
  assert.deepEqual(plainBundle(237), { "text/plain": "237" });
  assert.deepEqual(plainBundle(0.5931), { "text/plain": "0.5931" });
  assert.deepEqual(plainBundle("<b>x</b>"), { "text/plain": "<b>x</b>" }); // no HTML form
  assert.deepEqual(plainBundle(true), { "text/plain": "true" });
  const rows = plainBundle([{ system: "<script>x</script>", MAP: 0.5931 }, {
    system: "b",
    MAP: 0.5,
  }]);
  const html = String(rows["text/html"]);
  assert.match(html, /<table/);
  assert.ok(html.includes("&lt;script&gt;x&lt;/script&gt;") && !html.includes("<script>x"));
  assert.match(String(rows["text/plain"]), /system\s+MAP/);
  assert.match(String(plainBundle({ MAP: 0.5931, MRR: 0.6024 })["text/html"]), /0\.6024/);
  assert.equal(plainBundle([1, 2, 3])["text/plain"], "[ 1, 2, 3 ]");
  assert.equal(plainBundle(new Map([["a", 1]]))["text/plain"], 'Map(1) { "a" => 1 }');
  assert.equal(plainBundle(undefined)["text/plain"], "undefined");
  // Outside a kernel display prints the text form, and no longer throws on a plain value.
  const printed: string[] = [];
  const log = console.log;
  console.log = (t: string) => printed.push(t);
  try {
    await display(237);
    await display([{ q: "Q1", AP: 1 }]);
  } finally {
    console.log = log;
  }
  assert.equal(printed[0], "237");
  assert.match(printed[1], /Q1/);
});
