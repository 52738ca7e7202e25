import type { Database } from "better-sqlite3";
import { EvalError } from "../errors.js";

/**
 * `PRAGMA application_id` of a simeval store ("SiEv" in ASCII). It marks the file as ours, so that opening
 * some other program's SQLite database fails instead of adding our tables to it.
 */
export const APPLICATION_ID = 0x53694576;

/**
 * The schema, one entry per version: `MIGRATIONS[i]` takes a database from version `i` to `i + 1`
 * (`PRAGMA user_version`). Append only: a released migration is never edited, since databases in the
 * field have already run it.
 *
 * JSON columns hold `JSON.stringify` output. `rows.id` is NULL when the row had no id and `'null'` when
 * the id was JSON null. `runs.pid`/`runs.host` name the writing process, so that a run whose process
 * died without a word (SIGKILL, power cut) can be told apart from one still running (`host`: the host
 * name, then the pid namespace where Linux tells it; runs of older versions hold the name alone. See `THIS_HOST`).
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE runs (
    id TEXT NOT NULL PRIMARY KEY,
    name TEXT,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'incomplete')),
    dataset_path TEXT NOT NULL,
    dataset_hash TEXT NOT NULL,
    evaluators TEXT NOT NULL,
    summary TEXT,
    pid INTEGER,
    host TEXT
  ) STRICT;
  CREATE INDEX runs_by_name ON runs (name, started_at);
  CREATE INDEX runs_by_start ON runs (started_at);

  -- A rowid table: a row's results are about 1.5 KB of JSON, too large for WITHOUT ROWID, which
  -- measured 1.7x slower to write and 2.2x larger on disk (200,000 rows of four evaluators).
  CREATE TABLE rows (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    row INTEGER NOT NULL,
    id TEXT,
    line INTEGER,
    results TEXT NOT NULL,
    error TEXT,
    PRIMARY KEY (run_id, row)
  ) STRICT;

  CREATE TABLE settings (
    key TEXT NOT NULL PRIMARY KEY,
    value TEXT NOT NULL
  ) STRICT;

  -- A rowid table on purpose: vectors are kilobytes, and WITHOUT ROWID suits small rows only.
  CREATE TABLE embedding_cache (
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    dims INTEGER NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (provider, model, text_hash)
  ) STRICT;
  `,
  // Each row's pairable scores apart from its results, so that a comparison reads a few bytes a row
  // instead of parsing its results JSON. Written by scores-column.ts; NULL for rows written before this
  // version, whose scores are then read from `results`.
  `
  ALTER TABLE rows ADD COLUMN scores TEXT;
  `,
  // Why an incomplete run stopped, in a sentence ("interrupted (SIGINT)"): written when the run is marked
  // incomplete, NULL for other runs and for runs marked incomplete before this version.
  `
  ALTER TABLE runs ADD COLUMN stop_reason TEXT;
  `,
  // A row's idempotency key (RowOutcome.key), given by whoever added it to tell a second delivery of the
  // same row (a trace taken twice from a queue) from a new one; NULL for rows without one, which are as
  // many as they come. Unique within a run: the partial index both enforces that and finds a row by its key.
  `
  ALTER TABLE rows ADD COLUMN key TEXT;
  CREATE UNIQUE INDEX rows_by_key ON rows (run_id, key) WHERE key IS NOT NULL;
  `,
  // A row's evaluated record (RowOutcome.record: the JSON object its evaluators were given), for rows of a run
  // not read from a dataset file (a service's traces), whose texts no file holds; and when the row was stored
  // (RowOutcome.stored_at, milliseconds since the epoch). NULL for rows stored before this version, and the
  // record NULL for rows read from a dataset file. Columns added, the table not rewritten: instant on any file.
  `
  ALTER TABLE rows ADD COLUMN record TEXT;
  ALTER TABLE rows ADD COLUMN stored_at INTEGER;
  `,
];

/** The schema version this code writes and reads: the number of {@link MIGRATIONS}. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings `db` up to {@link SCHEMA_VERSION}, in one `BEGIN IMMEDIATE` transaction so that two processes
 * opening a new file at once do not both create the tables (the second waits, then sees the new version).
 * Throws `USAGE` naming `path` when the file was written by a newer simeval (saying to upgrade or give
 * another --db), or is a SQLite database that belongs to some other program: this build cannot use it.
 */
export function migrate(db: Database, path: string): void {
  if (check(db, path) === SCHEMA_VERSION) return;
  db.transaction(() => {
    const version = check(db, path); // again, under the write lock: another process may have migrated
    for (let v = version; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v] ?? "");
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

/**
 * The file's schema version, after checking that simeval can use it. Its version, application id and tables are read
 * in one transaction, as of one moment: read one by one, another connection opening the same new file (a thread or
 * process) could create the tables and set the id in between, and the file read as no one's (id 0) with tables in it
 * was refused as another program's database (about one in fifty of three threads opening a new file at once).
 */
function check(db: Database, path: string): number {
  const { version, appId, tables } = db.transaction(() => {
    const appId = Number(db.pragma("application_id", { simple: true }));
    return {
      version: Number(db.pragma("user_version", { simple: true })),
      appId,
      tables: appId === APPLICATION_ID ? [] : (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all() as string[]),
    };
  })();
  if (appId !== APPLICATION_ID) {
    if (appId !== 0 || version !== 0 || tables.length > 0) {
      throw new EvalError(
        "USAGE",
        `${path} is a SQLite database but not a simeval run store (application_id ${appId}, tables: ${tables.join(", ") || "none"}); ` +
          `point simeval at a new file or at its own .simeval/simeval.db`,
      );
    }
  }
  if (version > SCHEMA_VERSION) {
    // Nothing failed: the same command fails until simeval is upgraded or another file is named (USAGE, exit 2).
    throw new EvalError(
      "USAGE",
      `${path} was written by a newer simeval (schema version ${version}; this version reads up to ${SCHEMA_VERSION}): ` +
        `open it with the simeval that wrote it, or a later one (simeval is installed from its folder or tarball, not from the npm registry), or give --db another file`,
    );
  }
  return version;
}
