/**
 * Page 00's systems table for a paper: `systems.tex` (a booktabs `table`, for `\input`) and
 * `systems.md` (a GitHub pipe table), written by `./kit report` beside `systems.json` from the
 * same {@link SystemsReport}, so their numbers are the report's.
 *
 * - rows: the systems in the report's order (yours, then the kit's baselines), each with a
 *   letter; columns: the measures, by their labels;
 * - a cell: the mean over questions and its percentile bootstrap interval, both printed as C's
 *   `printf("%.4f")` prints them (`formatFixedC`, as trec_eval and `eval compare` do); the best
 *   mean of a measure as printed in bold (every system that prints it, when several do);
 * - marks: superscript letters of the systems the row is significantly better than on that
 *   measure, for the pairs the report's family tested only (a test marks its `same` pairs,
 *   the pairs it stands for, alike);
 * - the caption: the questions and corpus, the interval's method, the test, the correction,
 *   the family in words with each measure's m, alpha, and the pairs not tested.
 *
 * Every user string (system names, the corpus and the family's words) is escaped:
 * `latexText` in LaTeX, `markdownText` in Markdown. The LaTeX needs `\usepackage{booktabs}`
 * only.
 *
 * @module
 */
import { latexText, markdownText } from "../../io/escape.ts";
import { formatFixedC } from "../../metrics/c_printf.ts";
import { type Family, identicalSystems } from "../../stats/family.ts";
import type { SystemsReport } from "./types.ts";

/** Decimals of every number in the tables. */
const DIGITS = 4;
/** The bootstrap intervals' level (`summarizeRuns`' default, which `evaluateSystems` keeps). */
const INTERVAL_LEVEL = "95%";
/** The most pairs the caption lists by letters (beyond it: their number). */
const LISTED_PAIRS = 15;

/** A family test with the fields being added to it read as optional (`same`). */
type Test = Family["tests"][number] & { same?: readonly (readonly [string, string])[] };
/** The family with the fields being added to it read as optional. */
type ReportFamily = Family & { choice?: string; description?: string };

/** The i-th system's letter: a … z, aa, ab, … (as `eval compare` labels systems). */
function letter(i: number): string {
  let s = "";
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    s = String.fromCharCode(97 + (n - 1) % 26) + s;
  }
  return s;
}

function fmt(x: number): string {
  return formatFixedC(x, DIGITS);
}

/** What both tables show, computed once. */
interface Table {
  letters: Map<string, string>;
  /** Per system, per measure: the mean, the interval, bold, the letters of the marks. */
  cells: Map<string, Record<string, Cell>>;
}

interface Cell {
  mean: string;
  lower: string;
  upper: string;
  best: boolean;
  marks: string;
}

/**
 * The systems each system is significantly better than, per measure: every significant test
 * marks its winner with the loser's letter, and so every pair listed in its `same` (oriented
 * like the test: the first of each on the test's a side).
 */
function betterThan(r: SystemsReport): Map<string, Map<string, Set<string>>> {
  const out = new Map<string, Map<string, Set<string>>>();
  for (const t of (r.family?.tests ?? []) as Test[]) {
    if (!t.significant || t.difference === 0) continue;
    for (const [a, b] of [[t.a, t.b] as const, ...(t.same ?? [])]) {
      const [winner, loser] = t.difference > 0 ? [a, b] : [b, a];
      const byMeasure = out.get(winner) ?? new Map<string, Set<string>>();
      const set = byMeasure.get(t.measure) ?? new Set<string>();
      set.add(loser);
      byMeasure.set(t.measure, set);
      out.set(winner, byMeasure);
    }
  }
  return out;
}

function table(r: SystemsReport): Table {
  const letters = new Map(r.systems.map((s, i) => [s.name, letter(i)]));
  // Letters joined as they are while each is one letter; with "aa" and beyond, by commas.
  const join = r.systems.length > 26 ? "," : "";
  const better = betterThan(r);
  const best = Object.fromEntries(
    r.measures.map((m) => [m.name, fmt(Math.max(...r.systems.map((s) => s.mean[m.name])))]),
  );
  const cells = new Map(r.systems.map((s) => [
    s.name,
    Object.fromEntries(r.measures.map((m): [string, Cell] => {
      const losers = better.get(s.name)?.get(m.name) ?? new Set<string>();
      const mean = fmt(s.mean[m.name]);
      return [m.name, {
        mean,
        lower: fmt(s.interval[m.name].lower),
        upper: fmt(s.interval[m.name].upper),
        best: mean === best[m.name],
        marks: r.systems.filter((o) => losers.has(o.name)).map((o) => letters.get(o.name)!)
          .join(join),
      }];
    })),
  ]));
  return { letters, cells };
}

/** "a-b, a-c" for the pairs of the family, or their number when there are many. */
function pairList(pairs: readonly (readonly [string, string])[], letters: Map<string, string>) {
  const named = pairs.map(([a, b]) => `${letters.get(a) ?? a}-${letters.get(b) ?? b}`);
  return pairs.length <= LISTED_PAIRS ? named.join(", ") : `${pairs.length} pairs`;
}

/**
 * The family in words when the report does not say (`family.description`): the report's
 * default family (your systems against each other and each against each baseline) named so.
 */
function familyWords(r: SystemsReport, f: Family): string {
  const users = r.systems.filter((s) => s.kind === "user").map((s) => s.name);
  const baselines = r.systems.filter((s) => s.kind === "baseline").map((s) => s.name);
  const all = [
    ...users.flatMap((a, i) => users.slice(i + 1).map((b) => [a, b])),
    ...users.flatMap((a) => baselines.map((b) => [a, b])),
  ];
  return JSON.stringify(all) === JSON.stringify(f.pairs)
    ? "all pairs involving your systems"
    : "the pairs asked";
}

/** The sentences on the family's tests (after the intervals'). */
function familyCaption(r: SystemsReport, f: ReportFamily, letters: Map<string, string>): string {
  const label = (m: string) => r.measures.find((x) => x.name === m)?.label ?? m;
  const sizes = f.measures.map((m) => f.sizes?.[m] ?? 0);
  const m = sizes.every((s) => s === sizes[0])
    ? `m = ${sizes[0]} tests on each measure`
    : `m = ${f.measures.map((x, i) => `${sizes[i]} on ${label(x)}`).join(", ")}`;
  const parts = [
    `Superscript letters: the systems the row is significantly better than on the measure, ` +
    `by the paired t-test (two-sided, on each question's difference) with Bonferroni's ` +
    `correction over the family (adjusted p = min(1, m p), significant when at most ` +
    `alpha = ${f.alpha}); a pair without a mark is not significant or was not tested.`,
    `The family: ${f.description ?? familyWords(r, f)} (${pairList(f.pairs, letters)}); ` +
    `each measure is its own family, ${m}.`,
  ];
  const identical = identicalSystems(f);
  if (identical.length) {
    parts.push(
      `Not tested, not counted in m (identical on every question): ${
        identical.map((p) =>
          `${letters.get(p.a) ?? p.a} and ${letters.get(p.b) ?? p.b} on ${
            p.everyMeasure ? "every measure" : p.measures.map(label).join(", ")
          }`
        ).join("; ")
      }.`,
    );
  }
  // The tests that stand for other pairs, grouped by the measures they do so on.
  const same = new Map<string, string[]>();
  for (const t of f.tests as Test[]) {
    if (!(t.same ?? []).length) continue;
    const spellings = [[t.a, t.b] as const, ...t.same!]
      .map(([a, b]) => `${letters.get(a) ?? a}-${letters.get(b) ?? b}`).join(" = ");
    same.set(spellings, [...same.get(spellings) ?? [], t.measure]);
  }
  if (same.size) {
    const byMeasures = new Map<string, string[]>();
    for (const [spellings, measures] of same) {
      const on = measures.length === f.measures.length
        ? "every measure"
        : measures.map(label).join(", ");
      byMeasures.set(on, [...byMeasures.get(on) ?? [], spellings]);
    }
    parts.push(
      `One test, counted once in m and marked alike (pairs whose systems are identical on ` +
        `every question of the measure, side by side): ${
          [...byMeasures].map(([on, tests]) => `${tests.join(", ")} on ${on}`).join("; ")
        }.`,
    );
  }
  return parts.join(" ");
}

/** The caption as plain text (each format escapes all of it); `where` places the interval. */
function caption(r: SystemsReport, letters: Map<string, string>, where: string): string {
  const c = r.corpus;
  const questions = c?.questions ?? r.family?.questions ?? r.systems[0]?.queries ?? 0;
  const corpus = c
    ? ` of ${c.data === "sample" ? "the bundled sample of " : ""}${c.dataset} ${c.split} ` +
      `(filter: ${c.filter})`
    : "";
  const p = r.procedures;
  const several = r.systems.filter((s) => s.runCount > 1);
  const parts = [
    `Mean of each measure over the ${questions} questions${corpus}, with its ` +
    `${INTERVAL_LEVEL} percentile bootstrap interval over questions ${where} (` +
    `${p.bootstrapSamples} resamples, seed ${p.seed}); means and bounds rounded to ` +
    `${DIGITS} decimals; the best mean of each measure in bold.`,
  ];
  if (several.length) {
    parts.push(
      `A system with several runs has each question's mean over its runs (${
        several.map((s) => `${letters.get(s.name)}: ${s.runCount} runs`).join(", ")
      }).`,
    );
  }
  parts.push(
    r.family
      ? familyCaption(r, r.family, letters)
      : `No significance test: ${
        r.systems.length < 2 ? "a single system, no pair to test" : "no pair was tested"
      }.`,
  );
  return parts.join(" ");
}

function latex(r: SystemsReport, t: Table): string {
  const lines = [
    "\\begin{table}",
    "\\centering",
    `\\begin{tabular}{ll${"c".repeat(r.measures.length)}}`,
    "\\toprule",
    ` & System & ${r.measures.map((m) => latexText(m.label)).join(" & ")} \\\\`,
    "\\midrule",
  ];
  r.systems.forEach((s, i) => {
    const next = r.systems[i + 1];
    const cells = r.measures.map((m) => t.cells.get(s.name)![m.name]);
    lines.push(
      `${t.letters.get(s.name)} & ${latexText(s.name)} & ${
        cells.map((c) =>
          (c.best ? `\\textbf{${c.mean}}` : c.mean) +
          (c.marks ? `\\textsuperscript{${c.marks}}` : "")
        ).join(" & ")
      } \\\\`,
      ` & & ${cells.map((c) => `{\\scriptsize [${c.lower}, ${c.upper}]}`).join(" & ")} \\\\`,
    );
    if (next) lines.push(next.kind !== s.kind ? "\\midrule" : "\\addlinespace");
  });
  lines.push(
    "\\bottomrule",
    "\\end{tabular}",
    `\\caption{${latexText(caption(r, t.letters, "on the line below it"))}}`,
    "\\label{tab:systems}",
    "\\end{table}",
  );
  return lines.join("\n") + "\n";
}

function markdown(r: SystemsReport, t: Table): string {
  const lines = [
    `| | System | ${r.measures.map((m) => markdownText(m.label)).join(" | ")} |`,
    `|---|---|${r.measures.map(() => "---:").join("|")}|`,
  ];
  for (const s of r.systems) {
    const cells = r.measures.map((m) => {
      const c = t.cells.get(s.name)![m.name];
      return (c.best ? `**${c.mean}**` : c.mean) + (c.marks ? `<sup>${c.marks}</sup>` : "") +
        ` [${c.lower}, ${c.upper}]`;
    });
    lines.push(`| ${t.letters.get(s.name)} | ${markdownText(s.name)} | ${cells.join(" | ")} |`);
  }
  lines.push("", markdownText(caption(r, t.letters, "in brackets")));
  return lines.join("\n") + "\n";
}

/**
 * The systems table of a report for a paper: `tex`, a booktabs `table` (`systems.tex`, needs
 * `\usepackage{booktabs}` only; `\label{tab:systems}`), and `md`, the same table as GitHub
 * Markdown (`systems.md`). Each cell is the mean and its 95% percentile bootstrap interval,
 * 4 decimals (`formatFixedC`), the best mean of each measure in bold, and superscript letters
 * of the systems the row is significantly better than under the report's family; the caption
 * says how every number was made. Without a family (one system), no marks, and the caption
 * says there is no test.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { paperTables } from "./paper_table.ts";
 * import { evaluateSystems } from "./report.ts";
 * import { SAMPLES_DIR } from "../../data/paths.ts";
 * const report = await evaluateSystems({
 *   data: "sample",
 *   systems: [{ name: "mine_v2", runs: [`${SAMPLES_DIR}/runs/wikiqa-test.run`] }],
 * }, { bootstrapSamples: 200 });
 * const { tex, md } = paperTables(report);
 * const mine = report.systems[0];
 * assert(tex.includes("\\toprule") && tex.includes("a & mine\\_v2 & "));
 * assert(tex.includes("\\label{tab:systems}") && tex.includes("paired t-test (two-sided"));
 * assert(md.startsWith("| | System | MAP | MRR | P@1 | nDCG@10 |\n|---|---|---:|---:|---:|---:|"));
 * assert(md.includes(`| a | mine\\_v2 | `) && md.includes(mine.mean.map.toFixed(4)));
 * ```
 */
export function paperTables(r: SystemsReport): { tex: string; md: string } {
  const t = table(r);
  return { tex: latex(r, t), md: markdown(r, t) };
}
