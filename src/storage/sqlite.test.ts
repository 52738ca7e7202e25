import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readlinkSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { describeValue, EvalError, type ErrorCode } from "../errors.js";
import { createEvaluators } from "../evaluators/create.js";
import { evaluatorTypes } from "../evaluators/registry.js";
import type { EvaluatorSpec } from "../evaluators/spec.js";
import type { RowOutcome, RunSummary, SerializedRow } from "../run/types.js";
import { rowScores } from "../run/row-scores.js";
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from "./migrations.js";
import { collect, evalErrorOf, thrownEvalError } from "../test-support.js";
import { nextPageRows, rowsForResults } from "./row-pages.js";
import { THIS_HOST } from "./run-owner.js";
import { DELETE_CHUNK_ROWS, openSqliteStore, type SqliteRunStore } from "./sqlite.js";
import { CLOSED_UNFINISHED, processGone, type UnnumberedRow } from "./store.js";
import { RUN_NAME_EXPECTED } from "./run-name.js";

const SQLITE_TS = fileURLToPath(new URL("./sqlite.ts", import.meta.url));
const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

let dir: string;
let dbPath: string;
const opened: SqliteRunStore[] = [];

function open(path = dbPath): SqliteRunStore {
  const store = openSqliteStore(path);
  opened.push(store);
  return store;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "simeval-store-"));
  dbPath = join(dir, "nested", "deeper", "simeval.db");
});

afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

const META = { name: "nightly", dataset_path: "data/qa.jsonl", dataset_hash: "ab".repeat(32), evaluators: [{ type: "exact_match", name: "em" }] };

const SUMMARY: RunSummary = {
  rows: 3,
  row_errors: 1,
  skipped_as_zero: false,
  evaluators: [
    { name: "em", type: "exact_match", direction: "maximize", threshold: null, n: 2, skipped: 0, errors: 0, mean: 0.5, median: 0.5, p10: 0, p90: 1, min: 0, max: 1, pass_rate: 0.5, verdicts: 2 },
  ],
};

function result(score: number): RowOutcome["results"] {
  return { em: { type: "exact_match", score, passed: score === 1, label: score === 1 ? "pass" : "fail", reasoning: "r", skipped: false, details: { n: score } } };
}

/** What appendRows answers for rows it stored as numbers `rows`. */
function added(...rows: number[]): { row: number; added: boolean }[] {
  return rows.map((row) => ({ row, added: true }));
}

/** What appendRows answers for a row whose key the run held already, as number `row`. */
function kept(row: number): { row: number; added: boolean } {
  return { row, added: false };
}

/**
 * `row` without its `stored_at`, after checking that it has one: a whole number of milliseconds since the epoch
 * within the last ten minutes (every row the store stores gets one; see RowOutcome.stored_at).
 */
function untimed<T extends RowOutcome | undefined>(row: T): T {
  if (row === undefined) return row;
  const { stored_at, ...rest } = row;
  expect(Number.isSafeInteger(stored_at) && stored_at! <= Date.now() && stored_at! > Date.now() - 600_000, `stored_at ${stored_at}`).toBe(true);
  return rest as T;
}

/** The rows of run `id` as `rows()` reads them, less their `stored_at` (see {@link untimed}). */
async function untimedRows(store: SqliteRunStore, id: string): Promise<RowOutcome[]> {
  return (await collect(store.rows(id))).map(untimed);
}

function numbered(from: number, to: number): RowOutcome[] {
  const out: RowOutcome[] = [];
  for (let row = from; row <= to; row++) out.push({ row, id: row, line: row + 1, results: result(row % 2) });
  return out;
}

/** What `read` returns, and the row limit of each page it asked for (the last argument of every Statement.all call meanwhile). */
async function withPageLimits<T>(read: () => Promise<T>): Promise<[T, number[]]> {
  const probe = new Database(":memory:");
  const all = vi.spyOn(Object.getPrototypeOf(probe.prepare("SELECT 1")) as Database.Statement, "all");
  probe.close();
  try {
    const result = await read();
    return [result, all.mock.calls.map((c) => c[2]).filter((l): l is number => typeof l === "number")];
  } finally {
    all.mockRestore();
  }
}

/** The error of code `code` (STORE_FAILED, or the store's refusal of an unknown or ended run) that `fn` throws or rejects with. */
async function storeError(fn: () => unknown, code: ErrorCode = "STORE_FAILED"): Promise<EvalError> {
  const error = await evalErrorOf(Promise.resolve().then(fn));
  expect(error.code).toBe(code);
  return error;
}

/**
 * A store whose connection waits `ms` for another connection's write lock, not the store's 5 s
 * (BUSY_TIMEOUT_MS), so that a test of the lock timing out takes no time: SQLite's busy timeout is set
 * anew on each pragma call while it opens.
 */
/** A new simeval store at `path` as schema version `version` left it (its first migrations, and that user_version), open, for a test to fill. */
function databaseAtVersion(path: string, version: number): Database.Database {
  const db = new Database(path);
  db.pragma(`application_id = ${APPLICATION_ID}`);
  for (const m of MIGRATIONS.slice(0, version)) db.exec(m);
  db.pragma(`user_version = ${version}`);
  return db;
}

function openWithBusyTimeout(ms: number): SqliteRunStore {
  const pragma = Database.prototype.pragma;
  const spy = vi.spyOn(Database.prototype, "pragma").mockImplementation(function (this: Database.Database, source: string, options?: Database.PragmaOptions) {
    pragma.call(this, `busy_timeout = ${ms}`);
    // The open's own setting of the busy timeout, once open, is this one too.
    return pragma.call(this, /^busy_timeout\s*=/.test(source) ? `busy_timeout = ${ms}` : source, options);
  });
  try {
    return open();
  } finally {
    spy.mockRestore();
  }
}

/** Reads a run's columns behind the store's back, to see what is really on disk. */
function rawRun(id: string): { status: string; pid: number; host: string; stop_reason: string | null } {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare("SELECT status, pid, host, stop_reason FROM runs WHERE id = ?").get(id) as { status: string; pid: number; host: string; stop_reason: string | null };
  } finally {
    db.close();
  }
}

/** Runs a script in a child `node --import tsx`; resolves with the child once its first stdout line arrived. */
function startChild(source: string, args: string[]) {
  const script = join(dir, `child-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(script, `import { openSqliteStore } from ${JSON.stringify(pathToFileURL(SQLITE_TS).href)};\n${source}`);
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      const nl = stdout.indexOf("\n");
      if (nl >= 0) resolve(stdout.slice(0, nl));
    });
    void exited.then((e) => reject(new Error(`child exited (${e.code ?? e.signal}) before writing a line: ${e.stderr}`)));
  });
  return { child, firstLine, exited };
}

/**
 * Runs `source` in one child per entry of `argsOf` (each child's `process.argv.slice(2)`: `dbPath`, then
 * that entry), started together: each child says it is ready, then waits for the parent's go before running
 * `source`, so that they all write at the same time. Resolves, once every child exited 0, to each one's
 * second stdout line (the line after "ready") parsed as JSON.
 */
async function runTogether(source: string, argsOf: readonly string[][]): Promise<unknown[]> {
  const go = join(dir, "go");
  const waitForGo = `import { existsSync } from "node:fs";
    process.stdout.write("ready\\n");
    while (!existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 1));
  `;
  const children = argsOf.map((args) => startChild(waitForGo + source, [dbPath, ...args]));
  await Promise.all(children.map((c) => c.firstLine));
  writeFileSync(go, "");
  const exits = await Promise.all(children.map((c) => c.exited));
  for (const r of exits) expect(r, r.stderr).toMatchObject({ code: 0 });
  return exits.map((r) => JSON.parse(r.stdout.split("\n")[1] as string) as unknown);
}

describe("opening", () => {
  it("refuses a path that is not a non-empty string, and a second argument, naming them (5 was STORE_FAILED with node's message, a second argument was ignored)", () => {
    for (const [path, received] of [[5, "number 5"], [null, "null"], [undefined, "nothing"], ["", 'string ""']] as const) {
      expect(thrownEvalError(() => openSqliteStore(path as never))).toMatchObject({
        code: "INPUT_INVALID",
        message: `openSqliteStore: path must be the path of a SQLite database file (a non-empty string) or ":memory:", received ${received}`,
      });
    }
    const call = openSqliteStore as (...args: unknown[]) => SqliteRunStore;
    expect(thrownEvalError(() => call(":memory:", 5))).toMatchObject({
      code: "CONFIG_INVALID",
      message: "openSqliteStore: a second argument must be nothing (it takes only a path), received number 5",
    });
    expect(thrownEvalError(() => call(":memory:", { readonly: true })).message).toBe("openSqliteStore: a second argument must be nothing (it takes only a path), received object");
  });

  it("says a call on a closed store is one on a closed store (STORE_FAILED, not transient), whatever the call", async () => {
    const store = open();
    const id = await store.beginRun(META, { owner: "none" });
    await store.close();
    await store.close(); // a second close is a no-op
    const closed = (doing: string) => ({ code: "STORE_FAILED", transient: false, message: `${dbPath}: could not ${doing}: this store was closed (its close() was called); open the file again with openSqliteStore` });
    expect(await evalErrorOf(store.appendRows(id, [{ results: {} }]))).toMatchObject(closed(`append a row to run ${id}`));
    expect(await evalErrorOf(store.findRun(id))).toMatchObject(closed(`find run "${id}"`));
    expect(await evalErrorOf(store.listRuns())).toMatchObject(closed("list runs"));
    expect(await evalErrorOf(collect(store.rows(id)))).toMatchObject(closed(`read the rows of run ${id}`));
  });

  it("creates the parent directories and a WAL database with 16 KiB pages at the current schema version", async () => {
    await open().close();
    expect(existsSync(dbPath)).toBe(true);
    const db = new Database(dbPath, { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("page_size", { simple: true })).toBe(16384);
    expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma("application_id", { simple: true })).toBe(APPLICATION_ID);
    db.close();
  });

  it("closes without waiting for another connection's write lock: its optimisation is skipped rather than wait the lock timeout", async () => {
    const store = open();
    await store.listRuns();
    const holder = new Database(dbPath);
    holder.prepare("BEGIN IMMEDIATE").run();
    const pragma = Database.prototype.pragma;
    const timeoutsAtOptimize: unknown[] = [];
    const spy = vi.spyOn(Database.prototype, "pragma").mockImplementation(function (this: Database.Database, source: string, options?: Database.PragmaOptions) {
      if (source === "optimize") timeoutsAtOptimize.push(pragma.call(this, "busy_timeout", { simple: true }));
      return pragma.call(this, source, options);
    });
    try {
      await store.close();
    } finally {
      spy.mockRestore();
      holder.prepare("ROLLBACK").run();
      holder.close();
    }
    // With the store's 5 s lock timeout, the optimisation waited for the holder's lock to the end.
    expect(timeoutsAtOptimize).toEqual([0]);
  });

  it("cuts a WAL that grew while another connection read back to 64 MiB once a checkpoint resets it", async () => {
    const store = open();
    const id = await store.beginRun(META);
    // A reader's snapshot keeps checkpoints from going back to the WAL's start, so the WAL grows past the limit.
    const reader = new Database(dbPath, { readonly: true });
    reader.prepare("BEGIN").run();
    reader.prepare("SELECT count(*) FROM runs").get();
    const big = "x".repeat(8000);
    const rowsFrom = (from: number): SerializedRow[] =>
      Array.from({ length: 1000 }, (_, i) => ({ row: from + i, line: null, id: "null", results: JSON.stringify({ em: { reasoning: big } }), error: null }));
    for (let batch = 0; batch < 10; batch++) await store.addRows(id, rowsFrom(batch * 1000 + 1));
    const grown = statSync(`${dbPath}-wal`).size;
    expect(grown).toBeGreaterThan(64 * 2 ** 20);
    reader.prepare("COMMIT").run();
    reader.close();
    // The next commit checkpoints the whole WAL; the one after starts it afresh, and cuts the file.
    await store.addRows(id, rowsFrom(20_001).slice(0, 10));
    await store.addRows(id, rowsFrom(30_001).slice(0, 10));
    expect(statSync(`${dbPath}-wal`).size).toBeLessThanOrEqual(64 * 2 ** 20);
    await store.close();
  });

  it("refuses a row whose number is not a whole number from 1, and stores none of its batch", async () => {
    const store = open();
    const id = await store.beginRun(META);
    for (const bad of [0, -1, 2.5, "3", Number.NaN, null]) {
      const rows = [...numbered(1, 2), { ...numbered(3, 3)[0]!, row: bad as number }];
      await expect(store.addRows(id, rows)).rejects.toMatchObject({ code: "INPUT_INVALID", message: expect.stringMatching(/^addRows: rows\[2\]\.row must be a whole number from 1 \(the row's number in its dataset\), received /) });
    }
    expect(await collect(store.rows(id))).toEqual([]);
    await store.addRows(id, numbered(1, 3));
    expect((await collect(store.rows(id))).map((r) => r.row)).toEqual([1, 2, 3]);
    await store.close();
  });

  it("refuses rows that are not an array, and a row that is no object or whose results are neither an object nor JSON, naming it, and stores none of its batch", async () => {
    const store = open();
    const id = await store.beginRun(META);
    for (const bad of [5, null, "rows"]) {
      await expect(store.addRows(id, bad as unknown as RowOutcome[])).rejects.toMatchObject({ code: "INPUT_INVALID", message: `addRows: rows must be an array of rows (RowOutcomes or SerializedRows), received ${describeValue(bad)}` });
    }
    await expect(store.addRows(id, [...numbered(1, 1), 7 as unknown as RowOutcome])).rejects.toMatchObject({ code: "INPUT_INVALID", message: "addRows: rows[1] must be a row (a RowOutcome or SerializedRow), received number 7" });
    // No results (a row error given as { row, id, error }) was STORE_FAILED "Cannot convert undefined or null to object";
    // 5 or an array was stored as it was and read back so ([{ score: 1 }] as a score of an evaluator named "0").
    for (const bad of [undefined, 5, [{ score: 1 }], null]) {
      const row = { row: 2, id: "b", error: { code: "ROW_INVALID", message: "bad" }, results: bad } as unknown as RowOutcome;
      await expect(store.addRows(id, [...numbered(1, 1), row])).rejects.toMatchObject({
        code: "INPUT_INVALID",
        message: `addRows: rows[1].results must be an object of results by evaluator name ({} for a row that could not be read), or their JSON, received ${describeValue(bad)}`,
      });
    }
    expect(await collect(store.rows(id))).toEqual([]);
    await store.close();
  });


  it("reopens an existing store without migrating it again and keeps its runs", async () => {
    const a = open();
    const id = await a.beginRun(META);
    await a.addRows(id, numbered(1, 10));
    await a.finishRun(id, SUMMARY);
    await a.close();
    await a.close(); // idempotent
    const b = open();
    expect((await b.findRun(id))?.status).toBe("complete");
    expect((await collect(b.rows(id))).map((r) => r.row)).toEqual(numbered(1, 10).map((r) => r.row));
  });

  it("upgrades a version 2 store in place: its runs and rows are kept, with no stop reason for the runs it marked incomplete", async () => {
    const old = join(dir, "v2.db");
    const db = databaseAtVersion(old, 2);
    const evaluators = JSON.stringify([{ type: "exact_match", name: "em" }]);
    const insertRun = db.prepare(
      `INSERT INTO runs (id, started_at, status, dataset_path, dataset_hash, evaluators, summary, pid, host) VALUES (?, '2026-01-01T00:00:00Z', ?, 'd', 'h', ?, ?, ?, ?)`,
    );
    insertRun.run("done", "complete", evaluators, JSON.stringify(SUMMARY), 1, THIS_HOST);
    insertRun.run("cut", "incomplete", evaluators, JSON.stringify(SUMMARY), 1, THIS_HOST);
    insertRun.run("dead", "running", evaluators, null, 999999999, THIS_HOST); // no such process on this host
    db.prepare("INSERT INTO rows (run_id, row, id, results, scores) VALUES ('cut', 1, '\"a\"', ?, '[1]')").run(JSON.stringify(result(1)));
    db.close();

    const store = open(old);
    const raw = new Database(old, { readonly: true });
    expect(raw.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    expect(raw.prepare("SELECT name FROM pragma_table_info('runs') WHERE name = 'stop_reason'").pluck().all()).toEqual(["stop_reason"]);
    raw.close();
    const runs = Object.fromEntries((await store.listRuns()).map((r) => [r.id, [r.status, r.stop_reason, r.summary]]));
    expect(runs).toEqual({ done: ["complete", null, SUMMARY], cut: ["incomplete", null, SUMMARY], dead: ["incomplete", processGone(999999999), null] });
    expect(await collect(store.scores("cut"))).toEqual([{ row: 1, id: "a", scores: { em: 1 } }]);
    // New runs in it record why they stopped, and the file opens again as it is.
    const id = await store.beginRun(META);
    await store.abortRun(id, null, "interrupted (SIGINT)");
    await store.close();
    expect((await open(old).findRun(id))?.stop_reason).toBe("interrupted (SIGINT)");
  });

  it("rejects a file that is not a SQLite database, naming the path, as a bad argument (USAGE)", async () => {
    writeFileSync(join(dir, "notes.db"), "these are my notes, not a database\n".repeat(200));
    const e = await evalErrorOf(Promise.resolve().then(() => open(join(dir, "notes.db"))));
    expect(e.code).toBe("USAGE");
    expect(e.message).toContain(join(dir, "notes.db"));
    expect(e.message).toContain("not a SQLite database");
  });

  it("refuses a database whose schema was changed by hand so that it does not compile (STORE_FAILED naming the path), not a stack trace", async () => {
    const path = join(dir, "tampered.db");
    await open(path).close();
    const db = new Database(path);
    // A double-quoted "string" is a column name to SQLite: the trigger is stored, and every later statement fails.
    db.exec(`CREATE TRIGGER nope BEFORE INSERT ON embedding_cache BEGIN SELECT RAISE(ABORT, "full"); END;`);
    db.close();
    // The connection it opened is closed: a service that retries would otherwise keep one open (a file descriptor) per try.
    const closed = vi.spyOn(Database.prototype, "close");
    try {
      const e = await evalErrorOf(Promise.resolve().then(() => open(path)));
      expect(e.code).toBe("STORE_FAILED");
      expect(e.message).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: could not open the run store: no such column: "full"`));
      expect(closed).toHaveBeenCalledTimes(1);
      expect((closed.mock.contexts[0] as Database.Database).open).toBe(false);
    } finally {
      closed.mockRestore();
    }
  });

  it("rejects a directory as a bad argument (USAGE), saying it is one", async () => {
    const e = await evalErrorOf(Promise.resolve().then(() => open(dir)));
    expect(e.code).toBe("USAGE");
    expect(e.message).toContain(`${dir}: could not open the run store`);
    expect(e.message).toContain("the path is a directory, not a database file");
  });

  it("rejects a device such as /dev/null as a bad argument (USAGE), not a disk failure, before SQLite opens it", async () => {
    // Opened, /dev/null gave SQLite an empty database, which made /dev/null-journal as root before failing.
    const pragma = vi.spyOn(Database.prototype, "pragma");
    try {
      const e = await evalErrorOf(Promise.resolve().then(() => open("/dev/null")));
      expect(e.code).toBe("USAGE");
      expect(e.message).toBe("/dev/null: could not open the run store: not a regular file (the path is a device, pipe or socket, not a database file; give the path of a file)");
      expect(pragma).not.toHaveBeenCalled();
    } finally {
      pragma.mockRestore();
    }
  });

  it("rejects a store written by a newer simeval as a bad argument (USAGE), saying to upgrade or give another --db", async () => {
    const newer = join(dir, "newer.db");
    const db = new Database(newer);
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const e = await evalErrorOf(Promise.resolve().then(() => open(newer)));
    expect(e.code).toBe("USAGE");
    expect(e.message).toBe(
      `${newer} was written by a newer simeval (schema version ${SCHEMA_VERSION + 1}; this version reads up to ${SCHEMA_VERSION}): open it with the simeval that wrote it, or a later one (simeval is installed from its folder or tarball, not from the npm registry), or give --db another file`,
    );
  });

  it("refuses to add its tables to another program's SQLite database, as a bad argument (USAGE)", async () => {
    const other = join(dir, "other.db");
    const db = new Database(other);
    db.exec("CREATE TABLE invoices (n INTEGER)");
    db.close();
    const e = await evalErrorOf(Promise.resolve().then(() => open(other)));
    expect(e.code).toBe("USAGE");
    expect(e.message).toContain("not a simeval run store");
    expect(e.message).toContain("invoices");
  });

  it("closes a database it can read but not write (a read-only file of another user): runs and show list it, then close without an error", async () => {
    const store = open();
    await store.listRuns();
    // What SQLite says to the closing `PRAGMA optimize` (an ANALYZE) on a read-only file; root, which runs
    // the tests here, is never refused the write itself.
    const pragma = Database.prototype.pragma;
    const spy = vi.spyOn(Database.prototype, "pragma").mockImplementation(function (this: Database.Database, source: string, ...rest: unknown[]) {
      if (source === "optimize") throw Object.assign(new Error("attempt to write a readonly database"), { code: "SQLITE_READONLY" });
      return (pragma as (...a: unknown[]) => unknown).call(this, source, ...rest);
    } as typeof pragma);
    try {
      await expect(store.close()).resolves.toBeUndefined();
    } finally {
      spy.mockRestore();
    }
  });

  it.skipIf(process.getuid?.() === 0)("says that a -shm file left read-only by a read of the read-only database keeps it from being written once writable (skipped as root, who can write anything)", async () => {
    const first = open();
    await first.finishRun(await first.beginRun(META), SUMMARY);
    await first.close();
    chmodSync(dbPath, 0o444);
    await open().listRuns(); // leaves -wal and -shm, read-only
    for (const s of opened.splice(0)) await s.close();
    chmodSync(dbPath, 0o644);
    const e = await storeError(async () => {
      const store = open();
      await store.beginRun(META);
    });
    expect(e.message).toContain(`${dbPath}-shm`);
    expect(e.message).toContain("chmod u+w");
  });

  it("reports a path under a file as a bad argument (USAGE), naming it", async () => {
    writeFileSync(join(dir, "file"), "x");
    for (const path of [join(dir, "file", "simeval.db"), join(dir, "file", "deeper", "simeval.db")]) {
      const e = await evalErrorOf(Promise.resolve().then(() => open(path)));
      expect(e.code).toBe("USAGE");
      expect(e.message).toContain(path);
      expect(e.message).toContain("a parent of the path is a file, not a directory");
    }
  });
});

describe("runs and rows", () => {
  it("round-trips a run: metadata, every shape of row, summary", async () => {
    const store = open();
    const id = await store.beginRun(META);
    const running = await store.findRun(id);
    expect(running).toMatchObject({ id, name: "nightly", status: "running", finished_at: null, summary: null, dataset_path: "data/qa.jsonl", evaluators: META.evaluators });
    expect(Date.parse(running?.started_at ?? "")).toBeGreaterThan(Date.now() - 60_000);

    const rows: RowOutcome[] = [
      { row: 1, id: "q1", line: 1, results: result(1) },
      { row: 2, id: null, results: { em: { error: { code: "INPUT_INVALID", message: "$.output matched 2 values" } } } },
      { row: 3, id: undefined, line: 3, results: {}, error: { code: "DATASET_INVALID", message: "line 3: bad JSON" } },
      { row: 4, id: { nested: [1, "two"] }, results: result(0) },
    ];
    await store.addRows(id, rows.slice(0, 2));
    await store.addRows(id, rows.slice(2));
    await store.finishRun(id, SUMMARY);

    const back = await untimedRows(store, id);
    expect(back).toEqual(rows);
    expect(back[1]).toHaveProperty("id", null); // null stays null…
    expect("line" in back[1]!).toBe(false); // …and an absent line stays absent
    expect(back[2]?.id).toBeUndefined();
    const done = await store.findRun(id);
    expect(done?.status).toBe("complete");
    expect(done?.summary).toEqual(SUMMARY);
    expect(Date.parse(done?.finished_at ?? "")).toBeGreaterThanOrEqual(Date.parse(done?.started_at ?? ""));
  });

  it("stores rows that come already serialised as they are, mixed with plain ones", async () => {
    const store = open();
    const id = await store.beginRun(META);
    const serialized: SerializedRow[] = [
      { row: 1, line: 2, id: '"q1"', results: JSON.stringify(result(1)), error: null },
      { row: 2, line: 3, id: "null", results: "{}", error: '{"code":"DATASET_INVALID","message":"line 3: bad JSON"}' },
    ];
    await store.addRows(id, [...serialized, { row: 3, id: 3, results: result(0) }]);
    expect(await untimedRows(store, id)).toEqual([
      { row: 1, line: 2, id: "q1", results: result(1) },
      { row: 2, line: 3, id: null, results: {}, error: { code: "DATASET_INVALID", message: "line 3: bad JSON" } },
      { row: 3, id: 3, results: result(0) },
    ]);
  });

  it("returns rows in row order across pages, however the batches arrived", async () => {
    const store = open();
    const id = await store.beginRun(META);
    await store.addRows(id, [3, 1, 2].map((row) => ({ row, id: row, results: {} })));
    await store.addRows(id, numbered(4, 2345));
    const seen = (await collect(store.rows(id))).map((r) => r.row);
    expect(seen).toHaveLength(2345);
    expect(seen).toEqual(Array.from({ length: 2345 }, (_, i) => i + 1));
  });

  it("reads wide rows (a config of hundreds of evaluators) in pages of fewer rows, every row once and in order", async () => {
    // 1,000 rows of 200 evaluators' results are about 97 million characters: one page held 400 MB of heap.
    expect(nextPageRows(1000, 1_700_000)).toBe(1000);
    expect(nextPageRows(1000, 97_000_000)).toBe(21);
    expect(nextPageRows(2, 100_000_000)).toBe(1);
    expect(nextPageRows(0, 0)).toBe(1000);
    const store = open();
    const id = await store.beginRun(META);
    const wide = (row: number): RowOutcome => ({ row, id: row, results: { em: { ...result(1).em!, reasoning: "x".repeat(20_000) } } });
    await store.addRows(id, Array.from({ length: 1500 }, (_, i) => wide(i + 1)));
    const [rows, limits] = await withPageLimits(() => collect(store.rows(id)));
    const seen = rows.map((r) => r.row);
    expect(seen).toEqual(Array.from({ length: 1500 }, (_, i) => i + 1));
    // Each page after the first holds about 2 Mi characters: of 20,000-character rows, about 104.
    expect(limits.length).toBeGreaterThanOrEqual(3);
    expect(limits[0]).toBe(100);
    expect(limits.slice(1).every((l) => l > 100 && l < 105)).toBe(true);
    expect((await collect(store.scores(id))).map((r) => r.row)).toEqual(seen);
  });

  it("counts a row's stored record in the width of its pages, as its results: rows of large records (a service's traces) are read in pages of fewer rows", async () => {
    const store = open();
    const id = await store.beginRun({ ...META, dataset_path: null, dataset_hash: null }, { owner: "none" });
    const traced = () => ({ results: { em: result(1).em! }, record: { output: "x".repeat(20_000), expected: "x" } });
    for (let i = 0; i < 3; i++) await store.appendRows(id, Array.from({ length: 500 }, traced));
    const [rows, limits] = await withPageLimits(() => collect(store.rows(id)));
    expect(rows.map((r) => r.row)).toEqual(Array.from({ length: 1500 }, (_, i) => i + 1));
    expect(rows[1499]?.record?.["output"]).toHaveLength(20_000);
    // Each page after the first holds about 2 Mi characters: of 20,000-character records, about 104.
    expect(limits.length).toBeGreaterThanOrEqual(3);
    expect(limits.slice(1).every((l) => l > 100 && l < 105)).toBe(true);
  });

  it("reads at most 4,000 results a page whatever the last page's width: narrow failed rows first do not open a page of 1,000 wide ones", async () => {
    expect([1, 4, 5, 200, 5000].map(rowsForResults)).toEqual([1000, 1000, 800, 20, 1]);
    // Rounded down, never past 4,000: 4,000 / 7 = 571.4 (572 rows would be 4,004 results), 4,000 / 3,000 = 1.3.
    expect([7, 3000].map(rowsForResults)).toEqual([571, 1]);
    const store = open();
    const names = Array.from({ length: 200 }, (_, i) => `em${i}`);
    const id = await store.beginRun({ ...META, evaluators: names.map((name) => ({ type: "exact_match", name })) });
    const failed = (row: number): RowOutcome => ({ row, id: row, results: {}, error: { code: "ROW_INVALID", message: "x" } });
    const wide = (row: number): RowOutcome => ({ row, id: row, results: Object.fromEntries(names.map((n) => [n, result(1).em!])) });
    await store.addRows(id, Array.from({ length: 300 }, (_, i) => (i < 150 ? failed(i + 1) : wide(i + 1))));
    const [rows, limits] = await withPageLimits(() => collect(store.rows(id)));
    expect(rows.map((r) => r.row)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(limits.length).toBe(16);
    expect(limits.every((l) => l === 20)).toBe(true);
    // The scores column is a few characters an evaluator: its pages are not cut by the count.
    const [scores, scoreLimits] = await withPageLimits(() => collect(store.scores(id)));
    expect(scores.length).toBe(300);
    expect(scoreLimits[0]).toBe(100);
  });

  it("reads two runs' rows side by side while writing a third (no connection left busy)", async () => {
    const store = open();
    const a = await store.beginRun(META);
    const b = await store.beginRun(META);
    await store.addRows(a, numbered(1, 1500));
    await store.addRows(b, numbered(1, 1500));
    const c = await store.beginRun(META);
    const ia = store.rows(a)[Symbol.asyncIterator]();
    const ib = store.rows(b)[Symbol.asyncIterator]();
    let pairs = 0;
    for (let x = await ia.next(), y = await ib.next(); !x.done && !y.done; x = await ia.next(), y = await ib.next()) {
      expect(x.value.row).toBe(y.value.row);
      pairs++;
      if (pairs % 500 === 0) await store.addRows(c, numbered(pairs - 499, pairs));
    }
    expect(pairs).toBe(1500);
    expect(await collect(store.rows(c))).toHaveLength(1500);
  });

  it("lists runs newest first", async () => {
    const store = open();
    const ids = [await store.beginRun(META), await store.beginRun({ ...META, name: null }), await store.beginRun(META)];
    expect((await store.listRuns()).map((r) => r.id)).toEqual([...ids].reverse());
  });

  it("refuses rows for an unknown or finished run and a row number written twice", async () => {
    const store = open();
    expect((await storeError(() => store.addRows("nope", numbered(1, 1)), "RUN_NOT_FOUND")).message).toContain('no run with id "nope"');
    const id = await store.beginRun(META);
    await store.addRows(id, numbered(1, 5));
    const dup = await storeError(() => store.addRows(id, [...numbered(6, 7), ...numbered(5, 5)]), "RUN_CONFLICT");
    expect(dup.message).toBe(`${dbPath}: could not add rows 5..7 to run ${id}: it holds row 5 (rows[2].row) already, and a row's number and key are stored once in a run (nothing of the batch was stored)`);
    expect(await collect(store.rows(id))).toHaveLength(5); // the failed batch left nothing behind
    await store.finishRun(id, SUMMARY);
    const late = await storeError(() => store.addRows(id, numbered(6, 6)), "RUN_CONFLICT");
    expect(late.message).toContain("cannot add row 6");
    expect(late.message).toContain("is complete");
    expect((await storeError(() => store.finishRun(id, SUMMARY), "RUN_CONFLICT")).message).toContain("is complete");
    expect((await storeError(() => collect(store.rows("nope")), "RUN_NOT_FOUND")).message).toContain('no run with id "nope"');
  });

  it("finishRun with opts.rows finishes only when the run stores that many rows, resolving false and leaving it running otherwise", async () => {
    const store = open();
    const id = await store.beginRun(META);
    await store.addRows(id, numbered(1, 3));
    expect(await store.finishRun(id, SUMMARY, { rows: 2 })).toBe(false);
    expect(await store.findRun(id)).toMatchObject({ status: "running", summary: null });
    await store.addRows(id, numbered(4, 4)); // still takes rows
    for (const bad of [-1, 1.5, "4", null]) {
      await expect(store.finishRun(id, SUMMARY, { rows: bad as number })).rejects.toMatchObject({ code: "INPUT_INVALID", message: `finishRun: opts.rows must be nothing or a whole number from 0 (the rows the summary covers), received ${describeValue(bad)}` });
    }
    expect(await store.finishRun(id, SUMMARY, { rows: 4 })).toBe(true);
    expect(await store.findRun(id)).toMatchObject({ status: "complete", summary: SUMMARY });
    // A finished run is refused whatever the count, as without the option.
    expect((await storeError(() => store.finishRun(id, SUMMARY, { rows: 3 }), "RUN_CONFLICT")).message).toContain("is complete; cannot finish it");
  });

  it("abortRun keeps every row, the partial summary and the reason, and is a no-op once the run is over", async () => {
    const store = open();
    const id = await store.beginRun(META);
    expect((await store.findRun(id))?.stop_reason).toBeNull();
    await store.addRows(id, numbered(1, 7));
    await store.abortRun(id, SUMMARY, "interrupted (SIGTERM)");
    await store.abortRun(id, null, "stopped by an error: a later cleanup");
    const run = await store.findRun(id);
    expect(run?.status).toBe("incomplete");
    expect(run?.summary).toEqual(SUMMARY);
    expect(run?.stop_reason).toBe("interrupted (SIGTERM)");
    expect(run?.finished_at).not.toBeNull();
    expect(await collect(store.rows(id))).toHaveLength(7);
    expect((await storeError(() => store.abortRun("nope", null, "interrupted"), "RUN_NOT_FOUND")).message).toContain("nope");
    // Arguments of the wrong kind are refused, naming them, before the run is looked up: nothing is recorded.
    const running = await store.beginRun(META);
    const summaryExpected = "a RunSummary ({ rows, row_errors, skipped_as_zero, evaluators: [...] }, as summarizeStoredRun makes)";
    for (const bad of [5, "x", {}, { evaluators: 5 }]) {
      await expect(store.abortRun(running, bad as never, "why")).rejects.toMatchObject({ code: "INPUT_INVALID", message: `abortRun: summary must be ${summaryExpected} or null, received ${describeValue(bad)}` });
      await expect(store.finishRun(running, bad as never)).rejects.toMatchObject({ code: "INPUT_INVALID", message: `finishRun: summary must be ${summaryExpected}, received ${describeValue(bad)}` });
    }
    await expect(store.finishRun(running, null as never)).rejects.toMatchObject({ code: "INPUT_INVALID", message: `finishRun: summary must be ${summaryExpected}, received null` });
    for (const bad of ["", 5, null, undefined]) {
      await expect(store.abortRun(running, null, bad as string)).rejects.toMatchObject({ code: "INPUT_INVALID", message: `abortRun: reason must be a non-empty string (why the run stopped, as show prints it), received ${describeValue(bad)}` });
    }
    expect((await store.findRun(running))?.status).toBe("running");
    // A finished run has no stop reason.
    const done = await store.beginRun(META);
    await store.finishRun(done, SUMMARY);
    expect((await store.findRun(done))?.stop_reason).toBeNull();
  });

  it("close() marks the runs it began and did not finish as incomplete", async () => {
    const a = open();
    const done = await a.beginRun(META);
    await a.finishRun(done, SUMMARY);
    const left = await a.beginRun(META);
    await a.addRows(left, numbered(1, 3));
    await a.close();
    const b = open();
    expect((await b.findRun(done))?.status).toBe("complete");
    expect(await b.findRun(left)).toMatchObject({ status: "incomplete", stop_reason: CLOSED_UNFINISHED });
    expect(await collect(b.rows(left))).toHaveLength(3);
  });
});

describe("scores", () => {
  const TWO = { ...META, evaluators: [{ type: "exact_match", name: "em" }, { type: "levenshtein" }] };
  const stored = (score: number | null, skipped = false) => ({ type: "t", score, passed: null, label: null, reasoning: "", skipped, details: {} });

  it("reads each row's pairable scores as rowScores() makes them from its results, whatever shape the row came in", async () => {
    const store = open();
    const id = await store.beginRun(TWO);
    const outcomes: RowOutcome[] = [
      { row: 1, id: "q1", results: { em: stored(1), levenshtein: stored(0.75) } },
      { row: 2, id: null, results: { em: stored(0, true), levenshtein: { error: { code: "INPUT_INVALID", message: "x" } } } },
      { row: 3, id: undefined, results: {}, error: { code: "DATASET_INVALID", message: "line 3: bad JSON" } },
      { row: 4, id: { k: [1] }, results: { em: stored(null), levenshtein: stored(Number.NaN) } },
      { row: 5, id: 5, results: { em: stored(0.5) } }, // not the run's evaluators: kept in results only
      { row: 6, id: 6, results: { em: stored(1), levenshtein: stored(1), extra: stored(0.2) } },
    ];
    const serialized: SerializedRow[] = [
      { row: 7, line: 8, id: '"q7"', results: JSON.stringify({ em: stored(1), levenshtein: stored(0.5) }), error: null, scores: [1, 0.5] },
      // From an older runner (or written before the column existed): no scores, read from the results.
      { row: 8, line: 9, id: "8", results: JSON.stringify({ em: stored(0), levenshtein: stored(0.25) }), error: null },
      // Scores that are not one per evaluator are not kept.
      { row: 9, line: 10, id: "9", results: JSON.stringify({ em: stored(1), levenshtein: stored(0) }), error: null, scores: [1] },
    ];
    await store.addRows(id, outcomes);
    await store.addRows(id, serialized);
    const fromResults = (await collect(store.rows(id))).map(rowScores);
    const read = await collect(store.scores(id));
    expect(read).toEqual(fromResults);
    expect(read.map((r) => r.scores)).toEqual([
      { em: 1, levenshtein: 0.75 },
      { em: null, levenshtein: null },
      {},
      { em: null, levenshtein: null },
      { em: 0.5 },
      { em: 1, levenshtein: 1, extra: 0.2 },
      { em: 1, levenshtein: 0.5 },
      { em: 0, levenshtein: 0.25 },
      { em: 1, levenshtein: 0 },
    ]);
    // The column holds what it can, and is NULL where the results must be read.
    const db = new Database(dbPath, { readonly: true });
    const column = db.prepare("SELECT scores FROM rows WHERE run_id = ? ORDER BY row").pluck().all(id);
    db.close();
    expect(column).toEqual(["[1,0.75]", "[null,null]", null, "[null,null]", null, null, "[1,0.5]", null, null]);
  });

  it("reads rows recorded before the scores column existed (a version 1 store) from their results", async () => {
    const old = join(dir, "v1.db");
    const db = databaseAtVersion(old, 1);
    const evaluators = JSON.stringify([{ type: "exact_match", name: "em" }]);
    db.prepare(`INSERT INTO runs (id, started_at, status, dataset_path, dataset_hash, evaluators) VALUES ('r1', '2026-01-01T00:00:00Z', 'complete', 'd', 'h', ?)`).run(evaluators);
    const insert = db.prepare("INSERT INTO rows (run_id, row, id, results) VALUES ('r1', ?, ?, ?)");
    insert.run(1, '"a"', JSON.stringify(result(1)));
    insert.run(2, null, JSON.stringify(result(0)));
    db.close();
    const store = open(old);
    expect(await collect(store.scores("r1"))).toEqual([
      { row: 1, id: "a", scores: { em: 1 } },
      { row: 2, id: undefined, scores: { em: 0 } },
    ]);
    const id = await store.beginRun(META); // and new runs in it get the column
    await store.addRows(id, numbered(1, 2));
    expect(await collect(store.scores(id))).toEqual([
      { row: 1, id: 1, scores: { em: 1 } },
      { row: 2, id: 2, scores: { em: 0 } },
    ]);
  });

  it("reads across pages in row order, and names a damaged scores value", async () => {
    const store = open();
    const id = await store.beginRun(META);
    await store.addRows(id, numbered(1, 2500));
    expect((await collect(store.scores(id))).map((r) => r.row)).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
    const db = new Database(dbPath);
    db.prepare("UPDATE rows SET scores = '[1,2]' WHERE run_id = ? AND row = 1200").run(id);
    db.close();
    const e = await storeError(() => collect(store.scores(id)));
    expect(e.message).toContain(`row 1200 of run ${id} has scores [1,2], not an array of 1 numbers or nulls`);
    expect((await storeError(() => collect(store.scores("nope")), "RUN_NOT_FOUND")).message).toContain('no run with id "nope"');
  });
});

describe("runs not read from a dataset file", () => {
  const TRACES = { ...META, name: "traces", dataset_path: null, dataset_hash: null };

  it("reads back null dataset_path and dataset_hash, by id and name, in listRuns and as the baseline, beside a run on a file, across reopening", async () => {
    const a = open();
    const onFile = await a.beginRun(META);
    const traces = await a.beginRun(TRACES, { owner: "none" });
    await a.finishRun(traces, SUMMARY);
    await a.setBaseline(traces);
    const check = async (store: SqliteRunStore) => {
      for (const ref of [traces, "traces"]) expect(await store.findRun(ref)).toMatchObject({ id: traces, dataset_path: null, dataset_hash: null });
      expect((await store.baseline())?.dataset_path).toBeNull();
      const listed = await store.listRuns();
      expect(listed.map((r) => [r.id, r.dataset_path, r.dataset_hash])).toEqual([
        [traces, null, null],
        [onFile, META.dataset_path, META.dataset_hash],
      ]);
    };
    await check(a);
    await a.close();
    await check(open());
  });

  it("stores them as empty strings in the NOT NULL columns, with the schema unchanged", async () => {
    const store = open();
    const id = await store.beginRun(TRACES);
    await store.close();
    const db = new Database(dbPath, { readonly: true });
    try {
      expect(db.prepare("SELECT dataset_path, dataset_hash FROM runs WHERE id = ?").get(id)).toEqual({ dataset_path: "", dataset_hash: "" });
      expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    } finally {
      db.close();
    }
  });
});

describe("findRun", () => {
  it("finds by exact id, newest name, then unique prefix (any case); undefined otherwise", async () => {
    const store = open();
    // A millisecond apart, so that the ids differ in their random part too, as runs of separate processes do
    // (ids begun within one millisecond by one process differ only in their last digits).
    const tick = () => new Promise((r) => setTimeout(r, 2));
    const first = await store.beginRun({ ...META, name: "nightly" });
    await tick();
    const second = await store.beginRun({ ...META, name: "nightly" });
    await tick();
    const other = await store.beginRun({ ...META, name: "smoke" });
    expect((await store.findRun(first))?.id).toBe(first);
    expect((await store.findRun(other.slice(0, 16)))?.id).toBe(other);
    expect((await store.findRun(other.slice(0, 16).toUpperCase()))?.id).toBe(other);
    expect((await store.findRun("nightly"))?.id).toBe(second);
    expect((await store.findRun("smoke"))?.id).toBe(other);
    expect(await store.findRun("weekly")).toBeUndefined();
    expect(await store.findRun("")).toBeUndefined();
  });

  it("refuses a ref that is not a string (INPUT_INVALID, naming it), which was STORE_FAILED with a TypeError's words", async () => {
    const store = open();
    for (const bad of [5, null, undefined, { id: "x" }]) {
      await expect(store.findRun(bad as unknown as string)).rejects.toMatchObject({
        code: "INPUT_INVALID",
        message: `findRun: ref must be a run's id, name or unique id prefix (a string), received ${describeValue(bad)}`,
      });
    }
  });

  it("refuses a runId that is not a non-empty string (INPUT_INVALID, naming the method and runId), which was STORE_FAILED with SQLite's words or a run \"undefined\"", async () => {
    const store = open();
    const id = await store.beginRun(META, { owner: "none" });
    const unnumbered = (from: number, to: number) => numbered(from, to).map(({ row: _, ...r }) => r);
    await store.appendRows(id, unnumbered(1, 1));
    const calls: [string, (runId: never) => Promise<unknown>][] = [
      ["addRows", (r) => store.addRows(r, numbered(2, 2))],
      ["appendRows", (r) => store.appendRows(r, unnumbered(1, 1))],
      ["finishRun", (r) => store.finishRun(r, SUMMARY)],
      ["abortRun", (r) => store.abortRun(r, null, "stopped")],
      ["rows", (r) => collect(store.rows(r))],
      ["scores", (r) => collect(store.scores(r))],
      ["rowCount", (r) => store.rowCount(r)],
      ["storedRows", (r) => store.storedRows(r)],
      ["rowByKey", (r) => store.rowByKey(r, "k")],
      ["setBaseline", (r) => store.setBaseline(r)],
      ["deleteRun", (r) => store.deleteRun(r)],
    ];
    for (const [fn, call] of calls) {
      for (const bad of [undefined, null, 5, {}, true, ""]) {
        const error = await evalErrorOf(call(bad as never));
        expect(error).toMatchObject({ code: "INPUT_INVALID", message: `${fn}: runId must be a run's id (a non-empty string), received ${describeValue(bad)}` });
      }
    }
    // Nothing was changed: the run is running with its one row.
    expect(await store.findRun(id)).toMatchObject({ status: "running" });
    expect(await store.rowCount(id)).toBe(1);
  });

  it("looks a name up before an id prefix, so that a run named like the start of an id is found by its name", async () => {
    const store = open();
    const first = await store.beginRun({ ...META, name: "first" });
    await new Promise((r) => setTimeout(r, 2));
    // The start of `first`'s id alone (its random part differs from the next run's): once a unique prefix of `first`.
    const named = await store.beginRun({ ...META, name: first.slice(0, 20) });
    expect((await store.findRun(first.slice(0, 20)))?.id).toBe(named);
    // Four characters: the start of both ids (begun the same day), yet a name, so not ambiguous.
    const short = await store.beginRun({ ...META, name: first.slice(0, 4) });
    expect((await store.findRun(first.slice(0, 4)))?.id).toBe(short);
    expect((await store.findRun(first.slice(0, 21)))?.id).toBe(first); // no such name: the prefix
    expect((await store.findRun(first))?.id).toBe(first);
  });

  it("finds a run by its id before a run named like that id (an id is exact; a name may be anything)", async () => {
    const store = open();
    const first = await store.beginRun({ ...META, name: "first" });
    await new Promise((r) => setTimeout(r, 2));
    // Newer, and named exactly as `first`'s id: the id still names `first`.
    const impostor = await store.beginRun({ ...META, name: first });
    expect((await store.findRun(first))?.id).toBe(first);
    expect((await store.findRun(impostor))?.id).toBe(impostor);
  });

  it("names the candidates of an ambiguous prefix", async () => {
    const store = open();
    const ids = [await store.beginRun({ ...META, name: "a" }), await store.beginRun({ ...META, name: "b" })];
    let common = 0;
    while (ids[0]![common] === ids[1]![common]) common++;
    const e = await evalErrorOf(store.findRun(ids[0]!.slice(0, common)));
    expect(e.code).toBe("USAGE");
    expect(e.message).toContain("several run ids");
    for (const id of ids) expect(e.message).toContain(id);
    expect(e.message).toContain("(a)");
  });
});

describe("pages and exact lookups (what a service reads)", () => {
  it("getRun finds a run by its exact id only, not by name or id prefix as findRun does; a bad id is INPUT_INVALID", async () => {
    const store = open();
    const id = await store.beginRun(META);
    expect(await store.getRun(id)).toEqual(await store.findRun(id));
    expect((await store.getRun(id))?.id).toBe(id);
    expect(await store.findRun("nightly")).toBeDefined();
    expect(await store.getRun("nightly")).toBeUndefined();
    expect(await store.findRun(id.slice(0, 20))).toBeDefined();
    expect(await store.getRun(id.slice(0, 20))).toBeUndefined();
    expect(await store.getRun(id.toUpperCase())).toBeUndefined();
    for (const bad of ["", 5, undefined]) {
      await expect(store.getRun(bad as never)).rejects.toMatchObject({ code: "INPUT_INVALID", message: expect.stringContaining("getRun: runId must be") });
    }
  });

  it("listRuns in pages gives every run once, newest first, as one listing does; after the last run, none", async () => {
    const store = open();
    // Runs begun in one millisecond share started_at: the pages follow the listing's order by id then.
    for (let i = 0; i < 7; i++) {
      await store.beginRun({ ...META, name: `r${i}` });
      if (i % 3 === 0) await new Promise((r) => setTimeout(r, 2));
    }
    const all = await store.listRuns();
    expect(all).toHaveLength(7);
    for (const limit of [1, 2, 3, 7, 10]) {
      const paged = [];
      let after: string | undefined;
      // Bounded: a page that repeats runs must fail the test, not loop for ever.
      for (let pages = 0; pages <= all.length; pages++) {
        const page = await store.listRuns({ after, limit });
        expect(page.length).toBeLessThanOrEqual(limit);
        paged.push(...page);
        if (page.length < limit) break;
        after = page[page.length - 1]?.id;
      }
      expect(paged).toEqual(all);
    }
    expect(await store.listRuns({ limit: 3 })).toEqual(all.slice(0, 3));
    expect(await store.listRuns({ after: all[6]?.id })).toEqual([]);
    expect(await store.listRuns({ after: all[2]?.id })).toEqual(all.slice(3));
  });

  it("listRuns refuses options of the wrong kind (CONFIG_INVALID naming them) and an unknown run to list after (RUN_NOT_FOUND)", async () => {
    const store = open();
    await store.beginRun(META);
    const cases: [unknown, string][] = [
      [{ limit: 0 }, "opts.limit"],
      [{ limit: 1.5 }, "opts.limit"],
      [{ limit: "3" }, "opts.limit"],
      [{ after: "" }, "opts.after"],
      [{ after: 5 }, "opts.after"],
      [5, "opts"],
      [null, "opts"],
    ];
    for (const [opts, where] of cases) {
      await expect(store.listRuns(opts as never)).rejects.toMatchObject({ code: "CONFIG_INVALID", message: expect.stringContaining(`listRuns: ${where} must be`) });
    }
    // A string no run id could be is an unknown run; a run id that no run has is placed by its time (see below).
    for (const after of ["nightly", "01zzzzzzzzzzzzzzzzzzzzzzzz".toUpperCase(), "01zzzzzzzzzzzzzzzzzzzzzzz"]) {
      await expect(store.listRuns({ after })).rejects.toMatchObject({ code: "RUN_NOT_FOUND", message: expect.stringContaining(`no run with id "${after}"`) });
    }
  });

  it("listRuns after a run deleted since (by another client, between its pages) goes on from where that run was listed: no run skipped or repeated", async () => {
    const store = open();
    const other = open();
    // Three runs in each of three milliseconds, so that a deleted run is placed among runs of its own millisecond too.
    const now = vi.spyOn(Date, "now");
    try {
      for (let i = 0; i < 9; i++) {
        now.mockReturnValue(Date.UTC(2031, 0, 1, 0, 0, 0, Math.floor(i / 3)));
        await store.beginRun({ ...META, name: `r${i}` }, { owner: "none" });
      }
    } finally {
      now.mockRestore();
    }
    const all = await store.listRuns();
    expect(all.map((r) => r.name)).toEqual(["r8", "r7", "r6", "r5", "r4", "r3", "r2", "r1", "r0"]);
    expect(new Set(all.map((r) => r.started_at)).size).toBe(3);
    const deleted = new Set<string>();
    for (const k of [7, 4, 3, 1, 0]) {
      const cursor = all[k]!.id;
      await other.deleteRun(cursor, { force: true });
      deleted.add(cursor);
      const rest = all.slice(k + 1).filter((r) => !deleted.has(r.id));
      expect(await store.listRuns({ after: cursor })).toEqual(rest);
      expect(await store.listRuns({ after: cursor, limit: 2 })).toEqual(rest.slice(0, 2));
    }
    // A run id from after every run (a client's own guess) lists them all; from before every run, none.
    expect(await store.listRuns({ after: "7zzzzzzzzzzzzzzzzzzzzzzzzz" })).toEqual(all.filter((r) => !deleted.has(r.id)));
    expect(await store.listRuns({ after: "00000000000000000000000000" })).toEqual([]);
  });

  it("rows(id, { after, limit }) gives the first `limit` rows numbered above `after`, over pages of any size (property)", async () => {
    const store = open();
    const id = await store.beginRun(META);
    // Gaps in the numbering, and more rows than the store's first page (100) holds.
    const stored = numbered(1, 400).filter((r) => r.row % 7 !== 3);
    await store.addRows(id, stored);
    const all = await collect(store.rows(id));
    expect(all.map((r) => r.row)).toEqual(stored.map((r) => r.row));
    await fc.assert(
      fc.asyncProperty(fc.option(fc.integer({ min: -5, max: 420 }), { nil: undefined }), fc.option(fc.integer({ min: 1, max: 450 }), { nil: undefined }), async (after, limit) => {
        const expected = all.filter((r) => after === undefined || r.row > after).slice(0, limit ?? all.length);
        expect(await collect(store.rows(id, { after, limit }))).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it("rows refuses an `after` or `limit` of the wrong kind (CONFIG_INVALID naming it)", async () => {
    const store = open();
    const id = await store.beginRun(META);
    const cases: [unknown, string][] = [
      [{ after: 1.5 }, "opts.after"],
      [{ after: "3" }, "opts.after"],
      [{ after: Number.NaN }, "opts.after"],
      [{ limit: 0 }, "opts.limit"],
      [{ limit: -1 }, "opts.limit"],
      [{ limit: Infinity }, "opts.limit"],
    ];
    for (const [opts, where] of cases) {
      await expect(collect(store.rows(id, opts as never))).rejects.toMatchObject({ code: "CONFIG_INVALID", message: expect.stringContaining(`rows: ${where} must be`) });
    }
  });

  it("listRuns without a limit gives every run: no default page size caps it", async () => {
    const store = open();
    for (let i = 0; i < 1_050; i++) await store.beginRun({ ...META, name: `r${i}` });
    const all = await store.listRuns();
    expect(all).toHaveLength(1_050);
    expect(all[0]?.name).toBe("r1049");
    expect(all[1_049]?.name).toBe("r0");
    expect(await store.listRuns({ after: all[99]!.id })).toHaveLength(950);
  });
});

describe("rowCount", () => {
  it("counts the rows stored for a run, whatever its status, and refuses an unknown run", async () => {
    const store = open();
    const killed = await store.beginRun(META);
    await store.addRows(killed, numbered(1, 1_500));
    const empty = await store.beginRun(META);
    expect(await store.rowCount(killed)).toBe(1_500);
    expect(await store.rowCount(empty)).toBe(0);
    await store.abortRun(killed, null, "interrupted");
    expect(await store.rowCount(killed)).toBe(1_500);
    expect((await storeError(() => store.rowCount("nope"), "RUN_NOT_FOUND")).message).toContain('no run with id "nope"');
  });
});

describe("storedRows", () => {
  const NO_FILE = { ...META, dataset_path: null, dataset_hash: null };
  const none = { rows: 0, with_record: 0, with_time: 0, first_stored_at: null, last_stored_at: null };

  it("counts a run's rows and those with a record, and gives the first and last time a row was stored, whatever its status", async () => {
    const store = open();
    const id = await store.beginRun(NO_FILE, { owner: "none" });
    const other = await store.beginRun(NO_FILE, { owner: "none" });
    expect(await store.storedRows(id)).toEqual(none);
    const now = vi.spyOn(Date, "now").mockReturnValue(1_800_000_000_500);
    try {
      await store.appendRows(id, [{ id: 1, results: result(1), record: { n: 1 } }, { id: 2, results: result(0) }]);
      now.mockReturnValue(1_800_000_000_000); // an earlier time, later (a clock set back): the least is the first
      await store.appendRows(id, [{ id: 3, results: result(1), record: {} }]);
      now.mockReturnValue(1_900_000_000_000);
      await store.appendRows(other, [{ id: 1, results: result(1), record: { n: 1 } }]); // another run's rows are not counted
    } finally {
      now.mockRestore();
    }
    const expected = { rows: 3, with_record: 2, with_time: 3, first_stored_at: 1_800_000_000_000, last_stored_at: 1_800_000_000_500 };
    expect(await store.storedRows(id)).toEqual(expected);
    await store.abortRun(id, null, "drained");
    expect(await store.storedRows(id)).toEqual(expected);
    expect((await storeError(() => store.storedRows("nope"), "RUN_NOT_FOUND")).message).toContain('no run with id "nope"');
  });

  it("a run of a dataset file has no records; rows stored before schema version 5 have no time, and are counted", async () => {
    const store = open();
    const id = await store.beginRun(META);
    const before = Date.now();
    await store.addRows(id, numbered(1, 1_500));
    const after = Date.now();
    const read = await store.storedRows(id);
    expect(read).toMatchObject({ rows: 1_500, with_record: 0, with_time: 1_500 });
    expect(read.first_stored_at).toBe(read.last_stored_at);
    expect(read.first_stored_at! >= before && read.first_stored_at! <= after).toBe(true);

    const raw = new Database(dbPath);
    raw.prepare("UPDATE rows SET stored_at = NULL WHERE run_id = ?").run(id);
    raw.close();
    expect(await store.storedRows(id)).toEqual({ ...none, rows: 1_500 });
    const now = vi.spyOn(Date, "now").mockReturnValue(1_800_000_000_000);
    try {
      await store.addRows(id, numbered(1_501, 1_502));
    } finally {
      now.mockRestore();
    }
    expect(await store.storedRows(id)).toEqual({ rows: 1_502, with_record: 0, with_time: 2, first_stored_at: 1_800_000_000_000, last_stored_at: 1_800_000_000_000 });
  });

  it("fails as STORE_FAILED naming the file and the run when SQLite does", async () => {
    const store = open();
    const id = await store.beginRun(META);
    const raw = new Database(dbPath);
    raw.exec("ALTER TABLE rows RENAME COLUMN stored_at TO stored");
    raw.close();
    const error = await storeError(() => store.storedRows(id));
    expect(error.message).toContain(dbPath);
    expect(error.message).toContain(`read what the rows of run ${id} hold`);
  });
});

describe("baseline", () => {
  it("is unset at first, then the run set, across reopening", async () => {
    const a = open();
    expect(await a.baseline()).toBeUndefined();
    const one = await a.beginRun(META);
    const two = await a.beginRun(META);
    await a.setBaseline(one);
    expect((await a.baseline())?.id).toBe(one);
    await a.setBaseline(two);
    await a.close();
    expect((await open().baseline())?.id).toBe(two);
  });

  it("refuses an unknown run", async () => {
    expect((await storeError(() => open().setBaseline("nope"), "RUN_NOT_FOUND")).message).toContain('no run with id "nope"');
  });
});

describe("deleting runs", () => {
  /** Rows on disk with this run id, counted behind the store's back. */
  function rawRowCount(runId: string): number {
    const db = new Database(dbPath, { readonly: true });
    try {
      return db.prepare("SELECT count(*) FROM rows WHERE run_id = ?").pluck().get(runId) as number;
    } finally {
      db.close();
    }
  }

  /** What an interrupted deleteRun leaves: the run gone, its rows still there. */
  function deleteRunRecordOnly(runId: string): void {
    const db = new Database(dbPath);
    db.pragma("foreign_keys = OFF");
    db.prepare("DELETE FROM runs WHERE id = ?").run(runId);
    db.close();
  }

  async function finishedRun(store: SqliteRunStore, rows: number): Promise<string> {
    const id = await store.beginRun(META);
    for (let from = 1; from <= rows; from += 5_000) await store.addRows(id, numbered(from, Math.min(rows, from + 4_999)));
    await store.finishRun(id, SUMMARY);
    return id;
  }

  it("refuses deleteRun options of the wrong kind (CONFIG_INVALID, naming them) before deleting anything: force \"no\" deleted a running run", async () => {
    const store = open();
    const running = await store.beginRun(META, { owner: "none" });
    const done = await finishedRun(store, 3);
    const cases: [string, unknown, string][] = [
      [running, { force: "no" }, `opts.force must be a boolean or nothing, received string "no"`],
      [done, { onProgress: 5 }, "opts.onProgress must be a function or nothing, received number 5"],
      [done, { signal: {} }, "opts.signal must be an AbortSignal or nothing, received object"],
      [done, null, "opts must be an object ({ onProgress?, force?, signal? }) or nothing, received null"],
      [done, 5, "opts must be an object ({ onProgress?, force?, signal? }) or nothing, received number 5"],
    ];
    for (const [id, opts, message] of cases) {
      expect(await evalErrorOf(store.deleteRun(id, opts as never))).toMatchObject({ code: "CONFIG_INVALID", message: `deleteRun: ${message}` });
    }
    expect(await store.findRun(running)).toMatchObject({ status: "running" });
    expect(await store.rowCount(done)).toBe(3);
  });

  it("deletes a run and its rows chunk by chunk, unsets the baseline it was, and leaves other runs whole", async () => {
    const store = open();
    const big = await finishedRun(store, 2 * DELETE_CHUNK_ROWS + 5);
    const other = await finishedRun(store, 10);
    await store.setBaseline(big);
    const progress: [number, number][] = [];
    expect(await store.deleteRun(big, { onProgress: (done, total) => progress.push([done, total]) })).toEqual({ rows: 2 * DELETE_CHUNK_ROWS + 5, wasBaseline: true, left: 0 });
    expect(progress).toEqual([DELETE_CHUNK_ROWS, 2 * DELETE_CHUNK_ROWS, 2 * DELETE_CHUNK_ROWS + 5].map((done) => [done, 2 * DELETE_CHUNK_ROWS + 5]));
    expect(await store.findRun(big)).toBeUndefined();
    expect(await store.baseline()).toBeUndefined();
    expect(rawRowCount(big)).toBe(0);
    expect((await store.listRuns()).map((r) => r.id)).toEqual([other]);
    expect(await untimedRows(store, other)).toEqual(numbered(1, 10));
    expect(store.freeBytes()).toBeGreaterThan(0);
    expect(await store.deleteRun(other)).toEqual({ rows: 10, wasBaseline: false, left: 0 });
    expect((await storeError(() => store.deleteRun(other), "RUN_NOT_FOUND")).message).toContain(`no run with id "${other}"`);
  });

  it("stops between chunks once its signal is aborted, the run gone, saying how many rows are left; the next deletion deletes them", async () => {
    const store = open();
    const big = await finishedRun(store, DELETE_CHUNK_ROWS + 5);
    const other = await finishedRun(store, 10);
    const controller = new AbortController();
    expect(await store.deleteRun(big, { signal: controller.signal, onProgress: () => controller.abort() })).toEqual({ rows: DELETE_CHUNK_ROWS + 5, wasBaseline: false, left: 5 });
    expect(await store.findRun(big)).toBeUndefined();
    expect(rawRowCount(big)).toBe(5);
    expect(await store.deleteRun(other)).toEqual({ rows: 10, wasBaseline: false, left: 0 });
    expect(rawRowCount(big)).toBe(0);
  });

  it("tells a writer whose run another process deleted with --force what happened, rather than 'no run with id'", async () => {
    const writer = open();
    const id = await writer.beginRun(META);
    await writer.addRows(id, numbered(1, 2));
    await open().deleteRun(id, { force: true });
    const error = await storeError(() => writer.addRows(id, numbered(3, 4)), "RUN_NOT_FOUND");
    expect(error.message).toContain(`run ${id}, which this process was recording, was deleted by another process (simeval delete --force)`);
  });

  it("a run deleted through another connection while its rows or scores are read fails the read, rather than ending it early", async () => {
    const reader = open();
    const deleter = open();
    for (const read of [(id: string) => reader.rows(id), (id: string) => reader.scores(id)]) {
      const id = await finishedRun(reader, 2_500); // three pages
      const rows = read(id)[Symbol.asyncIterator]();
      expect((await rows.next()).value).toMatchObject({ row: 1 });
      await deleter.deleteRun(id);
      const error = await storeError(async () => {
        for (let r = await rows.next(); !r.done; r = await rows.next());
      }, "RUN_NOT_FOUND");
      expect(error.message).toContain(`run ${id} was deleted while its rows were being read`);
    }
  });

  it("refuses a run a live process is still recording, and deletes one whose writer died", async () => {
    const store = open();
    const live = await store.beginRun(META);
    await store.addRows(live, numbered(1, 3));
    expect((await storeError(() => store.deleteRun(live), "RUN_CONFLICT")).message).toContain("is still being recorded");
    expect(rawRowCount(live)).toBe(3);
    const db = new Database(dbPath);
    db.prepare("UPDATE runs SET pid = 999999999 WHERE id = ?").run(live); // no such process on this host
    db.close();
    expect(await store.deleteRun(live)).toEqual({ rows: 3, wasBaseline: false, left: 0 });
    expect(rawRowCount(live)).toBe(0);
  });

  it("rows an interrupted deletion left are deleted by the next deletion and by vacuum, which shrinks the file", async () => {
    const store = open();
    const left = await finishedRun(store, 300);
    const next = await finishedRun(store, 200);
    deleteRunRecordOnly(left);
    const totals = new Set<number>();
    expect(await store.deleteRun(next, { onProgress: (_, total) => totals.add(total) })).toEqual({ rows: 200, wasBaseline: false, left: 0 });
    expect([...totals]).toEqual([500]);
    expect(rawRowCount(left)).toBe(0);

    const last = await finishedRun(store, 3_000);
    deleteRunRecordOnly(last);
    await store.close();
    const reopened = open();
    const before = statSync(dbPath).size;
    expect(await reopened.vacuum()).toBe(true);
    expect(rawRowCount(last)).toBe(0);
    expect(reopened.freeBytes()).toBe(0);
    expect(statSync(dbPath).size).toBeLessThan(before / 2);
  });

  it("vacuum waits for another connection's checkpoint, which SQLite answers busy at once (without the busy timeout), and shrinks the file", async () => {
    const store = open();
    await store.deleteRun(await finishedRun(store, 3_000));
    // A thread whose checkpoint holds the checkpoint lock while it waits for a write lock held by its other connection
    // (as a process's automatic checkpoint after a commit, or its last close, holds it while it copies the log).
    const flags = new Int32Array(new SharedArrayBuffer(12));
    const thread = new Worker(
      `const { workerData: { path, lib, flags } } = require("node:worker_threads");
const Database = require(lib);
const holder = new Database(path);
const checkpointer = new Database(path, { timeout: 600 });
Atomics.wait(flags, 0, 0);
holder.exec("BEGIN IMMEDIATE");
Atomics.store(flags, 1, 1);
Atomics.notify(flags, 1);
checkpointer.pragma("wal_checkpoint(TRUNCATE)");
holder.exec("COMMIT");
holder.close();
checkpointer.close();`,
      { eval: true, workerData: { path: dbPath, lib: createRequire(import.meta.url).resolve("better-sqlite3"), flags } },
    );
    const ended = new Promise((resolve, reject) => (thread.once("exit", resolve), thread.once("error", reject)));
    const pragma = Database.prototype.pragma;
    let started = false;
    const spy = vi.spyOn(Database.prototype, "pragma").mockImplementation(function (this: Database.Database, source: string, options?: Database.PragmaOptions) {
      if (source === "wal_checkpoint(TRUNCATE)" && !started) {
        // Between the VACUUM and its checkpoint: the thread begins its checkpoint, which then waits, holding the lock.
        started = true;
        Atomics.store(flags, 0, 1);
        Atomics.notify(flags, 0);
        Atomics.wait(flags, 1, 0, 10_000);
        Atomics.wait(flags, 2, 0, 200);
      }
      return pragma.call(this, source, options);
    });
    try {
      expect(await store.vacuum()).toBe(true); // false: "another process is reading it", when none was
    } finally {
      spy.mockRestore();
      Atomics.store(flags, 0, 1);
      Atomics.notify(flags, 0);
      await ended;
    }
    expect(statSync(`${dbPath}-wal`).size).toBe(0);
  });

  it("vacuum says when a reader kept the file from shrinking, which it then does once no one has it open", async () => {
    const store = openWithBusyTimeout(50);
    await store.deleteRun(await finishedRun(store, 3_000));
    const reader = new Database(dbPath, { readonly: true });
    const cursor = reader.prepare("SELECT name FROM sqlite_master").iterate(); // an open read transaction
    cursor.next();
    const onDisk = () => [dbPath, `${dbPath}-wal`].reduce((sum, f) => sum + (existsSync(f) ? statSync(f).size : 0), 0);
    const before = onDisk();
    expect(await store.vacuum()).toBe(false); // after the busy timeout
    expect(onDisk()).toBeGreaterThan(before / 2);
    cursor.return?.();
    reader.close();
    await store.close();
    expect(onDisk()).toBeLessThan(before / 2);
  });
});

describe("several writers", () => {
  it("two store instances on one file see and extend each other's runs", async () => {
    const a = open();
    const b = open();
    const id = await a.beginRun(META);
    expect((await b.findRun(id))?.status).toBe("running"); // begun by this live process: not mistaken for dead
    await a.addRows(id, numbered(1, 100));
    await b.addRows(id, numbered(101, 200));
    await b.finishRun(id, SUMMARY);
    expect((await a.findRun(id))?.status).toBe("complete");
    expect(await collect(a.rows(id))).toHaveLength(200);
  });

  it("two processes writing at once both finish with every row", async () => {
    await open().close(); // create the file first, so the children only race on writes
    const source = `
      const store = openSqliteStore(process.argv[2]);
      const id = await store.beginRun({ name: process.argv[3], dataset_path: "d", dataset_hash: "h", evaluators: [{ type: "exact_match" }] });
      let row = 0;
      for (let b = 0; b < 100; b++) {
        const rows = [];
        for (let i = 0; i < 200; i++) { row++; rows.push({ row, id: row, results: { em: { type: "exact_match", score: 1, passed: true } } }); }
        await store.addRows(id, rows);
      }
      await store.finishRun(id, { rows: row, row_errors: 0, skipped_as_zero: false, evaluators: [] });
      await store.close();
      process.stdout.write(id + "\\n");
    `;
    const children = [startChild(source, [dbPath, "p1"]), startChild(source, [dbPath, "p2"])];
    const results = await Promise.all(children.map((c) => c.exited));
    for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 });
    const store = open();
    for (const name of ["p1", "p2"]) {
      const run = await store.findRun(name);
      expect(run?.status).toBe("complete");
      expect(await collect(store.rows(run!.id))).toHaveLength(20_000);
    }
  });
});

/** What appendRows says an id must be when it holds NaN or ±Infinity. */
const NON_FINITE_ID = "nothing or a value JSON writes as it is (a string, a finite number, or arrays and objects of them): NaN and ±Infinity are written as null, and the row would be stored without its id";

describe("appendRows", () => {
  const unnumbered = (from: number, to: number) => numbered(from, to).map(({ row: _, ...r }) => r);

  it("numbers the rows after the run's last one, resolving to the numbers in order; serialised rows too; no rows touch nothing", async () => {
    const store = open();
    const id = await store.beginRun(META);
    expect(await store.appendRows(id, unnumbered(1, 3))).toEqual(added(1, 2, 3));
    await store.addRows(id, numbered(4, 5)); // numbered by the caller, as the runner does
    const serialized: Omit<SerializedRow, "row"> = { line: 7, id: '"s"', results: JSON.stringify(result(1)), error: null, scores: [1] };
    expect(await store.appendRows(id, [serialized, ...unnumbered(7, 7)])).toEqual(added(6, 7));
    expect(await store.appendRows(id, [])).toEqual([]);
    expect(await store.appendRows("nope", [])).toEqual([]); // as addRows: an empty batch asks nothing of the store
    const rows = await collect(store.rows(id));
    expect(rows.map((r) => [r.row, r.id])).toEqual([[1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, "s"], [7, 7]]);
    expect(untimed(rows[5])).toEqual({ row: 6, id: "s", line: 7, results: result(1) });
    expect(await collect(store.scores(id))).toEqual((await collect(store.rows(id))).map(rowScores));
    // Another run's numbers are its own.
    expect(await store.appendRows(await store.beginRun(META), unnumbered(1, 2))).toEqual(added(1, 2));
    // After the largest number, not the count: a run whose numbers have gaps (rows 2 and 5 of a dataset) goes on at 6.
    const gaps = await store.beginRun(META);
    await store.addRows(gaps, [...numbered(2, 2), ...numbered(5, 5)]);
    expect(await store.appendRows(gaps, unnumbered(6, 6))).toEqual(added(6));
  });

  it("refuses rows that are not a list of unnumbered rows, naming the place, and stores none of the batch", async () => {
    const store = open();
    const id = await store.beginRun(META);
    const cases: [unknown, string][] = [
      [5, "appendRows: rows must be an array of rows (RowOutcomes or SerializedRows without their row), received number 5"],
      [[...unnumbered(1, 1), null], "appendRows: rows[1] must be a row (a RowOutcome or SerializedRow without its row), received null"],
      [[...unnumbered(1, 1), numbered(2, 2)[0]], "appendRows: rows[1].row must be nothing (appendRows numbers the rows; addRows takes numbered ones), received number 2"],
      [[{ id: 1 }], "appendRows: rows[0].results must be an object of results by evaluator name, or their JSON, received nothing"],
      [[{ id: 1, results: [] }], "appendRows: rows[0].results must be an object of results by evaluator name, or their JSON, received array of 0"],
      [[...unnumbered(1, 1), { results: { lev: 7 } }], "appendRows: rows[1].results.lev must be an evaluator's result ({ score, skipped, … } or { error }, as scoreRecord gives it), received number 7"],
      [[{ results: { lev: null } }], "appendRows: rows[0].results.lev must be an evaluator's result ({ score, skipped, … } or { error }, as scoreRecord gives it), received null"],
      // A result under a name the run has no evaluator for (META's is "em").
      [[...unnumbered(1, 1), { results: { em: { score: 1, passed: true }, lev: { score: 1, passed: true } } }], `appendRows: rows[1].results.lev: run ${id} has no evaluator named "lev" (its evaluators: "em"); a row's results are keyed by the names of the run's evaluators, as scoreRecord gives them`],
      // A string `results` makes the row a SerializedRow: its JSON is checked, and its id must be JSON too.
      [[{ id: "trace-1", results: '{"em":{"score":1,"passed":true}}' }], `appendRows: rows[0].id must be the JSON of the row's id (JSON.stringify(id): a row whose results are a string of JSON is a SerializedRow, whose id is JSON too), or nothing, received string "trace-1"`],
      [[{ results: "not json" }], `appendRows: rows[0].results must be an object of results by evaluator name, or its JSON (a string that parses to an object), received string "not json"`],
      [[{ results: "[]" }], `appendRows: rows[0].results must be an object of results by evaluator name, or its JSON (a string that parses to an object), received string "[]"`],
      [[{ results: '{"em":7}' }], "appendRows: rows[0].results.em must be an evaluator's result ({ score, skipped, … } or { error }, as scoreRecord gives it), received number 7"],
      [[{ results: '{"em":{"score":1,"passed":true}}', error: "oops" }], `appendRows: rows[0].error must be null, nothing or the JSON of { code, message }, received string "oops"`],
      [[{ results: { em: { score: 1, passed: true } }, error: "oops" }], `appendRows: rows[0].error must be nothing or the row's error ({ code, message }), received string "oops"`],
      [[{ results: '{"lev":{"score":1,"passed":true}}' }], `appendRows: rows[0].results.lev: run ${id} has no evaluator named "lev" (its evaluators: "em"); a row's results are keyed by the names of the run's evaluators, as scoreRecord gives them`],
      // A line goes to an INTEGER column: anything else was STORE_FAILED naming no row.
      [[{ results: '{"em":{"score":1,"passed":true}}', line: "3" }], `appendRows: rows[0].line must be nothing, null or a whole number from 1 (the dataset line the row was read from), received string "3"`],
      [[...unnumbered(1, 1), { results: {}, line: 1.5 }], `appendRows: rows[1].line must be nothing, null or a whole number from 1 (the dataset line the row was read from), received number 1.5`],
      // An id holding NaN or ±Infinity, anywhere in it, was stored as JSON writes it: null, the row without its id.
      [[...unnumbered(1, 1), { id: Infinity, results: {} }], `appendRows: rows[1].id must be ${NON_FINITE_ID}, received number Infinity`],
      [[{ id: NaN, results: {} }], `appendRows: rows[0].id must be ${NON_FINITE_ID}, received number NaN`],
      [[{ id: { case: [1, -Infinity] }, results: {} }], `appendRows: rows[0].id.case[1] must be ${NON_FINITE_ID}, received number -Infinity`],
      [[{ id: "1e400", results: '{"em":{"score":1,"passed":true}}' }], `appendRows: rows[0].id must be ${NON_FINITE_ID}, received number Infinity`],
    ];
    for (const [rows, message] of cases) {
      const error = await evalErrorOf(store.appendRows(id, rows as never));
      expect(error).toMatchObject({ code: "INPUT_INVALID", message });
    }
    expect(await collect(store.rows(id))).toEqual([]);
    // Serialised rows whose JSON is right are stored, with or without an id, line or error.
    // A serialised row's scores are made from its results, as a RowOutcome's are: ones given that disagree, or are
    // no numbers, are not read (stored, ["x"] failed every later scores() read, and [0] beside a score of 1 made
    // compare and the summary disagree).
    const serialized = [
      { id: '"t-1"', results: '{"em":{"score":1,"passed":true,"skipped":false}}', line: 7, scores: new Float64Array([0]) },
      { results: '{"em":{"score":0,"passed":false}}', error: null, line: null, scores: ["x"] },
    ];
    expect(await store.appendRows(id, serialized as never)).toEqual([{ row: 1, added: true }, { row: 2, added: true }]);
    expect((await collect(store.rows(id))).map((r) => [r.row, r.id, r.line, r.results["em"]])).toEqual([
      [1, "t-1", 7, { score: 1, passed: true, skipped: false }],
      [2, undefined, undefined, { score: 0, passed: false }],
    ]);
    expect((await collect(store.scores(id))).map((r) => r.scores)).toEqual([{ em: 1 }, { em: 0 }]);
  });

  it("refuses a score its evaluator's type cannot give, naming rows[i].results.NAME.score, the type and its range, as the results.jsonl reader does, and stores none of the batch", async () => {
    const store = open();
    const evaluators = [{ type: "exact_match", name: "em" }, { type: "levenshtein", name: "lev" }, { type: "levenshtein_distance", name: "dist" }, { type: "semantic_similarity", name: "cos", config: { provider: "openai" } }];
    const id = await store.beginRun({ ...META, evaluators });
    const ok = { em: { score: 1, passed: true }, lev: { score: 0.5, passed: null }, dist: { score: 3, passed: null }, cos: { score: -0.25, passed: null } };
    const bound = "a finite number or null, from -2^53 to 2^53 (no evaluator scores beyond; larger ones overflow the comparison's sums)";
    // Stored, each was summarized (a levenshtein mean above 1, a negative distance) and compared as a score.
    const cases: [string, number, string][] = [
      ["lev", 1.5, "one that type levenshtein can give, from 0 to 1"],
      ["lev", -0.1, "one that type levenshtein can give, from 0 to 1"],
      ["dist", -1, "one that type levenshtein_distance can give, a whole number from 0 up"],
      ["dist", 2.5, "one that type levenshtein_distance can give, a whole number from 0 up"],
      ["em", 0.5, "one that type exact_match can give, a whole number from 0 to 1"],
      ["cos", -1.01, "one that type semantic_similarity can give, from -1 to 1"],
      ["dist", 2 ** 53 + 2, bound],
      ["dist", Infinity, bound],
      ["lev", NaN, bound],
    ];
    for (const [name, score, expected] of cases) {
      const row = { results: { ...ok, [name]: { score, passed: null } } };
      const message = `appendRows: rows[1].results.${name}.score must be ${expected}, received number ${String(score)}`;
      // The issue's path names the score, as the message does, for a caller that reads it.
      expect(await evalErrorOf(store.appendRows(id, [{ results: ok }, row] as never))).toMatchObject({ code: "INPUT_INVALID", message, issues: [{ path: ["rows", 1, "results", name, "score"] }] });
    }
    // A SerializedRow's results are held to it too: 1e400 parses as Infinity.
    const serialized = { results: JSON.stringify({ lev: { score: 2, passed: null } }) };
    expect(await evalErrorOf(store.appendRows(id, [serialized] as never))).toMatchObject({ message: "appendRows: rows[0].results.lev.score must be one that type levenshtein can give, from 0 to 1, received number 2" });
    expect(await evalErrorOf(store.appendRows(id, [{ results: '{"dist":{"score":1e400,"passed":null}}' }] as never))).toMatchObject({ message: `appendRows: rows[0].results.dist.score must be ${bound}, received number Infinity` });
    expect(await collect(store.rows(id))).toEqual([]);
    // The bounds themselves, no score, a skipped result and an error are stored.
    const edges = [
      { results: { em: { score: 0, passed: false }, lev: { score: 1, passed: null }, dist: { score: 2 ** 53, passed: null }, cos: { score: -1, passed: null } } },
      { results: { em: { score: null, passed: null }, lev: { skipped: true }, dist: { score: null, passed: null, skipped: true }, cos: { error: { code: "EVALUATOR_FAILED", message: "m" } } } },
    ];
    expect(await store.appendRows(id, edges as never)).toEqual(added(1, 2));
  });

  it("reads a row stored with JSON that does not parse (a SerializedRow's, stored unchecked by addRows) as STORE_FAILED naming the run, row and column, not a SyntaxError", async () => {
    const store = open();
    const id = await store.beginRun(META, { owner: "none" });
    // A SerializedRow's `id` is JSON text: "trace-1" is none. addRows, the runner's path, stores it unchecked.
    await store.addRows(id, [{ row: 1, id: "trace-1", line: null, key: "a", results: "{}", error: null } as never, { row: 2, id: "null", line: null, key: "b", results: "not json", error: null } as never]);
    const idMessage = `${dbPath}: row 1 of run ${id} holds id "trace-1", which is not JSON (`;
    const tail = "it was stored so as a SerializedRow's JSON, which addRows stores unchecked, or the file is damaged";
    for (const read of [() => collect(store.rows(id)), () => collect(store.scores(id)), () => store.rowByKey(id, "a")]) {
      const e = await evalErrorOf(read());
      expect(e.code).toBe("STORE_FAILED");
      expect(e.message.startsWith(idMessage) && e.message.endsWith(tail)).toBe(true);
    }
    const e = await evalErrorOf(store.rowByKey(id, "b"));
    expect(e.message.startsWith(`${dbPath}: row 2 of run ${id} holds results "not json", which is not JSON (`)).toBe(true);
  });

  it("reads a run whose evaluators or summary column does not parse (a damaged file, one edited by hand) as STORE_FAILED naming the run and column, not a bare SyntaxError", async () => {
    const store = open();
    const id = await store.beginRun(META);
    await store.finishRun(id, SUMMARY);
    const other = await store.beginRun(META);
    store.close();
    const db = new Database(dbPath);
    db.prepare("UPDATE runs SET summary = ? WHERE id = ?").run('{"rows":', id);
    db.prepare("UPDATE runs SET evaluators = ? WHERE id = ?").run("[{", other);
    db.close();
    const reopened = open();
    const tail = "the database file is damaged or was edited by hand: restore it from a copy";
    const summary = await evalErrorOf(reopened.findRun(id));
    expect(summary.code).toBe("STORE_FAILED");
    expect(summary.message.startsWith(`${dbPath}: run ${id} holds summary "{\\"rows\\":", which is not JSON (`) && summary.message.endsWith(tail)).toBe(true);
    const evaluators = await evalErrorOf(reopened.findRun(other));
    expect(evaluators.message.startsWith(`${dbPath}: run ${other} holds evaluators "[{", which is not JSON (`) && evaluators.message.endsWith(tail)).toBe(true);
    expect((await evalErrorOf(reopened.listRuns())).code).toBe("STORE_FAILED");
    for (const read of [() => collect(reopened.rows(other)), () => collect(reopened.scores(other))]) {
      expect((await evalErrorOf(read())).message).toBe(evaluators.message);
    }
    reopened.close();
  });

  it("scores() gives the key of a row read from its results (no scores column: an error or a missing result), as --pair-by key pairs it", async () => {
    const store = open();
    const id = await store.beginRun(META);
    await store.appendRows(id, [
      { key: "k1", results: {}, error: { code: "INPUT_INVALID", message: "unreadable" } },
      { key: "k2", results: {} },
    ] as never);
    expect((await collect(store.scores(id))).map((r) => [r.row, r.key])).toEqual([[1, "k1"], [2, "k2"]]);
  });

  it("refuses a result that is not an object in addRows too, naming the row and the evaluator, and stores none of the batch", async () => {
    const store = open();
    const id = await store.beginRun(META);
    const error = await evalErrorOf(store.addRows(id, [...numbered(1, 1), { row: 2, results: { lev: "high" } } as never]));
    expect(error).toMatchObject({ code: "INPUT_INVALID", message: `addRows: rows[1].results.lev must be an evaluator's result ({ score, skipped, … } or { error }, as scoreRecord gives it), received string "high"` });
    expect(await collect(store.rows(id))).toEqual([]);
  });

  it("refuses a result whose score, passed, skipped or error is of the wrong kind, or whose score or passed is missing, naming the field, in appendRows and addRows", async () => {
    const store = open();
    const id = await store.beginRun(META);
    // `passed: "yes"` was stored and counted as a pass, `score: "0.9"` as the evaluator's error, a summary's mean could pass 1.
    const cases: [unknown, string][] = [
      [{ score: "0.9", passed: true, skipped: false }, `rows[1].results.em.score must be a number or null, received string "0.9"`],
      [{ score: 2, passed: "yes" }, `rows[1].results.em.passed must be true, false or null (no verdict), received string "yes"`],
      [{ score: 1, passed: true, skipped: "no" }, `rows[1].results.em.skipped must be true or false, received string "no"`],
      [{ error: "failed" }, `rows[1].results.em.error must be the evaluator's error ({ code, message }, both strings, as scoreRecord gives it), received string "failed"`],
      [{ error: { code: "X" } }, `rows[1].results.em.error must be the evaluator's error ({ code, message }, both strings, as scoreRecord gives it), received object`],
      [{ error: { message: "m" } }, `rows[1].results.em.error must be the evaluator's error ({ code, message }, both strings, as scoreRecord gives it), received object`],
      // Left out, they were read as what the caller did not say: `{}` as the evaluator's error, `{ score: 1 }` as a failed row.
      [{}, `rows[1].results.em.score must be a number or null (no score), unless the result is skipped (skipped: true) or an { error }, as scoreRecord gives them, received nothing`],
      [{ passed: true }, `rows[1].results.em.score must be a number or null (no score), unless the result is skipped (skipped: true) or an { error }, as scoreRecord gives them, received nothing`],
      [{ score: 1 }, `rows[1].results.em.passed must be true, false or null (no verdict), unless the result is skipped (skipped: true) or an { error }, as scoreRecord gives them, received nothing`],
      [{ score: 1, skipped: false }, `rows[1].results.em.passed must be true, false or null (no verdict), unless the result is skipped (skipped: true) or an { error }, as scoreRecord gives them, received nothing`],
    ];
    for (const [result, message] of cases) {
      const appended = await evalErrorOf(store.appendRows(id, [...unnumbered(1, 1), { results: { em: result } }] as never));
      expect(appended).toMatchObject({ code: "INPUT_INVALID", message: `appendRows: ${message}` });
      const added = await evalErrorOf(store.addRows(id, [...numbered(1, 1), { row: 2, id: null, results: { em: result } }] as never));
      expect(added).toMatchObject({ code: "INPUT_INVALID", message: `addRows: ${message}` });
    }
    expect(await collect(store.rows(id))).toEqual([]);
    // Null ones mean no score and no verdict; a skipped result and an error need neither; the rest may be left out.
    const fine = [{ score: 1, passed: true }, { score: null, passed: null }, { score: null, passed: null, skipped: true }, { skipped: true }, { error: { code: "E", message: "m" } }];
    expect(await store.appendRows(id, fine.map((em) => ({ results: { em } })) as never)).toEqual(added(1, 2, 3, 4, 5));
  });

  it("refuses a row whose id, results or error has no JSON (INPUT_INVALID naming it), storing none of the batch: an id of 1n was STORE_FAILED naming no row", async () => {
    const store = open();
    const id = await store.beginRun(META);
    const cycle: Record<string, unknown> = {};
    cycle["self"] = cycle;
    const unnumbered = (from: number, to: number) => numbered(from, to).map(({ row: _, ...r }) => r);
    const em = result(1)["em"];
    const cases: [string, Record<string, unknown>, string][] = [
      ["id", { id: 1n, results: result(1) }, "Do not know how to serialize a BigInt"],
      ["results", { results: { em: { ...em, details: cycle } } }, "Converting circular structure to JSON"],
      ["error", { results: {}, error: { code: "X", message: "m", cause: cycle } }, "Converting circular structure to JSON"],
    ];
    for (const [field, row, why] of cases) {
      const appended = await evalErrorOf(store.appendRows(id, [...unnumbered(1, 1), row] as never));
      expect(appended.code).toBe("INPUT_INVALID");
      expect(appended.message.startsWith(`appendRows: rows[1].${field} must be a value that JSON.stringify can write (${why}`)).toBe(true);
      const added = await evalErrorOf(store.addRows(id, [...numbered(1, 1), { row: 2, id: null, ...row }] as never));
      expect(added.code).toBe("INPUT_INVALID");
      expect(added.message.startsWith(`addRows: rows[1].${field} must be a value that JSON.stringify can write (${why}`)).toBe(true);
    }
    expect(await collect(store.rows(id))).toEqual([]);
  });

  it("refuses an unknown run (RUN_NOT_FOUND) or a finished one (RUN_CONFLICT), storing nothing", async () => {
    const store = open();
    expect((await storeError(() => store.appendRows("nope", unnumbered(1, 2)), "RUN_NOT_FOUND")).message).toBe(`${dbPath}: no run with id "nope"`);
    const id = await store.beginRun(META);
    await store.finishRun(id, SUMMARY);
    expect((await storeError(() => store.appendRows(id, unnumbered(1, 1)), "RUN_CONFLICT")).message).toBe(`${dbPath}: run ${id} is complete; cannot append a row to it`);
    expect(await store.rowCount(id)).toBe(0);
  });

  it("a write that waited out another connection's write lock is STORE_FAILED, transient: retried unchanged once the lock is free, it is stored", async () => {
    const store = openWithBusyTimeout(50);
    const id = await store.beginRun(META);
    const holder = new Database(dbPath);
    holder.prepare("BEGIN IMMEDIATE").run();
    try {
      for (const write of [() => store.appendRows(id, unnumbered(1, 1)), () => store.addRows(id, numbered(1, 1))]) {
        const started = Date.now();
        const error = await storeError(write);
        expect(error).toMatchObject({ transient: true, cause: { code: "SQLITE_BUSY" } });
        expect(error.message).toContain("database is locked");
        expect(Date.now() - started).toBeLessThan(2_000); // the test's busy timeout, not the store's 5 s
      }
    } finally {
      holder.prepare("ROLLBACK").run();
      holder.close();
    }
    expect(await store.appendRows(id, unnumbered(1, 1))).toEqual(added(1));
  });

  it("reads a dead writer's run as incomplete at once while another connection holds the write lock, without waiting out the busy timeout to record it; writes still wait", async () => {
    const store = openWithBusyTimeout(1_500);
    const id = await store.beginRun(META, { owner: "none" });
    const dead = await store.beginRun(META);
    const db = new Database(dbPath);
    db.prepare("UPDATE runs SET pid = 999999999 WHERE id = ?").run(dead); // no such process on this host
    db.close();
    const holder = new Database(dbPath);
    holder.prepare("BEGIN IMMEDIATE").run();
    try {
      const gone = { id: dead, status: "incomplete", stop_reason: processGone(999999999) };
      for (const read of [() => store.getRun(dead), async () => (await store.listRuns({ limit: 1 }))[0], () => store.findRun(dead), () => store.getRun(id)]) {
        const started = Date.now();
        const run = await read();
        expect(Date.now() - started).toBeLessThan(750); // each read waited the store's whole busy timeout (1.5 s here, 5 s in use)
        expect(run).toMatchObject(run?.id === dead ? gone : { id, status: "running" });
      }
      // The store's own busy timeout is back for its writes: they wait it out before failing.
      const started = Date.now();
      await storeError(() => store.appendRows(id, unnumbered(1, 1)));
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    } finally {
      holder.prepare("ROLLBACK").run();
      holder.close();
    }
    expect(rawRun(dead)).toMatchObject({ status: "running" }); // not recorded while the lock was held
    expect(await store.getRun(dead)).toMatchObject({ status: "incomplete" });
    expect(rawRun(dead)).toMatchObject({ status: "incomplete", stop_reason: processGone(999999999) }); // recorded once free
  });

  it("says by its code whose a refusal is: RUN_NOT_FOUND for no such run, RUN_CONFLICT for a run whose state forbids the call, STORE_FAILED (transient) for a locked database", async () => {
    const store = openWithBusyTimeout(50);
    const unknown = (message: string) => ({ code: "RUN_NOT_FOUND", transient: false, message });
    const conflict = (message: string) => ({ code: "RUN_CONFLICT", transient: false, message });
    // A run never recorded, and one deleted: no run with that id, whatever the call.
    const deleted = await store.beginRun(META, { owner: "none" });
    await store.deleteRun(deleted, { force: true });
    for (const id of ["nope", deleted]) {
      const none = unknown(`${dbPath}: no run with id "${id}"`);
      await expect(store.appendRows(id, unnumbered(1, 1))).rejects.toMatchObject(none);
      await expect(store.addRows(id, numbered(1, 1))).rejects.toMatchObject(none);
      await expect(collect(store.rows(id))).rejects.toMatchObject(none);
      await expect(store.finishRun(id, SUMMARY)).rejects.toMatchObject(none);
      await expect(store.finishRun(id, SUMMARY, { rows: 0 })).rejects.toMatchObject(none);
      await expect(store.deleteRun(id)).rejects.toMatchObject(none);
      await expect(store.deleteRun(id, { force: true })).rejects.toMatchObject(none);
    }
    // A run that has ended, complete or incomplete: it takes no row and cannot be finished.
    const complete = await store.beginRun(META);
    await store.finishRun(complete, SUMMARY);
    const aborted = await store.beginRun(META);
    await store.abortRun(aborted, null, "stopped");
    for (const [id, status] of [[complete, "complete"], [aborted, "incomplete"]] as const) {
      await expect(store.appendRows(id, unnumbered(1, 1))).rejects.toMatchObject(conflict(`${dbPath}: run ${id} is ${status}; cannot append a row to it`));
      await expect(store.addRows(id, numbered(1, 1))).rejects.toMatchObject(conflict(`${dbPath}: run ${id} is ${status}; cannot add row 1 to it`));
      await expect(store.finishRun(id, SUMMARY)).rejects.toMatchObject(conflict(`${dbPath}: run ${id} is ${status}; cannot finish it`));
      await expect(store.finishRun(id, SUMMARY, { rows: 5 })).rejects.toMatchObject(conflict(`${dbPath}: run ${id} is ${status}; cannot finish it`));
    }
    // A run still being recorded, by this process or by none: deleted only with force.
    const mine = await store.beginRun(META);
    const service = await store.beginRun(META, { owner: "none" });
    await expect(store.deleteRun(mine)).rejects.toMatchObject(conflict(`${dbPath}: run ${mine} is still being recorded (process ${process.pid} on ${THIS_HOST}); stop it before deleting it`));
    await expect(store.deleteRun(service)).rejects.toMatchObject(conflict(expect.stringContaining(`run ${service} is still being recorded (owned by no process`)));
    expect((await store.listRuns()).filter((r) => r.status === "running").map((r) => r.id).sort()).toEqual([mine, service].sort());
    // The database itself failing (the write lock not obtained in time) is STORE_FAILED, and worth retrying.
    const holder = new Database(dbPath);
    holder.prepare("BEGIN IMMEDIATE").run();
    try {
      const locked = { code: "STORE_FAILED", transient: true, message: expect.stringContaining("database is locked") };
      await expect(store.appendRows(service, unnumbered(1, 1))).rejects.toMatchObject(locked);
      await expect(store.finishRun(service, SUMMARY)).rejects.toMatchObject(locked);
      await expect(store.deleteRun(service, { force: true })).rejects.toMatchObject(locked);
    } finally {
      holder.prepare("ROLLBACK").run();
      holder.close();
    }
    await expect(store.deleteRun(service, { force: true })).resolves.toMatchObject({ rows: 0 });
  });

  it("refusals that retrying cannot change are not transient: an unknown, finished or deleted run, a row number written twice, a bad argument", async () => {
    const store = open();
    const unknown = { code: "RUN_NOT_FOUND", transient: false };
    const ended = { code: "RUN_CONFLICT", transient: false };
    await expect(store.appendRows("nope", unnumbered(1, 1))).rejects.toMatchObject({ ...unknown, message: `${dbPath}: no run with id "nope"` });
    await expect(store.addRows("nope", numbered(1, 1))).rejects.toMatchObject(unknown);
    const finished = await store.beginRun(META);
    await store.finishRun(finished, SUMMARY);
    await expect(store.appendRows(finished, unnumbered(1, 1))).rejects.toMatchObject({ ...ended, message: `${dbPath}: run ${finished} is complete; cannot append a row to it` });
    // Deleted by another process while this one records it, and deleted outright.
    const deleted = await store.beginRun(META);
    await open().deleteRun(deleted, { force: true });
    await expect(store.appendRows(deleted, unnumbered(1, 1))).rejects.toMatchObject({ ...unknown, message: expect.stringContaining("was deleted by another process") });
    const gone = await store.beginRun(META, { owner: "none" });
    await store.deleteRun(gone, { force: true });
    await expect(store.appendRows(gone, unnumbered(1, 1))).rejects.toMatchObject({ ...unknown, message: `${dbPath}: no run with id "${gone}"` });
    // SQLite's own refusal (SQLITE_CONSTRAINT_PRIMARYKEY), no lock, disk or I/O failure.
    const running = await store.beginRun(META);
    await store.addRows(running, numbered(1, 1));
    await expect(store.addRows(running, numbered(1, 1))).rejects.toMatchObject({ ...ended, message: expect.stringContaining("it holds row 1 (rows[0].row) already") });
    await expect(store.appendRows(running, [{ id: 1 }] as never)).rejects.toMatchObject({ code: "INPUT_INVALID", transient: false });
  });

  it("four processes appending to one run at once store every row once, numbered 1..N without a gap, each told its rows' numbers", async () => {
    const parent = open();
    const id = await parent.beginRun(META);
    const source = `
      const store = openSqliteStore(process.argv[2]);
      const [id, who] = process.argv.slice(3);
      const given = [];
      for (let i = 0; i < 300; ) {
        const rows = [];
        // Batches of 1 to 7 rows, so that the processes interleave at many points.
        for (let n = 1 + (i % 7); n > 0 && i < 300; n--, i++) rows.push({ id: who + ":" + i, results: { em: { type: "exact_match", score: 1, passed: true, label: "pass", reasoning: "", skipped: false, details: {} } } });
        const appended = await store.appendRows(id, rows);
        if (!appended.every((a) => a.added)) throw new Error("an unkeyed row was not added: " + JSON.stringify(appended));
        rows.forEach((r, j) => given.push([r.id, appended[j].row]));
        if (i % 3 === 0) await new Promise((r) => setTimeout(r, 1)); // now and then, let the others in
      }
      await store.close();
      process.stdout.write(JSON.stringify(given) + "\\n");
    `;
    const told = (await runTogether(source, ["a", "b", "c", "d"].map((who) => [id, who]))) as [string, number][][];
    const given = new Map(told.flat());
    expect(given.size).toBe(1200);
    const rows = await collect(parent.rows(id));
    expect(rows.map((r) => r.row)).toEqual(Array.from({ length: 1200 }, (_, i) => i + 1));
    expect(new Set(rows.map((r) => r.id)).size).toBe(1200);
    for (const r of rows) expect(given.get(r.id as string)).toBe(r.row);
    // The processes took turns: otherwise the test would not have shown that they queue for their numbers.
    const turns = rows.filter((r, i) => i > 0 && (r.id as string)[0] !== (rows[i - 1]?.id as string)[0]).length;
    expect(turns).toBeGreaterThan(10);
    expect((await parent.findRun(id))?.status).toBe("running"); // the children's close() leaves a run they did not begin alone
  }, 60_000);
});

describe("row keys", () => {
  const keyed = (key: string, score = 1): Omit<RowOutcome, "row"> => ({ id: key, key, results: result(score) });

  it("stores a key once per run: a key already stored, or earlier in the batch, gives the stored row's number, not added, and stores nothing", async () => {
    const store = open();
    const id = await store.beginRun(META);
    expect(await store.appendRows(id, [keyed("a"), { id: "no key", results: result(0) }, keyed("b")])).toEqual(added(1, 2, 3));
    // "b" again (a redelivery, whatever it holds now), a new "c" twice in one batch, and unkeyed rows: each stored.
    expect(await store.appendRows(id, [keyed("b", 0), keyed("c"), { id: "no key", results: result(0) }, keyed("c", 0), keyed("a")])).toEqual([kept(3), ...added(4, 5), kept(4), kept(1)]);
    const rows = await collect(store.rows(id));
    expect(rows.map((r) => [r.row, r.key, r.id])).toEqual([[1, "a", "a"], [2, undefined, "no key"], [3, "b", "b"], [4, "c", "c"], [5, undefined, "no key"]]);
    expect(untimed(rows[2])).toEqual({ row: 3, id: "b", key: "b", results: result(1) }); // the first delivery stands
    expect("key" in (rows[1] as object)).toBe(false); // absent, not undefined, where there is none
    // A serialised row's key; keys are per run.
    const other = await store.beginRun(META);
    const serialized = { line: null, id: '"s"', results: JSON.stringify(result(1)), error: null, key: "a" };
    expect(await store.appendRows(other, [serialized, keyed("a")])).toEqual([...added(1), kept(1)]);
    expect((await collect(store.rows(other))).map((r) => [r.row, r.key])).toEqual([[1, "a"]]);
  });

  it("answers a batch delivered again after its run ended with the stored numbers; a batch holding a new row is refused", async () => {
    const store = open();
    const id = await store.beginRun(META);
    expect(await store.appendRows(id, [keyed("a"), keyed("b")])).toEqual(added(1, 2));
    await store.finishRun(id, SUMMARY);
    expect(await store.appendRows(id, [keyed("b", 0), keyed("a")])).toEqual([kept(2), kept(1)]);
    const late = await storeError(() => store.appendRows(id, [keyed("a"), keyed("c")]), "RUN_CONFLICT");
    // It says which row is new, and that the rows the run holds are answered when sent again apart.
    expect(late.message).toBe(`${dbPath}: run ${id} is complete; cannot append 2 rows to it: it holds 1 of them already (by key) but not rows[1]; send again only the rows it holds, to learn their numbers`);
    const mixed = [keyed("x"), keyed("b"), { id: "no key", results: result(1) }, keyed("a"), keyed("y")];
    expect((await storeError(() => store.appendRows(id, mixed), "RUN_CONFLICT")).message).toBe(`${dbPath}: run ${id} is complete; cannot append 5 rows to it: it holds 2 of them already (by key) but not rows[0] and 2 more; send again only the rows it holds, to learn their numbers`);
    expect(await store.appendRows(id, [mixed[1]!, mixed[3]!])).toEqual([kept(2), kept(1)]);
    // Two new rows: the first named, the other counted ("1 more", not left unsaid).
    expect((await storeError(() => store.appendRows(id, [keyed("a"), keyed("p"), keyed("q")]), "RUN_CONFLICT")).message).toBe(`${dbPath}: run ${id} is complete; cannot append 3 rows to it: it holds 1 of them already (by key) but not rows[1] and 1 more; send again only the rows it holds, to learn their numbers`);
    const many = Array.from({ length: 1200 }, (_, i) => keyed(`m${i}`));
    expect((await storeError(() => store.appendRows(id, many), "RUN_CONFLICT")).message).toBe(`${dbPath}: run ${id} is complete; cannot append 1,200 rows to it`);
    // Counts past a thousand with separators, as the rows counted before them.
    const big = await store.beginRun(META);
    const held = Array.from({ length: 1_200 }, (_, i) => keyed(`h${i}`));
    await store.appendRows(big, held);
    await store.finishRun(big, SUMMARY);
    const grown = [...held, ...Array.from({ length: 1_001 }, (_, i) => keyed(`n${i}`))];
    expect((await storeError(() => store.appendRows(big, grown), "RUN_CONFLICT")).message).toBe(`${dbPath}: run ${big} is complete; cannot append 2,201 rows to it: it holds 1,200 of them already (by key) but not rows[1200] and 1,000 more; send again only the rows it holds, to learn their numbers`);
    // A row without a key is never a redelivery.
    expect((await storeError(() => store.appendRows(id, [{ id: "x", results: result(1) }]), "RUN_CONFLICT")).message).toContain("is complete");
    expect((await collect(store.rows(id))).map((r) => [r.row, r.key])).toEqual([[1, "a"], [2, "b"]]);
    await expect(store.appendRows("nope", [keyed("a")])).rejects.toMatchObject({ code: "RUN_NOT_FOUND", message: `${dbPath}: no run with id "nope"` });
  });

  it("refuses a batch delivered again to a run deleted since, whose rows an interrupted deletion left behind", async () => {
    const store = open();
    const id = await store.beginRun(META, { owner: "none" });
    expect(await store.appendRows(id, [keyed("a"), keyed("b")])).toEqual(added(1, 2));
    const stopped = new AbortController();
    stopped.abort(); // the run goes, its rows stay (as after Ctrl-C during `simeval delete`)
    expect(await store.deleteRun(id, { force: true, signal: stopped.signal })).toMatchObject({ rows: 2, left: 2 });
    await expect(store.appendRows(id, [keyed("a")])).rejects.toMatchObject({ code: "RUN_NOT_FOUND", message: `${dbPath}: no run with id "${id}"` });
  });

  it("rowByKey gives the row stored with a key, as rows() does, or undefined when the run holds no such key", async () => {
    const store = open();
    const id = await store.beginRun(META);
    const other = await store.beginRun(META);
    await store.appendRows(id, [keyed("a"), { id: "no key", results: result(0) }, { ...keyed("b", 0), line: 9, error: { code: "ROW_INVALID", message: "bad" } }]);
    await store.appendRows(id, [keyed("a", 0)]); // a redelivery: the first stands
    await store.addRows(other, [{ ...numbered(5, 5)[0]!, key: "a" }]);
    const rows = await collect(store.rows(id));
    expect(await store.rowByKey(id, "a")).toEqual(rows[0]);
    expect(await store.rowByKey(id, "b")).toEqual(rows[2]);
    expect(untimed(rows[2])).toEqual({ row: 3, id: "b", key: "b", line: 9, results: result(0), error: { code: "ROW_INVALID", message: "bad" } });
    expect(untimed(await store.rowByKey(other, "a"))).toEqual({ ...numbered(5, 5)[0], key: "a" }); // keys are per run
    expect(await store.rowByKey(id, "c")).toBeUndefined();
    expect(await store.rowByKey(other, "b")).toBeUndefined();
    await store.finishRun(id, SUMMARY);
    expect(await store.rowByKey(id, "a")).toEqual(rows[0]); // a finished run's rows too
  });

  it("rowByKey refuses an argument that is not a non-empty string (INPUT_INVALID, naming it) and an unknown or deleted run (RUN_NOT_FOUND)", async () => {
    const store = open();
    const id = await store.beginRun(META, { owner: "none" });
    for (const bad of ["", 5, null, undefined]) {
      await expect(store.rowByKey(bad as string, "a")).rejects.toMatchObject({ code: "INPUT_INVALID", message: `rowByKey: runId must be a run's id (a non-empty string), received ${describeValue(bad)}` });
      await expect(store.rowByKey(id, bad as string)).rejects.toMatchObject({ code: "INPUT_INVALID", message: `rowByKey: key must be a row's idempotency key (a non-empty string), received ${describeValue(bad)}` });
    }
    await expect(store.rowByKey("nope", "a")).rejects.toMatchObject({ code: "RUN_NOT_FOUND", message: `${dbPath}: no run with id "nope"` });
    await store.appendRows(id, [keyed("a")]);
    const stopped = new AbortController();
    stopped.abort(); // the run goes, its rows stay (as after Ctrl-C during `simeval delete`): they answer for no run
    expect(await store.deleteRun(id, { force: true, signal: stopped.signal })).toMatchObject({ left: 1 });
    await expect(store.rowByKey(id, "a")).rejects.toMatchObject({ code: "RUN_NOT_FOUND", message: `${dbPath}: no run with id "${id}"` });
  });

  it("takes a row without an id, as { results, key }: stored with none", async () => {
    const store = open();
    const id = await store.beginRun(META);
    const row: UnnumberedRow = { results: result(1), key: "k" }; // a type error while UnnumberedRow required `id`
    expect((await store.appendRows(id, [row]))[0]).toMatchObject({ row: 1, added: true });
    expect(await untimedRows(store, id)).toEqual([{ row: 1, id: undefined, key: "k", results: result(1) }]);
  });

  it("addRows stores a row's key too, refusing one the run holds as it refuses a row number written twice", async () => {
    const store = open();
    const id = await store.beginRun(META);
    await store.addRows(id, [{ ...numbered(1, 1)[0]!, key: "k" }, ...numbered(2, 2)]);
    expect((await collect(store.rows(id))).map((r) => r.key)).toEqual(["k", undefined]);
    const twice = await storeError(() => store.addRows(id, [{ ...numbered(3, 3)[0]!, key: "k" }]), "RUN_CONFLICT");
    expect(twice.message).toContain(`it holds a row with the key "k" (rows[0].key) already`);
    // Given twice in one batch: the caller's rows, not the run's state; SQLite's words named neither.
    const inBatch = await evalErrorOf(store.addRows(id, [...numbered(3, 4), { ...numbered(4, 4)[0]!, row: 3 }]));
    expect(inBatch).toMatchObject({ code: "INPUT_INVALID", message: "addRows: rows[2].row 3 is given twice in the batch, also as rows[0].row: each row of a run has its own number and key (nothing of the batch was stored)", issues: [{ path: ["rows", 2, "row"] }] });
    const keyTwice = await evalErrorOf(store.addRows(id, [{ ...numbered(3, 3)[0]!, key: "j" }, { ...numbered(4, 4)[0]!, key: "j" }]));
    expect(keyTwice).toMatchObject({ code: "INPUT_INVALID", message: expect.stringContaining('addRows: rows[1].key "j" is given twice in the batch, also as rows[0].key') });
    expect(await store.rowCount(id)).toBe(2);
    expect(await store.appendRows(id, [keyed("k")])).toEqual([kept(1)]);
    expect(await store.rowCount(id)).toBe(2);
  });

  it("refuses a key that is not a non-empty string, naming it, and stores none of the batch", async () => {
    const store = open();
    const id = await store.beginRun(META);
    for (const bad of ["", 5, null, ["k"]]) {
      const expected = "must be nothing or a non-empty string (the row's idempotency key), received ";
      await expect(store.appendRows(id, [keyed("a"), { ...keyed("b"), key: bad as string }])).rejects.toMatchObject({ code: "INPUT_INVALID", message: `appendRows: rows[1].key ${expected}${describeValue(bad)}` });
      await expect(store.addRows(id, [{ ...numbered(1, 1)[0]!, key: bad as string }])).rejects.toMatchObject({ code: "INPUT_INVALID", message: `addRows: rows[0].key ${expected}${describeValue(bad)}` });
    }
    expect(await store.rowCount(id)).toBe(0);
  });

  it("upgrades a version 3 store in place: its rows are kept, without keys, and its runs take keyed rows", async () => {
    const old = join(dir, "v3.db");
    const db = databaseAtVersion(old, 3);
    db.prepare(`INSERT INTO runs (id, started_at, status, dataset_path, dataset_hash, evaluators, pid, host) VALUES ('r', '2026-01-01T00:00:00Z', 'running', 'd', 'h', ?, NULL, NULL)`).run(JSON.stringify(META.evaluators));
    const insertRow = db.prepare("INSERT INTO rows (run_id, row, id, results, scores) VALUES ('r', ?, ?, ?, ?)");
    insertRow.run(1, '"x"', JSON.stringify(result(1)), "[1]");
    insertRow.run(2, '"y"', JSON.stringify(result(0)), "[0]");
    db.close();

    const store = open(old);
    const raw = new Database(old, { readonly: true });
    expect(raw.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    expect(raw.prepare("SELECT sql FROM sqlite_schema WHERE name = 'rows_by_key'").pluck().get()).toBe("CREATE UNIQUE INDEX rows_by_key ON rows (run_id, key) WHERE key IS NOT NULL");
    raw.close();
    expect(await collect(store.rows("r"))).toEqual([{ row: 1, id: "x", results: result(1) }, { row: 2, id: "y", results: result(0) }]);
    expect(await store.appendRows("r", [keyed("k"), keyed("k")])).toEqual([...added(3), kept(3)]);
    expect((await collect(store.rows("r"))).map((r) => [r.row, r.key])).toEqual([[1, undefined], [2, undefined], [3, "k"]]);
  });

  it("four processes delivering the same keyed rows at once store each once, all told the same number, one of them that it added the row", async () => {
    const parent = open();
    const id = await parent.beginRun(META);
    const source = `
      const store = openSqliteStore(process.argv[2]);
      const [id, seed] = process.argv.slice(3);
      // Keys 1..100 in an order of this process's own, in batches of 1 to 5.
      const keys = Array.from({ length: 100 }, (_, i) => ((i + 1) * Number(seed)) % 101).map(String);
      const given = {};
      for (let i = 0; i < keys.length; ) {
        const batch = keys.slice(i, (i += 1 + (i % 5)));
        const appended = await store.appendRows(id, batch.map((key) => ({ id: key, key, results: {} })));
        batch.forEach((key, j) => (given[key] = appended[j]));
        await new Promise((r) => setTimeout(r, 1));
      }
      await store.close();
      process.stdout.write(JSON.stringify(given) + "\\n");
    `;
    // Multipliers of 1..100 modulo the prime 101: each a different order of the same keys.
    const told = (await runTogether(source, ["3", "7", "10", "50"].map((seed) => [id, seed]))) as Record<string, { row: number; added: boolean }>[];
    const rows = await collect(parent.rows(id));
    expect(rows.map((r) => r.row)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    const stored = Object.fromEntries(rows.map((r) => [r.key, r.row]));
    expect(Object.keys(stored)).toHaveLength(100);
    for (const given of told) expect(Object.fromEntries(Object.entries(given).map(([key, a]) => [key, a.row]))).toEqual(stored);
    // Exactly one delivery of each key was told that it added the row: the one whose side effects are to happen.
    for (const key of Object.keys(stored)) expect(told.filter((given) => given[key]?.added).length, key).toBe(1);
  }, 60_000);
});

describe("records and stored times (schema version 5)", () => {
  const NO_FILE = { ...META, dataset_path: null, dataset_hash: null };
  /** A trace's record: what a service's evaluators were given. */
  const trace = (n: number) => ({ id: `t${n}`, output: `answer ${n} é 🙂`, expected: `Answer ${n}`, meta: { tags: ["a", null, 2], nested: { ok: true } } });

  it("appendRows stores each row's record and the time of the call, which rows() and rowByKey give back; a redelivery keeps the first", async () => {
    const store = open();
    const id = await store.beginRun(NO_FILE, { owner: "none" });
    const now = vi.spyOn(Date, "now").mockReturnValue(1_800_000_000_000);
    try {
      const serialized = { line: null, id: '"t2"', results: JSON.stringify(result(0)), error: null, key: "t2", record: trace(2) };
      expect(await store.appendRows(id, [{ id: "t1", key: "t1", results: result(1), record: trace(1) }, serialized, { id: "bare", results: result(1) }])).toEqual(added(1, 2, 3));
      now.mockReturnValue(1_800_000_000_500);
      // "t1" again with another record: the first stands; a new row of this batch gets this batch's time.
      expect(await store.appendRows(id, [{ id: "t1", key: "t1", results: result(0), record: trace(9) }, { id: "t4", key: "t4", results: result(1), record: {} }])).toEqual([kept(1), ...added(4)]);
    } finally {
      now.mockRestore();
    }
    const rows = await collect(store.rows(id));
    expect(rows).toEqual([
      { row: 1, id: "t1", key: "t1", results: result(1), record: trace(1), stored_at: 1_800_000_000_000 },
      { row: 2, id: "t2", key: "t2", results: result(0), record: trace(2), stored_at: 1_800_000_000_000 },
      { row: 3, id: "bare", results: result(1), stored_at: 1_800_000_000_000 },
      { row: 4, id: "t4", key: "t4", results: result(1), record: {}, stored_at: 1_800_000_000_500 },
    ]);
    expect("record" in (rows[2] as object)).toBe(false); // absent, not undefined, where none was given
    expect(await store.rowByKey(id, "t1")).toEqual(rows[0]);
    expect(await store.rowByKey(id, "t2")).toEqual(rows[1]);
    // Comparisons read the scores alone: a record changes nothing there.
    expect(await collect(store.scores(id))).toEqual(rows.map(rowScores));
  });

  it("rows(id, { records: false }) gives every row as rows(id) does, without its record; a bad option is refused, naming it", async () => {
    const store = open();
    const id = await store.beginRun(NO_FILE, { owner: "none" });
    await store.appendRows(id, [{ id: "t1", key: "t1", results: result(1), record: trace(1) }, { id: "bare", results: result(0) }, { id: "t3", results: result(1), record: {} }]);
    const rows = await collect(store.rows(id));
    const without = await collect(store.rows(id, { records: false }));
    expect(without).toEqual(rows.map(({ record: _, ...rest }) => rest));
    expect(without.some((r) => "record" in r)).toBe(false);
    expect(await collect(store.rows(id, { records: true }))).toEqual(rows);
    expect(await collect(store.rows(id, {}))).toEqual(rows);
    for (const [opts, where] of [[{ records: "no" }, "opts.records"], [5, "opts"], [null, "opts"]] as const) {
      const error = await collect(store.rows(id, opts as never)).then(() => null, (e: unknown) => e);
      expect(error).toMatchObject({ code: "CONFIG_INVALID", message: expect.stringContaining(`rows: ${where} must be`) });
    }
  });

  it("a row's own stored_at is not kept (a row copied from another run gets the time it is stored again)", async () => {
    const store = open();
    const id = await store.beginRun(NO_FILE);
    const copied = { id: "c", results: result(1), record: trace(1), stored_at: 5 } as UnnumberedRow;
    await store.appendRows(id, [copied]);
    expect((await store.rows(id)[Symbol.asyncIterator]().next()).value).toMatchObject({ record: trace(1), stored_at: expect.any(Number) });
    expect(untimed((await collect(store.rows(id)))[0])).toEqual({ row: 1, id: "c", results: result(1), record: trace(1) });
    expect((await collect(store.rows(id)))[0]?.stored_at).toBeGreaterThan(5);
  });

  it("addRows (the runner's rows, read from a dataset file) stores the time of the call for every row, and no record", async () => {
    const store = open();
    const id = await store.beginRun(META);
    const now = vi.spyOn(Date, "now").mockReturnValue(1_800_000_000_000);
    try {
      await store.addRows(id, [{ ...numbered(1, 1)[0]!, record: trace(1) }, { row: 2, line: 3, id: '"s"', results: "{}", error: null }]);
    } finally {
      now.mockRestore();
    }
    expect(await collect(store.rows(id))).toEqual([
      { ...numbered(1, 1)[0], stored_at: 1_800_000_000_000 },
      { row: 2, line: 3, id: "s", results: {}, stored_at: 1_800_000_000_000 },
    ]);
  });

  it("refuses a record that is not a plain object with a JSON object, naming the row's index and the field, and stores none of the batch", async () => {
    const store = open();
    const id = await store.beginRun(NO_FILE);
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    const expected = "must be nothing or a plain object (the record the evaluators were given, stored as its JSON)";
    const cases: [unknown, string][] = [
      [null, `${expected}, received null`],
      ["text", `${expected}, received string "text"`],
      [5, `${expected}, received number 5`],
      [[{ a: 1 }], `${expected}, received array of 1`],
      [new Date(0), `${expected}, not an instance of Date, received object`],
      [new Map([["a", 1]]), `${expected}, not an instance of Map, received object`],
      [{ n: 1n }, `${expected} that JSON.stringify can write (Do not know how to serialize a BigInt), received object`],
      [{ toJSON: () => 5 }, `${expected} whose JSON is an object (its toJSON gives 5), received object`],
      [{ toJSON: () => undefined }, `${expected} whose JSON is an object (its toJSON gives nothing), received object`],
    ];
    for (const [bad, message] of cases) {
      const error = await evalErrorOf(store.appendRows(id, [{ id: "ok", results: result(1), record: trace(1) }, { id: "bad", results: result(1), record: bad as Record<string, unknown> }]));
      expect(error).toMatchObject({ code: "INPUT_INVALID", message: `appendRows: rows[1].record ${message}` });
      expect(error.issues?.[0]?.path).toEqual(["rows", 1, "record"]);
    }
    const error = await evalErrorOf(store.appendRows(id, [{ id: "bad", results: result(1), record: cyclic }]));
    expect(error).toMatchObject({ code: "INPUT_INVALID", message: expect.stringMatching(/^appendRows: rows\[0\]\.record must be nothing or a plain object .* that JSON\.stringify can write \(Converting circular structure/) });
    expect(await store.rowCount(id)).toBe(0);
    // An object without a prototype is a plain object.
    expect(await store.appendRows(id, [{ id: "ok", results: result(1), record: Object.assign(Object.create(null) as object, { a: 1 }) }])).toEqual(added(1));
  });

  it("upgrades a version 4 store in place by adding two columns (no rewrite): its rows read back without record or stored_at, and its runs take both", async () => {
    const old = join(dir, "v4.db");
    const db = databaseAtVersion(old, 4);
    db.prepare(`INSERT INTO runs (id, started_at, status, dataset_path, dataset_hash, evaluators, pid, host) VALUES ('r', '2026-01-01T00:00:00Z', 'running', '', '', ?, NULL, NULL)`).run(JSON.stringify(META.evaluators));
    const insertRow = db.prepare("INSERT INTO rows (run_id, row, id, results, scores, key) VALUES ('r', ?, ?, ?, ?, ?)");
    insertRow.run(1, '"x"', JSON.stringify(result(1)), "[1]", "kx");
    insertRow.run(2, '"y"', JSON.stringify(result(0)), "[0]", null);
    const rootPage = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'rows'").pluck().get();
    db.close();

    const store = open(old);
    const raw = new Database(old, { readonly: true });
    expect(raw.pragma("user_version", { simple: true })).toBe(5);
    expect(SCHEMA_VERSION).toBe(5);
    const columns = raw.prepare("SELECT name, type, \"notnull\" FROM pragma_table_info('rows') WHERE name IN ('record', 'stored_at')").all();
    expect(columns).toEqual([{ name: "record", type: "TEXT", notnull: 0 }, { name: "stored_at", type: "INTEGER", notnull: 0 }]);
    expect(raw.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'rows'").pluck().get()).toBe(rootPage); // the table was not rebuilt
    raw.close();
    const before = [{ row: 1, id: "x", key: "kx", results: result(1) }, { row: 2, id: "y", results: result(0) }];
    const rows = await collect(store.rows("r"));
    expect(rows).toEqual(before);
    for (const r of rows) expect(["record", "stored_at"].filter((k) => k in r)).toEqual([]); // absent, not undefined
    expect(await store.rowByKey("r", "kx")).toEqual(before[0]);
    expect(await store.appendRows("r", [{ id: "z", key: "kz", results: result(1), record: trace(3) }])).toEqual(added(3));
    expect(untimed(await store.rowByKey("r", "kz"))).toEqual({ row: 3, id: "z", key: "kz", results: result(1), record: trace(3) });
    expect(await collect(store.scores("r"))).toEqual((await collect(store.rows("r"))).map(rowScores));
  });
});

describe("runs owned by no process", () => {
  /** The run's pid and host as stored. */
  function rawOwner(id: string): { pid: number | null; host: string | null } {
    const { pid, host } = rawRun(id) as { pid: number | null; host: string | null };
    return { pid, host };
  }

  it("records no pid or host, stays running when the store that began it closes, and is finished by another store", async () => {
    const a = open();
    const owned = await a.beginRun(META, { owner: "process" });
    const unowned = await a.beginRun(META, { owner: "none" });
    const byDefault = await a.beginRun(META, {});
    expect(rawOwner(owned)).toEqual({ pid: process.pid, host: THIS_HOST });
    expect(rawOwner(byDefault)).toEqual({ pid: process.pid, host: THIS_HOST });
    expect(rawOwner(unowned)).toEqual({ pid: null, host: null });
    expect(await a.appendRows(unowned, [{ id: 1, results: result(1) }])).toEqual(added(1));
    await a.close();
    const b = open();
    const statuses = Object.fromEntries((await b.listRuns()).map((r) => [r.id, [r.status, r.stop_reason]]));
    expect(statuses).toEqual({ [owned]: ["incomplete", CLOSED_UNFINISHED], [byDefault]: ["incomplete", CLOSED_UNFINISHED], [unowned]: ["running", null] });
    // RunInfo.owner: from the pid recorded, or not.
    expect(Object.fromEntries((await b.listRuns()).map((r) => [r.id, r.owner]))).toEqual({ [owned]: "process", [byDefault]: "process", [unowned]: "none" });
    expect(await b.findRun(unowned)).toMatchObject({ owner: "none" });
    expect(await b.appendRows(unowned, [{ id: 2, results: result(0) }])).toEqual(added(2));
    await b.finishRun(unowned, SUMMARY);
    await b.close();
    expect(await open().findRun(unowned)).toMatchObject({ status: "complete", summary: SUMMARY });
    // Aborted by any process too, with its reason.
    const c = open();
    const other = await c.beginRun(META, { owner: "none" });
    await open().abortRun(other, null, "stopped by the service");
    expect(await c.findRun(other)).toMatchObject({ status: "incomplete", stop_reason: "stopped by the service" });
  });

  it("stays running after the process that began it exits or is killed; deleteRun refuses it unless forced, saying no process owns it", async () => {
    await open().close(); // create the file first
    const source = `
      const store = openSqliteStore(process.argv[2]);
      const unowned = await store.beginRun({ name: "unowned", dataset_path: "d", dataset_hash: "h", evaluators: [{ type: "exact_match" }] }, { owner: "none" });
      const owned = await store.beginRun({ name: "owned", dataset_path: "d", dataset_hash: "h", evaluators: [{ type: "exact_match" }] });
      await store.appendRows(unowned, [{ id: 1, results: {} }]);
      process.stdout.write(unowned + " " + owned + "\\n");
      if (process.argv[3] === "exit") { await store.close(); process.exit(0); }
      setInterval(() => {}, 1000); // wait to be killed
    `;
    const exiting = startChild(source, [dbPath, "exit"]);
    const killed = startChild(source, [dbPath, "wait"]);
    const ids = (line: string) => line.split(" ") as [string, string];
    const exitedIds = ids(await exiting.firstLine);
    const killedIds = ids(await killed.firstLine);
    killed.child.kill("SIGKILL");
    expect((await exiting.exited).code).toBe(0);
    expect((await killed.exited).signal).toBe("SIGKILL");
    const store = open();
    const statuses = Object.fromEntries((await store.listRuns()).map((r) => [r.id, [r.status, r.stop_reason]]));
    expect(statuses).toEqual({
      [exitedIds[0]]: ["running", null],
      [exitedIds[1]]: ["incomplete", CLOSED_UNFINISHED],
      [killedIds[0]]: ["running", null],
      [killedIds[1]]: ["incomplete", processGone(killed.child.pid!)],
    });
    expect(rawRun(killedIds[0]).status).toBe("running"); // not marked on disk either
    const refused = await storeError(() => store.deleteRun(killedIds[0]), "RUN_CONFLICT");
    expect(refused.message).toBe(`${dbPath}: run ${killedIds[0]} is still being recorded (owned by no process: finish or abort it, or force the deletion); stop it before deleting it`);
    expect(await store.deleteRun(killedIds[0], { force: true })).toMatchObject({ rows: 1 });
    expect(await store.appendRows(exitedIds[0], [{ id: 2, results: {} }])).toEqual(added(2));
    await store.finishRun(exitedIds[0], SUMMARY);
    expect((await store.findRun(exitedIds[0]))?.status).toBe("complete");
  }, 60_000);

  it("refuses evaluator specs that would not make evaluators with createEvaluators' error, every issue, recording no run", async () => {
    const store = open();
    const cases: unknown[] = [
      // threshold belongs in config; an unknown type; a name used twice (its type's): every issue at once.
      [{ type: "levenshtein", threshold: 0.8 }, { type: "levenshtien" }, { type: "exact_match" }, { type: "exact_match" }],
      [{ type: "levenshtien" }], // only an unknown type: UNKNOWN_EVALUATOR, as createEvaluators says
      [{ type: "levenshtein", config: { threshold: 2 } }],
      [],
      "levenshtein",
    ];
    for (const evaluators of cases) {
      const expected = thrownEvalError(() => createEvaluators(evaluators));
      const error = await evalErrorOf(store.beginRun({ ...META, evaluators: evaluators as EvaluatorSpec[] }, { owner: "none" }));
      expect(error).toMatchObject({ code: expected.code, message: expected.message, issues: expected.issues });
    }
    expect((await evalErrorOf(store.beginRun({ ...META, evaluators: cases[0] as EvaluatorSpec[] }))).message).toBe(
      [
        "Invalid evaluator configuration (3 problems):",
        '✖ evaluators[0]: evaluator (levenshtein): unknown key "threshold"; a spec has only type, name, config, inputs. "threshold" is a config key of levenshtein: write it in "config": {"config": {"threshold": 0.8}}',
        "  → at evaluators[0].threshold",
        '✖ evaluators[1]: evaluator (levenshtien): unknown type "levenshtien"; known types: ' + evaluatorTypes.join(", ") + '. Did you mean "levenshtein"?',
        "  → at evaluators[1].type",
        '✖ evaluators[3]: the name "exact_match" (its type: it gives no "name") is already used by evaluators[2] (its type: it gives no "name"); give each evaluator a unique "name"',
        "  → at evaluators[3].name",
      ].join("\n"),
    );
    expect(await store.listRuns()).toEqual([]);
  });

  it("refuses a meta that is not an object, or whose name, dataset_path or dataset_hash is of another kind, or an empty path, or one of the two null, naming it and recording no run", async () => {
    const store = open();
    const cases: [unknown, string][] = [
      [null, "meta must be an object ({ name, dataset_path, dataset_hash, evaluators }), received null"],
      [{ ...META, name: 5 }, `meta.name must be null or ${RUN_NAME_EXPECTED}, received number 5`],
      [{ ...META, name: undefined }, `meta.name must be null or ${RUN_NAME_EXPECTED}, received nothing`],
      // As `simeval run --name` takes a name: one that prints as one line and is found as written.
      [{ ...META, name: "" }, `meta.name must be null or ${RUN_NAME_EXPECTED}, received string ""`],
      [{ ...META, name: "  " }, `meta.name must be null or ${RUN_NAME_EXPECTED}, received string "  "`],
      [{ ...META, name: " nightly" }, `meta.name must be null or ${RUN_NAME_EXPECTED}, received string " nightly"`],
      [{ ...META, name: "night\nly" }, `meta.name must be null or ${RUN_NAME_EXPECTED}, received string "night\\nly"`],
      [{ ...META, name: "night\u202ely" }, `meta.name must be null or ${RUN_NAME_EXPECTED}, received string "night\\u202ely"`],
      [{ ...META, dataset_path: ["a"] }, "meta.dataset_path must be a non-empty string, or null for a run not read from a dataset file, received array of 1"],
      [{ ...META, dataset_hash: 5 }, "meta.dataset_hash must be a string, or null for a run not read from a dataset file, received number 5"],
      // "" is how the store records no dataset: a path of "" would be read back as none.
      [{ ...META, dataset_path: "" }, 'meta.dataset_path must be a non-empty string, or null for a run not read from a dataset file, received string ""'],
      [
        { ...META, dataset_hash: null },
        "meta.dataset_hash must be a string (the sha256 of the dataset file), as meta.dataset_path is; both are null only for a run not read from a dataset file, received null",
      ],
      [
        { ...META, dataset_path: null },
        "meta.dataset_path must be a string (the dataset file's path), as meta.dataset_hash is; both are null only for a run not read from a dataset file, received null",
      ],
    ];
    for (const [meta, message] of cases) {
      await expect(store.beginRun(meta as typeof META)).rejects.toMatchObject({ code: "INPUT_INVALID", message: `beginRun: ${message}` });
    }
    expect(await store.listRuns()).toEqual([]);
    expect((await store.findRun(await store.beginRun({ ...META, name: null })))?.name).toBeNull();
  });

  it("records evaluator specs that only building could refuse: semantic_similarity with the openai provider, without an API key", async () => {
    vi.stubEnv("OPENAI_API_KEY", undefined);
    try {
      const store = open();
      const evaluators = [{ type: "semantic_similarity", config: { provider: "openai", threshold: 0.8 } }];
      expect(() => createEvaluators(evaluators)).toThrow("OPENAI_API_KEY is not set"); // what building needs
      const id = await store.beginRun({ ...META, evaluators }, { owner: "none" });
      expect((await store.findRun(id))?.evaluators).toEqual([{ ...evaluators[0], name: "semantic_similarity" }]);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("refuses tfidf_similarity with idf \"dataset\" for a run not read from a dataset file (CONFIG_INVALID naming it), which no process could score; a dataset run takes it", async () => {
    const store = open();
    const evaluators = [{ type: "exact_match" }, { name: "tf", type: "tfidf_similarity", config: { idf: "dataset" } }];
    const error = await evalErrorOf(store.beginRun({ ...META, dataset_path: null, dataset_hash: null, evaluators }, { owner: "none" }));
    expect(error).toMatchObject({ code: "CONFIG_INVALID", issues: [{ path: ["evaluators", 1, "config", "idf"] }] });
    expect(error.message).toBe(
      'beginRun: meta.evaluators[1].config.idf: evaluator "tf" (tfidf_similarity) has "idf": "dataset", fitted on a dataset file\'s expected texts, which a run not read from one (dataset_path null) has none of: the IDF its scores used would be recorded nowhere, so no process could score the run again from its specs; use "idf": "pair"',
    );
    expect(await store.listRuns()).toEqual([]);
    const id = await store.beginRun({ ...META, evaluators });
    expect((await store.findRun(id))?.evaluators[1]?.config?.["idf"]).toBe("dataset");
  });

  it("records evaluator specs named and with their configs' defaults filled in, as simeval run records its evaluators' specs", async () => {
    const store = open();
    const specs = [{ type: "exact_match" }, { type: "levenshtein", name: "lev", config: { threshold: 0.9 }, inputs: { output: "$.answer" } }, { type: "jaccard_similarity", config: { similarity_threshold: 0.6 } }];
    const id = await store.beginRun({ ...META, evaluators: specs }, { owner: "none" });
    const recorded = (await store.findRun(id))?.evaluators;
    expect(recorded?.[0]).toEqual({ type: "exact_match", name: "exact_match", config: { case_sensitive: false, trim: true, normalize_whitespace: false } });
    expect(recorded?.[1]).toEqual({ type: "levenshtein", name: "lev", config: { threshold: 0.9, case_sensitive: false, max_chars: 10_000, unit: "code_point" }, inputs: { output: "$.answer" } });
    expect(recorded?.[2]).toEqual({ type: "jaccard_similarity", name: "jaccard_similarity", config: { threshold: 0.6, case_sensitive: false } }); // the alias as its key
    expect(recorded).toEqual(createEvaluators(specs).map((e) => e.spec)); // what runDataset records
  });

  it("refuses an owner that is neither \"process\" nor \"none\", and options that are not an object (CONFIG_INVALID), recording no run", async () => {
    const store = open();
    await expect(store.beginRun(META, { owner: "nobody" as "none" })).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: 'beginRun: opts.owner must be "process" (the default: the run is this process\'s), "none" (no process\'s) or nothing, received string "nobody"',
    });
    await expect(store.beginRun(META, "none" as never)).rejects.toMatchObject({ code: "CONFIG_INVALID", message: 'beginRun: opts must be an object ({ owner? }) or nothing, received string "none"' });
    expect(await store.listRuns()).toEqual([]);
  });
});

describe("the file moved away", () => {
  it("refuses to go on recording once the database file is deleted: its rows would go to a file no longer there", async () => {
    const store = open();
    const id = await store.beginRun(META);
    await store.addRows(id, numbered(1, 10));
    rmSync(dbPath);
    const e = await storeError(() => store.addRows(id, numbered(11, 20)));
    expect(e.message).toBe(
      `${dbPath}: could not add rows 11..20 to run ${id}: the database file was deleted after this process opened it, so nothing it records can be read back from ${dbPath} (the run is lost; run it again)`,
    );
    // Nor does a service's appending go on: its traces would be stored where nothing can read them.
    const appended = await storeError(() => store.appendRows(id, numbered(11, 12).map(({ row: _, ...r }) => r)));
    expect(appended.message).toBe(
      `${dbPath}: could not append 2 rows to run ${id}: the database file was deleted after this process opened it, so nothing it records can be read back from ${dbPath} (the run is lost; run it again)`,
    );
  });

  it("refuses to begin a run, set the baseline or delete a run once the database file is deleted: no other process could find what it answered for", async () => {
    const store = open();
    const id = await store.beginRun(META);
    await store.addRows(id, numbered(1, 10));
    rmSync(dbPath);
    const begun = await storeError(() => store.beginRun(META, { owner: "none" }));
    expect(begun).toMatchObject({ code: "STORE_FAILED", transient: false });
    expect(begun.message).toBe(
      `${dbPath}: could not begin a run: the database file was deleted after this process opened it, so nothing it records can be read back from ${dbPath} (the run is lost; run it again)`,
    );
    // Each says what it left undone: no run was lost by setting the baseline or deleting one.
    const baseline = await storeError(() => store.setBaseline(id));
    expect(baseline.message).toBe(
      `${dbPath}: could not set the baseline to run ${id}: the database file was deleted after this process opened it, so nothing it records can be read back from ${dbPath} (the baseline was not set)`,
    );
    const deleted = await storeError(() => store.deleteRun(id, { force: true }));
    expect(deleted.message).toBe(
      `${dbPath}: could not delete run ${id}: the database file was deleted after this process opened it, so nothing it records can be read back from ${dbPath} (nothing was deleted)`,
    );
  });

  it("refuses to finish a run once another file has replaced the database (moved onto its path)", async () => {
    const store = open();
    const id = await store.beginRun(META);
    await store.addRows(id, numbered(1, 10));
    const other = join(dir, "other.db");
    await open(other).close();
    renameSync(other, dbPath);
    const e = await storeError(() => store.finishRun(id, SUMMARY));
    expect(e.message).toContain(`: could not finish run ${id}: the database file was replaced by another file after this process opened it`);
    // Nor is it marked incomplete there, as if that were recorded.
    const aborted = await storeError(() => store.abortRun(id, null, "stopped"));
    expect(aborted.message).toContain(`: could not mark run ${id} incomplete: the database file was replaced by another file after this process opened it`);
  });
});

describe("interruption", () => {
  it("a writer killed with SIGKILL leaves a store that opens, with its run incomplete and whole batches kept", async () => {
    const { child, firstLine, exited } = startChild(
      `
      const store = openSqliteStore(process.argv[2]);
      const id = await store.beginRun({ name: "killed", dataset_path: "d", dataset_hash: "h", evaluators: [{ type: "exact_match" }] });
      let row = 0;
      const batch = async () => {
        const rows = [];
        for (let i = 0; i < 100; i++) { row++; rows.push({ row, id: row, results: {} }); }
        await store.addRows(id, rows);
      };
      for (let b = 0; b < 5; b++) await batch();
      process.stdout.write(id + "\\n");
      const loop = async () => { await batch(); setImmediate(loop); };
      await loop();
      `,
      [dbPath],
    );
    const id = await firstLine;
    const watcher = open();
    expect((await watcher.findRun(id))?.status).toBe("running"); // alive: left alone
    await new Promise((r) => setTimeout(r, 100)); // let it write more, so the kill lands mid-run
    child.kill("SIGKILL");
    expect((await exited).signal).toBe("SIGKILL");

    const store = open();
    const run = await store.findRun(id);
    expect(run?.status).toBe("incomplete");
    expect(run?.stop_reason).toBe(processGone(child.pid!));
    expect(rawRun(id)).toMatchObject({ status: "incomplete", stop_reason: processGone(child.pid!) }); // recorded, not only reported
    const rows = (await collect(store.rows(id))).map((r) => r.row);
    expect(rows.length).toBeGreaterThanOrEqual(500);
    expect(rows.length % 100).toBe(0); // a batch is all there or not at all
    expect(rows).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
  });

  it("says that a dead writer's run is incomplete, and why, even when the file cannot be written to record it (findRun, getRun, listRuns)", async () => {
    const store = open();
    const id = await store.beginRun(META);
    const db = new Database(dbPath);
    db.prepare("UPDATE runs SET pid = 999999999 WHERE id = ?").run(id); // no such process on this host
    db.close();
    const transaction = Database.prototype.transaction;
    const spy = vi.spyOn(Database.prototype, "transaction").mockImplementation(function (this: Database.Database, fn: (...a: never[]) => unknown) {
      const tx = (transaction as (f: typeof fn) => Database.Transaction<typeof fn>).call(this, fn);
      return Object.assign(tx, { immediate: () => { throw Object.assign(new Error("attempt to write a readonly database"), { code: "SQLITE_READONLY" }); } });
    } as typeof transaction);
    const gone = { id, status: "incomplete", stop_reason: processGone(999999999) };
    try {
      expect(await store.findRun(id)).toMatchObject(gone);
      // The service's reads too: a page of runs, the run by its id.
      expect(await store.getRun(id)).toMatchObject(gone);
      expect(await store.listRuns({ limit: 1 })).toMatchObject([gone]);
      expect(await store.listRuns({ after: id })).toEqual([]);
    } finally {
      spy.mockRestore();
    }
    expect(rawRun(id)).toMatchObject({ status: "running", stop_reason: null }); // not saved: the next reader tries again
    expect(await store.getRun(id)).toMatchObject(gone);
    expect(rawRun(id)).toMatchObject({ status: "incomplete", stop_reason: processGone(999999999) }); // recorded once it can be
  });

  it("judges liveness only where it can: another host's run stays running; our pid from an earlier process does not", async () => {
    const store = open();
    const elsewhere = await store.beginRun(META);
    const earlier = await store.beginRun(META);
    const db = new Database(dbPath);
    db.prepare("UPDATE runs SET host = 'another-host', pid = 999999999 WHERE id = ?").run(elsewhere);
    // Same pid as this process, but a run this process never began, begun before it started: a previous process that had our pid.
    const before = new Date(Date.now() - process.uptime() * 1000 - 1000).toISOString();
    db.prepare("INSERT INTO runs SELECT 'zz' || substr(id, 3), name, ?, NULL, 'running', dataset_path, dataset_hash, evaluators, NULL, pid, host, NULL FROM runs WHERE id = ?").run(before, earlier);
    db.close();
    const statuses = Object.fromEntries((await store.listRuns()).map((r) => [r.id, [r.status, r.stop_reason]]));
    expect(statuses[elsewhere]).toEqual(["running", null]);
    expect(statuses[earlier]).toEqual(["running", null]);
    expect(statuses[`zz${earlier.slice(2)}`]).toEqual(["incomplete", processGone(process.pid)]);
  });

  it("keeps a run that another thread of this process is recording running: a worker thread's runs are not in this thread's set", async () => {
    const script = join(dir, "thread-run.mjs");
    // The worker begins a run (owner "process") and keeps its store open until told to append.
    writeFileSync(
      script,
      `import { openSqliteStore } from ${JSON.stringify(pathToFileURL(SQLITE_TS).href)};
import { parentPort, workerData } from "node:worker_threads";
const store = openSqliteStore(workerData);
const run = await store.beginRun(${JSON.stringify(META)});
parentPort.postMessage(run);
parentPort.once("message", async () => {
  try {
    await store.appendRows(run, [{ results: { em: { score: 1, passed: true } } }]);
    parentPort.postMessage("appended");
  } catch (e) {
    parentPort.postMessage(e.message);
  }
  await store.close();
});
`,
    );
    const store = open();
    // A worker does not inherit tsx: it registers it first, as src/run/pool.ts does.
    const bootstrap = `import("tsx/esm/api").then((m) => m.register()).then(() => import(${JSON.stringify(pathToFileURL(script).href)}));`;
    const worker = new Worker(bootstrap, { eval: true, workerData: dbPath });
    try {
      const next = () => new Promise<unknown>((resolve, reject) => (worker.once("message", resolve), worker.once("error", reject)));
      const run = (await next()) as string;
      expect((await store.findRun(run))?.status).toBe("running");
      worker.postMessage("append");
      expect(await next()).toBe("appended");
    } finally {
      await worker.terminate();
    }
  });

  it.runIf(process.platform === "linux")("records the pid namespace with the host name: a dead-looking pid of another namespace on a host of the same name stays running", async () => {
    const store = open();
    const mine = await store.beginRun(META);
    expect(rawRun(mine).host).toBe(`${hostname()} ${readlinkSync("/proc/self/ns/pid")}`);
    expect(THIS_HOST).toBe(rawRun(mine).host);
    // A container sharing the host name (Docker's --network host), whose pids are not ours to look up.
    const container = await store.beginRun(META);
    // Recorded by an older simeval, with the host name alone: still judged here, as it was.
    const older = await store.beginRun(META);
    const db = new Database(dbPath);
    db.prepare("UPDATE runs SET host = ?, pid = 999999999 WHERE id = ?").run(`${hostname()} pid:[1]`, container);
    db.prepare("UPDATE runs SET host = ?, pid = 999999999 WHERE id = ?").run(hostname(), older);
    db.close();
    const statuses = Object.fromEntries((await store.listRuns()).map((r) => [r.id, r.status]));
    expect(statuses).toMatchObject({ [mine]: "running", [container]: "running", [older]: "incomplete" });
    expect((await storeError(() => store.deleteRun(container), "RUN_CONFLICT")).message).toContain("is still being recorded");
  });
});

describe("embedding cache", () => {
  it("round-trips Float32Array vectors bit for bit, keyed by provider, model and hash", async () => {
    const store = open();
    const special = new Float32Array([0, -0, 1.5, -3.4028234663852886e38, 1.401298464324817e-45, Number.NaN, Infinity, 0.1]);
    const random = Float32Array.from({ length: 1536 }, () => Math.random() * 2 - 1);
    // A view that starts at byte 4 of a larger buffer: only the view's bytes may be stored.
    const offsetView = new Float32Array(new Float32Array([9, 7, 8, 9]).buffer, 4, 2);
    store.putEmbeddings("openai", "text-embedding-3-small", [
      ["h-special", special],
      ["h-random", random],
      ["h-view", offsetView],
    ]);
    store.putEmbeddings("fake", "text-embedding-3-small", new Map([["h-special", new Float32Array([42])]]));

    const got = store.getEmbeddings("openai", "text-embedding-3-small", ["h-special", "h-random", "h-view", "h-missing"]);
    expect([...got.keys()].sort()).toEqual(["h-random", "h-special", "h-view"]);
    const same = (a: Float32Array | undefined, b: Float32Array) =>
      a !== undefined && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
    expect(same(got.get("h-special"), special)).toBe(true);
    expect(Object.is(got.get("h-special")?.[1], -0)).toBe(true);
    expect(same(got.get("h-random"), random)).toBe(true);
    expect(Array.from(got.get("h-view") ?? [])).toEqual([7, 8]);
    expect(Array.from(store.getEmbeddings("fake", "text-embedding-3-small", ["h-special"]).get("h-special") ?? [])).toEqual([42]);
    expect(store.getEmbeddings("openai", "other-model", ["h-special"]).size).toBe(0);
    expect(store.getEmbeddings("openai", "text-embedding-3-small", []).size).toBe(0);

    store.putEmbeddings("openai", "text-embedding-3-small", [["h-view", new Float32Array([1, 2, 3])]]);
    expect(Array.from(store.getEmbeddings("openai", "text-embedding-3-small", ["h-view"]).get("h-view") ?? [])).toEqual([1, 2, 3]);
  });

  it("treats a stored vector whose length does not match its dims as a miss", async () => {
    const store = open();
    store.putEmbeddings("p", "m", [["h", new Float32Array([1, 2])]]);
    const db = new Database(dbPath);
    db.prepare("UPDATE embedding_cache SET dims = 3").run();
    db.close();
    expect(store.getEmbeddings("p", "m", ["h"]).size).toBe(0);
  });
});
