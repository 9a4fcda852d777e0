/**
 * The kit's public API, by name: the calls a notebook or a script starts from. Each folder's
 * `mod.ts` adds the rest of its area (types, options, less common calls); what neither
 * exports is internal (the file engine, model plumbing, the report's builder).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluate, loadSplit, qrelsFromQuestions, runFromScores } from "./mod.ts";
 * const { questions } = await loadSplit("wikiqa", "test", { filter: "clean", dir: "samples" });
 * const scores = questions.flatMap((q) => q.candidates.map((_, i) => -i)); // corpus order
 * const r = evaluate(qrelsFromQuestions(questions), runFromScores(questions, scores), ["map"]);
 * assert.ok(r.summary.map > 0 && r.summary.map <= 1);
 * ```
 *
 * @module
 */
// Errors: bad input throws a KitError naming the file, line and problem.
export { KitError } from "./errors.ts";
// Corpora (WikiQA, TREC-QA): named splits under a filter setting, fetched with checksums.
export { applyFilter, fetchDataset, loadSplit, splitStats } from "./data/mod.ts";
export type { Candidate, FilterName, Question } from "./data/mod.ts";
export { FILTERS, questionKind, SPLITS } from "./data/mod.ts";
// Metrics with trec_eval 9.0.8's semantics: in memory, on TREC or JSON files, its output.
export { evaluate, evaluateTrecFiles, formatTrecEval, MEASURES } from "./metrics/mod.ts";
export { qrelsFromQuestions, readQrels, readRun, runFromScores } from "./metrics/mod.ts";
export { writeQrels, writeRun } from "./metrics/mod.ts";
export {
  bestRun,
  formatQrels,
  formatRun,
  rankDocuments,
  tiedRun,
  worstRun,
} from "./metrics/mod.ts";
export type { EvalResult, Qrels, Run } from "./metrics/mod.ts";
// Statistics over per-query values: paired tests, intervals, tables, ties, seeds, held-out.
export { bootstrapCI, compareSystems, pairedRandomizationTest, pairedTTest } from "./stats/mod.ts";
export { analyzeTies, heldOutExperiment, splitByQuery, stability } from "./stats/mod.ts";
export { compareOverRuns, runStability, seedsNeeded } from "./stats/mod.ts";
export { checkLeakage, checkQrcdLeakage, judgmentSplitLeak } from "./stats/mod.ts";
export { labelAgreement, overfittingWarning, scoreSlice } from "./stats/mod.ts";
export { splitByJudgment } from "./stats/mod.ts";
// Seeds: two regimes over the same seeds are pairs; tables and figures of runs over seeds.
export { holm, pairedSeedTests, pairedVarianceTest, varianceRatioTest } from "./stats/mod.ts";
export { comparisonRows, robustnessRows, singleRunComparisons, spreadRows } from "./stats/mod.ts";
export { runningMeanFigure, seedSpreadFigure, seedStripFigure } from "./stats/mod.ts";
// Scoring: lexical baselines, the learned ranker, transformer models (WebGPU or CPU).
export { lexicalScorer, ltrTrainer, makeScorer, scoreSplit, trainLtr } from "./scoring/mod.ts";
export { LTR_FEATURES } from "./scoring/mod.ts";
export { backendAgreement, batchPlan, defaultBackend, loadCrossEncoder } from "./scoring/mod.ts";
export { measureThroughput, pairSegments, pairsOf, webGpuAdapterInfo } from "./scoring/mod.ts";
// The learned ranker over seeds and training regimes (transfer, label noise), as run files.
export { describeTraining, evaluateRanker, overSeeds, trainRanker } from "./scoring/mod.ts";
export { loadLtrEvaluationSet, loadLtrTrainingSet, writeSeedRuns } from "./scoring/mod.ts";
// Rank fusion (ranx's methods and normalizations).
export { fuse } from "./fusion/mod.ts";
// QRCD (Qur'an QA 2022): the corpus, run files and the official scorer.
export { evaluateQrcd, loadQrcdSplit, readSpanRun, writeSpanRun } from "./qrcd/mod.ts";
export { isSpanOfPassage, normalizeText, overlapBaseline, qrcdStats } from "./qrcd/mod.ts";
export { recordRows, removePrefixes, scoresByQuestion, tokenF1 } from "./qrcd/mod.ts";
export { LIGHT_SEGMENTATION, NO_SEGMENTATION } from "./qrcd/mod.ts";
// The systems report (notebook 00): your runs read, checked, evaluated and compared once.
export { systemsPage } from "./report/mod.ts";
// Notebook output: figures and tables, each shown with `await display(x)`.
export { bar, display, histogram, line, markdown, scatter, table } from "./plot/mod.ts";
// Notebook parameters (KIT_DATA, ...), the corpus folder they name, and headline numbers.
export { corpusDir, headline, notebookParams, scoringModel } from "./report/mod.ts";
export { PUBLISHED_QRCD_RESULTS, PUBLISHED_QRCD_SIZES } from "./report/mod.ts";
export { PUBLISHED_RESULTS, PUBLISHED_SIZES } from "./report/mod.ts";
