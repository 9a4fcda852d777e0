/**
 * `deno task convert run|qrels IN OUT`: TREC <-> ranx/pytrec_eval JSON, gzip either way.
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

/** The `convert` command group. */
export const convertCommands: Record<string, Command> = { run: runCommand, qrels: qrelsCommand };
