/**
 * Scoring: from a model to scores, runs and answer spans. Lexical baselines (Word Cnt,
 * Wgt Word Cnt, BM25), the learned ranker (logistic regression, the default model) and
 * transformer models (ONNX via onnxruntime-web, WebGPU or wasm CPU backends).
 *
 * @module
 */
export * from "./types.ts";
export * from "./text.ts";
export * from "./lexical.ts";
export * from "./ltr.ts";
export * from "./questions.ts";
export * from "./model/session.ts";
export * from "./model/tokenizer.ts";
export * from "./model/hub.ts";
export * from "./model/model.ts";
export * from "./model/cache.ts";
export * from "./model/crossencoder.ts";
export * from "./model/qa.ts";
export * from "./pipeline.ts";
export { addLabelNoise, noisyIndexes } from "./noise.ts";
export {
  formatLtrModel,
  LTR_MODEL_FORMAT,
  LTR_MODEL_VERSION,
  parseLtrModel,
  readLtrModel,
  writeLtrModel,
} from "./ltr_file.ts";
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
export {
  backendAgreement,
  batchPlan,
  measureThroughput,
  pairSegments,
  pairsOf,
  pairTokens,
  webGpuAdapterInfo,
} from "./model/inspect.ts";
