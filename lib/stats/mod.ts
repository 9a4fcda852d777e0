/**
 * Statistics over per-query values: significance tests, confidence intervals, comparison
 * tables, stability across runs, tie ranges, held-out splits and label agreement. Every
 * function is pure over plain arrays/maps, so it works on the output of any evaluator. The
 * generator behind every random draw (`random.ts`, mulberry32) and the special functions
 * (`special.ts`) stay internal: a statistic takes a `seed`.
 *
 * @module
 */
export { DEFAULT_SEED, type Seed } from "./random.ts";
export {
  adjustPValues,
  bonferroni,
  bootstrapCI,
  holm,
  mean,
  pairedRandomizationTest,
  pairedTTest,
  sampleSd,
  tConfidenceInterval,
} from "./significance.ts";
export type {
  BootstrapOptions,
  ConfidenceInterval,
  Correction,
  PairedTestResult,
  RandomizationOptions,
  RandomizationResult,
  TTestResult,
} from "./significance.ts";
export { compareSystems, pairedBootstrapCI, toCsv, toLatex, toMarkdown } from "./compare.ts";
export type {
  CompareOptions,
  ComparisonCell,
  ComparisonTable,
  ExportOptions,
  PairResult,
  PerQueryValues,
  TestName,
} from "./compare.ts";
export { spreadOverRuns, stabilityFigure } from "./stability.ts";
export type { PlotlyFigure, StabilityOptions, StabilityResult } from "./stability.ts";
export { analyzeTies, formatTieAnalysis, queryTies } from "./ties.ts";
export type { QueryTies, TieAnalysis, TieOptions, TieRange } from "./ties.ts";
export { checkLeakage, checkQrcdLeakage, SLICES, splitByQuery } from "./split.ts";
export type {
  LeakageReport,
  Overlap,
  QrcdLeakageReport,
  QrcdRecordLike,
  SliceName,
  SliceSizes,
  Split,
  SplitOptions,
} from "./split.ts";
export { labelAgreement } from "./labels.ts";
export type { Agreement, AgreementOptions, Disagreement } from "./labels.ts";
export { heldOutExperiment, overfittingWarning, scoreSlice } from "./heldout.ts";
export type {
  CandidateScorer,
  CurvePoint,
  HeldOutOptions,
  HeldOutResult,
  SliceScore,
  Trainer,
} from "./heldout.ts";
export {
  compareOverRuns,
  comparisonRows,
  meanOverRuns,
  measureSpreadOverRuns,
  singleRunComparisons,
} from "./seeds.ts";
export type { CompareOverRunsOptions, SingleRunComparison, SingleRunOptions } from "./seeds.ts";
export { runningMeans, seedsNeeded, varianceRatioTest } from "./seeds_needed.ts";
export type { RunningMean, VarianceRatioResult } from "./seeds_needed.ts";
export { pairedSeedTests, pairedVarianceTest } from "./paired_seeds.ts";
export type { PairedSeedTests, PairedVarianceResult } from "./paired_seeds.ts";
export {
  robustnessRows,
  runningMeanFigure,
  seedSpreadFigure,
  seedStripFigure,
  spreadRows,
} from "./seed_views.ts";
export type { SettingRuns, SpreadSeries } from "./seed_views.ts";
export { judgmentSplitLeak, splitByJudgment } from "./judgment_split.ts";
export type { JudgmentSplit, JudgmentSplitLeak } from "./judgment_split.ts";
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
