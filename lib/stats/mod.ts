/**
 * Statistics over per-query values: numbers and rows, never figures (lib/plot draws them).
 * Every function is pure over plain arrays/maps, so it works on the output of any evaluator.
 * The generator behind every random draw (`random.ts`, mulberry32) and the special functions
 * (`special.ts`) stay internal: a statistic takes a `seed`.
 *
 * @module
 */
export { DEFAULT_SEED, type Seed } from "./random.ts";
// Tests and intervals: paired tests, bootstrap and t intervals, corrections for a family.
export { bootstrapCI, DEFAULT_BOOTSTRAP_SAMPLES, mean, sampleSd } from "./significance.ts";
export { tConfidenceInterval } from "./significance.ts";
export { pairedRandomizationTest, pairedTTest } from "./significance.ts";
export { adjustPValues, bonferroni, holm } from "./significance.ts";
export type { BootstrapOptions, ConfidenceInterval, Correction } from "./significance.ts";
export type { PairedTestResult, RandomizationOptions } from "./significance.ts";
export type { RandomizationResult, TTestResult } from "./significance.ts";
// The family of pairs a researcher asks about (paired t, Bonferroni, intervals that agree; one
// test per question asked: systems identical on every question are one system), the family
// chosen on purpose (all, mine, baseline:NAME) and how it moves the decisions; wins, losses
// and ties with the sign test.
export { identicalLines, identicalSystems, testFamily, testName } from "./family.ts";
export { pairRoles, sameTestLines, sameTestsOf, sameValues } from "./family.ts";
export type {
  Family,
  FamilyTest,
  IdenticalPair,
  IdenticalPairs,
  IdenticalSystems,
  PairRole,
  SameTests,
} from "./family.ts";
export { familyDescription, familyPairs, otherReadings, parseFamily } from "./family.ts";
export type { FamilyChoice, OtherReading } from "./family.ts";
export { signTest } from "./sign_test.ts";
// How every p is printed (4 decimals as C rounds them, exponent form below 1e-4).
export { formatP, isPValueColumn, P_EXPONENT_BELOW } from "./p_value.ts";
export type { SignTestResult } from "./sign_test.ts";
// Comparison tables of systems (significance letters), as Markdown, LaTeX and CSV.
export { compareSystems, pairedBootstrapCI, toCsv, toLatex, toMarkdown } from "./compare.ts";
export type { CompareOptions, ComparisonCell, ComparisonTable } from "./compare.ts";
export type { ExportOptions, PairResult, PerQueryValues, TestName } from "./compare.ts";
// The per-query values a comparison starts from (one query set: -c or the run's queries).
export { commonQueries, fileQueryValues, measureValues, queryValues } from "./query_set.ts";
export type { QueryValues, QueryValuesOptions } from "./query_set.ts";
// Systems with several runs (seeds): spread, comparison over runs, runs needed, tables.
export { spreadOverRuns } from "./stability.ts";
export type { StabilityOptions, StabilityResult } from "./stability.ts";
export { compareOverRuns, comparisonRows, meanOverRuns } from "./seeds.ts";
export { measureSpreadOverRuns, singleRunComparisons } from "./seeds.ts";
export type { CompareOverRunsOptions, SingleRunComparison, SingleRunOptions } from "./seeds.ts";
export { runningMeans, seedsNeeded, varianceRatioTest } from "./seeds_needed.ts";
export type { RunningMean, VarianceRatioResult } from "./seeds_needed.ts";
export { pairedSeedTests, pairedVarianceTest } from "./paired_seeds.ts";
export { noiseInteraction } from "./noise_interaction.ts";
export type {
  MeanInterval,
  NoiseInteraction,
  NoiseInteractionOptions,
} from "./noise_interaction.ts";
export type { NoiseLevelRuns } from "./noise_interaction.ts";
export type { PairedSeedTests, PairedVarianceResult } from "./paired_seeds.ts";
export { robustnessRows, spreadRows } from "./seed_tables.ts";
export type { SettingRuns } from "./seed_tables.ts";
export { summarizeRuns } from "./systems.ts";
export type { MeasureSummary, SummarizeOptions, SystemSummary } from "./systems.ts";
// Tied scores: how far AP/MAP and RR/MRR move over the orders of ties.
export { analyzeTies, formatTieAnalysis, queryTies } from "./ties.ts";
export type { QueryTies, TieAnalysis, TieOptions, TieRange } from "./ties.ts";
// Held-out evaluation: splits, leakage checks, learning curves, label agreement.
export { checkLeakage, SLICES, splitByQuery } from "./split.ts";
export type { LeakageReport, Overlap } from "./split.ts";
export type { SliceName, SliceSizes, Split, SplitOptions } from "./split.ts";
export { judgmentSplitLeak, splitByJudgment } from "./judgment_split.ts";
export type { JudgmentSplit, JudgmentSplitLeak } from "./judgment_split.ts";
export { heldOutExperiment, overfittingWarning, scoreSlice } from "./heldout.ts";
export type { CandidateScorer, CurvePoint, HeldOutOptions } from "./heldout.ts";
export type { HeldOutResult, SliceScore, Trainer } from "./heldout.ts";
export { labelAgreement } from "./labels.ts";
export type { Agreement, AgreementOptions, Disagreement } from "./labels.ts";
// Error analysis of two systems: each question's outcome, the largest differences.
export { failures, largestDifferences, questionOutcome } from "./error_analysis.ts";
export type { AnalyzedSystem, CandidateText, Difference } from "./error_analysis.ts";
export type { ErrorAnalysisOptions, Failures, QuestionOutcome } from "./error_analysis.ts";
