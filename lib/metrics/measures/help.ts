/**
 * The measure list of `eval trec -h` and of docs/measures.md, generated from the table (a test
 * checks the docs' copy).
 *
 * @module
 */
import type { AnyMeasure } from "./measure.ts";
import { MEASURES, NICKNAMES, NICKNAMES_10 } from "./table.ts";
import { IR_MEASURES_NAMES } from "./ir_measures.ts";

/** How `-m` writes the measure with parameters (`P.k,...`, `utility.p1,p2,p3,p4`). */
function measureSyntax(m: AnyMeasure): string {
  switch (m.params) {
    case "none":
      return m.name;
    case "cutoffs":
      return `${m.name}.k,...`;
    case "fractions":
      return `${m.name}.x,...`;
    case "floats":
      return m.paramCount
        ? `${m.name}.${Array.from({ length: m.paramCount }, (_, i) => `p${i + 1}`).join(",")}`
        : `${m.name}.x,...`;
    case "gains":
      return `${m.name}.level=gain,...`;
    case "pairs":
      return `${m.name}.${Object.keys(m.pairDefaults ?? {}).map((k) => `${k}=x`).join(",")},...`;
  }
}

/** The parameters used when none are given, as `-m` would write them. */
function measureDefaults(m: AnyMeasure): string {
  if (m.params === "gains") return "gain = level";
  if (m.params === "pairs") {
    return Object.entries(m.pairDefaults ?? {}).map(([k, v]) => `${k}=${v}`).join(",");
  }
  if (!m.defaults) return "";
  if (m.defaults.length === 1 && m.defaults[0] === Infinity) return "whole ranking";
  return m.defaults.join(",");
}

/** How the `all` line is formed, in words. */
function summaryWords(m: AnyMeasure): string {
  switch (m.aggregate) {
    case "mean":
      return "mean";
    case "sum":
      return "sum";
    case "geometric":
      return "geometric mean";
    case "none":
      return "per query only";
    case "meta":
      return "summary line";
  }
}

/**
 * The measure list for `eval trec -h`: one paragraph per table entry.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { measureHelp } from "./help.ts";
 * assert(measureHelp().includes("ndcg_cut.k,..."));
 * ```
 */
export function measureHelp(): string {
  const lines = [
    "measures (-m NAME or -m NAME.PARAMS; table order is output order):",
  ];
  for (const m of MEASURES) {
    const defaults = measureDefaults(m);
    const head = `  ${m.params === "none" ? m.name : measureSyntax(m)}` +
      (defaults ? `  (default ${defaults})` : "") +
      `  [${summaryWords(m)}${m.integer ? ", count" : ""}]` +
      (m.release ? ` [trec_eval ${m.release} only: --trec-eval ${m.release}]` : "") +
      (m.origin ? ` [${m.origin}]` : "");
    lines.push(head, ...wrap(m.description, 92).map((l) => `      ${l}`));
  }
  lines.push(
    "groups: " + Object.entries(NICKNAMES).map(([k, v]) => `${k} (${v.length})`).join(", ") +
      `; all_trec under --trec-eval 10.0 (${NICKNAMES_10.all_trec.length}); no -m means official`,
    `ir_measures names: ${IR_MEASURES_NAMES.join(" ")} with their parameters,`,
    "  as AP@100, P(rel=2)@5, nDCG(dcg='exp-log2')@10, Judged@10 (docs/measures.md)",
  );
  return lines.join("\n");
}

/**
 * docs/measures.md's measure list (Markdown): one item per table entry.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { measureMarkdown } from "./help.ts";
 * assert(measureMarkdown().startsWith("- `runid`"));
 * ```
 */
export function measureMarkdown(): string {
  return MEASURES.map((m) => {
    const defaults = measureDefaults(m);
    const facts = [
      ...(defaults ? [`default ${defaults}`] : []),
      `all: ${summaryWords(m)}`,
      ...(m.integer ? ["a count"] : []),
      ...(m.release ? [`trec_eval ${m.release} only: --trec-eval ${m.release}`] : []),
      ...(m.origin ? [`not in trec_eval: ${m.origin}`] : []),
    ];
    return `- \`${m.params === "none" ? m.name : measureSyntax(m)}\` (${facts.join("; ")}): ` +
      `${m.description}`;
  }).join("\n") + "\n";
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}
