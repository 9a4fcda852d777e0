/**
 * `deno task eval <trec|as2|...>`.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { describeFilter, loadSplit } from "../data/mod.ts";
import { evaluate, qrelsFromQuestions, readRun, trecLine } from "../metrics/mod.ts";
import type { Command } from "./command.ts";
import { filterFlag, oneOf, parseFlags, required, str } from "./args.ts";
import { qrcdCommands } from "./qrcd.ts";
import { trecCommand } from "./eval_trec.ts";
import { compareCommand, stabilityCommand, tiesCommand } from "./stats.ts";

/** The AS2 protocol's measures, primary first. */
export const AS2_MEASURES = ["map", "recip_rank", "P.1,5", "ndcg_cut.10"];

const as2Command: Command = {
  summary: "evaluate a run on an answer-selection split (MAP and MRR first)",
  usage: "--dataset wikiqa|trecqa --split S [--filter raw|no-all|clean] RUN [-q] [--json]\n" +
    "  filter default: clean for dev/test, no-all for train (the protocol's)",
  async run(args) {
    const p = parseFlags(args, {
      dataset: { type: "string" },
      split: { type: "string" },
      filter: { type: "string" },
      dir: { type: "string" },
      query: { type: "boolean", short: "q" },
      json: { type: "boolean" },
    });
    const dataset = oneOf(required(p, "dataset"), ["wikiqa", "trecqa"] as const, "dataset");
    const runPath = p.positionals[0];
    if (!runPath) throw new KitError("which run file?");
    const splitName = required(p, "split");
    const filter = filterFlag(p, splitName);
    const split = await loadSplit(dataset, splitName, { filter, dir: str(p, "dir") });
    console.error(`${dataset} ${split.split}: ${describeFilter(split.report)}`);
    if (split.isSample) console.error("note: reading the bundled samples, not the real corpus");
    const qrels = qrelsFromQuestions(split.questions);
    const run = await readRun(runPath);
    let unranked = 0;
    for (const q of split.questions) {
      const docs = run.get(q.id);
      if (docs) { for (const c of q.candidates) if (!docs.has(c.id)) unranked++; }
    }
    if (unranked) {
      console.error(
        `warning: the run does not rank ${unranked} candidate(s) of questions it covers; the ` +
          "protocol ranks every candidate, so they count as not retrieved",
      );
    }
    const missing = split.questions.filter((q) => !run.has(q.id)).length;
    if (missing) {
      console.error(
        `warning: ${missing} question(s) of the split are missing from the run and score 0`,
      );
    }
    // The protocol averages over every question of the split (trec_eval -c).
    const result = evaluate(qrels, run, AS2_MEASURES, { complete: true });
    if (p.values.json) {
      // The summary values at the top level (as before); with -q each question's values too.
      console.log(JSON.stringify({
        dataset,
        split: split.split,
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
