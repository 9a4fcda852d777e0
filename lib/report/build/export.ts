/**
 * Exporting an executed notebook to one self-contained, offline HTML page with nbconvert
 * (served: nbconvert.ts) and the kit's template (`templates/kit`: JupyterLab's look without RequireJS and MathJax
 * links, plus print CSS), then KaTeX for the formulas (`maths.ts`, inline). plotly.js is
 * already inline in the first figure's output, so the page carries it exactly once and needs
 * no network.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import { isDiskFull } from "../../io/atomic.ts";
import { nbconvert, type NbconvertResult, notebookArgument } from "./nbconvert.ts";
import { addMaths } from "./maths.ts";

/** The folder holding the kit's nbconvert templates. */
export const TEMPLATES_DIR = new URL("./templates", import.meta.url).pathname;

/** Options of {@link exportHtml}. */
export interface ExportHtmlOptions {
  /** Leave the code cells' source out of the page (their outputs stay): a page read as a report. */
  hideCode?: boolean;
}

/**
 * nbconvert `--to <to>` with one of the kit's templates (`templates/`), `ipynb` written as
 * `dir/name.*`, `extra` options before the output's: the command line of the pages and the
 * slides. The notebook's path is escaped (nbconvert reads it as a glob pattern).
 */
export function convertWithTemplate(
  to: string,
  template: string,
  ipynb: string,
  dir: string,
  name: string,
  extra: readonly string[] = [],
): Promise<NbconvertResult> {
  return nbconvert([
    "--to",
    to,
    "--template",
    template,
    `--TemplateExporter.extra_template_basedirs=${TEMPLATES_DIR}`,
    ...extra,
    "--output-dir",
    dir,
    "--output",
    name,
    notebookArgument(ipynb),
  ]);
}

/**
 * Converts `ipynb` to `html` (a path ending in `.html`).
 */
export async function exportHtml(
  ipynb: string,
  html: string,
  options: ExportHtmlOptions = {},
): Promise<void> {
  const slash = html.lastIndexOf("/");
  const dir = slash < 0 ? "." : html.slice(0, slash);
  const name = html.slice(slash + 1).replace(/\.html$/, "");
  const hide = options.hideCode ? ["--TemplateExporter.exclude_input=True"] : [];
  const out = await convertWithTemplate("html", "kit", ipynb, dir, name, hide);
  if (!out.ok) {
    const stderr = out.stderr.trim();
    if (isDiskFull(stderr)) {
      // nbconvert writes the page in place: what it wrote is half a page.
      await Deno.remove(html).catch(() => {});
      throw new KitError(
        "could not write the page: the disk is full (No space left on device); nothing was kept",
        { file: html },
      );
    }
    throw new KitError(`nbconvert failed: ${stderr}`, { file: ipynb });
  }
  await addMaths(html);
}

/** The first Markdown heading of a notebook, or its file name. */
export function notebookTitle(
  nb: { cells: { cell_type: string; source: string | string[] }[] },
  fallback: string,
): string {
  for (const c of nb.cells) {
    if (c.cell_type !== "markdown") continue;
    const text = Array.isArray(c.source) ? c.source.join("") : c.source;
    const m = text.match(/^#+\s+(.+)$/m);
    if (m) return m[1].trim();
  }
  return fallback;
}
