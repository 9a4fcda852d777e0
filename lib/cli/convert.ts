/**
 * `deno task convert run|qrels IN OUT`: TREC <-> ranx/pytrec_eval JSON, gzip either way.
 * The input's format is detected (JSON by a `.json` name or content, gzip by its magic
 * bytes); the output's comes from its name (`.json` for JSON, `.gz` to compress). The output
 * is checked before the input is read (`checkOutput`), written through `writeFileAtomic`, and
 * never replaces a file without `--force`. `--trec-eval 10.0` reads a TREC input by that
 * release's rules (`#` lines are comments), as in `eval trec`.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { readQrels, readRunWithId, writeQrels, writeRun } from "../metrics/mod.ts";
import { checkOutput } from "../io/output.ts";
import type { Command } from "./command.ts";
import { parseFlags, RELEASE_OPTION, RELEASE_USAGE, str, trecRelease } from "./args.ts";

const FORMATS = "  IN: TREC or ranx/pytrec_eval JSON (detected), gzip or not, or - (stdin)\n" +
  "  OUT: JSON when it ends in .json or .json.gz, else TREC; gzip when it ends in .gz";

/** IN and OUT, OUT checked before any reading (as every output is: `checkOutput`). */
async function inOut(
  p: { positionals: string[]; values: Record<string, unknown> },
  what: string,
): Promise<[string, string]> {
  const [input, output, ...extra] = p.positionals;
  if (!input || !output || extra.length) {
    throw new KitError(`usage: deno task convert ${what} IN OUT [--force]`);
  }
  await checkOutput(output, { force: p.values.force === true });
  return [input, output];
}

const runCommand: Command = {
  summary: "convert a run between TREC and ranx/pytrec_eval JSON (gzip either way)",
  usage: `IN OUT [--run-id ID] [--force] ${RELEASE_USAGE}\n${FORMATS}\n` +
    "  --run-id: the runid column of a TREC output (default: the input's last runid; kit for\n" +
    "    JSON input, which has none)",
  async run(args) {
    const p = parseFlags(args, {
      "run-id": { type: "string" },
      force: { type: "boolean" },
      ...RELEASE_OPTION,
    });
    const [input, output] = await inOut(p, "run");
    const { run, runId } = await readRunWithId(input, { release: trecRelease(p) });
    await writeRun(output, run, {
      runId: str(p, "run-id") ?? runId,
      force: Boolean(p.values.force),
    });
    console.error(`wrote ${output}: ${run.size} queries`);
  },
};

const qrelsCommand: Command = {
  summary: "convert qrels between TREC and ranx/pytrec_eval JSON (gzip either way)",
  usage: `IN OUT [--force] ${RELEASE_USAGE}\n${FORMATS}`,
  async run(args) {
    const p = parseFlags(args, { force: { type: "boolean" }, ...RELEASE_OPTION });
    const [input, output] = await inOut(p, "qrels");
    const qrels = await readQrels(input, { release: trecRelease(p) });
    await writeQrels(output, qrels, { force: Boolean(p.values.force) });
    console.error(`wrote ${output}: ${qrels.size} queries`);
  },
};

/** The `convert` command group. */
export const convertCommands: Record<string, Command> = { run: runCommand, qrels: qrelsCommand };
