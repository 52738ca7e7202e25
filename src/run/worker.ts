/** Worker-thread entry: scores batches sent by the pool in `pool.ts`. */
import { parentPort, workerData } from "node:worker_threads";
import type { DatasetItem, UnparsedRow } from "../dataset/rows.js";
import { packedBuffers } from "../stats/packed-scores.js";
import { BatchScorer } from "./batch-scorer.js";
import { evaluatorsFor, type ScorerInit } from "./scorer-init.js";

export type WorkerRequest = { kind: "score"; seq: number; items: (DatasetItem | UnparsedRow)[] } | { kind: "worst"; seq: number };

const init = workerData as ScorerInit;
// The thread ends with the process or terminate(); its database connection closes with it.
const scorer = new BatchScorer(evaluatorsFor(init).evaluators, init.worst);
const port = parentPort;
if (!port) throw new Error("worker.ts must run on a worker thread");

port.on("message", (msg: WorkerRequest) => {
  const fail = (error: unknown) => port.postMessage({ seq: msg.seq, error: error instanceof Error ? error.message : String(error) });
  if (msg.kind === "worst") return port.postMessage({ seq: msg.seq, value: scorer.worst() });
  // The typed arrays are moved, not copied.
  scorer.score(msg.items).then((value) => port.postMessage({ seq: msg.seq, value }, [...packedBuffers(value.scores), value.index.buffer as ArrayBuffer, value.bytes.buffer as ArrayBuffer]), fail);
});
