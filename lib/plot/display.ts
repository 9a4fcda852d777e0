/**
 * Showing a figure in a Jupyter notebook on the Deno kernel. A figure is displayed as one
 * MIME bundle that every frontend can use:
 *
 * - `application/vnd.plotly.v1+json`: the figure itself; JupyterLab (with its Plotly
 *   renderer) and VS Code draw it interactively with their own plotly.js.
 * - `text/html`: a `<div>` and a script calling `Plotly.newPlot`, for classic Notebook and
 *   HTML exports. plotly.js is embedded (inline, offline) in the **first** figure a kernel
 *   session displays, so a document carries it once; later figures wait for it.
 * - `text/plain`: a one-line description, for text-only views.
 *
 * A static `image/png` is not made here: drawing one needs a browser, which the kernel does
 * not have. The report step (`lib/report`) adds a PNG to every figure of the executed
 * notebooks with headless Chromium, so viewers that run no scripts (GitHub, `--to markdown`)
 * still show the plot.
 *
 * @module
 */
import type { Figure } from "./figures.ts";
import { KitError } from "../errors.ts";
import { PLOTLY_VERSION, plotlyJsSource } from "./plotlyjs.ts";

/** The Plotly MIME type (JupyterLab, VS Code). */
export const PLOTLY_MIME = "application/vnd.plotly.v1+json";

/** A Jupyter MIME bundle: MIME type to content. */
export type MimeBundle = Record<string, unknown>;

/** Plotly's interactive options used for every figure. */
export const PLOT_CONFIG = { responsive: true, displaylogo: false } as const;

let libraryEmitted = false;

/** JSON that is safe inside an inline `<script>` (no `</script>`, no U+2028/9). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll("<", "\\u003c")
    .replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029");
}

/** The one-line text form of a figure. */
export function describeFigure(fig: Figure): string {
  const title = (fig.layout.title as { text?: string } | undefined)?.text;
  const traces = fig.data.map((t) => {
    const n = Array.isArray(t.x) ? t.x.length : Array.isArray(t.y) ? t.y.length : 0;
    return `${t.type ?? "trace"} '${t.name ?? ""}' (${n} points)`;
  });
  return `Figure${title ? ` "${title}"` : ""}: ${traces.join(", ")}`;
}

/**
 * The script that loads plotly.js and then draws every figure that was waiting for it.
 * Figures queue themselves on `window.__kitPlotly` until the library is there.
 */
export function libraryScript(): string {
  return `<script type="text/javascript">/* plotly.js ${PLOTLY_VERSION}, embedded once */\n` +
    plotlyJsSource() +
    `\n;(function(){var q=window.__kitPlotly||[];window.__kitPlotly={push:function(f){f();}};` +
    `for(var i=0;i<q.length;i++)q[i]();})();</script>\n`;
}

/**
 * The HTML of one figure: a div and a script drawing into it as soon as plotly.js is loaded.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { figureHtml } from "./display.ts";
 * const html = figureHtml({ data: [{ type: "bar", x: ["a"], y: [1] }], layout: {} }, "fig1");
 * assert(html.includes('id="fig1"') && html.includes("Plotly.newPlot"));
 * ```
 */
export function figureHtml(fig: Figure, id: string): string {
  const height = typeof fig.layout.height === "number" ? fig.layout.height : 380;
  return `<div id="${id}" class="kit-plotly" style="width:100%;min-height:${height}px"></div>\n` +
    `<script type="text/javascript">(function(){var fig=${scriptJson(fig)};` +
    // A static image placed in the div (see withStaticImage) gives way to the live figure.
    `function draw(){var el=document.getElementById(${JSON.stringify(id)});el.innerHTML="";` +
    `window.Plotly.newPlot(el,fig.data,fig.layout,${JSON.stringify(PLOT_CONFIG)});}` +
    `if(window.Plotly&&!Array.isArray(window.__kitPlotly))draw();` +
    `else(window.__kitPlotly=window.__kitPlotly||[]).push(draw);})();</script>`;
}

/**
 * Puts a static PNG (base64) inside the figure's div of `html` (made by {@link figureHtml}).
 * Where scripts run, the figure replaces it; where they do not (an untrusted notebook in
 * JupyterLab or classic Notebook, a sanitizing viewer), the image stays.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { figureHtml, withStaticImage } from "./display.ts";
 * const html = withStaticImage(figureHtml({ data: [], layout: {} }, "f"), "iVBORw0K");
 * assert(html.includes('<img class="kit-static" src="data:image/png;base64,iVBORw0K"'));
 * ```
 */
export function withStaticImage(html: string, pngBase64: string, alt = "figure"): string {
  const div = /(<div id="[^"]*" class="kit-plotly"[^>]*>)(?:<img class="kit-static"[^>]*>)?<\/div>/;
  if (!div.test(html)) throw new KitError("no kit figure div in this HTML");
  const img = `<img class="kit-static" src="data:image/png;base64,${pngBase64}" ` +
    `alt="${alt.replaceAll('"', "&quot;").replaceAll("<", "&lt;")}" style="max-width:100%">`;
  return html.replace(div, (_m, open) => `${open}${img}</div>`);
}

/** Options of {@link figureBundle}. */
export interface BundleOptions {
  /** Embed plotly.js in the HTML (default: only for the session's first figure). */
  includeLibrary?: boolean;
  /** Element id of the figure's div (default: a fresh random one). */
  id?: string;
}

/**
 * The MIME bundle of a figure. Without `includeLibrary`, plotly.js is embedded the first
 * time this is called in a process (a kernel session) and not again.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { figureBundle, PLOTLY_MIME } from "./display.ts";
 * const fig = { data: [{ type: "bar", x: ["a"], y: [1] }], layout: {} };
 * const b = figureBundle(fig, { includeLibrary: false });
 * assert(PLOTLY_MIME in b && "text/html" in b && "text/plain" in b);
 * ```
 */
export function figureBundle(fig: Figure, options: BundleOptions = {}): MimeBundle {
  const includeLibrary = options.includeLibrary ?? !libraryEmitted;
  if (includeLibrary) libraryEmitted = true;
  const id = options.id ?? `kit-fig-${crypto.randomUUID()}`;
  return {
    [PLOTLY_MIME]: { data: fig.data, layout: fig.layout, config: PLOT_CONFIG },
    "text/html": (includeLibrary ? libraryScript() : "") + figureHtml(fig, id),
    "text/plain": describeFigure(fig),
  };
}

/**
 * Makes the next displayed figure embed plotly.js again. Needed only when the output that
 * carried the library is gone (e.g. its cell was cleared in classic Notebook and the page
 * reloaded), so later figures would find no plotly.js.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { display, embedLibraryAgain } from "./display.ts";
 * embedLibraryAgain();
 * const html = display({ data: [], layout: {} })[Symbol.for("Jupyter.display")]()["text/html"];
 * assert(String(html).includes("plotly.js v"));
 * ```
 */
export function embedLibraryAgain(): void {
  libraryEmitted = false;
}

/** Something the Deno kernel displays through its `Jupyter.display` protocol. */
export interface Displayable {
  /** Returns the MIME bundle the kernel sends to the frontend. */
  [key: symbol]: () => MimeBundle;
}

/**
 * Makes a figure display itself when it is a cell's value: `display(histogram(...))` as
 * the last line of a cell shows the plot. Several figures in one cell:
 * `await Deno.jupyter.display(display(fig))` for each.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { display } from "./display.ts";
 * const shown = display({ data: [{ type: "bar", x: ["a"], y: [1] }], layout: {} });
 * const bundle = shown[Symbol.for("Jupyter.display")]();
 * assert("application/vnd.plotly.v1+json" in bundle);
 * ```
 */
export function display(fig: Figure | Displayable): Displayable {
  // A table or headline is displayable already (the notebooks helper's `display` takes both).
  if (typeof (fig as Displayable)[Symbol.for("Jupyter.display")] === "function") {
    return fig as Displayable;
  }
  let bundle: MimeBundle | undefined;
  return {
    // The bundle is built once, so redisplaying the same value keeps one library copy.
    [Symbol.for("Jupyter.display")]: () => bundle ??= figureBundle(fig as Figure),
  };
}
