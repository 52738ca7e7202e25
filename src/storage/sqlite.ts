import type Database from "better-sqlite3";
import { argumentError, EvalError } from "../errors.js";
import { checkEvaluatorSpecs } from "../evaluators/create.js";
import { scoresOfOutcome, type RowScores } from "../run/row-scores.js";
import type { RowOutcome, RunInfo, RunSummary, SerializedRow } from "../run/types.js";
import { argumentInvalid, checkDeleteOptions, checkRunId, checkRunMeta, checkSummary, listRunsOptions, refuseDatasetIdf, rowsOptions, runOwner } from "./check-input.js";
import { checkNumberedRow, checkNumberedRows, checkUnnumberedRows, isSerialized, recordJson, refuseImpossibleScores, refuseUnknownResults, rowJson, type UnnumberedOutcome } from "./check-rows.js";
import { BUSY_TIMEOUT_MS, fileIdentity, isRowClash, openDatabase, storeError } from "./open-database.js";
import { evaluatorNames, NO_DATASET, outcomeScores, parseColumn, runEvaluators, toRowOutcome, toRunInfo, type RowRecord, type RunRecord, type StoredRows } from "./records.js";
import { FIRST_PAGE_ROWS, nextPageRows, PAGE_ROWS, rowsForResults } from "./row-pages.js";
import { newRunId, runIdTime } from "./run-id.js";
import { RUNS_OF_THIS_PROCESS, THIS_HOST, writerMayBeAlive } from "./run-owner.js";
import { decodeScores, encodeScores } from "./scores-column.js";
import { prepareStatements, type Statements } from "./statements.js";
import { CLOSED_UNFINISHED, processGone, type AppendedRow, type BeginRunOptions, type DeletedRun, type DeleteRunOptions, type FinishRunOptions, type ListRunsOptions, type RowsOptions, type RunMeta, type RunStore, type UnnumberedRow } from "./store.js";
import { DEFAULT_STORE_PATH } from "./default-store-path.js";

export { DEFAULT_STORE_PATH };

/** 9999-12-31T23:59:59.999Z: the last time whose ISO string has a four-digit year. */
const LAST_ISO_TIME = 253_402_300_799_999;

/**
 * Rows deleted per transaction by {@link SqliteRunStore.deleteRun}: each holds the write lock for under
 * 0.1 s (measured). Deleting a run's rows at once held it 2.6 s per 300,000 rows, so a large run would
 * make another process's writer give up after {@link BUSY_TIMEOUT_MS}.
 */
export const DELETE_CHUNK_ROWS = 10_000;

/** How long {@link SqliteRunStore.vacuum} waits before checkpointing again after another connection's checkpoint was in the way. */
const CHECKPOINT_RETRY_MS = 20;


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
  readonly #q: Statements;
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
    this.#file = this.#opened(() => (path === ":memory:" ? null : fileIdentity(path)));
    // A schema changed by hand (a trigger or view whose SQL does not compile) fails here, as SQLite checks it whole.
    this.#q = this.#opened(() => prepareStatements(this.#db));
    this.#addRowsTx = this.#db.transaction((runId: string, rows: readonly (RowOutcome | SerializedRow)[], span: string, storedAt: number) => {
      const names = evaluatorNames(this.#requireRunning(runId, `add ${span} to it`), this.path);
      for (const [i, r] of rows.entries()) this.#insertRow({ fn: "addRows", i }, runId, r.row, r, names, null, storedAt);
    });
    this.#appendRowsTx = this.#db.transaction((runId: string, rows: readonly UnnumberedOutcome[], records: readonly (string | null)[], doing: string, storedAt: number) => {
      // A batch the run holds already, every row by its key, is a redelivery: its numbers, whatever the run's status now.
      // Not once the run is deleted: its rows go after it, in chunks (or stay, after an interrupted deletion), and
      // their keys would answer for a run that no longer exists (then #requireRunning says there is no such run).
      const delivered = this.#q.runExists.get(runId) === undefined ? undefined : this.#storedNumbers(runId, rows);
      if (delivered) return delivered;
      const evaluators = runEvaluators(this.#requireRunning(runId, doing, () => this.#endedHolding(runId, rows, doing)), this.path);
      const names = evaluators.map((e) => e.name);
      refuseUnknownResults(runId, names, rows);
      refuseImpossibleScores(evaluators, rows);
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
   * scoring traces), stored as "" (see {@link NO_DATASET}). Refused (`STORE_FAILED`) once the database file was deleted
   * or replaced, as {@link setBaseline} and {@link deleteRun} are: no other process could find the run it answered with.
   */
  async beginRun(meta: RunMeta, opts?: BeginRunOptions): Promise<string> {
    const owned = runOwner(opts) === "process";
    checkRunMeta(meta);
    const specs = checkEvaluatorSpecs(meta.evaluators);
    if (meta.dataset_path === null) refuseDatasetIdf(specs);
    return this.#guard("begin a run", () => {
      // A run begun in a file no other process can open would be answered with an id that none of them finds.
      this.#requireSameFile();
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
   * one run and added to another keep theirs); a row number or key the run already holds fails the batch (`RUN_CONFLICT`),
   * and one given twice in it (`INPUT_INVALID`), naming the row ({@link #rowsClash}). Every row gets `stored_at` `Date.now()`, read once per call (a row's own is not kept), and
   * no `record`: these are rows of a dataset file, which holds their records (so the runner's per-row cost is unchanged).
   */
  async addRows(runId: string, rows: readonly (RowOutcome | SerializedRow)[]): Promise<void> {
    checkRunId("addRows", runId);
    checkNumberedRows(rows);
    if (rows.length === 0) return;
    let lo = Infinity;
    let hi = -Infinity;
    for (const [i, r] of rows.entries()) {
      checkNumberedRow(r, i);
      lo = Math.min(lo, r.row);
      hi = Math.max(hi, r.row);
    }
    const span = lo === hi ? `row ${lo}` : `rows ${lo}..${hi}`;
    this.#guard(`add ${span} to run ${runId}`, () => {
      this.#requireSameFile();
      try {
        this.#addRowsTx.immediate(runId, rows, span, Date.now());
      } catch (error) {
        if (isRowClash((error as { code?: unknown } | null)?.code)) throw this.#rowsClash(runId, rows, span) ?? error;
        throw error;
      }
    });
  }

  /**
   * Why SQLite refused `rows` given to `addRows` a row number or key twice, naming the row, where its own words were
   * "UNIQUE constraint failed: rows.run_id, rows.key": one given twice in the batch (INPUT_INVALID, the caller's
   * rows), or one the run holds (RUN_CONFLICT). Undefined when neither is found (rows another process deleted since),
   * and SQLite's error stands. Read only on this path: the runner's batches pay nothing for it.
   */
  #rowsClash(runId: string, rows: readonly (RowOutcome | SerializedRow)[], span: string): EvalError | undefined {
    const keyOf = (r: RowOutcome | SerializedRow) => (r as { key?: string }).key;
    const numbers = new Map<number, number>();
    const keys = new Map<string, number>();
    for (const [i, r] of rows.entries()) {
      const key = keyOf(r);
      const [field, value, first] = numbers.has(r.row) ? ["row", r.row, numbers.get(r.row)] : ["key", JSON.stringify(key), key === undefined ? undefined : keys.get(key)];
      if (first !== undefined) {
        const message = `rows[${i}].${field} ${value} is given twice in the batch, also as rows[${first}].${field}: each row of a run has its own number and key (nothing of the batch was stored)`;
        return new EvalError("INPUT_INVALID", `addRows: ${message}`, { issues: [{ path: ["rows", i, field], message, received: String(value) }] });
      }
      numbers.set(r.row, i);
      if (key !== undefined) keys.set(key, i);
    }
    for (const [i, r] of rows.entries()) {
      const key = keyOf(r);
      const held =
        this.#q.rowNumber.get(runId, r.row) !== undefined
          ? `row ${r.row} (rows[${i}].row)`
          : key !== undefined && this.#q.rowNumberByKey.get(runId, key) !== undefined
            ? `a row with the key ${JSON.stringify(key)} (rows[${i}].key)`
            : null;
      if (held) return new EvalError("RUN_CONFLICT", `${this.path}: could not add ${span} to run ${runId}: it holds ${held} already, and a row's number and key are stored once in a run (nothing of the batch was stored)`);
    }
    return undefined;
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
   * under a name that is none of the run's evaluators', a score that evaluator's type cannot give (see `refuseImpossibleScores`), a `line` that is not null or a whole number from 1, a `key` that is not a non-empty string, or a
   * `record` that is not a plain object whose JSON is an object (see `recordJson`); `RUN_NOT_FOUND` a run that is
   * unknown (or was deleted), and `RUN_CONFLICT` one not running when the batch holds a row the run has not stored. A batch whose every row has a key
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
   * What {@link appendRows} says it cannot do (`doing`) to run `runId`, which has ended: also which of the rows it
   * holds already by key, when some are, so that a queue consumer whose redelivered batch gained a new row learns
   * that only that row is refused, and to send the others again apart for their numbers.
   */
  #endedHolding(runId: string, rows: readonly UnnumberedRow[], doing: string): string {
    const fresh = rows.flatMap(({ key }, i) => (key !== undefined && this.#q.rowNumberByKey.get(runId, key) !== undefined ? [] : [i]));
    const held = rows.length - fresh.length;
    if (held === 0) return doing;
    const more = fresh.length > 1 ? ` and ${(fresh.length - 1).toLocaleString("en-US")} more` : "";
    return `${doing}: it holds ${held.toLocaleString("en-US")} of them already (by key) but not rows[${fresh[0]}]${more}; send again only the rows it holds, to learn their numbers`;
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
   * Runs, newest first, or the page `opts` asks for (see {@link ListRunsOptions}). A "running" run whose process has died on this host is reported (and recorded) as
   * incomplete, with a stop reason that says its process is gone.
   */
  async listRuns(opts: ListRunsOptions = {}): Promise<RunInfo[]> {
    const { after, limit } = listRunsOptions(opts);
    return this.#guard("list runs", () => {
      const dead = this.#reapDeadRuns();
      const from = after === undefined ? undefined : this.#listedAfter(after);
      const page = from === undefined ? this.#q.runsPage.all(limit) : this.#q.runsPageAfter.all({ started_at: from.started_at, id: from.id, limit });
      return page.map((r) => toRunInfo(r, dead, this.path));
    });
  }

  /**
   * Where listRuns' `after` places its page: the run with that id, or, for a run id that no run has (the last run of
   * the page before, deleted since by another client), the time its id holds, which was its `started_at`, so that
   * the next page neither fails nor skips or repeats a run. RUN_NOT_FOUND for a string that is no run id.
   */
  #listedAfter(after: string): { started_at: string; id: string } {
    const run = this.#q.runById.get(after);
    if (run !== undefined) return run;
    const time = runIdTime(after);
    if (time === undefined) return this.#run(after);
    // An id's time reaches the year 37,000; ISO strings past 9999 start with "+" and would sort before every run.
    return { started_at: new Date(Math.min(time, LAST_ISO_TIME)).toISOString(), id: after };
  }

  /** The run with exactly the id `runId`, or undefined (see {@link RunStore.getRun}). */
  async getRun(runId: string): Promise<RunInfo | undefined> {
    checkRunId("getRun", runId);
    return this.#guard(`read run ${runId}`, () => {
      const dead = this.#reapDeadRuns();
      const run = this.#q.runById.get(runId);
      return run && toRunInfo(run, dead, this.path);
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
      if (byIdOrName) return toRunInfo(byIdOrName, dead, this.path);
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
      return found && toRunInfo(found, dead, this.path);
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
    const { records, after, limit } = rowsOptions(opts);
    const run = this.#guard(`read the rows of run ${runId}`, () => this.#run(runId));
    const chars = (r: RowRecord) => r.results.length + (r.error?.length ?? 0) + (r.record?.length ?? 0);
    const statement = records ? this.#q.rowPage : this.#q.rowPageWithoutRecord;
    const pages = this.#pages(runId, statement, (r) => r.row, chars, rowsForResults(evaluatorNames(run, this.path).length), { after, limit });
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
    const names = evaluatorNames(this.#guard(`read the scores of run ${runId}`, () => this.#run(runId)), this.path);
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
   * page was whole. A run deleted by another process between pages is `RUN_NOT_FOUND`: its later pages
   * would come back empty or with a gap, and a comparison would have judged the rows read so far as the run.
   * `from.after` and `from.limit` (default: every row) give the rows read: the first `limit` numbered above `after`.
   */
  *#pages<T>(
    runId: string,
    statement: Database.Statement<[string, number, number], T>,
    rowOf: (r: T) => number,
    charsOf: (r: T) => number,
    maxRows = PAGE_ROWS,
    from = { after: Number.MIN_SAFE_INTEGER, limit: Number.MAX_SAFE_INTEGER },
  ): Generator<T[]> {
    let { after, limit: left } = from;
    let limit = Math.min(FIRST_PAGE_ROWS, maxRows, left);
    for (;;) {
      const page = this.#guard(`read the rows of run ${runId}`, () => {
        const rows = statement.all(runId, after, limit);
        if (this.#q.runExists.get(runId) === undefined) {
          throw new EvalError("RUN_NOT_FOUND", `${this.path}: run ${runId} was deleted while its rows were being read; the rows read before then are only part of the run`);
        }
        return rows;
      });
      const last = page[page.length - 1];
      left -= page.length;
      if (last === undefined || page.length < limit || left === 0) {
        yield page;
        return;
      }
      after = rowOf(last);
      let chars = 0;
      for (const r of page) chars += charsOf(r);
      limit = Math.min(nextPageRows(page.length, chars), maxRows, left);
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
   * 0.2 s where it takes 5 ms (1 KB records: 0.06 s), yet no row is parsed. `RUN_NOT_FOUND` when there is no such run.
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
   * argument, when `runId` or `key` is not a non-empty string, and RUN_NOT_FOUND when there is no run `runId`
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
          this.#requireSameFile("the baseline was not set");
          this.#run(runId);
          this.#q.putSetting.run("baseline", runId);
        })
        .immediate(),
    );
  }

  /**
   * Deletes a run and its rows, and unsets the baseline when it was this run. Refuses (`RUN_CONFLICT`)
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
          this.#requireSameFile("nothing was deleted");
          const run = this.#run(runId);
          if (run.status === "running" && !opts.force && writerMayBeAlive(run)) {
            const by = run.pid === null ? "owned by no process: finish or abort it, or force the deletion" : `process ${run.pid} on ${run.host ?? "?"}`;
            throw new EvalError("RUN_CONFLICT", `${this.path}: run ${runId} is still being recorded (${by}); stop it before deleting it`);
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
   * reading the database (or held its write lock past the busy timeout): the compacted copy then waits in the write-ahead log, and the file shrinks
   * only once no process has it open.
   *
   * The checkpoint that moves the copy into the file is tried again, every {@link CHECKPOINT_RETRY_MS} ms for up to
   * the busy timeout, while another connection checkpoints: SQLite answers busy at once then, without waiting (the
   * automatic checkpoint of a process that commits while the log holds the whole copy, or the one a process makes
   * as it closes), and vacuuming resolved to false, saying another process was reading, when none was.
   */
  async vacuum(): Promise<boolean> {
    await this.#deleteRowsOf(this.#guard("find rows of deleted runs", () => this.#orphanRunIds()));
    const doing = "vacuum the database";
    this.#guard(doing, () => this.#db.exec("VACUUM"));
    // Readers or a writer in the way are waited for by SQLite itself, up to the busy timeout: then no try is left.
    const deadline = Date.now() + this.#guard(doing, () => this.#db.pragma("busy_timeout", { simple: true }) as number);
    for (;;) {
      const [checkpoint] = this.#guard(doing, () => this.#db.pragma("wal_checkpoint(TRUNCATE)") as { busy: number }[]);
      if (checkpoint?.busy === 0) return true;
      if (Date.now() + CHECKPOINT_RETRY_MS > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, CHECKPOINT_RETRY_MS));
    }
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
      return run && toRunInfo(run, dead, this.path);
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

  /** The run's record; `RUN_NOT_FOUND` when there is no such run (never recorded, or deleted). */
  #run(runId: string): RunRecord {
    const run = this.#q.runById.get(runId);
    if (run === undefined) throw new EvalError("RUN_NOT_FOUND", `${this.path}: no run with id "${runId}"`);
    return run;
  }

  /**
   * The record of run `runId`, which must be running; RUN_CONFLICT saying it cannot `doing` otherwise, or
   * `ended()` when given, of a run that has ended (worked out only then, off the path of every call), and
   * RUN_NOT_FOUND when there is no such run (one this process was recording, deleted by another, said so).
   */
  #requireRunning(runId: string, doing: string, ended?: () => string): RunRecord {
    if (this.#mine.has(runId) && this.#q.runById.get(runId) === undefined) {
      // Only another process can have removed it: `simeval delete --force` takes a run recorded as running.
      throw new EvalError("RUN_NOT_FOUND", `${this.path}: run ${runId}, which this process was recording, was deleted by another process (simeval delete --force); cannot ${doing}`);
    }
    const run = this.#run(runId);
    if (run.status !== "running") {
      throw new EvalError("RUN_CONFLICT", `${this.path}: run ${runId} is ${run.status}; cannot ${ended?.() ?? doing}`);
    }
    return run;
  }

  /**
   * Throws when the file at {@link path} is no longer the one this store opened (`outcome`: what that left undone): deleted, or
   * replaced by another (moved onto the path, a copy put back). SQLite goes on writing the file it opened, which
   * no other process can open any more, so a run would end as recorded with nothing to read it back from.
   * One `stat` per batch of rows.
   */
  #requireSameFile(outcome = "the run is lost; run it again"): void {
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
      `the database file was ${now === null ? "deleted" : "replaced by another file"} after this process opened it, so nothing it records can be read back from ${this.path} (${outcome})`,
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
    // Not worth waiting for another process's write lock (a large batch of rows, a `delete --vacuum`): every read
    // (getRun, listRuns, findRun) waited the whole busy timeout for it, 5 s each while a dead run was left unrecorded.
    const timeout = this.#db.pragma("busy_timeout", { simple: true }) as number;
    this.#db.pragma("busy_timeout = 0");
    try {
      this.#db.transaction(() => {
        for (const [id, reason] of dead) this.#q.markDead.run(reason, id);
      }).immediate();
    } catch {
      // Reading must not fail because the file cannot be written now; the next reader will try again.
    } finally {
      this.#db.pragma(`busy_timeout = ${timeout}`);
    }
    return dead;
  }

  /** `fn`'s value, or, when it throws, the database closed and the failure thrown as opening the store's ({@link #guard}). */
  #opened<T>(fn: () => T): T {
    try {
      return this.#guard("open the run store", fn);
    } catch (error) {
      this.#db.close();
      throw error;
    }
  }

  /**
   * Runs `fn`, turning any failure that is not already an EvalError into what {@link storeError} makes of it (`STORE_FAILED`
   * naming the file, `transient` when SQLite's code says retrying may succeed; `RUN_CONFLICT` for a row written twice); an EvalError (`RUN_NOT_FOUND`,
   * `RUN_CONFLICT`, …) passes as it is.
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

