import { Worker } from "node:worker_threads";
import type { DatasetItem, UnparsedRow } from "../dataset/rows.js";
import { BatchScorer, type ScoredBatch } from "./batch-scorer.js";
import { evaluatorsFor, type FittedIdfs, type RunEnv, type ScorerInit } from "./scorer-init.js";
import type { WorstRow } from "./worst-rows.js";
import type { WorkerError, WorkerRequest } from "./worker.js";
import { EvalError } from "../errors.js";
import { packItems } from "./item-batch.js";
import { openSqliteStore } from "../storage/sqlite.js";

/** Scores batches somewhere — inline or on worker threads; results come back per batch. */
export interface Scorer {
  /** Loads what the evaluators need (word vectors, a model) on every scoring thread; rejects as the first failure. */
  ready(): Promise<void>;
  /** Hands the dataset IDF, fitted after `ready()`, to every scoring thread; before the first `score()`. */
  setIdf(idfs: FittedIdfs): Promise<void>;
  score(items: (DatasetItem | UnparsedRow)[]): Promise<ScoredBatch>;
  /** Hands a scored batch's bytes back to be written over by a later batch, once nothing reads them (see {@link BatchScorer.recycle}). */
  recycle(batch: ScoredBatch): void;
  /** Each thread's worst rows per evaluator (merge with `WorstRows.merge`). */
  worst(): Promise<Record<string, WorstRow[]>[]>;
  close(): Promise<void>;
}

/**
 * Scores on the calling thread: for small datasets, and where worker threads are not wanted. `notice`: see
 * `EvaluatorEnv.notice`; `env`: a library caller's own providers or cache (see `RunDatasetOptions.env`).
 */
export function inlineScorer(init: ScorerInit, notice?: (message: string) => void, env?: RunEnv): Scorer {
  const built = evaluatorsFor(init, notice, env, openSqliteStore);
  const scorer = new BatchScorer(built.evaluators, init.worst, init.explain);
  return {
    ready: () => scorer.ready(),
    setIdf: async (idf) => built.setIdf(idf),
    score: (items) => scorer.score(items),
    recycle: (batch) => scorer.recycle(batch.bytes.buffer as ArrayBuffer),
    worst: async () => [scorer.worst()],
    close: async () => built.close(),
  };
}

/** A request the thread answers (all but "recycle"). */
type AnsweredRequest = Extract<WorkerRequest, { seq: number }>;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * `size` worker threads, each with its own copy of the evaluators. Batches go to the thread with the
 * fewest batches in flight; the caller keeps the order by awaiting batches in the order it sent them.
 * The threads' notices (see `EvaluatorEnv.notice`) go to `notice`.
 */
export function workerPool(init: ScorerInit, size: number, notice?: (message: string) => void): Scorer {
  const workers = Array.from({ length: size }, () => {
    const worker = startWorker(init);
    const pending = new Map<number, Pending>();
    worker.on("message", (msg: { seq: number; value?: unknown; error?: WorkerError } | { notice: string }) => {
      if ("notice" in msg) return notice?.(msg.notice);
      const p = pending.get(msg.seq);
      pending.delete(msg.seq);
      if (msg.error === undefined) p?.resolve(msg.value);
      else p?.reject(requestError(msg.error));
    });
    const thread: { worker: Worker; pending: Map<number, Pending>; died?: Error } = { worker, pending };
    // The first failure is kept: a request sent after it (to a thread that died idle, which has the fewest
    // requests waiting and so is picked first) rejects with it, where it waited for an answer forever.
    const failAll = (error: Error) => {
      thread.died ??= error;
      for (const p of pending.values()) p.reject(thread.died);
      pending.clear();
    };
    worker.on("error", (error) => failAll(threadError(error)));
    worker.on("exit", (code) => failAll(new Error(`scoring worker exited with code ${code}`)));
    return thread;
  });
  // Which thread wrote a batch's bytes: they go back to it.
  const writtenBy = new WeakMap<ArrayBufferLike, (typeof workers)[number]>();
  let seq = 0;
  const send = <T>(w: (typeof workers)[number], msg: AnsweredRequest, transfer: ArrayBuffer[] = []): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (w.died) return reject(w.died);
      w.pending.set(msg.seq, { resolve: resolve as (v: unknown) => void, reject });
      w.worker.postMessage(msg, transfer);
    });
  /** The same request to every thread; their answers in thread order. */
  const toEach = <T>(request: (seq: number) => AnsweredRequest): Promise<T[]> => Promise.all(workers.map((w) => send<T>(w, request(seq++))));
  return {
    ready: () => toEach((seq) => ({ kind: "ready", seq })).then(() => undefined),
    setIdf: (idf) => toEach((seq) => ({ kind: "idf", seq, idf })).then(() => undefined),
    score(items) {
      const w = workers.reduce((best, x) => (x.pending.size < best.pending.size ? x : best));
      const batch = packItems(items);
      return send<ScoredBatch>(w, { kind: "score", seq: seq++, batch }, [batch.lines.buffer as ArrayBuffer]).then((scored) => {
        writtenBy.set(scored.bytes.buffer, w);
        return scored;
      });
    },
    recycle(batch) {
      const buffer = batch.bytes.buffer as ArrayBuffer;
      const w = writtenBy.get(buffer);
      // Moved, not copied: the batch's bytes are empty from now on.
      if (w) w.worker.postMessage({ kind: "recycle", buffer } satisfies WorkerRequest, [buffer]);
    },
    worst: () => toEach<Record<string, WorstRow[]>>((seq) => ({ kind: "worst", seq })),
    async close() {
      await Promise.all(workers.map((w) => w.worker.terminate()));
    },
  };
}

/** A request's failure as the thread sent it ({@link WorkerError}): simeval's EvalError, its code, issues and `transient` kept, or a plain Error. */
function requestError(e: WorkerError): Error {
  return e.code ? new EvalError(e.code, e.message, { issues: e.issues ?? [], transient: e.transient === true }) : new Error(e.message);
}

/**
 * The error a scoring thread died of (its "error" event: thrown as it started, such as the embedding cache's database
 * that could not be opened), as simeval's {@link EvalError} when it was one. Node passes a thread's uncaught error on as
 * a copy of the built-in class its constructor is named after, which for simeval's EvalError is JavaScript's own: its
 * `code`, `issues` and `transient` came as mere properties, so `instanceof EvalError` was false (the CLI said
 * "unexpected error" with its stack, where inline scoring gave the error itself), and a caller that retries what is
 * `transient` (a database locked by another process) could not tell it was one.
 */
function threadError(error: Error): Error {
  const { code, issues, transient } = error as Partial<EvalError>;
  if (error instanceof EvalError || error.name !== "EvalError" || typeof code !== "string") return error;
  return requestError({ code, message: error.message, ...(Array.isArray(issues) ? { issues } : {}), transient: transient === true });
}

/**
 * The young generation of a thread that writes its rows (`init.explain`), in MB: V8 makes it three
 * semi-spaces, so 4 MB each, where the default grows to 16. Such a thread allocates about 15 KB a row (the
 * explanations and their JSON); with the default its heap grew to about 70 MB before a full collection, with
 * this about 30 MB. On 3M rows with results.jsonl (2 cores), the command peaked at 241 to 254 MB in six runs,
 * against 285 to 318 MB, in the same time; with 16 MB, 273 to 289 MB. A summary-only run's threads allocate
 * about 4 KB a row: there it lowered nothing and ran about 5% slower, so they keep the default.
 */
const WRITING_YOUNG_GENERATION_MB = 12;

/**
 * From dist the worker is plain JavaScript, bundled into one file (see scripts/bundle-worker.mjs). From source
 * (tests, `tsx`) it is TypeScript, and a worker does not inherit the parent's loader, so a one-line bootstrap
 * registers tsx in the worker first.
 */
function startWorker(init: ScorerInit): Worker {
  const options = { workerData: init, ...(init.explain ? { resourceLimits: { maxYoungGenerationSizeMb: WRITING_YOUNG_GENERATION_MB } } : {}) };
  const own = import.meta.url;
  if (!own.endsWith(".ts")) return new Worker(new URL("./worker.bundle.js", own), options);
  const script = new URL("./worker.ts", own).href;
  const bootstrap = `import("tsx/esm/api").then((m) => m.register()).then(() => import(${JSON.stringify(script)}));`;
  return new Worker(bootstrap, { ...options, eval: true });
}
