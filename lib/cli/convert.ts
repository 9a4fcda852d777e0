/**
 * `deno task convert run|qrels IN OUT`: TREC <-> ranx/pytrec_eval JSON, gzip either way;
 * `convert shards PATTERN OUT`: a sharded run's files, every shard checked, as one run.
 * The input's format is detected (JSON by a `.json` name or content, gzip by its magic
 * bytes); the output's comes from its name (`.json` for JSON, `.gz` to compress). The output
 * is checked before the input is read (`checkOutput`: never the input itself, even with
 * `--force`), written through `writeFileAtomic`, and never replaces a file without `--force`. `--trec-eval 10.0` reads a TREC input by that
 * release's rules (`#` lines are comments), as in `eval trec`.
 *
 * @module
 */
import { readQrels, readRunWithId, writeQrels, writeRun } from "../metrics/mod.ts";
import { checkOutput } from "../io/output.ts";
import { mergeShardRuns } from "../scoring/shard.ts";
import { shardFiles, withoutEmptyShards } from "../scoring/shard_record.ts";
import type { Command, Positional } from "./command.ts";
import {
  FORCE_OPTION,
  parseFlags,
  RELEASE_OPTION,
  RUN_ID_OPTION,
  str,
  trecRelease,
} from "./args.ts";
import type { Parsed } from "./grammar.ts";

const FORMATS = "IN: TREC or ranx/pytrec_eval JSON (detected), gzip or not, or - (stdin).\n" +
  "OUT: JSON when it ends in .json or .json.gz, else TREC; gzip when it ends in .gz.";

/** IN and OUT: the arguments of both conversions. */
const IN_OUT: Positional[] = [
  { name: "IN", help: "the file to convert; - for stdin" },
  { name: "OUT", help: "the file to write (format by its name, see below); - for stdout (TREC)" },
];

/** IN and OUT, OUT checked before any reading (as every output is: `checkOutput`). */
async function inOut(p: Parsed): Promise<[string, string]> {
  const [input, output] = p.positionals;
  // `-` is standard output, as `-` is standard input for IN.
  if (output !== "-") {
    await checkOutput(output, { force: p.values.force === true, inputs: [input], named: "OUT" });
  }
  return [input, output];
}

const runCommand: Command = {
  summary: "convert a run between TREC and ranx/pytrec_eval JSON (gzip either way)",
  positionals: IN_OUT,
  options: [RUN_ID_OPTION, FORCE_OPTION, RELEASE_OPTION],
  notes: FORMATS,
  async run(args) {
    const p = parseFlags(args, runCommand);
    const [input, output] = await inOut(p);
    const release = trecRelease(p);
    const { run, runId } = await readRunWithId(input, { release });
    // Written in the release's order (10.0: scores as doubles), as `eval trec` ranks them.
    await writeRun(output, run, {
      runId: str(p, "run-id") ?? runId,
      force: Boolean(p.values.force),
      release,
    });
    console.error(`wrote ${output === "-" ? "<stdout>" : output}: ${run.size} queries`);
  },
};

const qrelsCommand: Command = {
  summary: "convert qrels between TREC and ranx/pytrec_eval JSON (gzip either way)",
  positionals: IN_OUT,
  options: [FORCE_OPTION, RELEASE_OPTION],
  notes: FORMATS,
  async run(args) {
    const p = parseFlags(args, qrelsCommand);
    const [input, output] = await inOut(p);
    const qrels = await readQrels(input, { release: trecRelease(p) });
    await writeQrels(output, qrels, { force: Boolean(p.values.force) });
    console.error(`wrote ${output === "-" ? "<stdout>" : output}: ${qrels.size} queries`);
  },
};

const shardsCommand: Command = {
  summary: "merge the shards of a sharded run (score --shard) into one run, every shard checked",
  positionals: [
    {
      name: "PATTERN",
      help: "the shards' files as score's --out named them, with {shard} (e.g. " +
        "'runs/ce.{shard}.run', quoted)",
    },
    { name: "OUT", help: "the merged run (format by its name, see below); - for stdout (TREC)" },
  ],
  options: [FORCE_OPTION],
  notes: "The count of shards comes from the records score writes beside each shard " +
    "(<run>.shard.json). Every shard 0..N-1 must be there and complete (its sha256 as " +
    "recorded), else nothing is written and the missing or incomplete ones are named. " +
    "The merged run holds each shard's questions, in shard order.\n" + FORMATS.split("\n")[1],
  async run(args) {
    const p = parseFlags(args, shardsCommand);
    const [pattern, output] = p.positionals;
    const files = await shardFiles(pattern);
    if (output !== "-") {
      await checkOutput(output, { force: p.values.force === true, inputs: files, named: "OUT" });
    }
    const parts = [];
    let runId = "kit";
    // A shard recorded as holding no question wrote an empty run: nothing to read.
    for (const file of await withoutEmptyShards(files)) {
      const read = await readRunWithId(file);
      if (parts.length === 0) runId = read.runId;
      parts.push({ file, run: read.run });
    }
    const run = mergeShardRuns(parts);
    await writeRun(output, run, { runId, force: Boolean(p.values.force) });
    console.error(
      `wrote ${output === "-" ? "<stdout>" : output}: ${run.size} questions from all ` +
        `${files.length} shards (${files[0]} ... ${files.at(-1)})`,
    );
  },
};

/** The `convert` command group. */
export const convertCommands: Record<string, Command> = {
  run: runCommand,
  qrels: qrelsCommand,
  shards: shardsCommand,
};
