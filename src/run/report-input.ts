import { resolve } from "node:path";
import { THIS_HOST } from "../storage/run-owner.js";
import { highlightFor } from "../report/choose.js";
import type { RunReportEvaluator, RunReportInput, TokenLists, WorstRow as ReportRow } from "../report/types.js";
import type { RunDatasetResult } from "./run-dataset.js";
import type { RunInfo } from "./types.js";
import type { WorstRow } from "./worst-rows.js";

/** Joins a finished run's summary, scores and worst rows into what the HTML run report renders. */
export function runReportInput(result: RunDatasetResult, run: RunReportInput["run"]): RunReportInput {
  const evaluators: RunReportEvaluator[] = result.summary.evaluators.map((summary) => {
    const evaluator = result.evaluators.find((e) => e.name === summary.name);
    return {
      summary,
      histogram: result.histograms[summary.name] ?? null,
      highlight: highlightFor(summary.type, evaluator?.config),
      worst: (result.worst[summary.name] ?? []).map(toReportRow),
    };
  });
  return {
    run,
    summary: result.summary,
    evaluators,
    row_errors: result.rowErrors.map((e) => ({ row: e.row, ...(e.line === null ? {} : { line: e.line }), message: e.message })),
  };
}

function toReportRow(w: WorstRow): ReportRow {
  const row: ReportRow = { row: w.row, id: w.id, score: w.score, passed: w.passed, reasoning: w.reasoning, expected: w.expected ?? "", output: w.output ?? "" };
  const d = w.details;
  if (Array.isArray(d["missing"]) && Array.isArray(d["extra"]) && typeof d["shared_count"] === "number") row.tokens = d as unknown as TokenLists;
  return row;
}

/**
 * The run header a report shows, for a run that was not recorded in a store: incomplete when a store would
 * have recorded it so (interrupted, its file read only up to a fault or changed while it was read).
 */
export function unrecordedRun(result: RunDatasetResult, dataset: string, startedAt: string, name: string | null): RunInfo {
  return {
    id: result.runId ?? "(not recorded)",
    name,
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    status: result.stopReason === null ? "complete" : "incomplete",
    dataset_path: resolve(dataset),
    dataset_hash: result.datasetHash,
    evaluators: result.evaluators.map((e) => e.spec),
    summary: result.summary,
    stop_reason: result.stopReason,
    owner: "process", // this process ran it
    process: { pid: process.pid, host: THIS_HOST },
  };
}
