import { EvalError } from "../errors.js";
import type { Evaluator } from "../evaluators/create.js";
import { parseJsonlRow } from "../dataset/read-jsonl.js";
import type { DatasetItem, UnparsedRow } from "../dataset/rows.js";
import type { EvalResult } from "../types.js";
import type { RowOutcome, RowResult, SerializedRow } from "./types.js";

/** A row ready to score: an {@link UnparsedRow} is parsed here, on the scoring thread. */
export function parsedItem(item: DatasetItem | UnparsedRow): DatasetItem {
  return "json" in item ? parseJsonlRow(item) : item;
}

/** Scores one dataset item with every evaluator; an evaluator that throws becomes that row's ResultError. */
export function evaluateItem(item: DatasetItem, evaluators: readonly Evaluator[]): RowOutcome | Promise<RowOutcome> {
  if ("error" in item) return { row: item.row, id: null, line: item.line, results: {}, error: item.error };
  const record = item.record;
  const outcome: RowOutcome = { row: item.row, id: record["id"] ?? null, line: item.line, results: {} };
  let pending: Promise<void>[] | undefined;
  for (const e of evaluators) {
    try {
      const r = e.evaluateNow(record);
      if (r instanceof Promise) {
        (pending ??= []).push(
          r.then(
            (res) => void (outcome.results[e.name] = stored(res)),
            (err: unknown) => void (outcome.results[e.name] = asError(err)),
          ),
        );
      } else outcome.results[e.name] = stored(r);
    } catch (err) {
      outcome.results[e.name] = asError(err);
    }
  }
  if (!pending) return outcome;
  // Keep the keys in evaluator order whatever order the promises settle in.
  return Promise.all(pending).then(() => {
    const ordered: Record<string, RowResult> = {};
    for (const e of evaluators) ordered[e.name] = outcome.results[e.name] as RowResult;
    outcome.results = ordered;
    return outcome;
  });
}

function stored(r: EvalResult): RowResult {
  return { type: r.type, score: r.score, passed: r.passed, label: r.label, reasoning: r.reasoning, skipped: r.skipped, details: r.details };
}

function asError(err: unknown): RowResult {
  if (err instanceof EvalError) return { error: { code: err.code, message: err.message } };
  return { error: { code: "EVALUATOR_FAILED", message: err instanceof Error ? err.message : String(err) } };
}

/** Serialises an outcome once, for results.jsonl and the store. */
export function serializeOutcome(o: RowOutcome): SerializedRow {
  return {
    row: o.row,
    line: o.line ?? null,
    id: JSON.stringify(o.id ?? null) ?? "null",
    results: JSON.stringify(o.results),
    error: o.error ? JSON.stringify(o.error) : null,
  };
}
