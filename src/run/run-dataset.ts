import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { createEvaluators, type Evaluator } from "../evaluators/create.js";
import { argumentError, EvalError, isPlainObject } from "../errors.js";
import { everyKey, refuseUnknownKeys } from "../unknown-keys.js";
import { builtinEmbeddingProviders } from "../embeddings/registry.js";
import { scanFile, type FileScan } from "../dataset/hash.js";
import { checkDatasetFile } from "../dataset/read-bytes.js";
import { formatFromExtension, readDataset, readDatasetBatches } from "../dataset/read-dataset.js";
import type { DatasetItem, RowErrorCode, UnparsedRow } from "../dataset/rows.js";
import { chooseBins } from "../report/choose.js";
import { rowsText } from "../report/format.js";
import type { HistogramData } from "../report/types.js";
import { CELL, pairableScores } from "../stats/packed-scores.js";
import type { ScoreSet } from "../stats/score-set.js";
import { SummaryBuilder } from "../stats/summarize.js";
import type { RunStore } from "../storage/store.js";
import { datasetIdfEvaluators, fitDatasetIdf, unfittedIdf } from "./idf.js";
import { inlineScorer, workerPool, type Scorer } from "./pool.js";
import type { RunEnv, ScorerInit } from "./scorer-init.js";
import type { ScoredBatch } from "./batch-scorer.js";
import { batchRow, batchRowCount, batchRowFailed, batchRows } from "./serialized-batch.js";
import { isResultError, type EvaluatorSummary, type RowResult, type RunSummary, type SerializedRow } from "./types.js";
import { WorstRows, type WorstRow } from "./worst-rows.js";
import { isRunName, RUN_NAME_EXPECTED } from "../storage/run-name.js";

export interface RunDatasetOptions {
  /** Path of a JSONL, JSON-array or CSV dataset. */
  dataset: string;
  /** The evaluator specs (EVALS.json's `evaluators`), validated completely before any row is read. */
  evaluators: unknown;
  name?: string | null;
  /** Where to record the run; none = not recorded. */
  store?: RunStore;
  /** A SQLite database whose embedding cache the scoring threads share (the CLI's run database). */
  embeddingCacheDb?: string;
  /**
   * Your own embedding providers (`embeddingProviders`, which replace the built-in ones, as for `createEvaluators`)
   * or embedding cache (`embeddingCache`, instead of `embeddingCacheDb`). They are functions, which cannot reach
   * worker threads: with `env`, the rows are scored on this thread (`workers` 0, the default then; more is refused).
   */
  env?: RunEnv;
  /**
   * Receives results.jsonl in input order: UTF-8 bytes, a batch of whole lines (each ending in "\n") at a time.
   * The bytes are lent: once the promise it returns settles (at once when it returns none), a later batch is
   * written over them, so a writer that keeps them past that copies them. (A file stream's write is done
   * with them by its callback: see the CLI's `openTextFile`.)
   */
  write?: (bytes: Uint8Array) => void | Promise<void>;
  /**
   * Called once the last line is written, before the run is recorded: flushes and closes what `write` writes to.
   * A failure (a disk that fills on the last write) leaves results.jsonl not whole, so the run is recorded as
   * incomplete, as after a failed `write`, and the error is thrown.
   */
  end?: () => void | Promise<void>;
  countSkippedAsZero?: boolean;
  /** Worker threads; 0 scores on this thread. Default: {@link defaultWorkers} (one per core, one fewer with a store). */
  workers?: number;
  /**
   * Rows per batch sent to a worker. Default {@link defaultBatchSize}: 512 rows, fewer past four evaluators;
   * a batch of unparsed rows (JSONL lines, JSON array elements) also closes at {@link BATCH_CHARS} characters.
   */
  batchSize?: number;
  /** Worst rows to keep per evaluator, for reports. Default 10. */
  worst?: number;
  signal?: AbortSignal;
  /**
   * Called once every row is read (and sent to be scored), unless `signal` was aborted before: an abort from
   * then on stops nothing, the rows in flight are scored and the run is recorded complete.
   */
  onRead?: () => void;
  /**
   * Called after each batch: rows done, and the expected total when known (JSONL; a JSON array or CSV file with the
   * dataset IDF's pass, or once every row is read), else estimated from the bytes read (null before the first).
   */
  onProgress?: (rows: number, estimatedTotal: number | null) => void;
  /**
   * Told what the run does before its first row, as it goes: fingerprinting the dataset (bytes read of its size),
   * fitting the dataset IDF (rows read). Both read the whole file, which takes seconds on a large one.
   */
  onStep?: (text: string) => void;
  /** Told why scoring waits, from any thread (an embedding provider retrying after a rate limit); see `EvaluatorEnv.notice`. */
  onNotice?: (message: string) => void;
}

export interface RowErrorInfo {
  row: number;
  line: number | null;
  message: string;
}

/** An evaluator's first failed row: where, and why (an EvalError code, or EVALUATOR_FAILED). */
export interface EvaluatorErrorInfo {
  row: number;
  code: string;
  message: string;
}

export interface RunDatasetResult {
  runId: string | null;
  summary: RunSummary;
  evaluators: Evaluator[];
  worst: Record<string, WorstRow[]>;
  /** The first row errors (at most 100), for messages and reports; the summary counts them all. */
  rowErrors: RowErrorInfo[];
  /** By evaluator name, its first error on a row (evaluators without errors are absent); the summary counts them all. */
  evaluatorErrors: Record<string, EvaluatorErrorInfo>;
  datasetHash: string;
  /** Each evaluator's scores (the rows behind its summary) binned for the report; null when none. */
  histograms: Record<string, HistogramData | null>;
  /** True when the signal stopped the run before the end; everything scored so far is kept. */
  interrupted: boolean;
  /**
   * The row error that stopped reading before the end of the dataset (brackets that do not pair up in a
   * JSON array, a CSV quote never closed): the run covers only the rows before it. Null when the whole file was read.
   */
  readStopped: RowErrorInfo | null;
  /**
   * Faults in the dataset file that are not rows and lost none (a trailing comma after a JSON array's last
   * element), each once, starting `line N:`; the run covers the whole file all the same.
   */
  datasetWarnings: string[];
  /**
   * Set when the dataset file changed between its fingerprint and the end of the read (it was appended to or
   * rewritten meanwhile): the rows scored are not those of the recorded sha256, and the run is recorded as incomplete.
   */
  datasetChanged?: string;
  /**
   * Why the run does not cover its whole dataset, in a sentence ("interrupted (SIGINT)", "the dataset could
   * not be read from row 4 on: line 5: …"), as the store records it for the run (`RunInfo.stop_reason`);
   * null when it covers the whole file, unchanged.
   */
  stopReason: string | null;
}

const KEEP_ROW_ERRORS = 100;
/**
 * A batch of unparsed JSONL lines closes once its lines hold this many characters, whatever its row count:
 * with up to four batches per thread in flight, rows of a megabyte would otherwise hold gigabytes.
 */
const BATCH_CHARS = 1 << 20;
/**
 * A batch holds at most this many results (rows × evaluators) by default: each result is a few hundred bytes
 * of JSON, and with four batches per thread in flight, 512 rows of 200 evaluators held about 90 MB a batch.
 */
const BATCH_RESULTS = 2048;

/** The default rows per batch: `max(1, min(512, floor(2048 / evaluators)))`, so 512 up to four evaluators and 10 at 200. */
export function defaultBatchSize(evaluators: number): number {
  return Math.max(1, Math.min(512, Math.floor(BATCH_RESULTS / Math.max(1, evaluators))));
}

/** Below this size a dataset is scored on the calling thread by default. */
const SMALL_DATASET_BYTES = 1 << 20;

/**
 * The scoring threads a run starts when `workers` is not given. None for a file under 1 MiB: starting
 * threads costs more than scoring it here. None when an evaluator sends texts to a service: the service,
 * not the cores, sets the pace, and each thread would send its own copy of a text shared by rows on
 * several threads (billed again). Otherwise one per core, as this thread only reads and writes and is
 * mostly idle; but one fewer (at least one) when the run is recorded in a store, since this thread is
 * then busy with the inserts. Each thread holds its own heap of about 50 MB: on 1M rows and 2 cores, one
 * scoring thread beside the store peaked at about 260 MB where two peaked at about 330 MB, and took
 * about 10% longer (17 s against 15.5 s).
 */
export function defaultWorkers(run: { bytes: number; remote: boolean; recorded: boolean; cores: number }): number {
  if (run.bytes < SMALL_DATASET_BYTES || run.remote) return 0;
  return run.recorded ? Math.max(1, run.cores - 1) : run.cores;
}

/**
 * A run's evaluators, built on the calling thread: validates the specs (every problem at once) before
 * anything is read, and gives names, directions and thresholds. The dataset IDF is fitted later, for
 * the scoring threads.
 */
export function createRunEvaluators(specs: unknown, env: RunEnv = {}): Evaluator[] {
  return createEvaluators(specs, { embeddingProviders: builtinEmbeddingProviders, ...env, datasetIdf: () => unfittedIdf() });
}

/**
 * Scores every row of a dataset with every evaluator: reads the file as a stream, scores batches on
 * worker threads (results stay in input order), writes results.jsonl lines and the store's rows as
 * they come, and builds the summary. A row that cannot be read or scored is recorded as that row's
 * error; the run goes on. When `signal` aborts before every row is read (`onRead`), no more rows are sent to be
 * scored, the rows already sent are scored and written, and the run is recorded as incomplete; so is a run whose file could not be read to its end (`readStopped`) or changed
 * while it was read (`datasetChanged`), each with its `stopReason`, and a run that an error stopped (with
 * "stopped by an error: " and the error's message), among them one whose results could not be written whole
 * (`write` or `end` failed: the error is then thrown). `signal.reason`, when it is a string or an Error of its
 * own (not the default AbortError), is named in the reason: `interrupted (SIGINT)`. A file refused
 * as a whole (DATASET_INVALID on its first read) is not recorded. Without `write` and `store`, nothing reads the rows' results, so they are
 * scored by verdict alone (`Evaluator.verdictNow`): the same summary, several times faster.
 */
export async function runDataset(opts: RunDatasetOptions): Promise<RunDatasetResult> {
  checkRunOptions(opts);
  checkCount(opts.workers, "workers", 0);
  checkCount(opts.batchSize, "batchSize", 1);
  checkCount(opts.worst, "worst", 0);
  const specs = opts.evaluators;
  const evaluators = createRunEvaluators(specs, opts.env);
  const { size } = checkDatasetFile(opts.dataset);
  // Without a results file or a store, nothing reads the rows' reasoning and details: leave them out.
  const init: ScorerInit = { specs: specs as unknown[], worst: opts.worst ?? 10, explain: opts.write !== undefined || opts.store !== undefined };
  if (opts.embeddingCacheDb) init.db = opts.embeddingCacheDb;

  const summary = new SummaryBuilder(
    evaluators.map((e) => ({ name: e.name, type: e.type, direction: e.direction, threshold: e.threshold })),
    { countSkippedAsZero: opts.countSkippedAsZero ?? false },
  );
  const workers =
    opts.workers ?? (opts.env ? 0 : defaultWorkers({ bytes: size, remote: evaluators.some((e) => e.remote), recorded: opts.store !== undefined, cores: availableParallelism() }));
  const scorer: Scorer = workers > 0 ? workerPool(init, workers, opts.onNotice) : inlineScorer(init, opts.onNotice, opts.env);
  // Fail before the first row when an evaluator cannot load what it needs (word vectors, say). Each
  // scoring thread loads its own, while this thread fingerprints the dataset; this thread's evaluators,
  // which only name and describe, load nothing. Then the dataset IDF's pass over the file, when an
  // evaluator wants it.
  let scan: FileScan;
  const datasetWarnings: string[] = [];
  // The bytes a JSON array's or CSV file's rows read so far took, for the estimate of its rows (below).
  let bytesRead = 0;
  const batches = readDatasetBatches(opts.dataset, { ...withSignal(opts.signal), unparsed: true, onWarning: (w) => datasetWarnings.push(w), onBytes: (bytes) => void (bytesRead = bytes) });
  let firstBatch: IteratorResult<(DatasetItem | UnparsedRow)[]>;
  let interrupted = false;
  // The rows the dataset IDF's pass read, when it read them all.
  let idfRows: number | null = null;
  try {
    const total = megabytes(size);
    const fingerprinting = opts.onStep && ((bytes: number) => opts.onStep?.(`fingerprinting the dataset: ${megabytes(bytes)} of ${total} MB`));
    const [scanned, readied] = await Promise.allSettled([scanFile(opts.dataset, fingerprinting), scorer.ready()]);
    if (scanned.status === "rejected") throw scanned.reason;
    if (readied.status === "rejected") throw readied.reason;
    scan = scanned.value;
    const idfEvaluators = datasetIdfEvaluators(evaluators);
    if (idfEvaluators.length) {
      try {
        const fitting = opts.onStep && ((rows: number) => opts.onStep?.(`fitting the dataset IDF: ${rows.toLocaleString("en-US")} rows read`));
        const fitted = await fitDatasetIdf(readDataset(opts.dataset, withSignal(opts.signal)), idfEvaluators, fitting);
        await scorer.setIdf(fitted.idfs);
        idfRows = fitted.rows;
      } catch (error) {
        // Interrupted while fitting: reading the rows below stops at once, and the run is incomplete.
        if (!opts.signal?.aborted) throw error;
      }
    }
    // The first read comes before the run is recorded: a file refused as a whole (empty, UTF-16,
    // compressed, not the format its name says) is a bad argument, as a bad config is, not a run.
    try {
      if (opts.signal?.aborted === true) throw opts.signal.reason;
      firstBatch = await batches.next();
    } catch (error) {
      if (!opts.signal?.aborted) throw error;
      firstBatch = { done: true, value: undefined };
      interrupted = true;
    }
  } catch (error) {
    await batches.return(undefined);
    await scorer.close();
    throw error;
  }
  const datasetHash = scan.sha256;
  // JSONL has a row a line, blank lines aside: its lines that are not blank are the rows to come. (Counting the
  // blank ones, a file with a blank line after each row ended its run with the bar at 50%.) A JSON array or CSV
  // file tells its rows only once read: by the dataset IDF's pass when there is one, which read them all; else,
  // until every row is read, as the rows read so far times the file's size over the bytes they took.
  const knownRows = formatFromExtension(opts.dataset) === "jsonl" ? scan.filledLines : idfRows;
  let rowsRead = 0;
  let allRead = false;
  const estimatedRows = (): number | null => {
    if (knownRows !== null || allRead) return knownRows ?? rowsRead;
    return bytesRead > 0 ? Math.max(rowsRead, Math.round((rowsRead * size) / bytesRead)) : null;
  };
  const store = opts.store;
  const runId = (await store?.beginRun({ name: opts.name ?? null, dataset_path: resolve(opts.dataset), dataset_hash: datasetHash, evaluators: evaluators.map((e) => e.spec) })) ?? null;
  const rowErrors: RowErrorInfo[] = [];
  const evaluatorErrors: Record<string, EvaluatorErrorInfo> = {};
  let readStopped: RowErrorInfo | null = null;
  let rowsDone = 0;

  const sink = async (batch: ScoredBatch) => {
    if (store && runId) await store.addRows(runId, rowsToStore(batch));
    summary.addPacked(batch.scores);
    const size = batchRowCount(batch);
    const errorAt = (i: number) => {
      const row = batchRow(batch, i);
      const { code, message } = JSON.parse(row.error as string) as { code: RowErrorCode; message: string };
      return { code, info: { row: row.row, line: row.line, message } };
    };
    for (let i = 0; i < size; i++) {
      if (!batchRowFailed(batch, i)) continue;
      // A reader that cannot go on ends with that error: it can only be the last row of a batch.
      if (rowErrors.length >= KEEP_ROW_ERRORS && i < size - 1) continue;
      const { code, info } = errorAt(i);
      if (rowErrors.length < KEEP_ROW_ERRORS) rowErrors.push(info);
      if (code === "DATASET_READ_STOPPED" && i === size - 1) readStopped = info;
    }
    if (Object.keys(evaluatorErrors).length < evaluators.length) firstEvaluatorErrors(batch, evaluators, evaluatorErrors);
    await opts.write?.(batch.bytes);
    scorer.recycle(batch);
    rowsDone += size;
    opts.onProgress?.(rowsDone, estimatedRows());
  };

  const inFlight: Promise<ScoredBatch>[] = [];
  // Four batches per thread: a thread that is done need not wait while the oldest batch is written
  // (about 8% faster than two on 1M rows, 2 cores).
  const maxInFlight = Math.max(2, workers * 4);
  // 512 rows: 1024 was about 3% faster on 1M short rows (2 cores) but held about 20 MB more with the store.
  const batchSize = opts.batchSize ?? defaultBatchSize(evaluators.length);
  try {
    let batch: (DatasetItem | UnparsedRow)[] = [];
    let chars = 0;
    try {
      // The reader hands over whole reads; they are regrouped into batches of `batchSize` rows, or of
      // BATCH_CHARS characters of unparsed rows. JSONL lines and JSON array elements are parsed on the scoring threads.
      for await (const items of startingWith(firstBatch, batches)) {
        rowsRead += items.length;
        for (const item of items) {
          batch.push(item);
          if ("json" in item) chars += item.json.length;
          if (batch.length >= batchSize || chars >= BATCH_CHARS) {
            // A read hands over hundreds of rows at once: after an abort, none more is sent to be scored (a remote evaluator's calls).
            opts.signal?.throwIfAborted();
            inFlight.push(scorer.score(batch));
            batch = [];
            chars = 0;
            if (inFlight.length >= maxInFlight) await sink(await inFlight.shift()!);
          }
        }
      }
      if (batch.length) inFlight.push(scorer.score(batch));
      allRead = true;
      // Every row is read. An abort heard before now makes the run incomplete, also one the reader did not stop
      // for (its last bytes read already): the CLI said so when it came. From now on, one does not.
      if (opts.signal?.aborted) interrupted = true;
      else opts.onRead?.();
    } catch (error) {
      if (!opts.signal?.aborted) throw error;
      interrupted = true;
    }
    // Whatever was sent is scored and written, also after an interruption: nothing scored is lost.
    while (inFlight.length) await sink(await inFlight.shift()!);
    await opts.end?.();
    const worst = WorstRows.merge(await scorer.worst(), evaluators, init.worst);
    const final = summary.finish();
    const changed = changedSince(opts.dataset, scan.stat);
    // Set by `sink`, which TypeScript does not see: it would take `readStopped` for its initial null.
    const stopped = readStopped as RowErrorInfo | null;
    const stopReason =
      [
        ...(interrupted ? [interruption(opts.signal)] : []),
        ...(stopped ? [`the dataset could not be read from row ${stopped.row} on: ${stopped.message}`] : []),
        ...(changed ? [changed.reason] : []),
      ].join("; ") || null;
    if (store && runId) {
      // A file read only up to a fault does not cover its dataset: not a run to set as the baseline or trend.
      if (stopReason !== null) await store.abortRun(runId, final, stopReason);
      else await store.finishRun(runId, final);
    }
    const histograms = Object.fromEntries(final.evaluators.map((e) => [e.name, histogramFor(e, summary.scores(e.name))]));
    return { runId, summary: final, evaluators, worst, rowErrors, evaluatorErrors, datasetHash, histograms, interrupted, readStopped, datasetWarnings, ...(changed ? { datasetChanged: changed.message } : {}), stopReason };
  } catch (error) {
    // Batches still in flight are dropped: closing the scorer below rejects them, with no one awaiting.
    for (const batch of inFlight) batch.catch(() => undefined);
    let kept = "";
    if (store && runId) {
      try {
        const partial = summary.finish();
        const reason = `stopped by an error: ${error instanceof Error ? error.message : String(error)}`;
        await store.abortRun(runId, partial, reason);
        // abortRun is a no-op on a run another process deleted (`simeval delete RUN --force`), or finished (`finishStoredRun`):
        // then it is not recorded as incomplete, and saying so would send the user to a run that is not there, or is complete.
        // One another process aborted (`simeval abort RUN --force`, whence the error) is said to be so, with its reason.
        const after = await store.findRun(runId);
        if (after?.id === runId && after.status === "incomplete") {
          kept =
            after.stop_reason === reason || after.stop_reason === null
              ? `; the run ${runId} is recorded as incomplete, with ${rowsText(partial.rows)}`
              : `; another process ended the run meanwhile (${after.stop_reason}): it keeps the rows recorded before`;
        }
      } catch {
        // The store failing too (a full disk) must not hide what stopped the run; the run, left "running", is
        // marked incomplete when the store closes.
      }
    }
    // Said with the error, so that the rows kept can be found (`simeval show RUN`); still as worth retrying as it was.
    if (kept && error instanceof EvalError) throw new EvalError(error.code, `${error.message}${kept}`, { issues: error.issues, cause: error, transient: error.transient });
    throw error;
  } finally {
    summary.close();
    await scorer.close();
  }
}

/** The batches of a reader whose first `next()` was taken already (`first`), then the rest; ends the reader when stopped early. */
async function* startingWith<T>(first: IteratorResult<T>, rest: AsyncGenerator<T>): AsyncGenerator<T> {
  try {
    if (first.done === true) return;
    yield first.value;
    yield* rest;
  } finally {
    await rest.return(undefined);
  }
}

/**
 * Why `path` is not the file that was fingerprinted (its size or modification time differ), or undefined:
 * the cause (`reason`, the run's stop reason) and what it means for the run (`message`).
 */
function changedSince(path: string, before: { size: number; mtimeMs: number }): { reason: string; message: string } | undefined {
  let now: { size: number; mtimeMs: number } | undefined;
  try {
    now = statSync(path);
  } catch {
    now = undefined;
  }
  if (now === undefined) return { reason: "the dataset file was removed while it was read", message: "the dataset file was removed while it was read" };
  if (now.size === before.size && now.mtimeMs === before.mtimeMs) return undefined;
  const size = now.size === before.size ? "" : ` (${before.size} bytes when fingerprinted, ${now.size} now)`;
  const reason = `the dataset file changed while it was read${size}`;
  return { reason, message: `${reason}: the rows scored are not all those of the sha256 recorded for the run; run it again on a file that stays put` };
}

/**
 * An interruption as a stop reason: `interrupted (SIGINT)` when the signal was aborted with a reason of its
 * own (a string, as the CLI gives the signal's name, or an Error such as AbortSignal.timeout()'s), else
 * `interrupted` (the default reason, an AbortError, says nothing more).
 */
function interruption(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  const said = typeof reason === "string" ? reason : reason instanceof Error && reason.name !== "AbortError" ? reason.message : "";
  return said.trim() === "" ? "interrupted" : `interrupted (${said})`;
}

/** The options of {@link RunDatasetOptions}, every one. */
const RUN_OPTIONS = everyKey<RunDatasetOptions>()([
  "dataset", "evaluators", "name", "store", "embeddingCacheDb", "env", "write", "end", "countSkippedAsZero", "workers", "batchSize", "worst", "signal",
  "onRead", "onProgress", "onStep", "onNotice",
]);

/** The methods of a {@link RunStore} that a run calls. */
const RUN_STORE_METHODS = ["beginRun", "addRows", "finishRun", "abortRun"] as const;

/**
 * Throws CONFIG_INVALID, naming the option, unless `opts` is an object whose options are of their kinds:
 * read as given, a missing `opts` or a `write` of 5 threw a TypeError, a `store` of `{}` one after the
 * evaluators were built, and a `name` of 5 or a `countSkippedAsZero` of "yes" were taken for none and true.
 * The counts (`workers`, `batchSize`, `worst`) have their own check.
 */
function checkRunOptions(opts: unknown): asserts opts is RunDatasetOptions {
  const bad = (option: string, expected: string, value: unknown) =>
    argumentError("CONFIG_INVALID", "runDataset", option === "" ? "opts" : `opts.${option}`, expected, value, option === "" ? [] : option.split("."));
  if (!isPlainObject(opts)) throw bad("", "an object ({ dataset, evaluators, ... })", opts);
  const o = opts as Record<string, unknown>;
  refuseUnknownKeys("runDataset", "opts", o, RUN_OPTIONS);
  if (typeof o["dataset"] !== "string" || o["dataset"] === "") throw bad("dataset", "the path of a dataset file (a non-empty string)", o["dataset"]);
  const optional = (option: string, expected: string, ok: (v: unknown) => boolean) => {
    if (o[option] !== undefined && !ok(o[option])) throw bad(option, `${expected} or nothing`, o[option]);
  };
  optional("name", `${RUN_NAME_EXPECTED}, null`, (v) => v === null || isRunName(v));
  optional("embeddingCacheDb", "the path of a SQLite database (a non-empty string)", (v) => typeof v === "string" && v !== "");
  optional("countSkippedAsZero", "a boolean", (v) => typeof v === "boolean");
  optional("signal", "an AbortSignal", (v) => v instanceof AbortSignal);
  for (const fn of ["write", "end", "onRead", "onProgress", "onStep", "onNotice"]) optional(fn, "a function", (v) => typeof v === "function");
  optional("env", "an object ({ embeddingProviders?, embeddingCache? })", isPlainObject);
  const env = o["env"] as Record<string, unknown> | undefined;
  const extra = env === undefined ? undefined : Object.keys(env).find((k) => k !== "embeddingProviders" && k !== "embeddingCache");
  if (extra !== undefined) throw bad(`env.${extra}`, `nothing: runDataset's env takes embeddingProviders and embeddingCache${extra === "notice" ? " (onNotice is runDataset's notice)" : ""}`, env?.[extra]);
  if (env !== undefined && typeof o["workers"] === "number" && o["workers"] > 0) {
    throw bad("workers", "0 or nothing with opts.env: its providers and cache are functions, which cannot reach worker threads, so its rows are scored on this thread", o["workers"]);
  }
  if (env?.["embeddingCache"] !== undefined && o["embeddingCacheDb"] !== undefined) {
    throw bad("embeddingCacheDb", "nothing when opts.env.embeddingCache is given (one embedding cache)", o["embeddingCacheDb"]);
  }
  const store = o["store"];
  if (store !== undefined) {
    if (typeof store !== "object" || store === null) throw bad("store", "a RunStore (such as openSqliteStore(path)) or nothing", store);
    for (const method of RUN_STORE_METHODS) {
      const m = (store as Record<string, unknown>)[method];
      if (typeof m !== "function") throw bad(`store.${method}`, "a function (the store is no RunStore)", m);
    }
  }
}

/**
 * Refuses a count option that is not a whole number >= `min` with CONFIG_INVALID, worded as
 * {@link checkRunOptions} words the others (`runDataset: opts.workers must be …`): a batchSize of 0, say,
 * would otherwise regroup the rows into empty batches forever.
 */
function checkCount(value: unknown, name: string, min: number): void {
  if (value === undefined || (typeof value === "number" && Number.isSafeInteger(value) && value >= min)) return;
  throw argumentError("CONFIG_INVALID", "runDataset", `opts.${name}`, `an integer >= ${min} or nothing`, value, [name]);
}

/** Adds to `found` each evaluator's first error in the batch, unless it has one already. */
function firstEvaluatorErrors(batch: ScoredBatch, evaluators: readonly Evaluator[], found: Record<string, EvaluatorErrorInfo>): void {
  const { rows, evaluators: m, cells } = batch.scores;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < m; j++) {
      const name = (evaluators[j] as Evaluator).name;
      if (((cells[i * m + j] as number) & CELL.ERROR) === 0 || found[name]) continue;
      const row = batchRow(batch, i);
      const result = (JSON.parse(row.results) as Record<string, RowResult | undefined>)[name];
      found[name] = result && isResultError(result) ? { row: row.row, ...result.error } : { row: row.row, code: "EVALUATOR_FAILED", message: "its score was not a finite number" };
    }
  }
}

/** The batch's rows for the store, each with its pairable scores, so that the store need not parse its results. */
function rowsToStore(batch: ScoredBatch): SerializedRow[] {
  const rows = batchRows(batch);
  for (let i = 0; i < rows.length; i++) if (batch.scores.rowErrors[i] === 0) (rows[i] as SerializedRow).scores = pairableScores(batch.scores, i);
  return rows;
}

/** An evaluator's scores in the bins the report draws (see chooseBins); null when none was scored. */
function histogramFor(summary: EvaluatorSummary, scores: ScoreSet | undefined): HistogramData | null {
  if (!scores || scores.length === 0) return null;
  const bins = chooseBins(summary);
  return { ...scores.histogram({ bins: bins.bins, min: bins.min, max: bins.max }), integer: bins.integer };
}

/** Bytes as megabytes (MiB), for progress: `1,204`, with one decimal under 10 (`0.3`). */
function megabytes(bytes: number): string {
  const mb = bytes / 2 ** 20;
  return mb < 10 ? mb.toFixed(1) : Math.round(mb).toLocaleString("en-US");
}

function withSignal(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal ? { signal } : {};
}
