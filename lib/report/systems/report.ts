/**
 * The systems report as plain data: {@link evaluateSystems} turns a spec (systems_spec.ts)
 * into every number page 00 shows, once. `./kit report --run ...` calls it once and writes
 * the result once (`systems.json` beside the pages, paths inside the report folder relative
 * to it; systems_files.ts); notebook 00 only renders it (systems_sections.ts), and opened on
 * its own it calls the same function on the spec of its first cell ({@link systemsReportFor}).
 *
 * Procedures, each named once on the page:
 * - every measure is trec_eval's over every question of the split (`-c`: a question missing
 *   from a run scores 0); a system with several runs takes each question's mean over them;
 * - a system's interval: the percentile bootstrap over questions (`DEFAULT_BOOTSTRAP_SAMPLES`
 *   resamples, seed 42);
 * - the family of tests: your systems against each other and each against each kit baseline,
 *   per measure; the paired t-test, Bonferroni over the family, t intervals at the family's
 *   level, which agree with the decisions (`testFamily`); the baselines against each other are
 *   not tested (their results are shown beside yours);
 * - the pair of the error analysis: wins / losses / ties per question and the sign test.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import { type LoadedSplit, loadSplit, readRunForSplit, splitStats } from "../../data/mod.ts";
import { shardSets, withoutEmptyShards } from "../../scoring/shard_record.ts";
import { describeFilter } from "../../data/filters.ts";
import {
  PROTOCOL_MEASURES,
  qrelsFromQuestions,
  type Run,
  runFromScores,
  writeRun,
} from "../../metrics/mod.ts";
import type { Row } from "../../plot/table.ts";
import { scoreSplit } from "../../scoring/pipeline.ts";
import type { BackendChoice } from "../../scoring/model/session_types.ts";
import { chooseBackend } from "../../scoring/model/backend.ts";
import type { PerQueryValues } from "../../stats/compare.ts";
import { type Failures, failures } from "../../stats/error_analysis.ts";
import { type Family, identicalLines, testFamily } from "../../stats/family.ts";
import { queryValues } from "../../stats/query_set.ts";
import { DEFAULT_SEED } from "../../stats/random.ts";
import { DEFAULT_BOOTSTRAP_SAMPLES } from "../../stats/significance.ts";
import { summarizeRuns } from "../../stats/systems.ts";
import {
  PUBLISHED_RESULTS,
  type PublishedGap,
  publishedGaps,
  type PublishedResult,
} from "./published.ts";
import {
  breakdownRows,
  type ComparedPair,
  comparedPair,
  identicalOn,
  pairDifferenceRows,
  type PairOutcome,
  pairOutcomes,
  type PairSystem,
  pairTextRows,
} from "./pair_data.ts";
import { chooseCorpus } from "./corpus.ts";
import { measureLabel } from "../../metrics/protocol_measures.ts";
import { type TieSummary, tieSummary } from "./ties_data.ts";
import type { RunLine } from "../notebook/blocks.ts";
import { reportParts } from "../../tasks/registry.ts";
import type { PartData } from "../../tasks/task.ts";
import { type SectionName, sections } from "./sections.ts";

export type { RunLine, TieSummary };
import { KIT_BASELINES, type ResolvedSpec, resolveSpec, type SystemsSpec } from "./spec.ts";

/** The environment variable through which `./kit report` hands notebook 00 its report file. */
export const SYSTEMS_REPORT_ENV = "KIT_SYSTEMS_REPORT";

export { AS2_SECTIONS, type SectionName, SECTIONS, sections } from "./sections.ts";

/** The corpus the systems were judged on, and how it was chosen. */
export interface ReportCorpus {
  dataset: string;
  split: string;
  filter: string;
  /** `real` (the fetched corpus) or `sample` (the bundled samples). */
  data: "real" | "sample";
  /** Whether `data` was asked for, or the default (the installed corpus, else the sample). */
  chosen: "asked" | "default";
  /** The folder read. */
  folder: string;
  /** Questions every measure averages over (after the filter), and before it. */
  questions: number;
  allQuestions: number;
  candidates: number;
  /** What the filter did, as a sentence. */
  filterSummary: string;
  /** Said on the page and on stderr when the sample stands in for the real corpus. */
  sampleNote?: string;
}

/** A measure as the page names it. */
export interface ReportMeasure {
  /** Output name (`map`), the key of every value. */
  name: string;
  /** The page's label (`MAP`). */
  label: string;
  /** trec_eval's `-m` name (`map`). */
  trecEval: string;
}

/** An answer-selection system's results. */
export interface ReportSystem {
  name: string;
  /** `user`: given in the spec; `baseline`: the kit's. */
  kind: "user" | "baseline";
  /**
   * Its run files: absolute, or relative to the report folder for runs the report scored
   * (`runs/02-name.run`); empty for a baseline or a model scored in memory.
   */
  runs: string[];
  model?: string;
  /** How many runs it has (one per seed, for several). */
  runCount: number;
  /** Questions averaged over. */
  queries: number;
  /** Per measure: the mean over questions (of each question's mean over runs). */
  mean: Record<string, number>;
  /** Per measure: the percentile bootstrap interval over questions. */
  interval: Record<string, { lower: number; upper: number }>;
  /** With several runs, per measure: the spread of the runs' means (sample sd, n - 1). */
  spread?: Record<string, { sd: number; min: number; max: number; perRun: number[] }>;
  /** Question id to measure to value (each question's mean over the runs). */
  perQuery: Record<string, Record<string, number>>;
  /** With several runs: each run's per-question values. */
  perRun?: Record<string, Record<string, number>>[];
}

/** The error analysis of one pair. */
export interface PairReport extends ComparedPair {
  /** Per measure: wins / losses / ties, the sign test, the paired test. */
  outcomes: PairOutcome[];
  /** The questions where their AP differs most, as text rows. */
  differing: Row[];
  /** Where a puts a wrong candidate first (a system with one run only). */
  failures?: Failures;
  /** Every question with both systems' AP and RR and their differences (the CSV). */
  questions: Row[];
}

/** Every number page 00 shows: plain data (JSON as it is). */
export interface SystemsReport {
  /** What was asked, every default filled in. */
  spec: ResolvedSpec;
  /** Where the answer-selection systems were judged (absent with QRCD runs only). */
  corpus?: ReportCorpus;
  measures: ReportMeasure[];
  /** The procedures' settings. */
  procedures: { bootstrapSamples: number; seed: number; alpha: number };
  /** Your systems first, then the kit's baselines. */
  systems: ReportSystem[];
  notes: RunLine[];
  warnings: RunLine[];
  /** The family of tests (absent with fewer than two answer-selection systems). */
  family?: Family;
  /** The published numbers the kit knows for the split, and your systems beside them. */
  published: { rows: PublishedResult[]; gaps: PublishedGap[] };
  ties: TieSummary[];
  pair?: PairReport;
  breakdowns: { type: Row[]; candidates: Row[] };
  /** The sections that have something to show. */
  sections: SectionName[];
  /** The files written beside it (relative to the report folder), when `./kit report` wrote it. */
  files?: string[];
  /** Each task part's data, by its key (lib/tasks `ReportPart`), between `breakdowns` and `sections`. */
  [part: string]: unknown;
}

/** Options of {@link evaluateSystems}. */
export interface EvaluateSystemsOptions {
  /** The folder relative paths of the spec are relative to (default: the current one). */
  base?: string;
  /**
   * The report folder: runs scored from a model are written into its `runs/` and named
   * relative to it. Without it they are scored in memory only.
   */
  folder?: string;
  /** Bootstrap resamples of the intervals (default `DEFAULT_BOOTSTRAP_SAMPLES`). */
  bootstrapSamples?: number;
  /** Where transformer models run. */
  backend?: BackendChoice;
  /** Progress and what was chosen, a line at a time (default: none). */
  log?: (line: string) => void;
}

/** A file-name-safe form of a system name (the name itself stays in the report's texts). */
export function scoredRunName(name: string, i: number): string {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._]+/, "").slice(0, 60);
  return `runs/${String(i + 1).padStart(2, "0")}-${safe || "system"}.run`;
}

function fileName(path: string): string {
  return path.replace(/^.*\//, "");
}

const MEASURES: ReportMeasure[] = PROTOCOL_MEASURES.map((m) => ({ ...m }));
const NAMES = MEASURES.map((m) => m.name);

/** An answer-selection system with its runs in memory. */
interface SystemRuns {
  name: string;
  kind: "user" | "baseline";
  runs: Run[];
  files: string[];
  model?: string;
}

/** The run files of the spec's systems, each read once and checked (a model's: none yet). */
async function readSystemRuns(
  spec: ResolvedSpec,
  split: LoadedSplit,
  lines: { notes: RunLine[]; warnings: RunLine[] },
): Promise<Map<string, { runs: Run[]; files: string[] }>> {
  const read = new Map<string, { runs: Run[]; files: string[] }>();
  for (const s of spec.systems.filter((s) => s.model === undefined)) {
    const runs: Run[] = [], names: string[] = [];
    // The shards of one run (score --shard, with their records) are one run, checked whole.
    for (const files of await shardSets(s.runs)) {
      const nonEmpty = await withoutEmptyShards(files);
      const r = await readRunForSplit(nonEmpty.length ? nonEmpty : files, split);
      const file = files.length === 1 ? files[0] : `${files[0]} (+${files.length - 1} shards)`;
      names.push(file);
      for (const text of r.notes) lines.notes.push({ system: s.name, file: fileName(file), text });
      for (const text of r.warnings) {
        lines.warnings.push({ system: s.name, file: fileName(file), text });
      }
      runs.push(r.run);
    }
    read.set(s.name, { runs, files: names });
  }
  return read;
}

/** Every answer-selection system of the spec in its order, models scored, then the baselines. */
async function systemRuns(
  spec: ResolvedSpec,
  split: LoadedSplit,
  read: Map<string, { runs: Run[]; files: string[] }>,
  options: EvaluateSystemsOptions,
): Promise<SystemRuns[]> {
  const log = options.log ?? (() => {});
  const out: SystemRuns[] = [];
  // Said once the inputs are read and checked, and only when a model runs on a backend (the
  // lexical scorers and the ltr ranker have none).
  if (spec.systems.some((s) => s.model !== undefined && !/^(lexical:|ltr$)/.test(s.model))) {
    log((await chooseBackend(options.backend ?? "auto")).line);
  }
  for (const [i, s] of spec.systems.entries()) {
    if (s.model === undefined) {
      out.push({ name: s.name, kind: "user", ...read.get(s.name)! });
      continue;
    }
    const t0 = performance.now();
    const scored = await scoreSplit(s.model, split.dataset, split.split, {
      filter: split.report.filter,
      dir: split.dir,
      backend: options.backend,
    });
    const run = runFromScores(scored.questions, scored.scores);
    const files: string[] = [];
    if (options.folder) {
      const file = scoredRunName(s.name, i);
      await writeRun(`${options.folder}/${file}`, run, {
        runId: scored.scorerId.replace(/[^\w.:-]+/g, "_"),
      });
      files.push(file);
    }
    log(
      `scored ${s.model} for ${JSON.stringify(s.name)} in ${
        ((performance.now() - t0) / 1000).toFixed(1)
      } s${files.length ? `: ${files[0]}` : ""}`,
    );
    out.push({ name: s.name, kind: "user", runs: [run], files, model: s.model });
  }
  if (spec.baselines && out.length) {
    for (const b of KIT_BASELINES) {
      const t0 = performance.now();
      const scored = await scoreSplit(b.model, split.dataset, split.split, {
        filter: split.report.filter,
        dir: split.dir,
      });
      log(`scored the baseline ${b.name} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      out.push({
        name: b.name,
        kind: "baseline",
        runs: [runFromScores(scored.questions, scored.scores)],
        files: [],
        model: b.model,
      });
    }
  }
  return out;
}

const plain = (v: PerQueryValues) => Object.fromEntries(v);

/**
 * Evaluates the systems of a spec: reads and checks every run once (renumbered when it comes
 * in WikiQA's `.ref` numbering; a run sharing fewer than half of its question ids with the
 * split is an error naming the likely fix), scores the `model` systems and the kit's
 * baselines on the same corpus, and computes every number page 00 shows. Errors in the
 * inputs are one `KitError` naming the file, before anything else is computed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluateSystems } from "./report.ts";
 * import { SAMPLES_DIR } from "../../data/paths.ts";
 * const report = await evaluateSystems({
 *   data: "sample",
 *   systems: [{ name: "mine", runs: [`${SAMPLES_DIR}/runs/wikiqa-test.run`] }],
 * }, { bootstrapSamples: 200 });
 * const mine = report.systems.find((s) => s.name === "mine")!;
 * // Hand-worked: AP 1, 7/12, 1/3, 1/2 over the four clean questions of the sample.
 * assert(Math.abs(mine.mean.map - (1 + 7 / 12 + 1 / 3 + 1 / 2) / 4) < 1e-15);
 * assert.deepEqual(report.family!.pairs, [["mine", "BM25 (kit)"], ["mine", "ltr (kit)"]]);
 * assert.equal(JSON.stringify(JSON.parse(JSON.stringify(report))), JSON.stringify(report));
 * ```
 */
export async function evaluateSystems(
  spec: SystemsSpec,
  options: EvaluateSystemsOptions = {},
): Promise<SystemsReport> {
  const log = options.log ?? (() => {});
  const resolved = resolveSpec(spec, options.base ?? Deno.cwd());
  const samples = options.bootstrapSamples ?? DEFAULT_BOOTSTRAP_SAMPLES;
  const lines = { notes: [] as RunLine[], warnings: [] as RunLine[] };
  const withAs2 = resolved.systems.length > 0;
  let corpus: ReportCorpus | undefined;
  let systems: ReportSystem[] = [];
  let family: Family | undefined;
  let pair: PairReport | undefined;
  let ties: TieSummary[] = [];
  let breakdowns: SystemsReport["breakdowns"] = { type: [], candidates: [] };
  // Each task part given in the spec, evaluated by the part (QRCD's runs, for one).
  const partData = new Map<string, PartData>();
  const evaluateParts = async () => {
    for (const part of reportParts()) {
      const given = resolved[part.key];
      if (given !== undefined) {
        partData.set(
          part.key,
          await part.evaluate(given as Record<string, unknown>, resolved.data, log),
        );
      }
    }
  };
  if (withAs2) {
    const where = chooseCorpus(resolved.dataset, resolved.data);
    const split = await loadSplit(resolved.dataset, resolved.split, {
      filter: resolved.filter,
      dir: where.folder,
    });
    corpus = {
      dataset: resolved.dataset,
      split: resolved.split,
      filter: resolved.filter,
      ...where,
      questions: split.questions.length,
      allQuestions: split.all.length,
      candidates: splitStats(split.questions).candidates,
      filterSummary: describeFilter(split.report),
      ...(where.data === "sample"
        ? {
          sampleNote: `judged on the bundled sample of ${resolved.dataset} ${resolved.split} ` +
            `(${split.questions.length} questions), not the real corpus: ${
              where.chosen === "asked"
                ? "as asked (data sample)"
                : `it is not fetched ('./kit data fetch ${resolved.dataset}', then it is the default)`
            }`,
        }
        : {}),
    };
    log(
      `your systems: ${resolved.dataset} ${resolved.split} (${resolved.filter}), ${
        where.data === "real" ? `the fetched corpus (${where.folder})` : "the bundled sample"
      }${where.chosen === "default" ? " (the installed corpus, the default)" : ""}`,
    );
    if (corpus.sampleNote) log(`note: ${corpus.sampleNote}`);
    // Every input read and checked before anything is scored or computed.
    const read = await readSystemRuns(resolved, split, lines);
    for (const l of lines.notes) log(`system ${JSON.stringify(l.system)} (${l.file}): ${l.text}`);
    for (const l of lines.warnings) {
      log(`system ${JSON.stringify(l.system)} (${l.file}): protocol warning: ${l.text}`);
    }
    await evaluateParts();
    const runs = await systemRuns(resolved, split, read, options);
    const qrels = qrelsFromQuestions(split.questions);
    const perRun = new Map(runs.map((s) => [
      s.name,
      s.runs.map((run) =>
        queryValues(qrels, run, MEASURES.map((m) => m.trecEval), { complete: true, warn: false })
          .perQuery
      ),
    ]));
    const summaries = new Map(runs.map((s) => [
      s.name,
      summarizeRuns(perRun.get(s.name)!, NAMES, { bootstrap: { samples, seed: DEFAULT_SEED } }),
    ]));
    systems = runs.map((s) => {
      const sum = summaries.get(s.name)!;
      const several = s.runs.length > 1;
      return {
        name: s.name,
        kind: s.kind,
        runs: s.files,
        ...(s.model === undefined ? {} : { model: s.model }),
        runCount: s.runs.length,
        queries: sum.queries,
        mean: Object.fromEntries(NAMES.map((m) => [m, sum.measures[m].mean])),
        interval: Object.fromEntries(
          NAMES.map((
            m,
          ) => [m, { lower: sum.measures[m].ci!.lower, upper: sum.measures[m].ci!.upper }]),
        ),
        ...(several
          ? {
            spread: Object.fromEntries(NAMES.map((m) => {
              const r = sum.measures[m].runs!;
              return [m, { sd: r.sd, min: r.min, max: r.max, perRun: [...r.perRun] }];
            })),
            perRun: perRun.get(s.name)!.map(plain),
          }
          : {}),
        perQuery: plain(sum.perQuery),
      };
    });
    const users = systems.filter((s) => s.kind === "user").map((s) => s.name);
    const baselines = systems.filter((s) => s.kind === "baseline").map((s) => s.name);
    const pairs: [string, string][] = [
      ...users.flatMap((a, i) => users.slice(i + 1).map((b): [string, string] => [a, b])),
      ...users.flatMap((a) => baselines.map((b): [string, string] => [a, b])),
    ];
    const values = new Map([...summaries].map(([n, s]) => [n, s.perQuery]));
    if (pairs.length) {
      family = testFamily(values, pairs, NAMES);
      for (const line of identicalLines(family, measureLabel)) log(`warning: ${line}`);
    }
    const chosen = comparedPair(
      resolved,
      new Map(systems.map((s) => [s.name, s.mean.map])),
      identicalOn(values, "map"),
    );
    if (chosen) {
      const pairSystem = (name: string): PairSystem => ({
        name,
        runs: runs.find((s) => s.name === name)!.runs,
        perRun: perRun.get(name)!,
      });
      const [a, b] = [pairSystem(chosen.a), pairSystem(chosen.b)];
      pair = {
        ...chosen,
        outcomes: pairOutcomes(
          { name: a.name, values: values.get(a.name)! },
          { name: b.name, values: values.get(b.name)! },
          NAMES,
          family,
        ),
        differing: pairTextRows(split.questions, a, b),
        ...(a.runs.length === 1
          ? {
            failures: failures(split.questions, { run: a.runs[0], values: a.perRun[0] }, {
              limit: 10,
            }),
          }
          : {}),
        questions: pairDifferenceRows(split.questions, a, b),
      };
    }
    ties = runs.map((s) => tieSummary(s.name, qrels, s.runs));
    breakdowns = {
      type: breakdownRows(split.questions, values, "type"),
      candidates: breakdownRows(split.questions, values, "candidates"),
    };
  }
  const published = PUBLISHED_RESULTS.filter((r) =>
    r.dataset === resolved.dataset && r.split === resolved.split
  );
  if (!withAs2) await evaluateParts();
  const report: SystemsReport = {
    spec: resolved,
    ...(corpus ? { corpus } : {}),
    measures: MEASURES,
    procedures: { bootstrapSamples: samples, seed: DEFAULT_SEED, alpha: 0.05 },
    systems,
    notes: lines.notes,
    warnings: lines.warnings,
    ...(family ? { family } : {}),
    published: {
      rows: withAs2 ? [...published] : [],
      gaps: publishedGaps(
        systems.filter((s) => s.kind === "user").map((s) => ({
          name: s.name,
          map: s.mean.map,
          mrr: s.mean.recip_rank,
        })),
        published,
      ),
    },
    ties,
    ...(pair ? { pair } : {}),
    breakdowns,
    ...Object.fromEntries(partData),
    sections: [],
  };
  report.sections = sections().filter((s) => hasContent(report, s));
  return report;
}

/** Whether a section of the page has something to show. */
function hasContent(r: SystemsReport, section: SectionName): boolean {
  const as2 = r.systems.length > 0;
  switch (section) {
    case "systems":
    case "files":
      return true;
    case "warnings":
    case "results":
    case "breakdowns":
      return as2;
    case "published":
      return as2;
    case "spread":
      return r.systems.some((s) => s.runCount > 1);
    case "significance":
      return r.family !== undefined;
    case "ties":
      return r.ties.some((t) => t.map.max - t.map.min > 0 || t.mrr.max - t.mrr.min > 0);
    case "pair":
      return r.pair !== undefined;
    default:
      // a task part's section: shown when the part was given
      return r[section] !== undefined;
  }
}

/**
 * Reads a systems report written by `./kit report` (`systems.json`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readSystemsReport } from "./report.ts";
 * await assert.rejects(() => readSystemsReport("/nonexistent/systems.json"), /cannot read/);
 * ```
 */
export async function readSystemsReport(file: string): Promise<SystemsReport> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (e) {
    throw new KitError(`cannot read the systems report: ${(e as Error).message}`, { file });
  }
  const report = JSON.parse(text) as SystemsReport;
  if (!Array.isArray(report?.systems) || !Array.isArray(report?.sections)) {
    throw new KitError("not a systems report (systems.json of ./kit report)", { file });
  }
  return report;
}

/**
 * The report notebook 00 shows: under `./kit report`, the one the command computed (it names
 * the file in {@link SYSTEMS_REPORT_ENV}); opened on its own, `evaluateSystems(spec)` on the
 * spec of its first cell (relative paths from the notebook's folder).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemsReportFor } from "./report.ts";
 * import { SAMPLES_DIR } from "../../data/paths.ts";
 * const spec = { data: "sample" as const, baselines: false,
 *   systems: [{ name: "mine", runs: [`${SAMPLES_DIR}/runs/wikiqa-test.run`] }] };
 * const report = await systemsReportFor(spec, {});
 * assert.deepEqual(report.systems.map((s) => s.name), ["mine"]);
 * ```
 */
export async function systemsReportFor(
  spec: SystemsSpec,
  env: Record<string, string | undefined> = Deno.env.toObject(),
): Promise<SystemsReport> {
  const file = env[SYSTEMS_REPORT_ENV];
  if (file) return await readSystemsReport(file);
  return await evaluateSystems(spec);
}
