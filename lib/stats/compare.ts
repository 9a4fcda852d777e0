/**
 * Comparing systems on per-query values, in the spirit of ranx's `compare`: one row per
 * system, one column per measure, each value marked with the letters of the systems it is
 * significantly better than, plus the table of every pairwise test. Exports to Markdown,
 * LaTeX and CSV.
 *
 * Significance: for each measure every pair of systems is tested (paired randomization test
 * or paired t-test on the per-query values, paired by query id). With more than two systems
 * the p-values of one measure are adjusted together (Holm by default, over the k(k-1)/2
 * pairs), and a pair is significant when its adjusted p <= alpha.
 *
 * A pair whose per-query differences on a measure are all 0 (within 1e-12: the same run under
 * two names) is not tested on it, as in the report's family (`testFamily`): the t statistic is
 * 0 / 0 and a randomization test's p = 1 is vacuous, so the pair gets no p (`identical`), and
 * the correction runs over that measure's other pairs only (counting a p that can never be a
 * false discovery would only raise the others' adjusted p). Systems identical on every query of
 * a measure are one system for its correction (`pairRoles`, as in `testFamily`): pairs that join
 * the same two such classes (a - b and acopy - b) are one test, counted once among the p-values
 * adjusted; the first is tested, the others (`sameAs`) share its p and adjusted p.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import {
  adjustPValues,
  bootstrapCI,
  type ConfidenceInterval,
  type Correction,
  mean,
  pairedTTest,
} from "./significance.ts";
import { DEFAULT_SEED, type Seed } from "./random.ts";
import { exactSignFlipCount, signFlipCounts } from "./randomization.ts";
import { commonQueries } from "./query_set.ts";
import { formatFixedC } from "../metrics/c_printf.ts";
import { formatP } from "./p_value.ts";
import { csvText, latexText, markdownText } from "../io/escape.ts";
import { labelLegend, measureLabel } from "../metrics/protocol_measures.ts";
import { NOT_TESTED, pairRoles, sameValues } from "./family.ts";

/** Per-query values of one system: query id to (measure name to value), like `EvalResult.perQuery`. */
export type PerQueryValues = Map<string, Record<string, number>>;

/** Significance tests {@link compareSystems} can run. */
export type TestName = "randomization" | "ttest";

/** Options of {@link compareSystems}. */
export interface CompareOptions {
  /** Test to run (default `randomization`). */
  test?: TestName;
  /** Randomization trials (default 10,000). */
  trials?: number;
  /** Seed for the randomization test and the bootstrap (default 42). */
  seed?: Seed;
  /** Significance level (default 0.05). */
  alpha?: number;
  /** Correction; default `holm` with more than two systems, `none` with two. */
  correction?: Correction;
  /**
   * Which queries: `same` (default) requires every system to have the same query ids (an
   * error otherwise); `intersection` keeps the queries every system has.
   */
  queries?: "same" | "intersection";
  /**
   * Percentile bootstrap intervals (samples, level); off by default. Each system's mean gets
   * one over its per-query values, and each pair's difference a paired one: the queries are
   * resampled and the mean of the per-query differences a - b taken on each resample.
   */
  bootstrap?: { samples?: number; level?: number };
}

/** One system's value for one measure. */
export interface ComparisonCell {
  /** Mean over the compared queries. */
  mean: number;
  /** Bootstrap interval, when asked for. */
  ci?: ConfidenceInterval;
  /** Labels of the systems this one is significantly better than. */
  betterThan: string[];
}

/** One pairwise test. */
export interface PairResult {
  measure: string;
  /** First system's name. */
  a: string;
  /** Second system's name. */
  b: string;
  /** mean(a) - mean(b). */
  meanDifference: number;
  /**
   * Paired bootstrap interval of `meanDifference` (queries resampled, the same resample for
   * both systems), when `bootstrap` is asked for.
   */
  ci?: ConfidenceInterval;
  /** Unadjusted two-sided p; null when the pair is `identical` (not tested). */
  p: number | null;
  /** p after the correction; null when the pair is `identical`. */
  pAdjusted: number | null;
  /** pAdjusted <= alpha (false when not tested). */
  significant: boolean;
  /**
   * The two systems have the same value on every query for this measure: not tested, and not
   * counted among the pairs the measure's p-values are adjusted over.
   */
  identical: boolean;
  /**
   * The pair tested in this one's place, as listed in `pairs`: each of this pair's systems is
   * identical on every query of the measure to one of that pair's, so they are one test,
   * counted once among the p-values adjusted. This pair shows that test's p and adjusted p;
   * its `meanDifference` and `betterThan` letters are its own. Absent when it is its own test.
   */
  sameAs?: [string, string];
}

/** The result of {@link compareSystems}. */
export interface ComparisonTable {
  /** Systems in input order, each with its letter (a, b, c, ...). */
  systems: { name: string; label: string }[];
  measures: string[];
  /** `cells[system][measure]`. */
  cells: Record<string, Record<string, ComparisonCell>>;
  pairs: PairResult[];
  test: TestName;
  /**
   * Details of the test, e.g. `paired randomization test (two-sided, 10000 random sign
   * assignments, seed 42)`, or `exact: all 256 sign assignments` when they were enumerated.
   */
  testDetail: string;
  /** The null hypothesis of each pair's test, in words. */
  hypothesis: string;
  correction: Correction;
  alpha: number;
  /** Queries compared. */
  numQ: number;
}

function label(i: number): string {
  let s = "";
  i++;
  while (i > 0) {
    s = String.fromCharCode(97 + ((i - 1) % 26)) + s;
    i = Math.floor((i - 1) / 26);
  }
  return s;
}

function asMap(x: Map<string, PerQueryValues> | Record<string, PerQueryValues>) {
  return x instanceof Map ? x : new Map(Object.entries(x));
}

/**
 * Compares systems on `measures` (output names such as `map`, `recip_rank`, `P_5`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareSystems, toMarkdown } from "./compare.ts";
 * const q = (ap: number[]) => new Map(ap.map((v, i) => [`q${i}`, { map: v }]));
 * const table = compareSystems(
 *   { good: q([1, 1, 1, 1, 1, 1, 1, 1]), poor: q([0, 0, 0, 0, 0, 0, 0, 0]) },
 *   ["map"],
 * );
 * assert(table.pairs[0].p === 2 / 256); // exact: only all-plus and all-minus reach 1
 * assert(table.cells.good.map.betterThan.join() === "b");
 * assert(toMarkdown(table).includes("good"));
 * ```
 */
export function compareSystems(
  perQueryBySystem: Map<string, PerQueryValues> | Record<string, PerQueryValues>,
  measures: string[],
  options: CompareOptions = {},
): ComparisonTable {
  const systems = asMap(perQueryBySystem);
  const names = [...systems.keys()];
  if (names.length < 2) {
    throw new KitError(`compare needs at least two systems, got ${names.length}`);
  }
  if (measures.length === 0) throw new KitError("compare needs at least one measure");
  const test = options.test ?? "randomization";
  if (test !== "randomization" && test !== "ttest") {
    throw new KitError(`unknown test '${test}' (expected randomization or ttest)`);
  }
  const alpha = options.alpha ?? 0.05;
  const correction = options.correction ?? (names.length > 2 ? "holm" : "none");
  const seed = options.seed ?? DEFAULT_SEED;
  const trials = options.trials ?? 10_000;

  // Queries: sorted ids, so the pairing (and a seeded test) does not depend on map order.
  const { queries } = commonQueries(systems, options.queries ?? "same");
  const n = queries.length;
  if (test === "randomization" && !(Number.isInteger(trials) && trials > 0)) {
    throw new KitError(`trials must be a positive integer, got ${trials}`);
  }

  const values = (system: string, measure: string): Float64Array => {
    const rows = systems.get(system)!;
    return Float64Array.from(queries, (q) => {
      const v = rows.get(q)![measure];
      if (typeof v !== "number" || !Number.isFinite(v)) {
        throw new KitError(
          `system ${system}, query ${q}: no finite value for measure '${measure}'`,
        );
      }
      return v;
    });
  };

  const labels = names.map((_, i) => label(i));
  const cells: ComparisonTable["cells"] = {};
  for (const n of names) cells[n] = {};
  // Every pair of every measure, with the pair tested in its place (its own index when it is
  // a test; -1 identical): the randomization tests then share one pass over the draws.
  type Test = { measure: string; a: string; b: string; values: Float64Array[]; sum: number };
  const tests: (Test & { diffs: Float64Array; test: number })[] = [];
  for (const m of measures) {
    const byName = new Map(names.map((n) => [n, values(n, m)]));
    for (const n of names) {
      const v = byName.get(n)!;
      cells[n][m] = {
        mean: mean(v),
        betterThan: [],
        ...(options.bootstrap ? { ci: bootstrapCI(v, { ...options.bootstrap, seed }) } : {}),
      };
    }
    const pairs = names.flatMap((a, i) => names.slice(i + 1).map((b) => [a, b] as const));
    const roles = pairRoles(pairs, (x, y) => sameValues(byName.get(x)!, byName.get(y)!));
    const first = tests.length;
    pairs.forEach(([a, b], k) => {
      const va = byName.get(a)!, vb = byName.get(b)!;
      const diffs = new Float64Array(n);
      let sum = 0;
      for (let q = 0; q < n; q++) {
        diffs[q] = va[q] - vb[q];
        sum += diffs[q];
      }
      const role = roles[k];
      const test = role === "identical" ? -1 : first + role.test;
      tests.push({ measure: m, a, b, values: [va, vb], diffs, sum, test });
    });
  }
  const run = tests.filter((t, k) => t.test === k);
  const at = new Map(run.map((t, j) => [t, j])); // a test's place in run and pValues
  const exact = test === "randomization" && n <= 30 && 2 ** n <= trials;
  const pValues = test === "ttest"
    ? run.map((t) => pairedTTest(t.values[0], t.values[1]).p)
    : exact
    ? run.map((t) => exactSignFlipCount(t.diffs) / 2 ** n)
    : signFlipCounts(run.map((t) => t.diffs), { trials, seed }).map((c) => (c + 1) / (trials + 1));
  const pairs: PairResult[] = [];
  for (const m of measures) {
    const tested = run.filter((t) => t.measure === m);
    const adjusted = adjustPValues(tested.map((t) => pValues[at.get(t)!]), correction);
    for (const t of tests) {
      if (t.measure !== m) continue;
      const pair = {
        measure: m,
        a: t.a,
        b: t.b,
        meanDifference: t.sum / n,
        ...(options.bootstrap
          ? { ci: pairedBootstrapCI(t.values[0], t.values[1], { ...options.bootstrap, seed }) }
          : {}),
      };
      if (t.test < 0) {
        pairs.push({ ...pair, p: null, pAdjusted: null, significant: false, identical: true });
        continue;
      }
      const of = tests[t.test];
      const pAdjusted = adjusted[tested.indexOf(of)];
      const significant = pAdjusted <= alpha;
      pairs.push({
        ...pair,
        p: pValues[at.get(of)!],
        pAdjusted,
        significant,
        identical: false,
        ...(of === t ? {} : { sameAs: [of.a, of.b] as [string, string] }),
      });
      if (significant && pair.meanDifference !== 0) {
        const [winner, loser] = pair.meanDifference > 0 ? [t.a, t.b] : [t.b, t.a];
        cells[winner][m].betterThan.push(labels[names.indexOf(loser)]);
      }
    }
    for (const n of names) cells[n][m].betterThan.sort();
  }
  return {
    systems: names.map((name, i) => ({ name, label: labels[i] })),
    measures: [...measures],
    cells,
    pairs,
    test,
    testDetail: test === "ttest"
      ? "paired t-test (two-sided)"
      : exact
      ? `paired randomization test (two-sided, exact: all ${2 ** n} sign assignments)`
      : `paired randomization test (two-sided, ${trials} random sign assignments, seed ${seed})`,
    hypothesis: test === "ttest"
      ? "H0 for each pair and measure: the per-query differences have mean 0 (independent " +
        "and normal across queries); p from Student's t with n - 1 degrees of freedom"
      : "H0 for each pair and measure: on every query the two systems' values are " +
        "exchangeable, so each per-query difference is as likely positive as negative; p is " +
        "the share of sign assignments whose |mean difference| reaches the observed one" +
        (exact ? "" : " (the observed assignment counted: (count + 1) / (trials + 1))"),
    correction,
    alpha,
    numQ: queries.length,
  };
}

/**
 * The paired percentile bootstrap interval of mean(a) - mean(b): the per-query differences
 * resampled with replacement (`bootstrapCI` of `a[i] - b[i]`), which keeps each query's pair
 * together, as ranx's and the papers' intervals of a gain do.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairedBootstrapCI } from "./compare.ts";
 * const ci = pairedBootstrapCI([0.5, 1, 0.25], [0.25, 0.75, 0]); // every difference is 0.25
 * assert.deepEqual([ci.mean, ci.lower, ci.upper], [0.25, 0.25, 0.25]);
 * ```
 */
export function pairedBootstrapCI(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  options: { samples?: number; level?: number; seed?: Seed } = {},
): ConfidenceInterval {
  if (a.length !== b.length) {
    throw new KitError(`paired values differ in length (${a.length} and ${b.length})`);
  }
  const ci = bootstrapCI(Float64Array.from({ length: a.length }, (_, i) => a[i] - b[i]), options);
  return { ...ci, method: `paired ${ci.method}` };
}

function best(table: ComparisonTable, measure: string): number {
  return Math.max(...table.systems.map((s) => table.cells[s.name][measure].mean));
}

/** A p cell: empty for a pair not tested (identical on every query). */
function pCell(p: number | null): string {
  return p === null ? "" : formatP(p);
}

/** Fixed decimals rounded like C's printf (as trec_eval's output), not like toFixed. */
const fmt = formatFixedC;

/** Options of the exports. */
export interface ExportOptions {
  /** Decimals of the values (default 4). */
  digits?: number;
  /** Add the table of pairwise p-values (default true for Markdown). */
  pValues?: boolean;
}

/**
 * The tables' caption; each system name through `name` (Markdown's escape: the caption's own
 * words are plain text there; LaTeX escapes the whole caption).
 */
function caption(t: ComparisonTable, name: (s: string) => string = (s) => s): string {
  const legend = labelLegend(t.measures);
  const pairs = t.systems.length * (t.systems.length - 1) / 2;
  const identical = t.pairs.filter((p) => p.identical);
  const named = identical.map((p) => `${measureLabel(p.measure)} "${name(p.a)}" - "${name(p.b)}"`)
    .join("; ");
  const sizes = t.measures.map((m) =>
    `${measureLabel(m)} ${
      t.pairs.filter((p) => p.measure === m && !p.identical && !p.sameAs).length
    }`
  );
  const pair = (a: string, b: string) => `"${name(a)}" - "${name(b)}"`;
  const same = t.pairs.flatMap((p) =>
    p.sameAs ? [`${measureLabel(p.measure)} ${pair(p.a, p.b)} as ${pair(...p.sameAs)}`] : []
  );
  return `${t.numQ} queries; ${t.testDetail}. ${t.hypothesis}. p adjusted: ` +
    (t.correction === "none"
      ? "no correction (the same as p)"
      : `${t.correction === "holm" ? "Holm" : "Bonferroni"}'s correction over the ` +
        (identical.length === 0
          ? `${pairs} pairs of each measure`
          : `distinct tests of each measure (m: ${sizes.join(", ")})`)) +
    `; letters mark systems significantly worse (p adjusted <= ${t.alpha}); best in bold.` +
    (identical.length === 0 ? "" : ` ${named}: ${NOT_TESTED}, no p, not counted in m.`) +
    (same.length === 0
      ? ""
      : ` ${same.join("; ")}: the same test (systems identical on every question), its p ` +
        "shared, counted once in m.") +
    (legend ? ` Measures in trec_eval's names: ${legend}.` : "");
}

/**
 * The comparison as Markdown: the systems table (superscript letters of the systems each is
 * significantly better than, best value in bold) and, unless `pValues: false`, the pairwise
 * tests with raw and adjusted p-values. Measures are named as the report names them (`MAP`,
 * `MRR`, `P@1`, `nDCG@10`), the caption gives their trec_eval names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareSystems, toMarkdown } from "./compare.ts";
 * const q = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
 * const md = toMarkdown(compareSystems({ x: q([1, 0, 1]), y: q([0, 0, 1]) }, ["map"]));
 * assert(md.startsWith("| | system | MAP |") && md.includes("trec_eval's names: MAP = map."));
 * ```
 */
export function toMarkdown(t: ComparisonTable, options: ExportOptions = {}): string {
  const d = options.digits ?? 4;
  const lines = [
    `| | system | ${t.measures.map((m) => markdownText(measureLabel(m))).join(" | ")} |`,
    `|---|---|${t.measures.map(() => "---:").join("|")}|`,
  ];
  for (const s of t.systems) {
    const cols = t.measures.map((m) => {
      const c = t.cells[s.name][m];
      let v = fmt(c.mean, d);
      if (c.mean === best(t, m)) v = `**${v}**`;
      if (c.ci) v += ` [${fmt(c.ci.lower, d)}, ${fmt(c.ci.upper, d)}]`;
      if (c.betterThan.length) v += `<sup>${c.betterThan.join("")}</sup>`;
      return v;
    });
    lines.push(`| ${s.label} | ${markdownText(s.name)} | ${cols.join(" | ")} |`);
  }
  lines.push("", caption(t, markdownText));
  if (t.systems.some((s) => t.measures.some((m) => t.cells[s.name][m].ci))) {
    const ci = Object.values(t.cells)[0][t.measures[0]].ci!;
    lines.push(`Brackets: ${ci.level * 100}% ${ci.method} intervals.`);
  }
  if (options.pValues ?? true) {
    const ci = t.pairs[0]?.ci;
    const ciHead = ci ? ` ${ci.level * 100}% CI (paired bootstrap) |` : "";
    lines.push(
      "",
      `| measure | a | b | mean(a) - mean(b) |${ciHead} p | p adjusted | significant |`,
      `|---|---|---|---:|${ci ? "---:|" : ""}---:|---:|:---:|`,
    );
    for (const p of t.pairs) {
      const interval = p.ci ? ` [${fmt(p.ci.lower, d)}, ${fmt(p.ci.upper, d)}] |` : "";
      lines.push(
        `| ${markdownText(measureLabel(p.measure))} | ${markdownText(p.a)} | ${
          markdownText(p.b)
        } | ${fmt(p.meanDifference, d)} |${interval} ${pCell(p.p)} | ${pCell(p.pAdjusted)} | ${
          p.identical
            ? NOT_TESTED
            : `${p.significant ? "yes" : "no"}${
              p.sameAs
                ? ` (the test of ${markdownText(p.sameAs[0])} - ${markdownText(p.sameAs[1])})`
                : ""
            }`
        } |`,
      );
    }
  }
  return lines.join("\n") + "\n";
}

/**
 * The systems table as a LaTeX `table` (booktabs rules; best value bold, significance letters
 * as superscripts); measures named as in {@link toMarkdown}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareSystems, toLatex } from "./compare.ts";
 * const q = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { recip_rank: x }]));
 * const tex = toLatex(compareSystems({ bm_25: q([1, 0]), y: q([0, 0]) }, ["recip_rank"]));
 * assert(tex.includes("bm\\_25") && tex.includes("\\toprule") && tex.includes("& MRR \\\\"));
 * ```
 */
export function toLatex(t: ComparisonTable, options: ExportOptions = {}): string {
  const d = options.digits ?? 4;
  const lines = [
    "\\begin{table}",
    "\\centering",
    `\\begin{tabular}{ll${"r".repeat(t.measures.length)}}`,
    "\\toprule",
    ` & System & ${t.measures.map((m) => latexText(measureLabel(m))).join(" & ")} \\\\`,
    "\\midrule",
  ];
  for (const s of t.systems) {
    const cols = t.measures.map((m) => {
      const c = t.cells[s.name][m];
      let v = fmt(c.mean, d);
      if (c.mean === best(t, m)) v = `\\textbf{${v}}`;
      if (c.betterThan.length) v += `$^{${c.betterThan.join("")}}$`;
      return v;
    });
    lines.push(`${s.label} & ${latexText(s.name)} & ${cols.join(" & ")} \\\\`);
  }
  lines.push(
    "\\bottomrule",
    "\\end{tabular}",
    `\\caption{${latexText(caption(t))}}`,
    "\\end{table}",
  );
  if (options.pValues) {
    lines.push(
      "",
      `\\begin{tabular}{lllr${t.pairs[0]?.ci ? "c" : ""}rr}`,
      "\\toprule",
      `Measure & A & B & $\\Delta$ & ${t.pairs[0]?.ci ? "CI & " : ""}$p$ & $p_{adj}$ \\\\`,
      "\\midrule",
      ...t.pairs.map((p) =>
        `${latexText(measureLabel(p.measure))} & ${latexText(p.a)} & ${latexText(p.b)} & ${
          fmt(p.meanDifference, d)
        } & ${p.ci ? `[${fmt(p.ci.lower, d)}, ${fmt(p.ci.upper, d)}] & ` : ""}${
          p.identical
            ? `\\multicolumn{2}{l}{${NOT_TESTED}}`
            : `${pCell(p.p)} & ${pCell(p.pAdjusted)}`
        } \\\\`
      ),
      "\\bottomrule",
      "\\end{tabular}",
    );
  }
  return lines.join("\n") + "\n";
}

/**
 * The comparison as CSV (RFC 4180 quoting): one row per measure and system, with the mean,
 * the bootstrap interval (empty when not computed), the letters of the systems it is
 * significantly better than, the adjusted p-value against every other system
 * (`p_vs_<label>`; empty against itself) and the raw one (`p_raw_vs_<label>`), and last the
 * labels of the systems identical to it on every query (`identical_to`: those pairs are not
 * tested, their p cells are empty). Values are written with full precision; the
 * `measure` column keeps the output names (`map`, `recip_rank`), for programs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareSystems, toCsv } from "./compare.ts";
 * const q = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
 * const csv = toCsv(compareSystems({ x: q([1, 0]), y: q([0, 0]) }, ["map"]));
 * assert(csv.split("\n")[0] === "measure,label,system,mean,ci_lower,ci_upper,better_than,p_vs_a,p_vs_b,p_raw_vs_a,p_raw_vs_b,identical_to");
 * ```
 */
export function toCsv(t: ComparisonTable): string {
  const header = [
    "measure",
    "label",
    "system",
    "mean",
    "ci_lower",
    "ci_upper",
    "better_than",
    ...t.systems.map((s) => `p_vs_${s.label}`),
  ];
  // With bootstrap: this system's mean minus the other's, with the paired interval.
  const withCi = t.pairs.some((p) => p.ci);
  if (withCi) {
    for (const s of t.systems) {
      header.push(`diff_vs_${s.label}`, `diff_lower_vs_${s.label}`, `diff_upper_vs_${s.label}`);
    }
  }
  // The raw p-values last, so that the columns before them keep their places; then the
  // labels of the systems identical to this one on every query (no p: not tested).
  header.push(...t.systems.map((s) => `p_raw_vs_${s.label}`), "identical_to");
  const rows = [header.join(",")];
  for (const m of t.measures) {
    for (const s of t.systems) {
      const c = t.cells[s.name][m];
      const pair = (o: { name: string }) =>
        o.name === s.name ? undefined : t.pairs.find((p) =>
          p.measure === m &&
          ((p.a === s.name && p.b === o.name) || (p.a === o.name && p.b === s.name))
        )!;
      const text = (p: number | null | undefined) => p == null ? "" : String(p);
      const ps = t.systems.map((o) => text(pair(o)?.pAdjusted));
      const raw = t.systems.map((o) => text(pair(o)?.p));
      const identicalTo = t.systems.filter((o) => pair(o)?.identical).map((o) => o.label);
      const diffs = !withCi ? [] : t.systems.flatMap((o) => {
        if (o.name === s.name) return ["", "", ""];
        const p = t.pairs.find((p) => p.measure === m && p.a === s.name && p.b === o.name);
        const q = t.pairs.find((p) => p.measure === m && p.a === o.name && p.b === s.name);
        // b - a is the negation of a - b on every resample: the interval mirrors.
        return p
          ? [p.meanDifference, p.ci!.lower, p.ci!.upper].map(String)
          : [-q!.meanDifference, -q!.ci!.upper, -q!.ci!.lower].map(String);
      });
      rows.push(
        [
          m,
          s.label,
          s.name,
          String(c.mean),
          c.ci ? String(c.ci.lower) : "",
          c.ci ? String(c.ci.upper) : "",
          c.betterThan.join(""),
          ...ps,
          ...diffs,
          ...raw,
          identicalTo.join(""),
        ].map(csvText).join(","),
      );
    }
  }
  return rows.join("\n") + "\n";
}
