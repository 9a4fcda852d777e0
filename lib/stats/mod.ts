/**
 * Statistics over per-query values: significance tests, confidence intervals, comparison
 * tables, stability across runs, tie ranges, held-out splits and label agreement. Every
 * function is pure over plain arrays/maps, so it works on the output of any evaluator.
 *
 * @module
 */
export * from "./random.ts";
export * from "./special.ts";
export * from "./significance.ts";
export * from "./compare.ts";
export * from "./stability.ts";
export * from "./ties.ts";
export * from "./split.ts";
export * from "./labels.ts";
export * from "./heldout.ts";
export {
  compareOverRuns,
  comparisonRows,
  meanOverRuns,
  robustnessRows,
  runningMeanFigure,
  runningMeans,
  runStability,
  seedsNeeded,
  seedSpreadFigure,
  seedStripFigure,
  singleRunComparisons,
  spreadRows,
  varianceRatioTest,
} from "./seeds.ts";
export type {
  CompareOverRunsOptions,
  RunningMean,
  SettingRuns,
  SingleRunComparison,
  SingleRunOptions,
  SpreadSeries,
  VarianceRatioResult,
} from "./seeds.ts";
export { judgmentSplitLeak } from "./judgment_split.ts";
export type { JudgmentSplitLeak } from "./judgment_split.ts";
export { measureValues, queryValues } from "./query_set.ts";
export type { QueryValues, QueryValuesOptions } from "./query_set.ts";
export { summarizeRuns } from "./systems.ts";
export type { MeasureSummary, SummarizeOptions, SystemSummary } from "./systems.ts";
export { failures, largestDifferences, questionOutcome } from "./error_analysis.ts";
export type {
  AnalyzedSystem,
  CandidateText,
  Difference,
  ErrorAnalysisOptions,
  Failures,
  QuestionOutcome,
} from "./error_analysis.ts";
