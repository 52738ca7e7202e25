/**
 * The Node-only parts of simeval (files, threads, SQLite): `import { runDataset } from "simeval/node"`.
 * Kept apart from the root export, which runs anywhere.
 */
export { runDataset, type RunDatasetOptions, type RunDatasetResult, type RowErrorInfo, type EvaluatorErrorInfo } from "./run/run-dataset.js";
export type { WorstRow } from "./run/worst-rows.js";
export type { HistogramData } from "./report/types.js";
export type { RowOutcome, RowResult, RunInfo, RunSummary, EvaluatorSummary, SerializedRow } from "./run/types.js";
export { readDataset, detectFormat, type DatasetFormat, type DatasetItem } from "./dataset/read-dataset.js";
export { openSqliteStore, DEFAULT_STORE_PATH, type SqliteRunStore } from "./storage/sqlite.js";
export type { RunStore } from "./storage/store.js";
export {
  compareRuns,
  type CompareOptions,
  type Comparison,
  type ComparisonInput,
  type EvaluatorComparison,
  type WorstRow as ComparisonWorstRow,
} from "./compare/compare.js";
export { rowScores, pairableScore, type RowScores } from "./run/row-scores.js";
export { SummaryBuilder } from "./stats/summarize.js";
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
export { sqliteEmbeddingCache, textHash } from "./embeddings/sqlite-cache.js";
export { memoryEmbeddingCache, type EmbeddingCache } from "./embeddings/cache.js";
