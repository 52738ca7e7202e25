import { EvalError } from "../../errors.js";
import { statIfAny } from "../stat-if-any.js";
import type { RunInfo } from "../../run/types.js";
import type { SqliteRunStore } from "../../storage/sqlite.js";
import { EXIT } from "../exit-codes.js";
import { formatBytes, forTerminalLine } from "../format.js";
import type { CliIO } from "../io.js";
import { terminalProgress } from "../progress.js";
import { sayInterrupted, watchInterrupts } from "../stop-signals.js";
import { vacuumInChild } from "../vacuum.js";
import { rowsText } from "../../report/format.js";
import { findOrFail, openRecordedRuns, ownedRunsHint, pidHere, recordingProcess, runLabel } from "./recorded-runs.js";

/** The shortest id prefix that `delete` accepts. */
const MIN_DELETE_PREFIX = 4;

/**
 * What to do about runs recorded as running that no process owns (begun with owner "none", as a service
 * begins its runs, see {@link RunInfo.owner}): no process's end marks them incomplete, so they stay running until
 * one finishes or aborts them, and only --force deletes them. {@link ownedRunsHint} would send the user
 * looking for a killed process that there never was.
 */
function unownedHint(runs: readonly RunInfo[]): string {
  const one = runs.length === 1;
  const it = one ? "it" : "them";
  return `${runs.map(runLabel).join(", ")} ${one ? "is" : "are"} owned by no process (begun with owner "none", as a service begins its runs), so ${one ? "it stays" : "they stay"} running until some process finishes or aborts ${it}: \`simeval finish RUN\` marks ${it} complete with the summary of ${one ? "its" : "their"} stored rows, \`simeval abort RUN\` marks ${it} incomplete keeping ${one ? "its" : "their"} rows, and \`simeval delete RUN --force\` deletes ${it}`;
}

/**
 * The hints for the running runs `runs`: {@link ownedRunsHint} for those a process owns, {@link unownedHint} for the others.
 * `said`: what the message before them named of a single run (see {@link ownedRunsHint}).
 */
function runningHints(runs: readonly RunInfo[], said: "run" | "process" = "run"): string {
  const unowned = runs.filter((r) => r.owner === "none");
  const owned = runs.filter((r) => r.owner !== "none");
  return [...(owned.length ? [ownedRunsHint(owned, runs.length === 1 ? said : "nothing")] : []), ...(unowned.length ? [unownedHint(unowned)] : [])].join("; ");
}

/** Why `--vacuum` waits for a run being recorded: said wherever it refuses. */
const VACUUM_HOLDS = "vacuuming rewrites the whole file, holding the database longer than a run waits for it";

/** The runs recorded as running, but for `deleting` (the runs this command deletes, whichever way they were recorded). */
async function runningRuns(store: SqliteRunStore, deleting: ReadonlyMap<string, RunInfo>): Promise<RunInfo[]> {
  return (await store.listRuns()).filter((r) => r.status === "running" && !deleting.has(r.id));
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
        const by = recordingProcess(run);
        // A process elsewhere cannot be stopped from here: "stop it" is for one on this host; the hint says what to do otherwise.
        const stopIt = by === undefined ? "finish or abort it before deleting it" : pidHere(run) !== undefined ? "stop it before deleting it" : "stop it where it runs before deleting it";
        throw new EvalError("USAGE", `run ${runLabel(run)} is still being recorded${by ? ` by ${by}` : ""}; ${stopIt} (nothing was deleted); ${runningHints([run], by ? "process" : "run")}`);
      }
      runs.set(run.id, run);
    }
    if (opts.vacuum) {
      // VACUUM rewrites the whole file under the write lock: a run recorded meanwhile would wait past its
      // lock timeout and fail. Refused before anything is deleted, as a running run is above.
      const recording = await runningRuns(store, runs);
      if (recording.length) {
        throw new EvalError(
          "USAGE",
          `--vacuum: ${recording.map(runLabel).join(", ")} ${recording.length > 1 ? "are" : "is"} still being recorded, and ${VACUUM_HOLDS}; vacuum once ${recording.length > 1 ? "they have" : "it has"} finished (nothing was deleted); ${runningHints(recording)}`,
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
      // Checked again: a run begun while the runs were deleted (seconds, for large ones) would fail at its next batch.
      const begun = await runningRuns(store, runs);
      if (begun.length) {
        const one = begun.length === 1;
        throw new EvalError(
          "USAGE",
          `--vacuum: ${begun.map(runLabel).join(", ")} began being recorded ${runs.size ? "while the runs were deleted" : "since the runs were looked at"}, and ${VACUUM_HOLDS}; ${runs.size ? "the runs above are deleted, " : ""}the file not vacuumed: vacuum once ${one ? "it has" : "they have"} finished; ${runningHints(begun)}`,
        );
      }
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
      else io.stdout(`vacuumed ${file}, but another process is using it: the file (${formatBytes(fileBytes(opts.db))} now) shrinks once no process has it open`);
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

/** The database file and its write-ahead log, in bytes. */
function fileBytes(db: string): number {
  return [db, `${db}-wal`].reduce((sum, f) => sum + (statIfAny(f)?.size ?? 0), 0);
}
