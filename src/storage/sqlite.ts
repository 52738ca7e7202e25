import { readlinkSync } from "node:fs";
import { hostname } from "node:os";
import type Database from "better-sqlite3";
import { cutText } from "../cut-text.js";
import { nonFiniteIn } from "../non-finite.js";
import { argumentError, EvalError, formatPath, isPlainObject } from "../errors.js";
import { checkEvaluatorSpecs } from "../evaluators/create.js";
import type { EvaluatorSpec } from "../evaluators/spec.js";
import { scoresOfOutcome, scoreOf, type RowScores } from "../run/row-scores.js";
import type { RowOutcome, RowResult, RunInfo, RunSummary, SerializedRow } from "../run/types.js";
import { BUSY_TIMEOUT_MS, fileIdentity, openDatabase, storeError } from "./open-database.js";
import { newRunId } from "./run-id.js";
import { isRunName, RUN_NAME_EXPECTED } from "./run-name.js";
import { decodeScores, encodeScores } from "./scores-column.js";
import { CLOSED_UNFINISHED, processGone, type AppendedRow, type BeginRunOptions, type DeletedRun, type DeleteRunOptions, type FinishRunOptions, type RowsOptions, type RunMeta, type RunOwner, type RunStore, type UnnumberedRow } from "./store.js";

/** Where the CLI keeps its runs, relative to the working directory. */
export const DEFAULT_STORE_PATH = ".simeval/simeval.db";

/** Most rows read per query by {@link SqliteRunStore.rows} and {@link SqliteRunStore.scores}. */
const PAGE_ROWS = 1_000;

/** Rows of the first page, whose width is not known yet: 100 rows of 200 evaluators' results are about 40 MB. */
const FIRST_PAGE_ROWS = 100;

/**
 * Characters of stored text a page aims at (2 Mi: 2 MiB as V8 holds Latin-1 text, twice that when a string
 * holds any other character), and several times that once parsed. A row's results grow with the evaluators:
 * 1,000 rows of a 200-evaluator config are about 97 million characters, which held the read of `--junit` at
 * 400 MB of heap where 20 evaluators took 40 MB. Short rows (4 evaluators, about 1,700 characters) still come
 * {@link PAGE_ROWS} at a time; 8 Mi held about 60 MB more at 200 evaluators and was no faster.
 */
const PAGE_CHARS = 2 * 2 ** 20;

/**
 * Results (rows × evaluators) a page of whole rows holds at most, whatever the last page's width: a run
 * whose first rows are narrow (failed, say) and later ones wide would otherwise read 1,000 wide rows at once,
 * about 400 MB of heap at 200 evaluators.
 */
const PAGE_RESULTS = 4_000;

/** The most rows a page of a run with `evaluators` evaluators holds: {@link PAGE_ROWS} up to 4, 20 at 200. */
export function rowsForResults(evaluators: number): number {
  return Math.max(1, Math.min(PAGE_ROWS, Math.floor(PAGE_RESULTS / Math.max(1, evaluators))));
}

/**
 * The rows to ask for in the next page, given the rows and the characters of stored text the last page
 * held: as many as {@link PAGE_CHARS} holds at that width, from 1 to {@link PAGE_ROWS}.
 */
export function nextPageRows(rows: number, chars: number): number {
  if (rows <= 0 || chars <= 0) return PAGE_ROWS;
  return Math.max(1, Math.min(PAGE_ROWS, Math.floor((rows * PAGE_CHARS) / chars)));
}

/**
 * Rows deleted per transaction by {@link SqliteRunStore.deleteRun}: each holds the write lock for under
 * 0.1 s (measured). Deleting a run's rows at once held it 2.6 s per 300,000 rows, so a large run would
 * make another process's writer give up after {@link BUSY_TIMEOUT_MS}.
 */
export const DELETE_CHUNK_ROWS = 10_000;

/**
 * Runs begun by this process and not yet finished, over every store instance. A run whose recorded pid
 * is our own pid but which is not in here was begun by an earlier process that had the same pid (in a
 * container the CLI is often pid 1 every time), so it is dead.
 */
const RUNS_OF_THIS_PROCESS = new Set<string>();

/**
 * Where this process's pids mean something, as `runs.host` records it: the host name and, on Linux, the
 * pid namespace (`build-7 pid:[4026531836]`). Containers may share a host name (Docker's `--network host`,
 * Kubernetes' `hostNetwork`) while each has pids of its own: a writer's pid is looked up only where it
 * was recorded, since in another namespace it names no process, and a live run would be taken as dead.
 */
export const THIS_HOST = hostIdentity();

function hostIdentity(): string {
  try {
    return `${hostname()} ${readlinkSync("/proc/self/ns/pid")}`;
  } catch {
    return hostname(); // not Linux, or no /proc
  }
}

interface RunRecord {
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

interface RowRecord {
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
type ScoresRecord = [row: number, id: string | null, scores: string | null, results: string | null, key: string | null];

interface EmbeddingRecord {
  text_hash: string;
  dims: number;
  vector: Buffer;
}

/**
 * What the `runs` table's `dataset_path` and `dataset_hash` columns (NOT NULL since schema version 1) hold for a
 * run not read from a dataset file, whose {@link RunInfo.dataset_path} and `dataset_hash` are null: the empty
 * string, which is no dataset's path (beginRun refuses it as one, and the CLI an empty DATASET). Only beginRun
 * writes it and only {@link toRunInfo} reads it (by the path: a hash may be ""), so "" never leaves this file as a
 * path, and the table is not rebuilt.
 */
const NO_DATASET = "";

const RUN_COLUMNS = "id, name, started_at, finished_at, status, dataset_path, dataset_hash, evaluators, summary, pid, host, stop_reason";
const NEWEST_FIRST = "ORDER BY started_at DESC, id DESC";
/** The columns of a {@link RowRecord}. */
const ROW_COLUMNS = "row, id, line, results, error, key, record, stored_at";

function prepareStatements(db: Database.Database) {
  return {
    insertRun: db.prepare<[string, string | null, string, string, string, string, number | null, string | null]>(
      `INSERT INTO runs (id, name, started_at, status, dataset_path, dataset_hash, evaluators, pid, host)
       VALUES (?, ?, ?, 'running', ?, ?, ?, ?, ?)`,
    ),
    runById: db.prepare<[string], RunRecord>(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = ?`),
    runsByPrefix: db.prepare<{ prefix: string; limit: number }, RunRecord>(
      `SELECT ${RUN_COLUMNS} FROM runs WHERE substr(id, 1, length(@prefix)) = @prefix ${NEWEST_FIRST} LIMIT @limit`,
    ),
    runByName: db.prepare<[string], RunRecord>(`SELECT ${RUN_COLUMNS} FROM runs WHERE name = ? ${NEWEST_FIRST} LIMIT 1`),
    allRuns: db.prepare<[], RunRecord>(`SELECT ${RUN_COLUMNS} FROM runs ${NEWEST_FIRST}`),
    runningRuns: db.prepare<[], Pick<RunRecord, "id" | "pid" | "host">>(`SELECT id, pid, host FROM runs WHERE status = 'running'`),
    finish: db.prepare<[string, string, string]>(
      `UPDATE runs SET status = 'complete', finished_at = ?, summary = ? WHERE id = ? AND status = 'running'`,
    ),
    abort: db.prepare<[string, string | null, string, string]>(
      `UPDATE runs SET status = 'incomplete', finished_at = ?, summary = coalesce(?, summary), stop_reason = ? WHERE id = ? AND status = 'running'`,
    ),
    markDead: db.prepare<[string, string]>(`UPDATE runs SET status = 'incomplete', stop_reason = coalesce(stop_reason, ?) WHERE id = ? AND status = 'running'`),
    insertRow: db.prepare<[string, number, string | null, number | null, string, string | null, string | null, string | null, string | null, number]>(
      `INSERT INTO rows (run_id, row, id, line, results, error, scores, key, record, stored_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    // A seek in rows_by_key (`key = ?` implies the index's `key IS NOT NULL`).
    rowNumberByKey: db.prepare<[string, string], number>(`SELECT row FROM rows WHERE run_id = ? AND key = ?`).pluck(),
    // The same seek, then the row's record.
    rowByKey: db.prepare<[string, string], RowRecord>(`SELECT ${ROW_COLUMNS} FROM rows WHERE run_id = ? AND key = ?`),
    // One seek at the end of the run's part of the primary key: the number appendRows gives next, less one.
    lastRow: db.prepare<[string], number>(`SELECT row FROM rows WHERE run_id = ? ORDER BY row DESC LIMIT 1`).pluck(),
    rowPage: db.prepare<[string, number, number], RowRecord>(
      `SELECT ${ROW_COLUMNS} FROM rows WHERE run_id = ? AND row > ? ORDER BY row LIMIT ?`,
    ),
    // The same without the record, which a reader that needs none is spared reading and parsing (`rows(id, { records: false })`).
    rowPageWithoutRecord: db.prepare<[string, number, number], RowRecord>(
      `SELECT ${ROW_COLUMNS.replace("record", "NULL AS record")} FROM rows WHERE run_id = ? AND row > ? ORDER BY row LIMIT ?`,
    ),
    scoresPage: db
      .prepare<[string, number, number], ScoresRecord>(
        `SELECT row, id, scores, iif(scores IS NULL, results, NULL), key FROM rows WHERE run_id = ? AND row > ? ORDER BY row LIMIT ?`,
      )
      .raw(true),
    deleteRun: db.prepare<[string]>(`DELETE FROM runs WHERE id = ?`),
    rowCount: db.prepare<[string], number>(`SELECT count(*) FROM rows WHERE run_id = ?`).pluck(),
    // The run's part of the primary key, each row's record and stored_at read from the table. INDEXED BY (the primary
    // key's index): statistics taken when one run held every row (ANALYZE, run by `PRAGMA optimize`, rarely runs again)
    // made SQLite scan the whole table, every run's rows, for this run's.
    storedRows: db.prepare<[string], StoredRows>(
      `SELECT count(*) AS rows, count(record) AS with_record, count(stored_at) AS with_time, min(stored_at) AS first_stored_at, max(stored_at) AS last_stored_at
       FROM rows INDEXED BY sqlite_autoindex_rows_1 WHERE run_id = ?`,
    ),
    deleteRowChunk: db.prepare<[string, number]>(`DELETE FROM rows WHERE rowid IN (SELECT rowid FROM rows WHERE run_id = ? LIMIT ?)`),
    // One index seek per run that has rows: finds rows whose run was deleted by an interrupted deleteRun.
    nextRowsRunId: db.prepare<[string], string>(`SELECT run_id FROM rows WHERE run_id > ? ORDER BY run_id LIMIT 1`).pluck(),
    runExists: db.prepare<[string], number>(`SELECT 1 FROM runs WHERE id = ?`).pluck(),
    clearSetting: db.prepare<[string, string]>(`DELETE FROM settings WHERE key = ? AND value = ?`),
    freePages: db.prepare<[], number>(`PRAGMA freelist_count`).pluck(),
    pageSize: db.prepare<[], number>(`PRAGMA page_size`).pluck(),
    getSetting: db.prepare<[string], string>(`SELECT value FROM settings WHERE key = ?`).pluck(),
    putSetting: db.prepare<[string, string]>(
      `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    ),
    getEmbeddings: db.prepare<[string, string, string], EmbeddingRecord>(
      `SELECT text_hash, dims, vector FROM embedding_cache
       WHERE provider = ? AND model = ? AND text_hash IN (SELECT value FROM json_each(?))`,
    ),
    putEmbedding: db.prepare<[string, string, string, number, Buffer]>(
      `INSERT INTO embedding_cache (provider, model, text_hash, dims, vector) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (provider, model, text_hash) DO UPDATE SET dims = excluded.dims, vector = excluded.vector`,
    ),
  };
}

/**
 * Opens (creating it and its parent directories when missing) the SQLite run store at `path`, e.g.
 * {@link DEFAULT_STORE_PATH}, and migrates it to the current schema. Several processes may open the same
 * file: WAL journal (readers never block the writer), `busy_timeout` {@link BUSY_TIMEOUT_MS} ms, and
 * `synchronous=NORMAL` (a committed batch survives the process being killed; only an OS crash or power
 * loss can lose the last batches, never corrupt the file). The processes must share one host: WAL needs
 * shared memory, so a store on a network file system is not supported. `":memory:"` gives a private
 * in-memory store.
 *
 * Throws `EvalError("USAGE")` naming `path` when it is a directory, a file that is not a SQLite
 * database, another program's database, or one written by a newer simeval (a path this build cannot use:
 * a bad argument, not a runtime failure), and `EvalError("STORE_FAILED")` when the file cannot be created.
 * A `path` that is not a non-empty string throws INPUT_INVALID, and a second argument (there are no
 * options) CONFIG_INVALID, naming them: 5 was STORE_FAILED with node's message, and a second argument ignored.
 */
export function openSqliteStore(path: string): SqliteRunStore {
  if (typeof path !== "string" || path === "") {
    throw argumentInvalid("INPUT_INVALID", "path", 'the path of a SQLite database file (a non-empty string) or ":memory:"', path);
  }
  // Not a parameter, so that TypeScript callers see none: a JavaScript caller may pass options that do not exist.
  const extra: unknown = arguments[1];
  if (extra !== undefined) throw argumentInvalid("CONFIG_INVALID", "a second argument", "nothing (it takes only a path)", extra);
  return new SqliteRunStore(path);
}

/** An EvalError for an argument of {@link openSqliteStore} (`openSqliteStore: path must be …, received …`). */
function argumentInvalid(code: "INPUT_INVALID" | "CONFIG_INVALID", arg: string, expected: string, value: unknown): EvalError {
  return argumentError(code, "openSqliteStore", arg, expected, value, arg === "path" ? ["path"] : [1]);
}

/**
 * The {@link RunStore} of the CLI: one SQLite file. Every write is one `BEGIN IMMEDIATE` transaction,
 * so a batch of rows is all there or not at all, and writers queue on the lock instead of failing.
 * The methods return promises, as {@link RunStore} asks; better-sqlite3 does the work at once, on this thread.
 * Also holds the embedding cache ({@link getEmbeddings} / {@link putEmbeddings}), synchronous for the scoring threads.
 */
export class SqliteRunStore implements RunStore {
  /** The database file, as given. */
  readonly path: string;
  readonly #db: Database.Database;
  /** The device and inode of the file opened at {@link path} (null for `:memory:`): see {@link #requireSameFile}. */
  readonly #file: { dev: number; ino: number } | null;
  readonly #q: ReturnType<typeof prepareStatements>;
  /** Runs begun here and still running: {@link close} marks them incomplete. */
  readonly #mine = new Set<string>();
  readonly #addRowsTx: Database.Transaction<(runId: string, rows: readonly (RowOutcome | SerializedRow)[], span: string, storedAt: number) => void>;
  readonly #appendRowsTx: Database.Transaction<
    (runId: string, rows: readonly UnnumberedOutcome[], records: readonly (string | null)[], doing: string, storedAt: number) => AppendedRow[]
  >;
  readonly #putEmbeddingsTx: Database.Transaction<
    (provider: string, model: string, entries: Iterable<readonly [string, Float32Array]>) => void
  >;

  /** Prefer {@link openSqliteStore}. */
  constructor(path: string) {
    this.path = path;
    this.#db = openDatabase(path);
    this.#file = this.#guard("open the run store", () => (path === ":memory:" ? null : fileIdentity(path)));
    this.#q = prepareStatements(this.#db);
    this.#addRowsTx = this.#db.transaction((runId: string, rows: readonly (RowOutcome | SerializedRow)[], span: string, storedAt: number) => {
      const names = evaluatorNames(this.#requireRunning(runId, `add ${span} to it`));
      for (const [i, r] of rows.entries()) this.#insertRow({ fn: "addRows", i }, runId, r.row, r, names, null, storedAt);
    });
    this.#appendRowsTx = this.#db.transaction((runId: string, rows: readonly UnnumberedOutcome[], records: readonly (string | null)[], doing: string, storedAt: number) => {
      // A batch the run holds already, every row by its key, is a redelivery: its numbers, whatever the run's status now.
      // Not once the run is deleted: its rows go after it, in chunks (or stay, after an interrupted deletion), and
      // their keys would answer for a run that no longer exists (then #requireRunning says there is no such run).
      const delivered = this.#q.runExists.get(runId) === undefined ? undefined : this.#storedNumbers(runId, rows);
      if (delivered) return delivered;
      const names = evaluatorNames(this.#requireRunning(runId, doing));
      refuseUnknownResults(runId, names, rows);
      // Under the write lock (BEGIN IMMEDIATE): no other process can append between this read and the inserts.
      let next = (this.#q.lastRow.get(runId) ?? 0) + 1;
      const appended: AppendedRow[] = [];
      for (const [i, r] of rows.entries()) {
        const key = r.key;
        // An earlier row of this batch is found too: the transaction reads its own inserts.
        const stored = key === undefined ? undefined : this.#q.rowNumberByKey.get(runId, key);
        if (stored !== undefined) {
          appended.push({ row: stored, added: false }); // delivered before: its row stands
          continue;
        }
        this.#insertRow({ fn: "appendRows", i }, runId, next, r, names, records[i] ?? null, storedAt);
        appended.push({ row: next++, added: true });
      }
      return appended;
    });
    this.#putEmbeddingsTx = this.#db.transaction(
      (provider: string, model: string, entries: Iterable<readonly [string, Float32Array]>) => {
        for (const [hash, v] of entries) {
          this.#q.putEmbedding.run(provider, model, hash, v.length, Buffer.from(v.buffer, v.byteOffset, v.byteLength));
        }
      },
    );
  }

  /**
   * Records a new run as running. With `opts.owner` `"process"` (the default) it records this process's pid
   * and {@link THIS_HOST}, so that a reader finds the run dead once this process is gone, and {@link close}
   * marks it incomplete. With `"none"` it records neither (NULL: no reader can tell its writer dead, as with a
   * run of another host) and {@link close} leaves it: it stays running until any process finishes or aborts it
   * (a service's run, recorded by many processes), and `deleteRun` refuses it meanwhile unless `force`.
   * Refuses (CONFIG_INVALID, naming it) an `opts` that is not an object or an `owner` that is neither, and
   * `meta.evaluators` that would not make evaluators, with the error `createEvaluators` would throw for them
   * (every issue; see `checkEvaluatorSpecs`), recording nothing: every process that scores or summarizes the run
   * builds its evaluators from the recorded specs, and would fail only then. Nothing is built, so no API key is needed.
   * The specs are recorded as `simeval run` records them, named and with every config default filled in, so that a
   * run reads back the same settings after a later simeval changes a default.
   * `meta.dataset_path` and `meta.dataset_hash` are both null for a run not read from a dataset file (a service's,
   * scoring traces), stored as "" (see {@link NO_DATASET}).
   */
  async beginRun(meta: RunMeta, opts?: BeginRunOptions): Promise<string> {
    const owned = runOwner(opts) === "process";
    checkRunMeta(meta);
    const specs = checkEvaluatorSpecs(meta.evaluators);
    if (meta.dataset_path === null) refuseDatasetIdf(specs);
    return this.#guard("begin a run", () => {
      const now = Date.now();
      const id = newRunId(now);
      this.#q.insertRun.run(
        id,
        meta.name,
        new Date(now).toISOString(),
        meta.dataset_path ?? NO_DATASET,
        meta.dataset_hash ?? NO_DATASET,
        JSON.stringify(specs),
        owned ? process.pid : null,
        owned ? THIS_HOST : null,
      );
      if (owned) {
        RUNS_OF_THIS_PROCESS.add(id);
        this.#mine.add(id);
      }
      return id;
    });
  }

  /**
   * One transaction per call: after a kill, a batch is either wholly stored or absent. A {@link SerializedRow}'s
   * JSON is stored as it is, unchecked. A row's `key` is stored with it (so that rows read from
   * one run and added to another keep theirs); a key the run already holds fails the batch, as a row number
   * written twice does. Every row gets `stored_at` `Date.now()`, read once per call (a row's own is not kept), and
   * no `record`: these are rows of a dataset file, which holds their records (so the runner's per-row cost is unchanged).
   */
  async addRows(runId: string, rows: readonly (RowOutcome | SerializedRow)[]): Promise<void> {
    checkRunId("addRows", runId);
    if (rows.length === 0) return;
    let lo = Infinity;
    let hi = -Infinity;
    for (const [i, r] of rows.entries()) {
      // A row's 1-based number in its dataset keys it: a 0, a fraction or a "3" would be stored as given.
      if (!Number.isSafeInteger(r?.row) || r.row < 1) throw argumentError("INPUT_INVALID", "addRows", `rows[${i}].row`, "a whole number from 1 (the row's number in its dataset)", r?.row, ["rows", i, "row"]);
      checkKey("addRows", r, i);
      checkResults("addRows", r, i);
      lo = Math.min(lo, r.row);
      hi = Math.max(hi, r.row);
    }
    const span = lo === hi ? `row ${lo}` : `rows ${lo}..${hi}`;
    this.#guard(`add ${span} to run ${runId}`, () => {
      this.#requireSameFile();
      this.#addRowsTx.immediate(runId, rows, span, Date.now());
    });
  }

  /**
   * Appends `rows` numbered by the store, in one `BEGIN IMMEDIATE` transaction: the first gets the run's
   * largest row number so far plus one (1 for a run without rows), the next one more, and so on. The
   * number is read under the write lock that the insert holds, so processes appending to one run at once
   * queue on it and get consecutive numbers with no gap and no collision. Resolves to one `{ row, added }`
   * per given row, in the order of `rows` (`[]` for no rows, touching nothing). A batch is stored whole or not at all.
   *
   * A row with a `key` the run already holds, or that an earlier row of the batch has, is not stored and
   * takes no number: its entry is the stored row's number with `added: false`, and the stored row stands
   * unchanged (whatever this one holds). So a trace delivered twice by a queue is recorded once, and the caller
   * learns where and that it was not new (so it repeats no side effect). Rows without a key are all stored.
   *
   * Each stored row keeps its `record` (see {@link RowOutcome.record}) as `JSON.stringify` writes it, made before the
   * write lock is taken, and gets `stored_at`: `Date.now()` once per call, read before the write lock is waited
   * for, so the rows of one batch share it. A row's own `stored_at` (a row read from another run and passed on
   * without its `row`) is not kept, as {@link addRows} keeps none.
   *
   * Refuses (INPUT_INVALID, naming it) a row that is not an object, has a `row` (the store numbers them), has
   * `results` that are neither an object (whose every value is an object, its `score`, `passed`, `skipped` and `error` of their kinds when given: see `checkResults`) nor a string of JSON
   * of one (a {@link SerializedRow}, whose `id` and `error` must then be JSON too, and whose `scores` are made from its results: see `parsedSerializedRow`), a result
   * under a name that is none of the run's evaluators', a `line` that is not null or a whole number from 1, a `key` that is not a non-empty string, or a
   * `record` that is not a plain object whose JSON is an object (see `recordJson`); `STORE_FAILED` a run that is
   * unknown, or not running when the batch holds a row the run has not stored. A batch whose every row has a key
   * the run holds is answered with their numbers even once the run has finished: a queue that delivers a trace
   * again after the run ended gets a no-op, not an error.
   */
  async appendRows(runId: string, given: readonly UnnumberedRow[]): Promise<AppendedRow[]> {
    checkRunId("appendRows", runId);
    const rows = checkUnnumberedRows(given);
    if (rows.length === 0) return [];
    // Made before the write lock is taken: a record's JSON is the largest part of a trace's row.
    const records = rows.map((r, i) => recordJson(r, i));
    const what = rows.length === 1 ? "a row" : `${rows.length.toLocaleString("en-US")} rows`;
    return this.#guard(`append ${what} to run ${runId}`, () => {
      this.#requireSameFile();
      return this.#appendRowsTx.immediate(runId, rows, records, `append ${what} to it`, Date.now());
    });
  }

  /** The stored numbers of `rows` (none added) when every one has a key that run `runId` holds, else undefined. */
  #storedNumbers(runId: string, rows: readonly UnnumberedRow[]): AppendedRow[] | undefined {
    const numbers: AppendedRow[] = [];
    for (const { key } of rows) {
      const stored = key === undefined ? undefined : this.#q.rowNumberByKey.get(runId, key);
      if (stored === undefined) return undefined;
      numbers.push({ row: stored, added: false });
    }
    return numbers;
  }

  /**
   * Inserts one row as number `row` of the run whose evaluators are `names` (inside a write transaction), with
   * its record's JSON `record` (or null) and `storedAt` (milliseconds since the epoch). `at` names the row given
   * (`rows[i]` of method `fn`) in the INPUT_INVALID of an `id`, `results` or `error` that has no JSON (see {@link rowJson}).
   */
  #insertRow(at: { fn: string; i: number }, runId: string, row: number, r: UnnumberedRow, names: readonly string[], record: string | null, storedAt: number): void {
    const insert = this.#q.insertRow;
    const key = r.key ?? null;
    if (isSerialized(r)) {
      // Scores that are not one per evaluator are not kept: the results, always kept, are read instead.
      // A row given to addRows by hand may leave out what the runner's always has (id, line, error): stored as NULL.
      insert.run(runId, row, r.id ?? null, r.line ?? null, r.results, r.error ?? null, r.scores?.length === names.length ? encodeScores(r.scores) : null, key, record, storedAt);
    } else {
      insert.run(
        runId,
        row,
        r.id === undefined ? null : (rowJson(at, "id", r.id) ?? null),
        r.line ?? null,
        rowJson(at, "results", r.results) as string,
        r.error === undefined ? null : (rowJson(at, "error", r.error) ?? null),
        outcomeScores(r, names),
        key,
        record,
        storedAt,
      );
    }
  }

  /**
   * Marks the run complete with `summary`. With `opts.rows`, only when the run stores exactly that many rows,
   * counted under the write lock of the update (`BEGIN IMMEDIATE`), so no row can be appended in between:
   * otherwise it resolves false and the run stays running (see {@link RunStore.finishRun}). A `summary` that is
   * no {@link RunSummary} is INPUT_INVALID (see {@link checkSummary}).
   */
  async finishRun(runId: string, summary: RunSummary, opts?: FinishRunOptions): Promise<boolean> {
    checkRunId("finishRun", runId);
    checkSummary("finishRun", summary, false);
    const rows = opts?.rows;
    if (rows !== undefined && (!Number.isSafeInteger(rows) || rows < 0)) {
      throw argumentError("INPUT_INVALID", "finishRun", "opts.rows", "nothing or a whole number from 0 (the rows the summary covers)", rows, ["opts", "rows"]);
    }
    return this.#guard(`finish run ${runId}`, () => {
      this.#requireSameFile();
      return this.#db
        .transaction(() => {
          if (rows !== undefined && this.#q.rowCount.get(runId) !== rows) {
            this.#requireRunning(runId, "finish it");
            return false;
          }
          const { changes } = this.#q.finish.run(new Date().toISOString(), JSON.stringify(summary), runId);
          if (changes === 0) this.#requireRunning(runId, "finish it");
          this.#forget(runId);
          return true;
        })
        .immediate();
    });
  }

  /**
   * A no-op on a run that is no longer running, so that cleanup code can always call it: the first reason
   * recorded stays. Refused (`STORE_FAILED`) once the database file was deleted or replaced, as adding rows is: the
   * run would be marked in a file nothing can open, and a caller that said it was recorded would mislead.
   * INPUT_INVALID, naming it, for a `summary` that is neither null nor a {@link RunSummary} (see {@link checkSummary})
   * and a `reason` that is not a non-empty string: SQLite stored 5 as "5.0", and "" says nothing of why.
   */
  async abortRun(runId: string, summary: RunSummary | null, reason: string): Promise<void> {
    checkRunId("abortRun", runId);
    checkSummary("abortRun", summary, true);
    if (typeof reason !== "string" || reason === "") {
      throw argumentError("INPUT_INVALID", "abortRun", "reason", "a non-empty string (why the run stopped, as show prints it)", reason);
    }
    this.#guard(`mark run ${runId} incomplete`, () => this.#requireSameFile());
    this.#abort(runId, summary, reason);
  }

  #abort(runId: string, summary: RunSummary | null, reason: string): void {
    this.#guard(`mark run ${runId} incomplete`, () => {
      const { changes } = this.#q.abort.run(new Date().toISOString(), summary === null ? null : JSON.stringify(summary), reason, runId);
      // A run of this process that another deleted (delete --force) is gone: nothing left to mark.
      if (changes === 0 && !this.#mine.has(runId)) this.#run(runId);
      this.#forget(runId);
    });
  }

  /**
   * Runs, newest first. A "running" run whose process has died on this host is reported (and recorded) as
   * incomplete, with a stop reason that says its process is gone.
   */
  async listRuns(): Promise<RunInfo[]> {
    return this.#guard("list runs", () => {
      const dead = this.#reapDeadRuns();
      return this.#q.allRuns.all().map((r) => toRunInfo(r, dead));
    });
  }

  /**
   * The run with id `ref`; else the newest run named `ref`; else the one run whose id starts with `ref`
   * (case-insensitive; several → `USAGE` listing them, since the reference is what the user must fix);
   * else undefined. Names come before prefixes, as git resolves ref names before abbreviated hashes:
   * otherwise a run named like the start of an id (`01m7`) could never be reached by its name. A `ref` that is not
   * a string is INPUT_INVALID naming it (5 was STORE_FAILED saying "ref.trim is not a function").
   */
  async findRun(ref: string): Promise<RunInfo | undefined> {
    if (typeof ref !== "string") throw argumentError("INPUT_INVALID", "findRun", "ref", "a run's id, name or unique id prefix (a string)", ref);
    return this.#guard(`find run "${ref}"`, () => {
      const key = ref.trim();
      if (key === "") return undefined;
      const dead = this.#reapDeadRuns();
      const byIdOrName = this.#q.runById.get(key) ?? this.#q.runByName.get(key);
      if (byIdOrName) return toRunInfo(byIdOrName, dead);
      const shown = 10;
      const byPrefix = this.#q.runsByPrefix.all({ prefix: key.toLowerCase(), limit: shown + 1 });
      if (byPrefix.length > 1) {
        const list = byPrefix.slice(0, shown).map((r) => `${r.id}${r.name === null ? "" : ` (${r.name})`} started ${r.started_at}`);
        throw new EvalError(
          "USAGE",
          `"${key}" is the start of several run ids in ${this.path}; give more characters of the id or a run name:\n  ` +
            list.join("\n  ") +
            (byPrefix.length > shown ? "\n  …and more" : ""),
        );
      }
      const found = byPrefix[0];
      return found && toRunInfo(found, dead);
    });
  }

  /**
   * The run's rows in row order, read in pages of at most {@link PAGE_ROWS} (see {@link #pages}). Pages, not one `.iterate()` cursor:
   * an open cursor keeps the connection busy (better-sqlite3 then refuses every write on it, so a runner
   * could not record a new run while streaming the baseline's rows) and pins a WAL snapshot for the whole
   * read, which stops checkpoints and lets the WAL file grow.
   */
  async *rows(runId: string, opts: RowsOptions = {}): AsyncGenerator<RowOutcome> {
    checkRunId("rows", runId);
    if (!isPlainObject(opts)) throw argumentError("CONFIG_INVALID", "rows", "opts", "an object ({ records? }) or nothing", opts, ["opts"]);
    const { records = true } = opts;
    if (typeof records !== "boolean") throw argumentError("CONFIG_INVALID", "rows", "opts.records", "a boolean or nothing", records, ["opts", "records"]);
    const run = this.#guard(`read the rows of run ${runId}`, () => this.#run(runId));
    const chars = (r: RowRecord) => r.results.length + (r.error?.length ?? 0) + (r.record?.length ?? 0);
    const statement = records ? this.#q.rowPage : this.#q.rowPageWithoutRecord;
    const pages = this.#pages(runId, statement, (r) => r.row, chars, rowsForResults(evaluatorNames(run).length));
    for (const page of pages) for (const r of page) yield toRowOutcome(r, this.path, runId);
  }

  /**
   * The run's rows in row order with only their pairable scores (and their `key`, when stored with one), for comparisons: read from the
   * `scores` column without parsing the results, so that two recorded runs of a million rows compare
   * in about a quarter of the time. Rows without that column's value (recorded before it existed) are
   * read from their results.
   */
  async *scores(runId: string): AsyncGenerator<RowScores> {
    checkRunId("scores", runId);
    const names = evaluatorNames(this.#guard(`read the scores of run ${runId}`, () => this.#run(runId)));
    for (const page of this.#pages(runId, this.#q.scoresPage, (r) => r[0], (r) => (r[2] ?? r[3] ?? "").length)) {
      for (const [row, id, text, results, key] of page) {
        if (text === null) {
          yield scoresOfOutcome(toRowOutcome({ row, id, line: null, results: results ?? "{}", error: null, key, record: null, stored_at: null }, this.path, runId));
          continue;
        }
        const scores = decodeScores(text, names);
        if (!scores) {
          throw new EvalError(
            "STORE_FAILED",
            `${this.path}: row ${row} of run ${runId} has scores ${text.slice(0, 100)}, not an array of ${names.length} numbers or nulls (one per evaluator); the file is damaged`,
          );
        }
        const scored: RowScores = { row, id: id === null ? undefined : parseColumn(this.path, runId, row, "id", id), scores };
        if (key !== null) scored.key = key;
        yield scored;
      }
    }
  }

  /**
   * The run's rows, {@link FIRST_PAGE_ROWS} first, then {@link PAGE_ROWS} at a time, or fewer when they are
   * wide: each page after the first holds as many as {@link PAGE_CHARS} of `charsOf` would at the last page's
   * width (see {@link nextPageRows}; see {@link rows} for why pages), and at most `maxRows`. After each page the run is looked up again: {@link deleteRun} removes the run before its rows, so a run still there means the
   * page was whole. A run deleted by another process between pages is `STORE_FAILED`: its later pages
   * would come back empty or with a gap, and a comparison would have judged the rows read so far as the run.
   */
  *#pages<T>(runId: string, statement: Database.Statement<[string, number, number], T>, rowOf: (r: T) => number, charsOf: (r: T) => number, maxRows = PAGE_ROWS): Generator<T[]> {
    let after = Number.MIN_SAFE_INTEGER;
    let limit = Math.min(FIRST_PAGE_ROWS, maxRows);
    for (;;) {
      const page = this.#guard(`read the rows of run ${runId}`, () => {
        const rows = statement.all(runId, after, limit);
        if (this.#q.runExists.get(runId) === undefined) {
          throw new EvalError("STORE_FAILED", `${this.path}: run ${runId} was deleted while its rows were being read; the rows read before then are only part of the run`);
        }
        return rows;
      });
      const last = page[page.length - 1];
      if (last === undefined || page.length < limit) {
        yield page;
        return;
      }
      after = rowOf(last);
      let chars = 0;
      for (const r of page) chars += charsOf(r);
      limit = Math.min(nextPageRows(page.length, chars), maxRows);
      yield page;
    }
  }

  /**
   * The number of rows stored for run `runId` (an exact id), counted in the rows table: for a run that
   * has no summary (still running, or killed before it could write one), whose rows are still there to
   * read and compare. Reads the run's part of the primary key index, so it takes time in proportion to
   * the run's rows; a run's summary, when it has one, already says how many.
   */
  async rowCount(runId: string): Promise<number> {
    checkRunId("rowCount", runId);
    return this.#guard(`count the rows of run ${runId}`, () => {
      this.#run(runId);
      return this.#q.rowCount.get(runId) ?? 0;
    });
  }

  /**
   * What the rows stored for run `runId` (an exact id) hold, in one query over the run's part of the primary key
   * (see {@link StoredRows}): for `simeval show`, to tell when the last row of a run that no process owns came (are
   * rows still arriving before it is finished?) and whether its rows kept the records that `compare --report`
   * shows texts from. Each row's own columns are read, not the index alone (`stored_at` lies after the record, in
   * its overflow pages when it is large), so it takes longer than {@link rowCount}: 100,000 rows of 6 KB records
   * 0.2 s where it takes 5 ms (1 KB records: 0.06 s), yet no row is parsed. `STORE_FAILED` when there is no such run.
   */
  async storedRows(runId: string): Promise<StoredRows> {
    checkRunId("storedRows", runId);
    return this.#guard(`read what the rows of run ${runId} hold`, () =>
      // One read transaction: the run and its rows as of one moment, so a run deleted in between is no run.
      this.#db.transaction(() => {
        this.#run(runId);
        // Aggregates without GROUP BY: always one row, of zeros and nulls for a run without rows.
        return this.#q.storedRows.get(runId) as StoredRows;
      })(),
    );
  }

  /**
   * The row of run `runId` (an exact id) stored with idempotency key `key`, as {@link rows} gives it; undefined
   * when the run holds no such key. One seek in the `rows_by_key` index. Throws INPUT_INVALID, naming the
   * argument, when `runId` or `key` is not a non-empty string, and STORE_FAILED when there is no run `runId`
   * (also when a deleted run's rows are still in the file: they answer for no run).
   */
  async rowByKey(runId: string, key: string): Promise<RowOutcome | undefined> {
    checkRunId("rowByKey", runId);
    if (typeof key !== "string" || key === "") throw argumentError("INPUT_INVALID", "rowByKey", "key", "a row's idempotency key (a non-empty string)", key);
    return this.#guard(`read the row with key "${key}" of run ${runId}`, () =>
      // One read transaction: the run and its row as of one moment, so a run deleted in between answers no row.
      this.#db.transaction(() => {
        this.#run(runId);
        const r = this.#q.rowByKey.get(runId, key);
        return r && toRowOutcome(r, this.path, runId);
      })(),
    );
  }

  /** Makes `runId` (an exact id) the baseline that comparisons default to. */
  async setBaseline(runId: string): Promise<void> {
    checkRunId("setBaseline", runId);
    // One write transaction: a run deleted by another process meanwhile cannot be left as the baseline.
    this.#guard(`set the baseline to run ${runId}`, () =>
      this.#db
        .transaction(() => {
          this.#run(runId);
          this.#q.putSetting.run("baseline", runId);
        })
        .immediate(),
    );
  }

  /**
   * Deletes a run and its rows, and unsets the baseline when it was this run. Refuses (`STORE_FAILED`)
   * a run that is still being recorded by a live process, or by one that cannot be looked up (on another
   * host or in another container), unless `force`: a writer still alive then fails at its next batch,
   * since its run is gone. The run itself goes in one transaction, so it
   * vanishes from every listing at once; its rows follow, {@link DELETE_CHUNK_ROWS} per transaction, so
   * that a process recording another run never waits long for the write lock. Rows that an interrupted
   * deletion left behind belong to no run, are never read, and are deleted by the next `deleteRun` or
   * {@link vacuum}. The file keeps the freed pages for new rows ({@link freeBytes}) until {@link vacuum}.
   * Resolves to the number of rows of the run, and `left`: the rows of deleted runs still in the file, which
   * is 0 unless `signal` was aborted (Ctrl-C), which stops the deletion after the chunk in hand, the run gone;
   * `onProgress` gets (rows deleted, rows in all) per chunk.
   */
  async deleteRun(runId: string, opts: DeleteRunOptions = {}): Promise<Required<DeletedRun>> {
    checkRunId("deleteRun", runId);
    checkDeleteOptions(opts);
    const doing = `delete run ${runId}`;
    const wasBaseline = this.#guard(doing, () => {
      // Foreign keys off for this transaction, so that deleting the run does not cascade to all its
      // rows in the same (long) transaction; the pragma is a no-op inside a transaction, hence outside.
      this.#db.pragma("foreign_keys = OFF");
      try {
        return this.#db.transaction(() => {
          const run = this.#run(runId);
          if (run.status === "running" && !opts.force && writerMayBeAlive(run)) {
            const by = run.pid === null ? "owned by no process: finish or abort it, or force the deletion" : `process ${run.pid} on ${run.host ?? "?"}`;
            throw new EvalError("STORE_FAILED", `${this.path}: run ${runId} is still being recorded (${by}); stop it before deleting it`);
          }
          this.#q.deleteRun.run(runId);
          return this.#q.clearSetting.run("baseline", runId).changes > 0;
        }).immediate();
      } finally {
        this.#db.pragma("foreign_keys = ON");
      }
    });
    this.#forget(runId);
    // This run's rows, and any that an earlier, interrupted deletion left behind. No row can be added to
    // a run that is gone (the foreign key), so these counts hold until the rows are deleted.
    const counts = this.#guard(doing, () => new Map(this.#orphanRunIds().map((id) => [id, this.#q.rowCount.get(id) ?? 0])));
    let all = 0;
    for (const n of counts.values()) all += n;
    const deleted = await this.#deleteRowsOf([...counts.keys()], (deleted) => opts.onProgress?.(deleted, all), opts.signal);
    return { rows: counts.get(runId) ?? 0, wasBaseline, left: all - deleted };
  }

  /**
   * Gives the free pages of the file back to the file system (SQLite `VACUUM`, which rewrites the whole
   * file: it takes time on a large database and needs as much free disk as the database). Deletes rows
   * left behind by an interrupted {@link deleteRun} first. Resolves to false when another process was
   * reading the database: the compacted copy then waits in the write-ahead log, and the file shrinks
   * only once no process has it open.
   */
  async vacuum(): Promise<boolean> {
    await this.#deleteRowsOf(this.#guard("find rows of deleted runs", () => this.#orphanRunIds()));
    return this.#guard("vacuum the database", () => {
      this.#db.exec("VACUUM");
      const [checkpoint] = this.#db.pragma("wal_checkpoint(TRUNCATE)") as { busy: number }[];
      return checkpoint?.busy === 0;
    });
  }

  /** Bytes of the file that hold no data: kept for new rows, or given back by {@link vacuum}. */
  freeBytes(): number {
    return this.#guard("measure free space", () => (this.#q.freePages.get() ?? 0) * (this.#q.pageSize.get() ?? 0));
  }

  /**
   * Deletes the rows of the runs `ids`, {@link DELETE_CHUNK_ROWS} per transaction; `onProgress` gets the count so
   * far. Stops between chunks once `signal` is aborted. Resolves to the number of rows deleted.
   */
  async #deleteRowsOf(ids: readonly string[], onProgress?: (deleted: number) => void, signal?: AbortSignal): Promise<number> {
    let deleted = 0;
    for (const id of ids) {
      while (!signal?.aborted) {
        const { changes } = this.#guard(`delete the rows of run ${id}`, () =>
          this.#db.transaction(() => this.#q.deleteRowChunk.run(id, DELETE_CHUNK_ROWS)).immediate(),
        );
        if (changes === 0) break;
        deleted += changes;
        onProgress?.(deleted);
        // Lets signal handlers and the progress display run between chunks.
        await new Promise(setImmediate);
      }
    }
    return deleted;
  }

  /** Ids that rows carry but no run has: deleted runs whose rows are not all deleted yet. */
  #orphanRunIds(): string[] {
    const orphans: string[] = [];
    for (let id = this.#q.nextRowsRunId.get(""); id !== undefined; id = this.#q.nextRowsRunId.get(id)) {
      if (this.#q.runExists.get(id) === undefined) orphans.push(id);
    }
    return orphans;
  }

  /** The baseline run; undefined when none was set (or its run is gone). */
  async baseline(): Promise<RunInfo | undefined> {
    return this.#guard("read the baseline", () => {
      const id = this.#q.getSetting.get("baseline");
      if (id === undefined) return undefined;
      const dead = this.#reapDeadRuns();
      const run = this.#q.runById.get(id);
      return run && toRunInfo(run, dead);
    });
  }

  /**
   * Cached vectors for `hashes` under (provider, model); absent hashes are misses. A stored vector whose
   * byte length does not match its `dims` is treated as a miss, so it is recomputed and overwritten.
   */
  getEmbeddings(provider: string, model: string, hashes: readonly string[]): Map<string, Float32Array> {
    const found = new Map<string, Float32Array>();
    if (hashes.length === 0) return found;
    return this.#guard(`read cached embeddings of ${provider}/${model}`, () => {
      for (const r of this.#q.getEmbeddings.all(provider, model, JSON.stringify(hashes))) {
        if (r.vector.byteLength !== r.dims * Float32Array.BYTES_PER_ELEMENT) continue;
        // Copied: the Buffer may sit at an offset that is not a multiple of 4, which Float32Array refuses.
        found.set(r.text_hash, new Float32Array(new Uint8Array(r.vector).buffer));
      }
      return found;
    });
  }

  /**
   * Stores vectors (hash → vector) under (provider, model) in one transaction, replacing existing ones.
   * Bytes are stored in the platform's order (little-endian everywhere Node runs in practice).
   */
  putEmbeddings(provider: string, model: string, entries: Iterable<readonly [string, Float32Array]>): void {
    this.#guard(`cache embeddings of ${provider}/${model}`, () => this.#putEmbeddingsTx.immediate(provider, model, entries));
  }

  /**
   * Marks runs begun here and still running as incomplete (no process will finish them), then closes. Runs
   * begun with owner `"none"` are left running: another process may finish them. Idempotent.
   */
  async close(): Promise<void> {
    this.closeNow();
  }

  /** {@link close}, at once: for a thread or process that is ending and cannot wait. */
  closeNow(): void {
    if (!this.#db.open) return;
    try {
      for (const id of [...this.#mine]) this.#abort(id, null, CLOSED_UNFINISHED);
      try {
        // Only an optimisation: not worth waiting for another process's write lock (a `delete --vacuum` holds
        // it for minutes), which made `simeval runs` take the whole lock timeout to close.
        this.#db.pragma("busy_timeout = 0");
        this.#db.pragma("optimize");
      } catch {
        // Skipped: the write lock is held, or the database can be read but not written (a read-only file).
      }
    } finally {
      this.#db.close();
    }
  }

  /** The run's record; `STORE_FAILED` when there is no such run. */
  #run(runId: string): RunRecord {
    const run = this.#q.runById.get(runId);
    if (run === undefined) throw new EvalError("STORE_FAILED", `${this.path}: no run with id "${runId}"`);
    return run;
  }

  #requireRunning(runId: string, doing: string): RunRecord {
    if (this.#mine.has(runId) && this.#q.runById.get(runId) === undefined) {
      // Only another process can have removed it: `simeval delete --force` takes a run recorded as running.
      throw new EvalError("STORE_FAILED", `${this.path}: run ${runId}, which this process was recording, was deleted by another process (simeval delete --force); cannot ${doing}`);
    }
    const run = this.#run(runId);
    if (run.status !== "running") {
      throw new EvalError("STORE_FAILED", `${this.path}: run ${runId} is ${run.status}; cannot ${doing}`);
    }
    return run;
  }

  /**
   * Throws when the file at {@link path} is no longer the one this store opened: deleted, or
   * replaced by another (moved onto the path, a copy put back). SQLite goes on writing the file it opened, which
   * no other process can open any more, so a run would end as recorded with nothing to read it back from.
   * One `stat` per batch of rows.
   */
  #requireSameFile(): void {
    if (this.#file === null) return;
    let now: { dev: number; ino: number } | null;
    try {
      now = fileIdentity(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      now = null;
    }
    if (now !== null && now.dev === this.#file.dev && now.ino === this.#file.ino) return;
    // A plain Error: the caller's guard makes it the STORE_FAILED that names the file and what was being done.
    throw new Error(
      `the database file was ${now === null ? "deleted" : "replaced by another file"} after this process opened it, so nothing it records can be read back from ${this.path} (the run is lost; run it again)`,
    );
  }

  #forget(runId: string): void {
    this.#mine.delete(runId);
    RUNS_OF_THIS_PROCESS.delete(runId);
  }

  /**
   * Finds "running" runs whose writer is dead and records them as incomplete, saying so as their stop
   * reason. Returns their ids with that reason, so the caller reports them right even when the file is
   * read-only or locked and the update could not be saved.
   */
  #reapDeadRuns(): Map<string, string> {
    const dead = new Map(
      this.#q
        .runningRuns.all()
        .flatMap((r) => (r.pid !== null && !writerMayBeAlive(r) ? [[r.id, processGone(r.pid)] as const] : [])),
    );
    if (dead.size === 0) return dead;
    try {
      this.#db.transaction(() => {
        for (const [id, reason] of dead) this.#q.markDead.run(reason, id);
      }).immediate();
    } catch {
      // Reading must not fail because the file cannot be written now; the next reader will try again.
    }
    return dead;
  }

  /**
   * Runs `fn`, turning any failure that is not already an EvalError into `STORE_FAILED` naming the file, `transient`
   * when SQLite's code says retrying may succeed (see {@link storeError}).
   */
  #guard<T>(doing: string, fn: () => T): T {
    // SQLite's own word for it, "The database connection is not open", did not say who closed it.
    if (!this.#db.open) throw new EvalError("STORE_FAILED", `${this.path}: could not ${doing}: this store was closed (its close() was called); open the file again with openSqliteStore`);
    try {
      return fn();
    } catch (cause) {
      throw storeError(this.path, doing, cause);
    }
  }
}

/**
 * Whether the process that began a run may still be running. Only a process on this host, in this pid
 * namespace ({@link THIS_HOST}), can be checked; a pid reused by an unrelated process makes a dead run
 * look alive (the safe direction: it stays "running"). A host name alone was recorded before the pid
 * namespace was, and is still taken as this host.
 */
function writerMayBeAlive(r: { id: string; pid: number | null; host: string | null }): boolean {
  if (r.pid === null || (r.host !== THIS_HOST && r.host !== hostname())) return true;
  if (r.pid === process.pid) return RUNS_OF_THIS_PROCESS.has(r.id);
  try {
    process.kill(r.pid, 0); // signal 0: checks existence and permission, sends nothing
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"; // exists, owned by another user
  }
}

/**
 * Throws INPUT_INVALID naming the field unless `meta` is an object whose `name` is a string or null and whose
 * `dataset_path` and `dataset_hash` are both strings, the path not empty, or both null (a run not read from a
 * dataset file): SQLite would store a number as text ("5.0") and read back another name, an empty path is how the
 * store records no dataset ({@link NO_DATASET}), and a hash without a path (or a path without a hash) names no
 * dataset a reader could use.
 */
function checkRunMeta(meta: unknown): void {
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
function refuseDatasetIdf(specs: readonly EvaluatorSpec[]): void {
  const i = specs.findIndex((s) => s.config?.["idf"] === "dataset");
  if (i < 0) return;
  const message = `evaluator ${JSON.stringify(specs[i]?.name)} (${specs[i]?.type}) has "idf": "dataset", fitted on a dataset file's expected texts, which a run not read from one (dataset_path null) has none of: the IDF its scores used would be recorded nowhere, so no process could score the run again from its specs; use "idf": "pair"`;
  throw new EvalError("CONFIG_INVALID", `beginRun: meta.evaluators[${i}].config.idf: ${message}`, { issues: [{ path: ["evaluators", i, "config", "idf"], message, received: '"dataset"' }] });
}

/**
 * Throws INPUT_INVALID naming `summary` (for `fn`) unless it is an object with an `evaluators` array (or null, when
 * `nullable`): a run was recorded with 5 or "x" as its summary, and `simeval show` failed on it with a TypeError.
 */
function checkSummary(fn: string, summary: unknown, nullable: boolean): void {
  if (nullable && summary === null) return;
  if (isPlainObject(summary) && Array.isArray(summary["evaluators"])) return;
  const expected = `a RunSummary ({ rows, row_errors, skipped_as_zero, evaluators: [...] }, as summarizeStoredRun makes)${nullable ? " or null" : ""}`;
  throw argumentError("INPUT_INVALID", fn, "summary", expected, summary);
}

/** `opts.owner` of {@link SqliteRunStore.beginRun}, checked: "process" when not given. */
function runOwner(opts: unknown): RunOwner {
  if (opts === undefined) return "process";
  if (!isPlainObject(opts)) throw argumentError("CONFIG_INVALID", "beginRun", "opts", "an object ({ owner? }) or nothing", opts, ["opts"]);
  const owner = opts["owner"];
  if (owner === undefined || owner === "process" || owner === "none") return owner ?? "process";
  throw argumentError("CONFIG_INVALID", "beginRun", "opts.owner", '"process" (the default: the run is this process\'s), "none" (no process\'s) or nothing', owner, ["opts", "owner"]);
}

function isSerialized<R extends UnnumberedRow>(r: R): r is Extract<R, { results: string }> {
  return typeof r.results === "string";
}

/** A row given to `appendRows` as a {@link RowOutcome} without its `row`: a {@link SerializedRow}'s JSON parsed. */
type UnnumberedOutcome = Extract<UnnumberedRow, { results: Record<string, RowResult> }>;

/**
 * `rows` as outcomes, a {@link SerializedRow}'s JSON parsed (see {@link parsedSerializedRow}), so that a row is
 * stored, and its scores made from its results, as a RowOutcome is. Throws INPUT_INVALID, naming the place
 * (`appendRows: rows[2].row must be nothing …`), unless `rows` is an array of objects without a `row` whose
 * `results` is an object of objects (a {@link RowOutcome}'s, see {@link checkResults}) or their JSON, with a `key`
 * and `line` of their kinds. Their records are checked by {@link recordJson}; a `stored_at` is not read.
 */
function checkUnnumberedRows(rows: unknown): UnnumberedOutcome[] {
  const bad = (arg: string, expected: string, value: unknown, path: (string | number)[]) => argumentError("INPUT_INVALID", "appendRows", arg, expected, value, path);
  if (!Array.isArray(rows)) throw bad("rows", "an array of rows (RowOutcomes or SerializedRows without their row)", rows, ["rows"]);
  return rows.map((r: unknown, i) => {
    if (typeof r !== "object" || r === null || Array.isArray(r)) throw bad(`rows[${i}]`, "a row (a RowOutcome or SerializedRow without its row)", r, ["rows", i]);
    const { row, results } = r as Record<string, unknown>;
    // A number given here would be silently replaced: the caller meant addRows, or copied rows of another run.
    if (row !== undefined) throw bad(`rows[${i}].row`, "nothing (appendRows numbers the rows; addRows takes numbered ones)", row, ["rows", i, "row"]);
    if (typeof results !== "string" && !isPlainObject(results)) {
      throw bad(`rows[${i}].results`, "an object of results by evaluator name, or their JSON", results, ["rows", i, "results"]);
    }
    const outcome = typeof results === "string" ? parsedSerializedRow(r as Omit<SerializedRow, "row">, i) : (r as UnnumberedOutcome);
    // A row that could not be read: `show` counts it unreadable, so it is one only with the error's { code, message }.
    if (outcome.error !== undefined && !isPlainObject(outcome.error)) throw bad(`rows[${i}].error`, "nothing or the row's error ({ code, message })", outcome.error, ["rows", i, "error"]);
    checkResults("appendRows", outcome, i);
    checkId(outcome, i);
    checkKey("appendRows", r, i);
    checkLine(r, i);
    return outcome;
  });
}

/**
 * Throws INPUT_INVALID naming `rows[i].id` (and where in it) when row `i`'s id holds a number JSON cannot write: NaN
 * or ±Infinity, anywhere in an id that is an array or object. JSON writes them as null, so the row was stored with
 * no id (or `[1,null]`), silently, and could not be found by the id the caller gave it; the dataset readers refuse
 * such an id as a row error. An id that JSON.stringify cannot write at all (a BigInt, a cycle) is left to
 * {@link rowJson}, which says why. A SerializedRow's id is checked as parsed (`"1e400"` reads as Infinity).
 */
function checkId(r: UnnumberedOutcome, i: number): void {
  const found = nonFiniteIn(r.id);
  if (found === undefined) return;
  const path = ["rows", i, "id", ...found.path];
  const expected = "nothing or a value JSON writes as it is (a string, a finite number, or arrays and objects of them): NaN and ±Infinity are written as null, and the row would be stored without its id";
  throw argumentError("INPUT_INVALID", "appendRows", formatPath(path), expected, found.value, path);
}

/**
 * Throws INPUT_INVALID naming `rows[i].line` unless row `i` has no line, a null one or a whole number from 1 (the
 * dataset line it was read from): "3" or 1.5 were STORE_FAILED saying "cannot store TEXT value in INTEGER column
 * rows.line", naming no row.
 */
function checkLine(r: object, i: number): void {
  const { line } = r as { line?: unknown };
  if (line === undefined || line === null || (Number.isSafeInteger(line) && (line as number) >= 1)) return;
  throw argumentError("INPUT_INVALID", "appendRows", `rows[${i}].line`, "nothing, null or a whole number from 1 (the dataset line the row was read from)", line, ["rows", i, "line"]);
}

/**
 * Row `i`, a {@link SerializedRow} (its `results` a string), as the outcome its JSON holds: `results` an object's,
 * `id` any JSON text (or null or nothing: no id), `error` null, nothing or an object's; its `scores` are not read
 * (made from the results, as a RowOutcome's are, where ones given could disagree with them). Throws INPUT_INVALID
 * naming the field otherwise: `{ id: "trace-1", results: JSON.stringify(results) }` was stored as it was, and every
 * later read of the run (`rows()`, `finishStoredRun`, `simeval finish`) failed on its id. Parsing costs a service's
 * batch little; `addRows`, the dataset runner's path, stores its rows unchecked.
 */
function parsedSerializedRow(r: Omit<SerializedRow, "row"> & { key?: string; record?: Record<string, unknown> }, i: number): UnnumberedOutcome {
  const bad = (field: string, expected: string, value: unknown) => argumentError("INPUT_INVALID", "appendRows", `rows[${i}].${field}`, expected, value, ["rows", i, field]);
  const NOT_JSON = Symbol("not JSON");
  const parsed = (text: string): unknown => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return NOT_JSON;
    }
  };
  const results = parsed(r.results);
  if (!isPlainObject(results)) throw bad("results", "an object of results by evaluator name, or its JSON (a string that parses to an object)", r.results);
  const outcome: UnnumberedOutcome = { results: results as Record<string, RowResult> };
  if (r.id !== undefined && r.id !== null) {
    const id = typeof r.id === "string" ? parsed(r.id) : NOT_JSON;
    if (id === NOT_JSON) throw bad("id", "the JSON of the row's id (JSON.stringify(id): a row whose results are a string of JSON is a SerializedRow, whose id is JSON too), or nothing", r.id);
    outcome.id = id;
  }
  if (r.error !== undefined && r.error !== null) {
    const error = typeof r.error === "string" ? parsed(r.error) : NOT_JSON;
    if (!isPlainObject(error)) throw bad("error", "null, nothing or the JSON of { code, message }", r.error);
    outcome.error = error as { code: string; message: string };
  }
  if (r.line !== undefined && r.line !== null) outcome.line = r.line;
  if (r.key !== undefined) outcome.key = r.key;
  if (r.record !== undefined) outcome.record = r.record;
  return outcome;
}

/**
 * Row `i`'s `record` as the JSON text to store, or null when it has none. Throws INPUT_INVALID naming
 * `rows[i].record` unless it is nothing or a plain object (not an array, not a class instance such as a Date or a
 * Map, whose JSON is no object or an empty one) that `JSON.stringify` can write (no BigInt, no cycle): a reader
 * parses it back to the object the evaluators were given.
 */
function recordJson(r: UnnumberedRow, i: number): string | null {
  const { record } = r as { record?: unknown };
  if (record === undefined) return null;
  const bad = (expected: string) => argumentError("INPUT_INVALID", "appendRows", `rows[${i}].record`, expected, record, ["rows", i, "record"]);
  const expected = "nothing or a plain object (the record the evaluators were given, stored as its JSON)";
  if (!isPlainObject(record)) throw bad(expected);
  const proto: unknown = Object.getPrototypeOf(record);
  if (proto !== Object.prototype && proto !== null) throw bad(`${expected}, not an instance of ${(record as object).constructor?.name || "a class"}`);
  let json: string | undefined;
  try {
    json = JSON.stringify(record) as string | undefined;
  } catch (error) {
    throw bad(`${expected} that JSON.stringify can write (${error instanceof Error ? error.message : String(error)})`);
  }
  // A toJSON of its own may make it anything else.
  if (json?.[0] !== "{") throw bad(`${expected} whose JSON is an object (its toJSON gives ${json === undefined ? "nothing" : cutText(json, 40)})`);
  return json;
}

/**
 * Throws INPUT_INVALID naming `rows[i].results.NAME` for the first result of a row of `rows` under a name that is
 * none of run `runId`'s evaluators (`names`): stored, it would be summarized by
 * no evaluator and compared as "only in B", a result of an evaluator the run never had.
 */
function refuseUnknownResults(runId: string, names: readonly string[], rows: readonly UnnumberedOutcome[]): void {
  const known = new Set(names);
  for (const [i, r] of rows.entries()) {
    const name = Object.keys(r.results).find((n) => !known.has(n));
    if (name === undefined) continue;
    const message = `run ${runId} has no evaluator named ${JSON.stringify(name)} (its evaluators: ${names.map((n) => JSON.stringify(n)).join(", ")}); a row's results are keyed by the names of the run's evaluators, as scoreRecord gives them`;
    throw new EvalError("INPUT_INVALID", `appendRows: rows[${i}].results.${name}: ${message}`, { issues: [{ path: ["rows", i, "results", name], message, received: JSON.stringify(name) }] });
  }
}

/**
 * Throws INPUT_INVALID naming `rows[i].results.NAME` when row `i`'s results are an object (not a SerializedRow's
 * JSON) holding a value that is not an object, a result or `{ error }` as `scoreRecord` gives them: `{ lev: 7 }` was
 * STORE_FAILED saying "Cannot use 'in' operator to search for 'error' in 7", which named neither row nor evaluator.
 * Naming `rows[i].results.NAME.FIELD` too when a field the summary reads is missing or of the wrong kind (see
 * {@link resultFieldFault}): `{ score: 2, passed: "yes" }` was stored and counted as a pass, `{ score: 1 }` as a fail.
 */
function checkResults(fn: string, r: object, i: number): void {
  const { results } = r as { results?: unknown };
  if (!isPlainObject(results)) return;
  for (const [name, result] of Object.entries(results)) {
    if (!isPlainObject(result)) {
      throw argumentError("INPUT_INVALID", fn, `rows[${i}].results.${name}`, "an evaluator's result ({ score, skipped, … } or { error }, as scoreRecord gives it)", result, ["rows", i, "results", name]);
    }
    const fault = resultFieldFault(result);
    if (fault) throw argumentError("INPUT_INVALID", fn, `rows[${i}].results.${name}.${fault.field}`, fault.expected, result[fault.field], ["rows", i, "results", name, fault.field]);
  }
}

/**
 * The first field of a result that the summary and the comparison read and that is missing or of the wrong kind,
 * with what it must be; null when there is none. Given as a string, say, it would be stored and then read as a
 * verdict or an error (`passed: "yes"` counted as a pass, `score: "0.9"` as the evaluator's error); left out, it
 * was read as something the caller did not say: `{}` as the evaluator's error, `{ score: 1 }` as a failed row. So
 * a result that is not skipped must give `score` and `passed` (either may be null: no score, no verdict), as
 * `scoreRecord` does; a skipped one (`skipped: true`) or an `{ error }` need not.
 */
function resultFieldFault(result: Record<string, unknown>): { field: string; expected: string } | null {
  if ("error" in result) {
    const { error } = result;
    const whole = isPlainObject(error) && typeof error["code"] === "string" && typeof error["message"] === "string";
    return whole ? null : { field: "error", expected: "the evaluator's error ({ code, message }, both strings, as scoreRecord gives it)" };
  }
  const { score, passed, skipped } = result;
  // NaN and ±Infinity are numbers, stored as JSON's null: no score, as a reader of the row finds.
  if (score !== undefined && score !== null && typeof score !== "number") return { field: "score", expected: "a number or null" };
  if (passed !== undefined && passed !== null && typeof passed !== "boolean") return { field: "passed", expected: "true, false or null (no verdict)" };
  if (skipped !== undefined && typeof skipped !== "boolean") return { field: "skipped", expected: "true or false" };
  if (skipped === true) return null;
  const unless = "unless the result is skipped (skipped: true) or an { error }, as scoreRecord gives them";
  if (score === undefined) return { field: "score", expected: `a number or null (no score), ${unless}` };
  if (passed === undefined) return { field: "passed", expected: `true, false or null (no verdict), ${unless}` };
  return null;
}

/**
 * Throws INPUT_INVALID naming `runId` of method `fn` unless it is a non-empty string: `{}` or `true` were STORE_FAILED
 * with SQLite's words ("Too few parameter values were provided"), and a missing one said there was no run "undefined".
 */
function checkRunId(fn: string, runId: unknown): void {
  if (typeof runId !== "string" || runId === "") throw argumentError("INPUT_INVALID", fn, "runId", "a run's id (a non-empty string)", runId);
}

/**
 * Throws CONFIG_INVALID naming the option of {@link SqliteRunStore.deleteRun} that is of the wrong kind: `force: "no"`,
 * being truthy, deleted a run still being recorded, and `onProgress: 5` failed with a TypeError once the run was gone.
 */
function checkDeleteOptions(opts: unknown): void {
  const bad = (arg: string, expected: string, value: unknown) => argumentError("CONFIG_INVALID", "deleteRun", arg, expected, value, arg.split("."));
  if (!isPlainObject(opts)) throw bad("opts", "an object ({ onProgress?, force?, signal? }) or nothing", opts);
  const { onProgress, force, signal } = opts;
  if (force !== undefined && typeof force !== "boolean") throw bad("opts.force", "a boolean or nothing", force);
  if (onProgress !== undefined && typeof onProgress !== "function") throw bad("opts.onProgress", "a function or nothing", onProgress);
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw bad("opts.signal", "an AbortSignal or nothing", signal);
}

/**
 * The JSON of field `field` of row `at.i` given to `at.fn`. Throws INPUT_INVALID naming `rows[i].FIELD` when
 * `JSON.stringify` cannot write it (a BigInt, a cycle): an id of `1n` was STORE_FAILED with JSON's words, naming no row.
 */
function rowJson(at: { fn: string; i: number }, field: string, value: unknown): string | undefined {
  try {
    return JSON.stringify(value) as string | undefined;
  } catch (error) {
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw argumentError("INPUT_INVALID", at.fn, `rows[${at.i}].${field}`, `a value that JSON.stringify can write (${why})`, value, ["rows", at.i, field]);
  }
}

/** Throws INPUT_INVALID naming `rows[i].key` unless row `i` has no key or a non-empty string (an empty key would name no delivery). */
function checkKey(fn: string, r: object, i: number): void {
  const { key } = r as { key?: unknown };
  if (key === undefined || (typeof key === "string" && key !== "")) return;
  throw argumentError("INPUT_INVALID", fn, `rows[${i}].key`, "nothing or a non-empty string (the row's idempotency key)", key, ["rows", i, "key"]);
}

/** A run as the store gives it; `dead` holds the runs found dead just now, with their stop reasons. */
function toRunInfo(r: RunRecord, dead: ReadonlyMap<string, string>): RunInfo {
  return {
    id: r.id,
    name: r.name,
    started_at: r.started_at,
    finished_at: r.finished_at,
    status: dead.has(r.id) ? "incomplete" : r.status,
    // NO_DATASET ("") in the path is a run not read from a dataset file: both are null, as beginRun was given them.
    dataset_path: r.dataset_path === NO_DATASET ? null : r.dataset_path,
    dataset_hash: r.dataset_path === NO_DATASET ? null : r.dataset_hash,
    evaluators: JSON.parse(r.evaluators) as EvaluatorSpec[],
    summary: r.summary === null ? null : (JSON.parse(r.summary) as RunSummary),
    stop_reason: r.stop_reason ?? dead.get(r.id) ?? null,
    // Only beginRun with owner "none" records no pid: every run of an older simeval has one.
    owner: r.pid === null ? "none" : "process",
  };
}

/** The run's evaluator names, in its order (the order of its rows' `scores`). */
function evaluatorNames(run: RunRecord): string[] {
  return (JSON.parse(run.evaluators) as EvaluatorSpec[]).map((s) => s.name ?? s.type);
}

/**
 * An outcome's `scores` column: its results' pairable scores in the run's evaluator order, or NULL
 * (read from `results` instead) when its results are not exactly the run's evaluators, or it has none.
 */
function outcomeScores(r: Pick<RowOutcome, "results" | "error">, names: readonly string[]): string | null {
  const keys = Object.keys(r.results);
  if (r.error !== undefined || keys.length !== names.length || !names.every((n) => n in r.results)) return null;
  return encodeScores(names.map((n) => scoreOf(r.results[n])));
}

/** Row `r` of run `runId` in the file `path`, its JSON columns parsed (see {@link parseColumn}). */
function toRowOutcome(r: RowRecord, path: string, runId: string): RowOutcome {
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
function parseColumn(path: string, runId: string, row: number, column: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new EvalError(
      "STORE_FAILED",
      `${path}: row ${row} of run ${runId} holds ${column} ${JSON.stringify(cutText(text, 40))}, which is not JSON (${why}); ` +
        "it was stored so as a SerializedRow's JSON, which addRows stores unchecked, or the file is damaged",
    );
  }
}
