/**
 * Section `systems`: which systems the page is about (your runs or models, the kit's
 * baselines, each task part's runs), the question set every number is over, and the notes on
 * reading the runs.
 *
 * @module
 */
import { basename } from "../../../io/path.ts";
import type { MimeBundle } from "../../../plot/display.ts";
import { type Row, table } from "../../../plot/table.ts";
import { htmlText } from "../../../io/escape.ts";
import { reportParts } from "../../../tasks/registry.ts";
import type { PartData } from "../../../tasks/task.ts";
import { note } from "../../notebook/blocks.ts";
import type { SystemsReport } from "../types.ts";
import type { PageSection, SectionItem } from "../section.ts";

/** The sample note as a framed block: the numbers are not the real corpus's. */
function sampleBlock(text: string): SectionItem {
  const bundle: MimeBundle = {
    "text/html": '<div class="kit-warnings" style="border:2px solid #d62728;border-radius:4px;' +
      `padding:0.5em 1em;background:#fff5f5"><b>Not the real corpus:</b> ${htmlText(text)}</div>`,
    "text/plain": `Not the real corpus: ${text}`,
  };
  return { [Symbol.for("Jupyter.display")]: () => bundle };
}

/** The systems as given: name, where they come from, run files. */
export function systemRows(r: SystemsReport): Row[] {
  return [
    ...r.systems.map((s) => ({
      system: s.name,
      kind: s.kind === "user" ? "yours" : "kit baseline",
      source: s.kind === "baseline"
        ? `scored by the kit (${s.model})`
        : s.model
        ? `model ${s.model}, scored by the kit`
        : "run files",
      runs: s.runCount,
      "run files": s.runs.map(basename).join(", "),
    })),
    ...reportParts().flatMap((p) =>
      r[p.key] === undefined ? [] : p.systemRows(r[p.key] as PartData)
    ),
  ];
}

/** The corpus and split the systems were judged on, as one row. */
export function corpusRows(r: SystemsReport): Row[] {
  const c = r.corpus;
  if (!c) return [];
  return [{
    dataset: c.dataset,
    split: c.split,
    filter: c.filter,
    corpus: c.data === "real" ? "real (fetched)" : "bundled sample",
    "chosen by": c.chosen === "asked" ? "the spec (data)" : "default: the installed corpus",
    questions: c.questions,
    candidates: c.candidates,
    "what the filter did": c.filterSummary,
  }];
}

/**
 * The question set every answer-selection number of the page is over, in one sentence (the
 * page opens with it; a published row on another set gets your numbers on that set computed,
 * in the published section).
 */
export function questionSetText(r: SystemsReport): string {
  const c = r.corpus!;
  return `Every answer-selection number on this page is over the ${c.questions} questions of ` +
    `${c.dataset} ${c.split} under the filter '${c.filter}' (of ${c.allQuestions} before it), ` +
    "each counted, a question missing from a run scoring 0 (trec_eval -c).";
}

export const systemsSection: PageSection = {
  name: "systems",
  nothing: "",
  has: () => true,
  show(r) {
    const c = r.corpus;
    return [
      ...(c?.sampleNote ? [sampleBlock(c.sampleNote)] : []),
      ...(c ? [note(questionSetText(r))] : []),
      table(systemRows(r), { caption: "The systems of this report" }),
      ...(c
        ? [table(corpusRows(r), {
          caption: "The split every system is judged on (every question counts: -c)",
        })]
        : []),
      ...r.notes.map((n) => note(`${n.system} (${n.file}): ${n.text}`)),
    ];
  },
};
