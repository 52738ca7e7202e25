import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EvalError } from "../errors.js";
import { APPLICATION_ID, SCHEMA_VERSION } from "./migrations.js";
import { BUSY_TIMEOUT_MS, isTransientSqliteCode, openDatabase, readOnlyHint, storeError as toStoreError } from "./open-database.js";

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "simeval-open-"));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("readOnlyHint and storeError", () => {
  it("names the file that keeps a write from happening: the database, a -wal or -shm file left read-only, or the directory", () => {
    const db = join(dir, "runs.db");
    const hint = (...readOnly: string[]) => readOnlyHint(db, (p) => readOnly.includes(p));
    expect(hint(db)).toBe(`${db} is read-only`);
    expect(hint(`${db}-shm`)).toBe(`${db}-shm is read-only, as SQLite leaves it after reading the database while that was read-only; make it writable too: chmod u+w ${db}-shm`);
    expect(hint(`${db}-wal`, `${db}-shm`)).toContain(`${db}-wal and ${db}-shm are read-only, as SQLite leaves them`);
    expect(hint(dir)).toBe(`its directory ${dir} is read-only, and SQLite must create runs.db-wal and runs.db-shm in it, even to read`);
    expect(hint()).toBeNull();
    expect(readOnlyHint(":memory:", () => true)).toBeNull();
  });

  it("names the read-only directory a symbolic link leads to, and says so where SQLite cannot open the file (a read-only mount)", () => {
    const sub = join(dir, "ro");
    mkdirSync(sub);
    const link = join(dir, "link.db");
    symlinkSync(join("ro", "runs.db"), link); // to a file not made yet, as a first run's
    expect(readOnlyHint(link, (p) => p === sub)).toBe(
      `its directory ${sub} is read-only, and SQLite must create runs.db-wal and runs.db-shm in it, even to read; ${link} leads to ${join(sub, "runs.db")}`,
    );
    const cantOpen = Object.assign(new Error("unable to open database file"), { code: "SQLITE_CANTOPEN" });
    expect(toStoreError(link, "open the run store", cantOpen, (p) => p === sub).message).toBe(
      `${link}: could not open the run store: unable to open database file (${readOnlyHint(link, (p) => p === sub)})`,
    );
    expect(toStoreError(link, "open the run store", cantOpen, () => false).message).toContain("(check that the path names a file in a directory you can write to)");
  });
});

describe("isTransientSqliteCode and storeError's transient", () => {
  it("calls a lock, a full disk, an I/O error, no memory and WAL's lock protocol transient, with their extended codes; nothing else", () => {
    const transient = ["SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT", "SQLITE_BUSY_TIMEOUT", "SQLITE_LOCKED", "SQLITE_LOCKED_SHAREDCACHE", "SQLITE_FULL", "SQLITE_IOERR", "SQLITE_IOERR_WRITE", "SQLITE_IOERR_FSYNC", "SQLITE_NOMEM", "SQLITE_PROTOCOL"];
    const permanent = ["SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_READONLY", "SQLITE_READONLY_DBMOVED", "SQLITE_CANTOPEN", "SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE", "SQLITE_ERROR", "SQLITE_MISUSE", "SQLITE_FULLY", "SQLITE_BUSYX", "EACCES", "ENOSPC", ""];
    expect(transient.filter((code) => !isTransientSqliteCode(code))).toEqual([]);
    expect(permanent.filter((code) => isTransientSqliteCode(code))).toEqual([]);
  });

  it("makes SQLite's transient failures STORE_FAILED with transient true, and every other failure not transient", () => {
    const db = join(dir, "runs.db");
    const fail = (code: string, message = "failed") => toStoreError(db, "append a row to run r", new Database.SqliteError(message, code), () => false);
    expect(fail("SQLITE_BUSY", "database is locked")).toMatchObject({ code: "STORE_FAILED", transient: true });
    // Says what held it most likely, and what to do: a run begun while `delete --vacuum` rewrites the file fails so.
    expect(fail("SQLITE_BUSY", "database is locked").message).toBe(
      `${db}: could not append a row to run r: database is locked (another process held the database lock for more than 5000 ms (a large batch of rows being stored, or \`simeval delete --vacuum\`, which holds it for as long as it rewrites the file); try again once that process is done)`,
    );
    expect(fail("SQLITE_IOERR_WRITE")).toMatchObject({ code: "STORE_FAILED", transient: true });
    expect(fail("SQLITE_FULL")).toMatchObject({ code: "STORE_FAILED", transient: true });
    expect(fail("SQLITE_CORRUPT")).toMatchObject({ code: "STORE_FAILED", transient: false });
    // A row number or key the run holds already: the run's state, a 409, not the database's failure.
    expect(fail("SQLITE_CONSTRAINT_PRIMARYKEY")).toMatchObject({ code: "RUN_CONFLICT", transient: false });
    expect(fail("SQLITE_CONSTRAINT_UNIQUE")).toMatchObject({ code: "RUN_CONFLICT", transient: false });
    expect(fail("SQLITE_CONSTRAINT_FOREIGNKEY")).toMatchObject({ code: "STORE_FAILED", transient: false });
    expect(toStoreError(db, "open the run store", new Error("no code"))).toMatchObject({ code: "STORE_FAILED", transient: false });
    // Making the store's folder on a full disk or with an I/O error (mkdir's codes) may pass later, as SQLite's alike.
    const mkdirFailed = (code: string) => toStoreError(db, "open the run store", Object.assign(new Error(`${code}: mkdir '${dir}/x'`), { code }), () => false);
    expect(mkdirFailed("ENOSPC")).toMatchObject({ code: "STORE_FAILED", transient: true, message: expect.stringContaining("(the disk is full)") });
    expect(mkdirFailed("EDQUOT")).toMatchObject({ code: "STORE_FAILED", transient: true, message: expect.stringContaining("(the disk quota is used up)") });
    expect(mkdirFailed("EIO")).toMatchObject({ code: "STORE_FAILED", transient: true });
    expect(mkdirFailed("EACCES")).toMatchObject({ code: "STORE_FAILED", transient: false });
    // A device: SQLite's "disk I/O error" is the path's fault (USAGE), which retrying cannot change.
    expect(toStoreError("/dev/null", "open the run store", new Database.SqliteError("disk I/O error", "SQLITE_IOERR"))).toMatchObject({ code: "USAGE", transient: false });
    // An EvalError (the store's own refusal) passes through as it is.
    const refusal = new EvalError("RUN_NOT_FOUND", "no run");
    expect(toStoreError(db, "append", refusal)).toBe(refusal);
    expect(refusal.transient).toBe(false);
  });
});

describe("openDatabase and storeError, as they are (no injected checks)", () => {
  it("a path under a file is a bad argument (USAGE), a device is named as one, and a writable file gets no read-only hint", () => {
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    expect(() => openDatabase(join(file, "simeval.db"))).toThrow(expect.objectContaining({ code: "USAGE", message: expect.stringContaining("a parent of the path is a file, not a directory") }));
    expect(toStoreError("/dev/null", "open the run store", new Error("disk I/O error")).message).toBe("/dev/null: could not open the run store: disk I/O error (the path is a device, pipe or socket, not a database file; give the path of a file)");
    expect(readOnlyHint(file)).toBeNull();
  });

  it("reads a '..' as the system does: through a folder that is not there or is a file, a bad argument (USAGE) naming the path; through a link, beside the folder it leads to", () => {
    writeFileSync(join(dir, "a-file"), "");
    // Not join(), which would read the ".." away as resolve() does.
    for (const through of ["missing", "a-file"]) {
      const path = `${dir}/${through}/../runs.db`;
      const error = (() => {
        try {
          openDatabase(path).close();
        } catch (e) {
          return e as EvalError;
        }
      })();
      expect(error).toMatchObject({ code: "USAGE", message: expect.stringContaining(`${path}: could not open the run store: `) });
      expect(error?.message).toContain(`a ".." steps out of the folder before it, which must be a folder that is there`);
    }
    expect(existsSync(join(dir, "runs.db"))).toBe(false);
    // The folder made is the one SQLite opens the path in: beside the folder the link leads to.
    mkdirSync(join(dir, "far", "inner"), { recursive: true });
    symlinkSync(join(dir, "far", "inner"), join(dir, "link"));
    openDatabase(`${dir}/link/../new/runs.db`).close();
    expect(existsSync(join(dir, "far", "new", "runs.db"))).toBe(true);
  });

  it("refuses a SQLite file with a schema version of its own but no tables and no application id", () => {
    const path = join(dir, "other.db");
    const other = new Database(path);
    other.pragma("user_version = 1");
    other.close();
    expect(() => openDatabase(path)).toThrow(expect.objectContaining({ code: "USAGE", message: expect.stringContaining("is a SQLite database but not a simeval run store") }));
  });

  it("opens a new file while another process holds its write lock, once that lock is let go (SQLite answers busy at once there, without waiting)", async () => {
    const path = join(dir, "new.db");
    const holder = spawn(
      process.execPath,
      ["-e", `const db = new (require(${JSON.stringify(createRequire(import.meta.url).resolve("better-sqlite3"))}))(${JSON.stringify(path)}); db.exec("BEGIN IMMEDIATE"); console.log("held"); setTimeout(() => db.exec("COMMIT"), 300);`],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const exited = new Promise((resolve) => holder.once("exit", resolve));
    await new Promise((resolve) => holder.stdout.once("data", resolve));
    const db = openDatabase(path);
    try {
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(db.pragma("busy_timeout", { simple: true })).toBe(BUSY_TIMEOUT_MS); // what was left of it for the open, then the whole again
      expect(db.prepare("SELECT count(*) FROM runs").pluck().get()).toBe(0);
    } finally {
      db.close();
    }
    expect(await exited).toBe(0);
  });

  it("enforces foreign keys: a row of a run that does not exist is refused", () => {
    const db = openDatabase(join(dir, "fk.db"));
    try {
      expect(() => db.prepare("INSERT INTO rows (run_id, row, results) VALUES ('no-such-run', 1, '{}')").run()).toThrow(/FOREIGN KEY/);
    } finally {
      db.close();
    }
  });
});

describe("openDatabase while another connection opens the same file", () => {
  it("opens a new file that another connection gives its tables while this one checks it, not taking it for another program's database", () => {
    const path = join(dir, "new.db");
    const pragma = Database.prototype.pragma;
    let other = false;
    // Between this connection's reading the new file's application_id (0, no one's yet) and its tables, another
    // connection (a thread or process opening the same new file) creates them and sets it.
    const spy = vi.spyOn(Database.prototype, "pragma").mockImplementation(function (this: Database.Database, source: string, options?: Database.PragmaOptions) {
      const value = pragma.call(this, source, options);
      if (source === "application_id" && !other) {
        other = true;
        openDatabase(path).close();
      }
      return value;
    });
    try {
      // Failed with USAGE: "... is a SQLite database but not a simeval run store (application_id 0, tables: embedding_cache, rows, runs, settings)".
      const db = openDatabase(path);
      try {
        expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
        expect(db.pragma("application_id", { simple: true })).toBe(APPLICATION_ID);
      } finally {
        db.close();
      }
    } finally {
      spy.mockRestore();
    }
    expect(other).toBe(true);
  });
});

describe("openDatabase's retries of an open SQLite answered busy", () => {
  const step = BUSY_TIMEOUT_MS / 5;
  /**
   * Opens `path` with SQLite's switch to WAL answering `fail(tries)` (an error to throw, or nothing to let it run), on a
   * clock that moves a fifth of the busy timeout at each try; gives what was thrown and the busy timeout each try opened with.
   */
  function openFailing(path: string, fail: (tries: number) => Error | undefined): { error: unknown; timeouts: number[] } {
    const pragma = Database.prototype.pragma;
    const timeouts: number[] = [];
    let now = Date.now();
    const clock = vi.spyOn(Date, "now").mockImplementation(() => now);
    const spy = vi.spyOn(Database.prototype, "pragma").mockImplementation(function (this: Database.Database, source: string, options?: Database.PragmaOptions) {
      if (source.startsWith("page_size")) {
        timeouts.push(Number(pragma.call(this, "busy_timeout", { simple: true })));
        now += step;
      }
      const error = source === "journal_mode = WAL" ? fail(timeouts.length) : undefined;
      if (error) throw error;
      return pragma.call(this, source, options);
    });
    try {
      openDatabase(path).close();
      return { error: undefined, timeouts };
    } catch (error) {
      return { error, timeouts };
    } finally {
      spy.mockRestore();
      clock.mockRestore();
    }
  }
  const locked = () => new Database.SqliteError("database is locked", "SQLITE_BUSY");

  it("gives each try what is left of one busy timeout, and fails busy once it is used up (a lock held past it failed after twice it, or never)", () => {
    // Busy at every try: after 50, something else, so that a loop that never gives up ends too.
    const { error, timeouts } = openFailing(join(dir, "new.db"), (tries) => (tries > 50 ? new Error("tried again and again") : locked()));
    expect(error).toMatchObject({ code: "STORE_FAILED", transient: true, message: expect.stringContaining("database is locked") });
    expect((error as EvalError).cause).toMatchObject({ code: "SQLITE_BUSY" });
    expect(timeouts).toEqual([5, 4, 3, 2, 1].map((parts) => parts * step));
  });

  it("opens once a busy try is followed by one that is not, that try waiting only what is left of the busy timeout", () => {
    const path = join(dir, "new.db");
    const { error, timeouts } = openFailing(path, (tries) => (tries < 3 ? locked() : undefined));
    expect(error).toBeUndefined();
    expect(timeouts).toHaveLength(3);
    expect(timeouts[2]).toBeLessThan(BUSY_TIMEOUT_MS);
    const db = new Database(path);
    try {
      expect(db.pragma("application_id", { simple: true })).toBe(APPLICATION_ID);
    } finally {
      db.close();
    }
  });

  it("does not try again a failure other than busy: another program's database, or an I/O error, fails at the first try", () => {
    const foreign = join(dir, "foreign.db");
    const other = new Database(foreign);
    other.exec("CREATE TABLE t (x)");
    other.close();
    const usage = openFailing(foreign, () => undefined);
    expect(usage.error).toMatchObject({ code: "USAGE", message: expect.stringContaining("not a simeval run store") });
    expect(usage.timeouts).toHaveLength(1);
    const io = openFailing(join(dir, "io.db"), (tries) => (tries > 50 ? new Error("tried again and again") : new Database.SqliteError("disk I/O error", "SQLITE_IOERR")));
    expect(io.error).toMatchObject({ code: "STORE_FAILED", transient: true, message: expect.stringContaining("disk I/O error") });
    expect(io.timeouts).toHaveLength(1);
  });
});
