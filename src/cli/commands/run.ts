import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { statSync } from "node:fs";
import { EvalError, type Issue } from "../../errors.js";
import { comparedNoun, evaluatorList } from "../../compare/evaluator-list.js";
import { STOPPED_EXIT, watchStopSignals } from "../stop-signals.js";
import { renderRunReport } from "../../report/index.js";
import { runReportInput, unrecordedRun } from "../../run/report-input.js";
import { createRunEvaluators, runDataset, type RunDatasetResult } from "../../run/run-dataset.js";
import { SAVED_IN_LEGACY_ENCODING } from "../../dataset/read-bytes.js";
import { fieldHints, firstRowFields, firstRowFieldsText, runWarnings, warningsSaidOnce } from "../../run/run-warnings.js";
import { openSqliteStore } from "../../storage/sqlite.js";
import type { RunStore } from "../../storage/store.js";
import type { RunInfo } from "../../run/types.js";
import { readEvalsFile } from "../config-file.js";
import { EXIT } from "../exit-codes.js";
import { wholeNumberOption } from "../whole-number.js";
import { datasetLost, evaluateGates, gateIssues, gatesError, gatesMessage, isGate, readGates, type GateOutcome } from "../gates.js";
import { forTerminalLine } from "../format.js";
import { warn, type CliIO } from "../io.js";
import { writeJUnitFile } from "../junit-file.js";
import { checkOutputPaths, databaseInputs, namesOwnDescriptor, notingEarlierFiles, openTextFile, writeOutput } from "../output-file.js";
import { terminalProgress } from "../progress.js";
import { BIDI_IN_NAME, INVISIBLE_IN_NAME, quoteForMessage, UNPRINTABLE_IN_NAME } from "../../unprintable.js";
import { isRunName } from "../../storage/run-name.js";
import { summaryTable } from "../summary-table.js";
import { tableWidth } from "../table.js";
import { compareAgainstBaseline, unscoredInBaseline, type BaselineVerdict } from "./baseline-compare.js";
import { databaseAbove, runLabel } from "./recorded-runs.js";
import { rowErrorText, rowsText } from "../../report/format.js";

export interface RunOptions {
  /** Required; undefined only until runCommand checks it. */
  config?: string;
  out?: string;
  summary?: string;
  report?: string;
  junit?: string;
  failUnder?: string[];
  failOver?: string[];
  minPassRate?: string[];
  countSkippedAsZero?: boolean;
  name?: string;
  db: string | false;
  baseline?: boolean;
  failOnRegression?: boolean;
  workers?: string;
}

/**
 * `simeval run DATASET --config EVALS.json`: scores every row, records the run, prints the summary,
 * writes the requested files and applies the gates (exit 1 when one fails).
 */
export async function runCommand(dataset: string, opts: RunOptions, io: CliIO): Promise<number> {
  const config = opts.config;
  if (config === undefined) throw new EvalError("USAGE", `run needs --config EVALS.json, a file holding {"evaluators": [spec, …]}`);
  // Malformed gates are reported with the config's problems, or with the gates' others once the evaluators are known: one run names them all.
  const parsedGates = readGates({ "fail-under": opts.failUnder, "fail-over": opts.failOver, "min-pass-rate": opts.minPassRate });
  const gates = parsedGates.filter(isGate);
  const malformedGates = parsedGates.filter((g): g is Issue => !isGate(g));
  let workers = opts.workers === undefined ? undefined : wholeNumberOption("--workers", opts.workers, "a whole number >= 0", 0);
  // Scoring threads beyond the cores only cost memory (each holds its own evaluators).
  if (workers !== undefined && workers > availableParallelism()) {
    warn(io, `--workers ${workers} is more than this machine's ${availableParallelism()} cores; using ${availableParallelism()}`);
    workers = availableParallelism();
  }
  if (dataset === "") throw new EvalError("USAGE", 'the dataset was given an empty path ("" names no file); give the path of a dataset file');
  if (dataset === "-") throw new EvalError("USAGE", "a dataset cannot be read from standard input; save it to a file and give its path");
  // Runs are looked up by the name trimmed (`show " a "` finds "a"): recorded trimmed, so that it can be found. What
  // trimming takes off is only spaces: a line break, tab, BOM or U+2028 around the name is refused, as within it.
  const name = opts.name?.trim();
  if (name !== undefined && (!isRunName(name) || UNPRINTABLE_IN_NAME.test(opts.name as string))) {
    throw new EvalError(
      "USAGE",
      `--name takes a non-empty name with a visible character, without line breaks, control characters or bidirectional marks, overrides and isolates (${BIDI_IN_NAME}) or invisible characters (${INVISIBLE_IN_NAME}), received ${quoteForMessage(opts.name as string)}`,
    );
  }
  const outputs = (["out", "summary", "report", "junit"] as const).flatMap((k) => (opts[k] ? [{ flag: `--${k}`, path: opts[k], streamed: k === "out" }] : []));
  checkOutputPaths([{ flag: "the dataset", path: dataset }, { flag: "--config", path: config }, ...(opts.db === false ? [] : databaseInputs(opts.db))], outputs);
  let specs: unknown[];
  let evaluators;
  try {
    specs = await readEvalsFile(config);
    try {
      evaluators = createRunEvaluators(specs);
    } catch (error) {
      if (error instanceof EvalError) throw new EvalError(error.code, `${config}: ${error.message}`, { issues: error.issues });
      throw error;
    }
  } catch (error) {
    // A bad config and a malformed gate in one message (exit 2 either way), the config's problems first.
    if (!(error instanceof EvalError) || malformedGates.length === 0) throw error;
    throw new EvalError(error.code, `${error.message}\n${gatesMessage(malformedGates, true)}`, { issues: [...error.issues, ...malformedGates] });
  }
  const gateProblems = gateIssues(parsedGates, evaluators);
  if (gateProblems.length) throw gatesError(gateProblems);
  if (opts.failOnRegression && !opts.baseline) throw new EvalError("USAGE", "--fail-on-regression gates the comparison with the baseline; add --baseline");
  if (opts.db === false) {
    // Before the first row, not after a long run.
    if (opts.baseline) throw new EvalError("USAGE", "--baseline needs the run database; drop --no-db");
    if (opts.junit) throw new EvalError("USAGE", "--junit reads the rows back from the run database; drop --no-db");
  }

  // The path of the run database this run would create (none at --db): the gate is refused, and `--baseline` alone
  // finds no baseline and says why (a fresh CI runner).
  const newDatabase = opts.db !== false && noFileAt(opts.db) ? opts.db : undefined;
  if (opts.failOnRegression && newDatabase !== undefined) throw noDatabaseToGateOn(newDatabase);
  // Run from a project's subfolder, the default path makes a second database beside the project's: said, not refused.
  const above = newDatabase === undefined ? "" : databaseAbove(newDatabase);
  if (above) warn(io, `no run database at ${forTerminalLine(newDatabase ?? "")}, so this run makes one${above}`);
  const store: RunStore | undefined = opts.db === false ? undefined : openSqliteStore(opts.db);
  if (opts.failOnRegression && store) {
    const baseline = await store.baseline();
    if (!baseline) {
      await store.close();
      throw new EvalError("USAGE", `--fail-on-regression: no baseline is set in ${opts.db}, so there is nothing to gate on; \`simeval baseline set RUN\` marks a known-good run`);
    }
    // A gate that could not fail on some evaluator: refused before the first row, as no baseline is.
    const unscored = unscoredInBaseline(baseline, evaluators.map((e) => e.name));
    if (unscored) {
      await store.close();
      throw new EvalError("USAGE", `--fail-on-regression: ${unscored}; \`simeval baseline set RUN\` marks a run in which every evaluator scored rows`);
    }
  }
  const results = opts.out ? await openTextFile("--out", opts.out) : undefined;
  // Results shown on the terminal (--out /dev/stdout) scroll by as rows are scored: a progress line would be mixed into them.
  const progress = terminalProgress(process.stderr, io.stderr, undefined, results?.terminal !== true);
  // Above the progress line, which is erased first (with the `^C` a Ctrl-C echoed after it).
  const stop = watchStopSignals((message, signal) => progress.note(message, signal === "SIGINT"), store !== undefined);
  const startedAt = new Date().toISOString();
  // What the evaluators warned of while scoring (an embedding cache that failed): said as it came, and in --summary and --report.
  const scoringWarnings: string[] = [];
  let result: RunDatasetResult;
  let failure: unknown;
  try {
    result = await runDataset({
      dataset,
      evaluators: specs,
      name: name ?? null,
      ...(store && opts.db !== false ? { store, embeddingCacheDb: opts.db } : {}),
      // Closed before the run is recorded: a file whose last writes failed makes it incomplete. Emptied by the first
      // write, or at the end of a run that wrote none (interrupted at once): an earlier run's rows are not this one's.
      ...(results
        ? {
            write: results.write,
            end: () => {
              results.begin();
              return results.close();
            },
          }
        : {}),
      countSkippedAsZero: opts.countSkippedAsZero ?? false,
      ...(workers !== undefined ? { workers } : {}),
      signal: stop.signal,
      onRead: () => stop.read(),
      onStep: (text) => progress.step(text),
      onProgress: (rows, total) => progress.update(rows, total),
      onNotice: (message) => {
        // A warning each scoring thread gives alike is said once.
        if (message.startsWith("warning: ")) {
          const warning = message.slice("warning: ".length);
          if (scoringWarnings.includes(warning)) return;
          scoringWarnings.push(warning);
        }
        progress.note(`simeval: ${message}`);
      },
    });
  } catch (error) {
    stop.dispose();
    // The run stopped before --report, --summary and --junit were written, and maybe before --out's first row: an
    // earlier run's file left there is said to be one.
    failure = notingEarlierFiles(error, [results?.earlier === true ? opts.out : undefined, opts.report, opts.summary, opts.junit]);
    throw failure;
  } finally {
    stop.scored();
    progress.done();
    // After a failure, that one is told: closing --out fails with it again when it was --out's.
    await results?.close().catch((error: unknown) => {
      if (failure === undefined) throw error;
    });
  }

  try {
    const run = (store && result.runId ? await store.findRun(result.runId) : undefined) ?? unrecordedRun(result, dataset, startedAt, name ?? null);
    io.stdout(`${result.interrupted ? "Interrupted run" : "Run"} ${runLabel(run)}: ${forTerminalLine(resolve(dataset))}\n`);
    io.stdout(summaryTable(result.summary, tableWidth(io)));
    // A read that stopped is said once, below, with the file's name. An unreadable row leaves the exit code as it is
    // (a gate names it when it fails): a warning, which a search of a CI log for "warning" finds.
    for (const e of result.rowErrors.filter((e) => e !== result.readStopped).slice(0, 5)) warn(io, rowErrorText(e));
    if (result.summary.row_errors > 5) warn(io, `… and ${result.summary.row_errors - 5} more unreadable rows (${opts.out ? `see ${opts.out}` : "--out lists every one"})`);

    // A fault in the file that lost no row (a trailing comma after a JSON array's last element): said once, with the file's name.
    const datasetWarnings = result.datasetWarnings.map((w) => `${dataset}: ${w}`);
    // Rows that are not UTF-8 are nearly always a file saved in a legacy encoding: say which and how to convert it.
    if (result.rowErrors.some((e) => e.message.includes("not valid UTF-8"))) {
      datasetWarnings.push(
        `${dataset}: rows that are not valid UTF-8 usually mean the file was ${SAVED_IN_LEGACY_ENCODING}`,
      );
    }
    for (const w of datasetWarnings) warn(io, w);
    const warnings = runWarnings(result);
    // An evaluator that scored nothing is a failure, said below. Evaluators that skipped every row are one warning naming them all (warningsSaidOnce).
    const evaluatorWarnings = warningsSaidOnce(warnings.filter((w) => !w.nothingScored));
    for (const w of evaluatorWarnings) warn(io, w);
    // A warning about a missing field is followed by the fields there are, here and in --summary and --report.
    const fields = warnings.some((w) => w.aboutFields) ? await firstRowFields(dataset) : null;
    const fieldsLine = fields ? [firstRowFieldsText(fields), ...fieldHints(warnings, fields)] : [];
    for (const line of fieldsLine) warn(io, line);

    const gateOutcomes = evaluateGates(gates, result.summary, result.readStopped !== null);
    for (const g of gateOutcomes) (g.passed ? io.stdout : io.stderr)(g.message);
    // Before the files are written, so that --summary and --junit say whether the run regressed. A
    // comparison with no verdict (exit 2) is thrown once they are written: the run's own figures stand.
    let againstBaseline: Awaited<ReturnType<typeof compareAgainstBaseline>> = null;
    let noVerdict: unknown;
    // What --baseline warned of (no baseline set, nothing in common with it): said in --summary and --report too.
    const baselineWarnings: string[] = [];
    if (opts.baseline && store && result.runId) {
      try {
        againstBaseline = await compareAgainstBaseline(store, result.runId, io, opts.failOnRegression === true, newDatabase, baselineWarnings);
      } catch (error) {
        noVerdict = error;
      }
    }
    if (opts.failOnRegression && againstBaseline) {
      const g = regressionGate(againstBaseline, datasetLost(result.summary.row_errors, result.readStopped !== null));
      (g.passed ? io.stdout : io.stderr)(g.message);
      gateOutcomes.push(g);
    }
    // A gate with no verdict is not a gate passed: --summary and --junit say so (the error itself is printed when thrown),
    // as every gate's outcome is said: "--fail-on-regression: failed, WHY".
    if (opts.failOnRegression && noVerdict) {
      const said = (noVerdict as Error).message;
      const why = said.startsWith(`${REGRESSION_GATE}: `) ? said.slice(REGRESSION_GATE.length + 2) : said;
      gateOutcomes.push({ name: REGRESSION_GATE, passed: false, message: `${REGRESSION_GATE}: failed, ${why}` });
    }
    // A run that does not cover the whole dataset says so wherever its figures go (gates were applied to what it covers).
    const partial: GateOutcome[] = [];
    if (result.interrupted) partial.push({ name: "run completed", passed: false, message: `interrupted after ${rowsText(result.summary.rows)}: the figures cover those rows only` });
    if (result.readStopped) partial.push({ name: "dataset read to its end", passed: false, message: `${dataset}: ${result.readStopped.message}` });
    if (result.datasetChanged) partial.push({ name: "dataset unchanged while read", passed: false, message: `${dataset}: ${result.datasetChanged}` });
    const unreadable = result.summary.rows > 0 && result.summary.row_errors === result.summary.rows;
    if (unreadable && !result.interrupted) partial.push({ name: "dataset rows read", passed: false, message: `${dataset}: no row could be read (its rows' errors say why); nothing was scored` });
    const failedEvaluators = warnings.filter((w) => w.nothingScored);
    for (const w of failedEvaluators) partial.push({ name: `${w.evaluator} scored rows`, passed: false, message: w.message });
    for (const p of partial) io.stderr(`simeval: ${p.message}`);
    // What --summary and --junit give as the run's gates: the failures just printed, then the gates, so that
    // a CI system reading only a file finds a failed entry whenever the exit code is not 0.
    const checks = [...partial, ...gateOutcomes];

    // Each file is written whatever became of the one before, and a write that failed is a failed gate in the
    // files written after it: --report first, then --summary, then --junit, so that a CI system reading
    // junit.xml (or summary.json) finds a failed entry whenever the exit code is not 0. The first failure is
    // thrown once every file has been tried.
    const writeFailures: EvalError[] = [];
    // Each file written is named on stdout once it is whole (`Results: PATH`, `Report: PATH`, `Summary: PATH`, `JUnit: PATH`),
    // so that a user finds what the run left where; not `/dev/stdout` and the like, whose lines are among those printed,
    // nor results shown on the terminal (`--out /dev/tty`), which scrolled by.
    const sayWritten = (written: string, path: string) => {
      if (!namesOwnDescriptor(path)) io.stdout(`${written}: ${forTerminalLine(path)}`);
    };
    if (opts.out && results?.terminal !== true) sayWritten("Results", opts.out);
    const attempt = async (flag: string, path: string | undefined, write: (path: string) => void | Promise<void>, written: string) => {
      if (!path) return;
      try {
        await write(path);
        sayWritten(written, path);
      } catch (error) {
        if (!(error instanceof EvalError)) throw error;
        writeFailures.push(error);
        checks.push({ name: `${flag} written`, passed: false, message: error.message });
      }
    };
    await attempt("--report", opts.report, async (path) => {
      // The report's gates are --summary's and --junit's (those failures among them: an evaluator that scored nothing
      // read "Gates ✓ passed" in a run that exited 3, its failure a warning box only).
      const said = [...datasetWarnings, ...scoringWarnings, ...evaluatorWarnings, ...fieldsLine, ...baselineWarnings];
      await writeOutput("--report", path, renderRunReport({ ...runReportInput(result, run), warnings: said, gates: checks }));
    }, "Report");
    await attempt("--summary", opts.summary, async (path) => {
      const json = {
        run_id: result.runId,
        name: run.name,
        dataset,
        dataset_hash: result.datasetHash,
        interrupted: result.interrupted,
        read_stopped: result.readStopped,
        summary: result.summary,
        gates: checks,
        baseline: againstBaseline && {
          run: againstBaseline.baseline,
          run_id: againstBaseline.baseline_id,
          regressed_on: againstBaseline.regressed,
          no_verdict_on: againstBaseline.no_verdict,
          comparison: againstBaseline.comparison,
        },
        // What the terminal showed besides the table: the first unreadable rows, each evaluator's first error, the warnings
        // (with the first row's fields after one about a missing field).
        row_errors: result.rowErrors,
        evaluator_errors: result.evaluatorErrors,
        warnings: [...datasetWarnings, ...scoringWarnings, ...warningsSaidOnce(warnings), ...fieldsLine, ...baselineWarnings],
      };
      await writeOutput("--summary", path, `${JSON.stringify(json, null, 2)}\n`);
    }, "Summary");
    await attempt("--junit", opts.junit, async (path) => {
      if (!store || !result.runId) throw new EvalError("STORE_FAILED", "--junit: the run was not recorded, so its rows cannot be read back");
      // Skipped rows fail where the summary counted them as failed verdicts (an evaluator that gives verdicts).
      const skippedAsFailed = result.summary.skipped_as_zero ? result.summary.evaluators.filter((e) => e.verdicts > 0).map((e) => e.name) : [];
      const input = { name: run.name ?? run.id, timestamp: run.started_at, ...runSeconds(run), evaluators: evaluators.map((e) => e.name), skippedAsFailed };
      // A million rows take about 20 s to read back.
      const reading = terminalProgress(process.stderr, io.stderr, undefined, results?.terminal !== true);
      reading.step(`writing ${forTerminalLine(path)}: reading the rows back`);
      await writeJUnitFile(path, input, store.rows(result.runId, { records: false }), checks, { to: reading, total: result.summary.rows });
    }, "JUnit");
    // Every failure is said; the first write's gives the exit code, else the interruption's (the comparison of a run
    // cut short is no reason to exit otherwise than as the signal asked), else the comparison's.
    const thrown = [...writeFailures, ...(noVerdict ? [noVerdict] : [])];
    const exitBy = writeFailures.length || !result.interrupted ? thrown[0] : undefined;
    for (const e of thrown) if (e !== exitBy) io.stderr(`simeval: ${(e as Error).message}`);
    if (exitBy) throw exitBy;

    if (result.interrupted) return STOPPED_EXIT[stop.stoppedBy ?? "SIGINT"];
    if (result.readStopped || unreadable || result.datasetChanged) return EXIT.usage;
    if (failedEvaluators.length > 0) return EXIT.runtime;
    // Each gate named by its flag, as it is given (`--fail-under levenshtein=0.8`, `--fail-on-regression`): "not met".
    const unmet = gateOutcomes.filter((g) => !g.passed);
    if (unmet.length > 0) {
      io.stderr(`simeval: ${unmet.length === 1 ? "1 gate" : `${unmet.length} gates`} not met: ${unmet.map((g) => g.name).join(", ")}`);
      return EXIT.failed;
    }
    return EXIT.ok;
  } finally {
    stop.dispose();
    await store?.close();
  }
}

/** The regression gate's name, its flag, as the other gates are named by theirs (`--fail-under levenshtein=0.8`). */
const REGRESSION_GATE = "--fail-on-regression";

/**
 * --fail-on-regression as a gate: it fails when the run is significantly worse than the baseline on some
 * evaluator, or has no row scored in both runs on one (no verdict: a gate that cannot look does not pass), naming them,
 * and when rows of the dataset were lost (`lost`, {@link datasetLost}), as every gate does
 * (five at most, {@link evaluatorList}; the comparison's table and summary.json's `baseline` name each).
 */
function regressionGate(c: BaselineVerdict, lost: string | undefined): GateOutcome {
  const noun = comparedNoun(c.comparison);
  const failures = [
    // Rows lost before any evaluator saw them fail this gate as they fail the others: they were compared with nothing.
    ...(lost !== undefined ? [`${lost}, and what was lost was not compared with the baseline`] : []),
    ...(c.regressed.length ? [`this run is significantly worse than the baseline ${c.baseline} on ${evaluatorList(c.regressed, c.compared, noun)}`] : []),
    ...(c.no_verdict.length
      ? [`no row has a score in both this run and the baseline ${c.baseline} on ${evaluatorList(c.no_verdict, c.compared, noun)}, so there is no verdict on ${c.no_verdict.length > 1 ? "them" : "it"}`]
      : []),
  ];
  const message = failures.length ? `${REGRESSION_GATE}: failed, ${failures.join("; ")}` : `${REGRESSION_GATE}: passed, no regression against the baseline ${c.baseline}`;
  return { name: REGRESSION_GATE, passed: failures.length === 0, message };
}

/**
 * `{ time }`, the run's duration in seconds from its start to its recorded end, for `--junit`'s `time` attributes
 * (the files written after the run are not in it); empty when the run has no end recorded.
 */
function runSeconds(run: RunInfo): { time?: number } {
  if (run.finished_at === null) return {};
  const ms = Date.parse(run.finished_at) - Date.parse(run.started_at);
  return Number.isFinite(ms) ? { time: Math.max(0, ms) / 1000 } : {};
}

/** Whether there is no file at `path` (ENOENT); another failure to stat it is openSqliteStore's to name. */
function noFileAt(path: string): boolean {
  try {
    statSync(path);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/**
 * The refusal of `--fail-on-regression` (USAGE, before anything is created) when there is no run database at `db`:
 * no baseline can be set in a database that is not there. Said as such, rather than as "no baseline is set"
 * in a database this run would have just created, because it is what a CI job meets on a fresh runner where
 * the database of an earlier job (and the baseline marked in it) was not kept; or, run from a project's subfolder, there
 * is one above ({@link databaseAbove}).
 */
function noDatabaseToGateOn(db: string): EvalError {
  const above = databaseAbove(db);
  if (above) return new EvalError("USAGE", `--fail-on-regression: there is no run database at ${db}, so no baseline to gate on${above}`);
  return new EvalError(
    "USAGE",
    `--fail-on-regression: there is no run database at ${db}, so no baseline to gate on (a CI runner starts without one unless the file is kept between jobs); \`simeval baseline set RUN\` marks a known-good run in it, or \`simeval compare KNOWN_GOOD.results.jsonl NEW.results.jsonl --fail-on-regression\` gates on a results file kept in the repository`,
  );
}
