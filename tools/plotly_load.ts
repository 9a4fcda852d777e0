/**
 * How long Chromium takes to load a plotly.js bundle into a page (the figure renderer's start,
 * `figureRenderer`) and to draw one figure with it, median of `--repeats` loads in one browser:
 * each page of the report pays the load once (it inlines the bundle), so a build pays it once a
 * page, slide deck and solutions page. With no bundle named, the kit's pinned bundle; name
 * others (e.g. plotly's partial bundles, `npm pack plotly.js-basic-dist-min@4.1.1`) to compare:
 *
 *     deno run -A tools/plotly_load.ts [--repeats N] [BUNDLE.js ...]
 *
 * Prints a line per bundle: its size, the median load and draw seconds, each load's seconds.
 *
 * @module
 */
import { launchBrowser } from "../lib/report/check/browser.ts";
import { figureRenderer } from "../lib/report/build/static_images.ts";
import { plotlyJsPath } from "../lib/plot/plotlyjs.ts";

let repeats = 5;
const bundles: string[] = [];
for (let i = 0; i < Deno.args.length; i++) {
  if (Deno.args[i] === "--repeats") repeats = Number(Deno.args[++i]);
  else bundles.push(Deno.args[i]);
}
if (!Number.isInteger(repeats) || repeats < 1) throw new Error("--repeats takes a whole number");
if (bundles.length === 0) bundles.push(plotlyJsPath());

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const session = await launchBrowser();
try {
  for (const bundle of bundles) {
    const loads: number[] = [], draws: number[] = [];
    for (let r = 0; r < repeats; r++) {
      const t0 = performance.now();
      const renderer = await figureRenderer(session, "full", bundle);
      const t1 = performance.now();
      await renderer.png({ data: [{ type: "bar", x: ["a", "b"], y: [1, 2] }], layout: {} });
      draws.push((performance.now() - t1) / 1000);
      loads.push((t1 - t0) / 1000);
      await renderer.close();
    }
    const mb = (Deno.statSync(bundle).size / 1e6).toFixed(1);
    console.log(
      `${bundle}: ${mb} MB, load ${median(loads).toFixed(2)} s, draw ${
        median(draws).toFixed(2)
      } s (median of ${repeats}; loads ${loads.map((s) => s.toFixed(2)).join(" ")})`,
    );
  }
} finally {
  await session.close();
}
