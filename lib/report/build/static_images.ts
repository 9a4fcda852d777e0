/**
 * Static PNG images for the figures of an executed notebook. The kernel cannot draw (no
 * DOM), so after execution every output carrying a Plotly figure gets an `image/png`
 * rendered by plotly.js in headless Chromium (`Plotly.toImage`). Viewers that run no
 * scripts (GitHub, nbviewer without JS, Markdown exports) then show the PNG; those that
 * do keep using the interactive forms of the same bundle.
 *
 * @module
 */
import { withKitTempDir } from "../../io/temp.ts";
import type { Figure } from "../../plot/figures.ts";
import { describeFigure, PLOTLY_MIME, withStaticImage } from "../../plot/display.ts";
import { plotlyJsPath } from "../../plot/plotlyjs.ts";
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
 * Opens a page with plotly.js for {@link addStaticImages}: the pinned package file, or `bundle`
 * (another build of plotly.js, to compare: tools/plotly_load.ts).
 */
export async function figureRenderer(
  session: BrowserSession,
  bundle = plotlyJsPath(),
): Promise<FigureRenderer> {
  const { page, log } = await offlinePage(session);
  await withKitTempDir("kit-png-", async (dir) => {
    const html = `${dir}/render.html`;
    await writeFileAtomic(
      html,
      `<!doctype html><meta charset="utf-8"><body>` +
        `<script src="file://${bundle}"></script></body>`,
    );
    // plotly.js is 4.8 MB of script: on a loaded machine its first parse takes tens of
    // seconds, as long as a page check may wait.
    await page.goto(`file://${html}`, { timeout: 120_000 });
    await page.waitForFunction(() => "Plotly" in globalThis, undefined, { timeout: 120_000 });
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
    await writeFileAtomic(path, await renderer.svg(figure), { force: true });
  }
}
