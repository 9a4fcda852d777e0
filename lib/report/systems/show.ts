/**
 * What each section of page 00 shows, from a `SystemsReport`: its tables, figures and the few
 * sentences whose numbers come from the data. The section's prose (what it shows and why) is
 * the notebook's Markdown cell above it; a notebook cell is `await showSection(report, "results")`.
 * A section with nothing to show (no system with several runs, no tie that moves a MAP, no
 * QRCD run) shows one line saying so; `./kit report` leaves such sections out of its page.
 *
 * @module
 */
import type { Displayable, MimeBundle } from "../../plot/display.ts";
import { display } from "../../plot/show.ts";
import { table } from "../../plot/table.ts";
import type { Figure } from "../../plot/figures.ts";
import { headline } from "../notebook/headline.ts";
import { reportHeadline } from "./files.ts";
import type { SectionName, SystemsReport } from "./report.ts";
import { reportParts } from "../../tasks/registry.ts";
import type { PartData } from "../../tasks/task.ts";
import { identicalLines } from "../../stats/family.ts";
import { escapeHtml, htmlText } from "../../io/escape.ts";
import {
  corpusRows,
  differenceFigure,
  failureRows,
  familyRows,
  familySizeText,
  gapRows,
  identicalBlock,
  note,
  outcomeRows,
  publishedRows,
  resultFigure,
  resultRows,
  spreadFigure,
  spreadRows,
  systemRows,
  tieFigure,
  tieRows,
  warningsBlock,
} from "./tables.ts";

/** What a section says when it has nothing to show (a task part's: its `nothing`). */
const NOTHING: Record<string, string> = {
  systems: "",
  warnings: "No answer-selection system: nothing to check against a split.",
  results: "No answer-selection system given.",
  published: "No answer-selection system given.",
  spread: "Every system has one run: give several (one per seed) to see their spread.",
  significance: "Fewer than two answer-selection systems: nothing to compare.",
  ties: "Tie-breaking moves no system's MAP or MRR: every range over the orders of tied " +
    "candidates is 0.",
  pair: "No pair to analyse (one of your systems and a baseline, or two of yours, are needed).",
  breakdowns: "No answer-selection system given.",
  files: "",
};

/** The sample note as a framed block: the numbers are not the real corpus's. */
function sampleBlock(text: string): Displayable {
  const bundle: MimeBundle = {
    "text/html": '<div class="kit-warnings" style="border:2px solid #d62728;border-radius:4px;' +
      `padding:0.5em 1em;background:#fff5f5"><b>Not the real corpus:</b> ${htmlText(text)}</div>`,
    "text/plain": `Not the real corpus: ${text}`,
  };
  return { [Symbol.for("Jupyter.display")]: () => bundle };
}

/** Says where the report's files are (links relative to the exported page), or that none were written. */
function filesBlock(r: SystemsReport): Displayable {
  const files = r.files ?? [];
  const what = "The numbers of this page as data: the spec (spec.json, which evaluateSystems " +
    "takes), every number (systems.json) and per-question values (CSV)";
  const bundle: MimeBundle = files.length
    ? {
      "text/html": `<div class="kit-export">${htmlText(what)}: ` +
        files.map((f) => `<a href="../${escapeHtml(f)}">${htmlText(f)}</a>`).join(", ") +
        ", next to this report's index.</div>",
      "text/plain": `${what}: ${files.join(", ")} (in the report folder)`,
    }
    : {
      "text/html": `<div class="kit-export">${htmlText(what)}: written by ` +
        "<code>./kit report</code>, not by this notebook alone.</div>",
      "text/plain": `${what}: written by ./kit report, not by this notebook alone`,
    };
  return { [Symbol.for("Jupyter.display")]: () => bundle };
}

/**
 * The outputs of one section of page 00 (tables, figures, notes), in order; one note when the
 * section has nothing to show.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluateSystems } from "./report.ts";
 * import { sectionItems } from "./show.ts";
 * import { SAMPLES_DIR } from "../../data/paths.ts";
 * const report = await evaluateSystems({ data: "sample",
 *   systems: [{ name: "mine", runs: [`${SAMPLES_DIR}/runs/wikiqa-test.run`] }] }, { bootstrapSamples: 100 });
 * assert.equal(sectionItems(report, "results").length, 2); // the table and the figure
 * assert.equal(sectionItems(report, "spread").length, 1); // one run: a line saying so
 * ```
 */
export function sectionItems(r: SystemsReport, section: SectionName): (Displayable | Figure)[] {
  const part = reportParts().find((p) => p.key === section);
  if (!r.sections.includes(section)) return [note(part ? part.nothing : NOTHING[section] ?? "")];
  const c = r.corpus;
  const where = c ? `${c.dataset} ${c.split} (${c.filter})` : "";
  switch (section) {
    case "systems":
      return [
        ...(c?.sampleNote ? [sampleBlock(c.sampleNote)] : []),
        table(systemRows(r), { caption: "The systems of this report" }),
        ...(c
          ? [table(corpusRows(r), {
            caption: "The split every system is judged on (every question counts: -c)",
          })]
          : []),
        ...r.notes.map((n) => note(`${n.system} (${n.file}): ${n.text}`)),
      ];
    case "warnings":
      return [warningsBlock(r.warnings)];
    case "results":
      return [
        table(resultRows(r), {
          caption: `${where}: ${c!.questions} questions; intervals: 95%, percentile bootstrap ` +
            `over questions (${r.procedures.bootstrapSamples} resamples, seed ${r.procedures.seed})`,
        }),
        resultFigure(r),
      ];
    case "published": {
      if (r.published.rows.length === 0) {
        return [note(
          `The kit knows no published numbers for ${c!.dataset} ${c!.split}: every one it ` +
            "knows is on a test split.",
        )];
      }
      const setting = c!.filter === "clean" ? [] : [note(
        `This report uses the filter '${c!.filter}'; the published rows are on the question ` +
          "sets named in each row (mostly clean): compare with care.",
      )];
      return [
        table(publishedRows(r), { caption: `Published ${c!.dataset} ${c!.split} numbers` }),
        ...setting,
        r.published.gaps.length
          ? table(gapRows(r), {
            caption: "Your systems beside the published row they are named after or sit near",
          })
          : note(
            "None of your systems carries a published system's name or has MAP and MRR within " +
              "0.01 of a published row.",
          ),
      ];
    }
    case "spread":
      return [table(spreadRows(r)), spreadFigure(r)];
    case "significance": {
      const f = r.family!;
      const labelOf = (m: string) => r.measures.find((x) => x.name === m)?.label ?? m;
      const sizes = f.measures.map((m) => f.sizes?.[m] ?? f.size);
      const oneM = sizes.every((m) => m === sizes[0]);
      const level = +(f.level * 100).toFixed(2);
      const identical = identicalLines(f, labelOf);
      // A measure whose every pair is identical has m = 0: no test, nothing multiplied.
      const untested = f.measures.filter((_, i) => sizes[i] === 0).map(labelOf);
      const family = `The family: ${familySizeText(f, labelOf)} over ${f.questions} questions.`;
      return [
        note(
          f.size === 0
            ? `${family} Every pair is identical on every question of every measure: no test ` +
              "on any measure (no p, no interval)."
            : `${family} Each p is multiplied by ${
              oneM ? f.size : "its measure's m"
            } (Bonferroni); a pair is significant when that adjusted p is at most ${f.alpha}, ` +
              `which is exactly when its ${
                oneM ? `${level}%` : `1 - ${f.alpha}/m`
              } interval excludes 0.` +
              (untested.length
                ? ` No test on ${untested.join(", ")}: every pair is identical on ${
                  untested.length > 1 ? "them" : "it"
                }.`
                : ""),
        ),
        ...(identical.length ? [identicalBlock(identical)] : []),
        table(familyRows(r), { caption: "Your systems' pairs: A - B per measure" }),
      ];
    }
    case "ties":
      return [table(tieRows(r)), tieFigure(r)];
    case "pair": {
      const p = r.pair!;
      const items: (Displayable | Figure)[] = [
        note(`${p.a} against ${p.b}: ${p.reason}.`),
        table(outcomeRows(r), {
          caption: `Questions where each system scores higher (${c!.questions} questions)`,
        }),
        table(p.differing, { caption: `The questions where ${p.a} and ${p.b} differ most (AP)` }),
        differenceFigure(r),
      ];
      if (p.failures) {
        items.push(
          table(failureRows(p.failures), {
            caption: `Where ${p.a} puts a wrong candidate first: ${p.failures.count} of ` +
              `${p.failures.of} questions; the worst ones`,
          }),
        );
      }
      return items;
    }
    case "breakdowns":
      return [
        table(r.breakdowns.type, { caption: "MAP by question type" }),
        table(r.breakdowns.candidates, { caption: "MAP by number of candidates" }),
      ];
    case "files":
      return [
        filesBlock(r),
        headline(`Your systems${where ? `: ${where}` : ""}`, reportHeadline(r)),
      ];
    default:
      // a task part's section, as the part shows its data
      if (!part) throw new Error(`page 00 has no section '${section}'`);
      return part.show(r[section] as PartData) as (Displayable | Figure)[];
  }
}

/**
 * Shows one section of page 00 in the notebook: `await showSection(report, "results")`.
 *
 * @example
 * ```ts
 * import { evaluateSystems } from "./report.ts";
 * import { showSection } from "./show.ts";
 * import { SAMPLES_DIR } from "../../data/paths.ts";
 * const report = await evaluateSystems({ data: "sample", baselines: false,
 *   systems: [{ name: "mine", runs: [`${SAMPLES_DIR}/runs/wikiqa-test.run`] }] }, { bootstrapSamples: 100 });
 * await showSection(report, "warnings"); // outside a kernel: printed as text
 * ```
 */
export async function showSection(r: SystemsReport, section: SectionName): Promise<void> {
  for (const item of sectionItems(r, section)) await display(item);
}
