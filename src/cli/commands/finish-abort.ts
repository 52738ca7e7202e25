import { EvalError } from "../../errors.js";
import type { SqliteRunStore } from "../../storage/sqlite.js";
import type { RunInfo, RunSummary } from "../../run/types.js";
import { EXIT } from "../exit-codes.js";
import { forTerminalLine } from "../format.js";
import { warn, type CliIO } from "../io.js";
import { terminalProgress } from "../progress.js";
import { sayInterrupted, watchInterrupts } from "../stop-signals.js";
import { summaryTable } from "../summary-table.js";
import { tableWidth } from "../table.js";
import { formatInt, rowsText } from "../../report/format.js";
import { finishStoredRun } from "../../run/stored-summary.js";
import { findOrFail, openRecordedRuns, ownedRunsHint, pidHere, recordingProcess, runLabel } from "./recorded-runs.js";
import { ABORT_REASON } from "./abort-reason.js";

/**
 * The run `ref` names, for `simeval finish` or `simeval abort` (`command`) to end: refused (USAGE), naming the run
 * and why, unless it is running and owned by no process (owner "none", see {@link RunInfo.owner}). A run that is
 * complete or incomplete is ended already. A run that a process owns is that process's to end: it finishes it, or
 * its end marks it incomplete (a reader finding it gone does too), and rows it still writes would be left out.
 */
async function unownedRunningRun(store: SqliteRunStore, ref: string, command: "finish" | "abort", force = false): Promise<RunInfo> {
  const run = findOrFail(await store.findRun(ref), ref);
  const done = command === "finish" ? "finished" : "aborted";
  if (run.status !== "running") {
    const why = run.status === "incomplete" && run.stop_reason !== null ? ` (${run.stop_reason})` : "";
    throw new EvalError("USAGE", `${command}: run ${runLabel(run)} is ${run.status} already${why}, not running: only a run still being recorded can be ${done} (it is unchanged)`);
  }
  const by = recordingProcess(run);
  if (by !== undefined && !force) {
    throw new EvalError(
      "USAGE",
      `${command}: run ${runLabel(run)} is being recorded by the process that began it, ${by} (as \`simeval run\` records its runs), which finishes it; \`simeval ${command}\` ends only a run that no process owns (begun with owner "none", as a service begins its runs)${command === "abort" ? " unless given --force" : ""}, so the run is unchanged; ${ownedRunsHint([run], "process")}`,
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
      throw (await endedMeanwhile(store, run)) ?? (await stillReceiving(store, run, total, error)) ?? error;
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
 * The USAGE error to give, as {@link abortCommand} gives it, when another process ended or deleted `run` after
 * `finish` looked it up (a `simeval abort` while it read the rows): `finishStoredRun` then fails as the store,
 * RUN_CONFLICT "is incomplete; cannot finish it", exit 3, which said neither that nor how. Undefined when the run is
 * still running (the failure was something else).
 */
async function endedMeanwhile(store: SqliteRunStore, run: RunInfo): Promise<EvalError | undefined> {
  const after = await store.findRun(run.id).catch(() => undefined);
  if (after?.id === run.id && after.status === "running") return undefined;
  const what = nowIs(run, after);
  if (what === "complete") return new EvalError("USAGE", `finish: run ${runLabel(run)} was finished by another process meanwhile (it is complete)`);
  return new EvalError("USAGE", `finish: run ${runLabel(run)} was ended by another process meanwhile: it is ${what}, not finished`);
}

/** What `run` is now, as `after` (its record read again) says: its status with its stop reason, or "deleted". */
function nowIs(run: RunInfo, after: RunInfo | undefined): string {
  return after?.id === run.id ? `${after.status}${after.stop_reason === null ? "" : ` (${after.stop_reason})`}` : "deleted";
}

/**
 * A USAGE error when `finishStoredRun` gave up (`error`, transient) because rows kept coming while it summarized
 * the run, which held `total` rows before: a writer no process owns (a service's) still appends to it.
 */
async function stillReceiving(store: SqliteRunStore, run: RunInfo, total: number, error: unknown): Promise<EvalError | undefined> {
  if (!(error instanceof EvalError && error.transient)) return undefined;
  const now = await store.rowCount(run.id).catch(() => total);
  if (now <= total) return undefined;
  return new EvalError("USAGE", `finish: run ${runLabel(run)} is still receiving rows (${formatInt(total)} when finish began, ${formatInt(now)} now), more each time it was summarized: stop what appends to it, then finish it (it is still running, with its rows)`);
}

/**
 * `simeval abort RUN`: marks a running run that no process owns incomplete, keeping its rows, with the stop
 * reason `--reason` (default {@link ABORT_REASON}), which `show` prints; says so in one line with its row count.
 * `--force` aborts a run that a process owns too: one killed on another host or in another container, which no
 * process here can find gone, stays running for good otherwise (a live process's next rows then fail).
 * `abortRun` does nothing to a run no longer running: a run another process ended meanwhile is refused after all.
 */
export async function abortCommand(ref: string, opts: { db: string; reason?: string; force?: boolean }, io: CliIO): Promise<number> {
  const reason = opts.reason ?? ABORT_REASON;
  if (reason.trim() === "") throw new EvalError("USAGE", `--reason was given no text (${JSON.stringify(reason)}); give why the run stopped, or leave --reason out for "${ABORT_REASON}"`);
  const store = openRecordedRuns(opts.db);
  try {
    const run = await unownedRunningRun(store, ref, "abort", opts.force === true);
    await store.abortRun(run.id, null, reason);
    const after = await store.findRun(run.id);
    if (after?.id !== run.id || after.status !== "incomplete" || after.stop_reason !== reason) {
      throw new EvalError("USAGE", `abort: run ${runLabel(run)} was ended by another process meanwhile: it is ${nowIs(run, after)}, not aborted`);
    }
    io.stdout(forTerminalLine(`aborted ${runLabel(run)}: marked incomplete (${reason}), keeping its ${rowsText(await store.rowCount(run.id))}`));
    // --force on a run whose process is on this host: a reader finds such a process gone, so it is alive.
    const pid = pidHere(run);
    if (pid !== undefined) {
      warn(io, `${recordingProcess(run)}, which began run ${runLabel(run)}, is still alive: it fails at its next rows (Ctrl-C there, or \`kill ${pid}\`, stops it)`);
    }
    return EXIT.ok;
  } finally {
    await store.close();
  }
}
