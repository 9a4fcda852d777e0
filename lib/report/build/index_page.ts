/**
 * The report's index page: one self-contained HTML file (no scripts, no external
 * resources) linking every notebook page with its headline numbers, execution time and
 * size, plus the executed notebooks and the PDF; for a lesson its slides, solutions page,
 * student edition and class time.
 *
 * @module
 */
import type { Headline } from "../notebook/headline.ts";
import { PROTOCOL_MEASURES } from "../../metrics/mod.ts";
import type { SystemsReport } from "../systems/report.ts";
import { reportParts } from "../../tasks/registry.ts";
import type { PartData } from "../../tasks/task.ts";
import { slideFiles } from "./slides.ts";
import { courseFiles } from "./course.ts";
import { formatCell } from "../../plot/table.ts";
import { escapeHtml, htmlText } from "../../io/escape.ts";

/** One notebook as the index lists it. */
export interface IndexEntry {
  /** The notebook's number, from its file name (`05-significance`: 5); else its row's. */
  number?: number;
  /** Title (the notebook's first heading). */
  title: string;
  /** Link to the HTML page, relative to the index. */
  html: string;
  /** Link to the executed notebook, relative to the index. */
  ipynb: string;
  /** Link to its slides, relative to the index, when they were made. */
  slides?: string;
  /** Its estimated class time in minutes (lessons). */
  minutes?: number;
  /** Link to its solutions page (lessons), relative to the index. */
  solutions?: string;
  /** Link to its student edition (lessons), relative to the index. */
  student?: string;
  /** Execution time, seconds. */
  seconds: number;
  /** Figures in the notebook. */
  figures: number;
  /** Headline numbers shown by the notebook. */
  headlines: Headline[];
}

/**
 * The index's entries of the report's notebooks (named `NN-name`): page, executed notebook, and
 * for a lesson its slides (when made), solutions page, student edition and class time.
 */
export function indexEntries(
  notebooks: readonly (Omit<IndexEntry, "html" | "ipynb" | "slides" | "solutions" | "student"> & {
    name: string;
    slides?: unknown;
    course?: unknown;
  })[],
): IndexEntry[] {
  return notebooks.map((e) => ({
    ...(/^\d+-/.test(e.name) ? { number: parseInt(e.name, 10) } : {}),
    title: e.title,
    html: `html/${e.name}.html`,
    ipynb: `notebooks/${e.name}.ipynb`,
    ...(e.slides ? { slides: slideFiles(e.name)[0] } : {}),
    ...(e.course ? courseFiles(e.name) : {}),
    minutes: e.minutes,
    seconds: e.seconds,
    figures: e.figures,
    headlines: e.headlines,
  }));
}

/** One of the user's systems as the index lists it. */
export interface IndexSystem {
  /** The system's name as the user gave it. */
  name: string;
  /** What it was evaluated on. */
  what: string;
  /** Its headline numbers. */
  numbers: Record<string, number | string>;
}

/** What the index says about the run. */
export interface IndexInfo {
  /** The user's systems, listed first (link: the first notebook, `00-your-systems`). */
  systems?: IndexSystem[];
  /** Parameters the notebooks ran with. */
  params: Record<string, string | undefined>;
  /** Link to the PDF, when one was made. */
  pdf?: string;
  /** When the report was made (ISO time). */
  generated: string;
  /** Link to the course's syllabus page, when one was made. */
  syllabus?: string;
}

/**
 * Where a student puts a student edition (it imports `../lib/mod.ts`, as the lessons do), and
 * what a checkout also holds.
 */
export const STUDENT_EDITION_NOTE = "A lesson's student notebook (student/student-NN-name.ipynb) " +
  "has no outputs, no worked solutions and questions in place of the measured results; it " +
  "imports ../lib/mod.ts like the lessons, so put it in the notebooks/ folder of a checkout of " +
  "the kit and run it there. A checkout also holds the lessons with their worked solutions " +
  "(notebooks/) and tests/exercises/, which solves every exercise: for a class where that " +
  "matters, hand out a copy of the kit without tests/exercises/ whose notebooks/ holds only the " +
  "student notebooks (they need lib/, data/samples/, deno.json and tests/fixtures/, not just " +
  "lib/).";

/**
 * The index page's HTML.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { indexHtml } from "./index_page.ts";
 * const html = indexHtml([{
 *   title: "Datasets", html: "html/01.html", ipynb: "notebooks/01.ipynb", seconds: 4.2,
 *   figures: 1, headlines: [{ title: "WikiQA", numbers: { questions: 873 } }],
 *   slides: "slides/01.html", solutions: "solutions/01.html", student: "student/student-01.ipynb",
 *   minutes: 85, number: 5,
 * }], { params: { data: "sample" }, generated: "2025-01-01T00:00:00Z", syllabus: "syllabus.html" });
 * assert(html.includes("<tr><td>5</td>")); // the lesson's own number, not its row's
 * assert(html.includes('href="html/01.html"') && html.includes("873"));
 * assert(html.includes('href="slides/01.html"') && html.includes('href="solutions/01.html"'));
 * assert(html.includes('href="student/student-01.ipynb"'));
 * assert(html.includes('href="syllabus.html"'));
 * assert(html.includes("about 85 min"));
 * const mine = indexHtml([], { params: {}, generated: "", systems: [
 *   { name: "<b>mine</b>", what: "wikiqa test (clean)", numbers: { MAP: 0.7 } }] });
 * assert(mine.includes("&lt;b&gt;mine&lt;/b&gt;") && mine.includes("0.7000"));
 * ```
 */
export function indexHtml(entries: readonly IndexEntry[], info: IndexInfo): string {
  const params = Object.entries(info.params).filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${htmlText(k)}=<code>${htmlText(String(v))}</code>`).join(", ");
  const rows = entries.map((e, i) => {
    const heads = e.headlines.map((h) =>
      `<div class="h"><span class="ht">${htmlText(h.title)}</span> ` +
      Object.entries(h.numbers).map(([k, v]) =>
        `${htmlText(k)} <b>${htmlText(formatCell(v, 4, k))}</b>`
      )
        .join(" &middot; ") +
      "</div>"
    ).join("");
    return `<tr><td>${e.number ?? i + 1}</td>` +
      `<td><a href="${escapeHtml(e.html)}">${htmlText(e.title)}</a>` +
      `<br><a class="small" href="${escapeHtml(e.ipynb)}">executed notebook</a>` +
      (e.slides ? ` &middot; <a class="small" href="${escapeHtml(e.slides)}">slides</a>` : "") +
      (e.solutions
        ? ` &middot; <a class="small" href="${escapeHtml(e.solutions)}">solutions</a>`
        : "") +
      (e.student
        ? ` &middot; <a class="small" href="${escapeHtml(e.student)}">student notebook</a>`
        : "") +
      (e.minutes ? ` <span class="small">(a class of about ${e.minutes} min)</span>` : "") +
      "</td>" +
      `<td>${heads || "&ndash;"}</td><td class="n">${e.figures}</td>` +
      `<td class="n">${e.seconds.toFixed(1)} s</td></tr>`;
  }).join("\n");
  const systems = info.systems?.length
    ? `<h2>Your systems</h2>
<table>
<thead><tr><th>system</th><th>evaluated on</th><th>numbers</th></tr></thead>
<tbody>
${
      info.systems.map((s) =>
        `<tr><td><a href="${escapeHtml(entries[0]?.html ?? "")}">${htmlText(s.name)}</a></td>` +
        `<td>${htmlText(s.what)}</td><td>` +
        Object.entries(s.numbers).map(([k, v]) =>
          `${htmlText(k)} <b>${htmlText(formatCell(v, 4, k))}</b>`
        )
          .join(" &middot; ") +
        "</td></tr>"
      ).join("\n")
    }
</tbody></table>
<h2>Notebooks</h2>
`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>QA evaluation kit: report</title>
<style>
body { font-family: "Noto Sans", "Noto Sans Arabic", "DejaVu Sans", sans-serif; margin: 2em auto;
  max-width: 60em; padding: 0 1em; color: #222; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #ddd; padding: 0.4em 0.6em; vertical-align: top; text-align: left; }
td.n { text-align: right; white-space: nowrap; }
.h { margin: 0.15em 0; } .ht { color: #555; } .small { font-size: 0.85em; color: #555; }
</style></head>
<body>
<h1>QA evaluation kit: report</h1>
<p>Notebooks executed headless with ${params}; generated ${htmlText(info.generated)}.
${
    info.pdf
      ? `The whole report as one PDF: <a href="${escapeHtml(info.pdf)}">${htmlText(info.pdf)}</a>.`
      : ""
  }${
    info.syllabus
      ? ` The course: <a href="${
        escapeHtml(info.syllabus)
      }">syllabus</a> (what each lesson teaches).`
      : ""
  }</p>
${entries.some((e) => e.student) ? `<p class="small">${htmlText(STUDENT_EDITION_NOTE)}</p>\n` : ""}
${systems}<table>
<thead><tr><th>#</th><th>notebook</th><th>headline numbers</th><th>figures</th><th>run time</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</body></html>
`;
}

/** The corpus of a report, as the index says it: `wikiqa test (clean), real corpus`. */
function corpusLine(c: NonNullable<SystemsReport["corpus"]>): string {
  return `${c.dataset} ${c.split} (${c.filter}), ${
    c.data === "real" ? "real corpus" : "bundled sample"
  }`;
}

/** What a report on your systems is about: its corpus, or the task part of its runs (`QRCD runs`). */
export function reportSubject(r: SystemsReport): string {
  return r.corpus
    ? corpusLine(r.corpus)
    : reportParts().find((p) => r[p.key] !== undefined)?.title ?? "";
}

/** Your systems as the index lists them (first, above the pages). */
export function indexSystems(r: SystemsReport): IndexSystem[] {
  return [
    ...r.systems.filter((s) => s.kind === "user").map((s) => ({
      name: s.name,
      what: `${corpusLine(r.corpus!)}, ${s.queries} questions, ${s.runCount} run(s)`,
      numbers: Object.fromEntries(PROTOCOL_MEASURES.flatMap((m) => [
        [m.label, s.mean[m.name]],
        ...(m.name === "map" && s.spread ? [["MAP sd", s.spread.map.sd]] : []),
      ])),
    })),
    ...reportParts().flatMap((p) =>
      r[p.key] === undefined ? [] : p.indexSystems(r[p.key] as PartData)
    ),
  ];
}
