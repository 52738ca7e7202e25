/**
 * A run's summary made again from its stored rows: for a service whose processes each add rows to one run
 * (`RunStore.appendRows`), so that none has built the summary as the CLI's runner does while it scores.
 */
import { argumentError, EvalError, isPlainObject } from "../errors.js";
import { outlineEvaluatorSpecs } from "../evaluators/create.js";
import { turned } from "../compare/run-reader.js";
import { packScores } from "../stats/packed-scores.js";
import type { ScoreSetOptions } from "../stats/score-set.js";
import { SummaryBuilder } from "../stats/summarize.js";
import type { RunStore } from "../storage/store.js";
import type { RowOutcome, RunSummary } from "./types.js";

/** Rows packed for the summary at a time: what the runner's batches hold by default, about. */
const PACK_ROWS = 512;
/** How often {@link StoredSummaryOptions.onProgress} is called, and a `signal` looked at, in rows read. */
export const SUMMARY_PROGRESS_ROWS = 10_000;

export interface StoredSummaryOptions {
  /** As `runDataset`'s option (a run records no such setting, so say it again): count skipped rows as score 0. Default false. */
  countSkippedAsZero?: boolean | undefined;
  /** Where the scores go past memory, as {@link SummaryBuilder}'s. */
  scoreSet?: ScoreSetOptions | undefined;
  /**
   * Called with the rows read so far every {@link SUMMARY_PROGRESS_ROWS} (10,000) rows, for a progress display
   * (the store's `rowCount` is the total). With {@link finishStoredRun}, a run summarized again counts from 0
   * again. Default: none.
   */
  onProgress?: ((rows: number) => void) | undefined;
  /**
   * Stops the summary once aborted: it rejects with the signal's reason, and {@link finishStoredRun} then leaves
   * the run as it was (running, with its rows; nothing is written). Every {@link SUMMARY_PROGRESS_ROWS} rows, and
   * once the summary is made, the event loop is let turn, so that a listener that aborts it (a Ctrl-C handler)
   * runs although the SQLite store reads its rows synchronously (without a signal too, so that a server's other work
   * goes on meanwhile). Default: none.
   */
  signal?: AbortSignal | undefined;
}

/**
 * The {@link RunSummary} of the run `runId` (an exact id) over the rows stored for it, read as they stream
 * from `store.rows`: built by {@link SummaryBuilder} for the run's recorded evaluators in their order, each with
 * the direction and threshold that `createEvaluators` gives its spec (as `simeval run` builds them; none is built,
 * so a `semantic_similarity` spec needs no API key or model here), so that a
 * run whose rows came from many processes gets the summary the runner would have given the same rows. Rows that
 * could not be read count in `row_errors`, skipped results in `skipped` (as zeros too with `countSkippedAsZero`).
 * Memory stays flat: rows are read in pages and scores spill to a temporary file as the runner's do.
 * `opts.onProgress` hears the rows read, and `opts.signal` stops it (see {@link StoredSummaryOptions}).
 *
 * Throws CONFIG_INVALID naming the argument when `store` is not a {@link RunStore} (no `findRun` or `rows`)
 * or `opts` not {@link StoredSummaryOptions}, the signal's reason once `opts.signal` is aborted, INPUT_INVALID when `runId` is not a non-empty string,
 * RUN_NOT_FOUND when the store has no run with that id (a name or prefix does not do: the caller holds the id),
 * and the evaluators' CONFIG_INVALID when the run's recorded specs no longer make evaluators.
 */
export async function summarizeStoredRun(store: RunStore, runId: string, opts: StoredSummaryOptions = {}): Promise<RunSummary> {
  checkArguments("summarizeStoredRun", store, runId, opts);
  opts.signal?.throwIfAborted();
  const run = await store.findRun(runId);
  if (run === undefined || run.id !== runId) throw new EvalError("RUN_NOT_FOUND", `summarizeStoredRun: the store has no run with id "${runId}"`);
  const evaluators = outlineEvaluatorSpecs(run.evaluators);
  const names = evaluators.map((e) => e.name);
  const builder = new SummaryBuilder(
    evaluators,
    { countSkippedAsZero: opts.countSkippedAsZero ?? false, ...(opts.scoreSet ? { scoreSet: opts.scoreSet } : {}) },
  );
  try {
    // Packed a batch at a time, as the runner adds them (SummaryBuilder.add packs each row alone).
    let batch: RowOutcome[] = [];
    let read = 0;
    for await (const row of store.rows(runId, { records: false })) {
      batch.push(row);
      if (batch.length === PACK_ROWS) {
        builder.addPacked(packScores(batch, names));
        batch = [];
      }
      if (++read % SUMMARY_PROGRESS_ROWS === 0) {
        opts.onProgress?.(read);
        await turned(opts.signal);
      }
    }
    if (batch.length) builder.addPacked(packScores(batch, names));
    const summary = builder.finish();
    // A signal that came since the last turn (the last rows, the figures) is heard before the caller writes anything.
    await turned(opts.signal);
    return summary;
  } finally {
    builder.close();
  }
}

/** How many times {@link finishStoredRun} summarizes a run that keeps growing before it gives up. */
export const FINISH_ATTEMPTS = 5;

/**
 * Summarizes the run `runId` from its stored rows ({@link summarizeStoredRun}) and marks it complete with that
 * summary, in a way that no row is left out: `finishRun` is told how many rows the summary covers and refuses
 * when the run stores another number (a process appended rows meanwhile), and the run is then summarized
 * again, up to {@link FINISH_ATTEMPTS} times. Resolves to the summary recorded. `opts` as summarizeStoredRun's:
 * once `opts.signal` is aborted while the rows are read, it rejects with the signal's reason and writes nothing,
 * the run left running with its rows; a signal heard only once the run is marked (the mark is one synchronous
 * transaction) leaves it complete. Throws RUN_CONFLICT when
 * rows kept coming each time (`transient`: stop appending to the run first, then call it again), or when the run is not running (said before its
 * rows are read; not transient), RUN_NOT_FOUND when there is no such run, and the errors of {@link summarizeStoredRun} (its argument errors naming finishStoredRun). It
 * finishes any running run, one that the process that began it (owner "process") still records too, whose next
 * `addRows` or `appendRows` then fails: `simeval finish` ends only a run no process owns.
 */
export async function finishStoredRun(store: RunStore, runId: string, opts: StoredSummaryOptions = {}): Promise<RunSummary> {
  checkArguments("finishStoredRun", store, runId, opts);
  // Said before its rows are read (seconds on a million), not after, when finishRun would refuse it.
  const run = await store.findRun(runId);
  if (run === undefined || run.id !== runId) throw new EvalError("RUN_NOT_FOUND", `finishStoredRun: the store has no run with id "${runId}"`);
  if (run.status !== "running") {
    throw new EvalError("RUN_CONFLICT", `finishStoredRun: run ${runId} is ${run.status}, not running: only a running run can be finished (it is unchanged)`);
  }
  for (let attempt = 0; attempt < FINISH_ATTEMPTS; attempt++) {
    const summary = await summarizeStoredRun(store, runId, opts);
    if (await store.finishRun(runId, summary, { rows: summary.rows })) return summary;
  }
  // RUN_CONFLICT: the database is sound; what forbids finishing is the run's state, still taking rows (a service
  // answers 409, not the 503 of a database that failed). Transient: the same call succeeds once the appends stop, so
  // a queue consumer retries it rather than drop it (and leave the run running for good), as it would a refusal that is not.
  throw new EvalError("RUN_CONFLICT", `finishStoredRun: run ${runId} took more rows each of the ${FINISH_ATTEMPTS} times it was summarized; stop appending to it, then finish it`, { transient: true });
}

/** Throws, naming the argument, unless the arguments are of their kinds. */
function checkArguments(fn: string, store: unknown, runId: unknown, opts: unknown): void {
  const bad = (code: "INPUT_INVALID" | "CONFIG_INVALID", arg: string, expected: string, value: unknown) => argumentError(code, fn, arg, expected, value);
  if (typeof store !== "object" || store === null) throw bad("CONFIG_INVALID", "store", "a RunStore (such as openSqliteStore(path))", store);
  for (const method of ["findRun", "rows"]) {
    const m = (store as Record<string, unknown>)[method];
    if (typeof m !== "function") throw bad("CONFIG_INVALID", `store.${method}`, "a function (the store is no RunStore)", m);
  }
  if (typeof runId !== "string" || runId === "") throw bad("INPUT_INVALID", "runId", "a run's id (a non-empty string)", runId);
  if (!isPlainObject(opts)) throw bad("CONFIG_INVALID", "opts", "an object ({ countSkippedAsZero?, scoreSet?, onProgress?, signal? }) or nothing", opts);
  if (opts["countSkippedAsZero"] !== undefined && typeof opts["countSkippedAsZero"] !== "boolean") {
    throw bad("CONFIG_INVALID", "opts.countSkippedAsZero", "a boolean or nothing", opts["countSkippedAsZero"]);
  }
  if (opts["onProgress"] !== undefined && typeof opts["onProgress"] !== "function") throw bad("CONFIG_INVALID", "opts.onProgress", "a function or nothing", opts["onProgress"]);
  if (opts["signal"] !== undefined && !(opts["signal"] instanceof AbortSignal)) throw bad("CONFIG_INVALID", "opts.signal", "an AbortSignal or nothing", opts["signal"]);
}
