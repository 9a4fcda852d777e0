/**
 * QRCD's part of the systems report (page 00, section `qrcd`): the user's QRCD runs
 * (`--qrcd-run NAME=RUN.json`, scored on `--qrcd-gold dev|train|FILE`, default dev) beside the
 * kit's overlap baseline, with the official scorer's pRR, EM and F1@1, each question's pRR and
 * the submission checker's warnings. The spec parsing and the formatting are here (light); the
 * reading and scoring are ./report.ts, loaded when a report has QRCD runs.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { csvText } from "../io/escape.ts";
import { basename, isFile, resolvePath } from "../io/path.ts";
import { type Row, table } from "../plot/table.ts";
import { warningsBlock } from "../report/notebook/blocks.ts";
import { checkSystemName, parseSystemArg } from "../report/systems/spec_names.ts";
import { loadExport } from "../tasks/load.ts";
import type { PartData, PartSpec, ReportPart } from "../tasks/task.ts";
import type { RunLine } from "../report/notebook/blocks.ts";

/** A QRCD run of a spec (the official JSON format). */
export interface SpecQrcdRun {
  name: string;
  /** The run file. */
  path: string;
}

/** The QRCD part of a resolved spec: the gold records' split or file, and the runs. */
export interface QrcdSpec {
  gold: string;
  runs: SpecQrcdRun[];
}

/** A QRCD run's results. */
export interface ReportQrcdRun {
  name: string;
  kind: "user" | "baseline";
  path?: string;
  records: number;
  missing: number;
  pRR: number;
  exactMatch: number;
  f1At1: number;
  /** pq_id to its scores. */
  perRecord: Record<string, { pRR: number; exactMatch: number; f1At1: number }>;
}

/** The QRCD part of a report. */
export interface ReportQrcd {
  /** The gold records' split or file. */
  gold: string;
  records: number;
  runs: ReportQrcdRun[];
  /** Each question's pRR per run (the mean over the passages it is asked of). */
  questions: Row[];
  /** The submission checker's warnings. */
  warnings: RunLine[];
}

/** The kit's QRCD baseline beside the user's QRCD runs. */
export const QRCD_BASELINE = "overlap baseline (kit)";

/** A QRCD split name (`dev`, `train`), unless a file by that name exists; else a file path. */
function qrcdGold(gold: string, base: string): string {
  const path = resolvePath(gold, base);
  if (/^(dev|train)$/.test(gold) && !isFile(path)) return gold;
  if (!isFile(path)) throw new KitError("the QRCD gold file is not found", { file: gold });
  return path;
}

/** A cell: text through `csvText` (quoted, and a leading `=`, `+`, `-`, `@` made inert). */
function csvField(v: string | number | undefined): string {
  return v === undefined ? "" : typeof v === "string" ? csvText(v) : String(v);
}

const data = (d: PartData) => d as unknown as ReportQrcd;
const spec = (p: PartSpec) => p as unknown as QrcdSpec;
const users = (d: PartData) => data(d).runs.filter((q) => q.kind === "user");

/**
 * The QRCD runs' values per record as CSV: one row per run and `pq_id`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { qrcdCsv } from "./report_part.ts";
 * const csv = qrcdCsv({ runs: [{ name: "a", kind: "user", path: "/r.json",
 *   perRecord: { "1:1-7_1": { pRR: 1, exactMatch: 1, f1At1: 1 } } }] } as never);
 * assert.equal(csv, "qrcd run,kind,run,pq_id,pRR,exact_match,f1_at_1\na,user,/r.json,1:1-7_1,1,1,1\n");
 * ```
 */
export function qrcdCsv(q: ReportQrcd): string {
  const lines = [["qrcd run", "kind", "run", "pq_id", "pRR", "exact_match", "f1_at_1"].join(",")];
  for (const r of q.runs) {
    for (const [pq, v] of Object.entries(r.perRecord)) {
      lines.push(
        [r.name, r.kind, r.path ?? "", pq, v.pRR, v.exactMatch, v.f1At1].map(csvField).join(","),
      );
    }
  }
  return lines.join("\n") + "\n";
}

/** One row per QRCD run: pRR (primary), EM and F1@1 over every gold record. */
export function qrcdRows(q: ReportQrcd): Row[] {
  return q.runs.map((r) => ({
    system: r.name,
    records: r.records,
    "missing from the run": r.missing,
    pRR: r.pRR,
    EM: r.exactMatch,
    "F1@1": r.f1At1,
  }));
}

/** QRCD's part of the systems report. */
export const QRCD_REPORT: ReportPart = {
  key: "qrcd",
  title: "QRCD runs",
  fileNames: ["per-record-qrcd.csv"],
  options: [
    { name: "qrcd-run", value: "NAME=RUN.json", multiple: true, help: "a QRCD run of yours" },
    { name: "qrcd-gold", value: "dev|FILE", help: "the QRCD runs' gold records (default dev)" },
  ],
  claims: () => [],
  runFlag: "--qrcd-run",
  baselineNames: [QRCD_BASELINE],
  nothing: "No QRCD run given.",
  fromFlags(flags, cwd) {
    const runs = flags.list("qrcd-run").map((v) => {
      const { name, paths } = parseSystemArg(v, cwd, "--qrcd-run");
      if (paths.length !== 1) throw new KitError(`--qrcd-run ${name}: give one run file`);
      return { name, path: paths[0] };
    });
    const gold = flags.str("qrcd-gold");
    if (gold !== undefined && runs.length === 0) {
      throw new KitError("--qrcd-gold is for --qrcd-run; give a QRCD run");
    }
    return runs.length ? { gold: qrcdGold(gold ?? "dev", cwd), runs } : undefined;
  },
  fromSpec(raw, base, where) {
    const shown = (v: unknown) => v === undefined ? "nothing" : JSON.stringify(v);
    const object = (v: unknown, path: string) => {
      if (typeof v !== "object" || v === null || Array.isArray(v)) {
        throw new KitError(`${where(path)} must be an object, got ${shown(v)}`);
      }
      return v as Record<string, unknown>;
    };
    const string = (v: unknown, path: string): string => {
      if (typeof v !== "string") {
        throw new KitError(`${where(path)} must be a string, got ${shown(v)}`);
      }
      return v;
    };
    const qrcd = object(raw, "qrcd");
    if (!Array.isArray(qrcd.runs)) {
      throw new KitError(`${where("qrcd.runs")} must be a list, got ${shown(qrcd.runs)}`);
    }
    const runs = qrcd.runs.map((item, i) => {
      const r = object(item, `qrcd.runs[${i}]`);
      const name = checkSystemName(string(r.name, `qrcd.runs[${i}].name`));
      const path = resolvePath(string(r.path, `qrcd.runs[${i}].path`), base);
      if (!isFile(path)) throw new KitError(`QRCD run '${name}': file not found`, { file: path });
      return { name, path };
    });
    const gold = qrcd.gold === undefined ? "dev" : string(qrcd.gold, "qrcd.gold");
    return { gold: qrcdGold(gold, base), runs };
  },
  names: (part) => spec(part).runs.map((r) => r.name),
  inputs: (part) => [
    ...spec(part).runs.map((r) => ({ label: `--qrcd-run ${r.name}`, path: r.path })),
    ...(spec(part).gold.startsWith("/") ? [{ label: "--qrcd-gold", path: spec(part).gold }] : []),
  ],
  async evaluate(part, corpus, log) {
    const evaluate = await loadExport<
      (s: { qrcd: QrcdSpec; data?: "real" | "sample" }, log: (l: string) => void) => Promise<
        ReportQrcd
      >
    >(import.meta.url, "./report.ts", "qrcdReport");
    const q = await evaluate({ qrcd: spec(part), ...(corpus ? { data: corpus } : {}) }, log);
    return q as unknown as PartData;
  },
  systemRows: (d) =>
    data(d).runs.map((q) => ({
      system: q.name,
      kind: q.kind === "user" ? "yours" : "kit baseline",
      source: q.kind === "user" ? "QRCD run (JSON)" : "QRCD, scored by the kit",
      runs: 1,
      "run files": q.path ? basename(q.path) : "",
    })),
  show(d) {
    const q = data(d);
    return [
      table(qrcdRows(q), { caption: `QRCD ${q.gold}: ${q.records} records` }),
      table(q.questions, { caption: "pRR per question" }),
      warningsBlock(
        q.warnings,
        "No warning from the submission checker: every run has every pq_id of the gold " +
          "records, ranks 1..n and non-increasing scores.",
        "Submission checker warnings",
      ),
    ];
  },
  files: (d) => ({ "per-record-qrcd.csv": qrcdCsv(data(d)) }),
  summarySystems: (d) =>
    users(d).map((q) => ({
      name: q.name,
      dataset: "qrcd",
      gold: data(d).gold,
      runs: q.path ? [q.path] : [],
      records: q.records,
      missing: q.missing,
      pRR: q.pRR,
      exact_match: q.exactMatch,
      f1_at_1: q.f1At1,
    })),
  numbers(s) {
    if (s.dataset !== "qrcd") return undefined;
    const n = (k: string) => typeof s[k] === "number" ? (s[k] as number).toFixed(4) : undefined;
    return `pRR ${n("pRR")} EM ${n("exact_match")} F1@1 ${n("f1_at_1")}`;
  },
  headline(d) {
    const best = users(d).sort((a, b) => b.pRR - a.pRR);
    const entries: Record<string, string | number> = best.length
      ? { "best QRCD run": best[0].name, pRR: best[0].pRR }
      : {};
    return { systems: best.length, entries };
  },
  indexSystems: (d) =>
    users(d).map((q) => ({
      name: q.name,
      what: `QRCD ${data(d).gold}, ${q.records} records`,
      numbers: { pRR: q.pRR, EM: q.exactMatch, "F1@1": q.f1At1 },
    })),
  texts: (d) => data(d).runs.flatMap((q) => [q.name, ...(q.path ? [basename(q.path)] : [])]),
};
