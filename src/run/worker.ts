/** Worker-thread entry: readies its evaluators and scores batches, as the pool in `pool.ts` asks. */
import { parentPort, workerData } from "node:worker_threads";
import { EvalError, type ErrorCode, type Issue } from "../errors.js";
import { packedBuffers } from "../stats/packed-scores.js";
import { BatchScorer } from "./batch-scorer.js";
import { unpackItems, type ItemBatch } from "./item-batch.js";
import { evaluatorsFor, usesCacheDb, type FittedIdfs, type ScorerInit } from "./scorer-init.js";

export type WorkerRequest =
  | { kind: "ready"; seq: number }
  | { kind: "idf"; seq: number; idf: FittedIdfs }
  | { kind: "score"; seq: number; batch: ItemBatch }
  | { kind: "worst"; seq: number }
  /** A batch's bytes handed back (see `BatchScorer.recycle`); not answered. */
  | { kind: "recycle"; buffer: ArrayBuffer };

/** An error as it crosses back to the pool: an EvalError keeps its code, issues and whether it is transient. */
export interface WorkerError {
  code?: ErrorCode;
  message: string;
  issues?: Issue[];
  transient?: boolean;
}

const init = workerData as ScorerInit;
// The thread ends with the process or terminate(); its database connection closes with it.
// A notice has no seq: the pool passes it on as it comes.
// SQLite is loaded only for the embedding cache (see usesCacheDb).
const openDb = usesCacheDb(init) ? (await import("../storage/sqlite.js")).openSqliteStore : undefined;
const built = evaluatorsFor(init, (notice) => parentPort?.postMessage({ notice }), {}, openDb);
const scorer = new BatchScorer(built.evaluators, init.worst, init.explain);
const port = parentPort;
if (!port) throw new Error("worker.ts must run on a worker thread");

port.on("message", (msg: WorkerRequest) => {
  if (msg.kind === "recycle") return scorer.recycle(msg.buffer);
  const fail = (error: unknown) => {
    const sent: WorkerError =
      error instanceof EvalError
        ? { code: error.code, message: error.message, issues: error.issues, transient: error.transient }
        : { message: error instanceof Error ? error.message : String(error) };
    port.postMessage({ seq: msg.seq, error: sent });
  };
  if (msg.kind === "worst") return port.postMessage({ seq: msg.seq, value: scorer.worst() });
  if (msg.kind === "idf") {
    built.setIdf(msg.idf);
    return port.postMessage({ seq: msg.seq, value: null });
  }
  if (msg.kind === "ready") return void scorer.ready().then(() => port.postMessage({ seq: msg.seq, value: null }), fail);
  // The typed arrays are moved, not copied.
  scorer.score(unpackItems(msg.batch)).then((value) => port.postMessage({ seq: msg.seq, value }, [...packedBuffers(value.scores), value.index.buffer as ArrayBuffer, value.bytes.buffer as ArrayBuffer]), fail);
});
