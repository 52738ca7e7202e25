import { EvalError } from "../../errors.js";
import { existsSync, statSync } from "node:fs";
import { statIfAny } from "../stat-if-any.js";
import { dirname, isAbsolute, relative, sep } from "node:path";
import { systemPath } from "../../system-path.js";
import { openSqliteStore, type SqliteRunStore, type StoredRows } from "../../storage/sqlite.js";
import type { EvaluatorSummary, RunInfo, RunSummary } from "../../run/types.js";
import { parseSpec, type EvaluatorSpec } from "../../evaluators/spec.js";
import { EXIT } from "../exit-codes.js";
import { formatBytes, formatFigure, forTerminal, forTerminalLine } from "../format.js";
import type { CliIO } from "../io.js";
import { terminalProgress } from "../progress.js";
import { sayInterrupted, watchInterrupts } from "../stop-signals.js";
import { summaryTable } from "../summary-table.js";
import { vacuumInChild } from "../vacuum.js";
import stringWidth from "string-width";
import { renderTable, tableWidth } from "../table.js";
import { SAME_CONTENT_MARK, checkRunFilter, matchRuns, newest, noRunKept, sameContentNote, type RunFilterOptions } from "../run-filter.js";
import { didYouMean } from "../../evaluators/suggest.js";
import { NO_DATASET_CELL, NO_DATASET_TEXT, rowsText } from "../../report/format.js";
import { finishStoredRun } from "../../run/stored-summary.js";

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
    throw new EvalError("USAGE", `no run database at ${path}${empty}: \`simeval run\` records runs there (--db reads another)${also}`);
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

/** What a listing command says when no run is recorded in the database at `db` (or there is none there yet). */
export function noRunsYet(db: string): string {
  return `No runs recorded in ${forTerminalLine(db)} yet: \`simeval run DATASET --config EVALS.json\` records one.`;
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
 * `simeval runs`: the recorded runs, newest first; `-n NAME` and `--dataset PATH` keep some, as for `trend`
 * (see {@link matchRuns}), and `--last N` the newest N of those, in the table and in `--json`. A run not read from
 * a dataset file (a service's) shows "-" as its dataset, and null in `--json`. A database file that does not exist yet has none
 * (a project's default database is made by its first run); a path where none can be is refused.
 */
export async function runsCommand(opts: { db: string; json?: boolean } & RunFilterOptions, io: CliIO): Promise<number> {
  const checked = checkRunFilter(opts);
  const noneYet = noRunsYet(opts.db);
  const store = recordedRunsIfAny(opts.db);
  if (store === null) {
    io.stdout(opts.json ? "[]" : noneYet);
    return EXIT.ok;
  }
  try {
    const filter = await matchRuns(checked, io);
    const recorded = await store.listRuns();
    const runs = newest(recorded.filter(filter.keeps), filter.last);
    const baseline = (await store.baseline())?.id;
    if (opts.json) {
      const listed = await Promise.all(runs.map((r) => withRowsRecorded(r, store)));
      io.stdout(JSON.stringify(listed.filter((r) => r !== null), null, 2));
      return EXIT.ok;
    }
    if (!recorded.length) {
      io.stdout(noneYet);
      return EXIT.ok;
    }
    if (!runs.length) {
      io.stdout(forTerminal(noRunKept("run", filter, recorded.length, `\`simeval runs\` without ${filter.flags.join(" and ")} lists`)));
      return EXIT.ok;
    }
    const rows: (string | number)[][] = [];
    const runMeans: string[][] = [];
    let baselineListed = false;
    // Whether --dataset kept some run for its content, recorded at another path: marked, and said under the table.
    let sameContent = false;
    const cwd = workingFolder();
    for (const r of runs) {
      // A run killed outright has no summary, but its rows are stored (and compared): they are counted, for such runs only.
      const count = r.summary?.rows ?? (await rowsRecorded(r, store));
      if (count === null) continue; // deleted by another process since it was listed
      baselineListed ||= r.id === baseline;
      sameContent ||= filter.byContent(r);
      const datasetCell = r.dataset_path === null ? NO_DATASET_CELL : `${shownDatasetPath(r.dataset_path, cwd)}${filter.byContent(r) ? SAME_CONTENT_MARK : ""}`;
      rows.push([r.id === baseline ? `${r.id} *` : r.id, r.name ?? "", r.started_at.replace("T", " ").slice(0, 19), r.status, count, datasetCell]);
      runMeans.push(means(r));
    }
    // The means go last, cut to the width the other columns leave: `show RUN` and `--json` give them all.
    const header = ["id", "name", "started (UTC)", "status", "rows", "dataset"];
    const room = tableWidth(io) - stringWidth(renderTable(header, rows).split("\n")[1] ?? "") - 2;
    io.stdout(renderTable([...header, "means"], rows.map((r, i) => [...r, meansCell(runMeans[i] ?? [], room)])));
    // Only under a table that marks it: a filter may leave the baseline out.
    if (baselineListed) io.stdout("* baseline");
    if (sameContent && filter.dataset !== undefined) io.stdout(sameContentNote(filter.dataset));
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

/**
 * A recorded dataset path as `runs` lists it: relative to `cwd` when the file is under it
 * (`examples/a.jsonl`, which `--dataset` takes back as it is), else as recorded (absolute); as recorded
 * too without a working folder (null: see {@link workingFolder}).
 */
export function shownDatasetPath(path: string, cwd: string | null): string {
  if (cwd === null) return path;
  const rel = relative(cwd, path);
  const outside = rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
  return rel && !outside ? rel : path;
}

/** The working folder, or null when it is gone (deleted under the shell): `process.cwd()` then throws ENOENT. */
function workingFolder(): string | null {
  try {
    return process.cwd();
  } catch {
    return null;
  }
}

function means(r: RunInfo): string[] {
  return (r.summary?.evaluators ?? []).map((e) => `${e.name}=${formatFigure(e.mean)}`);
}

/**
 * A run's means (`name=mean`), as many as fit in `room` terminal columns, then `+N more` for the others; all of
 * them when they fit, and `N evaluators` when not even one does beside its count.
 */
export function meansCell(means: readonly string[], room: number): string {
  const width = (text: string) => stringWidth(forTerminalLine(text));
  if (width(means.join(" ")) <= room) return means.join(" ");
  let shown = 0;
  while (shown < means.length && width(`${means.slice(0, shown + 1).join(" ")} +${means.length - shown - 1} more`) <= room) shown++;
  return shown ? `${means.slice(0, shown).join(" ")} +${means.length - shown} more` : `${means.length} evaluators`;
}

/**
 * A recorded spec's config completed with its evaluator's defaults, as `simeval run` and `beginRun` record it:
 * `beginRun` once recorded a service's specs as given, and `show` would print `{}` for such a run's exact_match
 * whose `trim` and `case_sensitive` still apply. A spec that no longer parses (an evaluator changed since the
 * run) is shown as recorded.
 */
function configWithDefaults(spec: EvaluatorSpec): Record<string, unknown> {
  return parseSpec(spec, [], [])?.config ?? spec.config ?? {};
}

/**
 * The run's evaluators, one a line: name, type, config (with its defaults, as JSON) and, where a spec has them,
 * its inputs. A cell is escaped as {@link renderTable} escapes one: JSON escapes C0 controls but not a bidi
 * override or C1 control in a JSONPath or a provider setting.
 */
function evaluatorTable(specs: readonly EvaluatorSpec[]): string {
  const withInputs = specs.some((s) => s.inputs !== undefined);
  const rows = specs.map((s) => [s.name ?? s.type, s.type, JSON.stringify(configWithDefaults(s)), ...(withInputs ? [s.inputs ? JSON.stringify(s.inputs) : "-"] : [])]);
  return renderTable(["evaluator", "type", "config", ...(withInputs ? ["inputs"] : [])], rows);
}

/**
 * `simeval show RUN`: one run's details and summary. For a run not read from a dataset file (a service's), also when
 * its rows were stored (the last and the first row, for rows stored since schema version 5) and how many kept their
 * record, which `compare --report` shows texts from: what to know before `simeval finish` or `abort` ends it.
 * `--json` gives them as `rows_with_record`, `first_stored_at` and `last_stored_at` (ISO times, or null).
 */
export async function showCommand(ref: string, opts: { db: string; json?: boolean }, io: CliIO): Promise<number> {
  const store = openRecordedRuns(opts.db);
  try {
    const run = findOrFail(await store.findRun(ref), ref);
    // Of a run not read from a dataset file only (a service's, which finish or abort ends): the times are read from
    // every row, a pass over the run that takes seconds on a million rows of `simeval run`.
    const stored = run.dataset_path === null ? await store.storedRows(run.id) : undefined;
    if (opts.json) {
      io.stdout(JSON.stringify(stored ? shownJson(run, stored) : await withRowsRecorded(run, store), null, 2));
      return EXIT.ok;
    }
    const baseline = (await store.baseline())?.id;
    io.stdout(
      [
        `run      ${run.id}${baseline === run.id ? " (baseline)" : ""}`,
        `name     ${run.name ?? "-"}`,
        // Why an incomplete run stopped, when it was recorded; escaped, as it may quote a dataset's line.
        `status   ${run.status}${run.status === "incomplete" && run.stop_reason !== null ? `: ${forTerminal(run.stop_reason)}` : ""}`,
        `started  ${run.started_at}`,
        `finished ${run.finished_at ?? "-"}`,
        ...(stored ? storedLine(stored) : []),
        `dataset  ${datasetLine(run)}`,
        ...(stored ? recordsLine(stored) : []),
        "",
        evaluatorTable(run.evaluators),
        "",
        run.summary ? summaryTable(run.summary, tableWidth(io)) : noSummary(run, stored?.rows ?? (await store.rowCount(run.id))),
        // An incomplete run's figures read like a whole run's: say they are not (as compare does).
        ...(run.summary && run.status === "incomplete"
          ? [`incomplete: these figures cover only the rows read before it stopped${run.stop_reason === null ? " (interrupted, or its file read only up to a fault)" : ""}`]
          : []),
      ].join("\n"),
    );
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

/**
 * `show --json`: the run, with `rows_recorded` when it has no summary (as `runs --json` gives it), then how many of its
 * rows kept their record and the first and last time a row was stored, as the text gives them (null without one).
 */
function shownJson(run: RunInfo, stored: StoredRows) {
  const time = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    ...run,
    ...(run.summary ? {} : { rows_recorded: stored.rows }),
    rows_with_record: stored.with_record,
    first_stored_at: time(stored.first_stored_at),
    last_stored_at: time(stored.last_stored_at),
  };
}

/**
 * `show`'s line of when the run's rows were stored: the last row, then the first (the same time: every row), and how
 * many rows have no time (stored by a simeval before schema version 5). None when no row has a time. The count of
 * rows is not given: the summary's table, or the line that says there is none, gives it.
 */
function storedLine(stored: StoredRows): string[] {
  if (stored.last_stored_at === null || stored.first_stored_at === null) return [];
  const last = new Date(stored.last_stored_at).toISOString();
  const first = new Date(stored.first_stored_at).toISOString();
  const untimed = stored.rows - stored.with_time;
  const when = first === last ? (untimed > 0 ? `the last row at ${last}` : `every row at ${last}`) : `the last row at ${last}, the first at ${first}`;
  return [`stored   ${when}${untimed > 0 ? ` (${rowsText(untimed)} stored by a simeval before schema version 5 ${untimed === 1 ? "has" : "have"} no time)` : ""}`];
}

/**
 * `show`'s line, for a run not read from a dataset file, of how many of its rows kept their record, from which
 * `compare --report` shows their texts (nothing else holds them). None for a run without rows.
 */
function recordsLine(stored: StoredRows): string[] {
  if (stored.rows === 0) return [];
  if (stored.with_record === 0) return ["records  no row kept its record: compare --report cannot show texts"];
  if (stored.with_record === stored.rows) return [stored.rows === 1 ? "records  its row kept its record: compare --report shows its texts" : "records  every row kept its record: compare --report shows their texts"];
  return [`records  ${stored.with_record.toLocaleString("en-US")} of ${rowsText(stored.rows)} kept their record: compare --report shows their texts, not the others'`];
}

/** `show`'s dataset line after "dataset": the file and its sha256, or that the run read none (a service's, scoring traces). */
function datasetLine(run: Pick<RunInfo, "dataset_path" | "dataset_hash">): string {
  return run.dataset_path === null ? NO_DATASET_TEXT : `${forTerminalLine(run.dataset_path)} (sha256 ${run.dataset_hash})`;
}

/**
 * A run for `--json`; one without a summary (killed, or still running) also gives `rows_recorded`, as the
 * table does. Null when another process deleted the run since it was listed.
 */
async function withRowsRecorded(run: RunInfo, store: SqliteRunStore): Promise<(RunInfo & { rows_recorded?: number }) | null> {
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

/** What `show` says of a run without a summary: why it has none, and how many rows (`count`) it has stored all the same. */
function noSummary(run: RunInfo, count: number): string {
  const rows = rowsText(count);
  return run.status === "running"
    ? `no summary yet (the run is still being recorded); ${rows} recorded so far`
    : `no summary (the run did not finish); ${rows} recorded`;
}

/**
 * `simeval baseline set RUN` / `simeval baseline`: marks or shows the known-good run. Shown with no run database at
 * `opts.db` yet, there is none (exit 0, creating no database); `set` then fails, naming the path.
 */
export async function baselineCommand(action: string | undefined, ref: string | undefined, opts: { db: string }, io: CliIO): Promise<number> {
  const usage = "usage: simeval baseline set RUN (a run id, name or id prefix), or simeval baseline to show it";
  if ((action === undefined || action === "show") && ref !== undefined) throw new EvalError("USAGE", `baseline show takes no run, received ${JSON.stringify(ref)}; ${usage}`);
  // Before the database is opened: a misspelt action is what to fix, whatever the database.
  if (action !== undefined && action !== "show" && action !== "set") {
    throw new EvalError("USAGE", `baseline: unknown action ${JSON.stringify(action)}; expected set RUN or show.${didYouMean(action, ["set", "show"])} (${usage})`);
  }
  if (action === "set" && ref === undefined) throw new EvalError("USAGE", `baseline set needs a RUN; ${usage}`);
  const store = action === "set" ? openRecordedRuns(opts.db) : recordedRunsIfAny(opts.db);
  if (store === null) {
    io.stdout(`no baseline set: there is no run database at ${forTerminalLine(opts.db)} yet; \`simeval run\` records runs there, and \`simeval baseline set RUN\` then sets one`);
    return EXIT.ok;
  }
  try {
    if (action === undefined || action === "show") {
      const b = await store.baseline();
      io.stdout(b ? `baseline: ${runLabel(b)}` : "no baseline set; `simeval baseline set RUN` sets one");
      return EXIT.ok;
    }
    const run = findOrFail(await store.findRun(ref as string), ref as string);
    if (run.status !== "complete") throw new EvalError("USAGE", `run ${runLabel(run)} is ${run.status}; only a complete run can be the baseline (the baseline is unchanged)`);
    // A comparison with it would have no pairs for these, so a regression on them would pass unseen.
    const unscored = unscoredEvaluators(run);
    if (unscored.length) {
      const them = unscored.length > 1 ? "them" : "it";
      throw new EvalError(
        "USAGE",
        `run ${runLabel(run)} cannot be the baseline: ${describeUnscored(unscored)} scored no row in it, so a comparison with it could not show a regression on ${them}; set a run in which every evaluator scored rows (the baseline is unchanged)`,
      );
    }
    await store.setBaseline(run.id);
    io.stdout(`baseline: ${runLabel(run)}`);
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

/**
 * The evaluators that scored no row of a run: each of its readable rows was skipped (no expected value) or
 * an error. A zero given to a skipped row by --count-skipped-as-zero is no score here: a comparison does
 * not pair it. A comparison with such a run has no pairs for these evaluators, so it cannot show a
 * regression on them. A run without a summary has none to tell.
 */
export function unscoredEvaluators(run: RunInfo): EvaluatorSummary[] {
  const s = run.summary;
  if (!s) return [];
  const readable = s.rows - s.row_errors;
  return s.evaluators.filter((e) => e.skipped + e.errors >= readable);
}

/** Unscored evaluators as messages name them, each with why: `exact_match (every row an error), levenshtein (2 rows skipped, 1 row failed)`. */
export function describeUnscored(evaluators: readonly EvaluatorSummary[]): string {
  const why = (e: EvaluatorSummary) => {
    if (e.skipped === 0) return "every row an error";
    if (e.errors === 0) return "every row skipped";
    return `${rowsText(e.skipped)} skipped, ${rowsText(e.errors)} failed`;
  };
  return evaluators.map((e) => `${e.name} (${why(e)})`).join(", ");
}

/** The shortest id prefix that `delete` accepts. */
const MIN_DELETE_PREFIX = 4;

/**
 * What to do about a run recorded as still running: stop it, or, when its process is gone but cannot be
 * looked up from here (killed on another host or in another container), delete it with --force.
 */
const STILL_RUNNING_HINT = "a run whose process was killed on another host or in another container stays recorded as running: `simeval delete RUN --force` deletes it";

/**
 * What to do about runs recorded as running that no process owns (begun with owner "none", as a service
 * begins its runs, see {@link RunInfo.owner}): no process's end marks them incomplete, so they stay running until
 * one finishes or aborts them, and only --force deletes them. {@link STILL_RUNNING_HINT} would send the user
 * looking for a killed process that there never was.
 */
function unownedHint(runs: readonly RunInfo[]): string {
  const one = runs.length === 1;
  const it = one ? "it" : "them";
  return `${runs.map(runLabel).join(", ")} ${one ? "is" : "are"} owned by no process (begun with owner "none", as a service begins its runs), so ${one ? "it stays" : "they stay"} running until some process finishes or aborts ${it}: \`simeval finish RUN\` marks ${it} complete with the summary of ${one ? "its" : "their"} stored rows, \`simeval abort RUN\` marks ${it} incomplete keeping ${one ? "its" : "their"} rows, and \`simeval delete RUN --force\` deletes ${it}`;
}

/** The hints for the running runs `runs`: {@link STILL_RUNNING_HINT} for those a process owns, {@link unownedHint} for the others. */
function runningHints(runs: readonly RunInfo[]): string {
  const unowned = runs.filter((r) => r.owner === "none");
  return [...(unowned.length < runs.length ? [STILL_RUNNING_HINT] : []), ...(unowned.length ? [unownedHint(unowned)] : [])].join("; ");
}

/**
 * `simeval delete RUN...`: deletes recorded runs and their rows. Every ref is resolved, and a run still
 * being recorded refused (unless `--force`), before anything is deleted. `--vacuum` then gives the freed
 * space back to the file system (alone, it only does that), in another process ({@link vacuumInChild}), which
 * Ctrl-C stops, leaving the file as it was.
 */
export async function deleteCommand(refs: readonly string[], opts: { db: string; vacuum?: boolean; force?: boolean }, io: CliIO): Promise<number> {
  if (refs.length === 0 && !opts.vacuum) throw new EvalError("USAGE", "name the runs to delete (ids, names or id prefixes; `simeval runs` lists them), or give --vacuum");
  const store = openRecordedRuns(opts.db);
  const stop = watchInterrupts();
  try {
    const runs = new Map<string, RunInfo>();
    for (const ref of refs) {
      const run = findOrFail(await store.findRun(ref), ref);
      // As git with short hashes: too short a prefix could name some other run than the one meant. A name
      // (findRun tries names before prefixes) is what the user called the run, however short.
      if (run.id !== ref.trim() && run.name !== ref.trim() && ref.trim().length < MIN_DELETE_PREFIX) {
        throw new EvalError("USAGE", `"${ref}" is a short prefix of run ${runLabel(run)}: to delete, give at least ${MIN_DELETE_PREFIX} characters of the id, or the run's name (nothing was deleted)`);
      }
      if (run.status === "running" && !opts.force) {
        const stopIt = run.owner === "none" ? "finish or abort it before deleting it" : "stop it before deleting it";
        throw new EvalError("USAGE", `run ${runLabel(run)} is still being recorded; ${stopIt} (nothing was deleted); ${runningHints([run])}`);
      }
      runs.set(run.id, run);
    }
    if (opts.vacuum) {
      // VACUUM rewrites the whole file under the write lock: a run recorded meanwhile would wait past its
      // lock timeout and fail. Refused before anything is deleted, as a running run is above.
      const recording = (await store.listRuns()).filter((r) => r.status === "running" && !runs.has(r.id));
      if (recording.length) {
        throw new EvalError(
          "USAGE",
          `--vacuum: ${recording.map(runLabel).join(", ")} ${recording.length > 1 ? "are" : "is"} still being recorded, and vacuuming rewrites the whole file, holding the database longer than a run waits for it; vacuum once ${recording.length > 1 ? "they have" : "it has"} finished (nothing was deleted); ${runningHints(recording)}`,
        );
      }
    }
    const progress = terminalProgress(process.stderr, io.stderr);
    // Ctrl-C stops between chunks of rows and between runs, and abandons vacuuming, saying what is done and what is not (exit 130).
    const interrupted = (notDone: string) => sayInterrupted(stop, progress, notDone);
    const pending = [...runs.values()];
    const notDone = () => [...(pending.length ? [`${pending.map(runLabel).join(", ")} not deleted`] : []), ...(opts.vacuum ? ["the file not vacuumed"] : [])];
    for (let run = pending.shift(); run; run = pending.shift()) {
      if (stop.signal.aborted) {
        pending.unshift(run);
        return interrupted(notDone().join(", "));
      }
      const { rows, wasBaseline, left = 0 } = await store.deleteRun(run.id, { onProgress: (done, total) => progress.update(done, total), force: opts.force === true, signal: stop.signal });
      progress.done();
      // Stopped among its rows: the run is gone, but not all its rows are (the interrupted line, after it, says how many are left).
      const its = rowsText(rows);
      io.stdout(left > 0 ? `deleted ${runLabel(run)}, but not all of its ${its} (interrupted)` : `deleted ${runLabel(run)}: ${its}`);
      if (wasBaseline) io.stdout("it was the baseline: no baseline is set now (`simeval baseline set RUN` sets one)");
      if (left > 0) {
        const them = `${left.toLocaleString("en-US")} of the rows of deleted runs are still in the file (never read): \`simeval delete --vacuum\` or the next \`simeval delete\` deletes them`;
        return interrupted([them, ...notDone()].join("; "));
      }
    }
    if (stop.signal.aborted && opts.vacuum) return interrupted(notDone().join(", "));
    if (opts.vacuum) {
      // Closed first: the child is then the only connection (with this one open, vacuuming a 500 MB file took about 0.3 s longer).
      await store.close();
      const before = fileBytes(opts.db);
      const file = forTerminalLine(opts.db);
      io.stderr(`vacuuming ${file} (${formatBytes(before)}): the whole file is rewritten; Ctrl-C abandons it, leaving the file as it was`);
      // On a terminal, the time it has taken, so that a long rewrite does not look like a hang.
      const ticking = terminalProgress(process.stderr, io.stderr);
      const tick = () => ticking.step("vacuuming…");
      tick();
      const timer = setInterval(tick, 250);
      let vacuumed: Awaited<ReturnType<typeof vacuumInChild>>;
      try {
        vacuumed = await vacuumInChild(opts.db, stop.signal);
      } finally {
        clearInterval(timer);
        ticking.done();
      }
      if (vacuumed === "abandoned") {
        // The child killed after its VACUUM committed: the log it left, checkpointed as it was dropped, vacuumed the file after all.
        const after = fileBytes(opts.db);
        if (after < before) {
          io.stdout(`vacuumed ${file}: ${formatBytes(before)} -> ${formatBytes(after)}`);
          return interrupted("vacuuming had finished when it was stopped");
        }
        return interrupted(`vacuuming abandoned: ${file} is as it was before vacuuming${runs.size ? " (the runs above are deleted)" : ""}`);
      }
      if (vacuumed.shrunk) io.stdout(`vacuumed ${file}: ${formatBytes(before)} -> ${formatBytes(fileBytes(opts.db))}`);
      else io.stdout(`vacuumed ${file}, but another process is reading it: the file (${formatBytes(fileBytes(opts.db))} now) shrinks once no process has it open`);
    } else {
      const free = store.freeBytes();
      if (free > 0) io.stdout(`${formatBytes(free)} of ${forTerminalLine(opts.db)} is free space that new runs reuse; \`simeval delete --vacuum\` gives it back to the file system`);
    }
    return EXIT.ok;
  } finally {
    stop.dispose();
    await store.close();
  }
}

/** The stop reason that `simeval abort` records when no `--reason` is given. */
export const ABORT_REASON = "aborted with simeval abort";

/**
 * The run `ref` names, for `simeval finish` or `simeval abort` (`command`) to end: refused (USAGE), naming the run
 * and why, unless it is running and owned by no process (owner "none", see {@link RunInfo.owner}). A run that is
 * complete or incomplete is ended already. A run that a process owns is that process's to end: it finishes it, or
 * its end marks it incomplete (a reader finding it gone does too), and rows it still writes would be left out.
 */
async function unownedRunningRun(store: SqliteRunStore, ref: string, command: "finish" | "abort"): Promise<RunInfo> {
  const run = findOrFail(await store.findRun(ref), ref);
  const done = command === "finish" ? "finished" : "aborted";
  if (run.status !== "running") {
    const why = run.status === "incomplete" && run.stop_reason !== null ? ` (${run.stop_reason})` : "";
    throw new EvalError("USAGE", `${command}: run ${runLabel(run)} is ${run.status} already${why}, not running: only a run still being recorded can be ${done} (it is unchanged)`);
  }
  if (run.owner !== "none") {
    throw new EvalError(
      "USAGE",
      `${command}: run ${runLabel(run)} is being recorded by the process that began it (as \`simeval run\` records its runs), which finishes it; \`simeval ${command}\` ends only a run that no process owns (begun with owner "none", as a service begins its runs), so the run is unchanged. Once that process is gone, \`simeval runs\` lists the run incomplete; ${STILL_RUNNING_HINT}`,
    );
  }
  return run;
}

/**
 * `simeval finish RUN`: marks a running run that no process owns complete, with the summary made from its
 * stored rows ({@link finishStoredRun}; `--count-skipped-as-zero` as for `simeval run`, since a run records no
 * such setting), and prints that summary as `show` does. The rows are read, then the run marked in one
 * transaction. On a terminal, a progress line on stderr counts the rows read of those stored. Ctrl-C or SIGTERM
 * while the rows are read stops it (exit 130, or 143 for SIGTERM), saying so: nothing is written, the run stays
 * running with its rows. One heard only once the run is marked (the transaction keeps the loop from turning) is
 * said too: the run is complete all the same.
 */
export async function finishCommand(ref: string, opts: { db: string; countSkippedAsZero?: boolean }, io: CliIO): Promise<number> {
  const store = openRecordedRuns(opts.db);
  const stop = watchInterrupts();
  const progress = terminalProgress(process.stderr, io.stderr);
  const interrupted = (notDone: string) => sayInterrupted(stop, progress, notDone);
  try {
    const run = await unownedRunningRun(store, ref, "finish");
    const label = forTerminalLine(runLabel(run));
    const total = await store.rowCount(run.id);
    progress.update(0, total);
    let summary: RunSummary;
    try {
      summary = await finishStoredRun(store, run.id, {
        countSkippedAsZero: opts.countSkippedAsZero === true,
        onProgress: (read) => progress.update(read, total),
        signal: stop.signal,
      });
    } catch (error) {
      if (stop.signal.aborted) return interrupted(`run ${label} was not finished: it is still running, with its rows, as it was`);
      throw error;
    } finally {
      progress.done();
    }
    io.stdout([`finished ${label}: complete, summarized from its ${rowsText(summary.rows)}`, "", summaryTable(summary, tableWidth(io))].join("\n"));
    await new Promise(setImmediate);
    if (stop.signal.aborted) return interrupted(`run ${label} was finished all the same (the signal came while it was marked complete)`);
    return EXIT.ok;
  } finally {
    stop.dispose();
    await store.close();
  }
}

/**
 * `simeval abort RUN`: marks a running run that no process owns incomplete, keeping its rows, with the stop
 * reason `--reason` (default {@link ABORT_REASON}), which `show` prints; says so in one line with its row count.
 * `abortRun` does nothing to a run no longer running: a run another process ended meanwhile is refused after all.
 */
export async function abortCommand(ref: string, opts: { db: string; reason?: string }, io: CliIO): Promise<number> {
  const reason = opts.reason ?? ABORT_REASON;
  if (reason.trim() === "") throw new EvalError("USAGE", `--reason was given no text (${JSON.stringify(reason)}); give why the run stopped, or leave --reason out for "${ABORT_REASON}"`);
  const store = openRecordedRuns(opts.db);
  try {
    const run = await unownedRunningRun(store, ref, "abort");
    await store.abortRun(run.id, null, reason);
    const after = await store.findRun(run.id);
    if (after?.id !== run.id || after.status !== "incomplete" || after.stop_reason !== reason) {
      const what = after?.id === run.id ? `${after.status}${after.stop_reason === null ? "" : ` (${after.stop_reason})`}` : "deleted";
      throw new EvalError("USAGE", `abort: run ${runLabel(run)} was ended by another process meanwhile: it is ${what}, not aborted`);
    }
    io.stdout(forTerminalLine(`aborted ${runLabel(run)}: marked incomplete (${reason}), keeping its ${rowsText(await store.rowCount(run.id))}`));
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

/** A run as messages name it: its id, and its name when it has one. */
export function runLabel(run: RunInfo): string {
  return run.name ? `${run.id} (${run.name})` : run.id;
}

/** The database file and its write-ahead log, in bytes. */
function fileBytes(db: string): number {
  return [db, `${db}-wal`].reduce((sum, f) => sum + (statIfAny(f)?.size ?? 0), 0);
}

function findOrFail(run: RunInfo | undefined, ref: string): RunInfo {
  if (!run) throw new EvalError("USAGE", `no recorded run matches ${JSON.stringify(ref)} (an id, name or id prefix); \`simeval runs\` lists them`);
  return run;
}
