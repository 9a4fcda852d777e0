/**
 * The report's types: what `buildReport` (build.ts) takes and gives, and what its index and
 * syllabus list of each notebook.
 *
 * @module
 */
import type { NotebookParams } from "./execute.ts";
import type { ResolvedSpec } from "../systems/spec.ts";
import type { PageCheck, PdfCheck } from "../check/check.ts";
import type { SlidesCheck, SlidesResult } from "./slides.ts";
import type { CourseResult } from "./course.ts";
import type { Headline } from "../notebook/headline.ts";
import type { SystemsReport } from "../systems/report.ts";

/** Options of `buildReport` (build.ts). */
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

/** What the index and the syllabus show of a notebook: known before its checks end. */
export type Listing =
  & Pick<NotebookEntry, "name" | "title" | "seconds" | "figures" | "headlines" | "minutes">
  & { slides?: unknown; course?: unknown };

/** The index, checked, and with lessons the syllabus. */
export interface FrontPages {
  index: string;
  indexCheck: PageCheck;
  syllabus?: { html: string; check: PageCheck };
}

/** What `buildReport` (build.ts) made. */
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
