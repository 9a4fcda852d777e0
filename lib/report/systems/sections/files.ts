/**
 * Section `files`: where the page's numbers are as data (spec.json, systems.json, the CSVs,
 * the paper tables and figures), and the page's headline for the report's index.
 *
 * @module
 */
import type { MimeBundle } from "../../../plot/display.ts";
import { escapeHtml, htmlText } from "../../../io/escape.ts";
import { headline } from "../../notebook/headline.ts";
import { reportHeadline } from "../headline.ts";
import type { SystemsReport } from "../types.ts";
import type { PageSection, SectionItem } from "../section.ts";

/** Says where the report's files are (links relative to the exported page), or that none were written. */
function filesBlock(r: SystemsReport): SectionItem {
  const files = r.files ?? [];
  const what = "The numbers of this page as data: the spec (spec.json, which evaluateSystems " +
    "takes), every number (systems.json), per-question values (CSV), the systems table for " +
    "a paper (systems.tex, systems.md) and the figures (SVG)";
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

export const filesSection: PageSection = {
  name: "files",
  nothing: "",
  has: () => true,
  show(r) {
    const c = r.corpus;
    const where = c ? `${c.dataset} ${c.split} (${c.filter})` : "";
    return [filesBlock(r), headline(`Your systems${where ? `: ${where}` : ""}`, reportHeadline(r))];
  },
};
