/**
 * `deno task eval trec`, in a module of its own: `main.ts` loads it alone (not the other eval
 * commands and their data, QRCD and statistics modules), as it is the command timed against
 * trec_eval; loading the whole group took 0.08 s of its start-up.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { DEFAULT_MEASURES, selectMeasures } from "../metrics/measures.ts";
import { evaluateTrecFiles } from "../metrics/trec_files.ts";
import { formatTrecEval } from "../metrics/format.ts";
import type { Command } from "./command.ts";
import { list, parseFlags, relevanceLevel, str } from "./args.ts";

function threadCount(raw: string): number {
  if (!/^[1-9]\d*$/.test(raw)) {
    throw new KitError(`--threads takes a positive integer, got '${raw}'`);
  }
  return Number(raw);
}

/** `eval trec`. */
export const trecCommand: Command = {
  summary: "trec_eval-compatible evaluation of a run file against a qrels file",
  usage: "QRELS RUN [-m MEASURE]... [-q] [-c] [-l LEVEL] [--threads N] [--skip-bad-lines]\n" +
    "  measures: num_q runid num_ret num_rel num_rel_ret map Rprec recip_rank P.k recall.k\n" +
    "            ndcg_cut.k map_cut.k success.k (k: one or more cutoffs, e.g. P.5,10)",
  async run(args) {
    const p = parseFlags(args, {
      measure: { type: "string", multiple: true, short: "m" },
      query: { type: "boolean", short: "q" },
      complete: { type: "boolean", short: "c" },
      level: { type: "string", short: "l" },
      threads: { type: "string" },
      "skip-bad-lines": { type: "boolean" },
    });
    const [qrelsPath, runPath, ...extra] = p.positionals;
    if (!qrelsPath || !runPath || extra.length) {
      throw new KitError("usage: deno task eval trec QRELS RUN [-m MEASURE]... [-q] [-c]");
    }
    const names = list(p, "measure");
    const chosen = names.length ? names : DEFAULT_MEASURES;
    const selection = selectMeasures(chosen);
    const result = await evaluateTrecFiles(qrelsPath, runPath, chosen, {
      complete: Boolean(p.values.complete),
      relevanceLevel: relevanceLevel(str(p, "level")),
      // Default: a worker parses large runs where there are two or more CPUs.
      threads: str(p, "threads") === undefined ? undefined : threadCount(str(p, "threads")!),
      skipBadLines: Boolean(p.values["skip-bad-lines"]),
    });
    for (const [which, path] of [["qrels", qrelsPath], ["run", runPath]] as const) {
      const s = result.skipped?.[which];
      if (s && s.count > 0) {
        console.error(
          `warning: skipped ${s.count} malformed line(s) of ${path} (--skip-bad-lines); first:\n  ` +
            s.examples.join("\n  "),
        );
      }
    }
    await writeStdout(formatTrecEval(result, { perQuery: Boolean(p.values.query), selection }));
  },
};

async function writeStdout(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  let off = 0;
  while (off < bytes.length) off += await Deno.stdout.write(bytes.subarray(off));
}
