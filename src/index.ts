/**
 * simeval: deterministic, explainable text-similarity evaluators for LLM and agent outputs.
 * The root export is runtime-agnostic (no node: imports); pure metrics are also under `simeval/metrics`.
 */
export { createEvaluator, createEvaluators, type Evaluator, type EvalVerdict } from "./evaluators/create.js";
export { evaluators, evaluatorTypes, findEvaluator } from "./evaluators/registry.js";
export type { EvaluatorDefinition, EvaluatorEnv, ScoreArgs, ScoreRange, Scored, Scorer } from "./evaluators/define.js";
export type { EvaluatorSpec } from "./evaluators/spec.js";
export { describeEvaluators, type EvaluatorDescription, type ConfigFieldDescription } from "./evaluators/describe.js";
export { EvalError, formatIssues, type ErrorCode, type Issue } from "./errors.js";
export type { EvalRecord, EvalResult, Direction } from "./types.js";
export type { EmbeddingProvider, EmbeddingProviderFactory, EmbeddingProviderHooks, EmbeddingProviderOptions, EmbeddingBatch, EmbeddingUsage } from "./embeddings/provider.js";
export { memoryEmbeddingCache, type EmbeddingCache, type SyncEmbeddingCache } from "./embeddings/cache.js";
export type { InputSource } from "./mapping/inputs.js";
export { toText, canonicalJson } from "./mapping/to-text.js";
export * from "./metrics/index.js";
