/**
 * `deno task eval trec`, in a module of its own: `main.ts` loads it alone (not the other eval
 * commands and their data, QRCD and statistics modules), as it is the command timed against
 * trec_eval; loading the whole group took 0.08 s of its start-up.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { DEFAULT_MEASURES } from "../metrics/measures.ts";
import { measureHelp } from "../metrics/measures/help.ts";
import { evaluateTrecFiles } from "../metrics/trec_files.ts";
import { formatCsv, formatJson, formatTrecEval } from "../metrics/format.ts";
import type { Command } from "./command.ts";
import {
  list,
  oneOf,
  parseFlags,
  RELEASE_OPTION,
  RELEASE_USAGE,
  relevanceLevel,
  str,
  trecRelease,
} from "./args.ts";
import { writeStdout } from "./stdout.ts";

function count(raw: string | undefined, flag: string, min: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new KitError(
      `${flag} takes ${min ? "a positive" : "a non-negative"} integer, got '${raw}'`,
    );
  }
  return Number(raw);
}

const FORMATS = ["text", "json", "csv", "csv-wide"] as const;

/** `eval trec`. */
export const trecCommand: Command = {
  summary: "trec_eval-compatible evaluation of a run file against a qrels file",
  get usage() {
    return "QRELS RUN [-m MEASURE]... [-q] [-c] [-l LEVEL] [-J] [-M N] [-N N]\n" +
      `  [--format text|json|csv|csv-wide] ${RELEASE_USAGE} [--threads N] [--skip-bad-lines]\n` +
      "  QRELS, RUN: TREC or ranx/pytrec_eval JSON files, gzip too; one may be - (stdin)\n" +
      "  --trec-eval: the release reproduced: 9.0.8 (default; scores as 32-bit floats, no\n" +
      "  comment lines) or 10.0 (doubles, '#' lines skipped, a qrels query missing from the\n" +
      "  run is an error without -c);\n" +
      "  -q per-query values too; -c average over every qrels query (missing ones score 0);\n" +
      "  -l LEVEL judgments >= LEVEL are relevant (default 1); -J only judged documents count;\n" +
      "  -M N only the first N documents of each ranking count; -N N documents in the\n" +
      "  collection (utility); --format text is trec_eval's output (default), json the\n" +
      "  summary (and with -q each query's values), csv one row per query and measure,\n" +
      "  csv-wide one row per query\n" + measureHelp();
  },
  async run(args) {
    const p = parseFlags(args, {
      measure: { type: "string", multiple: true, short: "m" },
      query: { type: "boolean", short: "q" },
      complete: { type: "boolean", short: "c" },
      level: { type: "string", short: "l" },
      "judged-only": { type: "boolean", short: "J" },
      "max-docs": { type: "string", short: "M" },
      "num-docs": { type: "string", short: "N" },
      format: { type: "string", default: "text" },
      threads: { type: "string" },
      "skip-bad-lines": { type: "boolean" },
      ...RELEASE_OPTION,
    });
    const [qrelsPath, runPath, ...extra] = p.positionals;
    if (!qrelsPath || !runPath || extra.length) {
      throw new KitError("usage: deno task eval trec QRELS RUN [-m MEASURE]... [-q] [-c]");
    }
    const format = oneOf(str(p, "format")!, FORMATS, "format");
    const names = list(p, "measure");
    const result = await evaluateTrecFiles(
      qrelsPath,
      runPath,
      names.length ? names : DEFAULT_MEASURES,
      {
        complete: Boolean(p.values.complete),
        relevanceLevel: relevanceLevel(str(p, "level")),
        release: trecRelease(p),
        judgedOnly: Boolean(p.values["judged-only"]),
        maxDocs: count(str(p, "max-docs"), "-M", 0),
        numDocs: count(str(p, "num-docs"), "-N", 0),
        // Default: a worker parses large runs where there are two or more CPUs.
        threads: count(str(p, "threads"), "--threads", 1),
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
