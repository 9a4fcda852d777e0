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
import { type Family, identicalSystems, testSides } from "../../stats/family.ts";
import type { SystemsReport } from "./types.ts";

/** Decimals of every number in the tables. */
const DIGITS = 4;
/** The bootstrap intervals' level (`summarizeRuns`' default, which `evaluateSystems` keeps). */
const INTERVAL_LEVEL = "95%";
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
 * The systems each system is significantly better than, per measure. A test is on classes of
 * systems identical on every question of the measure (its `same` pairs, and the family's
 * identical pairs): a significant test marks every system of the winning class with the letter
 * of every system of the losing one, so identical rows carry identical marks.
 */
function betterThan(r: SystemsReport): Map<string, Map<string, Set<string>>> {
  const out = new Map<string, Map<string, Set<string>>>();
  const f = r.family;
  if (!f) return out;
  for (const t of f.tests as Test[]) {
    if (!t.significant || t.difference === 0) continue;
    // The classes of the measure: the systems joined by an identical pair, transitively.
    const joined = f.identical.filter((i) => i.measure === t.measure);
    const classOf = (start: readonly string[]) => {
      const members = new Set(start);
      for (let grew = true; grew;) {
        grew = false;
        for (const i of joined) {
          if (members.has(i.a) !== members.has(i.b)) {
            members.add(i.a).add(i.b);
            grew = true;
          }
        }
      }
      return members;
    };
    const [a, b] = testSides(t).map(classOf);
    const [winners, losers] = t.difference > 0 ? [a, b] : [b, a];
    for (const winner of winners) {
      const byMeasure = out.get(winner) ?? new Map<string, Set<string>>();
      const set = byMeasure.get(t.measure) ?? new Set<string>();
      for (const loser of losers) set.add(loser);
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

/** A caption in pieces: text (escaped by each format) and maths (LaTeX, and its plain form). */
type Piece = string | { tex: string; plain: string };

const math = (tex: string, plain: string): Piece => ({ tex, plain });

/** Letters as a range or a list: "a-c", "a, c". */
function letterList(names: readonly string[], letters: Map<string, string>): string {
  const ls = names.map((n) => letters.get(n) ?? n);
  const all = [...letters.values()];
  const from = all.indexOf(ls[0]);
  const contiguous = ls.length > 2 && ls.every((l, i) => all[from + i] === l);
  return contiguous ? `${ls[0]}-${ls.at(-1)}` : ls.join(", ");
}

/** The family in words for a paper, systems by their letters. */
function familyWords(r: SystemsReport, f: ReportFamily, letters: Map<string, string>): string {
  const users = r.systems.filter((s) => s.kind === "user").map((s) => s.name);
  const choice = f.choice ?? "all";
  if (choice === "mine") return `the pairs among ${letterList(users, letters)}`;
  if (choice.startsWith("baseline:")) {
    const name = choice.slice("baseline:".length);
    const others = users.filter((u) => u !== name);
    return `each of ${letterList(others, letters)} against ${letters.get(name) ?? name}`;
  }
  const baselines = r.systems.length > users.length;
  return `every pair with at least one of ${letterList(users, letters)}` +
    (baselines ? " (not the baselines against each other)" : "");
}

/** The sentences on the family's tests (after the intervals'). */
function familyCaption(r: SystemsReport, f: ReportFamily, letters: Map<string, string>): Piece[] {
  const label = (m: string) => r.measures.find((x) => x.name === m)?.label ?? m;
  const sizes = f.measures.map((m) => f.sizes?.[m] ?? 0);
  const one = sizes.every((x) => x === sizes[0]);
  const pieces: Piece[] = [
    "Superscripts: significantly better than the lettered system (paired t-test, two-sided; " +
    "Bonferroni over the family, ",
    math(`\\alpha = ${f.alpha}`, `alpha = ${f.alpha}`),
    `; family: ${familyWords(r, f, letters)}, `,
    one
      ? math(`m = ${sizes[0]}`, `m = ${sizes[0]}`)
      : `m = ${f.measures.map((x, i) => `${sizes[i]} on ${label(x)}`).join(", ")}`,
    one ? " distinct tests per measure)." : " distinct tests).",
  ];
  const identical = identicalSystems(f);
  if (identical.length) {
    pieces.push(
      ` Identical on every question, one system in the tests: ${
        identical.map((p) =>
          `${letters.get(p.a) ?? p.a} = ${letters.get(p.b) ?? p.b}` +
          (p.everyMeasure ? "" : ` (${p.measures.map(label).join(", ")})`)
        ).join(", ")
      }.`,
    );
  }
  return pieces;
}

/** The caption in pieces (each format escapes the text); `where` places the interval. */
function caption(r: SystemsReport, letters: Map<string, string>, where: string): Piece[] {
  const c = r.corpus;
  const questions = c?.questions ?? r.family?.questions ?? r.systems[0]?.queries ?? 0;
  const corpus = c
    ? ` of ${c.data === "sample" ? "the bundled sample of " : ""}${c.dataset} ${c.split} ` +
      `(${c.filter})`
    : "";
  const p = r.procedures;
  const several = r.systems.filter((s) => s.runCount > 1);
  const pieces: Piece[] = [
    `Mean over the ${questions} questions${corpus} with its ${INTERVAL_LEVEL} percentile ` +
    `bootstrap interval ${where} (${p.bootstrapSamples} resamples, seed ${p.seed}), ` +
    `${DIGITS} decimals; best in bold.`,
  ];
  if (several.length) {
    pieces.push(
      ` Each question's mean over a system's runs (${
        several.map((s) => `${letters.get(s.name)}: ${s.runCount} runs`).join(", ")
      }).`,
    );
  }
  pieces.push(" ");
  pieces.push(
    ...(r.family ? familyCaption(r, r.family, letters) : [
      `No significance test: ${
        r.systems.length < 2 ? "a single system, no pair to test" : "no pair was tested"
      }.`,
    ]),
  );
  return pieces;
}

/** The caption in LaTeX: text escaped, maths in `$...$`. */
function latexCaption(pieces: readonly Piece[]): string {
  return pieces.map((x) => typeof x === "string" ? latexText(x) : `$${x.tex}$`).join("");
}

/** The caption in Markdown: text escaped, maths as plain text. */
function markdownCaption(pieces: readonly Piece[]): string {
  return markdownText(pieces.map((x) => typeof x === "string" ? x : x.plain).join(""));
}

function latex(r: SystemsReport, t: Table): string {
  const lines = [
    "% The systems table of a report on your systems: \\input it with \\usepackage{booktabs}. Names",
    "% outside Latin-1 (Arabic, emoji) need XeLaTeX or LuaLaTeX with a font that has them.",
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
    `\\caption{${latexCaption(caption(r, t.letters, "on the line below it"))}}`,
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
  lines.push("", markdownCaption(caption(r, t.letters, "in brackets")));
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
 * assert(tex.includes("\\label{tab:systems}") && tex.includes("paired t-test, two-sided"));
 * assert(md.startsWith("| | System | MAP | MRR | P@1 | nDCG@10 |\n|---|---|---:|---:|---:|---:|"));
 * assert(md.includes(`| a | mine\\_v2 | `) && md.includes(mine.mean.map.toFixed(4)));
 * ```
 */
export function paperTables(r: SystemsReport): { tex: string; md: string } {
  const t = table(r);
  return { tex: latex(r, t), md: markdown(r, t) };
}
