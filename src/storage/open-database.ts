/**
 * Opening the SQLite file of a run store (its pragmas and migrations) and turning SQLite's and the file
 * system's failures into EvalErrors that name the path and say what to do.
 */
import { accessSync, constants, readlinkSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import Database from "better-sqlite3";
import { errorCode, EvalError } from "../errors.js";
import { makeFolder } from "../make-folder.js";
import { systemPath } from "../system-path.js";
import { migrate } from "./migrations.js";

/**
 * How long a write waits for another process's write lock before failing with `STORE_FAILED`. Writers
 * hold the lock for one batch (about a millisecond per 1,000 rows), so 5 s means something is stuck.
 */
export const BUSY_TIMEOUT_MS = 5_000;

const PAGE_SIZE = 16384;
/** Bytes a reset WAL file is cut back to (`PRAGMA journal_size_limit`): 64 MiB. */
const WAL_SIZE_LIMIT = 64 * 2 ** 20;

/** The device and inode of the file at `path` (through symbolic links), which tell whether it is still the file opened. */
export function fileIdentity(path: string): { dev: number; ino: number } {
  const { dev, ino } = statSync(path);
  return { dev, ino };
}

/** How long {@link openDatabase} sleeps before opening again after SQLite answered busy without waiting. */
const OPEN_RETRY_MS = 20;

/**
 * Creates the parent directory, opens, configures and migrates; an EvalError naming the path on any failure (see {@link storeError}).
 * A new file is switched to WAL under a write lock taken while its reader's lock is held: when another connection holds the
 * write lock then (another process or thread opening the same new file, or writing to it), SQLite answers `SQLITE_BUSY` at
 * once rather than wait, since waiting could deadlock. The open is then tried again from the start, every
 * {@link OPEN_RETRY_MS} ms, as long as a lock is the only thing in the way: {@link BUSY_TIMEOUT_MS} in all.
 */
export function openDatabase(path: string): Database.Database {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      return openOnce(path, Math.max(1, deadline - Date.now()));
    } catch (error) {
      const busy = error instanceof EvalError && error.code === "STORE_FAILED" && /^SQLITE_BUSY/.test(errorCode(error.cause));
      if (!busy || Date.now() + OPEN_RETRY_MS > deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, OPEN_RETRY_MS);
    }
  }
}

/** One try of {@link openDatabase}, waiting at most `timeout` ms for a lock while opening, then {@link BUSY_TIMEOUT_MS} for each write. */
function openOnce(path: string, timeout: number): Database.Database {
  let db: Database.Database | undefined;
  try {
    if (path !== ":memory:") {
      // SQLite opens a device such as /dev/null and fails only on its first statement, having made a PATH-journal
      // beside it (/dev/null-journal, as root): a path that is no file is refused before SQLite touches it.
      if (notAFile(path) !== null) throw new Error("not a regular file");
      makeFolder(dirname(databasePath(path)));
    }
    db = new Database(path, { timeout });
    // Rows hold about 2 KB of results each: on 16 KiB pages (a new file's; an existing one keeps its
    // own) recording them costs about 30% less than on the default 4 KiB (measured, 100k rows).
    db.pragma(`page_size = ${PAGE_SIZE}`);
    db.pragma("journal_mode = WAL"); // the first statement that reads the file: a non-database fails here
    db.pragma("synchronous = NORMAL");
    // While other processes read, a checkpoint cannot go back to the WAL's start, and the WAL grows (248 MB
    // with three runs writing at once). SQLite keeps a WAL file at its largest size for as long as a
    // connection stays open; this cuts it back once a checkpoint has reset it.
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
    db.pragma("foreign_keys = ON");
    migrate(db, path);
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    return db;
  } catch (cause) {
    db?.close();
    throw storeError(path, "open the run store", cause);
  }
}

/**
 * The path SQLite opens for `path` ({@link systemPath}), whose folder is the one to make: `x/../runs.db` is
 * opened through `x`, so it cannot be when `x` is not a folder that is there, where `resolve` reads the ".."
 * away and the folder made was the wrong one (SQLite then failed with "the directory does not exist", a
 * store failure, exit 3, for a path the user must give again). That is a `USAGE` error naming the path.
 */
function databasePath(path: string): string {
  const at = systemPath(path);
  // Without a ".." the path as given, which the error of a folder that cannot be made then names.
  if (typeof at === "string") return at === resolve(path) ? path : at;
  throw new EvalError("USAGE", `${path}: could not open the run store: ${at.error}; give the path of a database file in a folder that is there or can be made`);
}

/** What to do about the common SQLite failures, by (extended) result code prefix. */
const HINTS: readonly [string, string][] = [
  ["SQLITE_NOTADB", "the file is not a SQLite database (or is encrypted); move it away or choose another path"],
  ["SQLITE_CORRUPT", "the database file is damaged; restore it from a copy or move it away to start afresh"],
  ["SQLITE_BUSY", `another process held the database lock for more than ${BUSY_TIMEOUT_MS} ms (a large batch of rows being stored, or \`simeval delete --vacuum\`, which holds it for as long as it rewrites the file); try again once that process is done`],
  ["SQLITE_READONLY", "the file or its directory is read-only"],
  ["SQLITE_CANTOPEN", "check that the path names a file in a directory you can write to"],
  ["SQLITE_FULL", "the disk is full"],
  ["ENOSPC", "the disk is full"],
  ["EDQUOT", "the disk quota is used up"],
  ["SQLITE_CONSTRAINT_PRIMARYKEY", "a row number was written twice to the same run"],
  // The only unique index that is not a primary key: rows_by_key (appendRows never trips it; addRows may).
  ["SQLITE_CONSTRAINT_UNIQUE", "a row key was written twice to the same run"],
  ["EACCES", "permission denied"],
  ["ENOTDIR", "a parent of the path is a file, not a directory"],
  ["EEXIST", "a parent of the path is a file, not a directory"],
];

/**
 * Whether a failure with SQLite (extended) result code `code` may pass if the same call is made again later,
 * unchanged (what {@link EvalError.transient} says): a lock not obtained within the busy timeout or held by
 * another connection (`SQLITE_BUSY*`, `SQLITE_LOCKED*`), the disk full (`SQLITE_FULL`), an I/O error
 * (`SQLITE_IOERR*`), out of memory (`SQLITE_NOMEM`), or WAL's lock protocol losing a race (`SQLITE_PROTOCOL`).
 * Every other code (a damaged or read-only file, a constraint, a file that is no database) and a code that is
 * not SQLite's (`""`, `EACCES`) are false: the same call fails the same way until something else changes.
 */
export function isTransientSqliteCode(code: string): boolean {
  return /^SQLITE_(BUSY|LOCKED|IOERR)(_|$)/.test(code) || code === "SQLITE_FULL" || code === "SQLITE_NOMEM" || code === "SQLITE_PROTOCOL";
}

/** The file system's failures, making the store's folder, that may pass later as SQLite's alike do: the disk full, an I/O error. */
const TRANSIENT_FS_CODES: ReadonlySet<string> = new Set(["ENOSPC", "EDQUOT", "EIO"]);

/**
 * Whether SQLite's error code `code` says a row number or key was written twice to a run (the rows table's primary
 * key, or its only other unique index, rows_by_key): the run's state or the caller's rows refused it, not the database.
 */
export function isRowClash(code: unknown): boolean {
  return code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "SQLITE_CONSTRAINT_UNIQUE";
}

/**
 * `cause` as an EvalError naming `path`: `USAGE` when the path names no database file (a directory, or a
 * file that is not a SQLite database): the user gave a wrong path and must give another, as with any bad
 * argument. A row number or key written twice to a run is `RUN_CONFLICT`. Everything else (locked, read-only,
 * disk full, damaged, I/O) is `STORE_FAILED`, `transient` when SQLite's code says retrying may succeed
 * ({@link isTransientSqliteCode}: locked, disk full, I/O), or the file system's does making its folder (`ENOSPC`, `EDQUOT`, `EIO`). A file that
 * SQLite cannot write or cannot open is looked for with `denied` (see {@link readOnlyHint}): a directory on
 * a read-only mount gives SQLite no -wal file to create, which it reports only as "unable to open".
 */
export function storeError(path: string, doing: string, cause: unknown, denied: (path: string) => boolean = writeDenied): EvalError {
  if (cause instanceof EvalError) return cause;
  const code = errorCode(cause);
  // SQLite says only "unable to open database file" for a directory, and "disk I/O error" for a device
  // such as /dev/null, as for a real failure: the path's kind tells them apart.
  const kind = notAFile(path);
  const hint = kind
    ? `the path is ${kind}, not a database file; give the path of a file`
    : ((code.startsWith("SQLITE_READONLY") || code.startsWith("SQLITE_CANTOPEN") ? readOnlyHint(path, denied) : null) ?? HINTS.find(([prefix]) => code.startsWith(prefix))?.[1]);
  const message = cause instanceof Error ? cause.message : String(cause);
  // Paths that cannot name a database are the caller's to fix: a directory or device, a file that is not a
  // database, a parent that is a file (mkdir says EEXIST when it is the direct parent, else ENOTDIR).
  const usage = kind !== null || code.startsWith("SQLITE_NOTADB") || code === "ENOTDIR" || code === "EEXIST";
  // A row number or key the run holds already (addRows): the run's state refuses the call, not the database.
  return new EvalError(usage ? "USAGE" : isRowClash(code) ? "RUN_CONFLICT" : "STORE_FAILED", `${path}: could not ${doing}: ${message}${hint ? ` (${hint})` : ""}`, {
    cause,
    transient: !usage && (isTransientSqliteCode(code) || TRANSIENT_FS_CODES.has(code)),
  });
}

/**
 * Which file keeps SQLite from writing the database at `path`, for `SQLITE_READONLY`: the database file,
 * a `-wal` or `-shm` file beside it, or its directory (where SQLite creates those). SQLite makes the
 * `-wal` and `-shm` files with the database file's permissions and, when it could only read, leaves them:
 * a command that read the database while it was read-only leaves them read-only, and writing still fails
 * after the database file is made writable again. A symbolic link is followed to the file it leads to, and
 * the hint then names both. Null when none of them is refused (then the generic hint applies). `denied` says whether an existing path cannot be written by this process.
 */
export function readOnlyHint(path: string, denied: (path: string) => boolean = writeDenied): string | null {
  if (path === ":memory:") return null;
  // SQLite writes beside the file a symbolic link leads to, not beside the link.
  const file = linkTarget(path);
  const hint = readOnlyFile(file, denied);
  return hint === null || file === path ? hint : `${hint}; ${path} leads to ${file}`;
}

function readOnlyFile(path: string, denied: (path: string) => boolean): string | null {
  if (denied(path)) return `${path} is read-only`;
  const left = ["-wal", "-shm"].map((suffix) => `${path}${suffix}`).filter((p) => denied(p));
  if (left.length > 0) {
    const [are, them] = left.length > 1 ? ["are", "them"] : ["is", "it"];
    return `${left.join(" and ")} ${are} read-only, as SQLite leaves ${them} after reading the database while that was read-only; make ${them} writable too: chmod u+w ${left.join(" ")}`;
  }
  const dir = dirname(path);
  if (denied(dir)) return `its directory ${dir} is read-only, and SQLite must create ${basename(path)}-wal and ${basename(path)}-shm in it, even to read`;
  return null;
}

/** The file `path` leads to through symbolic links (one not made yet included, as a first run's); `path` itself when it is none. */
function linkTarget(path: string): string {
  let at = path;
  for (let hops = 0; hops < 40; hops++) {
    let link: string;
    try {
      link = readlinkSync(at);
    } catch {
      return at; // not a link (or not there)
    }
    at = resolve(dirname(at), link);
  }
  return path;
}

/** Whether `path` exists and this process may not write it. */
function writeDenied(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

/** What `path` is when it exists and is not a regular file ("a directory", "a device, pipe or socket"); else null. */
function notAFile(path: string): string | null {
  try {
    const st = statSync(path);
    return st.isFile() ? null : st.isDirectory() ? "a directory" : "a device, pipe or socket";
  } catch {
    return null;
  }
}
