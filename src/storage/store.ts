import type { RowOutcome, RunInfo, RunSummary, SerializedRow } from "../run/types.js";
import type { EvaluatorSpec } from "../evaluators/spec.js";

/**
 * Where runs are recorded. The CLI uses the embedded SQLite store; the service will add PostgreSQL
 * behind the same interface, so nothing above this file knows which database it talks to.
 */
export interface RunStore {
  /** Records a new run as "running" and returns its id. */
  beginRun(meta: { name: string | null; dataset_path: string; dataset_hash: string; evaluators: EvaluatorSpec[] }): string;
  /**
   * Appends row outcomes (called in batches, in order). Durable once it returns. Rows may come already
   * serialised ({@link SerializedRow}: the runner makes each row's JSON once, off the main thread, for
   * results.jsonl and the store alike).
   */
  addRows(runId: string, rows: readonly (RowOutcome | SerializedRow)[]): void;
  /** Marks the run complete with its summary. */
  finishRun(runId: string, summary: RunSummary): void;
  /** Marks the run incomplete (interrupted or failed), keeping every row already written. */
  abortRun(runId: string, summary: RunSummary | null): void;
  /** Runs, newest first. */
  listRuns(): RunInfo[];
  /** A run by id, by unique id prefix, or by name (the newest with that name). */
  findRun(ref: string): RunInfo | undefined;
  /** A run's rows in row order. */
  rows(runId: string): Iterable<RowOutcome>;
  setBaseline(runId: string): void;
  baseline(): RunInfo | undefined;
  close(): void;
}
