/**
 * Section `significance`: the family of tests the spec chose (`family`: all pairs involving
 * your systems, the default; your systems among themselves; or each of yours against one
 * baseline), one test per distinct question (pairs of systems identical on every question are
 * one test, counted once in m), each verdict naming its family and m; what the same
 * difference reads as under the other families where the decision would change (the chosen
 * family stays the one reported); and a figure of the per-question differences for every
 * tested pair, on the page and as SVG files (`figures/`, drawn by `./kit report`).
 *
 * @module
 */
import { bar, type Figure } from "../../../plot/figures.ts";
import { type Row, table } from "../../../plot/table.ts";
import { plotlyText } from "../../../io/escape.ts";
import { measureLabel } from "../../../metrics/protocol_measures.ts";
import {
  familyDescription,
  familyPairs,
  identicalLines,
  NOT_TESTED,
  otherReadings,
  sameTestLines,
  testFamily,
  testName,
  testSides,
} from "../../../stats/family.ts";
import { note } from "../../notebook/blocks.ts";
import type { ReportFamily, SystemsReport } from "../types.ts";
import type { PageSection } from "../section.ts";
import { framedList, intervalText, pText } from "../tables.ts";

/** A t or d_z: the number, or an infinity with the difference's sign (null once in JSON). */
function infinite(x: number | null, difference: number): number | string {
  return typeof x === "number" && Number.isFinite(x)
    ? x
    : `${difference > 0 ? "+" : "-"}infinite (every difference the same)`;
}

/** Each measure's m (0: every pair identical on it). */
function sizesOf(f: ReportFamily): number[] {
  return f.measures.map((m) => f.sizes?.[m] ?? f.size);
}

/**
 * The family's verdicts, one row per measure and distinct test: its two sides (each with
 * every spelling joined by " = ": systems identical on every question), the difference with its interval at the family's level, t, df,
 * the effect size, the raw and the Bonferroni-adjusted p, the family and m, the decision. A
 * pair identical on every question of a measure is a row with no test ({@link NOT_TESTED}).
 */
export function familyRows(r: SystemsReport): Row[] {
  const f = r.family;
  if (!f) return [];
  const label = new Map(r.measures.map((m) => [m.name, m.label]));
  const sizes = sizesOf(f);
  const rows: Row[] = [];
  for (const [k, measure] of f.measures.entries()) {
    const tests = f.tests.filter((t) => t.measure === measure);
    const identical = (f.identical ?? []).filter((t) => t.measure === measure);
    for (const t of tests) {
      const [a, b] = testSides(t).map((side) => side.join(" = "));
      rows.push({
        measure: label.get(measure) ?? measure,
        A: a,
        B: b,
        "A - B": t.difference,
        interval: intervalText(t.lower, t.upper),
        level: `${+(f.levels[measure] * 100).toFixed(2)}%`,
        // Infinite (JSON null) when every difference is the same: sd 0, p 0.
        t: infinite(t.t, t.difference),
        df: t.df,
        "effect size (d_z)": infinite(t.effectSize, t.difference),
        p: pText(t.p),
        "p adjusted (x m)": pText(t.pAdjusted),
        family: f.choice,
        m: sizes[k],
        [`significant (adjusted p <= ${f.alpha})`]: t.significant ? "yes" : "no",
      });
    }
    for (const t of identical) {
      rows.push({
        measure: label.get(measure) ?? measure,
        A: t.a,
        B: t.b,
        "A - B": 0,
        interval: NOT_TESTED,
        level: "",
        t: "",
        df: "",
        "effect size (d_z)": "",
        p: "",
        "p adjusted (x m)": "",
        family: f.choice,
        m: sizes[k],
        [`significant (adjusted p <= ${f.alpha})`]: "not tested",
      });
    }
  }
  return rows;
}

/**
 * The sentence under the table: what the decision would be under another family, if it
 * changes; one clause per test and family, its measures together.
 */
export function readingsText(r: SystemsReport): string {
  const f = r.family;
  if (!f?.readings?.length) return "";
  const grouped = new Map<string, typeof f.readings>();
  for (const x of f.readings) {
    const key = JSON.stringify([x.a, x.b, x.choice, x.significant]);
    grouped.set(key, [...grouped.get(key) ?? [], x]);
  }
  const said = [...grouped.values()].map((xs) =>
    `${xs[0].a} – ${xs[0].b} would be ${
      xs[0].significant ? "significant" : "not significant"
    } under '${xs[0].choice}' on ${
      xs.map((x) => `${measureLabel(x.measure)} (m = ${x.m}, adjusted p ${pText(x.pAdjusted)})`)
        .join(", ")
    }`
  );
  return `The family is chosen before the results are read ('${f.choice}': ${f.description}) ` +
    `and is the one reported; under another family the decision would change: ${said.join("; ")}.`;
}

/** The tested pairs' per-question differences on MAP, one figure each (file name and figure). */
export function differenceFigures(r: SystemsReport): { file: string; figure: Figure }[] {
  const f = r.family;
  if (!f) return [];
  const per = new Map(r.systems.map((s) => [s.name, s.perQuery]));
  return f.tests.filter((t) => t.measure === "map").map((t, i) => {
    const a = per.get(t.a)!, b = per.get(t.b)!;
    const diffs = Object.keys(a).map((q) => ({ q, d: a[q].map - (b[q]?.map ?? 0) }))
      .sort((x, y) => y.d - x.d || (x.q < y.q ? -1 : 1));
    const name = testName(t);
    return {
      file: `figures/map-differences-${String(i + 1).padStart(2, "0")}.svg`,
      figure: bar(diffs.map((d) => plotlyText(d.q)), [{
        name: "AP difference",
        values: diffs.map((d) => d.d),
      }], {
        title: `AP of ${plotlyText(t.a)} minus AP of ${plotlyText(t.b)}, per question ` +
          `(${diffs.filter((d) => d.d > 0).length} higher, ${
            diffs.filter((d) => d.d < 0).length
          } lower, ${diffs.filter((d) => d.d === 0).length} equal)`,
        xTitle: `question (sorted by the difference; the test: ${plotlyText(name)})`,
        yTitle: "AP difference",
        yRange: [-1, 1],
        height: 360,
      }),
    };
  });
}

export const significanceSection: PageSection = {
  name: "significance",
  nothing: "No pair to test: fewer than two answer-selection systems, or none in the family " +
    "chosen.",
  compute(ctx) {
    const users = ctx.systems.filter((s) => s.kind === "user").map((s) => s.name);
    const baselines = ctx.systems.filter((s) => s.kind === "baseline").map((s) => s.name);
    const choice = ctx.spec.family ?? "all";
    const pairs = familyPairs(users, baselines, choice);
    if (pairs.length === 0) {
      ctx.log(
        `the family of tests: ${familyDescription(choice)} (${choice}) holds no pair: no test`,
      );
      return {};
    }
    const f = testFamily(ctx.values, pairs, ctx.measures);
    for (const line of identicalLines(f, measureLabel)) ctx.log(`warning: ${line}`);
    for (const line of sameTestLines(f, measureLabel)) ctx.log(`note: ${line}`);
    ctx.log(
      `the family of tests: ${familyDescription(choice)} (${choice}; --family all|mine|` +
        `baseline:NAME to choose another): per measure ${
          f.measures.map((m) => `${measureLabel(m)} m = ${f.sizes[m]}`).join(", ")
        }`,
    );
    const readings = otherReadings(ctx.values, users, baselines, ctx.measures, choice, f.alpha);
    return {
      family: { ...f, choice, description: familyDescription(choice), readings },
    };
  },
  has: (r) => r.family !== undefined,
  show(r) {
    const f = r.family!;
    const sizes = sizesOf(f);
    const tested = sizes.filter((m) => m > 0);
    const perMeasure = f.measures.map((m, i) => `${measureLabel(m)} ${sizes[i]}`).join(", ");
    const identical = identicalLines(f, measureLabel);
    const same = sameTestLines(f, measureLabel);
    const readings = readingsText(r);
    if (tested.length === 0) {
      return [
        note(
          `The family: ${f.description} ('${f.choice}'), over ${f.questions} questions. Every ` +
            "pair is identical on every question of every measure: no test on any measure " +
            "(no p, no interval).",
        ),
        ...(identical.length ? [framedList("Identical systems", identical)] : []),
        table(familyRows(r), { caption: `Your systems' pairs (${f.choice})` }),
      ];
    }
    const head =
      `The family: ${f.description} ('${f.choice}'), ${
        tested.every((m) => m === tested[0]) && tested.length
          ? `m = ${tested[0]} distinct tests per measure`
          : `distinct tests per measure: ${perMeasure}`
      }, over ${f.questions} questions. Each test: the paired t-test, two-sided (H0: the ` +
      "per-question differences A - B have mean 0); its p is multiplied by its measure's m " +
      `(Bonferroni) and the pair is significant when that adjusted p is at most ${f.alpha}, ` +
      "exactly when its interval, at the level 1 - alpha/m, excludes 0. The effect size is " +
      "the mean difference over the sd of the differences (d_z).";
    return [
      note(head),
      ...(identical.length ? [framedList("Identical systems", identical)] : []),
      ...(same.length ? [framedList("One test asked several times", same)] : []),
      table(familyRows(r), { caption: `Your systems' tests (${f.choice}): A - B per measure` }),
      ...(readings ? [note(readings)] : []),
      ...differenceFigures(r).map((d) => d.figure),
    ];
  },
};
