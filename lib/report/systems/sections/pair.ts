/**
 * Section `pair`: the error analysis of one pair (the spec's `compare`, else your two best
 * systems by MAP that differ): wins, losses and ties per question with the sign test (raw,
 * not corrected: it is not one of the family's tests) beside the family's paired t-test, the
 * questions where they differ most, a figure of their per-question AP, where the first puts a
 * wrong candidate first, and every question's values (`pair-differences.csv`).
 *
 * @module
 */
import { type Figure, scatter } from "../../../plot/figures.ts";
import { type Row, table } from "../../../plot/table.ts";
import { plotlyText } from "../../../io/escape.ts";
import { NOT_TESTED } from "../../../stats/family.ts";
import { type Failures, failures, type QuestionOutcome } from "../../../stats/error_analysis.ts";
import { note } from "../../notebook/blocks.ts";
import { rowsCsv } from "../csv.ts";
import {
  comparedPair,
  identicalOn,
  pairDifferenceRows,
  pairOutcomes,
  type PairSystem,
  pairTextRows,
} from "../pair_data.ts";
import type { SystemsReport } from "../types.ts";
import type { PageSection, SectionItem } from "../section.ts";
import { pText } from "../tables.ts";

/** The pair's wins, losses and ties per measure, the sign test beside the paired t-test. */
export function outcomeRows(r: SystemsReport): Row[] {
  const p = r.pair;
  if (!p) return [];
  const f = r.family;
  // Each measure's m: the family's, named with it (m differs only when identical systems do).
  const sizes = [...new Set(Object.values(f?.sizes ?? {}))];
  const family = f
    ? `family ${f.choice}, m = ${sizes.length === 1 ? sizes[0] : "its measure's"}`
    : "no family";
  return p.outcomes.map((o) => ({
    measure: o.label,
    [`${p.a} higher`]: o.wins,
    [`${p.b} higher`]: o.losses,
    equal: o.ties,
    "sign test p (raw, not corrected)": pText(o.signP),
    "paired t p (raw)": o.identical || o.p === undefined ? NOT_TESTED : pText(o.p),
    [`paired t p adjusted (${family})`]: o.identical
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

export const pairSection: PageSection = {
  name: "pair",
  nothing: "No pair to analyse (one of your systems and a baseline, or two of yours, are needed).",
  compute(ctx, sofar) {
    const chosen = comparedPair(
      ctx.spec,
      new Map(ctx.systems.map((s) => [s.name, s.mean.map])),
      identicalOn(ctx.values, "map"),
    );
    if (!chosen) return {};
    const pairSystem = (name: string): PairSystem => {
      const e = ctx.evaluated.find((s) => s.name === name)!;
      return { name, runs: e.runs, perRun: e.perRun };
    };
    const [a, b] = [pairSystem(chosen.a), pairSystem(chosen.b)];
    return {
      pair: {
        ...chosen,
        outcomes: pairOutcomes(
          { name: a.name, values: ctx.values.get(a.name)! },
          { name: b.name, values: ctx.values.get(b.name)! },
          ctx.measures,
          sofar.family,
        ),
        differing: pairTextRows(ctx.split.questions, a, b),
        ...(a.runs.length === 1
          ? {
            failures: failures(ctx.split.questions, { run: a.runs[0], values: a.perRun[0] }, {
              limit: 10,
            }),
          }
          : {}),
        questions: pairDifferenceRows(ctx.split.questions, a, b),
      },
    };
  },
  has: (r) => r.pair !== undefined,
  show(r) {
    const p = r.pair!;
    const items: SectionItem[] = [
      note(`${p.a} against ${p.b}: ${p.reason}.`),
      table(outcomeRows(r), {
        caption: `Questions where each system scores higher (${r.corpus!.questions} ` +
          "questions); the sign test's p is raw, not corrected for the family; the paired " +
          "t-test's adjusted p is the family's",
      }),
      ...(p.differing.length
        ? [
          table(p.differing, {
            caption: `The questions where ${p.a} and ${p.b} differ most (AP)`,
          }),
          differenceFigure(r),
        ]
        : [note(`No question tells ${p.a} and ${p.b} apart: their AP is the same on every one.`)]),
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
  },
  files: (r) => ({ "pair-differences.csv": rowsCsv(r.pair!.questions) }),
};
