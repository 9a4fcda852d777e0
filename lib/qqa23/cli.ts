/**
 * The Qur'an QA 2023 Task A command of the `eval` group:
 * `eval qqa23 QRELS RUN [--json] [-q] [--abstain-sweep] [--dir DIR]`.
 *
 * QRELS is a qrels file, or a split name (`train`, `dev`, `test`: that split's qrels in the
 * installed corpus, `--dir` picks its folder). The run is checked by the official submission
 * checker's rules (a refused run: one line on stderr, exit status 2) and scored as the official
 * `QQA23_TaskA_eval.py` scores it. Standard output: trec_eval-style lines (`%-22s\t%s\t%6.4f`,
 * 4 decimals rounded as C's printf; the full values with `--json`) with the official numbers;
 * standard error: the warnings, and the complete protocol's numbers with the sentences saying why
 * they differ, when they do.
 *
 * @module
 */
import { DIR_OPTION, parseFlags, str } from "../cli/args.ts";
import type { Command } from "../cli/command.ts";
import { isFile } from "../io/path.ts";
import { formatFixedC } from "../metrics/c_printf.ts";
import { trecLine } from "../metrics/output.ts";
import { abstentionSweep, pickThreshold, type SweepRow } from "./abstain.ts";
import { isQqa23Split, qqa23QrelsPath } from "./load.ts";
import { evaluateQqa23, type Qqa23Evaluation, type Qqa23Summary } from "./official.ts";
import { readQqa23Qrels } from "./qrels.ts";
import { qqa23RunWarnings, readQqa23Run } from "./run_file.ts";

/** The qrels file: `spec` itself, or a split's file when `spec` is a split name and not a file. */
function qrelsPath(spec: string, dir?: string): string {
  if (!isQqa23Split(spec)) return spec;
  if (isFile(spec)) {
    // A file by the split's name in this folder wins (as eval qrcd reads GOLD); said, since
    // the split was likely meant.
    let split = "its path in the corpus folder";
    try {
      split = qqa23QrelsPath(spec, dir);
    } catch { /* not fetched: the generic wording */ }
    console.error(
      `note: '${spec}' is a file in this folder: reading it as the qrels, not the ${spec} ` +
        `split's (for the split, give ${split})`,
    );
    return spec;
  }
  const path = qqa23QrelsPath(spec, dir);
  console.error(`reading the ${spec} qrels from ${path}`);
  return path;
}

/** A value as trec_eval prints it (`nan` for numpy's mean of nothing). */
function fixed(v: number): string {
  return Number.isNaN(v) ? "nan" : formatFixedC(v, 4);
}

/** A threshold for JSON (which has no infinities). */
function thresholdJson(t: number): number | string {
  return Number.isFinite(t) ? t : String(t);
}

/** The complete protocol and why it differs, for stderr. */
function completeLines(r: Qqa23Evaluation): string[] {
  if (r.differences.length === 0) return [];
  const c = r.complete, o = r.official;
  const same = c.map_cut_10 === o.map_cut_10 && c.recip_rank === o.recip_rank;
  return [
    `complete protocol (every judged question once, a missing one 0): map_cut_10 ` +
    `${fixed(c.map_cut_10)}, recip_rank ${fixed(c.recip_rank)} over ${c.numQ} questions ` +
    `(official: ${fixed(o.map_cut_10)}, ${fixed(o.recip_rank)} over ${o.numQ} values)` +
    (same ? "; the numbers happen to agree" : ""),
    ...r.differences.map((d) => `why: ${d}`),
  ];
}

function summaryJson(s: Qqa23Summary) {
  return { map_cut_10: s.map_cut_10, recip_rank: s.recip_rank, numQ: s.numQ };
}

function sweepJson(rows: readonly SweepRow[]) {
  return rows.map((r) => ({
    threshold: thresholdJson(r.threshold),
    abstained: r.abstained,
    official: summaryJson(r.official),
    complete: summaryJson(r.complete),
  }));
}

/** The sweep as a tab-separated table with a header. */
function sweepTable(rows: readonly SweepRow[]): string {
  const lines = [
    "threshold\tabstained\tmap_cut_10\trecip_rank\tcomplete_map_cut_10\tcomplete_recip_rank",
  ];
  for (const r of rows) {
    lines.push(
      [
        String(r.threshold),
        String(r.abstained),
        fixed(r.official.map_cut_10),
        fixed(r.official.recip_rank),
        fixed(r.complete.map_cut_10),
        fixed(r.complete.recip_rank),
      ].join("\t"),
    );
  }
  return lines.join("\n");
}

/** `eval qqa23 QRELS RUN`: the official MAP@10 and MRR of a Task A run. */
export const qqa23EvalCommand: Command = {
  summary: "Qur'an QA 2023 Task A: a run's official MAP@10 and MRR, and the complete protocol's",
  positionals: [
    {
      name: "QRELS",
      help:
        "the qrels: a file, or train, dev or test (the split's qrels in the installed corpus, " +
        "from --dir)",
    },
    {
      name: "RUN",
      help: "the run: qid Q0 docid rank score tag, all lines tab- or all space-separated, at " +
        "most 10 a question, -1 alone for no answer; - for standard input",
    },
  ],
  options: [
    {
      name: "json",
      help: "one JSON object: the official map_cut_10 and recip_rank at full precision, the " +
        "complete protocol's, the differences, the warnings (with -q each question's values)",
    },
    {
      name: "query",
      short: "q",
      help: "each judged question's values too, and its weight in the official mean (0, 1 or 2)",
    },
    {
      name: "abstain-sweep",
      help: "instead, the table of thresholds T (a question whose top score is below T answers " +
        "-1 alone): -Infinity, each question's top score above the smallest, Infinity",
    },
    DIR_OPTION,
  ],
  notes: "The run is refused (exit status 2) where the official submission checker refuses it; " +
    "its file-name rule (TeamID_RunID.ext) is only a warning. Officially a question with answers " +
    "missing from the run is left out of the mean and a zero-answer question missing from it " +
    "counts twice, as 0; the complete protocol (every judged question once) goes to stderr when " +
    "the run leaves a judged question out. docs/qqa23.md works through every rule.",
  async run(args) {
    const p = parseFlags(args, qqa23EvalCommand);
    const [qrelsSpec, runPath] = p.positionals;
    const qrels = await readQqa23Qrels(qrelsPath(qrelsSpec, str(p, "dir")));
    const run = await readQqa23Run(runPath);
    const warnings = [...run.warnings, ...qqa23RunWarnings(run, qrels)];
    for (const w of warnings) console.error(`warning: ${w}`);
    const sweep = p.values["abstain-sweep"] ? abstentionSweep(qrels, run) : undefined;
    const r = evaluateQqa23(qrels, run);
    if (p.values.json) {
      console.log(JSON.stringify({
        map_cut_10: r.official.map_cut_10,
        recip_rank: r.official.recip_rank,
        numQ: r.official.numQ,
        complete: summaryJson(r.complete),
        differences: r.differences,
        ignored: r.ignored,
        warnings,
        ...(p.values.query ? { perQuestion: r.perQuestion } : {}),
        ...(sweep ? { abstain_sweep: sweepJson(sweep) } : {}),
      }));
      return;
    }
    if (sweep) {
      console.log(sweepTable(sweep));
      const best = pickThreshold(sweep);
      console.error(
        `highest official map_cut_10 on this run: T = ${best.threshold} (${best.abstained} ` +
          `abstained, map_cut_10 ${fixed(best.official.map_cut_10)}); pick T on dev, then ` +
          "report test with it",
      );
      return;
    }
    for (const l of completeLines(r)) console.error(l);
    const lines: string[] = [];
    if (p.values.query) {
      for (const q of r.perQuestion) {
        lines.push(trecLine("map_cut_10", q.qid, fixed(q.map_cut_10).padStart(6)));
        lines.push(trecLine("recip_rank", q.qid, fixed(q.recip_rank).padStart(6)));
        lines.push(trecLine("official_weight", q.qid, q.weight, true));
      }
    }
    lines.push(trecLine("num_q", "all", r.official.numQ, true));
    lines.push(trecLine("map_cut_10", "all", fixed(r.official.map_cut_10).padStart(6)));
    lines.push(trecLine("recip_rank", "all", fixed(r.official.recip_rank).padStart(6)));
    console.log(lines.join("\n"));
  },
};

/** The Qur'an QA 2023 commands, for the `eval` group's table. */
export const qqa23EvalCommands: Record<string, Command> = { qqa23: qqa23EvalCommand };
