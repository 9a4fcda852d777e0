/**
 * The kit's public API, by name: what a notebook or a script imports (by path or URL, no config
 * needed). Each folder's `mod.ts` adds the rest of its area; what neither exports is internal.
 *
 * @example
 * ```ts
 * import { evaluate, loadSplit, qrelsFromQuestions, runFromScores } from "./mod.ts";
 * const { questions } = await loadSplit("wikiqa", "test", { filter: "clean", dir: "samples" });
 * const run = runFromScores(questions, questions.flatMap((q) => q.candidates.map((_, i) => -i)));
 * const { map } = evaluate(qrelsFromQuestions(questions), run, ["map"]).summary; // corpus order
 * if (!(map > 0 && map <= 1)) throw new Error(`MAP ${map}`);
 * ```
 * @module
 */
export { KitError } from "./errors.ts"; // bad input: names the file, line and problem
// Corpora (WikiQA, TREC-QA): named splits under a filter setting, fetched with checksums.
export { applyFilter, describeFilter, FILTERS, questionKind, SPLITS } from "./data/mod.ts";
export { checkRunAgainstSplit, DATASETS, fetchDataset, loadSplit, splitStats } from "./data/mod.ts";
export { readRunForSplit, renumberRun } from "./data/mod.ts"; // a run file as a split's run
export type { Candidate, FilterName, Question } from "./data/mod.ts";
// Metrics with trec_eval 9.0.8's semantics: in memory, on TREC or JSON files, its output.
export { evaluate, evaluateTrecFiles, formatTrecEval, MEASURES } from "./metrics/mod.ts";
export { qrelsFromQuestions, readQrels, readRun, runFromScores } from "./metrics/mod.ts";
export { bestRun, rankDocuments, tiedRun, worstRun } from "./metrics/mod.ts";
export { formatQrels, formatRun, MEASURE_NAMES, writeQrels, writeRun } from "./metrics/mod.ts";
export type { EvalResult, Qrels, Run } from "./metrics/mod.ts";
// Statistics over per-query values: paired tests, intervals, ties, held-out, runs (seeds).
export { bootstrapCI, compareSystems, pairedRandomizationTest, pairedTTest } from "./stats/mod.ts";
export { analyzeTies, failures, largestDifferences, queryValues, signTest } from "./stats/mod.ts";
export { checkLeakage, heldOutExperiment, judgmentSplitLeak, testFamily } from "./stats/mod.ts";
export { measureSpreadOverRuns, scoreSlice, spreadOverRuns, summarizeRuns } from "./stats/mod.ts";
export { compareOverRuns, comparisonRows, singleRunComparisons } from "./stats/mod.ts";
export { formatP, splitByJudgment, splitByQuery, tConfidenceInterval } from "./stats/mod.ts";
export { labelAgreement, overfittingWarning } from "./stats/mod.ts";
// Seeds: two regimes over the same seeds are pairs (paired t, Pitman–Morgan, the drop under noise).
export { holm, noiseInteraction, pairedSeedTests, pairedVarianceTest } from "./stats/mod.ts";
export { robustnessRows, seedsNeeded, spreadRows, varianceRatioTest } from "./stats/mod.ts";
// Scoring: lexical baselines, the learned ranker, transformer models (WebGPU, CPU or wasm).
export { lexicalScorer, makeScorer, scoreSplit } from "./scoring/mod.ts";
export { describeTraining, LTR_FEATURES, ltrTrainer, trainLtr } from "./scoring/mod.ts";
export { evaluateRanker, loadLtrEvaluationSet, loadLtrTrainingSet } from "./scoring/mod.ts";
export { overSeeds, trainRanker, webGpuAdapterInfo, writeSeedRuns } from "./scoring/mod.ts";
export { chooseBackend, defaultBackend, loadCrossEncoder, pairsOf } from "./scoring/mod.ts";
export { backendAgreement, batchPlan, measureThroughput, pairSegments } from "./scoring/mod.ts";
export { fuse } from "./fusion/mod.ts"; // rank fusion: ranx's methods and normalizations
// QRCD (Qur'an QA 2022): the corpus, run files, the official scorer and its text rules.
export { evaluateQrcd, loadQrcdSplit, qrcdStats, readSpanRun, writeSpanRun } from "./qrcd/mod.ts";
export { answerQrcdSplit, overlapBaseline, recordRows, scoresByQuestion } from "./qrcd/mod.ts";
export { isSpanOfPassage, normalizeText, removePrefixes, tokenF1 } from "./qrcd/mod.ts";
export { checkQrcdLeakage, LIGHT_SEGMENTATION, NO_SEGMENTATION } from "./qrcd/mod.ts";
// Qur'an QA 2023 Task A: the corpus, the official MAP@10 and MRR, abstention, lexical retrieval.
export { evaluateQqa23, loadQqa23Split, readQqa23Qrels, readQqa23Run } from "./qqa23/mod.ts";
export { abstain, abstentionSweep, formatQqa23Run, retrieve } from "./qqa23/mod.ts";
// The systems report (notebook 00): a spec of your runs in, every number out once, by section.
export { evaluateSystems, showSection, systemsReportFor } from "./report/mod.ts";
// Notebook output: figures (seeds' too) and tables, each shown with `await display(x)`.
export { bar, display, histogram, line, runningMeanFigure, scatter } from "./plot/mod.ts";
export { markdown, seedSpreadFigure, seedStripFigure, stabilityFigure, table } from "./plot/mod.ts";
// The report's notebooks: parameters, headline numbers, published numbers to compare with.
export { corpusDir, headline, notebookParams, scoringModel } from "./report/mod.ts";
export { PUBLISHED_QRCD_RESULTS, PUBLISHED_QRCD_SIZES } from "./qrcd/mod.ts";
export { PUBLISHED_RESULTS, PUBLISHED_SIZES, RELEASED_RUN_SCORES } from "./report/mod.ts";
