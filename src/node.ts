/**
 * The Node-only parts of simeval (files, threads, SQLite): `import { runDataset } from "simeval/node"`.
 * Kept apart from the root export, which runs anywhere.
 */
export { runDataset, type RunDatasetOptions, type RunDatasetResult, type RowErrorInfo, type EvaluatorErrorInfo } from "./run/run-dataset.js";
export type { RunEnv } from "./run/scorer-init.js";
export { scoreRecord } from "./run/evaluate-row.js";
// The root's, again: a service builds the evaluators scoreRecord takes, and tells the store's and the evaluators'
// errors apart by their EvalError code, and needs one import for all of it.
export { createEvaluator, createEvaluators, type Evaluator, type EvalVerdict } from "./evaluators/create.js";
// The registry too: a service lists the types it accepts, and takes a run's directions from its specs' types
// (`findEvaluator(spec.type).direction`) to compare a run that has no summary yet.
export { evaluators, evaluatorTypes, findEvaluator } from "./evaluators/registry.js";
export type { EvaluatorDefinition, ScoreRange } from "./evaluators/define.js";
export { describeEvaluators, type EvaluatorDescription, type ConfigFieldDescription } from "./evaluators/describe.js";
export { EvalError, formatIssues, type ErrorCode, type Issue } from "./errors.js";
export type { EvalRecord, EvalResult, Direction } from "./types.js";
export type { InputSource } from "./mapping/inputs.js";
export type { EvaluatorSpec } from "./evaluators/spec.js";
export type { EvaluatorEnv } from "./evaluators/define.js";
// What `EvaluatorEnv.embeddingProviders` takes: a service adding its own provider names it from here too.
export type { EmbeddingProvider, EmbeddingProviderFactory, EmbeddingProviderHooks, EmbeddingProviderOptions, EmbeddingBatch, EmbeddingUsage } from "./embeddings/provider.js";
export { summarizeStoredRun, finishStoredRun, type StoredSummaryOptions } from "./run/stored-summary.js";
export type { WorstRow } from "./run/worst-rows.js";
export type { HistogramData } from "./report/types.js";
export { isResultError, type RowOutcome, type RowResult, type RowVerdict, type StoredResult, type ResultError, type RunInfo, type RunSummary, type EvaluatorSummary, type SerializedRow } from "./run/types.js";
export { readDataset, detectFormat, type DatasetFormat, type DatasetItem, type ReadDatasetOptions } from "./dataset/read-dataset.js";
export type { RowErrorCode } from "./dataset/rows.js";
export { openSqliteStore, DEFAULT_STORE_PATH, type SqliteRunStore } from "./storage/sqlite.js";
export type { StoredRows } from "./storage/records.js";
export type { RunStore, RunOwner, RunMeta, BeginRunOptions, FinishRunOptions, DeleteRunOptions, DeletedRun, RowsOptions, ListRunsOptions, UnnumberedRow, AppendedRow } from "./storage/store.js";
export {
  compareRuns,
  type CompareOptions,
  type Comparison,
  type ComparisonInput,
  type EvaluatorComparison,
  type WorstRow as ComparisonWorstRow,
} from "./compare/compare.js";
export { rowScores, pairableScore, type RowScores } from "./run/row-scores.js";
export { runReportInput } from "./run/report-input.js";
export { SummaryBuilder, type SummaryEvaluator, type SummaryOptions } from "./stats/summarize.js";
export type { ScoreSetOptions } from "./stats/score-set.js";
export {
  renderRunReport,
  renderComparisonReport,
  renderTrendReport,
  renderJUnit,
  type RunReportInput,
  type ComparisonReportInput,
  type TrendReportInput,
  type JUnitInput,
} from "./report/index.js";
export type {
  RunReportEvaluator,
  WorstRow as ReportWorstRow,
  RowErrorEntry,
  HighlightOptions,
  HighlightUnit,
  RunLabel,
  ComparisonEvaluator,
  ComparisonRow,
  TrendSeries,
  GateResult,
} from "./report/types.js";
export { sqliteEmbeddingCache, textHash, type EmbeddingStore } from "./embeddings/sqlite-cache.js";
export { memoryEmbeddingCache, type EmbeddingCache, type SyncEmbeddingCache } from "./embeddings/cache.js";
