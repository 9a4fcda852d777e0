/**
 * plotly's bundles as the kit declares them (lib/plot/plotlyjs.ts): each file is the pinned
 * version of the bundle it is named for, and registers in Chromium exactly the trace types its
 * entry lists (the full one: those and more), so `bundleFor` never picks a bundle that lacks a
 * figure's trace type. A figure of each bundle's own types draws with it and not with a smaller
 * one.
 */
import assert from "node:assert/strict";
import {
  bundleFor,
  PLOTLY_BUNDLES,
  PLOTLY_VERSION,
  type PlotlyBundle,
  plotlyJsPath,
  plotlyJsSource,
} from "../../lib/plot/plotlyjs.ts";
import { launchBrowser } from "../../lib/report/check/browser.ts";
import { figureRenderer } from "../../lib/report/build/static_images.ts";

const resources = { sanitizeResources: false, sanitizeOps: false };
const HEADER = {
  basic: `plotly.js (basic - minified) v${PLOTLY_VERSION}\n`,
  cartesian: `plotly.js (cartesian - minified) v${PLOTLY_VERSION}\n`,
  full: `plotly.js v${PLOTLY_VERSION}\n`,
};

Deno.test("plotly bundles: each file is the pinned version of its bundle", () => {
  for (const bundle of Object.keys(PLOTLY_BUNDLES) as PlotlyBundle[]) {
    assert.ok(plotlyJsSource(bundle).slice(0, 200).includes(HEADER[bundle]), bundle);
  }
  const sizes = (["basic", "cartesian", "full"] as const).map((b) =>
    Deno.statSync(plotlyJsPath(b)).size
  );
  assert.ok(sizes[0] < sizes[1] && sizes[1] < sizes[2], `sizes ${sizes}`);
});

Deno.test({
  name: "plotly bundles: each registers exactly the trace types the kit lists for it",
  ...resources,
  async fn() {
    const session = await launchBrowser();
    try {
      const registered: Record<string, string[]> = {};
      for (const bundle of Object.keys(PLOTLY_BUNDLES) as PlotlyBundle[]) {
        const page = await session.context.newPage();
        await page.setContent(`<script>${plotlyJsSource(bundle)}</script>`);
        registered[bundle] = await page.evaluate(() =>
          // deno-lint-ignore no-explicit-any
          Object.keys((globalThis as any).Plotly.PlotSchema.get().traces).sort()
        );
        await page.close();
      }
      assert.deepEqual(registered.basic, [...PLOTLY_BUNDLES.basic.traces].sort());
      assert.deepEqual(registered.cartesian, [...PLOTLY_BUNDLES.cartesian.traces].sort());
      for (const t of registered.cartesian) assert.ok(registered.full.includes(t), t);
      assert.ok(registered.full.length > registered.cartesian.length);
      // Each type goes to the smallest bundle that registers it.
      const holds = (bundle: string, t: string) => registered[bundle].includes(t);
      for (const t of registered.full) {
        const want: PlotlyBundle = holds("basic", t)
          ? "basic"
          : holds("cartesian", t)
          ? "cartesian"
          : "full";
        assert.equal(bundleFor([t]), want, t);
      }
    } finally {
      await session.close();
    }
  },
});

Deno.test({
  name: "plotly bundles: a box plot draws with the bundle bundleFor picks, not with the basic one",
  ...resources,
  async fn() {
    const session = await launchBrowser();
    try {
      const fig = { data: [{ type: "box", y: [1, 2, 3, 9] }], layout: {} };
      assert.equal(bundleFor(fig.data.map((t) => t.type)), "cartesian");
      const svgOf = async (bundle: PlotlyBundle) => {
        const r = await figureRenderer(session, bundle);
        try {
          return await r.svg(fig);
        } finally {
          await r.close();
        }
      };
      assert.match(await svgOf("cartesian"), /class="boxlayer/);
      // plotly draws an unknown trace type as nothing (no box layer), without an error.
      assert.doesNotMatch(await svgOf("basic"), /class="boxlayer/);
    } finally {
      await session.close();
    }
  },
});
