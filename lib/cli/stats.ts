/**
 * `deno task eval compare` and `deno task eval ties`: comparing runs with significance tests,
 * and the effect of tied scores on MAP/MRR. Thin: flags in, lib/stats out.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { readQrels, readRun } from "../metrics/mod.ts";
import { checkOneStdin } from "../metrics/trec_format.ts";
import {
  analyzeTies,
  compareSystems,
  type Correction,
  formatTieAnalysis,
  measureValues,
  queryValues,
  seedsNeeded,
  spreadOverRuns,
  type TestName,
  toCsv,
  toLatex,
  toMarkdown,
} from "../stats/mod.ts";
import type { Command } from "./command.ts";
import {
  COMPLETE_OPTION,
  FORCE_OPTION,
  integerFlag,
  LEVEL_OPTION,
  list,
  oneOf,
  OUT_OPTION,
  type OutputFlag,
  outputFlag,
  parseFlags,
  querySetFlags,
  RELEASE_OPTION,
  str,
} from "./args.ts";
import type { Option } from "./command.ts";
import { DEFAULT_SEED } from "../stats/random.ts";
import { writeStdout } from "./stdout.ts";

const TESTS = ["randomization", "ttest"] as const satisfies readonly TestName[];
const COMPARE_FORMATS = ["md", "latex", "csv", "json"] as const;
const CORRECTIONS = ["holm", "bonferroni", "none"] as const satisfies readonly Correction[];

/** `--qrels QRELS` of the commands that take several runs. */
const QRELS_OPTION: Option = {
  name: "qrels",
  value: "QRELS",
  required: true,
  help: "TREC or ranx/pytrec_eval JSON qrels, gzip too",
};

/** A system's name from its run file: the file name without folders and extension. */
function systemName(path: string): string {
  return path.replace(/^.*\//, "").replace(/\.(run|txt|trec)(\.gz)?$/, "");
}

async function emit(text: string, out: OutputFlag | undefined): Promise<void> {
  if (out) {
    await writeFileAtomic(out.path, text, { force: out.force });
    console.error(`wrote ${out.path}`);
  } else {
    await writeStdout(text);
  }
}

/** `eval compare`: a comparison table of two or more runs with significance marks. */
export const compareCommand: Command = {
  summary: "compare runs: means, paired significance tests, Markdown/LaTeX/CSV table",
  positionals: [{ name: "RUN", help: "a TREC run, one per system", repeat: { min: 2 } }],
  options: [
    QRELS_OPTION,
    {
      name: "measure",
      short: "m",
      value: "MEASURE",
      multiple: true,
      help: "a measure to compare on (default: map and recip_rank)",
    },
    {
      name: "test",
      value: TESTS.join("|"),
      default: "randomization",
      help: "the paired significance test",
    },
    {
      name: "format",
      value: COMPARE_FORMATS.join("|"),
      default: "md",
      help: "the table's format",
    },
    {
      name: "name",
      value: "NAME",
      multiple: true,
      help: "a system's name, one per run (default: the run file's name)",
    },
    { name: "trials", value: "N", default: "10000", help: "the randomization test's trials" },
    {
      name: "seed",
      value: "S",
      help: `seed of the randomization test and the bootstrap (default ${DEFAULT_SEED})`,
    },
    { name: "alpha", value: "A", help: "significance level, in (0, 1) (default 0.05)" },
    {
      name: "correction",
      value: CORRECTIONS.join("|"),
      help: "for several comparisons (default: holm with more than two runs, else none)",
    },
    {
      name: "bootstrap",
      value: "SAMPLES",
      help: "also a bootstrap confidence interval of each difference, from SAMPLES resamples",
    },
    COMPLETE_OPTION,
    { name: "intersect", help: "compare on the queries every run answers" },
    LEVEL_OPTION,
    RELEASE_OPTION,
    OUT_OPTION,
    FORCE_OPTION,
  ],
  async run(args) {
    const p = parseFlags(args, compareCommand);
    const runs = p.positionals;
    const names = list(p, "name");
    if (names.length && names.length !== runs.length) {
      throw new KitError(`got ${names.length} --name for ${runs.length} runs`);
    }
    const systemNames = names.length ? names : runs.map(systemName);
    if (new Set(systemNames).size !== systemNames.length) {
      throw new KitError(`run names repeat (${systemNames.join(", ")}); pass --name for each run`);
    }
    const test: TestName = oneOf(str(p, "test")!, TESTS, "test");
    const format = oneOf(str(p, "format")!, COMPARE_FORMATS, "format");
    const correctionRaw = str(p, "correction");
    const correction: Correction | undefined = correctionRaw === undefined
      ? undefined
      : oneOf(correctionRaw, CORRECTIONS, "correction");
    const alphaRaw = str(p, "alpha");
    const alpha = alphaRaw === undefined ? undefined : Number(alphaRaw);
    if (alpha !== undefined && !(alpha > 0 && alpha < 1)) {
      throw new KitError(`--alpha must be in (0, 1), got '${alphaRaw}'`);
    }
    // Every flag is checked before any file is read.
    const trials = integerFlag(p, "trials", 1)!; // the table's default: 10000
    const seed = integerFlag(p, "seed", 0);
    const bootstrapSamples = integerFlag(p, "bootstrap", 1);
    const measures = list(p, "measure").length ? list(p, "measure") : ["map", "recip_rank"];
    const out = await outputFlag(p);
    const options = querySetFlags(p);
    const release = options.release;
    const qrels = await readQrels(str(p, "qrels")!, { release });
    const perQuery = new Map<string, Map<string, Record<string, number>>>();
    let outputNames: string[] = [];
    for (let i = 0; i < runs.length; i++) {
      // The queries eval trec averages over with the same flags (-c: every qrels query).
      const r = queryValues(qrels, await readRun(runs[i], { release }), measures, options);
      outputNames = r.measures;
      perQuery.set(systemNames[i], r.perQuery);
    }
    const table = compareSystems(perQuery, outputNames, {
      test,
      trials,
      seed,
      alpha,
      correction,
      queries: p.values.intersect ? "intersection" : "same",
      ...(bootstrapSamples === undefined ? {} : { bootstrap: { samples: bootstrapSamples } }),
    });
    const text = format === "md"
      ? toMarkdown(table)
      : format === "latex"
      ? toLatex(table, { pValues: true })
      : format === "json"
      ? JSON.stringify(table, null, 2) + "\n" // plain data; NaN (no value) becomes null
      : toCsv(table);
    await emit(text, out);
  },
};

/** `eval ties`: how tied scores move AP/MAP and RR/MRR. */
export const tiesCommand: Command = {
  summary: "tied scores: MAP/MRR range and expectation over tie orders vs trec_eval's",
  positionals: [
    { name: "QRELS", help: "TREC or ranx/pytrec_eval JSON qrels; - for stdin" },
    { name: "RUN", help: "TREC or ranx/pytrec_eval JSON run; - for stdin (not both)" },
  ],
  options: [
    COMPLETE_OPTION,
    LEVEL_OPTION,
    {
      name: "query",
      short: "q",
      help: "list the queries whose AP or RR depends on the order of ties",
    },
    { name: "json", help: "one JSON object (with -q the affected queries too)" },
    RELEASE_OPTION,
  ],
  async run(args) {
    const p = parseFlags(args, tiesCommand);
    const [qrelsPath, runPath] = p.positionals;
    checkOneStdin(qrelsPath, runPath);
    const options = querySetFlags(p);
    const { release } = options;
    const analysis = analyzeTies(
      await readQrels(qrelsPath, { release }),
      await readRun(runPath, { release }),
      options,
    );
    if (p.values.json) {
      const { perQuery, ...summary } = analysis;
      const affected = perQuery.filter((q) => q.ap.min < q.ap.max || q.rr.min < q.rr.max);
      console.log(JSON.stringify(p.values.query ? { ...summary, affected } : summary, null, 2));
      return;
    }
    const lines = [formatTieAnalysis(analysis)];
    if (p.values.query) {
      lines.push(
        "",
        "query                  AP trec_eval/min/max/expected   RR trec_eval/min/max/expected",
      );
      const f = (x: number) => x.toFixed(4);
      for (const q of analysis.perQuery) {
        if (q.ap.min === q.ap.max && q.rr.min === q.rr.max) continue;
        lines.push(
          `${q.query.padEnd(22)} ${f(q.ap.trecEval)} ${f(q.ap.min)} ${f(q.ap.max)} ${
            f(q.ap.expected)
          }    ${f(q.rr.trecEval)} ${f(q.rr.min)} ${f(q.rr.max)} ${f(q.rr.expected)}`,
        );
      }
    }
    console.log(lines.join("\n"));
  },
};

/** The half-widths `eval stability` says the runs needed for. */
const RUNS_NEEDED_HALF_WIDTHS = [0.01, 0.005, 0.002, 0.001];

/** `eval stability`: spread of one measure over several runs of one system (e.g. seeds). */
export const stabilityCommand: Command = {
  summary: "stability over runs (seeds) of one system: mean, sample sd, min, max, flag",
  positionals: [{
    name: "RUN",
    help: "a TREC run of the system (one per seed)",
    repeat: { min: 2 },
  }],
  options: [
    QRELS_OPTION,
    { name: "measure", short: "m", value: "MEASURE", default: "map", help: "the one measure" },
    {
      name: "threshold",
      value: "T",
      help: "the spread above which the system is flagged unstable (default 0.01)",
    },
    {
      name: "spread",
      value: "sd|range",
      default: "sd",
      help: "the spread compared with the threshold: sample sd or max - min",
    },
    COMPLETE_OPTION,
    LEVEL_OPTION,
    { name: "json", help: "one JSON object" },
    RELEASE_OPTION,
  ],
  async run(args) {
    const p = parseFlags(args, stabilityCommand);
    const runs = p.positionals;
    const thresholdRaw = str(p, "threshold");
    const threshold = thresholdRaw === undefined ? undefined : Number(thresholdRaw);
    if (threshold !== undefined && !(threshold >= 0)) {
      throw new KitError(`--threshold must be a non-negative number, got '${thresholdRaw}'`);
    }
    const spread = oneOf(str(p, "spread")!, ["sd", "range"] as const, "spread");
    const options = querySetFlags(p);
    const { release } = options;
    const qrels = await readQrels(str(p, "qrels")!, { release });
    const measure = str(p, "measure")!;
    const perRun: number[][] = [];
    let outputName = measure;
    for (const run of runs) {
      const r = queryValues(qrels, await readRun(run, { release }), [measure], options);
      if (r.measures.length !== 1) throw new KitError(`give one measure, got '${measure}'`);
      outputName = r.measures[0];
      perRun.push(measureValues(r.perQuery, outputName));
    }
    const s = spreadOverRuns(perRun, { threshold, spread });
    // How many runs a 95% t interval of the mean within ±h needs, with this sd (seeds.ts).
    const runsNeeded = Object.fromEntries(
      RUNS_NEEDED_HALF_WIDTHS.map((h) => [String(h), seedsNeeded(s.perRun, h)]),
    );
    if (p.values.json) {
      console.log(
        JSON.stringify({ measure: outputName, files: runs, ...s, runsNeeded }, null, 2),
      );
      return;
    }
    const f = (x: number) => x.toFixed(4);
    const lines = runs.map((r, i) => `${f(s.perRun[i])}  ${r}`);
    lines.push(
      "",
      `${outputName} over ${s.runs} runs: mean ${f(s.mean)}, sd ${f(s.sd)} (sample, n-1), ` +
        `min ${f(s.min)}, max ${f(s.max)}, range ${f(s.range)}`,
      `runs for a 95% t interval of the mean within ±h, with this sd: ` +
        Object.entries(runsNeeded).map(([h, n]) => `±${h}: ${n}`).join(", "),
      s.unstable
        ? `UNSTABLE: ${s.spread} ${f(s.spread === "sd" ? s.sd : s.range)} exceeds ${s.threshold}`
        : `stable: ${s.spread} within ${s.threshold}`,
    );
    console.log(lines.join("\n"));
  },
};
