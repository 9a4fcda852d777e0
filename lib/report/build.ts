/**
 * `deno task report`: execute every notebook headless with the given parameters, add
 * static images to their figures, export each to a self-contained offline HTML page,
 * write an index page with the headline numbers, print the whole report to one PDF, and
 * check the result in headless Chromium (figures drawn, no script errors, no network,
 * Arabic fonts) and with poppler (figures on the PDF's pages).
 *
 * Output (default `reports/<data>/`, replaced on each run):
 *
 * ```
 * index.html            links + headline numbers
 * report.pdf            index and every notebook
 * html/NN-name.html     one page per notebook
 * notebooks/NN-name.ipynb  executed notebooks (with PNG fallbacks for figures)
 * screenshots/*.png     full-page screenshots from the checks
 * summary.json          timings, sizes and check results
 * ```
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { PROJECT_ROOT } from "../data/paths.ts";
import { launchBrowser } from "./browser.ts";
import { checkPage, checkPdf, type PageCheck, pageOk, type PdfCheck } from "./check.ts";
import { executeNotebook, type NotebookParams } from "./execute.ts";
import { exportHtml, notebookTitle } from "./export.ts";
import { type Headline, headlinesOf } from "./headline.ts";
import { indexHtml } from "./index_page.ts";
import { unitePdfs } from "./pdf.ts";
import {
  addStaticImages,
  figureRenderer,
  type NotebookJson,
  plotlyOutputs,
} from "./static_images.ts";

/** Options of {@link buildReport}. */
export interface ReportOptions {
  /** Notebook parameters. */
  params: NotebookParams;
  /** Folder with the `NN-name.ipynb` notebooks (default `notebooks/`). */
  notebooksDir?: string;
  /**
   * Output folder (default `reports/<data>`). A folder that exists is replaced only when it
   * is a report the kit made (it holds `.kit-report`) or is empty, or with `force`.
   */
  outDir?: string;
  /** Replace an existing output folder that is not a kit report. */
  force?: boolean;
  /** Only the notebooks whose names start with one of these (e.g. `01`). */
  only?: string[];
  /** Print the PDF (default true). */
  pdf?: boolean;
  /** Progress lines (default: stderr). */
  log?: (line: string) => void;
}

/** One notebook in the report. */
export interface NotebookEntry {
  /** File name without extension, e.g. `01-datasets`. */
  name: string;
  /** First heading. */
  title: string;
  /** Executed notebook. */
  ipynb: string;
  /** Exported page. */
  html: string;
  /** Execution time, seconds. */
  seconds: number;
  /** Code cells run. */
  cells: number;
  /** Plotly figures in its outputs. */
  figures: number;
  /** Outputs the runner kept that arrived after the kernel said idle. */
  lateOutputs: number;
  /** Headline numbers. */
  headlines: Headline[];
  /** Sizes in bytes. */
  bytes: { ipynb: number; html: number };
  /** The browser check of its page. */
  check: PageCheck;
}

/** What {@link buildReport} made. */
export interface ReportResult {
  outDir: string;
  index: string;
  pdf?: string;
  notebooks: NotebookEntry[];
  indexCheck: PageCheck;
  pdfCheck?: PdfCheck & { bytes: number };
  /** Wall time of the whole build, seconds. */
  seconds: number;
}

/** The notebooks of a folder, `NN-name.ipynb`, in order. */
export function listNotebooks(dir: string, only: readonly string[] = []): string[] {
  const names = [...Deno.readDirSync(dir)]
    .filter((e) => e.isFile && /^\d\d-.+\.ipynb$/.test(e.name))
    .map((e) => e.name)
    .filter((n) => only.length === 0 || only.some((o) => n.startsWith(o)))
    .sort();
  if (names.length === 0) throw new KitError(`no notebooks (NN-name.ipynb) found`, { file: dir });
  return names;
}

function checkProblems(c: PageCheck): string[] {
  const p: string[] = [];
  for (const f of c.figures) {
    if (!f.svg || f.marks === 0) p.push(`figure ${f.id} not drawn`);
  }
  for (const e of c.pageErrors) p.push(`script error: ${e}`);
  for (const u of c.blockedRequests) p.push(`network request: ${u}`);
  for (const u of c.failedRequests) p.push(`failed to load: ${u}`);
  for (const f of c.arabicFonts) {
    if (!f.coversArabic) p.push(`Arabic text drawn with '${f.family}', which lacks Arabic`);
  }
  return p;
}

/** The file that marks a folder as a report the kit made (and may replace). */
export const REPORT_MARKER = ".kit-report";

/**
 * Refuses to replace a folder the kit did not make: the report's folder is deleted and
 * rebuilt, so `--out ~/somewhere` must not wipe a user's files.
 */
function checkReplaceable(dir: string, force: boolean): void {
  let entries: string[];
  try {
    entries = [...Deno.readDirSync(dir)].map((e) => e.name);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return;
    if (e instanceof Deno.errors.NotADirectory || /not a directory/i.test(String(e))) {
      throw new KitError("the report folder is a file; choose another --out", { file: dir });
    }
    throw e;
  }
  if (force || entries.length === 0 || entries.includes(REPORT_MARKER)) return;
  throw new KitError(
    "refusing to replace a folder that is not a report made by the kit (it has no " +
      `${REPORT_MARKER}); choose another --out or pass --force`,
    { file: dir },
  );
}

/** Builds the report; throws a `KitError` when a cell fails or a check finds a problem. */
export async function buildReport(options: ReportOptions): Promise<ReportResult> {
  const started = performance.now();
  const log = options.log ?? ((s: string) => console.error(s));
  const srcDir = options.notebooksDir ?? `${PROJECT_ROOT}/notebooks`;
  const outDir = options.outDir ?? `${PROJECT_ROOT}/reports/${options.params.data}`;
  const names = listNotebooks(srcDir, options.only);
  checkReplaceable(outDir, options.force ?? false);
  await Deno.remove(outDir, { recursive: true }).catch(() => {});
  for (const sub of ["notebooks", "html", "screenshots"]) {
    await Deno.mkdir(`${outDir}/${sub}`, { recursive: true });
  }
  await writeFileAtomic(`${outDir}/${REPORT_MARKER}`, "made by deno task report\n", {
    force: true,
  });

  // One notebook at a time: two kernels started together sometimes got their messages
  // crossed (jupyter_client "Invalid Signature"), and the time saved was ~20 s.
  const executed = await mapLimit(names, 1, async (file) => {
    const name = file.replace(/\.ipynb$/, "");
    log(`executing ${file} ...`);
    const result = await executeNotebook(
      `${srcDir}/${file}`,
      `${outDir}/notebooks/${file}`,
      options.params,
    );
    log(`  ${file}: ${result.cells} cells in ${result.seconds.toFixed(1)} s`);
    return { name, result };
  });

  const partsDir = await Deno.makeTempDir({ prefix: "kit-pdf-parts-" });
  const pdfPart = (i: number) =>
    options.pdf === false ? undefined : `${partsDir}/${String(i).padStart(3, "0")}.pdf`;
  const session = await launchBrowser();
  try {
    const entries: NotebookEntry[] = [];
    const renderer = await figureRenderer(session);
    for (const { name, result } of executed) {
      const nb = JSON.parse(await Deno.readTextFile(result.output)) as NotebookJson;
      const figures = await addStaticImages(nb, renderer);
      await writeFileAtomic(result.output, JSON.stringify(nb, null, 1) + "\n", { force: true });
      const html = `${outDir}/html/${name}.html`;
      await exportHtml(result.output, html);
      log(`exported ${name}.html (${figures} figures)`);
      const check = await checkPage(
        session,
        html,
        `${outDir}/screenshots/${name}.png`,
        60_000,
        pdfPart(entries.length + 1),
      );
      entries.push({
        name,
        title: notebookTitle(nb, name),
        ipynb: result.output,
        html,
        seconds: result.seconds,
        cells: result.cells,
        figures: plotlyOutputs(nb).length,
        lateOutputs: result.lateOutputs,
        headlines: headlinesOf(nb),
        bytes: { ipynb: (await Deno.stat(result.output)).size, html: (await Deno.stat(html)).size },
        check,
      });
    }

    await renderer.close();
    const index = `${outDir}/index.html`;
    const pdf = options.pdf === false ? undefined : `${outDir}/report.pdf`;
    await writeFileAtomic(
      index,
      indexHtml(
        entries.map((e) => ({
          title: e.title,
          html: `html/${e.name}.html`,
          ipynb: `notebooks/${e.name}.ipynb`,
          seconds: e.seconds,
          figures: e.figures,
          headlines: e.headlines,
        })),
        {
          params: { ...options.params },
          pdf: pdf ? "report.pdf" : undefined,
          generated: new Date().toISOString(),
        },
      ),
      { force: true },
    );
    const indexCheck = await checkPage(
      session,
      index,
      `${outDir}/screenshots/index.png`,
      60_000,
      pdfPart(0),
    );

    let pdfCheck: ReportResult["pdfCheck"];
    if (pdf) {
      await unitePdfs(Array.from({ length: entries.length + 1 }, (_, i) => pdfPart(i)!), pdf);
      pdfCheck = { ...(await checkPdf(pdf)), bytes: (await Deno.stat(pdf)).size };
    }

    const result: ReportResult = {
      outDir,
      index,
      pdf,
      notebooks: entries,
      indexCheck,
      pdfCheck,
      seconds: (performance.now() - started) / 1000,
    };
    await writeFileAtomic(
      `${outDir}/summary.json`,
      JSON.stringify(
        { ...result, pdfCheck: pdfCheck && { ...pdfCheck, text: undefined } },
        null,
        2,
      ) +
        "\n",
      { force: true },
    );

    const problems = [indexCheck, ...entries.map((e) => e.check)].flatMap((c) =>
      checkProblems(c).map((p) => `${c.page}: ${p}`)
    );
    const expectedFigures = entries.reduce((n, e) => n + e.figures, 0);
    if (pdfCheck && expectedFigures > 0 && pdfCheck.pagesWithFigures === 0) {
      problems.push(`${pdf}: no page shows a figure`);
    }
    if (problems.length) {
      throw new KitError(`report checks failed:\n  ${problems.join("\n  ")}`);
    }
    return result;
  } finally {
    await session.close();
    await Deno.remove(partsDir, { recursive: true }).catch(() => {});
  }
}

/**
 * Maps `items` with at most `limit` calls in flight; results in input order. After a failure
 * nothing new starts, the calls in flight finish, and the first error is thrown.
 */
async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !failure) {
      const i = next++;
      try {
        results[i] = await fn(items[i]);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
  return results;
}

/** Whether every page of a report passed its checks. */
export function reportOk(r: ReportResult): boolean {
  return pageOk(r.indexCheck) && r.notebooks.every((e) => pageOk(e.check));
}
