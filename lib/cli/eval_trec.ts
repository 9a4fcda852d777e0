/**
 * `deno task eval trec`, in a module of its own: `main.ts` loads it alone (not the other eval
 * commands and their data, QRCD and statistics modules), as it is the command timed against
 * trec_eval; loading the whole group took 0.08 s of its start-up.
 *
 * @module
 */
import { DEFAULT_MEASURES } from "../metrics/measures/table.ts";
import { measureHelp } from "../metrics/measures/help.ts";
import { evaluateTrecFiles } from "../metrics/evaluate_files.ts";
import { formatCsv, formatJson, formatTrecEval } from "../metrics/output.ts";
import type { Command } from "./command.ts";
import {
  COMPLETE_OPTION,
  integerFlag,
  LEVEL_OPTION,
  list,
  oneOf,
  parseFlags,
  querySetFlags,
  RELEASE_OPTION,
  str,
} from "./flags.ts";
import { writeStdout } from "./stdout.ts";

const FORMATS = ["text", "json", "csv", "csv-wide"] as const;

/** `eval trec`. */
export const trecCommand: Command = {
  summary: "trec_eval-compatible evaluation of a run file against a qrels file",
  positionals: [
    { name: "QRELS", help: "TREC or ranx/pytrec_eval JSON qrels, gzip too; - for stdin" },
    { name: "RUN", help: "TREC or ranx/pytrec_eval JSON run, gzip too; - for stdin (not both)" },
  ],
  options: [
    {
      name: "measure",
      short: "m",
      value: "MEASURE",
      multiple: true,
      help: "a measure, measure with parameters or group (list below; default: official)",
    },
    { name: "query", short: "q", help: "each query's values too" },
    COMPLETE_OPTION,
    LEVEL_OPTION,
    { name: "judged-only", short: "J", help: "only judged documents count, as trec_eval -J" },
    {
      name: "max-docs",
      short: "M",
      value: "N",
      help: "only the first N documents of each ranking count, as trec_eval -M",
    },
    {
      name: "num-docs",
      short: "N",
      value: "N",
      help: "documents in the collection (utility), as trec_eval -N",
    },
    {
      name: "format",
      value: FORMATS.join("|"),
      default: "text",
      help: "text: trec_eval's output; json: the summary (with -q each query's values too); " +
        "csv: one row per query and measure; csv-wide: one row per query",
    },
    RELEASE_OPTION,
    {
      name: "threads",
      value: "N",
      help: "1 or 2: with 2, a run of 128 MB or more and its qrels are read in halves, one per " +
        "thread (default 2 when there are two or more CPUs)",
    },
    { name: "skip-bad-lines", help: "skip malformed lines (counted and shown on stderr)" },
  ],
  get notes() {
    return "--trec-eval 10.0 also makes a qrels query missing from the run an error without -c,\n" +
      "and prints its -q lines with -c (as trec_eval 10.0 does).\n" + measureHelp();
  },
  async run(args) {
    const p = parseFlags(args, trecCommand);
    const [qrelsPath, runPath] = p.positionals;
    const format = oneOf(str(p, "format")!, FORMATS, "format");
    const names = list(p, "measure");
    const result = await evaluateTrecFiles(
      qrelsPath,
      runPath,
      names.length ? names : DEFAULT_MEASURES,
      {
        ...querySetFlags(p),
        judgedOnly: Boolean(p.values["judged-only"]),
        maxDocs: integerFlag(p, "max-docs", 0, "-M"),
        numDocs: integerFlag(p, "num-docs", 0, "-N"),
        // Default: large files in halves where there are two or more CPUs.
        threads: str(p, "threads") === undefined
          ? undefined
          : Number(oneOf(str(p, "threads")!, ["1", "2"], "--threads value")),
        skipBadLines: Boolean(p.values["skip-bad-lines"]),
      },
    );
    for (const [which, path] of [["qrels", qrelsPath], ["run", runPath]] as const) {
      const s = result.skipped?.[which];
      if (s && s.count > 0) {
        console.error(
          `warning: skipped ${s.count} malformed line(s) of ${path} (--skip-bad-lines); first:\n  ` +
            s.examples.join("\n  "),
        );
      }
    }
    const perQuery = Boolean(p.values.query);
    await writeStdout(
      format === "json"
        ? formatJson(result, { perQuery })
        : format === "text"
        ? formatTrecEval(result, { perQuery })
        : formatCsv(result, { perQuery, shape: format === "csv" ? "long" : "wide" }),
    );
  },
};
