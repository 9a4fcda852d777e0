/**
 * The QRCD runs of a systems report, read and checked once: the gold records (a split or a
 * file; every record must have answers) and each run against the official submission
 * checker's rules and the gold (a run the official scorer would refuse, or one sharing no
 * pq_id with the gold, is an error naming the file).
 *
 * @module
 */
import { basename } from "../io/path.ts";
import { KitError } from "../errors.ts";
import { isQrcdSplit, loadQrcd, loadQrcdSplit } from "./load.ts";
import { checkRunAgainstGold, formatIssue, readSpanRun, unrelatedToGold } from "./runfile.ts";
import type { PassageQuestion, SpanRun } from "./types.ts";
import type { Row } from "../plot/table.ts";
import { evaluateQrcd } from "./metrics.ts";
import { overlapBaseline } from "./baseline.ts";
import { chooseCorpus } from "../report/systems/corpus.ts";
import type { RunLine } from "../report/notebook/blocks.ts";
import { QRCD_BASELINE, type QrcdSpec, type ReportQrcd } from "./report_part.ts";

export type { ReportQrcd, ReportQrcdRun } from "./report_part.ts";

/**
 * The QRCD gold records: a split name (`dev`, `train`) read from `dir` (the corpus folder),
 * or a JSONL file. Every record must have answers (the test file has none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadQrcdGold } from "./report.ts";
 * assert((await loadQrcdGold("dev", "samples")).length > 0);
 * ```
 */
export async function loadQrcdGold(gold: string, dir?: string): Promise<PassageQuestion[]> {
  const records = isQrcdSplit(gold) ? await loadQrcdSplit(gold, { dir }) : await loadQrcd(gold);
  const bare = records.find((r) => r.answers.length === 0);
  if (bare) {
    throw new KitError(
      `QRCD gold '${gold}': record ${bare.pqId} has no answers (the test file is distributed ` +
        "without them); score against dev or a gold file with answers",
    );
  }
  return records;
}

/** A QRCD run file, read and checked. */
export interface QrcdRunRead {
  path: string;
  run: SpanRun;
  /** The submission checker's findings and the checks against the gold records, as sentences. */
  issues: string[];
}

/**
 * Reads the QRCD runs of a spec and checks each against the gold records (missing and extra
 * pq_ids, the checker's rules). A run the official scorer would refuse is an error, as is a run
 * that shares no pq_id with the gold (it would score 0 everywhere: the wrong file).
 */
export async function readQrcdRuns(
  spec: { qrcd?: QrcdSpec },
  gold: PassageQuestion[],
): Promise<Map<string, QrcdRunRead>> {
  const out = new Map<string, QrcdRunRead>();
  for (const r of spec.qrcd?.runs ?? []) {
    const { run, issues } = await readSpanRun(r.path);
    const all = [...issues, ...checkRunAgainstGold(gold, run)];
    const errors = all.filter((i) => i.severity === "error");
    if (errors.length) {
      throw new KitError(
        `the official scorer would not score this run:\n  ${
          errors.slice(0, 10).map((i) => formatIssue(i, r.path)).join("\n  ")
        }${errors.length > 10 ? `\n  ... and ${errors.length - 10} more errors` : ""}`,
        { file: r.path },
      );
    }
    // A run the checker accepts that answers none of the gold's questions is the wrong file.
    const unrelated = unrelatedToGold(gold, run);
    if (unrelated) throw new KitError(unrelated, { file: r.path });
    out.set(r.name, {
      path: r.path,
      run,
      issues: all.map((i) =>
        `${i.line === undefined ? "" : `line ${i.line}: `}${
          i.pqId ? `${i.pqId}: ` : ""
        }${i.message}`
      ),
    });
  }
  return out;
}

/** The QRCD runs of a spec, read and checked against their gold records. */
export interface QrcdInputs {
  gold: PassageQuestion[];
  runs: Map<string, QrcdRunRead>;
}

/**
 * Reads the QRCD gold records (`dir`: the corpus folder) and the spec's QRCD runs; a run the
 * official checker or scorer would refuse is an error; `say` gets each warning.
 */
export async function readQrcdInputs(
  spec: { qrcd?: QrcdSpec },
  dir: string,
  say: (line: string) => void = () => {},
): Promise<QrcdInputs> {
  if (!spec.qrcd?.runs.length) return { gold: [], runs: new Map() };
  const gold = await loadQrcdGold(spec.qrcd.gold, dir);
  const runs = await readQrcdRuns(spec, gold);
  for (const [name, r] of runs) {
    for (const issue of r.issues) {
      say(`QRCD run ${JSON.stringify(name)} (${basename(r.path)}): warning: ${issue}`);
    }
  }
  return { gold, runs };
}

/**
 * The QRCD part of a systems report: the spec's QRCD runs read, checked and scored beside
 * the kit's baseline; undefined without QRCD runs.
 */
export async function qrcdReport(
  spec: { qrcd?: QrcdSpec; data?: "real" | "sample" },
  log: (line: string) => void,
): Promise<ReportQrcd | undefined> {
  if (!spec.qrcd?.runs.length) return undefined;
  const where = chooseCorpus("qrcd", spec.data);
  log(
    `QRCD runs: gold ${spec.qrcd.gold}, ${
      where.data === "real" ? "the fetched corpus" : "the bundled sample"
    }`,
  );
  const inputs = await readQrcdInputs(spec, where.folder, log);
  const evals = new Map([...inputs.runs].map(([n, r]) => [n, evaluateQrcd(inputs.gold, r.run)]));
  evals.set(QRCD_BASELINE, evaluateQrcd(inputs.gold, overlapBaseline(inputs.gold)));
  const warnings: RunLine[] = [...inputs.runs].flatMap(([system, r]) =>
    r.issues.map((text) => ({ system, file: basename(r.path), text }))
  );
  const questions = new Map<string, { text: string; records: number[] }>();
  inputs.gold.forEach((r, i) => {
    const q = questions.get(r.questionId) ?? { text: r.question, records: [] };
    q.records.push(i);
    questions.set(r.questionId, q);
  });
  return {
    gold: spec.qrcd.gold,
    records: inputs.gold.length,
    runs: [...evals].map(([name, e]) => ({
      name,
      kind: inputs.runs.has(name) ? "user" as const : "baseline" as const,
      ...(inputs.runs.has(name) ? { path: inputs.runs.get(name)!.path } : {}),
      records: e.records,
      missing: e.missing.length,
      pRR: e.pRR,
      exactMatch: e.exactMatch,
      f1At1: e.f1At1,
      perRecord: Object.fromEntries(
        e.perRecord.map((r) => [r.pqId, { pRR: r.pRR, exactMatch: r.exactMatch, f1At1: r.f1At1 }]),
      ),
    })),
    questions: [...questions].map(([id, q]) => {
      const row: Row = { question: `${q.text} (${id})`, records: q.records.length };
      for (const [system, e] of evals) {
        row[`${system}: pRR`] = q.records.reduce((x, i) => x + e.perRecord[i].pRR, 0) /
          q.records.length;
      }
      return row;
    }),
    warnings,
  };
}
