import assert from "node:assert/strict";
import { KitError } from "../../lib/errors.ts";
import {
  bar,
  display,
  figureBundle,
  histogram,
  line,
  markdown,
  PLOTLY_MIME,
  scatter,
  table,
  tableBundle,
} from "../../lib/plot/mod.ts";
import { LIBRARY_MARK, NOTE_NO_SCRIPTS, withStaticImage } from "../../lib/plot/display.ts";

Deno.test("histogram: NumPy's bins, the last one closed, shared by every series", () => {
  const fig = histogram({ a: [0, 0.25, 1], b: [0.5] }, { binSize: 0.25, start: 0 });
  assert.equal(fig.data.length, 2);
  assert.deepEqual(fig.data[0].y, [1, 1, 0, 1], "1 falls in the last bin [0.75, 1]");
  assert.deepEqual(fig.data[1].y, [0, 0, 1, 0]);
  assert.deepEqual(fig.data[0].x, [0.125, 0.375, 0.625, 0.875]);
  assert.deepEqual(fig.data[0].customdata, [
    "[0, 0.25)",
    "[0.25, 0.5)",
    "[0.5, 0.75)",
    "[0.75, 1]",
  ]);
  // 0.3 / 0.1 is 2.9999999999999996 in floating point: still the bin [0.3, 0.4).
  const tenths = histogram({ x: [0.3, 0.1, 1] }, { binSize: 0.1, start: 0 });
  assert.equal((tenths.data[0].y as number[]).length, 10);
  assert.deepEqual(tenths.data[0].y, [0, 1, 0, 1, 0, 0, 0, 0, 0, 1]);
  const frac = histogram({ a: [1, 2, 2, 3] }, { binSize: 1, start: 0.5, fraction: true });
  assert.deepEqual(frac.data[0].y, [0.25, 0.5, 0.25]);
  assert.equal((frac.layout.yaxis as { title: { text: string } }).title.text, "fraction");
  assert.throws(() => histogram({ a: [-1, 1] }, { binSize: 0.5, start: 0 }), /outside the bins/);
  assert.equal(histogram({ a: [1, 2] }).data[0].type, "histogram", "Plotly bins without binSize");
});

Deno.test("builders reject bad input with KitError", () => {
  assert.throws(() => histogram({}), KitError);
  assert.throws(() => histogram({ a: [1, NaN] }), /expected numbers, found NaN/);
  assert.throws(() => bar(["x", "y"], [{ name: "s", values: [1] }]), /1 values for 2 categories/);
  assert.throws(() => scatter([{ name: "s", x: [1, 2], y: [1] }]), /2 x but 1 y/);
  assert.throws(() => line([]), KitError);
});

Deno.test("bar error bars: symmetric and interval forms", () => {
  const fig = bar(["MAP", "MRR"], [
    { name: "a", values: [0.5, 0.6], errors: [0.1, 0.2] },
    { name: "b", values: [0.5, 0.6], interval: { low: [0.4, 0.55], high: [0.7, 0.62] } },
  ]);
  assert.deepEqual((fig.data[0].error_y as { array: number[] }).array, [0.1, 0.2]);
  const e = fig.data[1].error_y as { array: number[]; arrayminus: number[]; symmetric: boolean };
  assert.equal(e.symmetric, false);
  assert.deepEqual(e.array.map((v) => +v.toFixed(10)), [0.2, 0.02]);
  assert.deepEqual(e.arrayminus.map((v) => +v.toFixed(10)), [0.1, 0.05]);
});

Deno.test("figure bundle: plotly JSON, HTML with the figure and a note, text; library when asked", () => {
  const fig = scatter([{ name: "</script><b>x", x: [1, 2], y: [3, 4], text: ["q1", "q2"] }], {
    title: "AP",
  });
  const without = figureBundle(fig, { id: "f1" });
  assert.deepEqual((without[PLOTLY_MIME] as { data: unknown }).data, fig.data);
  const html = without["text/html"] as string;
  assert.ok(!html.includes(LIBRARY_MARK));
  assert.ok(!html.includes("</script><b>"), "a trace name must not end the script element");
  const escaped = NOTE_NO_SCRIPTS.replaceAll(">", "&gt;").replaceAll("'", "&#39;");
  assert.ok(html.includes(escaped), "the note for viewers without scripts");
  // The figure JSON embedded in the script parses back to the same figure.
  const json = html.match(/var fig=(.*?);var id=/)![1];
  assert.deepEqual(JSON.parse(json), JSON.parse(JSON.stringify(fig)));
  assert.match(
    without["text/plain"] as string,
    /Figure "AP": scatter '<\/script><b>x' \(2 points\)/,
  );
  const withLib = figureBundle(fig, { includeLibrary: true, id: "f2" })["text/html"] as string;
  assert.equal(withLib.split(LIBRARY_MARK).length - 1, 1);
  assert.ok(withLib.indexOf(LIBRARY_MARK) < withLib.indexOf('id="f2"'));
  // The static image replaces the note (and a previous image), once.
  const img = withStaticImage(withStaticImage(html, "AAAA"), "BBBB");
  assert.ok(!img.includes(`<p class="kit-note"`) && !img.includes("AAAA") && img.includes("BBBB"));
  assert.equal(img.split("<img").length - 1, 1);
});

Deno.test("display outside a kernel prints the plain text; markdown carries both forms", async () => {
  const printed: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => printed.push(args.join(" "));
  try {
    await display(table([{ system: "BM25", MAP: 0.61234 }], { caption: "T" }));
    await display(bar(["MAP"], [{ name: "BM25", values: [0.6] }], { title: "t" }));
    await display(markdown("**3** of 10"));
    // A plain value is shown as it is (before: a TypeError).
    await display({});
  } finally {
    console.log = log;
  }
  assert.deepEqual(printed, [
    "T\nsystem     MAP\nBM25    0.6123",
    `Figure "t": bar 'BM25' (1 points)`,
    "**3** of 10",
    "{}",
  ]);
});

Deno.test("table bundle: HTML escaped, markdown pipes escaped, numbers rounded and right-aligned", () => {
  const b = tableBundle([{ name: "a|b", v: 0.123456, n: 3 }, { name: "<i>", v: 1, n: 10 }], {
    caption: "T",
  });
  assert.match(b["text/html"] as string, /&lt;i&gt;/);
  assert.ok(!(b["text/html"] as string).includes("<i>"));
  assert.match(b["text/markdown"] as string, /\| a\\\|b \| 0\.1235 \| 3 \|/);
  assert.match(b["text/markdown"] as string, /\| --- \| ---: \| ---: \|/);
  assert.equal((b["text/plain"] as string).split("\n")[2], "a|b   0.1235   3");
});

Deno.test("tableBundle: a whole number in a column of fractions has the column's decimals", () => {
  // A MAP of 1 or a difference of 0 beside 0.5931: "1.0000" and "0.0000", not "1" and "0".
  const b = tableBundle([
    { system: "a", map: 0.59311, diff: 0, n: 237 },
    { system: "b", map: 1, diff: -0.08547, n: 12 },
  ]);
  const md = (b["text/markdown"] as string).split("\n");
  assert.equal(md[2], "| a | 0.5931 | 0.0000 | 237 |");
  assert.equal(md[3], "| b | 1.0000 | -0.0855 | 12 |");
  assert.match(b["text/html"] as string, /<td[^>]*>1\.0000<\/td>/);
  assert.equal((b["text/plain"] as string).split("\n")[1], "a       0.5931   0.0000  237");
});
