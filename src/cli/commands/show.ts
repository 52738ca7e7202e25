import type { StoredRows } from "../../storage/records.js";
import type { RunInfo } from "../../run/types.js";
import { parseSpec, type EvaluatorSpec } from "../../evaluators/spec.js";
import { EXIT } from "../exit-codes.js";
import { forTerminal, forTerminalLine } from "../format.js";
import type { CliIO } from "../io.js";
import { summaryTable } from "../summary-table.js";
import { renderTable, tableWidth } from "../table.js";
import { NO_DATASET_TEXT, rowsText } from "../../report/format.js";
import { findOrFail, openRecordedRuns, ownedRunsHint, recordingProcess, withRowsRecorded } from "./recorded-runs.js";

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
        `status   ${statusText(run)}`,
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
 * `show`'s status line after "status": an incomplete run's stop reason, when it was recorded (escaped, as it may quote
 * a dataset's line), or the process recording a running run (see {@link recordingProcess}).
 */
function statusText(run: RunInfo): string {
  if (run.status === "incomplete" && run.stop_reason !== null) return `incomplete: ${forTerminal(run.stop_reason)}`;
  const by = run.status === "running" ? recordingProcess(run) : undefined;
  return by === undefined ? run.status : `running, recorded by ${forTerminalLine(by)}`;
}

/**
 * What `show` says of a run without a summary: why it has none, and how many rows (`count`) it has stored all the same.
 * A running run that a process owns (every run of `simeval run`) may be one whose process was killed on another host
 * (a cancelled CI job whose `.simeval/` was kept), which no process here can find gone: `trend` sends the user here
 * for it, so the line after says how to end it ({@link ownedRunsHint}), as `delete` and `--vacuum` do.
 */
function noSummary(run: RunInfo, count: number): string {
  const rows = rowsText(count);
  if (run.status !== "running") return `no summary (the run did not finish); ${rows} recorded`;
  const line = `no summary yet (the run is still being recorded); ${rows} recorded so far`;
  return run.owner === "none" ? line : `${line}\n${ownedRunsHint([run], "run")}`;
}
