/**
 * {@link evaluateSystems}: a spec in, every number of page 00 out. It reads and checks every
 * input first (the runs, each task part's), then scores the models and the kit's baselines,
 * evaluates every system once (trec_eval's measures over every question: `-c`; a system with
 * several runs takes each question's mean over them; a percentile bootstrap interval over
 * questions), and then asks each section (sections.ts) to compute its part, in the page's
 * order.
 *
 * @module
 */
import { loadSplit, splitStats } from "../../data/mod.ts";
import { describeFilter } from "../../data/filters.ts";
import { PROTOCOL_MEASURES, qrelsFromQuestions } from "../../metrics/mod.ts";
import type { PerQueryValues } from "../../stats/compare.ts";
import { queryValues } from "../../stats/query_set.ts";
import { DEFAULT_SEED } from "../../stats/random.ts";
import { DEFAULT_BOOTSTRAP_SAMPLES } from "../../stats/significance.ts";
import { summarizeRuns } from "../../stats/systems.ts";
import { reportParts } from "../../tasks/registry.ts";
import type { PartData } from "../../tasks/task.ts";
import type { RunLine } from "../notebook/blocks.ts";
import { chooseCorpus } from "./corpus.ts";
import type {
  EvaluateSystemsOptions,
  ReportCorpus,
  ReportMeasure,
  ReportSystem,
  SystemsReport,
} from "./types.ts";
import { readSystemRuns, systemRuns } from "./runs.ts";
import type { EvaluationContext } from "./section.ts";
import { pageSections } from "./sections.ts";
import { resolveSpec, type SystemsSpec } from "./spec.ts";

export { scoredRunName } from "./runs.ts";

export type { EvaluateSystemsOptions };

const MEASURES: ReportMeasure[] = PROTOCOL_MEASURES.map((m) => ({ ...m }));
const NAMES = MEASURES.map((m) => m.name);

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
 * import { evaluateSystems } from "./evaluate.ts";
 * import { SAMPLES_DIR } from "../../data/paths.ts";
 * const report = await evaluateSystems({
 *   data: "sample",
 *   systems: [{ name: "mine", runs: [`${SAMPLES_DIR}/runs/wikiqa-test.run`] }],
 * }, { bootstrapSamples: 200 });
 * const mine = report.systems.find((s) => s.name === "mine")!;
 * // Hand-worked: AP 1, 7/12, 1/3, 1/2 over the four clean questions of the sample.
 * assert(Math.abs(mine.mean.map - (1 + 7 / 12 + 1 / 3 + 1 / 2) / 4) < 1e-15);
 * assert.deepEqual(report.family!.pairs, [["mine", "BM25 (kit)"], ["mine", "ltr (kit)"]]);
 * assert.equal(report.family!.choice, "all");
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
  const report: SystemsReport = {
    spec: resolved,
    measures: MEASURES,
    procedures: { bootstrapSamples: samples, seed: DEFAULT_SEED, alpha: 0.05 },
    systems: [],
    notes: lines.notes,
    warnings: lines.warnings,
    published: { rows: [], gaps: [] },
    ties: [],
    breakdowns: { type: [], candidates: [] },
    sections: [],
  };
  if (resolved.systems.length === 0) await evaluateParts();
  else {
    const where = chooseCorpus(resolved.dataset, resolved.data);
    const split = await loadSplit(resolved.dataset, resolved.split, {
      filter: resolved.filter,
      dir: where.folder,
    });
    const corpus: ReportCorpus = {
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
    report.corpus = corpus;
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
    const evaluated = runs.map((s) => ({
      name: s.name,
      kind: s.kind,
      runs: s.runs,
      perRun: s.runs.map((run) =>
        queryValues(qrels, run, MEASURES.map((m) => m.trecEval), { complete: true, warn: false })
          .perQuery
      ),
    }));
    const summaries = new Map(evaluated.map((s) => [
      s.name,
      summarizeRuns(s.perRun, NAMES, { bootstrap: { samples, seed: DEFAULT_SEED } }),
    ]));
    report.systems = runs.map((s, i): ReportSystem => {
      const sum = summaries.get(s.name)!;
      return {
        name: s.name,
        kind: s.kind,
        runs: s.files,
        ...(s.model === undefined ? {} : { model: s.model }),
        runCount: s.runs.length,
        queries: sum.queries,
        mean: Object.fromEntries(NAMES.map((m) => [m, sum.measures[m].mean])),
        interval: Object.fromEntries(NAMES.map((m) => {
          const ci = sum.measures[m].ci!;
          return [m, { lower: ci.lower, upper: ci.upper }];
        })),
        ...(s.runs.length > 1
          ? {
            spread: Object.fromEntries(NAMES.map((m) => {
              const r = sum.measures[m].runs!;
              return [m, { sd: r.sd, min: r.min, max: r.max, perRun: [...r.perRun] }];
            })),
            perRun: evaluated[i].perRun.map(plain),
          }
          : {}),
        perQuery: plain(sum.perQuery),
      };
    });
    const ctx: EvaluationContext = {
      spec: resolved,
      split,
      qrels,
      measures: NAMES,
      evaluated,
      systems: report.systems,
      values: new Map([...summaries].map(([n, s]) => [n, s.perQuery])),
      log,
    };
    for (const section of pageSections()) {
      if (section.compute) Object.assign(report, await section.compute(ctx, report));
    }
  }
  Object.assign(report, Object.fromEntries(partData));
  report.sections = pageSections().filter((s) => s.has(report)).map((s) => s.name);
  return report;
}
