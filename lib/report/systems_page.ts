/**
 * The systems page (`notebooks/00-your-systems`) as a report: {@link systemsPage} reads the
 * spec (the report's spec file, `KIT_RUNS` and friends, or the runs given in the notebook's
 * first cell; without any, the page's example: the kit's baselines), the split, every run
 * once (renumbered and checked: `systems_input.ts`), scores the kit's baselines on the same
 * corpus, and computes every number of the page; `page.show(section)` shows one section,
 * its heading and explanation included, or nothing when the section has nothing to show.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { describeFilter } from "../data/filters.ts";
import type { Run } from "../metrics/evaluate.ts";
import { PROTOCOL_MEASURES } from "../metrics/protocol_measures.ts";
import { runFromScores } from "../metrics/convert.ts";
import { display, markdown } from "../plot/show.ts";
import { table } from "../plot/table.ts";
import type { Showable } from "../plot/show.ts";
import { evaluateQrcd, type QrcdEvaluation } from "../qrcd/metrics.ts";
import { overlapBaseline } from "../qrcd/baseline.ts";
import { scoreSplit } from "../scoring/pipeline.ts";
import type { ComparisonTable, PerQueryValues } from "../stats/compare.ts";
import { failures } from "../stats/error_analysis.ts";
import { queryValues } from "../stats/query_set.ts";
import { compareOverRuns } from "../stats/seeds.ts";
import { summarizeRuns, type SystemSummary } from "../stats/systems.ts";
import { analyzeTies } from "../stats/ties.ts";
import { headline } from "./headline.ts";
import { corpusDir, type KitParams, notebookParams } from "./params.ts";
import { PUBLISHED_RESULTS } from "./published.ts";
import {
  type CheckedRun,
  loadSystemsSplit,
  type QrcdInputs,
  readCheckedRuns,
  readQrcdInputs,
  type SystemsSplit,
} from "./systems_input.ts";
import {
  collectExport,
  exportHeadline,
  systemsExport,
  writeExportFiles,
} from "./systems_export.ts";
import type { SystemsExport } from "./systems_export.ts";
import {
  breakdownRows,
  comparedPair,
  pairDifferenceRows,
  type PairSystem,
  pairTextRows,
} from "./systems_pair.ts";
import {
  betterThanRows,
  differenceFigure,
  differenceIntervalRows,
  failureRows,
  note,
  qrcdQuestionRows,
  qrcdRows,
  resultFigure,
  resultRows,
  spreadFigure,
  stabilityRows,
  systemRows,
  tieFigureOf,
  tieRows,
  warningRows,
  warningsBlock,
} from "./systems_tables.ts";
import {
  ENV_NAMES,
  KIT_BASELINES,
  QRCD_BASELINE,
  SYSTEMS_ENV,
  userSystems,
} from "./user_systems.ts";
import type { UserSystemsSpec } from "./user_systems.ts";

/** The sections of the page, in order. */
export const PAGE_SECTIONS = [
  "systems",
  "warnings",
  "results",
  "spread",
  "significance",
  "ties",
  "pair",
  "breakdowns",
  "qrcd",
  "files",
] as const;

/** One section's name. */
export type PageSection = typeof PAGE_SECTIONS[number];

/** Options of {@link systemsPage}. */
export interface SystemsPageOptions {
  /**
   * Runs given in the notebook's first cell (`NAME=PATH[,PATH...]`, several systems separated
   * by `;`), as `KIT_RUNS` takes them; empty: the environment's.
   */
  runs?: string;
  /** The environment (default `Deno.env`). */
  env?: Record<string, string | undefined>;
  /** Bootstrap resamples of every interval (default 2,000). */
  bootstrapSamples?: number;
}

/** Every number of the page, computed once. */
export interface SystemsPage {
  params: KitParams;
  spec: UserSystemsSpec;
  split: SystemsSplit;
  /** The user's systems' runs, read and checked. */
  runs: Map<string, CheckedRun[]>;
  /** Every answer-selection system's runs (the user's first, then the kit's baselines). */
  allRuns: Map<string, Run[]>;
  /** Per system, each run's per-question values over every question of the split (`-c`). */
  perRun: Map<string, PerQueryValues[]>;
  summaries: Map<string, SystemSummary>;
  comparison: ComparisonTable;
  /** The pair of the error analysis. */
  pair: [string, string];
  qrcd: QrcdInputs;
  qrcdEvals: Map<string, QrcdEvaluation>;
  exported: SystemsExport;
  /** Shows one section (heading, text, tables, figures), or nothing when it has none. */
  show(section: PageSection): Promise<void>;
}

const MEASURE_NAMES = PROTOCOL_MEASURES.map((m) => m.name);

/**
 * Reads, evaluates and compares everything the page shows. Errors in the inputs (a run, the
 * spec, a QRCD run) are one `KitError` here, before any section is shown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemsPage } from "./systems_page.ts";
 * import { SAMPLES_DIR } from "../data/paths.ts";
 * // No system given: the example, the kit's baselines (on the bundled samples here).
 * const example = await systemsPage({ env: { KIT_DATA: "sample" }, bootstrapSamples: 100 });
 * assert.equal(example.spec.example, true);
 * assert.deepEqual(example.pair, ["ltr (kit)", "BM25 (kit)"]);
 * // A run given as the first cell gives it: relative to the folder Jupyter started in.
 * const page = await systemsPage({
 *   runs: "mine=runs/wikiqa-test.run",
 *   env: { KIT_DATA: "sample", PWD: SAMPLES_DIR },
 *   bootstrapSamples: 100,
 * });
 * assert.equal(page.summaries.get("mine")!.queries, 4);
 * assert.equal(page.pair[0], "mine");
 * // Under the report (a spec file), runs belong on its command line.
 * await assert.rejects(() => systemsPage({ runs: "x=y.run", env: { KIT_SYSTEMS: "/s.json" } }), /--run/);
 * ```
 */
export async function systemsPage(options: SystemsPageOptions = {}): Promise<SystemsPage> {
  const env = { ...(options.env ?? Deno.env.toObject()) };
  if (options.runs?.trim()) {
    if (env[SYSTEMS_ENV]) {
      throw new KitError(
        "YOUR_RUNS in the first cell is for a notebook opened by itself; under './kit report' " +
          "give the runs with --run (empty YOUR_RUNS)",
      );
    }
    if (env[ENV_NAMES.runs]?.trim()) {
      throw new KitError(
        `runs are given both in the first cell and in ${ENV_NAMES.runs}; give them in one place`,
      );
    }
    env[ENV_NAMES.runs] = options.runs;
  }
  const params = notebookParams(env);
  const spec = userSystems(env);
  const samples = options.bootstrapSamples ?? 2000;
  const split = await loadSystemsSplit(spec, corpusDir(params, spec.dataset));
  const runs = await readCheckedRuns(spec, split);
  const allRuns = new Map<string, Run[]>(
    [...runs].map(([name, list]) => [name, list.map((r) => r.run)]),
  );
  for (const { name, model } of KIT_BASELINES) {
    // The same corpus folder as the split: one corpus per report.
    const scored = await scoreSplit(model, spec.dataset, spec.split, {
      filter: spec.filter,
      dir: split.dir,
    });
    allRuns.set(name, [runFromScores(scored.questions, scored.scores)]);
  }
  const perRun = new Map([...allRuns].map(([name, list]) => [
    name,
    list.map((run) =>
      queryValues(split.qrels, run, PROTOCOL_MEASURES.map((m) => m.trecEval), {
        complete: true,
        warn: false,
      }).perQuery
    ),
  ]));
  const summaries = new Map([...perRun].map(([name, list]) => [
    name,
    summarizeRuns(list, MEASURE_NAMES, { bootstrap: { samples } }),
  ]));
  const comparison = compareOverRuns(perRun, MEASURE_NAMES, { bootstrap: { samples } });
  const pair = comparedPair(
    spec,
    new Map([...summaries].map(([n, s]) => [n, s.measures.map.mean])),
  );
  const qrcd = await readQrcdInputs(
    spec,
    spec.qrcd?.runs.length ? corpusDir(params, "qrcd") : split.dir,
  );
  const qrcdEvals = new Map([...qrcd.runs].map(([n, r]) => [n, evaluateQrcd(qrcd.gold, r.run)]));
  if (qrcdEvals.size) {
    qrcdEvals.set(QRCD_BASELINE, evaluateQrcd(qrcd.gold, overlapBaseline(qrcd.gold)));
  }
  const pairSystem = (name: string): PairSystem => ({
    name,
    runs: allRuns.get(name)!,
    perRun: perRun.get(name)!,
  });
  const exported = collectExport(
    spec,
    summaries,
    perRun,
    qrcdEvals,
    new Map([...qrcd.runs].map(([n, r]) => [n, r.path])),
    comparison,
    {
      a: pair[0],
      b: pair[1],
      questions: pairDifferenceRows(split.questions, pairSystem(pair[0]), pairSystem(pair[1])),
    },
  );
  const page: SystemsPage = {
    params,
    spec,
    split,
    runs,
    allRuns,
    perRun,
    summaries,
    comparison,
    pair,
    qrcd,
    qrcdEvals,
    exported,
    show: async (section) => {
      for (const item of await sectionItems(page, section, pairSystem)) await display(item);
    },
  };
  return page;
}

/**
 * What was done to the p-values of a measure's pairs, as a sentence: one pair needs no
 * correction; several are adjusted together (Holm's method by default) or, when asked, not.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { correctionSentence } from "./systems_page.ts";
 * const two = [{ name: "a", label: "a" }, { name: "b", label: "b" }];
 * assert.match(correctionSentence({ systems: two, correction: "none" }), /one pair .* no correction/);
 * const three = [...two, { name: "c", label: "c" }];
 * assert.match(correctionSentence({ systems: three, correction: "holm" }), /Holm's method over the 3 pairs/);
 * ```
 */
export function correctionSentence(c: Pick<ComparisonTable, "systems" | "correction">): string {
  const k = c.systems.length;
  const pairs = (k * (k - 1)) / 2;
  if (pairs <= 1) {
    return "With two systems there is one pair per measure, so p needs no correction for " +
      "multiple comparisons.";
  }
  if (c.correction === "none") {
    return `p is not adjusted for the ${pairs} pairs of a measure (no correction asked).`;
  }
  const method = c.correction === "holm" ? "Holm's method" : "the Bonferroni correction";
  return `p is adjusted with ${method} over the ${pairs} pairs of a measure (multiple ` +
    "comparisons).";
}

function fileName(path: string): string {
  return path.replace(/^.*\//, "");
}

/** What one section shows; empty when it has nothing. */
async function sectionItems(
  p: SystemsPage,
  section: PageSection,
  pairSystem: (name: string) => PairSystem,
): Promise<Showable[]> {
  const { spec, split } = p;
  const where = `${spec.dataset} ${spec.split} (${spec.filter})`;
  switch (section) {
    case "systems": {
      const items: Showable[] = [];
      if (spec.example) {
        items.push(markdown(
          "**An example:** no system was given, so this page shows the kit's baselines alone. " +
            'Give your runs in the first cell (`YOUR_RUNS = "mine=runs/mine.run"`, several ' +
            "systems separated by `;`, paths relative to the folder Jupyter started in), in " +
            "`KIT_RUNS` before starting Jupyter, or to `./kit report --run NAME=PATH`.",
        ));
      }
      if (spec.systems.length || spec.qrcd?.runs.length) {
        items.push(table(systemRows(spec), { caption: "The systems of this report" }));
      }
      items.push(table([{
        dataset: spec.dataset,
        split: spec.split,
        filter: spec.filter,
        questions: split.questions.length,
        candidates: split.report.keptCandidates,
        "what the filter did": describeFilter(split.report),
      }], { caption: "The split every system is judged on (every question counts: -c)" }));
      const mapped = [...p.runs].flatMap(([system, list]) =>
        list.filter((r) => r.numberingNote).map((r) =>
          `${system} (${fileName(r.file)}): ${r.numberingNote}`
        )
      );
      for (const m of mapped) items.push(note(m));
      return items;
    }
    case "warnings": {
      const rows = warningRows(
        [...p.runs].flatMap(([system, list]) =>
          list.map((r) => ({ system, file: r.file, check: r.check }))
        ),
      );
      if (p.runs.size === 0) return [];
      return [warningsBlock(rows)];
    }
    case "results": {
      const published = PUBLISHED_RESULTS.filter((r) => r.dataset === spec.dataset);
      return [
        markdown(
          "## Results\n\nMAP (the primary measure; trec_eval `map`), MRR (`recip_rank`), P@1 " +
            "(`P.1`) and nDCG@10 (`ndcg_cut.10`) over every question of the split, a question " +
            "missing from a run scoring 0 (each equals `eval trec -c` on the split's qrels). A " +
            "system with several runs: the mean over its runs, with the sample sd and the range " +
            "over runs. Intervals: 95% percentile bootstrap over questions " +
            `(${
              p.comparison.pairs[0]?.ci?.method.replace(/^paired /, "") ?? "bootstrap"
            }, seed 42).`,
        ),
        table(resultRows(p.summaries), {
          caption: `${where}: ${split.questions.length} questions`,
        }),
        resultFigure(p.summaries),
        ...(published.length
          ? [
            table(
              published.map((r) => ({
                system: r.system,
                MAP: r.map,
                MRR: r.mrr,
                source: r.source,
              })),
              {
                caption:
                  `Published ${spec.dataset} test numbers (for comparison on the test split)`,
              },
            ),
          ]
          : []),
      ];
    }
    case "spread": {
      const rows = stabilityRows(p.summaries);
      if (rows.length === 0) return [];
      return [
        markdown(
          "## Several runs of one system\n\nTANDA's claim is stability: less spread across " +
            "fine-tuning runs. Each run's MAP and MRR, and their spread (sample sd, n - 1):",
        ),
        table(rows),
        spreadFigure(p.summaries),
      ];
    }
    case "significance": {
      const c = p.comparison;
      return [
        markdown(
          "## Differences and significance\n\nEvery pair of systems on each measure: the " +
            "difference of the means with its paired bootstrap interval (the questions resampled, " +
            "both systems' values of a question kept together), and the paired randomization test " +
            "(two-sided; 10,000 sign flips with seed 42, or every assignment with at most 13 " +
            `questions). ${correctionSentence(c)} A system with several runs enters with each ` +
            "question's " +
            "mean over its runs. After each mean, the letters of the systems it is significantly " +
            `better than (${c.systems.length > 2 && c.correction !== "none" ? "adjusted " : ""}p ` +
            `<= ${c.alpha}).`,
        ),
        table(betterThanRows(c), { caption: `${c.numQ} questions` }),
        table(differenceIntervalRows(c), { caption: "Every pair: A - B, its interval and p" }),
      ];
    }
    case "ties": {
      const ties = new Map([...p.allRuns].map(([name, list]) => [
        name,
        list.map((run) => analyzeTies(split.qrels, run, { complete: true })),
      ]));
      const rows = tieRows(ties);
      return [
        markdown(
          "## How much of each MAP is tie-breaking\n\nCandidates with the same score are " +
            "ordered by the tool: trec_eval by candidate id, descending. MAP with trec_eval's " +
            "order, its lowest and highest value over every order of the tied candidates and its " +
            "expectation under a random order (means over a system's runs). A range of 0: the " +
            "MAP does not depend on tie-breaking.",
        ),
        table(rows),
        tieFigureOf(rows),
      ];
    }
    case "pair": {
      const [a, b] = p.pair.map(pairSystem);
      const chosen = spec.compare
        ? "the pair given (--compare)"
        : spec.systems.length
        ? "the best of your systems by MAP against the strongest kit baseline that is not the same model (choose another pair with --compare A,B or KIT_COMPARE)"
        : "the two best systems by MAP";
      const items: Showable[] = [
        markdown(
          `## Error analysis: ${escapeMd(a.name)} against ${escapeMd(b.name)}\n\n` +
            `The pair is ${chosen}. Each value is a per-question mean over the system's runs (with ` +
            '± its sd over runs when it has several): AP, RR; its "first" candidate is the one ' +
            "its runs most often rank first. The questions where the AP differs most:",
        ),
        table(pairTextRows(split.questions, a, b), {
          caption: `The questions where ${a.name} and ${b.name} differ most (AP)`,
        }),
        differenceFigure(
          { name: a.name, values: p.summaries.get(a.name)!.perQuery },
          { name: b.name, values: p.summaries.get(b.name)!.perQuery },
        ),
      ];
      if (a.runs.length === 1) {
        const failed = failures(split.questions, { run: a.runs[0], values: a.perRun[0] }, {
          limit: 10,
        });
        items.push(
          markdown(`### Where ${escapeMd(a.name)} puts a wrong candidate first`),
          table(failureRows(failed), {
            caption: `${failed.count} of ${failed.of} questions; the worst ones`,
          }),
        );
      }
      return items;
    }
    case "breakdowns": {
      const values = new Map([...p.summaries].map(([n, s]) => [n, s.perQuery]));
      return [
        markdown(
          "## By question type and by number of candidates\n\nMAP of every system over the " +
            "questions of each type (the question word, as Yang et al. 2015 report WikiQA) and " +
            "of each number of candidates.",
        ),
        table(breakdownRows(split.questions, values, "type"), { caption: "By question type" }),
        table(breakdownRows(split.questions, values, "candidates"), {
          caption: "By number of candidates",
        }),
      ];
    }
    case "qrcd": {
      if (p.qrcdEvals.size === 0) return [];
      const issues = [...p.qrcd.runs].flatMap(([system, r]) =>
        r.issues.map((warning) => ({ system, "run file": fileName(r.path), warning }))
      );
      return [
        markdown(
          "## QRCD runs\n\npRR (the primary measure), exact match and F1@1 with the official " +
            "scorer's semantics (no clitic segmentation), beside the kit's offline baseline " +
            "(verses ranked by question-word overlap), then each question's pRR (the mean over " +
            "the passages it is asked of).",
        ),
        table(qrcdRows(p.qrcdEvals), {
          caption: `QRCD ${spec.qrcd!.gold}: ${p.qrcd.gold.length} records`,
        }),
        table(qrcdQuestionRows(p.qrcd.gold, p.qrcdEvals), { caption: "pRR per question" }),
        warningsBlock(
          issues,
          "No warning from the submission checker: every run has every pq_id of the gold " +
            "records, ranks 1..n and non-increasing scores.",
        ),
      ];
    }
    case "files": {
      if (spec.out) await writeExportFiles(p.exported, spec.out);
      return [
        systemsExport(p.exported, spec.out !== undefined),
        headline(`Your systems: ${where}`, exportHeadline(p.exported)),
      ];
    }
  }
}

function escapeMd(s: string): string {
  return s.replace(/[\\`*_[\]<>&|#]/g, (c) => `&#${c.charCodeAt(0)};`);
}
