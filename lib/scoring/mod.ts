/**
 * Scoring: from a model to scores, runs and answer spans. Lexical baselines (Word Cnt,
 * Wgt Word Cnt, BM25), the learned ranker (logistic regression, the default model) and
 * transformer models (ONNX via onnxruntime-web, WebGPU or wasm CPU backends). The model
 * plumbing (sessions, tokenizer, padding, the score cache, the hub's file layout) stays in
 * `model/`.
 *
 * @module
 */
export type {
  PairScorer,
  PassageQuestionInput,
  ProgressFn,
  QuestionInput,
  QuestionScorer,
  ScoredCandidateInput,
  ScoreOptions,
  Span,
  SpanOptions,
  SpanReader,
  TextPair,
} from "./types.ts";
export { questionScorer, scoreRun } from "./questions.ts";
export { makeScorer, readQrcdSplit, scoreSplit } from "./pipeline.ts";
export type {
  LtrTrainingChoice,
  MakeScorerOptions,
  ReadQrcdOptions,
  ReadyScorer,
  ScoredSplit,
  ScoreSplitOptions,
} from "./pipeline.ts";
export {
  bm25,
  collectionStats,
  LEXICAL_KINDS,
  lexicalScorer,
  weightedWordCount,
  wordCount,
} from "./lexical.ts";
export type { CollectionStats, LexicalKind, LexicalOptions } from "./lexical.ts";
export {
  describeTraining,
  fitLtr,
  LTR_FEATURES,
  ltrExamples,
  ltrScorer,
  questionFeatures,
  trainLtr,
} from "./ltr.ts";
export type {
  LabelledQuestionInput,
  LabelNoise,
  LtrExamples,
  LtrFitOptions,
  LtrModel,
  LtrStage,
  LtrTrainOptions,
} from "./ltr.ts";
export { formatLtrModel, parseLtrModel, readLtrModel, writeLtrModel } from "./ltr_file.ts";
export { addLabelNoise } from "./noise.ts";
export {
  evaluateRanker,
  loadLtrEvaluationSet,
  loadLtrTrainingSet,
  LTR_TRAINING,
  overSeeds,
  protocolFeatures,
  trainRanker,
  writeSeedRuns,
} from "./regimes.ts";
export type {
  LtrEvaluationSet,
  LtrTrainingSet,
  SeedRuns,
  SplitChoice,
  TrainRankerOptions,
} from "./regimes.ts";
export { ltrTrainer } from "./ltr_trainer.ts";
export type { LtrQuestionScorer, LtrSetting } from "./ltr_trainer.ts";
export { type Backend, BACKENDS, defaultBackend } from "./model/session.ts";
export { downloadModel, type HubOptions, resolveModelDir } from "./model/hub.ts";
export type { LoadModelOptions } from "./model/model.ts";
export {
  type CrossEncoder,
  type CrossEncoderOptions,
  loadCrossEncoder,
} from "./model/crossencoder.ts";
export { extractSpans, loadSpanReader } from "./model/qa.ts";
export type { ExtractiveReader, SpanReaderOptions } from "./model/qa.ts";
export {
  backendAgreement,
  batchPlan,
  measureThroughput,
  pairSegments,
  pairsOf,
  webGpuAdapterInfo,
} from "./model/inspect.ts";
export {
  MODEL_SHAPES,
  parameterCount,
  SHAPE_NAMES,
  shapedModelDir,
  writeShapedModel,
} from "./model/shaped.ts";
export type { ModelShape, ShapeName } from "./model/shaped.ts";
export type { BertShape, WeightInit } from "./model/bert_onnx.ts";
