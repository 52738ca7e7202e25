import { EvalError } from "../../errors.js";
import { existsSync, statSync } from "node:fs";
import { statIfAny } from "../stat-if-any.js";
import { dirname, isAbsolute, join, relative } from "node:path";
import { systemPath } from "../../system-path.js";
import { openSqliteStore, type SqliteRunStore } from "../../storage/sqlite.js";
import type { RunInfo } from "../../run/types.js";
import { forTerminalLine } from "../format.js";
import { isThisHost } from "../../storage/run-owner.js";
import { hostname } from "node:os";

/**
 * The run database of a command that only reads runs. A missing file is not created (a mistyped --db
 * would otherwise leave an empty database behind), nor an empty one written to: a USAGE error says where runs are looked for, followed
 * by `also` when the command has more to say of it (compare: which RUN is no file either). A path
 * where no database can be (see {@link refuseUnreachable}) is a USAGE error saying why.
 */
export function openRecordedRuns(path: string, also = ""): SqliteRunStore {
  refuseUnreachable(path);
  if (!databaseAt(path)) {
    const empty = existsSync(path) ? " (the file there is empty)" : "";
    throw new EvalError("USAGE", `no run database at ${path}${empty}: \`simeval run\` records runs there (--db reads another)${databaseAbove(path)}${also}`);
  }
  return openSqliteStore(path);
}

/**
 * The run database of a command that lists what is recorded (`runs`, `trend`, `baseline` with no action), or null
 * when there is no file at `path` yet, or an empty one: such a command then says that none is recorded (see {@link noRunsYet}), as
 * it would of an empty database, and creates none. A path where no database can be is refused, as by {@link openRecordedRuns}.
 */
export function recordedRunsIfAny(path: string): SqliteRunStore | null {
  refuseUnreachable(path);
  return databaseAt(path) ? openSqliteStore(path) : null;
}

/**
 * True when a run database may be at `path`: a file is there that is not empty. SQLite takes an empty file for a
 * new database, which opening would write simeval's tables into: a command that only reads runs takes an empty
 * file (`touch runs.db`, or a CI cache restored empty) for no database, and leaves it as it is. A database's first
 * write puts its header in the file itself, so a store whose changes are all still in its `-wal` is never empty.
 */
function databaseAt(path: string): boolean {
  const stat = statIfAny(path);
  return stat !== undefined && (!stat.isFile() || stat.size > 0);
}

/**
 * Where a run database of the same relative path is above the working folder, when there is none at `path`: a command
 * run from a project's subfolder looks for `.simeval/simeval.db` in that subfolder, as a relative path is read from the
 * working folder, and would say there is none (or `run` would make a second one) beside the project's. As a clause to
 * add to what is said of `path` (`; a run database is at ../.simeval/simeval.db, …`), "" when `path` is absolute, or
 * is there, or none is above.
 */
export function databaseAbove(path: string): string {
  if (isAbsolute(path) || databaseAt(path)) return "";
  const here = process.cwd();
  for (let dir = dirname(here); ; dir = dirname(dir)) {
    const found = join(dir, path);
    if (databaseAt(found) && statIfAny(found)?.isFile()) {
      const shown = forTerminalLine(relative(here, found));
      return `; a run database is at ${shown}, in a folder above the working one (where ${forTerminalLine(path)} is looked for): give --db ${shown}, or run from ${forTerminalLine(dir)}`;
    }
    if (dirname(dir) === dir) return "";
  }
}

/**
 * What a listing command (`runs`, `trend`) warns of on stderr when there is no run database at `path` (no file, or an empty
 * one): it lists no runs all the same (exit 0: a fresh CI runner has none yet), but a mistyped --db (`trend --db TYPO.db
 * --report t.html`) is said, where it listed no runs, and wrote a report of none, unsaid.
 */
export function noDatabaseWarning(path: string): string {
  const what = existsSync(path) ? "the file there is empty" : "no such file";
  const above = databaseAbove(path);
  return `no run database at ${forTerminalLine(path)} (${what}), so there are no runs to show${above || "; `simeval run` records runs there (--db reads another)"}`;
}

/** What a listing command says when no run is recorded in the database at `db` (or there is none there yet). */
export function noRunsYet(db: string): string {
  const above = databaseAbove(db);
  return `No runs recorded in ${forTerminalLine(db)} yet${above ? `${above}.` : ": `simeval run DATASET --config EVALS.json` records one."}`;
}

/**
 * Refuses (USAGE) a database path that cannot be looked at: under a file (`notes.txt/runs.db`), where no
 * database can ever be, or one the system will not look up (no permission on a folder, a symlink loop), or
 * one through a ".." after a folder that is not there (`x/../runs.db`), where `simeval run` could make none.
 * A path that is merely missing passes: each command says what that means for it.
 */
function refuseUnreachable(path: string): void {
  // A ".." is read as the system reads it (through the folder before it), not taken away as resolve() does.
  const at = systemPath(path);
  if (typeof at !== "string") throw new EvalError("USAGE", `no run database at ${path}: ${at.error}; give --db the path of a database file`);
  try {
    statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return;
    if (code === "ENOTDIR") {
      let file = dirname(at);
      while (statIfAny(file)?.isDirectory() !== false && dirname(file) !== file) file = dirname(file);
      throw new EvalError("USAGE", `no run database at ${path}: ${file} is a file, not a folder, so no database can be under it; give --db the path of a database file`);
    }
    throw new EvalError("USAGE", `no run database can be read at ${path} (${(error as Error).message}); give --db the path of a database file you can read`);
  }
}

/**
 * A run for `--json`; one without a summary (killed, or still running) also gives `rows_recorded`, as the
 * table does. Null when another process deleted the run since it was listed.
 */
export async function withRowsRecorded(run: RunInfo, store: SqliteRunStore): Promise<(RunInfo & { rows_recorded?: number }) | null> {
  if (run.summary) return run;
  const rows = await rowsRecorded(run, store);
  return rows === null ? null : { ...run, rows_recorded: rows };
}

/**
 * The rows stored for a run without a summary, or null when the run is gone: a run still being recorded
 * or left incomplete may be deleted (`delete --force`, or once finished) between a listing and its count,
 * and the listing leaves it out rather than fail.
 */
export async function rowsRecorded(run: RunInfo, store: Pick<SqliteRunStore, "rowCount" | "findRun">): Promise<number | null> {
  try {
    return await store.rowCount(run.id);
  } catch (error) {
    if ((await store.findRun(run.id))?.id !== run.id) return null;
    throw error;
  }
}

/** A run as messages name it: its id, and its name when it has one. */
export function runLabel(run: RunInfo): string {
  return run.name ? `${run.id} (${run.name})` : run.id;
}

/** The run `ref` names, looked up by the caller (`run`), or a USAGE error saying that no recorded run matches it. */
export function findOrFail(run: RunInfo | undefined, ref: string): RunInfo {
  if (!run) throw new EvalError("USAGE", `no recorded run matches ${JSON.stringify(ref)} (an id, name or id prefix); \`simeval runs\` lists them`);
  return run;
}

/**
 * What to do about a run recorded as still running whose process is gone but cannot be looked up from here (killed
 * on another host or in another container): `delete`, `--vacuum`, `finish`, `abort` and `show` say it.
 */
const STILL_RUNNING_HINT =
  "a run whose process was killed on another host or in another container stays recorded as running: `simeval abort RUN --force` marks it incomplete keeping its rows, `simeval delete RUN --force` deletes it";

/**
 * The process recording a run that a process owns, as messages name it: "process 1234 on this host", "process 1234
 * on host ci-5", or "process 1234 in another container on ci-5" (the host's name, another pid namespace);
 * undefined for a run no process owns. Only a process on this host can be looked up: a running run's there is alive.
 */
export function recordingProcess(run: RunInfo): string | undefined {
  if (run.process === null) return undefined;
  const { pid, host } = run.process;
  if (isThisHost(host)) return `process ${pid} on this host`;
  if (host === null) return `process ${pid} on a host it did not record`;
  const name = host.split(" ")[0] ?? host; // the host's name, before its pid namespace
  return name === hostname() ? `process ${pid} in another container on ${name}` : `process ${pid} on host ${name}`;
}

/**
 * The pid of the process recording `run` when that process is on this host, in this pid namespace, where a reader
 * has looked it up (a running run's there is alive); undefined for one elsewhere or owned by no process.
 */
export function pidHere(run: RunInfo): number | undefined {
  return run.process !== null && isThisHost(run.process.host) ? run.process.pid : undefined;
}

/**
 * What to do about `runs`, recorded as running by processes that own them: {@link STILL_RUNNING_HINT} for those
 * recorded on another host or in another container, and for those on this host, whose processes are alive, that
 * each ends when its process does. `said`: what the message before it named of one run on this host, not named
 * again: the run (`process 11 on this host is alive: …`), or the run and its process (`that process is alive: …`).
 */
export function ownedRunsHint(runs: readonly RunInfo[], said: "nothing" | "run" | "process" = "nothing"): string {
  // One process may record several runs (a service's worker): each process is named once, with its runs.
  const byPid = new Map<number, RunInfo[]>();
  for (const r of runs) {
    const pid = pidHere(r);
    if (pid !== undefined) byPid.set(pid, [...(byPid.get(pid) ?? []), r]);
  }
  const elsewhere = runs.filter((r) => pidHere(r) === undefined);
  const here = runs.length - elsewhere.length;
  // Of one run, its commands are given with its id, to be run as they are.
  const [one] = elsewhere;
  const hints = elsewhere.length === 0 ? [] : [elsewhere.length === 1 && one ? STILL_RUNNING_HINT.replaceAll(" RUN ", ` ${one.id} `) : STILL_RUNNING_HINT];
  if (here > 0) {
    const processes = [...byPid].map(([pid, recorded]) =>
      runs.length > 1 || said === "nothing" ? `process ${pid} on this host (recording ${recorded.map(runLabel).join(", ")})` : said === "run" ? `process ${pid} on this host` : "that process",
    );
    const [onePid] = byPid.keys();
    const ends = here === 1 ? "the run ends when it does" : byPid.size === 1 ? "its runs end when it does" : "each run ends when its process does";
    hints.push(`${processes.join(", ")} ${byPid.size === 1 ? "is" : "are"} alive: ${ends} (Ctrl-C there, or \`kill ${byPid.size === 1 ? onePid : "PID"}\`, marks ${here === 1 ? "it" : "each"} incomplete keeping its rows)`);
  }
  return hints.join("; ");
}
