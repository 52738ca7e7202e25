/** Worker-thread entry: scores batches sent by the pool in `pool.ts`. */
import { parentPort, workerData } from "node:worker_threads";
import type { DatasetItem } from "../dataset/rows.js";
import { BatchScorer } from "./batch-scorer.js";
import { evaluatorsFor, type ScorerInit } from "./scorer-init.js";

export type WorkerRequest = { kind: "score"; seq: number; items: DatasetItem[] } | { kind: "worst"; seq: number };

const init = workerData as ScorerInit;
// The thread ends with the process or terminate(); its database connection closes with it.
const scorer = new BatchScorer(evaluatorsFor(init).evaluators, init.worst);
const port = parentPort;
if (!port) throw new Error("worker.ts must run on a worker thread");

port.on("message", (msg: WorkerRequest) => {
  const reply = msg.kind === "score" ? scorer.score(msg.items) : Promise.resolve(scorer.worst());
  reply.then(
    (value) => port.postMessage({ seq: msg.seq, value }),
    (error: unknown) => port.postMessage({ seq: msg.seq, error: error instanceof Error ? error.message : String(error) }),
  );
});
