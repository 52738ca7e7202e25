/**
 * The run store's records as SQLite gives them (a run, a row, a page of scores, a cached embedding) and their
 * conversion to what the store gives its callers ({@link RunInfo}, {@link RowOutcome}) and back (a row's `scores` column).
 */
import { cutText } from "../cut-text.js";
import { EvalError } from "../errors.js";
import type { EvaluatorSpec } from "../evaluators/spec.js";
import { scoreOf } from "../run/row-scores.js";
import type { RowOutcome, RowResult, RunInfo, RunSummary } from "../run/types.js";
import { encodeScores } from "./scores-column.js";

/** A run as the `runs` table holds it: its JSON columns unparsed, "" for no dataset ({@link NO_DATASET}). */
export interface RunRecord {
  id: string;
  name: string | null;
  started_at: string;
  finished_at: string | null;
  status: RunInfo["status"];
  dataset_path: string;
  dataset_hash: string;
  evaluators: string;
  summary: string | null;
  pid: number | null;
  host: string | null;
  stop_reason: string | null;
}

/** A row as the `rows` table holds it (without its `scores`, read only by {@link ScoresRecord}): its JSON columns unparsed. */
export interface RowRecord {
  row: number;
  id: string | null;
  line: number | null;
  results: string;
  error: string | null;
  key: string | null;
  /** JSON of the row's evaluated record (schema version 5); NULL without one. */
  record: string | null;
  /** Milliseconds since the epoch (schema version 5); NULL for rows stored before. */
  stored_at: number | null;
}

/**
 * What {@link SqliteRunStore.storedRows} tells of a run's stored rows: how many there are, how many were stored with
 * their record (see {@link RowOutcome.record}: only a run not read from a dataset file keeps them), how many with the
 * time they were stored (every row stored since schema version 5), and the first and last of those times
 * (milliseconds since the epoch), null when no row has one.
 */
export interface StoredRows {
  rows: number;
  with_record: number;
  with_time: number;
  first_stored_at: number | null;
  last_stored_at: number | null;
}

/**
 * A row as {@link SqliteRunStore.scores} reads it: row, id, scores, and results only where scores is NULL.
 * An array (better-sqlite3's raw mode): about 1 s faster a million rows than an object.
 */
export type ScoresRecord = [row: number, id: string | null, scores: string | null, results: string | null, key: string | null];

/** A cached embedding as the `embedding_cache` table holds it: the vector's bytes, and how many numbers they hold. */
export interface EmbeddingRecord {
  text_hash: string;
  dims: number;
  vector: Buffer;
}

/**
 * What the `runs` table's `dataset_path` and `dataset_hash` columns (NOT NULL since schema version 1) hold for a
 * run not read from a dataset file, whose {@link RunInfo.dataset_path} and `dataset_hash` are null: the empty
 * string, which is no dataset's path (beginRun refuses it as one, and the CLI an empty DATASET). Only beginRun
 * writes it and only {@link toRunInfo} reads it (by the path: a hash may be ""), so "" never leaves the store as a
 * path, and the table is not rebuilt.
 */
export const NO_DATASET = "";

/** A run as the store gives it; `dead` holds the runs found dead just now, with their stop reasons. `path`: the store's file, named if a JSON column is damaged. */
export function toRunInfo(r: RunRecord, dead: ReadonlyMap<string, string>, path: string): RunInfo {
  return {
    id: r.id,
    name: r.name,
    started_at: r.started_at,
    finished_at: r.finished_at,
    status: dead.has(r.id) ? "incomplete" : r.status,
    // NO_DATASET ("") in the path is a run not read from a dataset file: both are null, as beginRun was given them.
    dataset_path: r.dataset_path === NO_DATASET ? null : r.dataset_path,
    dataset_hash: r.dataset_path === NO_DATASET ? null : r.dataset_hash,
    evaluators: parseRunColumn(path, r.id, "evaluators", r.evaluators) as EvaluatorSpec[],
    summary: r.summary === null ? null : (parseRunColumn(path, r.id, "summary", r.summary) as RunSummary),
    stop_reason: r.stop_reason ?? dead.get(r.id) ?? null,
    // Only beginRun with owner "none" records no pid: every run of an older simeval has one.
    owner: r.pid === null ? "none" : "process",
    process: r.pid === null ? null : { pid: r.pid, host: r.host },
  };
}

/** The run's evaluator names, in its order (the order of its rows' `scores`). */
export function evaluatorNames(run: RunRecord, path: string): string[] {
  return runEvaluators(run, path).map((e) => e.name);
}

/** The run's evaluators, each its name and type, in its order: a result's evaluator, for the scores its type can give. */
export function runEvaluators(run: RunRecord, path: string): { name: string; type: string }[] {
  return (parseRunColumn(path, run.id, "evaluators", run.evaluators) as EvaluatorSpec[]).map((s) => ({ name: s.name ?? s.type, type: s.type }));
}

/**
 * `text`, the JSON of column `column` of run `runId` in the file `path`, parsed. STORE_FAILED naming them when it is
 * no JSON, which only a damaged file or one edited by hand holds: a bare SyntaxError ("could not list runs: Unexpected
 * end of JSON input") named neither the run nor the column, nor said that the file was at fault.
 */
function parseRunColumn(path: string, runId: string, column: "evaluators" | "summary", text: string): unknown {
  return parseStoredJson(() => `${path}: run ${runId}`, column, text, "the database file is damaged or was edited by hand: restore it from a copy");
}

/**
 * `text` parsed, or STORE_FAILED saying that `place()` holds it in `column`, which is not JSON, and then `blame`. The
 * place is made only on failure: this runs for every row a comparison reads, where building it each time took about
 * 0.8 s and 45 MB more on two runs of 1M rows.
 */
function parseStoredJson(place: () => string, column: string, text: string, blame: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new EvalError("STORE_FAILED", `${place()} holds ${column} ${JSON.stringify(cutText(text, 40))}, which is not JSON (${why}); ${blame}`);
  }
}

/**
 * An outcome's `scores` column: its results' pairable scores in the run's evaluator order, or NULL
 * (read from `results` instead) when its results are not exactly the run's evaluators, or it has none.
 */
export function outcomeScores(r: Pick<RowOutcome, "results" | "error">, names: readonly string[]): string | null {
  const keys = Object.keys(r.results);
  if (r.error !== undefined || keys.length !== names.length || !names.every((n) => n in r.results)) return null;
  return encodeScores(names.map((n) => scoreOf(r.results[n])));
}

/** Row `r` of run `runId` in the file `path`, its JSON columns parsed (see {@link parseColumn}). */
export function toRowOutcome(r: RowRecord, path: string, runId: string): RowOutcome {
  const parse = (column: string, text: string) => parseColumn(path, runId, r.row, column, text);
  const out: RowOutcome = {
    row: r.row,
    id: r.id === null ? undefined : parse("id", r.id),
    results: parse("results", r.results) as Record<string, RowResult>,
  };
  if (r.line !== null) out.line = r.line;
  if (r.error !== null) out.error = parse("error", r.error) as { code: string; message: string };
  if (r.key !== null) out.key = r.key;
  if (r.record !== null) out.record = parse("record", r.record) as Record<string, unknown>;
  if (r.stored_at !== null) out.stored_at = r.stored_at;
  return out;
}

/**
 * `text`, the JSON of column `column` of row `row` of run `runId` in the file `path`, parsed. STORE_FAILED naming
 * them when it is no JSON, which a SerializedRow given to addRows (stored unchecked) can make
 * (`{ row, id: "trace-1", results: "{…}" }`: a SerializedRow's `id` is JSON text):
 * a SyntaxError from JSON.parse named neither, and escaped rows(), summarizeStoredRun and `simeval finish` as it was.
 */
export function parseColumn(path: string, runId: string, row: number, column: string, text: string): unknown {
  return parseStoredJson(() => `${path}: row ${row} of run ${runId}`, column, text, "it was stored so as a SerializedRow's JSON, which addRows stores unchecked, or the file is damaged");
}
