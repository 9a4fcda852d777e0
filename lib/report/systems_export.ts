/**
 * What the systems page hands to the report: every system's summary and per-question values,
 * the difference of every pair with its paired bootstrap interval, and the chosen pair's
 * per-question differences, written by the notebook as files into the folder its spec names
 * (`out`: the report's folder), which the report then reads, so the files next to the HTML
 * (`per-question.csv`, `per-question.json`, `pair-differences.csv`, the `systems` and
 * `differences` of `summary.json`) hold exactly the numbers the page shows, computed once.
 *
 * @module
 */
import { writeFileAtomic } from "../io/atomic.ts";
import type { Row } from "../plot/table.ts";
import type { ComparisonTable } from "../stats/compare.ts";
import type { Displayable, MimeBundle } from "../plot/display.ts";
import type { PerQueryValues } from "../stats/compare.ts";
import type { SystemSummary } from "../stats/systems.ts";
import type { QrcdEvaluation } from "../qrcd/metrics.ts";
import { KIT_BASELINES, type UserSystemsSpec } from "./user_systems.ts";
import { measureLabel } from "../metrics/protocol_measures.ts";
import { csvText } from "../metrics/format.ts";

/** One answer-selection system in the export. */
export interface ExportedSystem {
  name: string;
  /** `user` (given to the report) or `baseline` (scored by the kit). */
  kind: "user" | "baseline";
  dataset: string;
  split: string;
  filter: string;
  /** Run files (absolute paths), or the baseline's model spec. */
  runs: string[];
  /** The model spec, for `--model` systems and baselines. */
  model?: string;
  /** Questions averaged over (every question of the split: -c). */
  queries: number;
  /** Means over the system's runs, and the sample sd of MAP over runs when several. */
  map: number;
  recip_rank: number;
  P_1: number;
  ndcg_cut_10: number;
  map_sd?: number;
  /** Per run: question id to measure to value. */
  perRun: Record<string, Record<string, number>>[];
  /** Each question's mean over the runs (what the significance tests pair). */
  perQuery: Record<string, Record<string, number>>;
}

/** One QRCD run in the export. */
export interface ExportedQrcdRun {
  name: string;
  kind: "user" | "baseline";
  /** Gold file or split scored against. */
  gold: string;
  path?: string;
  records: number;
  missing: number;
  pRR: number;
  exact_match: number;
  f1_at_1: number;
  /** pq_id to its scores. */
  perRecord: Record<string, { pRR: number; exact_match: number; f1_at_1: number }>;
}

/** The difference of one pair of systems on one measure (means over questions). */
export interface ExportedDifference {
  measure: string;
  a: string;
  b: string;
  /** mean(a) - mean(b). */
  difference: number;
  /** Paired percentile bootstrap interval of the difference. */
  ci_lower?: number;
  ci_upper?: number;
  ci_level?: number;
  /** p of the paired test, and adjusted (Holm over the pairs of one measure). */
  p: number;
  p_adjusted: number;
  significant: boolean;
}

/** The whole export. */
export interface SystemsExport {
  dataset: string;
  split: string;
  filter: string;
  /** The measures (output names) of `perRun`. */
  measures: string[];
  systems: ExportedSystem[];
  qrcd: ExportedQrcdRun[];
  /** Every pair on every measure. */
  differences: ExportedDifference[];
  /** The pair of the error analysis and its per-question differences. */
  pair?: { a: string; b: string; questions: Row[] };
}

/**
 * The differences of a comparison as exported.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exportedDifferences } from "./systems_export.ts";
 * import { compareSystems } from "../stats/compare.ts";
 * const q = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
 * const t = compareSystems({ x: q([1, 1]), y: q([0.5, 0.5]) }, ["map"], { bootstrap: { samples: 10 } });
 * assert.deepEqual([exportedDifferences(t)[0].difference, exportedDifferences(t)[0].ci_lower], [0.5, 0.5]);
 * ```
 */
export function exportedDifferences(t: ComparisonTable): ExportedDifference[] {
  return t.pairs.map((p) => ({
    measure: p.measure,
    a: p.a,
    b: p.b,
    difference: p.meanDifference,
    ...(p.ci ? { ci_lower: p.ci.lower, ci_upper: p.ci.upper, ci_level: p.ci.level } : {}),
    p: p.p,
    p_adjusted: p.pAdjusted,
    significant: p.significant,
  }));
}

function plainPerQuery(v: PerQueryValues): Record<string, Record<string, number>> {
  return Object.fromEntries(v);
}

/**
 * The exported form of an answer-selection system.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exportedSystem } from "./systems_export.ts";
 * import { summarizeRuns } from "../stats/systems.ts";
 * const run = new Map([["q", { map: 0.5, recip_rank: 1, P_1: 1, ndcg_cut_10: 0.6 }]]);
 * const s = exportedSystem({ name: "x", kind: "user", runs: ["/r"] },
 *   { dataset: "wikiqa", split: "test", filter: "clean" }, summarizeRuns([run], ["map", "recip_rank", "P_1", "ndcg_cut_10"]), [run]);
 * assert(s.map === 0.5 && s.map_sd === undefined && s.perRun[0].q.P_1 === 1);
 * ```
 */
export function exportedSystem(
  system: { name: string; kind: "user" | "baseline"; runs: string[]; model?: string },
  spec: Pick<UserSystemsSpec, "dataset" | "split" | "filter">,
  summary: SystemSummary,
  perRun: readonly PerQueryValues[],
): ExportedSystem {
  const m = summary.measures;
  return {
    name: system.name,
    kind: system.kind,
    dataset: spec.dataset,
    split: spec.split,
    filter: spec.filter,
    runs: system.runs,
    ...(system.model ? { model: system.model } : {}),
    queries: summary.queries,
    map: m.map.mean,
    recip_rank: m.recip_rank.mean,
    P_1: m.P_1.mean,
    ndcg_cut_10: m.ndcg_cut_10.mean,
    ...(m.map.runs ? { map_sd: m.map.runs.sd } : {}),
    perRun: perRun.map(plainPerQuery),
    perQuery: plainPerQuery(summary.perQuery),
  };
}

/**
 * The export of a systems page: every answer-selection system (the user's and the kit's
 * baselines) with its summary and per-run values, and every QRCD run with its per-record
 * scores. `userQrcd` maps the user's QRCD run names to their files.
 */
export function collectExport(
  spec: UserSystemsSpec,
  summaries: ReadonlyMap<string, SystemSummary>,
  perRun: ReadonlyMap<string, readonly PerQueryValues[]>,
  qrcd: ReadonlyMap<string, QrcdEvaluation> = new Map(),
  userQrcd: ReadonlyMap<string, string> = new Map(),
  comparison?: ComparisonTable,
  pair?: SystemsExport["pair"],
): SystemsExport {
  return {
    differences: comparison ? exportedDifferences(comparison) : [],
    ...(pair ? { pair } : {}),
    dataset: spec.dataset,
    split: spec.split,
    filter: spec.filter,
    measures: Object.keys([...summaries.values()][0]?.measures ?? {}),
    systems: [...summaries].map(([name, summary]) => {
      const given = spec.systems.find((s) => s.name === name);
      const kit = KIT_BASELINES.find((b) => b.name === name);
      const system = given
        ? { name, kind: "user" as const, runs: given.runs, model: given.model }
        : { name, kind: "baseline" as const, runs: [kit?.model ?? name], model: kit?.model };
      return exportedSystem(system, spec, summary, perRun.get(name) ?? []);
    }),
    qrcd: [...qrcd].map(([name, e]) => ({
      name,
      kind: userQrcd.has(name) ? "user" : "baseline",
      gold: spec.qrcd?.gold ?? "dev",
      ...(userQrcd.has(name) ? { path: userQrcd.get(name) } : {}),
      records: e.records,
      missing: e.missing.length,
      pRR: e.pRR,
      exact_match: e.exactMatch,
      f1_at_1: e.f1At1,
      perRecord: Object.fromEntries(
        e.perRecord.map((
          r,
        ) => [r.pqId, { pRR: r.pRR, exact_match: r.exactMatch, f1_at_1: r.f1At1 }]),
      ),
    })),
  };
}

/**
 * The page's headline numbers (the report's index shows them): the best of the user's
 * answer-selection systems by MAP, and the best of their QRCD runs by pRR.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exportHeadline } from "./systems_export.ts";
 * const h = exportHeadline({ dataset: "wikiqa", split: "test", filter: "clean", measures: [], qrcd: [],
 *   systems: [{ name: "a", kind: "user", map: 0.5, recip_rank: 0.6 }, { name: "b", kind: "baseline", map: 0.9, recip_rank: 1 }] } as never);
 * assert.deepEqual(h, { systems: 1, "best system": "a", MAP: 0.5, MRR: 0.6 });
 * ```
 */
export function exportHeadline(data: SystemsExport): Record<string, number | string> {
  const user = data.systems.filter((s) => s.kind === "user").sort((a, b) => b.map - a.map);
  const qrcd = data.qrcd.filter((r) => r.kind === "user").sort((a, b) => b.pRR - a.pRR);
  return {
    systems: user.length + qrcd.length,
    ...(user.length
      ? { "best system": user[0].name, MAP: user[0].map, MRR: user[0].recip_rank }
      : {}),
    ...(qrcd.length ? { "best QRCD run": qrcd[0].name, pRR: qrcd[0].pRR } : {}),
  };
}

function escapeHtml(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/**
 * Says where the per-question values are (links relative to the exported page), or, outside
 * the report, that they were not written.
 */
export function systemsExport(data: SystemsExport, written: boolean): Displayable {
  const n = data.systems.length + data.qrcd.length;
  const files = Object.keys(exportFiles(data));
  const what = `Per-question values of ${n} system(s) (${
    data.measures.map(measureLabel).join(", ")
  }${data.qrcd.length ? "; QRCD pRR, EM, F1@1" : ""}) for every run${
    data.pair ? `, and the per-question differences of ${data.pair.a} and ${data.pair.b}` : ""
  }`;
  const bundle: MimeBundle = written
    ? {
      "text/html": `<div class="kit-export">${escapeHtml(what)}: ` +
        files.map((f) => `<a href="../${f}">${f}</a>`).join(", ") +
        ", next to this report's index.</div>",
      "text/plain": `${what}: ${files.join(", ")} (in the report folder)`,
    }
    : {
      "text/html": `<div class="kit-export">${escapeHtml(what)}: written as ${
        escapeHtml(files.join(", "))
      } by <code>./kit report</code> (not by this notebook alone).</div>`,
      "text/plain": `${what}: written by ./kit report (not by this notebook alone)`,
    };
  return { [Symbol.for("Jupyter.display")]: () => bundle };
}

/** Writes the export's files into `dir` (the report's folder). */
export async function writeExportFiles(data: SystemsExport, dir: string): Promise<void> {
  for (const [file, text] of Object.entries(exportFiles(data))) {
    await writeFileAtomic(`${dir}/${file}`, text, { force: true });
  }
}

/** The export a notebook wrote into `dir` (`per-question.json`), if any. */
export async function readExport(dir: string): Promise<SystemsExport | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(`${dir}/per-question.json`);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
  return JSON.parse(text) as SystemsExport;
}

/** A cell: text through `csvText` (quoted, and a leading `=`, `+`, `-`, `@` made inert). */
function csvField(v: string | number | boolean | null | undefined): string {
  return v == null ? "" : typeof v === "string" ? csvText(v) : String(v);
}

/**
 * Table rows as CSV (RFC 4180), the columns of the first row.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rowsCsv } from "./systems_export.ts";
 * assert.equal(rowsCsv([{ q: 'say "hi", then', v: 0.5 }]), 'q,v\n"say ""hi"", then",0.5\n');
 * // A run name a spreadsheet would run as a formula stays text.
 * assert.equal(rowsCsv([{ system: "=cmd|' /C calc'!A1" }]), "system\n'=cmd|' /C calc'!A1\n");
 * ```
 */
export function rowsCsv(rows: readonly Row[]): string {
  const columns = Object.keys(rows[0] ?? {});
  return [columns, ...rows.map((r) => columns.map((c) => r[c]))]
    .map((r) => r.map(csvField).join(",")).join("\n") + "\n";
}

/**
 * The per-question values as CSV (RFC 4180): one row per system, run and question; a system
 * with several runs also gets rows with run `mean` (each question's mean over its runs, the
 * values its significance tests use).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { perQuestionCsv } from "./systems_export.ts";
 * const csv = perQuestionCsv({ dataset: "wikiqa", split: "test", filter: "clean", measures: ["map"], qrcd: [], differences: [],
 *   systems: [{ name: 'a,"b"', kind: "user", dataset: "wikiqa", split: "test", filter: "clean", runs: ["/x"],
 *     queries: 1, map: 1, recip_rank: 1, P_1: 1, ndcg_cut_10: 1, perRun: [{ q1: { map: 1 } }],
 *     perQuery: { q1: { map: 1 } } }] });
 * assert.equal(csv, 'system,kind,run,question,map\n"a,""b""",user,/x,q1,1\n');
 * ```
 */
export function perQuestionCsv(data: SystemsExport): string {
  const lines = [["system", "kind", "run", "question", ...data.measures].join(",")];
  for (const s of data.systems) {
    s.perRun.forEach((run, i) => {
      for (const [q, v] of Object.entries(run)) {
        lines.push(
          [s.name, s.kind, s.runs[i] ?? `run ${i + 1}`, q, ...data.measures.map((m) => v[m])]
            .map(csvField).join(","),
        );
      }
    });
    if (s.perRun.length > 1) {
      for (const [q, v] of Object.entries(s.perQuery)) {
        lines.push(
          [s.name, s.kind, "mean", q, ...data.measures.map((m) => v[m])].map(csvField).join(","),
        );
      }
    }
  }
  return lines.join("\n") + "\n";
}

/**
 * The QRCD runs' values per record as CSV: one row per run and `pq_id` (undefined when no
 * QRCD run was given).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { qrcdCsv } from "./systems_export.ts";
 * const csv = qrcdCsv({ dataset: "wikiqa", split: "test", filter: "clean", measures: [], systems: [], differences: [],
 *   qrcd: [{ name: "r", kind: "user", gold: "dev", path: "/r.json", records: 1, missing: 0, pRR: 1,
 *     exact_match: 1, f1_at_1: 1, perRecord: { "1:1-7_1": { pRR: 1, exact_match: 1, f1_at_1: 1 } } }] });
 * assert.equal(csv!.split("\n")[1], "r,user,/r.json,1:1-7_1,1,1,1");
 * ```
 */
export function qrcdCsv(data: SystemsExport): string | undefined {
  if (data.qrcd.length === 0) return undefined;
  const lines = [["qrcd run", "kind", "run", "pq_id", "pRR", "exact_match", "f1_at_1"].join(",")];
  for (const r of data.qrcd) {
    for (const [pq, v] of Object.entries(r.perRecord)) {
      lines.push(
        [r.name, r.kind, r.path ?? "", pq, v.pRR, v.exact_match, v.f1_at_1].map(csvField).join(","),
      );
    }
  }
  return lines.join("\n") + "\n";
}

/** The files written next to the report's index from the export. */
export function exportFiles(data: SystemsExport): Record<string, string> {
  const files: Record<string, string> = {
    "per-question.csv": perQuestionCsv(data),
    "per-question.json": JSON.stringify(data, null, 1) + "\n",
  };
  const qrcd = qrcdCsv(data);
  if (qrcd) files["per-record-qrcd.csv"] = qrcd;
  if (data.pair) files["pair-differences.csv"] = rowsCsv(data.pair.questions);
  return files;
}

/**
 * The `systems` entries of `summary.json`: the user's systems, without per-question values,
 * keys in a reading order.
 */
export function summarySystems(data: SystemsExport): Record<string, unknown>[] {
  return [
    ...data.systems.filter((s) => s.kind === "user").map((s) => ({
      name: s.name,
      dataset: s.dataset,
      split: s.split,
      filter: s.filter,
      runs: s.runs,
      ...(s.model ? { model: s.model } : {}),
      queries: s.queries,
      map: s.map,
      ...(s.map_sd !== undefined ? { map_sd: s.map_sd } : {}),
      recip_rank: s.recip_rank,
      P_1: s.P_1,
      ndcg_cut_10: s.ndcg_cut_10,
    })),
    ...data.qrcd.filter((r) => r.kind === "user").map((r) => ({
      name: r.name,
      dataset: "qrcd",
      gold: r.gold,
      runs: r.path ? [r.path] : [],
      records: r.records,
      missing: r.missing,
      pRR: r.pRR,
      exact_match: r.exact_match,
      f1_at_1: r.f1_at_1,
    })),
  ];
}
