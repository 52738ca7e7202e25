/**
 * The vocabulary of a dataset run, shared by the runner, the run store, comparison, reports and (later)
 * the service. A run is a list of {@link RowOutcome}s plus a {@link RunSummary}.
 */
import type { Direction, EvalResult } from "../types.js";
import type { EvaluatorSpec } from "../evaluators/spec.js";
import type { EvalVerdict } from "../evaluators/create.js";

/** An evaluator's result on one row, as stored: the result without the name (it is the key). */
export type StoredResult = Omit<EvalResult, "name">;

/** An evaluator that could not score a row (e.g. a JSONPath matched several values, a provider failed). */
/**
 * An evaluator's failure on a row, in place of its result: the `EvalError`'s `code` and `message` (`EVALUATOR_FAILED`
 * for anything else thrown), and `transient: true` when the same call may succeed later (a provider's rate limit
 * outlasting its retries, a network failure): a service that stores the row under its key re-scores such a row
 * rather than keep its error for good. Absent otherwise.
 */
export interface ResultError {
  error: { code: string; message: string; transient?: true };
}

export type RowResult = StoredResult | ResultError;

/** An evaluator's verdict on one row without the explanation: what a run that keeps only its summary scores. */
export type RowVerdict = EvalVerdict | ResultError;

/**
 * One line of results.jsonl. `row` is the 1-based row number in the dataset; `line` where the row starts.
 * A run that keeps only its summary scores {@link RowVerdict}s instead.
 */
export interface RowOutcome<R extends RowVerdict = RowResult> {
  row: number;
  id: unknown;
  line?: number;
  /** Keyed by evaluator name; empty when the row itself could not be read (see {@link error}). */
  results: Record<string, R>;
  /** Set when the row could not be read at all (bad JSON, ragged CSV, bad bytes). */
  error?: { code: string; message: string };
  /**
   * The row's idempotency key in a run store (a non-empty string, unique within its run), when whoever stored
   * it gave one: `RunStore.appendRows` stores a row whose key the run already holds only once, so that a trace
   * delivered twice is scored into the run once. Never set by `simeval run`, so results.jsonl has none.
   */
  key?: string;
  /**
   * The evaluated record (the JSON object its evaluators were given), as a run store gives back a row stored with
   * one by `RunStore.appendRows`: for rows of a run not read from a dataset file (a service's traces), whose texts
   * no file holds. Absent for rows without one: every row of `simeval run` (results.jsonl has none; the dataset file
   * holds the record), and rows stored before schema version 5.
   */
  record?: Record<string, unknown>;
  /**
   * When a run store stored the row, in milliseconds since the epoch, as the store gives rows back (`RunStore.rows`,
   * `rowByKey`): set by the store for every row it stores, the rows of one batch alike. Absent for rows stored
   * before schema version 5, and in results.jsonl, which has none.
   */
  stored_at?: number;
}

/** Per-evaluator figures over a run. Skipped rows and errors are counted apart, never averaged in. */
export interface EvaluatorSummary {
  name: string;
  type: string;
  direction: Direction;
  /** The evaluator's pass threshold, when it has one (for histograms and reports). */
  threshold: number | null;
  /** Scores behind mean, median and percentiles (rows scored; with skipped-as-zero, also those zeros). */
  n: number;
  skipped: number;
  errors: number;
  mean: number | null;
  median: number | null;
  p10: number | null;
  p90: number | null;
  min: number | null;
  max: number | null;
  /** passed / rows with a verdict; null when no row had a verdict. */
  pass_rate: number | null;
  /** Rows with a verdict (passed true or false). */
  verdicts: number;
}

export interface RunSummary {
  rows: number;
  /** Rows that could not be read. */
  row_errors: number;
  /** Whether skipped rows were counted as score 0 (`--count-skipped-as-zero`). */
  skipped_as_zero: boolean;
  evaluators: EvaluatorSummary[];
}

/** A recorded run, as the store keeps it. */
export interface RunInfo {
  id: string;
  name: string | null;
  /** ISO 8601. */
  started_at: string;
  finished_at: string | null;
  status: "running" | "complete" | "incomplete";
  /**
   * The dataset file the run read, as given to the store (the CLI gives it absolute); null for a run not read
   * from a dataset file (such as one a service records from traces), and then so is {@link dataset_hash}.
   */
  dataset_path: string | null;
  /** sha256 of the dataset file's bytes, hex; null, with {@link dataset_path}, for a run not read from a dataset file. */
  dataset_hash: string | null;
  evaluators: EvaluatorSpec[];
  summary: RunSummary | null;
  /**
   * Why an incomplete run stopped, in a sentence ("interrupted (SIGINT)", "the dataset file changed while it
   * was read", "stopped by an error: …", or that its process is gone); null for a running or complete run,
   * and for one marked incomplete before simeval recorded why (schema version 3).
   */
  stop_reason: string | null;
  /**
   * Who answers for the run (`RunStore.beginRun`'s `opts.owner`): `"process"`, the process that began it (what
   * `simeval run` does, and every run of a simeval before owners), so that it is marked incomplete once that
   * process is gone; `"none"`, no process (a service's run), so it stays running until some process finishes
   * or aborts it.
   */
  owner: "process" | "none";
  /**
   * The process that began a run it owns (owner `"process"`), as it recorded itself: its `pid`, and its `host`, the
   * host's name followed, on Linux, by its pid namespace (`build-7 pid:[4026531836]`; the name alone for runs of a
   * simeval before pid namespaces, null before hosts were recorded). Tells a run being recorded on another host or
   * in another container, whose process no reader here can look up, from one on this host, whose process is alive
   * (a reader marks one whose process is gone incomplete). Null for owner `"none"`.
   */
  process: { pid: number; host: string | null } | null;
}

/** The run's spec of the evaluator named `name` (its `name`, else its type), if it had one. */
export function evaluatorSpec(run: Pick<RunInfo, "evaluators">, name: string): EvaluatorSpec | undefined {
  return run.evaluators.find((s) => (s.name ?? s.type) === name);
}

/** True for an evaluator's failure on a row (`{ error }`), false for its result: what `scoreRecord` gives, told apart. */
export function isResultError(r: RowVerdict): r is ResultError {
  return "error" in r;
}

/**
 * A row's outcome as JSON text, serialised once (on the scoring thread) and used as it is by
 * results.jsonl and the run store.
 */
export interface SerializedRow {
  row: number;
  line: number | null;
  /** JSON of the row's id (`null` when it has none). */
  id: string;
  /** JSON of `results`. */
  results: string;
  /** JSON of `error`, when the row could not be read. */
  error: string | null;
  /**
   * Each evaluator's pairable score (see `pairableScore`), in the run's evaluator order, NaN where there
   * is none; absent when the row could not be read. Lets a store keep the scores without parsing `results`.
   */
  scores?: ArrayLike<number>;
}
