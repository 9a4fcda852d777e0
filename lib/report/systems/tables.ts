/**
 * Tables and figures of page 00, built from a `SystemsReport` (plain data): rows for
 * `table(...)`, Plotly figures and short notes. Views only: every number here was computed by
 * `evaluateSystems`.
 *
 * User strings (system names, question ids and texts, file names) go into rows as they are
 * (the table escapes them), into notes and blocks through `htmlText`, and into figures through
 * `plotlyText`, because Plotly reads a few HTML tags in its labels (`lib/io/escape.ts`).
 *
 * @module
 */
import type { Displayable, MimeBundle } from "../../plot/display.ts";
import { bar, type Figure, scatter } from "../../plot/figures.ts";
import type { Row } from "../../plot/table.ts";
import type { Failures, QuestionOutcome } from "../../stats/error_analysis.ts";
import { type Family, identicalSystems, NOT_TESTED } from "../../stats/family.ts";
import { formatP } from "../../stats/p_value.ts";
import type { SystemsReport } from "./report.ts";
import { note, warningsBlock } from "../notebook/blocks.ts";
import { reportParts } from "../../tasks/registry.ts";
import type { PartData } from "../../tasks/task.ts";

export { note, warningsBlock };
import { htmlText, plotlyText } from "../../io/escape.ts";

function fileName(path: string): string {
  return path.replace(/^.*\//, "");
}

function fmt(x: number, digits = 4): string {
  return x.toFixed(digits);
}

/**
 * A p-value as the tables show it: the kit's one form (`formatP`: four decimals rounded as C
 * rounds them, exponent form below 0.0001; never a p of "0.0000").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pText } from "./tables.ts";
 * assert.deepEqual([pText(0.04213), pText(3.4158e-6), pText(1), pText(1 / 32)], ["0.0421", "3.4e-6", "1.0000", "0.0312"]);
 * ```
 */
export function pText(p: number): string {
  return formatP(p);
}

function interval(lower: number, upper: number): string {
  return `[${fmt(lower)}, ${fmt(upper)}]`;
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
      "run files": s.runs.map(fileName).join(", "),
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

/** The identical pairs ({@link identicalLines}) as a framed block: likely a mistake. */
export function identicalBlock(lines: readonly string[]): Displayable {
  const text = `Identical systems:\n` + lines.map((l) => `- ${l}`).join("\n");
  const html = '<div class="kit-warnings" style="border:2px solid #d62728;border-radius:4px;' +
    'padding:0.5em 1em;background:#fff5f5"><b>Identical systems</b><ul>' +
    lines.map((l) => `<li>${htmlText(l)}</li>`).join("") + "</ul></div>";
  const bundle: MimeBundle = { "text/html": html, "text/plain": text };
  return { [Symbol.for("Jupyter.display")]: () => bundle };
}

/**
 * One row per system: each measure's mean with its interval; with several runs, MAP's and
 * MRR's sample sd and range over the runs (columns only when some system has several).
 */
export function resultRows(r: SystemsReport): Row[] {
  const several = r.systems.some((s) => s.runCount > 1);
  return r.systems.map((s) => {
    const row: Row = { system: s.name };
    if (several) row.runs = s.runCount;
    for (const m of r.measures) {
      row[m.label] = s.mean[m.name];
      row[`${m.label} interval`] = interval(s.interval[m.name].lower, s.interval[m.name].upper);
      if (several && (m.name === "map" || m.name === "recip_rank")) {
        const sp = s.spread?.[m.name];
        row[`${m.label} sd (runs)`] = sp ? sp.sd : "";
        row[`${m.label} min-max (runs)`] = sp ? `${fmt(sp.min)} to ${fmt(sp.max)}` : "";
      }
    }
    return row;
  });
}

/** Every measure of every system, with whiskers at its interval. */
export function resultFigure(r: SystemsReport): Figure {
  return bar(
    r.measures.map((m) => m.label),
    r.systems.map((s) => ({
      name: plotlyText(s.name),
      values: r.measures.map((m) => s.mean[m.name]),
      interval: {
        low: r.measures.map((m) => s.interval[m.name].lower),
        high: r.measures.map((m) => s.interval[m.name].upper),
      },
    })),
    {
      title:
        `Every system on the split (whiskers: ${r.procedures.bootstrapSamples}-resample bootstrap intervals)`,
      yRange: [0, 1],
    },
  );
}

/** The published rows the kit knows for the split. */
export function publishedRows(r: SystemsReport): Row[] {
  return r.published.rows.map((p) => ({
    system: p.system,
    MAP: p.map,
    MRR: p.mrr,
    "question set": p.setting,
    source: p.source,
  }));
}

/** Your systems beside the published row they carry the name of, or sit near. */
export function gapRows(r: SystemsReport): Row[] {
  return r.published.gaps.map((g) => ({
    system: g.system,
    "published row": `${g.published} (${g.source})`,
    "set beside it by": g.why === "name" ? "its name" : "its numbers (within 0.01)",
    MAP: g.map,
    "published MAP": g.publishedMap,
    "MAP gap": g.mapGap,
    MRR: g.mrr,
    "published MRR": g.publishedMrr,
    "MRR gap": g.mrrGap,
    "why the gap": g.explanation,
  }));
}

/** Systems with several runs: each run's MAP and MRR, and their spread. */
export function spreadRows(r: SystemsReport): Row[] {
  return r.systems.filter((s) => s.spread).flatMap((s) =>
    r.measures.filter((m) => m.name === "map" || m.name === "recip_rank").map((m) => {
      const sp = s.spread![m.name];
      return {
        system: s.name,
        measure: m.label,
        runs: s.runCount,
        mean: s.mean[m.name],
        "sd (n-1)": sp.sd,
        min: sp.min,
        max: sp.max,
        "per run": sp.perRun.map((v) => fmt(v)).join(", "),
      };
    })
  );
}

/** Systems with several runs: each run's MAP, one series per system. */
export function spreadFigure(r: SystemsReport): Figure {
  return scatter(
    r.systems.filter((s) => s.spread).map((s) => {
      const perRun = s.spread!.map.perRun;
      return {
        name: plotlyText(s.name),
        x: perRun.map((_, i) => i + 1),
        y: perRun,
        text: perRun.map((_, i) => `run ${i + 1}`),
      };
    }),
    { title: "MAP of each run", xTitle: "run", yTitle: "MAP", height: 360 },
  );
}

export { NOT_TESTED };

/**
 * The family of tests, one row per measure and pair: the difference with its interval at the
 * family's level, the raw and the Bonferroni-adjusted p, and the decision. A pair identical on
 * every question of a measure is a row with no interval and no p ({@link NOT_TESTED}); when
 * such pairs make m differ between measures, each row names its m.
 */
export function familyRows(r: SystemsReport): Row[] {
  const f = r.family;
  if (!f) return [];
  const label = new Map(r.measures.map((m) => [m.name, m.label]));
  const sizes = f.measures.map((m) => f.sizes?.[m] ?? f.size);
  const tested = sizes.filter((m) => m > 0);
  const oneM = tested.every((m) => m === tested[0]);
  // No test on any measure (every pair identical): no level and no multiplier to name.
  const intervalColumn = tested.length === 0
    ? "interval"
    : oneM
    ? `${+((1 - f.alpha / tested[0]) * 100).toFixed(2)}% interval`
    : `interval at 1 - ${f.alpha}/m`;
  const adjustedColumn = tested.length === 0
    ? "p adjusted"
    : oneM
    ? `p adjusted (x${tested[0]})`
    : "p adjusted (x m)";
  const significantColumn = `significant (adjusted p <= ${f.alpha})`;
  const rows: Row[] = [];
  for (const [k, measure] of f.measures.entries()) {
    for (const [a, b] of f.pairs) {
      const t = f.tests.find((t) => t.measure === measure && t.a === a && t.b === b);
      const same = (f.identical ?? []).find((t) => t.measure === measure && t.a === a && t.b === b);
      if (!t && !same) continue;
      rows.push({
        measure: label.get(measure) ?? measure,
        A: a,
        B: b,
        "A - B": t ? t.difference : 0,
        ...(oneM ? {} : { m: sizes[k] }),
        [intervalColumn]: t ? interval(t.lower, t.upper) : NOT_TESTED,
        p: t ? pText(t.p) : "",
        [adjustedColumn]: t ? pText(t.pAdjusted) : "",
        [significantColumn]: t ? (t.significant ? "yes" : "no") : "not tested",
      });
    }
  }
  return rows;
}

/**
 * The family's m in words, identical pairs named: "3 pair(s) per measure", or each measure's
 * m when identical pairs make them differ; the count of pairs left out follows.
 */
export function familySizeText(f: Family, labelOf: (measure: string) => string): string {
  const sizes = f.measures.map((m) => f.sizes?.[m] ?? f.size);
  const text = sizes.every((m) => m === sizes[0])
    ? `${sizes[0]} pair(s) per measure`
    : `per measure ${f.measures.map((m, i) => `${labelOf(m)} ${sizes[i]}`).join(", ")} pair(s)`;
  const left = identicalSystems(f).length;
  return left === 0 ? text : `${text} (${left} identical pair(s) not tested, not counted in m)`;
}

/** Tie analysis per system (means over its runs). */
export function tieRows(r: SystemsReport): Row[] {
  const several = r.ties.some((t) => t.runs > 1);
  return r.ties.map((t) => ({
    system: t.system,
    ...(several ? { runs: t.runs } : {}),
    "questions with ties": t.questionsWithTies,
    "questions affected": t.questionsAffected,
    "MAP (trec_eval's order)": t.map.trecEval,
    "MAP min": t.map.min,
    "MAP max": t.map.max,
    "MAP expected": t.map.expected,
    "MRR min": t.mrr.min,
    "MRR max": t.mrr.max,
  }));
}

/** Expected MAP under random tie orders per system, whiskers from the lowest to the highest. */
export function tieFigure(r: SystemsReport): Figure {
  return bar(
    ["MAP"],
    r.ties.map((t) => ({
      name: plotlyText(t.system),
      values: [t.map.expected],
      interval: { low: [t.map.min], high: [t.map.max] },
    })),
    {
      title: "MAP under every order of tied candidates (bar: expected, whiskers: min-max)",
      yRange: [0, 1],
    },
  );
}

/** The pair's wins, losses and ties per measure, the sign test beside the paired t-test. */
export function outcomeRows(r: SystemsReport): Row[] {
  const p = r.pair;
  if (!p) return [];
  return p.outcomes.map((o) => ({
    measure: o.label,
    [`${p.a} higher`]: o.wins,
    [`${p.b} higher`]: o.losses,
    equal: o.ties,
    "sign test p": pText(o.signP),
    "paired t p": o.identical || o.p === undefined ? NOT_TESTED : pText(o.p),
    "paired t p adjusted": o.identical
      ? ""
      : o.pAdjusted === undefined
      ? "(not in the family)"
      : pText(o.pAdjusted),
  }));
}

/** Per-question AP of the pair against each other (points off the diagonal differ). */
export function differenceFigure(r: SystemsReport): Figure {
  const p = r.pair!;
  const a = r.systems.find((s) => s.name === p.a)!.perQuery;
  const b = r.systems.find((s) => s.name === p.b)!.perQuery;
  const ids = Object.keys(a);
  const fig = scatter([{
    name: "question",
    x: ids.map((q) => a[q].map),
    y: ids.map((q) => b[q]?.map ?? 0),
    text: ids.map(plotlyText),
  }], {
    title: "AP per question of the two systems compared",
    xTitle: `AP of ${plotlyText(p.a)}`,
    yTitle: `AP of ${plotlyText(p.b)}`,
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

function clip(text: string, max = 240): string {
  return text.length <= max ? text : text.slice(0, max - 1) + "\u2026";
}

function topText(o: QuestionOutcome): string {
  if (!o.inRun) return "(question missing from the run: scores 0)";
  if (!o.top) return "(the run ranks no candidate)";
  return `${o.top.correct ? "[correct] " : "[wrong] "}${clip(o.top.text)}`;
}

/** The questions where a system's top candidate is wrong, worst first. */
export function failureRows(f: Failures): Row[] {
  return f.worst.map((o) => ({
    question: `${o.question} (${o.id})`,
    "top candidate": topText(o),
    "correct answer(s)": o.correct.length === 0
      ? "(no correct candidate)"
      : o.correct.map((c) => clip(c.text)).join(" | "),
    "first correct at": o.inRun ? (o.firstCorrectRank || "not ranked") : "missing",
    candidates: o.candidates,
    AP: o.value,
  }));
}
