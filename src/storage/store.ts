import type { RowOutcome, RunInfo, RunSummary, SerializedRow } from "../run/types.js";
import type { EvaluatorSpec } from "../evaluators/spec.js";
import type { RowScores } from "../run/row-scores.js";
import type { StoredRows } from "./records.js";

/** The stop reason of a run still running when the store that began it is closed. */
export const CLOSED_UNFINISHED = "its run store was closed before the run finished";

/**
 * The stop reason of a run recorded as running whose process `pid` is gone: it ended without a word, so
 * the reason is the store's guess at what does that.
 */
export function processGone(pid: number): string {
  return `its process (pid ${pid}) ended without finishing it: killed outright (a second Ctrl-C, SIGKILL, out of memory) or its machine stopped`;
}

/**
 * A row to {@link RunStore.appendRows}: a {@link RowOutcome} or a {@link SerializedRow} without its `row`,
 * which the store gives it, with an optional idempotency `key` (see {@link RowOutcome.key}) and an optional
 * `record` (see {@link RowOutcome.record}: the plain object its evaluators were given, stored as its JSON). Its
 * `stored_at` is the store's to set: one given (a row read from another run) is not kept. A RowOutcome's `id` may be left out (a row with none), as `{ results, key }`.
 */
export type UnnumberedRow = ((Omit<RowOutcome, "row" | "id" | "stored_at" | "key" | "record"> & { id?: unknown }) | Omit<SerializedRow, "row">) & {
  key?: string | undefined;
  record?: Record<string, unknown> | undefined;
};

/**
 * What {@link RunStore.appendRows} did with one row: the number the row is stored under, and whether this call
 * stored it (`added` false when its `key` was stored already, or given to an earlier row of the same batch).
 * A service repeats no side effect of a trace whose row was not added: a queue delivered it before.
 */
export interface AppendedRow {
  row: number;
  added: boolean;
}

/**
 * Who answers for a run begun by {@link RunStore.beginRun}. `"process"` (the default, what the CLI does): the
 * process that began it, so the run is marked incomplete when its store is closed, or when a reader finds that
 * process gone. `"none"`: no process; the run stays running, whoever began it and whatever becomes of them,
 * until some process finishes or aborts it (a service whose many processes record one run, any of which
 * may end before it does).
 */
export type RunOwner = "process" | "none";

/**
 * What {@link RunStore.beginRun} records of a new run (its `meta`): the run's name, the dataset file it reads
 * (`dataset_path`, and `dataset_hash`, the sha256 of its bytes; both null for a run not read from a file, such as
 * a service's run of traces) and the specs of its evaluators. Named so that a caller can build one apart from the call.
 */
export interface RunMeta {
  name: string | null;
  dataset_path: string | null;
  dataset_hash: string | null;
  evaluators: EvaluatorSpec[];
}

/** Options of {@link RunStore.beginRun}: `owner`, who answers for the run (see {@link RunOwner}). */
export interface BeginRunOptions {
  owner?: RunOwner | undefined;
}

/** Options of {@link RunStore.finishRun}: `rows`, the rows the summary covers (the run must store exactly that many). */
export interface FinishRunOptions {
  rows?: number | undefined;
}

/**
 * Options of {@link RunStore.deleteRun}: `onProgress` gets (rows deleted, rows to delete) as it goes, `force`
 * deletes a run a live process may still be recording, and an aborted `signal` may stop it once the run is gone.
 */
export interface DeleteRunOptions {
  onProgress?: ((deleted: number, total: number) => void) | undefined;
  force?: boolean | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * What {@link RunStore.deleteRun} did: the rows the run had, whether it was the baseline (now unset), and `left`,
 * the rows of deleted runs still stored: 0 unless a `signal` stopped the deletion (a later deletion removes them).
 * The SQLite store always gives it; a store that deletes a run's rows at once may leave it out.
 */
export interface DeletedRun {
  rows: number;
  wasBaseline: boolean;
  left?: number;
}

/**
 * Options of {@link RunStore.rows}: which rows, for a reader that pages through a run (a service's
 * `GET /runs/:id/rows?after=N&limit=M`), and whether their records are read.
 */
export interface RowsOptions {
  /** Whether each row's `record` is read (default true); false leaves it out. */
  records?: boolean | undefined;
  /** Only rows numbered above this (a whole number; default: from the first row): the last row of the page before. */
  after?: number | undefined;
  /** At most this many rows (a whole number from 1; default: every row). */
  limit?: number | undefined;
}

/**
 * Options of {@link RunStore.listRuns}, for a reader that pages through the runs newest first (a service's
 * `GET /runs?after=ID&limit=M`).
 */
export interface ListRunsOptions {
  /**
   * Only runs listed after the run with this exact id (the last run of the page before). A run id that no run has (that
   * run deleted since, by another client) lists the runs after where it was (its id holds its start time), so a
   * reader paging through the runs neither fails nor skips or repeats one; RUN_NOT_FOUND for a string that is no run id.
   */
  after?: string | undefined;
  /** At most this many runs (a whole number from 1; default: every run). */
  limit?: number | undefined;
}

/**
 * Where runs are recorded. The CLI uses the embedded SQLite store; the service will add PostgreSQL
 * behind the same interface, so nothing above this file knows which database it talks to. Every method
 * is asynchronous, as a networked database's driver is, even though SQLite's answers come at once.
 *
 * A refusal is an `EvalError` whose code says whose it is, so that a service maps it to a status without reading
 * the message:
 * - `RUN_NOT_FOUND` (404): no run has that id: it was never recorded, or it was deleted (by another process
 *   meanwhile, too: while its rows were read, or while this process recorded it).
 * - `RUN_CONFLICT` (409): the run exists but its state forbids the call: rows appended to, or a finish of, a run
 *   that is complete or incomplete; a row number or key the run holds already, given to `addRows`; the deletion,
 *   without `force`, of a run still being recorded.
 * - `STORE_FAILED` (500, or 503 when `transient`): the database itself failed: locked, damaged, the disk full, the
 *   file deleted or replaced under the store, the store closed.
 *
 * One with `transient: true` (a lock not obtained in time, the disk full, an I/O error; a run that kept taking rows
 * while `finishStoredRun` summarized it, `RUN_CONFLICT`) may be retried, unchanged, later; one with `transient: false`
 * (an unknown, finished or deleted run, a damaged file) fails again until something else changes: a queue consumer
 * delivers the message again for the first, and drops it (or reports it) for the second.
 */
export interface RunStore {
  /**
   * Records a new run as "running" and returns its id. `opts.owner` (default `"process"`) says whether the
   * beginning process answers for it: see {@link RunOwner}. `meta.evaluators` that `createEvaluators` would refuse
   * are refused with its error (CONFIG_INVALID listing every issue, or UNKNOWN_EVALUATOR when unknown types are
   * the only problem) before anything is recorded, since every process that scores
   * or summarizes the run builds its evaluators from them; nothing is built (no API key is needed). They are
   * recorded named and with their configs' defaults filled in ({@link RunInfo.evaluators}, as `simeval run` records them).
   * A `meta.name` must be a name `simeval run --name` would record (see `isRunName`), and a run not read from a dataset
   * file may not have a `"idf": "dataset"` evaluator (CONFIG_INVALID), whose IDF the run would record nowhere.
   * `meta.dataset_path` (the dataset file read) and `meta.dataset_hash` (the sha256 of its bytes) are both null
   * for a run not read from a dataset file, such as one a service records from traces; one null and the other a
   * string, or an empty path, is refused with INPUT_INVALID naming the field. They are read back as given
   * ({@link RunInfo.dataset_path}).
   */
  beginRun(meta: RunMeta, opts?: BeginRunOptions): Promise<string>;
  /**
   * Appends row outcomes (called in batches, in order), each under the number it carries, and with its `key`
   * when a {@link RowOutcome} has one (the whole batch refused, RUN_CONFLICT, when the run holds that key or row number already). Each row's `stored_at` is the
   * time of the call (one for the batch; a given `stored_at` is not kept), and no row stores a `record`: these rows
   * are read from a dataset file, which holds it. Durable once it resolves. Rows may come already
   * serialised ({@link SerializedRow}: the runner makes each row's JSON once, off the main thread, for
   * results.jsonl and the store alike). RUN_NOT_FOUND for an unknown (or deleted) run, RUN_CONFLICT for one that has ended.
   */
  addRows(runId: string, rows: readonly (RowOutcome | SerializedRow)[]): Promise<void>;
  /**
   * Appends rows that carry no number and resolves to one {@link AppendedRow} per given row, in order: the number
   * the store gave it, each the run's largest row number so far plus one, taken in the same transaction as the
   * insert, so that several processes appending to one run (a service's workers) never give two rows one number
   * and leave no gaps, and `added: true`. Each stored row keeps its `record` when given (a plain object, refused with
   * INPUT_INVALID naming `rows[i].record` otherwise, or when it has no JSON) and gets `stored_at`, the time of the
   * call (one for the batch). Durable once it resolves. For rows whose number is the caller's (the
   * runner's row in its dataset), {@link addRows}. A row with a `key` that the run already holds (or that an
   * earlier row of the batch has) is not stored again: its entry is the stored row's number with `added: false`,
   * so a row delivered twice is stored once and its caller can tell; a batch made only of such rows is answered
   * so even after the run has finished (one that also holds a new row is then refused, RUN_CONFLICT, the message saying
   * how many of its rows the run holds and naming the first it does not, `rows[i]`). A result's score must be one
   * its evaluator's type can give (within its declared range and ±2^53, not NaN): refused with INPUT_INVALID naming
   * `rows[i].results.NAME.score`, the type and the range otherwise, as a results.jsonl holding it is. An unknown (or
   * deleted) run is RUN_NOT_FOUND.
   */
  appendRows(runId: string, rows: readonly UnnumberedRow[]): Promise<AppendedRow[]>;
  /**
   * Marks the run complete with its summary, and resolves true. With `opts.rows` (the rows the summary
   * covers), it does so only when the run stores exactly that many rows, checked in the same transaction
   * as the update: otherwise, as when another process appended rows after the summary was made, it resolves
   * false and the run stays running, to be summarized again (see `finishStoredRun` in `simeval/node`).
   * RUN_NOT_FOUND for an unknown (or deleted) run, RUN_CONFLICT for one that is no longer running (complete or incomplete).
   */
  finishRun(runId: string, summary: RunSummary, opts?: FinishRunOptions): Promise<boolean>;
  /**
   * Marks the run incomplete, keeping every row already written, with why it stopped (`reason`, read back
   * as {@link RunInfo.stop_reason}): a short sentence that names the cause, such as "interrupted (SIGINT)" or
   * "stopped by an error: " and the error's message. A no-op on a run no longer running; RUN_NOT_FOUND for an unknown run.
   */
  abortRun(runId: string, summary: RunSummary | null, reason: string): Promise<void>;
  /**
   * Runs, newest first (by start time, then id), or a page of them: `opts.limit` runs at most, listed after the run
   * `opts.after` (see {@link ListRunsOptions}). A run recorded as running whose process is gone (where that can be
   * told) is recorded and listed as incomplete, its stop reason saying so. A bad `opts` is CONFIG_INVALID naming it.
   */
  listRuns(opts?: ListRunsOptions): Promise<RunInfo[]>;
  /**
   * The run with exactly this id, or undefined when there is none: what a service answers for `GET /runs/:id`, where
   * {@link findRun}, made for people typing a reference, would also take a name or the start of an id (run ids begun
   * in one second share their first characters). A `runId` that is not a non-empty string is INPUT_INVALID.
   */
  getRun(runId: string): Promise<RunInfo | undefined>;
  /**
   * A run by id, else by name (the newest with that name), else by unique id prefix; an ambiguous prefix
   * is a `USAGE` error. Names come before prefixes (as git's ref names before abbreviated hashes), so
   * that a run named like the start of an id is still reached by its name.
   */
  findRun(ref: string): Promise<RunInfo | undefined>;
  /** The number of rows stored for a run: what a run without a summary (killed, or still running) covers so far. RUN_NOT_FOUND for an unknown run. */
  rowCount(runId: string): Promise<number>;
  /**
   * What the rows stored for run `runId` hold ({@link StoredRows}): how many, how many kept their record, and when the
   * first and last were stored, as `simeval show` prints them for a run no process owns (are rows still arriving
   * before it is finished?). RUN_NOT_FOUND when there is no such run.
   */
  storedRows(runId: string): Promise<StoredRows>;
  /**
   * The row of run `runId` stored with the idempotency key `key` (see {@link RowOutcome.key}), as {@link rows}
   * gives it, or undefined when the run holds no row with that key: what a service answers for a trace by its
   * key. Throws INPUT_INVALID naming the argument that is not a non-empty string, RUN_NOT_FOUND for an unknown run.
   */
  rowByKey(runId: string, key: string): Promise<RowOutcome | undefined>;
  /**
   * A run's rows in row order, streamed, each with its `key` and `record` when it was stored with them, and its
   * `stored_at` (absent for rows stored before schema version 5: see {@link RowOutcome.stored_at}).
   * `opts.records: false` leaves every row's `record` out, unread: for a reader that needs none (a summary, JUnit),
   * which a service's large records would otherwise slow. `opts.after` and `opts.limit` give a page: the first
   * `limit` rows numbered above `after` (see {@link RowsOptions}); while rows come, a reader paging so misses none only
   * when they come through {@link appendRows}, which numbers each after the last ({@link addRows} stores a row under the
   * number it carries, which may be below a page already read). A bad `opts` is CONFIG_INVALID naming it. RUN_NOT_FOUND for
   * an unknown run, and for one deleted while its rows are read (the rows read before then are only part of it).
   */
  rows(runId: string, opts?: RowsOptions): AsyncIterable<RowOutcome>;
  /** A run's rows in row order with only their pairable scores (what a comparison reads), streamed; RUN_NOT_FOUND as {@link rows}. */
  scores(runId: string): AsyncIterable<RowScores>;
  /**
   * Deletes a run and its rows, refusing one that a live process is still recording (or may be: one on
   * another host), unless `force`, and unsets the baseline when it was this run. `onProgress` gets
   * (rows deleted, rows to delete) as it goes. An aborted `signal` may stop it once the run is gone and
   * before all its rows are: `left` is then how many rows are still stored (never read; a later deletion removes them).
   * RUN_CONFLICT for a run still being recorded (without `force`), RUN_NOT_FOUND for an unknown run.
   */
  deleteRun(runId: string, opts?: DeleteRunOptions): Promise<DeletedRun>;
  /** Makes run `runId` the baseline that comparisons default to; RUN_NOT_FOUND for an unknown run. */
  setBaseline(runId: string): Promise<void>;
  baseline(): Promise<RunInfo | undefined>;
  /**
   * Marks runs begun through this store and still running as incomplete (see {@link CLOSED_UNFINISHED}),
   * except those begun with owner `"none"`, then closes. Idempotent.
   */
  close(): Promise<void>;
}
