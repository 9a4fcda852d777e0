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
      "load WikiQA, TREC-QA and QRCD splits and check their sizes against the published counts under each filter",
      "explain why WikiQA's test set is counted as 243 or 237 questions and what that does to a MAP",
      "compute the probability c/n that a random order puts a correct candidate first, and relate candidate-list length to how hard ranking is",
      "check splits for shared questions (`checkLeakage`, `checkQrcdLeakage`) and explain why splitting by judgment leaks",
    ],
    "02-filters": [
      "apply the raw, no-all and clean settings and say what each drops and why",
      "explain why the same run gets a different MAP under each setting",
      "derive the raw and no-all MAP from the clean MAP and the counts of each kind of question",
      "state the protocol (train on no-all, evaluate on clean) and name the setting behind any WikiQA MAP",
    ],
    "03-scoring": [
      "train the learned ranker and turn a model's scores into a TREC run file and its MAP",
      "describe how a cross-encoder tokenizes, batches and pads pairs, and score their own model with `./kit report --model DIR`",
      "compute a random ranking's exact expected AP and compare a model with it, and with BM25, using a paired t test and its interval",
      "justify a t interval for MAP (central limit theorem over hundreds of questions) and name the bootstrap as the alternative",
    ],
    "04-metrics": [
      "compute AP, RR, P@k and nDCG@k of a ranked question by hand and check them against `evaluate`, as trec_eval orders ties",
      "read and write TREC run and qrels files and name each measure as trec_eval, ir_measures and ranx do",
      "give a MAP with a 95% interval over questions, say why a bootstrap or a t interval, and frame it by a random and a best ranking",
      "judge whether a published number is comparable to a re-scored one (same questions, same system, the printed number against its released file)",
    ],
    "05-significance": [
      "compare two systems paired over the same questions and report the difference, its interval and then p",
      'read a p above 0.05 as "no difference shown", bounded by the interval, not as "the same"',
      "measure what a feature contributes by an ablation (the ranker retrained without it, compared paired) and recognise a corpus regularity such as WikiQA's answer position",
      "choose between the paired t test, the randomization test and the bootstrap from their assumptions, and run the sign test by hand",
    ],
    "06-qrcd": [
      "apply QRCD's normalization and span check as the official scorer does",
      "compute pRR (F1-weighted, not 1/rank), EM and F1@1 for a record by hand",
      "explain how the mean over records weights questions, and report the mean over questions beside it",
      "say why published QRCD numbers are not like for like with a non-Farasa segmenter",
    ],
    "07-heldout": [
      "split judged questions by question into train, test and validation, and check the slices for leakage",
      "keep collection statistics such as IDF to the train slice, and measure what using the whole pool changes",
      "choose a setting on test and score it once on validation, reading each MAP as a gain over random with the gain's own interval",
      "measure how much picking the best of several settings inflates the test number, and apply the book's and the kit's overfitting rules",
    ],
    "08-labels": [
      "tell golden from silver labels and measure their agreement with Cohen's kappa rather than raw agreement",
      "show with a paired test that silver labels favour the system that made them and can reverse a comparison",
      "test whether training on silver labels costs MAP on golden labels",
      'read a "k of 10" as P@1 with an interval, and say what ten questions can and cannot decide',
    ],
    "09-stability": [
      "report a trained ranker as mean ± sd and min–max over seeds, with the per-seed values, never as one run",
      "test whether two regimes trained with the same seeds differ in spread with Pitman–Morgan's paired test, and read its p and the variance ratio's interval",
      "say why the F test for independent samples is wrong for paired seeds",
      "estimate how many seeds a mean within ±h needs",
    ],
    "10-robustness": [
      "measure how far a regime's MAP drops under label noise, over seeds, with intervals",
      "test a robustness claim as the regime × noise interaction (d per seed, one-sample t, Bonferroni over levels), and state a verdict no stronger than its interval",
      "show how one run per regime or picked seeds can favour either regime, and compare over all seeds instead",
      "apply the same measurements to their own runs",
    ],
    "11-pitfalls": [
      "say which question set, candidate set and split the protocol's number needs, and rebuild a raw MAP from the clean one",
      "compare MAPs over different candidate lists as gains over a random ranking, with an interval and a paired test, and separate a leak's effect from a list-length effect",
      "report trec_eval's tie-order MAP with the expected MAP over tie orders beside it, and test whether the order moves it",
      "recognise P@k's blind spot on short lists and compute QRCD's official, F1-weighted pRR",
    ],
    "12-qqa23": [
      "score passage retrieval with zero-answer questions by the official rules (MAP@10, MRR)",
      "write out the official script's list of values, and explain where it and the complete protocol differ",
      "choose an abstention threshold on dev, read it once on test with a paired test (interval first), and explain why choosing on test is optimistic",
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
    // the first part is the title's: the lesson's introduction
    const parts = lessonParts(l.notebook)
      .map((p, i) => `${i === 0 ? "introduction" : htmlText(p.title)} (${p.minutes} min)`)
      .join("; ");
    const links = [
      link(l.links.page, "page"),
      link(l.links.slides, "slides"),
      link(l.links.solutions, "solutions"),
      link(l.links.student, "student notebook"),
    ].filter(Boolean).join(" &middot; ");
    return `<section><h3>${htmlText(l.title)} <span class="small">(${minutes} min)</span></h3>
<p class="small">${links}</p>
<p>After this lesson a student can:</p>${list(objectives)}
<p class="small">Parts, in order (each rounded up to a minute): ${parts}.</p></section>`;
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
its measured results and with empty exercise cells (<code>student/student-NN-name.ipynb</code>), to
be run from the <code>notebooks/</code> folder of a checkout of the kit (it imports
<code>../lib/mod.ts</code>). A checkout also holds the lessons with their solutions and
<code>tests/exercises/</code>: for a class where that matters, hand out a copy of the kit without
<code>tests/exercises/</code> whose <code>notebooks/</code> holds only the student notebooks.</p>
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
<p class="small">The kit does not ship the corpora: <code>./kit data fetch all</code> fetches them, and the
licence files travel with them. Until then the lessons read the bundled samples
(<code>data/samples</code>): small files in the real formats, authored for the kit, whose numbers
say nothing about any system.</p>
</body></html>
`;
}

/** The lessons the syllabus has objectives for, in order: each of {@link LESSONS}. */
export const SYLLABUS_LESSONS: readonly string[] = LESSONS.map((l) => l.file);
