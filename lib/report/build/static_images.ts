/**
 * Static PNG images for the figures of an executed notebook. The kernel cannot draw (no
 * DOM), so after execution every output carrying a Plotly figure gets an `image/png`
 * rendered by plotly.js in headless Chromium (`Plotly.toImage`). Viewers that run no
 * scripts (GitHub, nbviewer without JS, Markdown exports) then show the PNG; those that
 * do keep using the interactive forms of the same bundle.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { pathToFileURL } from "node:url";
import { withKitTempDir } from "../../io/temp.ts";
import type { Figure } from "../../plot/figures.ts";
import {
  describeFigure,
  LIBRARY_MARK,
  libraryScript,
  PLOTLY_MIME,
  withStaticImage,
} from "../../plot/display.ts";
import { bundleFor, type PlotlyBundle, plotlyJsPath } from "../../plot/plotlyjs.ts";
import type { BrowserSession } from "../check/browser.ts";
import { offlinePage } from "../check/browser.ts";
import { KitError } from "../../errors.ts";
import { writeFileAtomic } from "../../io/atomic.ts";

/** The parts of an nbformat 4 notebook this module reads and writes. */
export interface NotebookJson {
  cells: {
    cell_type: string;
    source: string | string[];
    outputs?: { output_type: string; data?: Record<string, unknown> }[];
    metadata?: Record<string, unknown>;
  }[];
  metadata: Record<string, unknown>;
  nbformat: number;
  nbformat_minor: number;
}

/** Every Plotly figure in a notebook's outputs, with where it is. */
export function plotlyOutputs(
  nb: NotebookJson,
): { cell: number; data: Record<string, unknown> }[] {
  const found: { cell: number; data: Record<string, unknown> }[] = [];
  nb.cells.forEach((c, i) => {
    for (const o of c.outputs ?? []) {
      if (o.data && PLOTLY_MIME in o.data) found.push({ cell: i, data: o.data });
    }
  });
  return found;
}

/**
 * Puts the smallest of plotly's bundles that holds every figure of `nb` ({@link bundleFor}) in
 * place of the full one the kernel embedded (in place; returns that bundle). Every page made
 * from the notebook (its page, slides, solutions page) then loads about a third of the script
 * (docs/performance.md, "Where a page load goes: plotly.js"); a figure of any other trace type
 * keeps the full bundle. A carrier whose library is not the full bundle's script exactly (a
 * user's own plotly.js, `$KIT_PLOTLY_JS`) is left as it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LIBRARY_MARK, libraryScript, PLOTLY_MIME } from "../../plot/display.ts";
 * import { leanestLibrary } from "./static_images.ts";
 * const figure = (type: string, html: string) => ({
 *   output_type: "display_data",
 *   data: { [PLOTLY_MIME]: { data: [{ type }], layout: {} }, "text/html": html },
 * });
 * const nb = {
 *   cells: [{ cell_type: "code", source: "", outputs: [figure("bar", libraryScript() + "<div>")] }],
 *   metadata: {},
 *   nbformat: 4,
 *   nbformat_minor: 5,
 * };
 * assert.equal(leanestLibrary(nb), "basic");
 * const html = String(nb.cells[0].outputs[0].data["text/html"]);
 * assert.equal(html, libraryScript("basic") + "<div>");
 * assert.equal(html.split(LIBRARY_MARK).length, 2);
 * ```
 */
export function leanestLibrary(nb: NotebookJson): PlotlyBundle {
  const figures = plotlyOutputs(nb);
  const bundle = bundleFor(
    figures.flatMap((f) => (f.data[PLOTLY_MIME] as { data?: { type?: string }[] }).data ?? [])
      .map((t) => t.type),
  );
  if (bundle === "full") return bundle;
  const full = libraryScript("full");
  for (const f of figures) {
    const raw = f.data["text/html"];
    const html = Array.isArray(raw) ? raw.join("") : raw;
    if (typeof html !== "string" || !html.includes(LIBRARY_MARK)) continue;
    if (html.includes(full)) f.data["text/html"] = html.replace(full, () => libraryScript(bundle));
  }
  return bundle;
}

/** Draws figures to PNG in one browser page that loaded plotly.js once. */
export interface FigureRenderer {
  /** PNG (base64, no data: prefix) of a figure at its layout size (default 900x380). */
  png(fig: { data: unknown[]; layout: Record<string, unknown> }): Promise<string>;
  /** The same figure as an SVG document (text). */
  svg(fig: { data: unknown[]; layout: Record<string, unknown> }): Promise<string>;
  /** Closes the page. */
  close(): Promise<void>;
}

/**
 * Opens a page with one of the pinned bundles of plotly.js (default: the full one) for
 * {@link addStaticImages}; `path`: another build's file instead (tools/plotly_load.ts compares).
 */
export async function figureRenderer(
  session: BrowserSession,
  bundle: PlotlyBundle = "full",
  path = plotlyJsPath(bundle),
): Promise<FigureRenderer> {
  const { page, log } = await offlinePage(session);
  // A renderer that never gets plotly.js going closes its page (left open, it would stay in
  // the session's context until the browser closes).
  await withKitTempDir("kit-png-", async (dir) => {
    const html = `${dir}/render.html`;
    await writeFileAtomic(
      html,
      `<!doctype html><meta charset="utf-8"><body>` +
        `<script src="${pathToFileURL(path).href}"></script></body>`,
    );
    // plotly.js is up to 4.8 MB of script: on a loaded machine its first parse takes tens
    // of seconds, as long as a page check may wait.
    try {
      await page.goto(pathToFileURL(html).href, { timeout: 120_000 });
      await page.waitForFunction(() => "Plotly" in globalThis, undefined, { timeout: 120_000 });
    } catch (e) {
      await page.close().catch(() => {});
      throw e;
    }
  });
  const image = async (
    fig: { data: unknown[]; layout: Record<string, unknown> },
    format: "png" | "svg",
  ): Promise<string> => {
    const width = typeof fig.layout.width === "number" ? fig.layout.width : 900;
    const height = typeof fig.layout.height === "number" ? fig.layout.height : 380;
    const url = await page.evaluate(
      // deno-lint-ignore no-explicit-any
      ([data, layout, w, h, f]: any[]) =>
        // deno-lint-ignore no-explicit-any
        (globalThis as any).Plotly.toImage({ data, layout }, { format: f, width: w, height: h }),
      [fig.data, fig.layout, width, height, format],
    ) as string;
    if (log.pageErrors.length) {
      throw new KitError(`errors while rendering a figure: ${log.pageErrors.join("; ")}`);
    }
    return url;
  };
  return {
    async png(fig) {
      const url = await image(fig, "png");
      const prefix = "data:image/png;base64,";
      if (!url.startsWith(prefix)) throw new KitError("Plotly.toImage returned no PNG");
      return url.slice(prefix.length);
    },
    async svg(fig) {
      const url = await image(fig, "svg");
      const prefix = "data:image/svg+xml,";
      if (!url.startsWith(prefix)) throw new KitError("Plotly.toImage returned no SVG");
      return decodeURIComponent(url.slice(prefix.length));
    },
    async close() {
      await page.close();
    },
  };
}

/**
 * Adds an `image/png` rendering to every Plotly output of `nb` (in place), and puts the same
 * image inside the figure's HTML div for viewers that drop scripts; returns how many figures
 * were rendered.
 */
export async function addStaticImages(nb: NotebookJson, renderer: FigureRenderer): Promise<number> {
  const figures = plotlyOutputs(nb);
  for (const f of figures) {
    const fig = f.data[PLOTLY_MIME] as { data: unknown[]; layout: Record<string, unknown> };
    try {
      const png = await renderer.png(fig);
      f.data["image/png"] = png;
      const html = f.data["text/html"];
      const text = Array.isArray(html) ? html.join("") : html;
      if (typeof text === "string") {
        f.data["text/html"] = withStaticImage(text, png, describeFigure(fig as Figure));
      }
    } catch (e) {
      throw new KitError(`figure in cell ${f.cell}: ${(e as Error).message}`);
    }
  }
  return figures.length;
}

/**
 * Draws figures as SVG files into the report folder `dir` (each at its relative `file`, e.g.
 * `figures/map-differences-01.svg`): vector figures a paper can include.
 */
export async function writeFigureFiles(
  dir: string,
  figures: readonly { file: string; figure: Figure }[],
  renderer: FigureRenderer,
): Promise<void> {
  for (const { file, figure } of figures) {
    const path = `${dir}/${file}`;
    await Deno.mkdir(path.replace(/\/[^/]*$/, ""), { recursive: true });
    await writeFileAtomic(path, withStableIds(await renderer.svg(figure), file), { force: true });
  }
}

/**
 * An SVG of plotly.js with its random id (`defs-<uid>`, `clip<uid>xyplot`, `url(#clip<uid>...)`)
 * replaced by one drawn from `seed` (the figure's file name), so that a figure's file is the
 * same bytes on every build.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withStableIds } from "./static_images.ts";
 * const svg = (uid: string) =>
 *   `<svg><defs id="defs-${uid}"><clipPath id="clip${uid}xyplot"/></defs>` +
 *   `<g clip-path="url(#clip${uid}xyplot)"/><defs id="topdefs-${uid}"/></svg>`;
 * const [a, b] = [withStableIds(svg("d58058"), "f.svg"), withStableIds(svg("d7a0e0"), "f.svg")];
 * assert.equal(a, b);
 * assert.ok(!a.includes("d58058"));
 * assert.notEqual(withStableIds(svg("d58058"), "g.svg"), a);
 * // A colour that happens to spell the id is not an id: it stays.
 * assert.match(withStableIds(svg("d58058") + `<g style="fill: #d58058"/>`, "f.svg"), /#d58058/);
 * ```
 */
export function withStableIds(svg: string, seed: string): string {
  const uid = svg.match(/ id="defs-([0-9a-f]+)"/)?.[1];
  if (!uid) return svg;
  const stable = createHash("sha256").update(seed).digest("hex").slice(0, uid.length);
  return svg.replace(new RegExp(`(defs-|clip)${uid}`, "g"), `$1${stable}`);
}
