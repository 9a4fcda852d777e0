/**
 * The files of a systems report, written once beside its pages by `./kit report`: the spec
 * (`spec.json`, the one form a notebook can evaluate again), the report itself
 * (`systems.json`: every number of page 00, which the notebook renders), and CSV views of it
 * for spreadsheets (`per-question.csv`, `pair-differences.csv`, and each task part's own, e.g.
 * `per-record-qrcd.csv`).
 * Paths inside the report folder are relative to it (`runs/02-name.run`), so the folder can
 * move; the user's own run files keep their absolute paths.
 *
 * @module
 */
import { writeFileAtomic } from "../../io/atomic.ts";
import { csvText } from "../../io/escape.ts";
import type { Row } from "../../plot/table.ts";
import type { SystemsReport } from "./report.ts";
import { reportParts } from "../../tasks/registry.ts";
import type { PartData, ReportPart } from "../../tasks/task.ts";

/** The task parts a report has, each with its data. */
function partsOf(r: SystemsReport): [ReportPart, PartData][] {
  return reportParts().flatMap((p) =>
    r[p.key] === undefined ? [] : [[p, r[p.key] as PartData] as [ReportPart, PartData]]
  );
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
 * import { rowsCsv } from "./files.ts";
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
 * values its tests use).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { perQuestionCsv } from "./files.ts";
 * const csv = perQuestionCsv({ measures: [{ name: "map", label: "MAP", trecEval: "map" }],
 *   systems: [{ name: 'a,"b"', kind: "user", runs: ["/x"], runCount: 1, perQuery: { q1: { map: 1 } } }] } as never);
 * assert.equal(csv, 'system,kind,run,question,map\n"a,""b""",user,/x,q1,1\n');
 * ```
 */
export function perQuestionCsv(r: SystemsReport): string {
  const names = r.measures.map((m) => m.name);
  const lines = [["system", "kind", "run", "question", ...names].join(",")];
  const add = (
    system: string,
    kind: string,
    run: string,
    values: Record<string, Record<string, number>>,
  ) => {
    for (const [q, v] of Object.entries(values)) {
      lines.push([system, kind, run, q, ...names.map((m) => v[m])].map(csvField).join(","));
    }
  };
  for (const s of r.systems) {
    const runName = (i: number) => s.runs[i] ?? (s.model ? `model ${s.model}` : `run ${i + 1}`);
    if (s.perRun) {
      s.perRun.forEach((values, i) => add(s.name, s.kind, runName(i), values));
      add(s.name, s.kind, "mean", s.perQuery);
    } else {
      add(s.name, s.kind, runName(0), s.perQuery);
    }
  }
  return lines.join("\n") + "\n";
}

/**
 * The files of a report (relative name to text): `systems.json` holds the report with the
 * list of these files in `files`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemsFiles } from "./files.ts";
 * const files = systemsFiles({ spec: { systems: [] }, measures: [], systems: [] } as never);
 * assert.deepEqual(Object.keys(files), ["spec.json", "systems.json"]);
 * assert.deepEqual(JSON.parse(files["systems.json"]).files, ["spec.json", "systems.json"]);
 * ```
 */
export function systemsFiles(r: SystemsReport): Record<string, string> {
  const names = [
    "spec.json",
    "systems.json",
    ...(r.systems.length ? ["per-question.csv"] : []),
    ...(r.pair ? ["pair-differences.csv"] : []),
    ...partsOf(r).flatMap(([p, d]) => Object.keys(p.files(d))),
  ];
  const written = { ...r, files: names };
  const text: Record<string, string> = {
    "spec.json": JSON.stringify(r.spec, null, 1) + "\n",
    "systems.json": JSON.stringify(written) + "\n",
  };
  if (r.systems.length) text["per-question.csv"] = perQuestionCsv(r);
  if (r.pair) text["pair-differences.csv"] = rowsCsv(r.pair.questions);
  for (const [p, d] of partsOf(r)) Object.assign(text, p.files(d));
  return text;
}

/** Writes the report's files into the report folder `dir`; returns the path of `systems.json`. */
export async function writeSystemsFiles(r: SystemsReport, dir: string): Promise<string> {
  for (const [file, text] of Object.entries(systemsFiles(r))) {
    await writeFileAtomic(`${dir}/${file}`, text, { force: true });
  }
  return `${dir}/systems.json`;
}

/**
 * The page's headline numbers (the report's index shows them): the best of your
 * answer-selection systems by MAP, then each task part's (the best of your QRCD runs by pRR).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportHeadline } from "./files.ts";
 * const h = reportHeadline({ systems: [
 *   { name: "a", kind: "user", mean: { map: 0.5, recip_rank: 0.6 } },
 *   { name: "b", kind: "baseline", mean: { map: 0.9, recip_rank: 1 } }] } as never);
 * assert.deepEqual(h, { systems: 1, "best system": "a", MAP: 0.5, MRR: 0.6 });
 * ```
 */
export function reportHeadline(r: SystemsReport): Record<string, number | string> {
  const user = r.systems.filter((s) => s.kind === "user").sort((a, b) => b.mean.map - a.mean.map);
  const parts = partsOf(r).map(([p, d]) => p.headline(d));
  return {
    systems: user.length + parts.reduce((n, h) => n + h.systems, 0),
    ...(user.length
      ? { "best system": user[0].name, MAP: user[0].mean.map, MRR: user[0].mean.recip_rank }
      : {}),
    ...Object.assign({}, ...parts.map((h) => h.entries)),
  };
}

/**
 * The `systems` entries of `summary.json`: your systems (answer selection, then each task
 * part's) with
 * their numbers, without per-question values.
 */
export function summarySystems(r: SystemsReport): Record<string, unknown>[] {
  return [
    ...r.systems.filter((s) => s.kind === "user").map((s) => ({
      name: s.name,
      dataset: r.spec.dataset,
      split: r.spec.split,
      filter: r.spec.filter,
      corpus: r.corpus?.data,
      runs: s.runs,
      ...(s.model ? { model: s.model } : {}),
      queries: s.queries,
      ...s.mean,
      ...(s.spread ? { map_sd: s.spread.map.sd } : {}),
    })),
    ...partsOf(r).flatMap(([p, d]) => p.summarySystems(d)),
  ];
}

/**
 * The user's strings the page shows (system and task part run names, run files' names): text as
 * typed, whatever they hold, which the PDF check does not take for TeX (`checkPdf`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { userText } from "./files.ts";
 * const r = { systems: [{ name: "$x^2$", runs: ["/r/a\\b.run"] }], qrcd: { runs: [{ name: "q", kind: "user" }] } };
 * assert.deepEqual(userText(r as never), ["$x^2$", "a\\b.run", "q"]);
 * ```
 */
export function userText(r: SystemsReport): string[] {
  const file = (path: string) => path.replace(/^.*\//, "");
  return [
    ...r.systems.flatMap((s) => [s.name, ...s.runs.map(file)]),
    ...partsOf(r).flatMap(([p, d]) => p.texts(d)),
  ];
}
