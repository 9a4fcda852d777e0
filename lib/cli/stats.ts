/**
 * `deno task eval compare` and `deno task eval ties`: comparing runs with significance tests,
 * and the effect of tied scores on MAP/MRR. Thin: flags in, lib/stats out.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { writeOutput } from "../io/atomic.ts";
import { readQrels, readRun } from "../metrics/mod.ts";
import { checkOneStdin } from "../metrics/engine/reading_rules.ts";
import { checkStdinOnce, holdStdin } from "../io/source.ts";
import { labelLegend, measureLabel } from "../metrics/protocol_measures.ts";
import {
  analyzeTies,
  compareSystems,
  type Correction,
  formatTieAnalysis,
  measureValues,
  type PerQueryValues,
  seedsNeeded,
  spreadOverRuns,
  type TestName,
  toCsv,
  toLatex,
  toMarkdown,
} from "../stats/mod.ts";
import { identicalLines, sameTestLines, sameTestsOf } from "../stats/family.ts";
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
import { commonQueries, fileQueryValues } from "../stats/query_set.ts";

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

/** `--intersect` of the commands that take several runs. */
const INTERSECT_OPTION: Option = {
  name: "intersect",
  help: "use only the queries every run covers (without it, runs over different queries are " +
    "refused)",
};

/** A system's name from its run file: the file name without folders and extension. */
function systemName(path: string): string {
  return path.replace(/^.*\//, "").replace(/\.(run|txt|trec)(\.gz)?$/, "");
}

async function emit(text: string, out: OutputFlag | undefined): Promise<void> {
  await writeOutput(out?.path ?? "-", text, out);
  if (out && out.path !== "-") console.error(`wrote ${out.path}`);
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
      help: "also 95% percentile bootstrap intervals from SAMPLES resamples: of each " +
        "system's mean, and a paired one of each difference (queries resampled)",
    },
    COMPLETE_OPTION,
    INTERSECT_OPTION,
    LEVEL_OPTION,
    RELEASE_OPTION,
    OUT_OPTION,
    FORCE_OPTION,
  ],
  async run(args) {
    const p = parseFlags(args, compareCommand);
    const runs = p.positionals;
    stdinOnce(str(p, "qrels")!, runs);
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
    const read = await runsQueryValues(str(p, "qrels")!, runs, measures, querySetFlags(p));
    const perQuery = new Map(systemNames.map((name, i) => [name, read.perQuery[i]]));
    const outputNames = read.measures;
    const table = compareSystems(perQuery, outputNames, {
      test,
      trials,
      seed,
      alpha,
      correction,
      queries: p.values.intersect ? "intersection" : "same",
      ...(bootstrapSamples === undefined ? {} : { bootstrap: { samples: bootstrapSamples } }),
    });
    // A pair identical on every query of a measure is not tested there: said once per pair,
    // in the report's words.
    const identical = table.pairs.filter((p) => p.identical);
    for (const line of identicalLines({ measures: table.measures, identical }, measureLabel)) {
      console.error(`warning: ${line}`);
    }
    // Pairs of systems identical side by side are one test, counted once in m: said per test.
    const tests = sameTestsOf(table.pairs);
    for (const line of sameTestLines({ measures: table.measures, tests }, measureLabel)) {
      console.error(`note: ${line}`);
    }
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
      { ...options, file: runPath },
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

/** Refuses standard input named twice among --qrels and the runs, before anything is read. */
function stdinOnce(qrelsPath: string, runs: readonly string[]): void {
  checkStdinOnce([["--qrels", qrelsPath], ...runs.map((r, i) => [`run ${i + 1}`, r] as const)]);
}

/**
 * Each run's per-query values (`fileQueryValues`: the queries `eval trec` averages over with the
 * same flags; a run is read as `eval trec` reads it, never held whole), the qrels read from
 * standard input once when `-` names it.
 */
async function runsQueryValues(
  qrelsPath: string,
  runs: readonly string[],
  measures: readonly string[],
  options: ReturnType<typeof querySetFlags>,
): Promise<{ measures: string[]; perQuery: PerQueryValues[] }> {
  const qrels = await holdStdin(qrelsPath);
  let names: string[] = [];
  const perQuery: PerQueryValues[] = [];
  for (const run of runs) {
    const r = await fileQueryValues(qrels, run, measures, options);
    names = r.measures;
    perQuery.push(r.perQuery);
  }
  return { measures: names, perQuery };
}

/** `eval stability`: spread of each measure over several runs of one system (e.g. seeds). */
export const stabilityCommand: Command = {
  summary: "stability over runs (seeds) of one system: mean, sample sd, min, max, flag",
  positionals: [{
    name: "RUN",
    help: "a TREC run of the system (one per seed)",
    repeat: { min: 2 },
  }],
  options: [
    QRELS_OPTION,
    {
      name: "measure",
      short: "m",
      value: "MEASURE",
      multiple: true,
      help: "a measure (default: map); each is reported and flagged on its own",
    },
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
    INTERSECT_OPTION,
    LEVEL_OPTION,
    { name: "json", help: "one JSON object" },
    RELEASE_OPTION,
  ],
  async run(args) {
    const p = parseFlags(args, stabilityCommand);
    const runs = p.positionals;
    stdinOnce(str(p, "qrels")!, runs);
    const thresholdRaw = str(p, "threshold");
    const threshold = thresholdRaw === undefined ? undefined : Number(thresholdRaw);
    if (threshold !== undefined && !(threshold >= 0)) {
      throw new KitError(`--threshold must be a non-negative number, got '${thresholdRaw}'`);
    }
    const spread = oneOf(str(p, "spread")!, ["sd", "range"] as const, "spread");
    const measures = list(p, "measure").length ? list(p, "measure") : ["map"];
    const read = await runsQueryValues(str(p, "qrels")!, runs, measures, querySetFlags(p));
    const outputNames = read.measures;
    // One query set: the same queries in every run, or with --intersect those all of them have.
    const { queries, counts } = commonQueries(
      new Map(runs.map((r, i) => [r, read.perQuery[i]])),
      p.values.intersect ? "intersection" : "same",
      "runs",
    );
    const dropped = read.perQuery.some((r) => r.size !== queries.length);
    if (dropped) {
      console.error(`--intersect: ${queries.length} queries common to every run (${counts})`);
    }
    const perQuery = dropped
      ? read.perQuery.map((r) => new Map(queries.map((q) => [q, r.get(q)!])))
      : read.perQuery;
    const results = outputNames.map((measure) => {
      const s = spreadOverRuns(perQuery.map((r) => measureValues(r, measure)), {
        threshold,
        spread,
      });
      // How many runs a 95% t interval of the mean within ±h needs, with this sd (seeds.ts).
      const runsNeeded = Object.fromEntries(
        RUNS_NEEDED_HALF_WIDTHS.map((h) => [String(h), seedsNeeded(s.perRun, h)]),
      );
      return { measure, ...s, runsNeeded };
    });
    const numQ = perQuery[0].size;
    if (p.values.json) {
      console.log(JSON.stringify({ files: runs, numQ, measures: results }, null, 2));
      return;
    }
    const f = (x: number) => x.toFixed(4);
    const legend = labelLegend(outputNames);
    const lines = [
      `${runs.length} runs over the same ${numQ} queries` +
      (legend ? ` (measures in trec_eval's names: ${legend})` : ""),
      "",
      [...outputNames.map((m) => measureLabel(m).padEnd(10)), "run"].join("  "),
      ...runs.map((r, i) => [...results.map((s) => f(s.perRun[i]).padEnd(10)), r].join("  ")),
    ];
    for (const s of results) {
      lines.push(
        "",
        `${measureLabel(s.measure)} over ${s.runs} runs: ` +
          `mean ${f(s.mean)}, sd ${f(s.sd)} (sample, n-1), ` +
          `min ${f(s.min)}, max ${f(s.max)}, range ${f(s.range)}`,
        `runs for a 95% t interval of the mean within ±h, with this sd: ` +
          Object.entries(s.runsNeeded).map(([h, n]) => `±${h}: ${n}`).join(", "),
        s.unstable
          ? `UNSTABLE: ${s.spread} ${f(s.spread === "sd" ? s.sd : s.range)} exceeds ${s.threshold}`
          : `stable: ${s.spread} within ${s.threshold}`,
      );
    }
    console.log(lines.join("\n"));
  },
};
