/**
 * The MIME bundle of a figure, which every frontend can use:
 *
 * - `application/vnd.plotly.v1+json`: the figure itself; JupyterLab (with its Plotly
 *   renderer) and VS Code draw it interactively with their own plotly.js.
 * - `text/html`: a `<div>` and a script calling `Plotly.newPlot`, for classic Notebook and
 *   HTML exports. plotly.js is embedded (inline, offline) only in the figures `show.ts`
 *   picks (one per page in practice); the others wait for it. Until a figure is drawn its
 *   div holds a short note, so a viewer that runs no scripts (an untrusted notebook) or a
 *   page without plotly.js says why instead of showing an empty box.
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
import { PLOTLY_VERSION, type PlotlyBundle, plotlyJsSource } from "./plotlyjs.ts";
import { escapeHtml, scriptJson } from "../io/escape.ts";

/** The Plotly MIME type (JupyterLab, VS Code). */
export const PLOTLY_MIME = "application/vnd.plotly.v1+json";

/** A Jupyter MIME bundle: MIME type to content. */
export type MimeBundle = Record<string, unknown>;

/** Plotly's interactive options used for every figure. */
export const PLOT_CONFIG = { responsive: true, displaylogo: false } as const;

/** What a figure's div says until it is drawn (seen where scripts do not run). */
export const NOTE_NO_SCRIPTS = "Interactive figure (plotly.js). Not drawn? This viewer did " +
  "not run the notebook's scripts: trust the notebook (classic Notebook: File > Trust " +
  "Notebook), or open its HTML export.";

/** What it says when scripts run but no plotly.js reached the page. */
export const NOTE_NO_LIBRARY = "plotly.js is not on this page, so this figure cannot be " +
  "drawn: run its cell again (the kit then embeds plotly.js), or open the HTML export.";

/** The comment that opens every embedded copy of plotly.js (count it to count copies). */
export const LIBRARY_MARK = `/* plotly.js ${PLOTLY_VERSION}, embedded by the kit */`;

/** How long a figure waits for plotly.js before saying it is missing. */
const LIBRARY_WAIT_MS = 8000;

/**
 * The one-line text form of a figure.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeFigure } from "./display.ts";
 * const text = describeFigure({ data: [{ type: "bar", name: "s", y: [1, 2] }], layout: { title: { text: "T" } } });
 * assert.equal(text, `Figure "T": bar 's' (2 points)`);
 * ```
 */
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
 * Figures queue themselves on `window.__kitPlotly` until the library is there. A second
 * copy on the same page (a cell run again) is skipped, so figures keep one Plotly. `bundle`:
 * which of plotly's bundles (`display` embeds the full one; the report may put a smaller one in
 * its place, lib/report/build/static_images.ts).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LIBRARY_MARK, libraryScript } from "./display.ts";
 * const s = libraryScript();
 * assert(s.startsWith(`<script type="text/javascript">${LIBRARY_MARK}`) && s.includes("if(!window.Plotly)"));
 * ```
 */
export function libraryScript(bundle: PlotlyBundle = "full"): string {
  return `<script type="text/javascript">${LIBRARY_MARK}\n` +
    `if(!window.Plotly){\n${plotlyJsSource(bundle)}\n}\n` +
    `;(function(){var q=window.__kitPlotly;window.__kitPlotly={push:function(f){f();}};` +
    `if(Array.isArray(q))for(var i=0;i<q.length;i++)q[i]();})();</script>\n`;
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
  return `<div id="${escapeHtml(id)}" class="kit-plotly" ` +
    `style="width:100%;min-height:${height}px">` +
    `<p class="kit-note" style="color:#666;font-size:13px">${escapeHtml(NOTE_NO_SCRIPTS)}</p>` +
    `</div>\n<script type="text/javascript">(function(){var fig=${scriptJson(fig)};` +
    `var id=${scriptJson(id)};` +
    // The note (or a static image placed by withStaticImage) gives way to the live figure.
    `function draw(){var el=document.getElementById(id);if(!el)return;el.innerHTML="";` +
    `window.Plotly.newPlot(el,fig.data,fig.layout,${JSON.stringify(PLOT_CONFIG)});}` +
    `if(window.Plotly&&!Array.isArray(window.__kitPlotly))draw();` +
    `else{(window.__kitPlotly=window.__kitPlotly||[]).push(draw);` +
    // Scripts run but no plotly.js came: say so instead of leaving an empty box.
    `setTimeout(function(){var n=window.Plotly?null:document.querySelector("#"+id+" .kit-note");` +
    `if(n)n.textContent=${scriptJson(NOTE_NO_LIBRARY)};},${LIBRARY_WAIT_MS});}})();</script>`;
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
  // The div's content is the note or an earlier image; neither contains a div.
  const div = /(<div id="[^"]*" class="kit-plotly"[^>]*>)[\s\S]*?<\/div>/;
  if (!div.test(html)) throw new KitError("no kit figure div in this HTML");
  const img = `<img class="kit-static" src="data:image/png;base64,${pngBase64}" ` +
    `alt="${escapeHtml(alt)}" style="max-width:100%">`;
  return html.replace(div, (_m, open) => `${open}${img}</div>`);
}

/** Options of {@link figureBundle}. */
export interface BundleOptions {
  /** Embed plotly.js in the HTML (default false; `display` decides when it is needed). */
  includeLibrary?: boolean;
  /** Element id of the figure's div (default: {@link figureId} of the next ordinal). */
  id?: string;
}

/** Figures this process (a notebook's kernel) has given an id: the ordinal of the next. */
let figuresMade = 0;

/** The notebook a kernel runs, as the report's runner names it (`KIT_NOTEBOOK`), or "". */
function notebookName(): string {
  try {
    return Deno.env.get("KIT_NOTEBOOK") ?? "";
  } catch {
    return ""; // no permission to read the environment
  }
}

/**
 * A figure's element id, `kit-fig-<ordinal>-<hash>`: the figure's ordinal in its kernel's run
 * (unique within a page: two figures of one run never share it, the same figure shown twice
 * included) and 53 bits of a hash of the notebook's name and the figure's JSON (unique across
 * the report's pages, were two pages ever put in one). Not random, so that a notebook run
 * twice gives the same bytes (`--rebuild` reproduces a report's pages byte for byte).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { figureId } from "./display.ts";
 * const fig = { data: [{ type: "bar", y: [1, 2] }], layout: {} };
 * assert.equal(figureId(fig, 1, "01-datasets"), figureId(fig, 1, "01-datasets"));
 * assert.match(figureId(fig, 1, "01-datasets"), /^kit-fig-1-[0-9a-z]{1,11}$/);
 * assert.notEqual(figureId(fig, 2, "01-datasets"), figureId(fig, 1, "01-datasets"));
 * assert.notEqual(figureId(fig, 1, "02-filters"), figureId(fig, 1, "01-datasets"));
 * ```
 */
export function figureId(fig: Figure, ordinal: number, notebook: string): string {
  // cyrb53: two 32-bit lanes over the UTF-16 code units, mixed into 53 bits.
  const text = `${notebook}\0${JSON.stringify(fig)}`;
  let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hash = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return `kit-fig-${ordinal}-${hash.toString(36)}`;
}

/**
 * The MIME bundle of a figure.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { figureBundle, PLOTLY_MIME } from "./display.ts";
 * const fig = { data: [{ type: "bar", x: ["a"], y: [1] }], layout: {} };
 * const b = figureBundle(fig);
 * assert(PLOTLY_MIME in b && "text/html" in b && "text/plain" in b);
 * assert(!String(b["text/html"]).includes("plotly.js v"));
 * ```
 */
export function figureBundle(fig: Figure, options: BundleOptions = {}): MimeBundle {
  const id = options.id ?? figureId(fig, ++figuresMade, notebookName());
  return {
    [PLOTLY_MIME]: { data: fig.data, layout: fig.layout, config: PLOT_CONFIG },
    "text/html": (options.includeLibrary ? libraryScript() : "") + figureHtml(fig, id),
    "text/plain": describeFigure(fig),
  };
}

/** Something the Deno kernel displays through its `Jupyter.display` protocol. */
export interface Displayable {
  /** Returns the MIME bundle the kernel sends to the frontend. */
  [key: symbol]: () => MimeBundle;
}

/** The key of the display protocol. */
export const DISPLAY = Symbol.for("Jupyter.display");

/**
 * Whether a value is a figure (`{data, layout}`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isFigure } from "./display.ts";
 * assert(isFigure({ data: [], layout: {} }) && !isFigure({ data: [] }));
 * ```
 */
export function isFigure(value: unknown): value is Figure {
  const v = value as Figure;
  return typeof v === "object" && v !== null && Array.isArray(v.data) &&
    typeof v.layout === "object" && v.layout !== null;
}
