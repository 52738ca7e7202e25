/**
 * The checks of what callers hand the run store, other than rows (see check-rows.ts): a run's id, its meta and
 * owner, a summary, options. Each throws an EvalError naming the argument, what it was, and what was expected.
 */
import { argumentError, EvalError, isPlainObject } from "../errors.js";
import type { EvaluatorSpec } from "../evaluators/spec.js";
import { isRunName, RUN_NAME_EXPECTED } from "./run-name.js";
import type { RunOwner } from "./store.js";

/** An EvalError for an argument of {@link openSqliteStore} (`openSqliteStore: path must be …, received …`). */
export function argumentInvalid(code: "INPUT_INVALID" | "CONFIG_INVALID", arg: string, expected: string, value: unknown): EvalError {
  return argumentError(code, "openSqliteStore", arg, expected, value, arg === "path" ? ["path"] : [1]);
}

/**
 * Throws INPUT_INVALID naming the field unless `meta` is an object whose `name` is a string or null and whose
 * `dataset_path` and `dataset_hash` are both strings, the path not empty, or both null (a run not read from a
 * dataset file): SQLite would store a number as text ("5.0") and read back another name, an empty path is how the
 * store records no dataset ({@link NO_DATASET}), and a hash without a path (or a path without a hash) names no
 * dataset a reader could use.
 */
export function checkRunMeta(meta: unknown): void {
  const bad = (arg: string, expected: string, value: unknown) => argumentError("INPUT_INVALID", "beginRun", arg, expected, value);
  if (!isPlainObject(meta)) throw bad("meta", "an object ({ name, dataset_path, dataset_hash, evaluators })", meta);
  if (meta["name"] !== null && !isRunName(meta["name"])) throw bad("meta.name", `null or ${RUN_NAME_EXPECTED}`, meta["name"]);
  if (meta["dataset_path"] !== null && (typeof meta["dataset_path"] !== "string" || meta["dataset_path"] === "")) {
    throw bad("meta.dataset_path", "a non-empty string, or null for a run not read from a dataset file", meta["dataset_path"]);
  }
  if (meta["dataset_hash"] !== null && typeof meta["dataset_hash"] !== "string") {
    throw bad("meta.dataset_hash", "a string, or null for a run not read from a dataset file", meta["dataset_hash"]);
  }
  // One null beside a string: the null one is named, as what was left out (a service's run gives both null).
  if (meta["dataset_path"] === null && meta["dataset_hash"] !== null) {
    throw bad("meta.dataset_path", "a string (the dataset file's path), as meta.dataset_hash is; both are null only for a run not read from a dataset file", null);
  }
  if (meta["dataset_hash"] === null && meta["dataset_path"] !== null) {
    throw bad("meta.dataset_hash", "a string (the sha256 of the dataset file), as meta.dataset_path is; both are null only for a run not read from a dataset file", null);
  }
}

/**
 * Throws CONFIG_INVALID naming the first spec of a run not read from a dataset file that has `"idf": "dataset"`:
 * its IDF is fitted on a dataset file's expected texts, which such a run has none of. A caller could give one of its
 * own (`EvaluatorEnv.datasetIdf`), but the run would record it nowhere: another process building the run's
 * evaluators from its specs could not score it alike, so it is refused.
 */
export function refuseDatasetIdf(specs: readonly EvaluatorSpec[]): void {
  const i = specs.findIndex((s) => s.config?.["idf"] === "dataset");
  if (i < 0) return;
  const message = `evaluator ${JSON.stringify(specs[i]?.name)} (${specs[i]?.type}) has "idf": "dataset", fitted on a dataset file's expected texts, which a run not read from one (dataset_path null) has none of: the IDF its scores used would be recorded nowhere, so no process could score the run again from its specs; use "idf": "pair"`;
  throw new EvalError("CONFIG_INVALID", `beginRun: meta.evaluators[${i}].config.idf: ${message}`, { issues: [{ path: ["evaluators", i, "config", "idf"], message, received: '"dataset"' }] });
}

/**
 * Throws INPUT_INVALID naming `summary` (for `fn`) unless it is an object with an `evaluators` array (or null, when
 * `nullable`): a run was recorded with 5 or "x" as its summary, and `simeval show` failed on it with a TypeError.
 */
export function checkSummary(fn: string, summary: unknown, nullable: boolean): void {
  if (nullable && summary === null) return;
  if (isPlainObject(summary) && Array.isArray(summary["evaluators"])) return;
  const expected = `a RunSummary ({ rows, row_errors, skipped_as_zero, evaluators: [...] }, as summarizeStoredRun makes)${nullable ? " or null" : ""}`;
  throw argumentError("INPUT_INVALID", fn, "summary", expected, summary);
}

/** `opts.owner` of {@link SqliteRunStore.beginRun}, checked: "process" when not given. */
export function runOwner(opts: unknown): RunOwner {
  if (opts === undefined) return "process";
  if (!isPlainObject(opts)) throw argumentError("CONFIG_INVALID", "beginRun", "opts", "an object ({ owner? }) or nothing", opts, ["opts"]);
  const owner = opts["owner"];
  if (owner === undefined || owner === "process" || owner === "none") return owner ?? "process";
  throw argumentError("CONFIG_INVALID", "beginRun", "opts.owner", '"process" (the default: the run is this process\'s), "none" (no process\'s) or nothing', owner, ["opts", "owner"]);
}

/**
 * Throws INPUT_INVALID naming `runId` of method `fn` unless it is a non-empty string: `{}` or `true` were STORE_FAILED
 * with SQLite's words ("Too few parameter values were provided"), and a missing one said there was no run "undefined".
 */
export function checkRunId(fn: string, runId: unknown): void {
  if (typeof runId !== "string" || runId === "") throw argumentError("INPUT_INVALID", fn, "runId", "a run's id (a non-empty string)", runId);
}

/**
 * Throws CONFIG_INVALID naming the option of {@link SqliteRunStore.deleteRun} that is of the wrong kind: `force: "no"`,
 * being truthy, deleted a run still being recorded, and `onProgress: 5` failed with a TypeError once the run was gone.
 */
export function checkDeleteOptions(opts: unknown): void {
  const bad = optionInvalid("deleteRun");
  if (!isPlainObject(opts)) throw bad("opts", "an object ({ onProgress?, force?, signal? }) or nothing", opts);
  const { onProgress, force, signal } = opts;
  if (force !== undefined && typeof force !== "boolean") throw bad("opts.force", "a boolean or nothing", force);
  if (onProgress !== undefined && typeof onProgress !== "function") throw bad("opts.onProgress", "a function or nothing", onProgress);
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw bad("opts.signal", "an AbortSignal or nothing", signal);
}

/**
 * `opts` of {@link SqliteRunStore.rows} checked, with its defaults: every row, records read. Throws CONFIG_INVALID
 * naming the option that is of the wrong kind.
 */
export function rowsOptions(opts: unknown): { records: boolean; after: number; limit: number } {
  const bad = optionInvalid("rows");
  if (!isPlainObject(opts)) throw bad("opts", "an object ({ records?, after?, limit? }) or nothing", opts);
  const { records = true, after = Number.MIN_SAFE_INTEGER, limit = Number.MAX_SAFE_INTEGER } = opts;
  if (typeof records !== "boolean") throw bad("opts.records", "a boolean or nothing", records);
  if (!Number.isSafeInteger(after)) throw bad("opts.after", "a whole number (the last row number of the page before) or nothing", after);
  if (!isCount(limit)) throw bad("opts.limit", "a whole number from 1 or nothing", limit);
  return { records, after: after as number, limit: limit as number };
}

/**
 * `opts` of {@link SqliteRunStore.listRuns} checked: `after` (a run id, or undefined) and `limit` (-1 for every run,
 * as SQLite's LIMIT takes it). Throws CONFIG_INVALID naming the option that is of the wrong kind.
 */
export function listRunsOptions(opts: unknown): { after: string | undefined; limit: number } {
  const bad = optionInvalid("listRuns");
  if (!isPlainObject(opts)) throw bad("opts", "an object ({ after?, limit? }) or nothing", opts);
  const { after, limit } = opts;
  if (after !== undefined && (typeof after !== "string" || after === "")) throw bad("opts.after", "a run's id (the last run of the page before) or nothing", after);
  if (limit !== undefined && !isCount(limit)) throw bad("opts.limit", "a whole number from 1 or nothing", limit);
  return { after, limit: limit ?? -1 };
}

/** The CONFIG_INVALID for an option of method `fn` (`opts.limit`) that is of the wrong kind, as {@link argumentError} words it. */
function optionInvalid(fn: string): (arg: string, expected: string, value: unknown) => EvalError {
  return (arg, expected, value) => argumentError("CONFIG_INVALID", fn, arg, expected, value);
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1;
}
