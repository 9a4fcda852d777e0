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
import { type BrowserSession, launchBrowser } from "../check/browser.ts";
import { checkPage, checkPdf, pageProblems } from "../check/check.ts";
import { executeNotebook, type ExecutionResult, jupyterVersions } from "./execute.ts";
import { exportHtml, notebookTitle } from "./export.ts";
import { listNotebooks, SYSTEMS_NOTEBOOK, withoutStandaloneOrEmptySections } from "./notebooks.ts";
import { StageTimes } from "./timings.ts";
import { headlinesOf } from "../notebook/headline.ts";
import { indexEntries, indexHtml, indexSystems, reportSubject } from "./index_page.ts";
import { evaluateSystems, type SystemsReport } from "../systems/report.ts";
import { lessonCells, makeCourseFiles } from "./course.ts";
import { makeSyllabus } from "./course.ts";
import { lessonLength } from "./lessons.ts";
import { summarySystems, systemsJsonPath, userText, writeSystemsFiles } from "../systems/files.ts";
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
import { withNbconvert } from "./nbconvert.ts";
import { pool } from "./pool.ts";
import { makeSlides, slidesProblems } from "./slides.ts";
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
import type {
  FrontPages,
  Listing,
  NotebookEntry,
  ReportOptions,
  ReportResult,
} from "./report_types.ts";

/**
 * Notebooks finished at once (images, export, checks, slides, solutions): two, so that the
 * cores are busy once the last notebook has run, and not more (each is several processes).
 */
const FINISHING_AT_ONCE = 2;

export type { NotebookEntry, ReportOptions, ReportResult } from "./report_types.ts";
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
    // One nbconvert process (two at most) exports every page and deck of the build, started
    // at once when a notebook is to run (a build of reused lessons exports the syllabus alone).
    const built = await withNbconvert(() => buildInto(ws, srcDir, names, options, log, cache), {
      warm: names.some((file) => !cache.hit(file)),
    });
    result = relocate(built, ws.dir, outDir);
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
  const paramsOf = (file: string) =>
    file === SYSTEMS_NOTEBOOK && options.systems
      ? { ...options.params, systemsReport: systemsJsonPath(dir) }
      : options.params;
  /** Runs a notebook (its cells once `startWhen` resolves), its spans timed. */
  const execute = async (file: string, startWhen?: Promise<unknown>) => {
    const executing = performance.now();
    const output = `${dir}/notebooks/${file}`;
    const run = { runtimeDir, startWhen };
    const result = await executeNotebook(`${srcDir}/${file}`, output, paramsOf(file), run);
    const end = performance.now();
    times.add("kernel start", executing, executing + result.startSeconds * 1000);
    times.add("execute", end - result.cellsSeconds * 1000, end);
    return result;
  };
  // Every number of page 00, computed once and written once; the notebook renders it. Its
  // kernel starts meanwhile, and its cells run once the numbers are written.
  const evaluating = options.systems && (async (spec: ResolvedSpec) => {
    await Deno.mkdir(`${dir}/runs`, { recursive: true });
    const report = await time("systems", () =>
      evaluateSystems(spec, {
        folder: dir,
        backend: options.params.backend as BackendChoice | undefined,
        log,
      }));
    if (!report.systems.some((s) => s.kind === "user" && s.model)) {
      await Deno.remove(`${dir}/runs`);
    }
    await time("write", () => writeSystemsFiles(report, dir));
    return report;
  })(options.systems);
  const early = evaluating && names.includes(SYSTEMS_NOTEBOOK) && !cache.hit(SYSTEMS_NOTEBOOK)
    ? execute(SYSTEMS_NOTEBOOK, evaluating)
    : undefined;
  early?.catch(() => {}); // awaited in its turn below, or before a failure is thrown
  // The renderer is needed once a notebook has run: started after the systems' numbers, which
  // page 00's cells wait for, so that it does not slow them on two cores.
  if (executes) {
    Promise.resolve(evaluating).catch(() => {}).then(() => renderer("basic")).catch(() => {});
  }
  let report: SystemsReport | undefined;
  try {
    report = await evaluating;
  } catch (e) {
    await early?.catch(() => {});
    await closeRenderers();
    await starting.then((s) => s.close(), () => {});
    throw e;
  }
  // Said once the inputs are checked, and only when a model runs on a backend (a refusal stays
  // one line; a lexical model or a report of given runs has no backend to speak of; the
  // systems' models say theirs in evaluateSystems; lesson 03 reused scores nothing).
  if (names.some((n) => n.startsWith("03-") && !cache.hit(n))) {
    log((await chooseBackend((options.params.backend ?? "auto") as BackendChoice)).line);
  }

  const pdfPart = (i: number) =>
    options.pdf === false ? undefined : `${partsDir}/${String(i).padStart(3, "0")}.pdf`;
  try {
    // The notebooks' entries, listings and PDF parts by their place in `names` (their finishing
    // overlaps, so they end in any order).
    const entries: NotebookEntry[] = [];
    /** Static images, HTML export, browser check and PDF part of executed notebook `i`. */
    const finish = async (i: number, name: string, result: ExecutionResult) => {
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
      const slidesToo = withSlides(`${name}.ipynb`, options);
      const listing = {
        name,
        title: notebookTitle(nb, name),
        seconds: result.seconds,
        figures: plotlyOutputs(shown).length,
        headlines: headlinesOf(shown),
        ...(lesson ? { minutes: lessonLength(nb).minutes } : {}),
      };
      list(i, {
        ...listing,
        ...(slidesToo ? { slides: true } : {}),
        ...(lesson ? { course: true } : {}),
      });
      const html = `${dir}/html/${name}.html`;
      await time("export", () =>
        exportHtml(shownFile, html, {
          hideCode: `${name}.ipynb` === SYSTEMS_NOTEBOOK && !options.showCode,
        }));
      log(`exported ${name}.html (${drawn} figure${drawn === 1 ? "" : "s"})`);
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
          pdfPart(i + 1),
          time,
        ),
        slidesToo
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
      entries[i] = {
        ...listing,
        ipynb: result.output,
        html,
        cells: result.cells,
        bytes: { ipynb: (await Deno.stat(result.output)).size, html: (await Deno.stat(html)).size },
        check,
        ...(slides ? { slides } : {}),
        ...(course ? { course } : {}),
      };
    };
    const pdf = options.pdf === false ? undefined : `${dir}/report.pdf`;
    // The index and the syllabus list what the notebooks are (titles, headlines, links), not
    // how their checks went: both are made and checked once every notebook is listed, while
    // the last one's page is still being checked.
    const listed: Listing[] = [];
    let front: Promise<FrontPages> | undefined;
    let listings = 0;
    const list = (i: number, listing: Listing) => {
      listed[i] = listing;
      if (++listings < names.length) return;
      front = starting.then((session) => frontPages(session, listed));
      front.catch(() => {}); // awaited after the notebooks, or before a failure is thrown
    };
    const frontPages = async (session: BrowserSession, listed: Listing[]) => {
      const lessons = listed.filter((e) => e.course);
      const syllabus = lessons.length
        ? time("course", () => makeSyllabus(session, dir, srcDir, lessons))
        : undefined;
      syllabus?.catch(() => {}); // awaited below
      const shownParams: Record<string, string | undefined> = report && !options.lessons
        ? { systems: reportSubject(report) }
        : {
          data: options.params.data,
          model: options.params.model,
          backend: options.params.backend,
        };
      const indexPage = indexHtml(
        indexEntries(listed),
        {
          params: { ...shownParams },
          pdf: pdf ? "report.pdf" : undefined,
          syllabus: syllabus && "syllabus.html",
          generated: new Date().toISOString(),
          ...(report ? { systems: indexSystems(report) } : {}),
        },
      );
      const index = `${dir}/index.html`;
      await time("write", () => writeFileAtomic(index, indexPage, { force: true }));
      const screenshot = `${dir}/screenshots/index.png`;
      const checked = checkPage(session, index, screenshot, 60_000, pdfPart(0), time);
      await Promise.allSettled([checked, syllabus]);
      if (syllabus) log("wrote syllabus.html");
      return { index, indexCheck: await checked, syllabus: await syllabus };
    };
    // A pipeline: notebooks run one at a time, each in a kernel started while the one before
    // it ran (its cells wait for that one's end), and two at a time are finished (images,
    // export, checks, slides, solutions) meanwhile, so that both cores work.
    let failed: { error: unknown } | undefined;
    const finishing = pool(FINISHING_AT_ONCE, (error) => void (failed ??= { error }));
    const prestarted = new Map<string, Promise<ExecutionResult>>();
    if (early) prestarted.set(SYSTEMS_NOTEBOOK, early);
    try {
      for (const [i, file] of names.entries()) {
        if (failed) break;
        const name = file.replace(/\.ipynb$/, "");
        if (cache.hit(file)) {
          finishing.add(async () => {
            const entry = await time(
              "reuse",
              () => cache.reuse<NotebookEntry>(name, dir, pdfPart(i + 1)),
            );
            entries[i] = entry;
            list(i, entry);
          });
          continue;
        }
        log(`executing ${file} ...`);
        const running = prestarted.get(file) ?? execute(file);
        const next = names.slice(i + 1).find((f) => !cache.hit(f));
        if (next) {
          // Its cells wait for this notebook, and do not run once a finishing has failed.
          const started = execute(next, running.then(() => failed && Promise.reject(failed.error)));
          started.catch(() => {}); // awaited in its turn, or below before a failure is thrown
          prestarted.set(next, started);
        }
        const result = await running;
        log(`  ${file}: ${result.cells} cells in ${result.seconds.toFixed(1)} s`);
        finishing.add(() => finish(i, name, result));
      }
    } catch (e) {
      failed ??= { error: e };
    }
    // A notebook told not to start ends before the error is thrown, as every one finishing.
    await Promise.allSettled(prestarted.values());
    await finishing.done();
    if (failed) {
      await front?.catch(() => {});
      throw failed.error;
    }
    await closeRenderers();
    const session = await starting;
    const { index, indexCheck, syllabus } = await (front ?? frontPages(session, listed));

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
