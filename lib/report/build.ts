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
 * index.html            links + headline numbers (the user's systems first)
 * report.pdf            index and every notebook
 * html/NN-name.html     one page per notebook
 * notebooks/NN-name.ipynb  executed notebooks (with PNG fallbacks for figures)
 * screenshots/*.png     full-page screenshots from the checks
 * summary.json          timings, sizes, check results, the user's systems
 * per-question.csv|json with systems: every system's per-question values
 * runs/*.run            with --model: the runs the kit scored
 * ```
 *
 * The report is built in a new folder beside the old one (`workspace.ts`) and takes its
 * place only when complete and checked: a failing cell, a failed check or Ctrl-C leaves the
 * previous report whole. Notebook `00-your-systems` runs only when systems are given.
 *
 * @module
 */
import { makeKitTempDir } from "../io/temp.ts";
import { KitError } from "../errors.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { lockOutput } from "../io/lock.ts";
import { PROJECT_ROOT } from "../data/paths.ts";
import { runFromScores, writeRun } from "../metrics/mod.ts";
import { PROTOCOL_MEASURES } from "../metrics/protocol_measures.ts";
import { scoreSplit } from "../scoring/pipeline.ts";
import type { BackendChoice } from "../scoring/model/session_types.ts";
import { chooseBackend } from "../scoring/model/backend.ts";
import { launchBrowser } from "./browser.ts";
import { checkPage, checkPdf, type PageCheck, pageProblems, type PdfCheck } from "./check.ts";
import {
  executeNotebook,
  type ExecutionResult,
  jupyterVersions,
  type NotebookParams,
} from "./execute.ts";
import { exportHtml, notebookTitle } from "./export.ts";
import { type Headline, headlinesOf } from "./headline.ts";
import { indexHtml, type IndexSystem } from "./index_page.ts";
import {
  type ExportedDifference,
  readExport,
  summarySystems,
  type SystemsExport,
  writeExportFiles,
} from "./systems_export.ts";
import { checkSpec, type UserSystemsSpec } from "./user_systems.ts";
import { corpusDir } from "./params.ts";
import {
  loadSystemsSplit,
  readCheckedRun,
  readCheckedRuns,
  readQrcdInputs,
} from "./systems_input.ts";
import {
  checkInputsOutside,
  checkReplaceable,
  failedBuild,
  openWorkspace,
  relocate,
  REPORT_MARKER,
  reportFolder,
  type Workspace,
  writeMarker,
} from "./workspace.ts";
import { carryForeign, plannedKinds } from "./foreign.ts";
import { unitePdfs } from "./pdf.ts";
import {
  addStaticImages,
  figureRenderer,
  type NotebookJson,
  plotlyOutputs,
} from "./static_images.ts";

/** Options of {@link buildReport}. */
export interface ReportOptions {
  /**
   * Notebook parameters. `params.systems` (the user's systems; their `--model` entries have
   * a `model` and no runs yet) adds notebook `00-your-systems` and the per-question exports.
   */
  params: NotebookParams;
  /** Folder with the `NN-name.ipynb` notebooks (default `notebooks/`). */
  notebooksDir?: string;
  /**
   * Output folder (default `reports/<data>`). A folder that exists is replaced only when it
   * is empty or a report the kit made (it holds `.kit-report`) holding only what the report
   * wrote, or with `force`. Files the report did not write are never deleted: they are
   * carried over into the new report.
   */
  outDir?: string;
  /**
   * Replace an existing output folder that holds files the report did not write (or no
   * `.kit-report`): only what the report wrote is replaced, the rest is kept.
   */
  force?: boolean;
  /** Only the notebooks whose names start with one of these (e.g. `01`). */
  only?: string[];
  /** Print the PDF (default true). */
  pdf?: boolean;
  /** Show the code of `00-your-systems` in its page (default: hidden, the page reads as a report). */
  showCode?: boolean;
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
  /**
   * What the pages were made and checked with: Chromium (the browser's own version string),
   * Deno, and the Jupyter packages (`jupyterVersions`).
   */
  versions: { chromium: string; deno: string; jupyter: Record<string, string> };
  /** The user's systems (summary.json `systems`), when given. */
  systems?: Record<string, unknown>[];
  /**
   * Every pair of systems on every measure: the difference with its paired bootstrap interval
   * and p (summary.json `differences`), when systems are given.
   */
  differences?: ExportedDifference[];
  /** Wall time of the whole build, seconds. */
  seconds: number;
}

/** The notebook about the user's systems, run only when systems are given. */
export const SYSTEMS_NOTEBOOK = "00-your-systems.ipynb";

/**
 * The notebooks of a folder, `NN-name.ipynb`, in order; `00-your-systems` only `withSystems`;
 * `only`: those whose name starts with one of these (each must match one: an error names it).
 */
export function listNotebooks(
  dir: string,
  only: readonly string[] = [],
  withSystems = false,
): string[] {
  const all = [...Deno.readDirSync(dir)]
    .filter((e) => e.isFile && /^\d\d-.+\.ipynb$/.test(e.name))
    .map((e) => e.name)
    .sort();
  const built = all.filter((n) => withSystems || n !== SYSTEMS_NOTEBOOK);
  const hint = " (00 needs systems: --run, --model or --qrcd-run)";
  for (const o of only) {
    if (built.some((n) => n.startsWith(o))) continue;
    const known = built.map((n) => n.slice(0, 2)).join(", ");
    throw new KitError(
      `--only ${o} matches no notebook${all.some((n) => n.startsWith(o)) ? hint : ""}` +
        (known ? ` (the notebooks: ${known})` : ""),
      { file: dir },
    );
  }
  const names = built.filter((n) => only.length === 0 || only.some((o) => n.startsWith(o)));
  if (names.length === 0) {
    throw new KitError("no notebooks (NN-name.ipynb) found", { file: dir });
  }
  return names;
}

export { REPORT_MARKER };

/** A file-name-safe form of a system name (the name itself stays in the report's texts). */
function fileSafe(name: string, i: number): string {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._]+/, "").slice(0, 60);
  return `${String(i + 1).padStart(2, "0")}-${safe || "system"}`;
}

/**
 * Reads and checks every input of the systems report before any notebook starts (a malformed
 * run, a QRCD run the checker refuses, a run sharing no question with the split: one message
 * naming the file), says on stderr what was mapped and every protocol warning, scores the
 * `--model` systems on the same corpus the notebook evaluates on and checks their runs like any
 * other; writes the spec, every system's run files filled in, to `specFile` for notebook 00.
 */
async function prepareSystems(
  spec: UserSystemsSpec,
  data: NotebookParams["data"],
  outDir: string,
  specFile: string,
  backend: string | undefined,
  log: (line: string) => void,
): Promise<UserSystemsSpec> {
  // One corpus per report: the checks, the models' scoring and the notebook read one folder.
  const dir = corpusDir({ data, backend: "auto" }, spec.dataset);
  const split = await loadSystemsSplit(spec, dir);
  const given = spec.systems.filter((s) => !s.model);
  await readCheckedRuns({ ...spec, systems: given }, split, log);
  if (spec.qrcd?.runs.length) {
    await readQrcdInputs(spec, corpusDir({ data, backend: "auto" }, "qrcd"), log);
  }
  const systems = [];
  if (spec.systems.some((s) => s.model && !s.model.startsWith("lexical:"))) {
    log((await chooseBackend((backend ?? "auto") as BackendChoice)).line);
  }
  for (const [i, s] of spec.systems.entries()) {
    if (!s.model) {
      systems.push(s);
      continue;
    }
    const t0 = performance.now();
    const scored = await scoreSplit(s.model, spec.dataset, spec.split, {
      filter: spec.filter,
      backend: backend as BackendChoice | undefined,
      dir,
    });
    const path = `${outDir}/runs/${fileSafe(s.name, i)}.run`;
    await writeRun(path, runFromScores(scored.questions, scored.scores), {
      runId: scored.scorerId.replace(/[^\w.:-]+/g, "_"),
    });
    log(
      `scored ${s.model} on ${spec.dataset} ${spec.split} (${spec.filter}, ${dir}) in ${
        ((performance.now() - t0) / 1000).toFixed(1)
      } s: ${path}`,
    );
    const checked = await readCheckedRun(path, spec, split);
    for (const w of checked.warnings) {
      log(`system ${JSON.stringify(s.name)}: protocol warning: ${w}`);
    }
    systems.push({ ...s, runs: [path] });
  }
  const prepared = checkSpec({ ...spec, systems, out: outDir });
  await writeFileAtomic(specFile, JSON.stringify(prepared, null, 1) + "\n", { force: true });
  return prepared;
}

/**
 * Builds the report; throws a `KitError` when a cell fails or a check finds a problem (the
 * previous report at `outDir` is then left as it was).
 */
export async function buildReport(options: ReportOptions): Promise<ReportResult> {
  const log = options.log ?? ((s: string) => console.error(s));
  const srcDir = options.notebooksDir ?? `${PROJECT_ROOT}/notebooks`;
  const outDir = await reportFolder(
    options.outDir ?? `${PROJECT_ROOT}/reports/${options.params.data}`,
  );
  const names = listNotebooks(srcDir, options.only, options.params.systems !== undefined);
  await checkInputsOutside(outDir, reportInputs(options.params));
  // One report per folder at a time: a second one to the same folder is refused.
  const lock = await lockOutput(outDir, "report");
  try {
    return await buildLocked(outDir, srcDir, names, options, log);
  } finally {
    lock.release();
  }
}

/** {@link buildReport} once it holds the report folder's lock. */
async function buildLocked(
  outDir: string,
  srcDir: string,
  names: string[],
  options: ReportOptions,
  log: (line: string) => void,
): Promise<ReportResult> {
  await checkReplaceable(
    outDir,
    options.force ?? false,
    plannedKinds(plannedFiles(names, options)),
  );
  const ws = await openWorkspace(outDir, { log });
  let result: ReportResult;
  try {
    result = relocate(await buildInto(ws, srcDir, names, options, log), ws.dir, outDir);
    await writeMarker(ws.dir);
    // The files the report did not write go on in the new report (the old one is only read).
    const carried = await carryForeign(outDir, ws.dir);
    if (carried.length) log(`kept ${carried.length} file(s) the report did not write`);
  } catch (e) {
    throw failedBuild(ws, e, log);
  }
  let kept: string | undefined;
  try {
    kept = ws.swapIn();
  } catch (e) {
    ws.discard(); // the finished report, its temporary folders and the signal handlers
    throw e;
  }
  if (kept) {
    log(
      `the previous report is kept in ${kept}/: files the report did not write arrived there ` +
        "during the build and could not be moved into the new one",
    );
  }
  return result;
}

/**
 * The files a report of these notebooks will write (relative paths): what a file the report
 * did not write must not sit at (checked again, exactly, when it is carried over).
 */
function plannedFiles(names: readonly string[], options: ReportOptions): string[] {
  const files = ["index.html", "summary.json", "screenshots/index.png"];
  if (options.pdf !== false) files.push("report.pdf");
  for (const file of names) {
    const name = file.replace(/\.ipynb$/, "");
    files.push(`html/${name}.html`, `notebooks/${file}`, `screenshots/${name}.png`);
  }
  const spec = options.params.systems;
  if (spec) {
    files.push("per-question.csv", "per-question.json");
    if (spec.systems.length) files.push("pair-differences.csv");
    if (spec.qrcd) files.push("per-record-qrcd.csv");
    spec.systems.forEach((s, i) => s.model && files.push(`runs/${fileSafe(s.name, i)}.run`));
  }
  return files;
}

/** The files and folders the user gave the report (runs, QRCD runs and gold, model folders). */
function reportInputs(params: NotebookParams): { label: string; path: string }[] {
  const spec = params.systems;
  const inputs: { label: string; path: string }[] = [];
  for (const s of spec?.systems ?? []) {
    for (const run of s.runs) inputs.push({ label: `--run ${s.name}`, path: run });
    if (s.model?.startsWith("/")) inputs.push({ label: `--model ${s.name}`, path: s.model });
  }
  for (const r of spec?.qrcd?.runs ?? []) {
    inputs.push({ label: `--qrcd-run ${r.name}`, path: r.path });
  }
  if (spec?.qrcd?.gold.startsWith("/")) inputs.push({ label: "--qrcd-gold", path: spec.qrcd.gold });
  if (params.model) inputs.push({ label: "--model", path: params.model });
  return inputs;
}

/** The build itself, written into the workspace `ws.dir`. */
async function buildInto(
  ws: Workspace,
  srcDir: string,
  names: string[],
  options: ReportOptions,
  log: (line: string) => void,
): Promise<ReportResult> {
  const started = performance.now();
  const dir = ws.dir;
  for (const sub of ["notebooks", "html", "screenshots"]) {
    await Deno.mkdir(`${dir}/${sub}`, { recursive: true });
  }
  const runtimeDir = await makeKitTempDir("kit-runtime-");
  const partsDir = await makeKitTempDir("kit-pdf-parts-");
  ws.also.push(runtimeDir, partsDir);
  const specFile = `${partsDir}/systems.json`;
  const systems = options.params.systems &&
    await prepareSystems(
      options.params.systems,
      options.params.data,
      dir,
      specFile,
      options.params.backend,
      log,
    );
  const params = { ...options.params, ...(systems ? { systems, systemsFile: specFile } : {}) };
  // Said once the inputs are checked, and only when a model runs on a backend (a refusal stays
  // one line; a lexical model or a report of given runs has no backend to speak of).
  if (names.some((n) => n.startsWith("03-"))) {
    log((await chooseBackend((options.params.backend ?? "auto") as BackendChoice)).line);
  }

  const pdfPart = (i: number) =>
    options.pdf === false ? undefined : `${partsDir}/${String(i).padStart(3, "0")}.pdf`;
  const session = await launchBrowser();
  try {
    const entries: NotebookEntry[] = [];
    let exported: SystemsExport | undefined;
    const renderer = await figureRenderer(session);
    /** Static images, HTML export, browser check and PDF part of one executed notebook. */
    const finish = async (name: string, result: ExecutionResult) => {
      const nb = JSON.parse(await Deno.readTextFile(result.output)) as NotebookJson;
      const figures = await addStaticImages(nb, renderer);
      await writeFileAtomic(result.output, JSON.stringify(nb, null, 1) + "\n", { force: true });
      const html = `${dir}/html/${name}.html`;
      await exportHtml(result.output, html, {
        hideCode: `${name}.ipynb` === SYSTEMS_NOTEBOOK && !options.showCode,
      });
      log(`exported ${name}.html (${figures} figures)`);
      const check = await checkPage(
        session,
        html,
        `${dir}/screenshots/${name}.png`,
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
        headlines: headlinesOf(nb),
        bytes: { ipynb: (await Deno.stat(result.output)).size, html: (await Deno.stat(html)).size },
        check,
      });
    };
    // A pipeline: notebook i is exported and checked (Chromium, nbconvert) while notebook i + 1
    // runs in its kernel, so the two cores work at once. Notebooks still run one at a time:
    // two kernels started together sometimes got their messages crossed (jupyter_client
    // "Invalid Signature").
    let finishing: Promise<void> = Promise.resolve();
    let failed: { error: unknown } | undefined;
    for (const file of names) {
      if (failed) break;
      const name = file.replace(/\.ipynb$/, "");
      log(`executing ${file} ...`);
      let result: ExecutionResult;
      try {
        result = await executeNotebook(
          `${srcDir}/${file}`,
          `${dir}/notebooks/${file}`,
          params,
          { runtimeDir },
        );
      } catch (e) {
        await finishing;
        throw e;
      }
      log(`  ${file}: ${result.cells} cells in ${result.seconds.toFixed(1)} s`);
      finishing = finishing.then(() => finish(name, result)).catch((error) => {
        failed ??= { error };
      });
    }
    await finishing;
    if (failed) throw failed.error;
    // The files notebook 00 wrote into the report's folder (its spec's `out`), paths moved
    // to where the report will be.
    if (systems && names.includes(SYSTEMS_NOTEBOOK)) {
      exported = await readExport(dir);
      if (!exported) {
        throw new KitError(`${SYSTEMS_NOTEBOOK} wrote no per-question values (its last cells)`);
      }
      exported = relocate(exported, dir, ws.outDir);
      await writeExportFiles(exported, dir);
    }

    await renderer.close();
    const index = `${dir}/index.html`;
    const pdf = options.pdf === false ? undefined : `${dir}/report.pdf`;
    const { systems: _, systemsFile: _file, ...shownParams } = params;
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
          params: { ...shownParams },
          pdf: pdf ? "report.pdf" : undefined,
          generated: new Date().toISOString(),
          ...(exported ? { systems: indexSystems(exported) } : {}),
        },
      ),
      { force: true },
    );
    const indexCheck = await checkPage(
      session,
      index,
      `${dir}/screenshots/index.png`,
      60_000,
      pdfPart(0),
    );

    let pdfCheck: ReportResult["pdfCheck"];
    if (pdf) {
      await unitePdfs(Array.from({ length: entries.length + 1 }, (_, i) => pdfPart(i)!), pdf);
      pdfCheck = { ...(await checkPdf(pdf)), bytes: (await Deno.stat(pdf)).size };
    }

    const result: ReportResult = {
      versions: {
        chromium: session.browser.version(),
        deno: Deno.version.deno,
        jupyter: await jupyterVersions(),
      },
      outDir: ws.outDir,
      index,
      pdf,
      notebooks: entries,
      indexCheck,
      pdfCheck,
      ...(exported ? { systems: summarySystems(exported), differences: exported.differences } : {}),
      seconds: (performance.now() - started) / 1000,
    };
    await writeFileAtomic(
      `${dir}/summary.json`,
      JSON.stringify(
        relocate(
          { ...result, pdfCheck: pdfCheck && { ...pdfCheck, text: undefined } },
          dir,
          ws.outDir,
        ),
        null,
        2,
      ) + "\n",
      { force: true },
    );

    const problems = [indexCheck, ...entries.map((e) => e.check)].flatMap((c) =>
      pageProblems(c).map((p) => `${c.page}: ${p}`)
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
  }
}

/** The user's systems as the index lists them (first, above the notebooks). */
function indexSystems(data: SystemsExport): IndexSystem[] {
  return [
    ...data.systems.filter((s) => s.kind === "user").map((s) => ({
      name: s.name,
      what:
        `${s.dataset} ${s.split} (${s.filter}), ${s.queries} questions, ${s.runs.length} run(s)`,
      numbers: Object.fromEntries(PROTOCOL_MEASURES.flatMap((m) => [
        [m.label, s[m.name]],
        ...(m.name === "map" && s.map_sd !== undefined ? [["MAP sd", s.map_sd]] : []),
      ])),
    })),
    ...data.qrcd.filter((r) => r.kind === "user").map((r) => ({
      name: r.name,
      what: `QRCD ${r.gold}, ${r.records} records`,
      numbers: { pRR: r.pRR, EM: r.exact_match, "F1@1": r.f1_at_1 },
    })),
  ];
}
