import { argumentError, EvalError, isPlainObject } from "../errors.js";
import type { EvalVerdict, Evaluator } from "../evaluators/create.js";
import { sameNames } from "../evaluators/same-names.js";
import { parseArrayElement } from "../dataset/read-json.js";
import { parseJsonlRow } from "../dataset/read-jsonl.js";
import type { DatasetItem, UnparsedRow } from "../dataset/rows.js";
import type { EvalRecord, EvalResult } from "../types.js";
import { isResultError, type ResultError, type RowOutcome, type RowResult, type RowVerdict, type SerializedRow, type StoredResult } from "./types.js";

/** A row ready to score: an {@link UnparsedRow} (a JSONL line, or a JSON array's element) is parsed here, on the scoring thread. */
export function parsedItem(item: DatasetItem | UnparsedRow): DatasetItem {
  if (!("json" in item)) return item;
  return item.byte === undefined ? parseJsonlRow(item) : parseArrayElement(item);
}

/** Scores one dataset item with every evaluator; an evaluator that throws becomes that row's ResultError. */
export function evaluateItem(item: DatasetItem, evaluators: readonly Evaluator[]): RowOutcome | Promise<RowOutcome> {
  return scoreItem(item, evaluators, explained);
}

/**
 * Scores one record with every evaluator, as a dataset run scores a row (a trace, in a service): each
 * evaluator's result by its name, in evaluator order, as results.jsonl's `results` holds them, or
 * `{ error: { code, message } }` where the evaluator failed (its EvalError's code, or EVALUATOR_FAILED),
 * so that one failing never fails the others. A record that is not an object, or `evaluators` that are not
 * a list of evaluators (from `createEvaluators`), or two of which share a name (ignoring case), throw an EvalError
 * (INPUT_INVALID, CONFIG_INVALID).
 */
export async function scoreRecord(record: EvalRecord, evaluators: readonly Evaluator[]): Promise<Record<string, RowResult>> {
  if (!isPlainObject(record)) throw argumentError("INPUT_INVALID", "scoreRecord", "record", "an object (an evaluation record: output, expected, …)", record);
  if (!Array.isArray(evaluators)) throw argumentError("CONFIG_INVALID", "scoreRecord", "evaluators", "a list of evaluators from createEvaluators", evaluators);
  const bad = evaluators.findIndex((e: unknown) => !isPlainObject(e) || typeof e["evaluateNow"] !== "function" || typeof e["name"] !== "string");
  if (bad >= 0) throw argumentError("CONFIG_INVALID", "scoreRecord", `evaluators[${bad}]`, "an evaluator from createEvaluators", evaluators[bad], ["evaluators", bad]);
  // Results are keyed by name: of two evaluators built apart (createEvaluator) with one name, the second's result
  // replaced the first's. Ignoring case, as createEvaluators and a run's evaluators do.
  const [clash] = sameNames(evaluators.map((e) => e.name));
  if (clash) {
    const { at, first } = clash;
    const message = `scoreRecord: evaluators[${at}] is named "${evaluators[at]?.name}", as evaluators[${first}] is ("${evaluators[first]?.name}", ignoring case): results are keyed by name, so one would replace the other; give each evaluator a unique "name"`;
    throw new EvalError("CONFIG_INVALID", message, { issues: [{ path: ["evaluators", at, "name"], message }] });
  }
  return (await evaluateItem({ row: 1, line: 1, record }, evaluators)).results;
}

/**
 * Like {@link evaluateItem}, without the reasoning and details where an evaluator can leave them out
 * (`verdictNow`): for a run that keeps only its summary.
 */
export function verdictItem(item: DatasetItem, evaluators: readonly Evaluator[]): RowOutcome<RowVerdict> | Promise<RowOutcome<RowVerdict>> {
  return scoreItem<EvalVerdict>(item, evaluators, (e, record) => (e.verdictNow ? e.verdictNow(record) : explained(e, record)));
}

/** An evaluator's whole result on a record, as stored (without its name). */
export function explained(e: Evaluator, record: EvalRecord): StoredResult | Promise<StoredResult> {
  const r = e.evaluateNow(record);
  return r instanceof Promise ? r.then(stored) : stored(r);
}

function scoreItem<R extends EvalVerdict>(
  item: DatasetItem,
  evaluators: readonly Evaluator[],
  score: (e: Evaluator, record: EvalRecord) => R | Promise<R>,
): RowOutcome<R | ResultError> | Promise<RowOutcome<R | ResultError>> {
  if ("error" in item) return { row: item.row, id: null, line: item.line, results: {}, error: item.error };
  const record = item.record;
  const outcome: RowOutcome<R | ResultError> = { row: item.row, id: record["id"] ?? null, line: item.line, results: {} };
  let pending: Promise<void>[] | undefined;
  for (const e of evaluators) {
    try {
      const r = score(e, record);
      if (r instanceof Promise) {
        (pending ??= []).push(
          r.then(
            (res) => void (outcome.results[e.name] = res),
            (err: unknown) => void (outcome.results[e.name] = asError(err)),
          ),
        );
      } else outcome.results[e.name] = r;
    } catch (err) {
      outcome.results[e.name] = asError(err);
    }
  }
  if (!pending) return outcome;
  // Keep the keys in evaluator order whatever order the promises settle in.
  return Promise.all(pending).then(() => {
    const ordered: Record<string, R | ResultError> = {};
    for (const e of evaluators) ordered[e.name] = outcome.results[e.name] as R | ResultError;
    outcome.results = ordered;
    return outcome;
  });
}

function stored(r: EvalResult): StoredResult {
  return { type: r.type, score: r.score, passed: r.passed, label: r.label, reasoning: r.reasoning, skipped: r.skipped, details: r.details };
}

function asError(err: unknown): ResultError {
  if (err instanceof EvalError) return { error: err.transient ? { code: err.code, message: err.message, transient: true } : { code: err.code, message: err.message } };
  return { error: { code: "EVALUATOR_FAILED", message: err instanceof Error ? err.message : String(err) } };
}

/**
 * Serialises a verdict-only outcome's errors, all that the runner reads back from a run that keeps
 * only its summary: its results hold only the evaluators' errors. Null when the row has none.
 */
export function serializeErrors(o: RowOutcome<RowVerdict>): SerializedRow | null {
  let errors: Record<string, ResultError> | undefined;
  for (const name in o.results) {
    const r = o.results[name] as RowVerdict;
    if (isResultError(r)) (errors ??= {})[name] = r;
  }
  return errors || o.error ? serialized(o, errors ? JSON.stringify(errors) : "{}") : null;
}

/** Serialises an outcome once, for results.jsonl and the store. */
export function serializeOutcome(o: RowOutcome<RowResult>): SerializedRow {
  return serialized(o, JSON.stringify(o.results));
}

function serialized(o: RowOutcome<RowVerdict>, results: string): SerializedRow {
  return { row: o.row, line: o.line ?? null, id: JSON.stringify(o.id ?? null) ?? "null", results, error: o.error ? JSON.stringify(o.error) : null };
}
