/**
 * Tables and figures of the systems page (`notebooks/00-your-systems`): plain rows for
 * `table(...)` and Plotly figures, built from what `lib/stats` computes (system summaries,
 * comparisons, tie analyses, error analyses). Each is a view; no number is computed here
 * that `lib/stats` did not compute.
 *
 * User strings (system names, question and candidate texts) go into rows as they are (the
 * table escapes them) and into figures through {@link plotlyText}, because Plotly reads a
 * few HTML tags in its labels.
 *
 * @module
 */
import type { Displayable, MimeBundle } from "../plot/display.ts";
import { bar, type Figure, scatter } from "../plot/figures.ts";
import type { Row } from "../plot/table.ts";
import type { ComparisonTable } from "../stats/compare.ts";
import type { Failures, QuestionOutcome } from "../stats/error_analysis.ts";
import type { SystemSummary } from "../stats/systems.ts";
import type { TieAnalysis } from "../stats/ties.ts";
import type { RunCheck } from "../data/run_checks.ts";
import { runWarnings } from "../data/run_checks.ts";
import type { UserSystemsSpec } from "./user_systems.ts";
import type { QrcdEvaluation } from "../qrcd/metrics.ts";
import { measureLabel, PROTOCOL_MEASURES } from "../metrics/protocol_measures.ts";
import type { PassageQuestion } from "../qrcd/types.ts";

/**
 * Text shown literally by Plotly (which reads `<b>`, `<br>`, `<a>` and entities in labels).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plotlyText } from "./systems_tables.ts";
 * assert.equal(plotlyText("<b>A&B</b>"), "&lt;b&gt;A&amp;B&lt;/b&gt;");
 * ```
 */
export function plotlyText(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function fileName(path: string): string {
  return path.replace(/^.*\//, "");
}

/**
 * The systems as given: name, where they come from, run files.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemRows } from "./systems_tables.ts";
 * const rows = systemRows({ dataset: "wikiqa", split: "test", filter: "clean",
 *   systems: [{ name: "mine", runs: ["/a/s1.run", "/a/s2.run"] }] });
 * assert.equal(rows[0]["run files"], "s1.run, s2.run");
 * ```
 */
export function systemRows(spec: UserSystemsSpec): Row[] {
  return [
    ...spec.systems.map((s) => ({
      system: s.name,
      source: s.model ? `model ${s.model}, scored by the kit` : "run files",
      runs: s.runs.length,
      "run files": s.runs.map(fileName).join(", "),
    })),
    ...(spec.qrcd?.runs ?? []).map((r) => ({
      system: r.name,
      source: "QRCD run (JSON)",
      runs: 1,
      "run files": fileName(r.path),
    })),
  ];
}

/** The protocol warnings of every run, one row each; empty when every run follows it. */
export function warningRows(
  checks: readonly { system: string; file: string; check: RunCheck }[],
): Row[] {
  return checks.flatMap(({ system, file, check }) =>
    runWarnings(check).map((warning) => ({ system, "run file": fileName(file), warning }))
  );
}

function fmt(x: number, digits = 4): string {
  return x.toFixed(digits);
}

/**
 * One row per system: for each measure the mean (over runs), the bootstrap interval, and
 * with several runs the sample sd and min-max over runs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resultRows } from "./systems_tables.ts";
 * import { summarizeRuns } from "../stats/systems.ts";
 * const s = summarizeRuns([new Map([["q", { map: 0.5, recip_rank: 1, P_1: 1, ndcg_cut_10: 1 }]])],
 *   ["map", "recip_rank", "P_1", "ndcg_cut_10"]);
 * assert.equal(resultRows(new Map([["x", s]]))[0].MAP, 0.5);
 * ```
 */
export function resultRows(summaries: ReadonlyMap<string, SystemSummary>): Row[] {
  return columnsWithValues([...summaries].map(([system, s]) => {
    const row: Row = { system, runs: s.runs, questions: s.queries };
    for (const { name, label } of PROTOCOL_MEASURES) {
      const m = s.measures[name];
      row[label] = m.mean;
      if (m.ci) row[`${label} 95% CI`] = `[${fmt(m.ci.lower)}, ${fmt(m.ci.upper)}]`;
      if (name === "map" || name === "recip_rank") {
        row[`${label} sd (runs)`] = m.runs ? m.runs.sd : undefined;
        row[`${label} min-max (runs)`] = m.runs ? `${fmt(m.runs.min)} to ${fmt(m.runs.max)}` : "";
      }
    }
    if (s.runs === 1) delete row.runs;
    return row;
  }));
}

/**
 * The rows with only the columns some row holds a value in (an empty string, `undefined` or
 * `null` is no value), so single-run systems bring no empty spread columns.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { columnsWithValues } from "./systems_tables.ts";
 * assert.deepEqual(columnsWithValues([{ a: 1, sd: "" }, { a: 2, sd: undefined }]), [{ a: 1 }, { a: 2 }]);
 * ```
 */
export function columnsWithValues(rows: readonly Row[]): Row[] {
  const filled = new Set(
    rows.flatMap((r) => Object.entries(r).filter(([, v]) => v !== "" && v != null).map(([k]) => k)),
  );
  return rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => filled.has(k))));
}

/**
 * Every pair on every measure: the difference of the means with its paired bootstrap
 * interval, beside the p-value of the paired test (adjusted when a correction applies).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { differenceIntervalRows } from "./systems_tables.ts";
 * import { compareSystems } from "../stats/compare.ts";
 * const q = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
 * const t = compareSystems({ x: q([1, 1, 0.5]), y: q([0.5, 0.5, 0]) }, ["map"], { bootstrap: { samples: 100 } });
 * const [row] = differenceIntervalRows(t);
 * assert.deepEqual([row.measure, row["A - B"], row["95% CI of A - B"]], ["MAP", 0.5, "[0.5000, 0.5000]"]);
 * ```
 */
export function differenceIntervalRows(t: ComparisonTable): Row[] {
  return t.pairs.map((p) => ({
    measure: measureLabel(p.measure),
    A: p.a,
    B: p.b,
    "A - B": p.meanDifference,
    ...(p.ci
      ? { [`${p.ci.level * 100}% CI of A - B`]: `[${fmt(p.ci.lower)}, ${fmt(p.ci.upper)}]` }
      : {}),
    [t.correction === "none" ? "p" : `p (${t.correction})`]: p.pAdjusted,
    [`p <= ${t.alpha}`]: p.significant ? "yes" : "no",
  }));
}

/**
 * MAP, MRR, P@1 and nDCG@10 of every system, with bootstrap-interval whiskers.
 */
export function resultFigure(summaries: ReadonlyMap<string, SystemSummary>): Figure {
  const labels = PROTOCOL_MEASURES.map((m) => m.label);
  return bar(
    labels,
    [...summaries].map(([name, s]) => {
      const ms = PROTOCOL_MEASURES.map((m) => s.measures[m.name]);
      return {
        name: plotlyText(name),
        values: ms.map((m) => m.mean),
        ...(ms.every((m) => m.ci)
          ? { interval: { low: ms.map((m) => m.ci!.lower), high: ms.map((m) => m.ci!.upper) } }
          : {}),
      };
    }),
    { title: "Every system on the split (whiskers: 95% bootstrap intervals)", yRange: [0, 1] },
  );
}

/** Systems with several runs: each run's MAP and MRR, and their spread. */
export function stabilityRows(summaries: ReadonlyMap<string, SystemSummary>): Row[] {
  return [...summaries].filter(([, s]) => s.runs > 1).flatMap(([system, s]) =>
    (["map", "recip_rank"] as const).map((m) => {
      const r = s.measures[m].runs!;
      return {
        system,
        measure: measureLabel(m),
        runs: r.runs,
        mean: r.mean,
        "sd (n-1)": r.sd,
        min: r.min,
        max: r.max,
        "per run": r.perRun.map((v) => fmt(v)).join(", "),
      };
    })
  );
}

/**
 * Systems with several runs: each run's MAP, one series per system (a view of lib/plot; the
 * spread itself is in {@link stabilityRows}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { spreadFigure } from "./systems_tables.ts";
 * import { summarizeRuns } from "../stats/systems.ts";
 * const run = (ap: number) => new Map([["q", { map: ap, recip_rank: 1, P_1: 1, ndcg_cut_10: 1 }]]);
 * const s = summarizeRuns([run(0.5), run(0.7)], ["map", "recip_rank", "P_1", "ndcg_cut_10"]);
 * assert.deepEqual(spreadFigure(new Map([["x", s]])).data[0].y, [0.5, 0.7]);
 * ```
 */
export function spreadFigure(summaries: ReadonlyMap<string, SystemSummary>): Figure {
  const several = [...summaries].filter(([, s]) => s.runs > 1);
  return scatter(
    several.map(([name, s]) => {
      const perRun = s.measures.map.runs!.perRun;
      return {
        name: plotlyText(name),
        x: perRun.map((_, i) => i + 1),
        y: perRun,
        text: perRun.map((_, i) => `run ${i + 1}`),
      };
    }),
    { title: "MAP of each run", xTitle: "run", yTitle: "MAP", height: 360 },
  );
}

/**
 * The systems table of a comparison: each mean with the letters of the systems it is
 * significantly better than (the pairwise tests themselves: `comparisonRows` of lib/stats).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { betterThanRows } from "./systems_tables.ts";
 * import { compareSystems } from "../stats/compare.ts";
 * const q = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
 * const t = compareSystems({ x: q([1, 1, 1, 1, 1, 1]), y: q([0, 0, 0, 0, 0, 0]) }, ["map"]);
 * assert.equal(betterThanRows(t)[0].MAP, "1.0000 > b");
 * ```
 */
export function betterThanRows(t: ComparisonTable): Row[] {
  return t.systems.map((s) => {
    const row: Row = { "": s.label, system: s.name };
    for (const m of t.measures) {
      const c = t.cells[s.name][m];
      const label = measureLabel(m);
      row[label] = fmt(c.mean) + (c.betterThan.length ? ` > ${c.betterThan.join(",")}` : "");
    }
    return row;
  });
}

function meanOf(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/**
 * Tie analysis per system (the mean over its runs): how many questions have ties that move
 * AP or RR, MAP as trec_eval breaks ties, its range over every order of the tied
 * candidates and its expectation under a random order.
 */
export function tieRows(ties: ReadonlyMap<string, readonly TieAnalysis[]>): Row[] {
  return [...ties].map(([system, runs]) => {
    const avg = (f: (t: TieAnalysis) => number) => meanOf(runs.map(f));
    return {
      system,
      // Only for a system with several runs (the values are then means over them).
      ...(runs.length > 1 ? { runs: runs.length } : {}),
      "questions with ties": avg((t) => t.queriesWithTies),
      "questions affected": avg((t) => t.queriesAffected),
      "MAP (trec_eval's order)": avg((t) => t.map.trecEval),
      "MAP min": avg((t) => t.map.min),
      "MAP max": avg((t) => t.map.max),
      "MAP expected": avg((t) => t.map.expected),
      "MAP range": avg((t) => t.map.max - t.map.min),
      "MRR min": avg((t) => t.mrr.min),
      "MRR max": avg((t) => t.mrr.max),
    };
  });
}

/** Expected MAP under random tie orders per system, whiskers from the lowest to the highest. */
export function tieFigureOf(rows: readonly Row[]): Figure {
  return bar(
    ["MAP"],
    rows.map((r) => ({
      name: plotlyText(String(r.system)),
      values: [r["MAP expected"] as number],
      interval: { low: [r["MAP min"] as number], high: [r["MAP max"] as number] },
    })),
    {
      title: "MAP under every order of tied candidates (bar: expected, whiskers: min-max)",
      yRange: [0, 1],
    },
  );
}

function clip(text: string, max = 240): string {
  return text.length <= max ? text : text.slice(0, max - 1) + "\u2026";
}

function topText(o: QuestionOutcome): string {
  if (!o.inRun) return "(question missing from the run: scores 0)";
  if (!o.top) return "(the run ranks no candidate)";
  return `${o.top.correct ? "[correct] " : "[wrong] "}${clip(o.top.text)}`;
}

function correctText(o: QuestionOutcome): string {
  if (o.correct.length === 0) return "(no correct candidate)";
  return o.correct.map((c) => clip(c.text)).join(" | ");
}

function rankText(o: QuestionOutcome): string | number {
  return o.inRun ? (o.firstCorrectRank || "not ranked") : "missing";
}

/** The questions where a system's top candidate is wrong, worst first. */
export function failureRows(f: Failures): Row[] {
  return f.worst.map((o) => ({
    question: `${o.question} (${o.id})`,
    "top candidate": topText(o),
    "correct answer(s)": correctText(o),
    "first correct at": rankText(o),
    candidates: o.candidates,
    AP: o.value,
  }));
}

/** Per-question AP of two systems against each other (points off the diagonal differ). */
export function differenceFigure(
  a: { name: string; values: ReadonlyMap<string, Record<string, number>> },
  b: { name: string; values: ReadonlyMap<string, Record<string, number>> },
): Figure {
  const ids = [...a.values.keys()];
  const fig = scatter([{
    name: "question",
    x: ids.map((q) => a.values.get(q)!.map),
    y: ids.map((q) => b.values.get(q)?.map ?? 0),
    text: ids,
  }], {
    title: "AP per question of the two systems compared",
    xTitle: `AP of ${plotlyText(a.name)}`,
    yTitle: `AP of ${plotlyText(b.name)}`,
    xRange: [-0.05, 1.05],
    yRange: [-0.05, 1.05],
    height: 420,
  });
  fig.data.push({
    type: "scatter",
    mode: "lines",
    name: "equal",
    x: [0, 1],
    y: [0, 1],
    line: { dash: "dot", color: "#999" },
    hoverinfo: "skip",
  });
  return fig;
}

function escapeHtml(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/**
 * A sentence on the page that may hold user strings: escaped HTML (never Markdown, whose
 * HTML passes through) and plain text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { note } from "./systems_tables.ts";
 * const b = note("best: <script>x</script>")[Symbol.for("Jupyter.display")]();
 * assert.equal(b["text/html"], '<p class="kit-note">best: &lt;script&gt;x&lt;/script&gt;</p>');
 * ```
 */
export function note(text: string): Displayable {
  const bundle: MimeBundle = {
    "text/html": `<p class="kit-note">${escapeHtml(text)}</p>`,
    "text/plain": text,
  };
  return { [Symbol.for("Jupyter.display")]: () => bundle };
}

/**
 * The protocol warnings as a framed block on the page (or a line saying there is none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { warningsBlock } from "./systems_tables.ts";
 * const html = warningsBlock([{ system: "<i>x</i>", "run file": "a.run", warning: "1 question missing" }])[Symbol.for("Jupyter.display")]()["text/html"];
 * assert(String(html).includes("&lt;i&gt;x&lt;/i&gt;") && String(html).includes("kit-warnings"));
 * ```
 */
export function warningsBlock(
  rows: readonly Row[],
  none =
    "No protocol warning: every run ranks the whole candidate set of every question of the split, and nothing else.",
): Displayable {
  const text = rows.length === 0 ? none : `${rows.length} protocol warning(s):\n` +
    rows.map((r) => `- ${r.system} (${r["run file"]}): ${r.warning}`).join("\n");
  const html = rows.length === 0
    ? `<p class="kit-note">${escapeHtml(text)}</p>`
    : '<div class="kit-warnings" style="border:2px solid #d62728;border-radius:4px;' +
      'padding:0.5em 1em;background:#fff5f5"><b>Protocol warnings</b> (the numbers below ' +
      "are computed anyway, with these departures)<ul>" +
      rows.map((r) =>
        `<li><b>${escapeHtml(String(r.system))}</b> (${escapeHtml(String(r["run file"]))}): ` +
        `${escapeHtml(String(r.warning))}</li>`
      ).join("") + "</ul></div>";
  const bundle: MimeBundle = { "text/html": html, "text/plain": text };
  return { [Symbol.for("Jupyter.display")]: () => bundle };
}

/** One row per QRCD run: pRR (primary), EM and F1@1 over every gold record. */
export function qrcdRows(evals: ReadonlyMap<string, QrcdEvaluation>): Row[] {
  return [...evals].map(([system, e]) => ({
    system,
    records: e.records,
    "missing from the run": e.missing.length,
    pRR: e.pRR,
    EM: e.exactMatch,
    "F1@1": e.f1At1,
  }));
}

/**
 * The QRCD runs per question: a question is asked of several passages (records); each run's
 * pRR for it is the mean over its records (the official means are over records).
 */
export function qrcdQuestionRows(
  gold: readonly PassageQuestion[],
  evals: ReadonlyMap<string, QrcdEvaluation>,
): Row[] {
  const questions = new Map<string, { text: string; records: number[] }>();
  gold.forEach((r, i) => {
    const q = questions.get(r.questionId) ?? { text: r.question, records: [] };
    q.records.push(i);
    questions.set(r.questionId, q);
  });
  return [...questions].map(([id, q]) => {
    const row: Row = { question: `${q.text} (${id})`, records: q.records.length };
    for (const [system, e] of evals) {
      row[`${system}: pRR`] = meanOf(q.records.map((i) => e.perRecord[i].pRR));
    }
    return row;
  });
}
