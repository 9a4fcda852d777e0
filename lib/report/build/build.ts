/**
 * `deno task report`: execute every notebook headless, add static images to their figures, export
 * each to an offline HTML page, write an index with the headline numbers, print one PDF, and check
 * it all in headless Chromium (figures drawn, no script errors, no network, Arabic fonts) and with
 * poppler (figures on the PDF's pages).
 *
 * Output (default `reports/<data>/`, replaced on each run):
 *
 * ```
 * index.html            links + headline numbers (the user's systems first)
 * report.pdf            index and every notebook
 * html/NN-name.html     one page per notebook (a lesson without its worked solutions)
 * slides/NN-name.html   the lessons as reveal.js slides (not 00-your-systems)
 * solutions/NN-name.html  a lesson's worked exercises (course.ts)
 * student/student-NN-name.ipynb  a lesson's student edition: no outputs, solutions or results
 * notebooks/NN-name.ipynb  executed notebooks (with PNG fallbacks for figures)
 * screenshots/*.png     full-page screenshots from the checks (slides-*.png: a deck's first slide)
 * summary.json          timings, sizes, check results, your systems (paths relative to the folder)
 * spec.json             with systems: what was asked (the spec evaluateSystems takes)
 * systems.json          with systems: every number of page 00, computed once (systems_report.ts)
 * per-question.csv      with systems: per-question values (and pair-differences.csv, each task part's)
 * runs/*.run            with --model: the runs the kit scored
 * ```
 *
 * The report is built in a new folder beside the old one (`workspace.ts`) and takes its
 * place only when complete and checked: a failing cell, a failed check or Ctrl-C leaves the
 * previous report whole. Given systems, the report is about them: page `00-your-systems`
 * alone (the lessons 01-12 with `lessons`); without, the lessons.
 *
 * @module
 */
import { makeKitTempDir } from "../../io/temp.ts";
import { KitError } from "../../errors.ts";
import { writeFileAtomic } from "../../io/atomic.ts";
import { lockOutput } from "../../io/lock.ts";
import { PROJECT_ROOT } from "../../data/paths.ts";
import type { BackendChoice } from "../../scoring/model/session_types.ts";
import { chooseBackend } from "../../scoring/model/backend.ts";
import { launchBrowser } from "../check/browser.ts";
import { checkPage, checkPdf, pageProblems } from "../check/check.ts";
import type { PageCheck, PdfCheck } from "../check/check.ts";
import {
  executeNotebook,
  type ExecutionResult,
  jupyterVersions,
  type NotebookParams,
} from "./execute.ts";
import { exportHtml, notebookTitle } from "./export.ts";
import { listNotebooks, SYSTEMS_NOTEBOOK, withoutStandaloneOrEmptySections } from "./notebooks.ts";
import { StageTimes } from "./timings.ts";
import { type Headline, headlinesOf } from "../notebook/headline.ts";
import { indexEntries, indexHtml, indexSystems, reportSubject } from "./index_page.ts";
import { evaluateSystems, type SystemsReport } from "../systems/report.ts";
import { type CourseResult, lessonCells, makeCourseFiles } from "./course.ts";
import { makeSyllabus } from "./course.ts";
import { lessonLength } from "./lessons.ts";
import { summarySystems, userText, writeSystemsFiles } from "../systems/files.ts";
import { differenceFigures } from "../systems/sections/significance.ts";
import type { ResolvedSpec } from "../systems/spec.ts";
import { reportParts } from "../../tasks/registry.ts";
import type { PartSpec } from "../../tasks/task.ts";
import {
  checkInputsOutside,
  checkReplaceable,
  failedBuild,
  openWorkspace,
  relocate,
  REPORT_MARKER,
  reportFolder,
  sweepLeftovers,
  type Workspace,
  writeMarker,
} from "./workspace.ts";
import { carryForeign, plannedKinds } from "./foreign.ts";
import { unitePdfs } from "./pdf.ts";
import { makeSlides, type SlidesCheck, slidesProblems } from "./slides.ts";
import type { SlidesResult } from "./slides.ts";
import {
  addStaticImages,
  figureRenderer,
  leanestLibrary,
  type NotebookJson,
} from "./static_images.ts";
import { bundleFor, type PlotlyBundle } from "../../plot/plotlyjs.ts";
import type { FigureRenderer } from "./static_images.ts";
import { plotlyOutputs, writeFigureFiles } from "./static_images.ts";
import { plannedFiles, withSlides } from "./planned.ts";
import { openCache, type ReportCache } from "./cache.ts";

/** Options of {@link buildReport}. */
export interface ReportOptions {
  /** Notebook parameters of the lessons (`KIT_DATA`, `KIT_MODEL`, `KIT_BACKEND`). */
  params: NotebookParams;
  /**
   * Your systems: the report is then page `00-your-systems` (with its index and PDF), its
   * numbers computed once by `evaluateSystems` and written beside it (`systems.json`, ...).
   */
  systems?: ResolvedSpec;
  /** With systems, the lessons (01-12) too. */
  lessons?: boolean;
  /** Folder with the `NN-name.ipynb` notebooks (default `notebooks/`). */
  notebooksDir?: string;
  /**
   * Output folder (default `reports/systems` for a report on your systems, else `reports/<data>`). A folder that exists is replaced only when it
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
  /** Export the lessons as slides (default true). */
  slides?: boolean;
  /** Show each slide's code folded (a `<details>`); by default the slides show no code. */
  slidesCode?: boolean;
  /** Show the code of `00-your-systems` in its page (default: hidden, the page reads as a report). */
  showCode?: boolean;
  /** Progress lines (default: stderr). */
  log?: (line: string) => void;
  /** Reuse nothing from the previous report's cache (cache.ts): build every notebook again. */
  rebuild?: boolean;
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
  /** Its slides and their check (lessons, unless slides are turned off). */
  slides?: SlidesResult & { check: SlidesCheck };
  /** A lesson's solutions page (checked), student edition and their problems (course.ts). */
  course?: CourseResult;
  /** A lesson's estimated class time (`lessonLength`), minutes. */
  minutes?: number;
}

/** What {@link buildReport} made. */
export interface ReportResult {
  outDir: string;
  index: string;
  pdf?: string;
  notebooks: NotebookEntry[];
  indexCheck: PageCheck;
  pdfCheck?: PdfCheck & { bytes: number };
  /** The course's syllabus page (`syllabus.html`), made with the lessons. */
  syllabus?: string;
  /**
   * What the pages were made and checked with: Chromium (the browser's own version string),
   * Deno, and the Jupyter packages (`jupyterVersions`).
   */
  versions: { chromium: string; deno: string; jupyter: Record<string, string> };
  /** Your systems (summary.json `systems`), when given. */
  systems?: Record<string, unknown>[];
  /**
   * The family of tests of your systems (summary.json `significance`): per measure and pair
   * the difference with its interval at the family's level, raw and adjusted p.
   */
  significance?: SystemsReport["family"];
  /** Where your systems were judged (summary.json `corpus`). */
  corpus?: SystemsReport["corpus"];
  /** Wall time of the whole build, seconds. */
  seconds: number;
}

export { REPORT_MARKER };
export { listNotebooks, SYSTEMS_NOTEBOOK, withoutStandaloneOrEmptySections };

/**
 * Builds the report; throws a `KitError` when a cell fails or a check finds a problem (the
 * previous report at `outDir` is then left as it was).
 */
export async function buildReport(options: ReportOptions): Promise<ReportResult> {
  const log = options.log ?? ((s: string) => console.error(s));
  const srcDir = options.notebooksDir ?? `${PROJECT_ROOT}/notebooks`;
  const outDir = await reportFolder(
    options.outDir ??
      `${PROJECT_ROOT}/reports/${
        options.systems && !options.lessons ? "systems" : options.params.data
      }`,
  );
  const names = listNotebooks(srcDir, options.only, {
    systems: options.systems !== undefined,
    lessons: options.lessons,
  });
  await checkInputsOutside(outDir, reportInputs(options));
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
  const cache = await openCache(outDir, srcDir, names, options, log);
  const unchanged = cache.unchanged<ReportResult>();
  if (unchanged) {
    // What killed builds left is swept by every build: here, as openWorkspace does otherwise.
    await sweepLeftovers(outDir, log);
    return unchanged;
  }
  const ws = await openWorkspace(outDir, { log });
  let result: ReportResult;
  try {
    result = relocate(await buildInto(ws, srcDir, names, options, log, cache), ws.dir, outDir);
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

/** The files and folders the user gave the report (runs, task parts' runs and gold, model folders). */
function reportInputs(options: ReportOptions): { label: string; path: string }[] {
  const spec = options.systems;
  const params = options.params;
  const inputs: { label: string; path: string }[] = [];
  for (const s of spec?.systems ?? []) {
    for (const run of s.runs) inputs.push({ label: `--run ${s.name}`, path: run });
    if (s.model?.startsWith("/")) inputs.push({ label: `--model ${s.name}`, path: s.model });
  }
  for (const p of reportParts()) {
    if (spec?.[p.key] !== undefined) inputs.push(...p.inputs(spec[p.key] as PartSpec));
  }
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
  cache: ReportCache,
): Promise<ReportResult> {
  const started = performance.now();
  const times = new StageTimes(started);
  const time = times.time;
  // Asked now (a Python start and six imports, about a second) and read at the end: off the
  // critical path.
  const jupyter = jupyterVersions();
  const dir = ws.dir;
  for (const sub of ["notebooks", "html", "screenshots"]) {
    await Deno.mkdir(`${dir}/${sub}`, { recursive: true });
  }
  const runtimeDir = await makeKitTempDir("kit-runtime-");
  const partsDir = await makeKitTempDir("kit-pdf-parts-");
  ws.also.push(runtimeDir, partsDir);
  const courseDir = await Deno.mkdir(`${partsDir}/course`).then(() => `${partsDir}/course`);
  // Chromium starts while the systems are evaluated and the first notebook runs (both cores
  // work at once; the start is off the critical path): every build that gets here checks and
  // prints its index. The figure renderer (plotly.js loaded in a tab of it: 6 to 12 s on a
  // loaded machine) is started with it only when a notebook is to be executed, so a build
  // whose lessons are all reused (cache.ts) starts none. Both starts are the stage
  // `browser start`, so the timings line adds up.
  const executes = names.some((file) => !cache.hit(file));
  const starting = time("browser start", () => launchBrowser());
  starting.catch(() => {}); // awaited where needed; a failure is reported there
  // One renderer a bundle of plotly.js: the lessons' and page 00's figures are bars and lines,
  // which the basic bundle (the one started at once) holds; another starts when a page needs it.
  const rendering = new Map<PlotlyBundle, Promise<FigureRenderer>>();
  const renderer = (bundle: PlotlyBundle) => {
    const known = rendering.get(bundle);
    if (known) return known;
    const made = starting.then((s) => time("browser start", () => figureRenderer(s, bundle)));
    rendering.set(bundle, made);
    return made;
  };
  const closeRenderers = () =>
    Promise.all([...rendering.values()].map((r) => r.then((p) => p.close(), () => {})));
  if (executes) renderer("basic").catch(() => {}); // awaited in finish(); failures reported there
  let report: SystemsReport | undefined;
  let reportFile: string | undefined;
  try {
    if (options.systems) {
      // Every number of page 00, computed once and written once; the notebook renders it.
      await Deno.mkdir(`${dir}/runs`, { recursive: true });
      const spec = options.systems;
      report = await time("systems", () =>
        evaluateSystems(spec, {
          folder: dir,
          backend: options.params.backend as BackendChoice | undefined,
          log,
        }));
      if (!report.systems.some((s) => s.kind === "user" && s.model)) {
        await Deno.remove(`${dir}/runs`);
      }
      const done = report;
      reportFile = await time("write", () => writeSystemsFiles(done, dir));
    }
  } catch (e) {
    await closeRenderers();
    await starting.then((s) => s.close(), () => {});
    throw e;
  }
  const paramsOf = (file: string) =>
    file === SYSTEMS_NOTEBOOK ? { ...options.params, systemsReport: reportFile } : options.params;
  // Said once the inputs are checked, and only when a model runs on a backend (a refusal stays
  // one line; a lexical model or a report of given runs has no backend to speak of; the
  // systems' models say theirs in evaluateSystems; lesson 03 reused scores nothing).
  if (names.some((n) => n.startsWith("03-") && !cache.hit(n))) {
    log((await chooseBackend((options.params.backend ?? "auto") as BackendChoice)).line);
  }

  const pdfPart = (i: number) =>
    options.pdf === false ? undefined : `${partsDir}/${String(i).padStart(3, "0")}.pdf`;
  try {
    const entries: NotebookEntry[] = [];
    /** Static images, HTML export, browser check and PDF part of one executed notebook. */
    const finish = async (name: string, result: ExecutionResult) => {
      const session = await starting;
      let nb = JSON.parse(await Deno.readTextFile(result.output)) as NotebookJson;
      const painter = await renderer(leanestLibrary(nb));
      if (report && `${name}.ipynb` === SYSTEMS_NOTEBOOK) {
        nb = withoutStandaloneOrEmptySections(nb, report.sections);
        const diffs = differenceFigures(report);
        const types = diffs.flatMap((d) => d.figure.data.map((t) => t.type as string | undefined));
        const drawer = await renderer(bundleFor(types));
        await time("images", () => writeFigureFiles(dir, diffs, drawer));
      }
      const drawn = await time("images", () => addStaticImages(nb, painter));
      const json = JSON.stringify(nb, null, 1) + "\n";
      await time("write", () => writeFileAtomic(result.output, json, { force: true }));
      // A lesson's page, slides and PDF part leave its worked solutions out (course.ts).
      const lesson = `${name}.ipynb` !== SYSTEMS_NOTEBOOK;
      const shown = lesson ? lessonCells(nb, name) : nb;
      const shownFile = lesson ? `${courseDir}/${name}.ipynb` : result.output;
      if (lesson) {
        await time(
          "write",
          () => writeFileAtomic(shownFile, JSON.stringify(shown), { force: true }),
        );
      }
      const html = `${dir}/html/${name}.html`;
      await time("export", () =>
        exportHtml(shownFile, html, {
          hideCode: `${name}.ipynb` === SYSTEMS_NOTEBOOK && !options.showCode,
        }));
      log(`exported ${name}.html (${drawn} figures)`);
      // The page's check, its slides and its solutions page are independent (the slides and
      // the solutions each their own nbconvert; each page its own tab of the one browser): run
      // at once, the long pole of a lesson's finishing (docs/report.md, "Where the time
      // goes"); all awaited before a failure is thrown, so nothing writes on after it.
      const jobs = [
        checkPage(
          session,
          html,
          `${dir}/screenshots/${name}.png`,
          60_000,
          pdfPart(entries.length + 1),
          time,
        ),
        withSlides(`${name}.ipynb`, options)
          ? time(
            "slides",
            () => makeSlides(session, shownFile, dir, name, { code: options.slidesCode }),
          )
          : undefined,
        lesson
          ? time(
            "course",
            () => makeCourseFiles(session, dir, name, nb, `${srcDir}/${name}.ipynb`, courseDir),
          )
          : undefined,
      ] as const;
      await Promise.allSettled(jobs);
      const [check, slides, course] = await Promise.all(jobs);
      if (course) log(`  ${name}: solutions, student edition in ${course.seconds.toFixed(1)} s`);
      entries.push({
        name,
        title: notebookTitle(nb, name),
        ipynb: result.output,
        html,
        seconds: result.seconds,
        cells: result.cells,
        figures: plotlyOutputs(shown).length,
        headlines: headlinesOf(shown),
        bytes: { ipynb: (await Deno.stat(result.output)).size, html: (await Deno.stat(html)).size },
        check,
        ...(slides ? { slides } : {}),
        ...(course ? { course, minutes: lessonLength(nb).minutes } : {}),
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
      if (cache.hit(file)) {
        const part = () => pdfPart(entries.length + 1);
        const reuse = async () =>
          void entries.push(await time("reuse", () => cache.reuse(name, dir, part())));
        finishing = finishing.then(reuse).catch((error) => void (failed ??= { error }));
        continue;
      }
      log(`executing ${file} ...`);
      let result: ExecutionResult;
      const executing = performance.now();
      try {
        result = await executeNotebook(
          `${srcDir}/${file}`,
          `${dir}/notebooks/${file}`,
          paramsOf(file),
          { runtimeDir },
        );
      } catch (e) {
        await finishing;
        throw e;
      }
      const ready = executing + result.startSeconds * 1000;
      times.add("kernel start", executing, ready);
      times.add("execute", ready, performance.now());
      log(`  ${file}: ${result.cells} cells in ${result.seconds.toFixed(1)} s`);
      finishing = finishing.then(() => finish(name, result)).catch((error) => {
        failed ??= { error };
      });
    }
    await finishing;
    if (failed) throw failed.error;
    await closeRenderers();
    const session = await starting;
    const index = `${dir}/index.html`;
    const lessons = entries.filter((e) => e.course);
    const syllabus = lessons.length
      ? await time("course", () => makeSyllabus(session, dir, srcDir, lessons))
      : undefined;
    if (syllabus) log("wrote syllabus.html");
    const pdf = options.pdf === false ? undefined : `${dir}/report.pdf`;
    const shownParams: Record<string, string | undefined> = report && !options.lessons
      ? { systems: reportSubject(report) }
      : { data: options.params.data, model: options.params.model, backend: options.params.backend };
    const indexPage = indexHtml(
      indexEntries(entries),
      {
        params: { ...shownParams },
        pdf: pdf ? "report.pdf" : undefined,
        syllabus: syllabus && "syllabus.html",
        generated: new Date().toISOString(),
        ...(report ? { systems: indexSystems(report) } : {}),
      },
    );
    await time("write", () => writeFileAtomic(index, indexPage, { force: true }));
    const indexCheck = await checkPage(
      session,
      index,
      `${dir}/screenshots/index.png`,
      60_000,
      pdfPart(0),
      time,
    );

    let pdfCheck: ReportResult["pdfCheck"];
    if (pdf) {
      const parts = Array.from({ length: entries.length + 1 }, (_, i) => pdfPart(i)!);
      await time("pdf", () => unitePdfs(parts, pdf));
      const names = report ? userText(report) : [];
      const checked = await time("pdf", () => checkPdf(pdf, undefined, names));
      pdfCheck = { ...checked, bytes: (await Deno.stat(pdf)).size };
    }

    const result: ReportResult = {
      versions: {
        chromium: session.browser.version(),
        deno: Deno.version.deno,
        jupyter: await jupyter,
      },
      outDir: ws.outDir,
      index,
      pdf,
      notebooks: entries,
      indexCheck,
      pdfCheck,
      ...(syllabus ? { syllabus: syllabus.html } : {}),
      ...(report
        ? {
          systems: summarySystems(report),
          ...(report.family ? { significance: report.family } : {}),
          ...(report.corpus ? { corpus: report.corpus } : {}),
        }
        : {}),
      seconds: (performance.now() - started) / 1000,
    };
    // Paths relative to the report folder, so the file stays true wherever the folder goes.
    const summary = {
      ...result,
      outDir: undefined,
      pdfCheck: pdfCheck && { ...pdfCheck, text: undefined },
    };
    const summaryJson = JSON.stringify(relocate(summary, `${dir}/`, ""), null, 2) + "\n";
    await time("write", () => writeFileAtomic(`${dir}/summary.json`, summaryJson, { force: true }));
    await time("write", () => cache.save(dir, result, pdfPart));
    // Where the time went, one line (docs/report.md, "Where the time goes").
    log(times.line());

    const checks = [
      indexCheck,
      ...entries.map((e) => e.check),
      ...syllabus ? [syllabus.check] : [],
    ];
    const problems = checks.flatMap((c) => pageProblems(c).map((p) => `${c.page}: ${p}`));
    problems.push(...entries.flatMap((e) => e.slides ? slidesProblems(e.slides.check) : []));
    for (const c of entries.flatMap((e) => e.course ? [e.course] : [])) {
      problems.push(...pageProblems(c.solutionsCheck).map((p) => `${c.solutions}: ${p}`));
      problems.push(...c.problems);
    }
    const expectedFigures = entries.reduce((n, e) => n + e.figures, 0);
    if (pdfCheck && expectedFigures > 0 && pdfCheck.pagesWithFigures === 0) {
      problems.push(`${pdf}: no page shows a figure`);
    }
    for (const t of pdfCheck?.unrenderedTex ?? []) problems.push(`${pdf}: TeX not typeset: '${t}'`);
    if (problems.length) {
      throw new KitError(`report checks failed:\n  ${problems.join("\n  ")}`);
    }
    return result;
  } finally {
    await starting.then((s) => s.close(), () => {});
  }
}
