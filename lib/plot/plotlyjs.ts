/**
 * Where the kit's copies of plotly.js come from. Figures are drawn by plotly.js in the
 * browser (Deno has no DOM); the library is embedded into documents, never fetched from
 * a CDN, so reports open offline. The files are plotly's npm bundles, pinned here, read
 * from Deno's npm cache (`deno info` downloads them on first use and says where they lie):
 *
 * - `full` (`plotly.js-dist-min`, 4.8 MB): every trace type. A notebook's kernel embeds it
 *   (`display` cannot know which figures a page will show after the first).
 * - `cartesian` (1.5 MB) and `basic` (1.2 MB): plotly's partial bundles of the same version,
 *   holding fewer trace types. The report puts the smallest that holds every figure of a page
 *   in place of the full one ({@link bundleFor}): Chromium loads the basic bundle in about a
 *   third of the full one's time, and every page, slide deck and solutions page of a report
 *   loads it once (docs/performance.md, "Where a page load goes: plotly.js").
 *
 * The version is 4.1.1, the last that plotly published all three bundles of.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { npmPackageDir } from "../io/npm_package.ts";
import { readWholeFileSync } from "../io/whole_file.ts";

/** The pinned plotly.js version (every bundle). */
export const PLOTLY_VERSION = "4.1.1";

/**
 * plotly's bundles the kit embeds: npm package, file, and the trace types it holds (`full`:
 * all). tests/plot/bundles_test.ts holds each list to what the bundle registers in Chromium.
 */
export const PLOTLY_BUNDLES = {
  basic: {
    pkg: "plotly.js-basic-dist-min",
    file: "plotly-basic.min.js",
    traces: ["bar", "pie", "scatter"],
  },
  cartesian: {
    pkg: "plotly.js-cartesian-dist-min",
    file: "plotly-cartesian.min.js",
    traces: [
      "bar",
      "box",
      "contour",
      "heatmap",
      "histogram",
      "histogram2d",
      "histogram2dcontour",
      "image",
      "pie",
      "scatter",
      "scatterternary",
      "violin",
    ],
  },
  full: { pkg: "plotly.js-dist-min", file: "plotly.min.js", traces: undefined },
} as const;

/** One of {@link PLOTLY_BUNDLES}, smallest first. */
export type PlotlyBundle = keyof typeof PLOTLY_BUNDLES;

const paths = new Map<PlotlyBundle, string>();
const sources = new Map<PlotlyBundle, string>();

/** `$KIT_PLOTLY_JS`: a plotly.js of the user's, used for every bundle. */
function override(): string | undefined {
  return Deno.env.get("KIT_PLOTLY_JS") || undefined;
}

/**
 * The path of a bundle's file (default: the full one): `$KIT_PLOTLY_JS` when set, otherwise
 * the pinned package in Deno's npm cache (fetched there by `deno info` when missing).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plotlyJsPath } from "./plotlyjs.ts";
 * assert(plotlyJsPath().endsWith(".js"));
 * assert(plotlyJsPath("basic").endsWith(".js"));
 * ```
 */
export function plotlyJsPath(bundle: PlotlyBundle = "full"): string {
  const known = paths.get(bundle);
  if (known) return known;
  const { pkg, file } = PLOTLY_BUNDLES[bundle];
  const path = override() ?? `${npmPackageDir(pkg, PLOTLY_VERSION)}/${file}`;
  paths.set(bundle, path);
  return path;
}

/**
 * The text of a bundle (default: the full one), ready to sit inside an inline `<script>`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plotlyJsSource, PLOTLY_VERSION } from "./plotlyjs.ts";
 * assert(plotlyJsSource().includes(`plotly.js v${PLOTLY_VERSION}`));
 * assert(plotlyJsSource("basic").includes(`plotly.js (basic - minified) v${PLOTLY_VERSION}`));
 * ```
 */
export function plotlyJsSource(bundle: PlotlyBundle = "full"): string {
  const known = sources.get(bundle);
  if (known) return known;
  const path = plotlyJsPath(bundle);
  const text = new TextDecoder().decode(readWholeFileSync(path, "asset"));
  // An inline script ends at the first "</script"; the pinned bundles have none, and a
  // future one that had would break every page silently, so refuse it loudly.
  if (/<\/script/i.test(text)) {
    throw new KitError("plotly.js contains '</script' and cannot be inlined", { file: path });
  }
  sources.set(bundle, text);
  return text;
}

/**
 * The smallest bundle that holds every trace type given (a trace without a type is plotly's
 * default, `scatter`); the full one when `$KIT_PLOTLY_JS` names the user's own plotly.js.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bundleFor } from "./plotlyjs.ts";
 * assert.equal(bundleFor(["bar", "scatter"]), "basic");
 * assert.equal(bundleFor(["bar", undefined]), "basic");
 * assert.equal(bundleFor(["bar", "box"]), "cartesian");
 * assert.equal(bundleFor(["scatterpolar"]), "full");
 * assert.equal(bundleFor([]), "basic");
 * ```
 */
export function bundleFor(types: Iterable<string | undefined>): PlotlyBundle {
  if (override()) return "full";
  const wanted = [...new Set([...types].map((t) => t ?? "scatter"))];
  for (const bundle of ["basic", "cartesian"] as const) {
    const held: readonly string[] = PLOTLY_BUNDLES[bundle].traces;
    if (wanted.every((t) => held.includes(t))) return bundle;
  }
  return "full";
}
