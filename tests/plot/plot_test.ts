import assert from "node:assert/strict";
import { KitError } from "../../lib/errors.ts";
import {
  bar,
  display,
  embedLibraryAgain,
  figureBundle,
  histogram,
  line,
  PLOTLY_MIME,
  PLOTLY_VERSION,
  scatter,
  tableBundle,
} from "../../lib/plot/mod.ts";

Deno.test("histogram shares fixed bins across series", () => {
  const fig = histogram({ a: [0, 0.25, 1], b: [0.5] }, { binSize: 0.25, start: 0, fraction: true });
  assert.equal(fig.data.length, 2);
  for (const t of fig.data) {
    assert.deepEqual(t.xbins, { start: 0, end: 1.25, size: 0.25 });
    assert.equal(t.histnorm, "probability");
  }
  assert.deepEqual(fig.data[0].x, [0, 0.25, 1]);
  assert.equal((fig.layout.yaxis as { title: { text: string } }).title.text, "fraction");
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

Deno.test("figure bundle: plotly JSON, HTML with the figure, text; library only when asked", () => {
  const fig = scatter([{ name: "</script><b>x", x: [1, 2], y: [3, 4], text: ["q1", "q2"] }], {
    title: "AP",
  });
  const without = figureBundle(fig, { includeLibrary: false, id: "f1" });
  assert.deepEqual((without[PLOTLY_MIME] as { data: unknown }).data, fig.data);
  const html = without["text/html"] as string;
  assert.ok(!html.includes(`plotly.js v${PLOTLY_VERSION}`));
  assert.ok(!html.includes("</script><b>"), "a trace name must not end the script element");
  // The figure JSON embedded in the script parses back to the same figure.
  const json = html.match(/var fig=(.*?);function draw/)![1];
  assert.deepEqual(JSON.parse(json), JSON.parse(JSON.stringify(fig)));
  assert.match(
    without["text/plain"] as string,
    /Figure "AP": scatter '<\/script><b>x' \(2 points\)/,
  );

  const withLib = figureBundle(fig, { includeLibrary: true, id: "f2" })["text/html"] as string;
  assert.equal(withLib.split(`plotly.js v${PLOTLY_VERSION}`).length - 1, 1);
  assert.ok(withLib.indexOf("plotly.js v") < withLib.indexOf('id="f2"'));
});

Deno.test("display embeds plotly.js in the first figure of a session only, once per value", () => {
  const fig = bar(["a"], [{ name: "s", values: [1] }]);
  const key = Symbol.for("Jupyter.display");
  embedLibraryAgain();
  const firstShown = display(fig);
  const h1 = firstShown[key]()["text/html"] as string;
  const h1again = firstShown[key]()["text/html"] as string;
  const h2 = display(fig)[key]()["text/html"] as string;
  assert.ok(h1.includes(`plotly.js v${PLOTLY_VERSION}`));
  assert.equal(h1again, h1);
  assert.ok(!h2.includes(`plotly.js v${PLOTLY_VERSION}`));
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
