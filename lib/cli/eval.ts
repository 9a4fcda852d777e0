/**
 * `deno task eval <trec|as2|...>`.
 *
 * @module
 */
import { numberingNote, renumberRun } from "../data/run_numbering.ts";
import {
  applyFilter,
  checkRunAgainstSplit,
  datasetNames,
  describeFilter,
  loadSplit,
  runWarnings,
} from "../data/mod.ts";
import { evaluate, qrelsFromQuestions, readRun, trecLine } from "../metrics/mod.ts";
import { PROTOCOL_MEASURES } from "../metrics/protocol_measures.ts";
import type { Command } from "./command.ts";
import {
  DIR_OPTION,
  FILTER_OPTION,
  filterFlag,
  oneOf,
  parseFlags,
  RELEASE_OPTION,
  str,
  trecRelease,
} from "./args.ts";
import { qrcdCommands } from "./qrcd.ts";
import { mergeShardRuns } from "../scoring/shard.ts";
import { trecCommand } from "./eval_trec.ts";
import { compareCommand, stabilityCommand, tiesCommand } from "./stats.ts";

/**
 * What `eval as2` prints: the protocol's measures and P@5 (trec_eval's order: map, recip_rank,
 * P_1, P_5, ndcg_cut_10).
 */
const AS2_MEASURES = [...PROTOCOL_MEASURES.map((m) => m.trecEval), "P.5"];

const as2Command: Command = {
  summary: "evaluate a run on an answer-selection split (MAP and MRR first)",
  positionals: [{
    name: "RUN",
    help: "the run: TREC or ranx/pytrec_eval JSON, gzip too; several files are the shards of " +
      "one run (score --shard), read together (a question in two of them is an error)",
    repeat: { min: 1 },
  }],
  options: [
    { name: "dataset", value: datasetNames("as2").join("|"), required: true, help: "the corpus" },
    { name: "split", value: "S", required: true, help: "the split the run answers" },
    FILTER_OPTION,
    DIR_OPTION,
    { name: "query", short: "q", help: "each question's values too" },
    { name: "json", help: "one JSON object (with -q each question's values too)" },
    RELEASE_OPTION,
  ],
  async run(args) {
    const p = parseFlags(args, as2Command);
    const release = trecRelease(p);
    const dataset = oneOf(str(p, "dataset")!, datasetNames("as2"), "dataset");
    const runPaths = p.positionals;
    const splitName = str(p, "split")!;
    const filter = filterFlag(p, splitName);
    const raw = await loadSplit(dataset, splitName, { dir: str(p, "dir") });
    const { questions, report } = applyFilter(raw.questions, filter);
    console.error(`${dataset} ${raw.split}: ${describeFilter(report)}`);
    if (raw.isSample) console.error("note: reading the bundled samples, not the real corpus");
    const qrels = qrelsFromQuestions(questions);
    const parts = [];
    for (const runPath of runPaths) {
      // A run in another numbering its corpus's runs circulate in (WikiQA's .ref) is mapped.
      const read = renumberRun(await readRun(runPath, { release }), dataset, raw.questions, {
        split: splitName,
        file: runPath,
      });
      if (read.numbering) console.error(`note: ${runPath}: ${numberingNote(read, splitName)}`);
      parts.push({ file: runPath, run: read.run });
    }
    const run = parts.length === 1 ? parts[0].run : mergeShardRuns(parts);
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
