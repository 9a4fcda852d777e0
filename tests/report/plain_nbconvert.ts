/**
 * Running a notebook the way a user does, with plain `jupyter nbconvert --execute` (no kit
 * runner in between), and checking what came out against the kit's own runner: the same
 * number of outputs in every code cell, every figure drawn when the exported page is opened
 * in Chromium, plotly.js in the page once. The Deno kernel can report a cell finished
 * before its outputs; plain nbconvert then drops them without a word, so this check is
 * what shows that `display` (which waits until an output has left the kernel) works.
 *
 * `tools/nbconvert_repeat.ts` repeats it over every notebook; the test suite runs it once.
 *
 * @module
 */
import { KitError } from "../../lib/errors.ts";
import { LIBRARY_MARK } from "../../lib/plot/display.ts";
import { type BrowserSession, offlinePage, type PageLog } from "../../lib/report/check/browser.ts";
import { type FigureCheck, openAndDraw } from "../../lib/report/check/check.ts";
import { type NotebookParams, paramsEnv, withRuntimeDir } from "../../lib/report/build/execute.ts";

/** What one plain nbconvert execution gave. */
export interface PlainRun {
  /** The file nbconvert wrote. */
  file: string;
  /** Wall time of the command, seconds. */
  seconds: number;
}

/** Where and how {@link runPlainNbconvert} starts the command, as a user's shell would. */
export interface PlainRunOptions {
  /** The folder the command is typed in (default: this process's). */
  cwd?: string;
  /** More environment variables (`""` unsets one for the notebook). */
  env?: Record<string, string>;
}

/**
 * Runs `jupyter nbconvert --to <to> --execute <input>` into `outDir` with the notebook
 * parameters in the environment, as a user would type it. Throws on a non-zero exit.
 *
 * @example
 * ```ts ignore
 * import { runPlainNbconvert } from "./plain_nbconvert.ts";
 * const run = await runPlainNbconvert("notebooks/04-metrics.ipynb", "/tmp", { data: "sample" }, "html");
 * console.log(run.file, run.seconds);
 * ```
 */
export function runPlainNbconvert(
  input: string,
  outDir: string,
  params: NotebookParams,
  to: "notebook" | "html",
  options: PlainRunOptions = {},
): Promise<PlainRun> {
  return withRuntimeDir(undefined, async (runtimeDir) => {
    const env = { ...paramsEnv(params), ...options.env, XDG_RUNTIME_DIR: runtimeDir };
    return await runIn(input, outDir, to, options, env);
  });
}

async function runIn(
  input: string,
  outDir: string,
  to: "notebook" | "html",
  options: PlainRunOptions,
  env: Record<string, string>,
): Promise<PlainRun> {
  const name = input.replace(/^.*\//, "").replace(/\.ipynb$/, "");
  const started = performance.now();
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command("jupyter", {
      args: ["nbconvert", "--to", to, "--execute", input, "--output-dir", outDir, "--output", name],
      env,
      ...(options.cwd ? { cwd: options.cwd } : {}),
      stdout: "piped",
      stderr: "piped",
    }).output();
  } catch (e) {
    throw new KitError(`cannot run jupyter nbconvert: ${(e as Error).message}`);
  }
  if (!out.success) {
    throw new KitError(
      `jupyter nbconvert --execute failed (exit ${out.code}):\n${
        new TextDecoder().decode(out.stderr)
      }`,
      { file: input },
    );
  }
  return {
    file: `${outDir}/${name}.${to === "html" ? "html" : "ipynb"}`,
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * Outputs per code cell of an executed notebook (JSON text).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outputsPerCell } from "./plain_nbconvert.ts";
 * const stderr = { output_type: "stream", name: "stderr", text: "note\n" };
 * const nb = { cells: [{ cell_type: "markdown" }, { cell_type: "code", outputs: [{}, {}] },
 *   { cell_type: "code", outputs: [stderr, stderr, {}, stderr] }] };
 * // Two stderr writes in a row show as one output.
 * assert.deepEqual(outputsPerCell(JSON.stringify(nb)), [2, 3]);
 * ```
 */
export function outputsPerCell(notebookJson: string): number[] {
  type Output = { output_type?: string; name?: string };
  const nb = JSON.parse(notebookJson) as { cells: { cell_type: string; outputs?: Output[] }[] };
  // Consecutive writes to one stream are one output as Jupyter shows it: nbclient (and so plain
  // nbconvert) appends them to the previous stream output, the kit's runner keeps each message.
  const shown = (outputs: Output[]) =>
    outputs.filter((o, i) =>
      !(o.output_type === "stream" && outputs[i - 1]?.output_type === "stream" &&
        outputs[i - 1].name === o.name)
    ).length;
  return nb.cells.filter((c) => c.cell_type === "code").map((c) => shown(c.outputs ?? []));
}

/** Page script: outputs per code cell of an nbconvert HTML export (JupyterLab classes). */
const HTML_OUTPUTS_PER_CELL = `[...document.querySelectorAll(".jp-CodeCell")]
  .map((c) => c.querySelectorAll(".jp-OutputArea-child").length)`;

/** What opening a plain nbconvert HTML export in Chromium showed. */
export interface HtmlExportCheck {
  /** Outputs per code cell on the page. */
  outputsPerCell: number[];
  /** Each figure: drawn or not. */
  figures: FigureCheck[];
  /** What the page logged: script errors, refused network requests, failed local loads. */
  log: PageLog;
  /** Copies of plotly.js in the file. */
  libraryCopies: number;
}

/**
 * Opens a plain nbconvert HTML export offline and reads its outputs and figures.
 *
 * @example
 * ```ts ignore
 * import { launchBrowser } from "../../lib/report/check/browser.ts";
 * import { checkHtmlExport } from "./plain_nbconvert.ts";
 * const session = await launchBrowser();
 * const check = await checkHtmlExport(session, "/tmp/04-metrics.html");
 * console.log(check.outputsPerCell, check.figures.every((f) => f.svg));
 * await session.close();
 * ```
 */
export async function checkHtmlExport(
  session: BrowserSession,
  html: string,
  timeoutMs = 120_000,
): Promise<HtmlExportCheck> {
  const { page, log } = await offlinePage(session);
  try {
    const figures = await openAndDraw(page, html, timeoutMs);
    return {
      outputsPerCell: await page.evaluate(HTML_OUTPUTS_PER_CELL) as number[],
      figures,
      log,
      libraryCopies: (await Deno.readTextFile(html)).split(LIBRARY_MARK).length - 1,
    };
  } finally {
    await page.close();
  }
}
