/** The SQL statements of the run store, prepared once per open database. */
import type Database from "better-sqlite3";
import type { EmbeddingRecord, RowRecord, RunRecord, ScoresRecord, StoredRows } from "./records.js";

/** The columns of a {@link RunRecord}. */
const RUN_COLUMNS = "id, name, started_at, finished_at, status, dataset_path, dataset_hash, evaluators, summary, pid, host, stop_reason";
const NEWEST_FIRST = "ORDER BY started_at DESC, id DESC";
/** The columns of a {@link RowRecord}. */
const ROW_COLUMNS = "row, id, line, results, error, key, record, stored_at";

/**
 * The run store's prepared statements, each with the parameters it binds and what a row of its result is (a record,
 * or a plain number or string for one read through `.pluck()`). Written out rather than inferred from
 * {@link prepareStatements}: better-sqlite3's types name a statement by a type that a declaration file cannot write.
 */
export interface Statements {
  insertRun: Database.Statement<[string, string | null, string, string, string, string, number | null, string | null]>;
  runById: Database.Statement<[string], RunRecord>;
  runsByPrefix: Database.Statement<{ prefix: string; limit: number }, RunRecord>;
  runByName: Database.Statement<[string], RunRecord>;
  runsPage: Database.Statement<[number], RunRecord>;
  runsPageAfter: Database.Statement<{ started_at: string; id: string; limit: number }, RunRecord>;
  runningRuns: Database.Statement<[], Pick<RunRecord, "id" | "pid" | "host" | "started_at">>;
  finish: Database.Statement<[string, string, string]>;
  abort: Database.Statement<[string, string | null, string, string]>;
  markDead: Database.Statement<[string, string]>;
  insertRow: Database.Statement<[string, number, string | null, number | null, string, string | null, string | null, string | null, string | null, number]>;
  rowNumberByKey: Database.Statement<[string, string], number>;
  rowNumber: Database.Statement<[string, number], number>;
  rowByKey: Database.Statement<[string, string], RowRecord>;
  lastRow: Database.Statement<[string], number>;
  rowPage: Database.Statement<[string, number, number], RowRecord>;
  rowPageWithoutRecord: Database.Statement<[string, number, number], RowRecord>;
  scoresPage: Database.Statement<[string, number, number], ScoresRecord>;
  deleteRun: Database.Statement<[string]>;
  rowCount: Database.Statement<[string], number>;
  storedRows: Database.Statement<[string], StoredRows>;
  deleteRowChunk: Database.Statement<[string, number]>;
  nextRowsRunId: Database.Statement<[string], string>;
  runExists: Database.Statement<[string], number>;
  clearSetting: Database.Statement<[string, string]>;
  freePages: Database.Statement<[], number>;
  pageSize: Database.Statement<[], number>;
  getSetting: Database.Statement<[string], string>;
  putSetting: Database.Statement<[string, string]>;
  getEmbeddings: Database.Statement<[string, string, string], EmbeddingRecord>;
  putEmbedding: Database.Statement<[string, string, string, number, Buffer]>;
}

/**
 * {@link Statements} prepared on `db`, once per open store. A statement read through `.pluck()` or `.raw()` names its
 * types at `prepare`, since the chained call keeps them; the others take theirs from {@link Statements}.
 */
export function prepareStatements(db: Database.Database): Statements {
  return {
    insertRun: db.prepare(
      `INSERT INTO runs (id, name, started_at, status, dataset_path, dataset_hash, evaluators, pid, host)
       VALUES (?, ?, ?, 'running', ?, ?, ?, ?, ?)`,
    ),
    runById: db.prepare(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = ?`),
    runsByPrefix: db.prepare(
      `SELECT ${RUN_COLUMNS} FROM runs WHERE substr(id, 1, length(@prefix)) = @prefix ${NEWEST_FIRST} LIMIT @limit`,
    ),
    runByName: db.prepare(`SELECT ${RUN_COLUMNS} FROM runs WHERE name = ? ${NEWEST_FIRST} LIMIT 1`),
    // LIMIT -1: every run.
    runsPage: db.prepare(`SELECT ${RUN_COLUMNS} FROM runs ${NEWEST_FIRST} LIMIT ?`),
    // The runs listed after a given one, newest first: NEWEST_FIRST's order, from a run on.
    runsPageAfter: db.prepare(
      `SELECT ${RUN_COLUMNS} FROM runs WHERE started_at < @started_at OR (started_at = @started_at AND id < @id) ${NEWEST_FIRST} LIMIT @limit`,
    ),
    runningRuns: db.prepare(`SELECT id, pid, host, started_at FROM runs WHERE status = 'running'`),
    finish: db.prepare(
      `UPDATE runs SET status = 'complete', finished_at = ?, summary = ? WHERE id = ? AND status = 'running'`,
    ),
    abort: db.prepare(
      `UPDATE runs SET status = 'incomplete', finished_at = ?, summary = coalesce(?, summary), stop_reason = ? WHERE id = ? AND status = 'running'`,
    ),
    markDead: db.prepare(`UPDATE runs SET status = 'incomplete', stop_reason = coalesce(stop_reason, ?) WHERE id = ? AND status = 'running'`),
    insertRow: db.prepare(
      `INSERT INTO rows (run_id, row, id, line, results, error, scores, key, record, stored_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    // A seek in rows_by_key (`key = ?` implies the index's `key IS NOT NULL`).
    rowNumberByKey: db.prepare<[string, string], number>(`SELECT row FROM rows WHERE run_id = ? AND key = ?`).pluck(),
    // Whether the run holds row number N: a seek in the primary key.
    rowNumber: db.prepare<[string, number], number>(`SELECT row FROM rows WHERE run_id = ? AND row = ?`).pluck(),
    // The same seek, then the row's record.
    rowByKey: db.prepare(`SELECT ${ROW_COLUMNS} FROM rows WHERE run_id = ? AND key = ?`),
    // One seek at the end of the run's part of the primary key: the number appendRows gives next, less one.
    lastRow: db.prepare<[string], number>(`SELECT row FROM rows WHERE run_id = ? ORDER BY row DESC LIMIT 1`).pluck(),
    rowPage: db.prepare(
      `SELECT ${ROW_COLUMNS} FROM rows WHERE run_id = ? AND row > ? ORDER BY row LIMIT ?`,
    ),
    // The same without the record, which a reader that needs none is spared reading and parsing (`rows(id, { records: false })`).
    rowPageWithoutRecord: db.prepare(
      `SELECT ${ROW_COLUMNS.replace("record", "NULL AS record")} FROM rows WHERE run_id = ? AND row > ? ORDER BY row LIMIT ?`,
    ),
    scoresPage: db
      .prepare<[string, number, number], ScoresRecord>(
        `SELECT row, id, scores, iif(scores IS NULL, results, NULL), key FROM rows WHERE run_id = ? AND row > ? ORDER BY row LIMIT ?`,
      )
      .raw(true),
    deleteRun: db.prepare(`DELETE FROM runs WHERE id = ?`),
    rowCount: db.prepare<[string], number>(`SELECT count(*) FROM rows WHERE run_id = ?`).pluck(),
    // The run's part of the primary key, each row's record and stored_at read from the table. INDEXED BY (the primary
    // key's index): statistics taken when one run held every row (ANALYZE, run by `PRAGMA optimize`, rarely runs again)
    // made SQLite scan the whole table, every run's rows, for this run's.
    storedRows: db.prepare(
      `SELECT count(*) AS rows, count(record) AS with_record, count(stored_at) AS with_time, min(stored_at) AS first_stored_at, max(stored_at) AS last_stored_at
       FROM rows INDEXED BY sqlite_autoindex_rows_1 WHERE run_id = ?`,
    ),
    deleteRowChunk: db.prepare(`DELETE FROM rows WHERE rowid IN (SELECT rowid FROM rows WHERE run_id = ? LIMIT ?)`),
    // One index seek per run that has rows: finds rows whose run was deleted by an interrupted deleteRun.
    nextRowsRunId: db.prepare<[string], string>(`SELECT run_id FROM rows WHERE run_id > ? ORDER BY run_id LIMIT 1`).pluck(),
    runExists: db.prepare<[string], number>(`SELECT 1 FROM runs WHERE id = ?`).pluck(),
    clearSetting: db.prepare(`DELETE FROM settings WHERE key = ? AND value = ?`),
    freePages: db.prepare<[], number>(`PRAGMA freelist_count`).pluck(),
    pageSize: db.prepare<[], number>(`PRAGMA page_size`).pluck(),
    getSetting: db.prepare<[string], string>(`SELECT value FROM settings WHERE key = ?`).pluck(),
    putSetting: db.prepare(
      `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    ),
    getEmbeddings: db.prepare(
      `SELECT text_hash, dims, vector FROM embedding_cache
       WHERE provider = ? AND model = ? AND text_hash IN (SELECT value FROM json_each(?))`,
    ),
    putEmbedding: db.prepare(
      `INSERT INTO embedding_cache (provider, model, text_hash, dims, vector) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (provider, model, text_hash) DO UPDATE SET dims = excluded.dims, vector = excluded.vector`,
    ),
  };
}
