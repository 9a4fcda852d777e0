/**
 * Where the kit's copy of plotly.js comes from. Figures are drawn by plotly.js in the
 * browser (Deno has no DOM); the library is embedded into documents, never fetched from
 * a CDN, so reports open offline. The file is the npm package `plotly.js-dist-min`,
 * pinned here, read from Deno's npm cache (`deno info` downloads it on first use and
 * says where it lies).
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { npmPackageDir } from "../io/npm_package.ts";
import { readWholeFileSync } from "../io/whole_file.ts";

/** The pinned plotly.js version. */
export const PLOTLY_VERSION = "4.1.2";

/** The npm specifier of the pinned bundle. */
export const PLOTLY_SPECIFIER = `npm:plotly.js-dist-min@${PLOTLY_VERSION}`;

let cachedPath: string | undefined;
let cachedSource: string | undefined;

/**
 * The path of `plotly.min.js`: `$KIT_PLOTLY_JS` when set, otherwise the pinned package in
 * Deno's npm cache (fetched there by `deno info` when missing).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plotlyJsPath } from "./plotlyjs.ts";
 * assert(plotlyJsPath().endsWith(".js"));
 * ```
 */
export function plotlyJsPath(): string {
  if (cachedPath) return cachedPath;
  const override = Deno.env.get("KIT_PLOTLY_JS");
  if (override) return cachedPath = override;
  return cachedPath = `${npmPackageDir("plotly.js-dist-min", PLOTLY_VERSION)}/plotly.min.js`;
}

/**
 * The text of plotly.js, ready to sit inside an inline `<script>` element.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plotlyJsSource, PLOTLY_VERSION } from "./plotlyjs.ts";
 * assert(plotlyJsSource().includes(`plotly.js v${PLOTLY_VERSION}`));
 * ```
 */
export function plotlyJsSource(): string {
  if (cachedSource) return cachedSource;
  const path = plotlyJsPath();
  const text = new TextDecoder().decode(readWholeFileSync(path, "asset"));
  // An inline script ends at the first "</script"; the pinned bundle has none, and a
  // future one that had would break every page silently, so refuse it loudly.
  if (/<\/script/i.test(text)) {
    throw new KitError("plotly.js contains '</script' and cannot be inlined", { file: path });
  }
  return cachedSource = text;
}
