/**
 * The QRCD commands of the `eval` group:
 * - `eval qrcd GOLD RUN.json [--per-record] [--segmenter none|light]`: the official scorer's
 *   pRR / EM / F1@1 as one JSON object on stdout; run-file warnings on stderr.
 * - `eval qrcd-check RUN.json [--gold GOLD]`: the submission checker's rules (file name included).
 * - `eval qrcd-baseline --split dev --out RUN.json`: writes the offline baseline's run.
 * - `data stats qrcd`: {@link qrcdStatsBySplit}.
 *
 * GOLD is a JSONL file or a split name (`train`, `dev`, `test`) read from the fetched corpus,
 * or from the bundled samples when the corpus is not fetched (`--dir` picks a folder).
 *
 * @module
 */
import { isInstalled } from "../data/paths.ts";
import { KitError } from "../errors.ts";
import { isFile } from "../io/path.ts";
import {
  checkRunAgainstGold,
  checkRunFileName,
  evaluateQrcd,
  formatIssue,
  isQrcdSplit,
  loadQrcd,
  overlapBaseline,
  type PassageQuestion,
  qrcdSplitPath,
  type QrcdStats,
  qrcdStats,
  readSpanRun,
  type RunIssue,
  SEGMENTERS,
  writeSpanRun,
} from "./mod.ts";
import {
  DIR_OPTION,
  FORCE_OPTION,
  oneOf,
  OUT_OPTION,
  outputFlag,
  parseFlags,
  readFoldersOf,
  str,
} from "../cli/args.ts";
import type { Command } from "../cli/command.ts";

/** Loads gold records from a file, or from a split name when no file by that name exists. */
async function loadGold(spec: string, dir?: string): Promise<PassageQuestion[]> {
  return await loadQrcd(goldPath(spec, dir));
}

/** The gold file: `spec` itself, or a split's file when `spec` is a split name and not a file. */
function goldPath(spec: string, dir?: string): string {
  if (!isQrcdSplit(spec) || isFile(spec)) return spec;
  const path = qrcdSplitPath(spec, dir);
  console.error(`reading ${spec} split from ${path}`);
  return path;
}

/** Gold records for scoring: every record needs answers (the test file has none). */
async function loadScorableGold(spec: string, dir?: string): Promise<PassageQuestion[]> {
  const path = goldPath(spec, dir);
  const gold = await loadQrcd(path);
  const bare = gold.find((r) => r.answers.length === 0);
  if (bare) {
    throw new KitError(
      `record ${bare.pqId} has no gold answers, so the file cannot be scored (the QRCD test ` +
        "file is distributed without answers; use it with qrcd-check or qrcd-baseline only)",
      { file: path, line: bare.line },
    );
  }
  return gold;
}

function report(issues: RunIssue[], file: string): { errors: number; warnings: number } {
  for (const issue of issues) console.error(formatIssue(issue, file));
  const errors = issues.filter((i) => i.severity === "error").length;
  return { errors, warnings: issues.length - errors };
}

/** `eval qrcd GOLD RUN.json`: scores a run with the official scorer's semantics. */
export const qrcdEvalCommand: Command = {
  summary: "QRCD (Qur'an QA 2022): pRR, exact match and F1@1 of a run file",
  positionals: [
    {
      name: "GOLD",
      help: "gold records: a JSONL file, or train or dev (the split's file from --dir)",
    },
    { name: "RUN.json", help: "the run file (the shared task's JSON)" },
  ],
  options: [
    { name: "per-record", help: "each record's scores too" },
    {
      name: "segmenter",
      value: Object.keys(SEGMENTERS).join("|"),
      default: "none",
      help: "Arabic word segmentation before matching (none: the official scorer's)",
    },
    DIR_OPTION,
  ],
  async run(args) {
    const p = parseFlags(args, qrcdEvalCommand);
    const [goldSpec, runPath] = p.positionals;
    const segName = oneOf(str(p, "segmenter")!, Object.keys(SEGMENTERS), "segmenter");
    const gold = await loadScorableGold(goldSpec, str(p, "dir"));
    const { run, issues } = await readSpanRun(runPath);
    const nameIssue = checkRunFileName(runPath, "warning");
    const all = [...(nameIssue ? [nameIssue] : []), ...issues, ...checkRunAgainstGold(gold, run)];
    const { errors } = report(all, runPath);
    if (errors > 0) {
      console.error(
        `${runPath}: ${errors} error(s): the official scorer would not score this run; fix them`,
      );
      return 1;
    }
    const r = evaluateQrcd(gold, run, { segmenter: SEGMENTERS[segName] });
    const out: Record<string, unknown> = {
      pRR: r.pRR,
      exact_match: r.exactMatch,
      "f1@1": r.f1At1,
      records: r.records,
      missing: r.missing.length,
      segmenter: r.segmenter,
    };
    if (p.values["per-record"]) out.per_record = r.perRecord;
    console.log(JSON.stringify(out));
  },
};

/** `eval qrcd-check RUN.json`: the submission checker's rules, file name included. */
export const qrcdCheckCommand: Command = {
  summary: "QRCD: check a run file with the official submission checker's rules",
  positionals: [{ name: "RUN.json", help: "the run file (the shared task's JSON)" }],
  options: [
    {
      name: "gold",
      value: "GOLD",
      help: "also check against gold records: a JSONL file, or train, dev or test (from --dir)",
    },
    DIR_OPTION,
  ],
  async run(args) {
    const p = parseFlags(args, qrcdCheckCommand);
    const runPath = p.positionals[0];
    const { run, issues } = await readSpanRun(runPath);
    const nameIssue = checkRunFileName(runPath, "error");
    const all = [...(nameIssue ? [nameIssue] : []), ...issues];
    const goldSpec = str(p, "gold");
    if (goldSpec) all.push(...checkRunAgainstGold(await loadGold(goldSpec, str(p, "dir")), run));
    const counts = report(all, runPath);
    console.log(JSON.stringify({ file: runPath, pq_ids: run.size, ...counts }));
    return counts.errors > 0 ? 1 : 0;
  },
};

/** `eval qrcd-baseline`: writes the offline token-overlap baseline's run file. */
export const qrcdBaselineCommand: Command = {
  summary: "QRCD: write the offline baseline run (verses ranked by question-word overlap)",
  options: [
    { name: "split", value: "train|dev|test", help: "the split's records (from --dir)" },
    { name: "gold", value: "GOLD.jsonl", help: "the records of this file (instead of --split)" },
    DIR_OPTION,
    { ...OUT_OPTION, required: true },
    FORCE_OPTION,
  ],
  async run(args) {
    const p = parseFlags(args, qrcdBaselineCommand);
    const split = str(p, "split");
    const goldPath = str(p, "gold");
    if ((split === undefined) === (goldPath === undefined)) {
      throw new KitError("give exactly one of --split and --gold");
    }
    const out = (await outputFlag(p, "out", readFoldersOf(p)))!;
    let records: PassageQuestion[];
    if (split !== undefined) {
      const s = oneOf(split, ["train", "dev", "test"], "split");
      const path = qrcdSplitPath(s, str(p, "dir"));
      console.error(`reading ${s} split from ${path}`);
      records = await loadQrcd(path);
    } else records = await loadQrcd(goldPath!);
    const run = overlapBaseline(records);
    await writeSpanRun(out.path, run, { force: out.force });
    console.error(
      `wrote ${run.size} pq_ids to ${out.path === "-" ? "standard output" : out.path}`,
    );
  },
};

/**
 * `data stats qrcd [--split S] [--dir DIR]`: records, unique questions, unique passages and
 * answers per split (all three splits when `split` is undefined). The files read go to stderr.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { qrcdStatsBySplit } from "./cli.ts";
 * const dev = await qrcdStatsBySplit("dev", "samples");
 * assert.deepEqual(dev, { records: 7, questions: 6, passages: 7, answers: 12 });
 * ```
 */
export async function qrcdStatsBySplit(
  split: string | undefined,
  dir: string | undefined,
): Promise<QrcdStats | Record<string, QrcdStats>> {
  const splits = split === undefined
    ? (["train", "dev", "test"] as const)
    : [oneOf(split, ["train", "dev", "test"] as const, "QRCD split")];
  const out: Record<string, QrcdStats> = {};
  for (const s of splits) {
    const path = qrcdSplitPath(s, dir);
    console.error(`${s}: ${path}`);
    out[s] = qrcdStats(await loadQrcd(path));
  }
  if (dir === undefined && !isInstalled("qrcd")) {
    console.error(
      "note: qrcd is not fetched; these are the bundled samples (deno task data fetch qrcd)",
    );
  }
  return split === undefined ? out : out[splits[0]];
}

/** The QRCD subcommands, for the `eval` group's table. */
export const qrcdCommands: Record<string, Command> = {
  qrcd: qrcdEvalCommand,
  "qrcd-check": qrcdCheckCommand,
  "qrcd-baseline": qrcdBaselineCommand,
};
