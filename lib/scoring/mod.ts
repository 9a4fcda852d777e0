/**
 * Scoring: from a model to scores, runs and answer spans. Lexical baselines (Word Cnt,
 * Wgt Word Cnt, BM25), the learned ranker (logistic regression, the default model) and
 * transformer models (ONNX: WebGPU, the native CPU backend or wasm; `model/backend.ts`). The model
 * plumbing (sessions, tokenizer, padding, the score cache, the hub's file layout) stays in
 * `model/`.
 *
 * @module
 */
// Scoring a split or a run with any model spec (lexical:*, ltr, a transformer), QRCD's spans.
export { makeScorer, scoreSplit } from "./pipeline.ts";
export type { LtrTrainingChoice, MakeScorerOptions } from "./pipeline.ts";
export type { ReadyScorer, ScoredSplit, ScoreSplitOptions } from "./pipeline.ts";
export { questionScorer, scoreRun } from "./questions.ts";
export type { PairScorer, PassageQuestionInput, ProgressFn, QuestionInput } from "./types.ts";
export type { QuestionScorer, ScoredCandidateInput, ScoreOptions, Span } from "./types.ts";
export type { SpanOptions, SpanReader, TextPair } from "./types.ts";
// Lexical baselines: Word Cnt, Wgt Word Cnt, BM25.
export { bm25, collectionStats, LEXICAL_KINDS, lexicalScorer } from "./lexical.ts";
export { weightedWordCount, wordCount } from "./lexical.ts";
export type { CollectionStats, LexicalKind, LexicalOptions } from "./lexical.ts";
// The learned ranker (logistic regression over LTR_FEATURES): training, model files, noise.
export { describeTraining, fitLtr, LTR_FEATURES, ltrExamples } from "./ltr.ts";
export { ltrScorer, questionFeatures, trainLtr } from "./ltr.ts";
export type { LabelledQuestionInput, LabelNoise, LtrExamples, LtrFitOptions } from "./ltr.ts";
export type { LtrModel, LtrStage, LtrTrainOptions } from "./ltr.ts";
export { formatLtrModel, parseLtrModel, readLtrModel, writeLtrModel } from "./ltr_file.ts";
export { addLabelNoise } from "./noise.ts";
export { ltrTrainer } from "./ltr_trainer.ts";
export type { LtrQuestionScorer, LtrSetting } from "./ltr_trainer.ts";
// Training regimes (TANDA's transfer then adapt) over seeds, and their evaluation sets.
export { evaluateRanker, loadLtrEvaluationSet, loadLtrTrainingSet } from "./regimes.ts";
export { LTR_TRAINING, overSeeds, protocolFeatures, trainRanker } from "./regimes.ts";
export { writeSeedRuns } from "./regimes.ts";
export type { LtrEvaluationSet, LtrTrainingSet, SeedRuns } from "./regimes.ts";
export type { SplitChoice, TrainRankerOptions } from "./regimes.ts";
// Transformer models (ONNX): backends, the hub, cross-encoders, span readers, inspection.
export { type Backend, BACKENDS } from "./model/session.ts";
export {
  BACKEND_CHOICES,
  type BackendChoice,
  chooseBackend,
  defaultBackend,
} from "./model/backend.ts";
export { parseBackendChoice } from "./model/backend.ts";
export type { ChosenBackend } from "./model/backend.ts";
export { type AdapterInfo, isSoftwareAdapter, webGpuAdapter } from "./model/adapter.ts";
export { downloadModel, type HubOptions, resolveModelDir } from "./model/hub.ts";
export type { LoadModelOptions } from "./model/model.ts";
export { loadCrossEncoder } from "./model/crossencoder.ts";
export type { CrossEncoder, CrossEncoderOptions } from "./model/crossencoder.ts";
export { loadSpanReader } from "./model/qa.ts";
export type { ExtractiveReader, SpanReaderOptions } from "./model/qa.ts";
export { backendAgreement, batchPlan, measureThroughput } from "./model/inspect.ts";
export { pairSegments, pairsOf, webGpuAdapterInfo } from "./model/inspect.ts";
// Real-shaped cross-encoders the kit generates (seeded random weights; no download).
export { MODEL_SHAPES, parameterCount, SHAPE_NAMES } from "./model/shaped.ts";
export { shapedModelDir, writeShapedModel } from "./model/shaped.ts";
export type { ModelShape, ShapeName } from "./model/shaped.ts";
export type { BertShape, WeightInit } from "./model/bert_onnx.ts";
