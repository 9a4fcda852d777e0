/**
 * `deno task eval <trec|as2|...>`.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import {
  applyFilter,
  checkRunAgainstSplit,
  describeFilter,
  loadSplit,
  runWarnings,
} from "../data/mod.ts";
import { evaluate, qrelsFromQuestions, readRun, trecLine } from "../metrics/mod.ts";
import type { Command } from "./command.ts";
import {
  filterFlag,
  oneOf,
  parseFlags,
  RELEASE_OPTION,
  RELEASE_USAGE,
  required,
  str,
  trecRelease,
} from "./args.ts";
import { qrcdCommands } from "./qrcd.ts";
import { trecCommand } from "./eval_trec.ts";
import { compareCommand, stabilityCommand, tiesCommand } from "./stats.ts";

/** The AS2 protocol's measures, primary first. */
export const AS2_MEASURES = ["map", "recip_rank", "P.1,5", "ndcg_cut.10"];

const as2Command: Command = {
  summary: "evaluate a run on an answer-selection split (MAP and MRR first)",
  usage: "--dataset wikiqa|trecqa --split S [--filter raw|no-all|clean] RUN [-q] [--json]\n" +
    `  ${RELEASE_USAGE}\n` +
    "  filter default: clean for dev/test, no-all for train (the protocol's); --trec-eval: the\n" +
    "  release whose reading and score precision apply, as in eval trec",
  async run(args) {
    const p = parseFlags(args, {
      dataset: { type: "string" },
      split: { type: "string" },
      filter: { type: "string" },
      dir: { type: "string" },
      query: { type: "boolean", short: "q" },
      json: { type: "boolean" },
      ...RELEASE_OPTION,
    });
    const release = trecRelease(p);
    const dataset = oneOf(required(p, "dataset"), ["wikiqa", "trecqa"] as const, "dataset");
    const runPath = p.positionals[0];
    if (!runPath) throw new KitError("which run file?");
    const splitName = required(p, "split");
    const filter = filterFlag(p, splitName);
    const raw = await loadSplit(dataset, splitName, { dir: str(p, "dir") });
    const { questions, report } = applyFilter(raw.questions, filter);
    console.error(`${dataset} ${raw.split}: ${describeFilter(report)}`);
    if (raw.isSample) console.error("note: reading the bundled samples, not the real corpus");
    const qrels = qrelsFromQuestions(questions);
    const run = await readRun(runPath, { release });
    const kept = new Set(questions.map((q) => q.id));
    const check = checkRunAgainstSplit(run, questions, {
      filter,
      split: splitName,
      dropped: raw.questions.filter((q) => !kept.has(q.id)).map((q) => q.id),
    });
    for (const w of runWarnings(check)) console.error(`warning: ${w}`);
    if (check.filteredQuestions.length) {
      console.error(
        `note: ${check.filteredQuestions.length} question(s) of the run are dropped by the ` +
          `filter '${filter}' and not evaluated`,
      );
    }
    // The protocol averages over every question of the split (trec_eval -c).
    // Run-only questions are reported above, with the filter's own told apart.
    const result = evaluate(qrels, run, AS2_MEASURES, {
      complete: true,
      release,
      warn: false,
    });
    if (p.values.json) {
      // The summary values at the top level (as before); with -q each question's values too.
      console.log(JSON.stringify({
        dataset,
        split: raw.split,
        filter,
        numQ: result.numQ,
        ...result.summary,
        ...(p.values.query ? { perQuery: Object.fromEntries(result.perQuery) } : {}),
      }));
      return;
    }
    const lines: string[] = [];
    if (p.values.query) {
      for (const [qid, row] of result.perQuery) {
        for (const m of result.measures) lines.push(trecLine(m, qid, row[m]));
      }
    }
    lines.push(trecLine("num_q", "all", result.numQ, true));
    for (const m of result.measures) lines.push(trecLine(m, "all", result.summary[m]));
    console.log(lines.join("\n"));
  },
};

/** The `eval` command group. */
export const evalCommands: Record<string, Command> = {
  trec: trecCommand,
  as2: as2Command,
  ...qrcdCommands,
  compare: compareCommand,
  ties: tiesCommand,
  stability: stabilityCommand,
};
