/**
 * `eval as2`: a run on an answer-selection split, under the protocol (every question of the
 * split counts, a missing one scores 0).
 *
 * @module
 */
import { datasetNames, describeFilter, loadSplit, readRunForSplit } from "../data/mod.ts";
import { shardSets, withoutEmptyShards } from "../scoring/shard_record.ts";
import { evaluate, qrelsFromQuestions, trecLine } from "../metrics/mod.ts";
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

/**
 * What `eval as2` prints: the protocol's measures and P@5 (trec_eval's order: map, recip_rank,
 * P_1, P_5, ndcg_cut_10).
 */
const AS2_MEASURES = [...PROTOCOL_MEASURES.map((m) => m.trecEval), "P.5"];

/** `eval as2`. */
export const as2Command: Command = {
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
    const split = await loadSplit(dataset, splitName, { filter, dir: str(p, "dir") });
    console.error(`${dataset} ${split.split}: ${describeFilter(split.report)}`);
    if (split.isSample) console.error("note: reading the bundled samples, not the real corpus");
    // Shards written by score --shard carry records: a set missing a shard is refused, naming
    // it (its questions would count 0).
    await shardSets(runPaths);
    // Shards recorded as holding no question wrote empty runs: not read (unless all are).
    const nonEmpty = await withoutEmptyShards(runPaths);
    const read = await readRunForSplit(nonEmpty.length ? nonEmpty : runPaths, split, {
      release,
      realCorpusFix: "without --dir samples",
      sampleFix: "--dir samples",
    });
    for (const n of read.notes) console.error(`note: ${read.file}: ${n}`);
    for (const w of read.warnings) console.error(`warning: ${w}`);
    // The protocol averages over every question of the split (trec_eval -c); run-only
    // questions are reported above, with the filter's own told apart.
    const result = evaluate(qrelsFromQuestions(split.questions), read.run, AS2_MEASURES, {
      complete: true,
      release,
      warn: false,
    });
    if (p.values.json) {
      // The summary values at the top level; with -q each question's values too.
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
