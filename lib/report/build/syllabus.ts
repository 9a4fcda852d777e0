/**
 * The course's syllabus page (`syllabus.html` of a lessons report): what each lesson teaches
 * (its objectives), what a student needs before the first class (with a 10-minute warm-up), the
 * order and time of every part (computed from the lessons by `lessonLength`), the references in
 * full, and each dataset's licence with what it allows. One self-contained HTML file, like the
 * index. The objectives, references and licences are data here ({@link COURSE}); the times are
 * never typed, always computed.
 *
 * @module
 */
import { escapeHtml, htmlText } from "../../io/escape.ts";
import { CLASS_MINUTES, lessonLength, LESSONS } from "./lessons.ts";

/** A notebook's cells, as nbformat stores them. */
interface Notebook {
  cells: { cell_type: string; source: string | string[]; metadata?: unknown }[];
}

/** One lesson as the syllabus lists it. */
export interface SyllabusLesson {
  /** File name in `notebooks/` (`04-metrics.ipynb`). */
  file: string;
  /** Its title (the notebook's first heading, `4. Metrics and plots`). */
  title: string;
  /** The lesson's source notebook (its parts and minutes are computed from it). */
  notebook: Notebook;
  /** Links relative to the syllabus page. */
  links: { page: string; slides?: string; solutions?: string; student?: string };
}

/** A dataset the lessons use, with its licence and what the licence allows. */
export interface DatasetLicence {
  dataset: string;
  licence: string;
  /** Where the licence's text is. */
  url: string;
  /** What it allows and forbids, in a sentence a student can act on. */
  allows: string;
}

const text = (s: string | string[]) => Array.isArray(s) ? s.join("") : s;

/** The course's fixed content: objectives per lesson, prerequisites, references, licences. */
export const COURSE = {
  objectives: {
    "01-datasets": [
      "load WikiQA, TREC-QA and QRCD splits with the kit and check their sizes against the published ones",
      "say what one row of each corpus is, and how many candidates a question has",
      "explain why a split is made by question, never by judgment, and detect a leak",
    ],
    "02-filters": [
      "apply WikiQA's raw, no-all and clean settings and say what each removes",
      "explain why TANDA trains on no-all and evaluates on clean",
      "compute how a setting moves MAP, with the arithmetic behind the raw number",
    ],
    "03-scoring": [
      "turn a model's scores into a run file and evaluate it like trec_eval",
      "train the kit's learned ranker and score the test questions with it",
      "run the transformer pipeline (tokenization, batches, backend) on their own model folder",
      "test whether a model ranks better than chance on the same questions",
    ],
    "04-metrics": [
      "compute AP, RR, P@k and nDCG of a ranking by hand and check them with `evaluate`",
      "report MAP and MRR with an interval and beside a random and a best ranking",
      "compare a number with a published one only over the same questions",
    ],
    "05-significance": [
      "compare two systems on the same questions: the difference, its interval, then p",
      "choose between the paired t, randomization and bootstrap procedures, and read each",
      "tell a corpus regularity a feature exploits from a system's skill",
    ],
    "06-qrcd": [
      "apply QRCD's normalization and span check as the official scorer does",
      "compute pRR, EM and F1@1 for a record by hand",
      "read per-record against per-question results",
    ],
    "07-heldout": [
      "split questions into train, test and validation slices (the book's 125 / 32 / 10)",
      "choose a setting on test and check it once on validation",
      "read a held-out MAP as gain over random, and recognize overfitting",
    ],
    "08-labels": [
      "tell golden from silver labels and measure their agreement",
      "read a small validation slice question by question, and say what it can decide",
    ],
    "09-stability": [
      "train a ranker over seeds and measure the spread of its MAP",
      "test whether two training regimes differ in stability (variances over seeds)",
      "estimate how many seeds a stable mean needs",
    ],
    "10-robustness": [
      "measure how far MAP drops under label noise, over seeds",
      "test a robustness claim as an interaction (regime × noise) with its interval",
      "apply the same measurements to their own runs",
    ],
    "11-pitfalls": [
      "recognize seven evaluation mistakes by the number they produce",
      "put the wrong number beside the right one and say what separates them",
    ],
    "12-qqa23": [
      "evaluate passage retrieval with zero-answer questions by the official rules (MAP@10, MRR)",
      "choose an abstention threshold on dev and read its effect on test",
      "explain where the official script and the complete protocol differ",
    ],
  } as Record<string, string[]>,
  prerequisites: [
    "Reading TypeScript: `const`, arrow functions, arrays with `map`, `filter` and `reduce`, " +
    "objects and destructuring, template strings, `await` on a promise. Types are read, rarely " +
    "written.",
    "Running a notebook in Jupyter with the Deno kernel (the first `./kit report` installs it; " +
    'docs/notebooks.md), and importing the kit: `import { ... } from "../lib/mod.ts"`.',
    "Statistics: a mean, a standard deviation, a 95% interval and a p-value, as a first course " +
    "teaches them; the lessons define every measure they use.",
  ],
  references: [
    "Yi Yang, Wen-tau Yih and Christopher Meek. 2015. WikiQA: A Challenge Dataset for Open-Domain " +
    "Question Answering. In Proceedings of the 2015 Conference on Empirical Methods in Natural " +
    "Language Processing (EMNLP), pages 2013–2018, Lisbon, Portugal. ACL. doi:10.18653/v1/D15-1237.",
    "Mengqiu Wang, Noah A. Smith and Teruko Mitamura. 2007. What is the Jeopardy Model? A " +
    "Quasi-Synchronous Grammar for QA. In Proceedings of EMNLP-CoNLL 2007, pages 22–32, Prague. " +
    "ACL. (TREC-QA; the edition of Xuchen Yao, Benjamin Van Durme, Chris Callison-Burch and Peter " +
    "Clark, NAACL 2013.)",
    "Siddhant Garg, Thuy Vu and Alessandro Moschitti. 2020. TANDA: Transfer and Adapt Pre-Trained " +
    "Transformer Models for Answer Sentence Selection. In Proceedings of the AAAI Conference on " +
    "Artificial Intelligence 34(05), pages 7780–7788. arXiv:1911.04118.",
    "Rana Malhas and Tamer Elsayed. 2022. Overview of the First Shared Task on Question Answering " +
    "over the Holy Qur'an. In Proceedings of the 5th Workshop on Open-Source Arabic Corpora and " +
    "Processing Tools (OSACT5) at LREC 2022, pages 79–87, Marseille. ELRA. (QRCD, Qur'an QA 2022.)",
    "Rana Malhas and Tamer Elsayed. 2020. AyaTEC: Building a Reusable Verse-Based Test Collection " +
    "for Arabic Question Answering on the Holy Qur'an. ACM Transactions on Asian and Low-Resource " +
    "Language Information Processing 19(6), article 78.",
    "Rana Malhas, Watheq Mansour and Tamer Elsayed. 2023. Qur'an QA 2023 Shared Task: Overview of " +
    "Passage Retrieval and Reading Comprehension Tasks over the Holy Qur'an. In Proceedings of " +
    "ArabicNLP 2023, pages 690–701, Singapore. ACL.",
    "Trey Grainger, Doug Turnbull and Max Irwin. 2025. AI-Powered Search. Manning. Chapters 10 " +
    "(learning to rank, held-out evaluation) and 14 (question answering).",
    "Ellen M. Voorhees and Donna K. Harman, editors. 2005. TREC: Experiment and Evaluation in " +
    "Information Retrieval. MIT Press. trec_eval 9.0.8 and 10.0: NIST, " +
    "https://github.com/usnistgov/trec_eval.",
  ],
  licences: [
    {
      dataset: "WikiQA",
      licence: "Microsoft Research Data License Agreement (WikiQA Corpus)",
      url: "https://www.microsoft.com/en-us/download/details.aspx?id=52419",
      allows: "use, copy, modify and distribute for research and technology development only " +
        "(teaching, academic research, demonstrations) and publish results; no direct " +
        "commercial use; copies and derivatives only under the same terms, changed files marked.",
    },
    {
      dataset: "TREC-QA (the JSONL edition the kit reads)",
      licence: "MIT License",
      url: "https://opensource.org/license/mit",
      allows: "any use, commercial included, with the copyright and licence notice kept.",
    },
    {
      dataset: "QRCD (Qur'an QA 2022) and Qur'an QA 2023's data",
      licence: "CC BY-NC-ND 4.0",
      url: "https://creativecommons.org/licenses/by-nc-nd/4.0/legalcode",
      allows: "share with attribution, non-commercially, unchanged: no modified copies of the " +
        "data (the organisers forbid changing the answers); your results may be published.",
    },
  ] as DatasetLicence[],
} as const;

/**
 * The warm-up before the first class (10 minutes), in a notebook cell beside the lessons: it
 * loads a split, filters it and shows a table, the three moves every lesson makes.
 * `tests/report/syllabus_test.ts` runs it.
 */
export const WARM_UP_CODE =
  `import { applyFilter, display, loadSplit, splitStats, table } from "../lib/mod.ts";

const test = await loadSplit("wikiqa", "test", { filter: "raw" });
const clean = applyFilter(test.questions, "clean").questions;
const rows = [test.questions, clean].map((qs, i) => ({
  setting: i === 0 ? "raw" : "clean",
  ...splitStats(qs),
}));
await display(table(rows, { caption: "WikiQA test: raw and clean" }));`;

/** A lesson's parts: its `#`/`##` sections, each with its estimated minutes. */
export interface LessonPart {
  title: string;
  minutes: number;
}

/**
 * The parts of a lesson, in order, each timed by `lessonLength` (a heading inside a cell starts
 * a part there; the Exercises part carries the exercises' minutes).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lessonParts } from "./syllabus.ts";
 * const md = (s: string) => ({ cell_type: "markdown", source: s });
 * const parts = lessonParts({ cells: [
 *   md("# 1. T\n\nintro"), { cell_type: "code", source: "1" },
 *   md("## Summary\n\n- x\n\n## Exercises\n\n1. One.\n2. Two."),
 * ] });
 * assert.deepEqual(parts.map((p) => p.title), ["1. T", "Summary", "Exercises"]);
 * assert.equal(parts[2].minutes, 31); // two exercises at 15 minutes, and their words
 * ```
 */
export function lessonParts(nb: Notebook): LessonPart[] {
  const parts: { title: string; cells: Notebook["cells"] }[] = [];
  for (const c of nb.cells) {
    if (c.cell_type !== "markdown") {
      parts.at(-1)?.cells.push(c);
      continue;
    }
    for (const block of text(c.source).split(/^(?=#{1,2}\s)/m)) {
      const heading = /^#{1,2}\s+(.*)$/m.exec(block);
      if (heading && block.startsWith("#")) parts.push({ title: heading[1].trim(), cells: [] });
      parts.at(-1)?.cells.push({ ...c, source: block });
    }
  }
  return parts.map((p) => ({
    title: p.title,
    minutes: lessonLength({
      cells: p.title === "Exercises" ? p.cells : p.cells.map((c) => ({
        ...c,
        // a part's numbered list is not an exercise list
        source: text(c.source).replace(/^## Exercises/gm, "## Part"),
      })),
    }).minutes,
  }));
}

const list = (items: readonly string[]) =>
  `<ul>${items.map((i) => `<li>${inlineCode(i)}</li>`).join("")}</ul>`;

/** Text with `code` spans as <code>. */
function inlineCode(s: string): string {
  return htmlText(s).replace(/`([^`]+)`/g, "<code>$1</code>");
}

/**
 * The syllabus page's HTML.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { syllabusHtml } from "./syllabus.ts";
 * const nb = { cells: [
 *   { cell_type: "markdown", source: "# 4. Metrics\n\nWhy." },
 *   { cell_type: "markdown", source: "## Exercises\n\n1. One.\n2. Two." },
 * ] };
 * const html = syllabusHtml([{
 *   file: "04-metrics.ipynb", title: "4. Metrics <and> plots", notebook: nb,
 *   links: { page: "html/04-metrics.html", solutions: "solutions/04-metrics.html" },
 * }]);
 * assert.ok(html.includes("4. Metrics &lt;and&gt; plots"));
 * assert.ok(html.includes('href="solutions/04-metrics.html"'));
 * assert.ok(html.includes("CC BY-NC-ND 4.0") && html.includes("arXiv:1911.04118"));
 * ```
 */
export function syllabusHtml(lessons: readonly SyllabusLesson[]): string {
  const link = (href: string | undefined, label: string) =>
    href ? `<a href="${escapeHtml(href)}">${label}</a>` : "";
  let total = 0;
  const rows = lessons.map((l) => {
    const name = l.file.replace(/\.ipynb$/, "");
    const minutes = lessonLength(l.notebook).minutes;
    total += minutes;
    const objectives = COURSE.objectives[name] ?? [];
    const parts = lessonParts(l.notebook).slice(1)
      .map((p) => `${htmlText(p.title)} (${p.minutes} min)`).join("; ");
    const links = [
      link(l.links.page, "page"),
      link(l.links.slides, "slides"),
      link(l.links.solutions, "solutions"),
      link(l.links.student, "student notebook"),
    ].filter(Boolean).join(" &middot; ");
    return `<section><h3>${htmlText(l.title)} <span class="small">(${minutes} min)</span></h3>
<p class="small">${links}</p>
<p>After this lesson a student can:</p>${list(objectives)}
<p class="small">Parts, in order: ${parts}.</p></section>`;
  }).join("\n");
  const licences = COURSE.licences.map((d) =>
    `<tr><td>${htmlText(d.dataset)}</td><td><a href="${escapeHtml(d.url)}">${
      htmlText(d.licence)
    }</a></td><td>${htmlText(d.allows)}</td></tr>`
  ).join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>QA evaluation kit: syllabus</title>
<style>
body { font-family: "Noto Sans", "Noto Sans Arabic", "DejaVu Sans", sans-serif; margin: 2em auto;
  max-width: 60em; padding: 0 1em; color: #222; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #ddd; padding: 0.4em 0.6em; vertical-align: top; text-align: left; }
pre { background: #f6f6f6; padding: 0.8em; overflow-x: auto; }
.small { font-size: 0.85em; color: #555; }
</style></head>
<body>
<h1>Evaluating question answering: syllabus</h1>
<p>${lessons.length} lessons of at most ${CLASS_MINUTES} minutes each, ${total} minutes in all,
exercises included (estimated at 15 minutes an exercise; docs/notebooks.md gives the rule). Each
lesson has a page, slides for the room, worked solutions and a student notebook: the lesson without
its measured results and with empty exercise cells, to be run from the <code>notebooks/</code>
folder of a checkout of the kit (it imports <code>../lib/mod.ts</code>).</p>
<h2>Before the first class</h2>
${list(COURSE.prerequisites)}
<p>A 10-minute warm-up: open a new notebook in <code>notebooks/</code> with the Deno kernel, run
this cell, then change it to count the no-all setting too.</p>
<pre><code>${htmlText(WARM_UP_CODE)}</code></pre>
<h2>The lessons, in order</h2>
${rows}
<h2>References</h2>
<ol>${COURSE.references.map((r) => `<li>${htmlText(r)}</li>`).join("")}</ol>
<h2>The datasets' licences</h2>
<table>
<thead><tr><th>dataset</th><th>licence</th><th>what it allows</th></tr></thead>
<tbody>
${licences}
</tbody></table>
<p class="small">The kit does not ship the corpora: <code>./kit data</code> fetches them, and the
licence files travel with them. Until then the lessons read the bundled samples
(<code>data/samples</code>): small files in the real formats, authored for the kit, whose numbers
say nothing about any system.</p>
</body></html>
`;
}

/** The lessons the syllabus has objectives for, in order: each of {@link LESSONS}. */
export const SYLLABUS_LESSONS: readonly string[] = LESSONS.map((l) => l.file);
