import { existsSync, statSync } from "node:fs";
import { compareRuns, type Comparison, type EvaluatorComparison, type WorstRow } from "../../compare/compare.js";
import { specDifferenceWarning } from "../../compare/spec-diff.js";
import { comparedNoun, evaluatorList, firstListed } from "../../compare/evaluator-list.js";
import { methodsNote } from "../../compare/methods-note.js";
import { EvalError } from "../../errors.js";
import type { EvaluatorSpec } from "../../evaluators/spec.js";
import { formatId, formatInt, formatLevel, pDigits, rowsText } from "../../report/format.js";
import { highlightFor, renderComparisonReport, textsUnavailableNote } from "../../report/index.js";
import type { ComparisonReportInput, RunLabel } from "../../report/types.js";
import { DatasetTexts, type RecordedDataset } from "../../run/dataset-texts.js";
import type { RowScores } from "../../run/row-scores.js";
import { evaluatorSpec, type RunInfo } from "../../run/types.js";
import type { SqliteRunStore } from "../../storage/sqlite.js";
import { EXIT } from "../exit-codes.js";
import { wholeNumberOption } from "../whole-number.js";
import { formatFigure, formatSignedFigure, forTerminal, forTerminalLine } from "../format.js";
import { warn, type CliIO } from "../io.js";
import { checkOutputPaths, databaseInputs, writeReportHearingStops } from "../output-file.js";
import { isResultsFile, loadRun, sameRun, type LoadedRun } from "../run-ref.js";
import { terminalProgress, type Progress } from "../progress.js";
import { sayInterrupted, watchInterrupts } from "../stop-signals.js";
import { renderTable, renderTableBlocks, tableWidth, wrapWords } from "../table.js";
import { openRecordedRuns } from "./recorded-runs.js";

export interface CompareOptions {
  db: string;
  failOnRegression?: boolean;
  report?: string;
  seed?: string;
  /** Print the comparison as JSON ({@link ComparisonJson}) instead of the text. */
  json?: boolean;
  /** How rows are paired: "row" (the default) or "key" (`--pair-by key`, recorded runs' keys). */
  pairBy?: "row" | "key";
}

/**
 * `simeval compare A B`: per evaluator, both means, the paired difference with its CI and p-value; with
 * `--json`, the same as one JSON document on stdout ({@link comparisonJson}), gate failures and progress staying
 * on stderr as with the text, and the warnings the text prints among its lines said on stderr too (as is
 * `--report`'s "Report: PATH"). Runs without an evaluator in common are a USAGE error (exit 2): there is nothing
 * to compare, and no verdict.
 * Ctrl-C or SIGTERM stops it (exit 130, or 143 for SIGTERM) while the runs are read, and before the report is
 * written, saying so: it changes nothing, and writes no part of a report. One while the report is written (heard
 * once the write is done, its main thread busy) lets the file be finished, and is said too.
 */
export async function compareCommand(refA: string, refB: string, opts: CompareOptions, io: CliIO): Promise<number> {
  // A run given as a results.jsonl file is an input too (a name or id that is no file matches nothing).
  if (opts.report) checkOutputPaths([{ flag: "RUN_A", path: refA }, { flag: "RUN_B", path: refB }, ...databaseInputs(opts.db)], [{ flag: "--report", path: opts.report }]);
  // Two results.jsonl files need no database; a run id or name does. The database is still read when there
  // is one, so that a file named like a recorded run is refused as ambiguous (see loadRun), as it is beside a run.
  const store = isResultsFile(refA) && isResultsFile(refB) ? optionalRecordedRuns(opts.db) : openRecordedRuns(opts.db, noFileNote(refA, refB));
  const stop = watchInterrupts();
  const progress = terminalProgress(process.stderr, io.stderr);
  const interrupted = (notDone: string) => sayInterrupted(stop, progress, notDone);
  const report = opts.report === undefined ? "" : `, ${forTerminalLine(opts.report)} not written`;
  try {
    const a = await loadRun(refA, store);
    const b = await loadRun(refB, store);
    // A recorded run's dataset file is an input too: the report reads its texts back from it, and it is the run's data.
    if (opts.report) {
      const datasets = ([["RUN_A", a], ["RUN_B", b]] as const).flatMap(([flag, r]) => (r.info?.dataset_path ? [{ flag: `the dataset of ${flag}`, path: r.info.dataset_path }] : []));
      checkOutputPaths(datasets, [{ flag: "--report", path: opts.report }]);
    }
    const seed = opts.seed === undefined ? 1 : wholeNumberOption("--seed", opts.seed, "an integer such as 1 or 42 (negative too; used modulo 2^32)");
    if (opts.pairBy === "key") refuseKeylessFiles(a, b);
    refuseNoCommonEvaluator(a, b); // recorded runs: before reading a row
    let comparison: Comparison;
    try {
      comparison = await compare(a, b, seed, progress, stop.signal, opts.pairBy);
    } catch (error) {
      if (stop.signal.aborted) return interrupted(`the runs were not compared${report}`);
      throw error;
    }
    refuseNoCommonEvaluator(a, b, comparison); // results.jsonl files: once their rows have shown their evaluators
    if (opts.json) {
      const json = comparisonJson(comparison, a, b);
      io.stdout(JSON.stringify(json, null, 2));
      // The text prints them among its lines; with stdout holding the JSON alone, a CI log still shows them.
      for (const w of json.warnings) warn(io, forTerminalLine(w));
    } else {
      io.stdout(printComparison(comparison, tableWidth(io), io.columns));
    }
    if (opts.report) {
      const input = await comparisonReportInput(comparison, a, b);
      if (stop.signal.aborted) return interrupted(report.slice(2));
      if (input.texts_unavailable) warn(io, `${textsUnavailableNote(input.texts_unavailable)}; ${textsShown(input)}`);
      const stopped = await writeReportHearingStops(opts.report, renderComparisonReport(input), stop, progress, io, opts.json === true);
      if (stopped !== undefined) return stopped;
    }
    if (!opts.failOnRegression) return EXIT.ok;
    refuseWithheldVerdict(withheldVerdict(comparison, a, b));
    // Said as `run` says a failed gate (`--fail-under levenshtein=0.8: failed, mean 0.7712`): a verdict, not an error.
    const failures = regressionFailures(comparison, b.label, a.label);
    if (failures.length) io.stderr(`--fail-on-regression: failed, ${failures.join("; ")}`);
    return failures.length ? EXIT.failed : EXIT.ok;
  } finally {
    stop.dispose();
    await store?.close();
  }
}

/**
 * What to add to "no run database at PATH" when RUN_A or RUN_B is not a file either: without it, a mistyped
 * results.jsonl path (`compare known-good.jsonl new.jsonl` in a CI job, where no database is kept) would be
 * told only of the database, as if the file had been found.
 */
function noFileNote(...refs: string[]): string {
  const notFiles = [...new Set(refs)].filter((ref) => !isResultsFile(ref));
  const missing = notFiles.filter((ref) => !existsSync(ref)).map((ref) => JSON.stringify(ref));
  const others = notFiles.filter((ref) => existsSync(ref)).map((ref) => `; ${JSON.stringify(ref)} is ${statSync(ref).isDirectory() ? "a folder" : "not a regular file"}, not a results.jsonl file`);
  return (missing.length ? `; nor is there a file at ${missing.join(" or ")}` : "") + others.join("");
}

/** The run database when one can be read at `path`, else undefined: two results.jsonl files are compared without it. */
function optionalRecordedRuns(path: string): SqliteRunStore | undefined {
  try {
    return openRecordedRuns(path);
  } catch {
    return undefined;
  }
}

/**
 * Compares two loaded runs. An evaluator name that the runs give to different types (a jaccard named
 * "levenshtein" in one) is left out: its scores do not measure the same thing. A warning says so, and
 * when a recorded run is incomplete or still being recorded (its rows are only part of its dataset),
 * and when some row number is in one run only, and when an evaluator compared has a different config or
 * inputs in the two runs (see {@link specDifferenceWarning}). (Their dataset files may differ, and do when each prompt
 * variant's outputs are a file of their own; ids that disagree are the compared runs' own warning.)
 * Once `signal` is aborted, the rows stop being read, and it rejects with the signal's reason.
 */
export async function compare(a: LoadedRun, b: LoadedRun, seed = 1, progress?: Progress, signal?: AbortSignal, pairBy: "row" | "key" = "row"): Promise<Comparison> {
  const clashes = Object.keys(a.types).filter((name) => b.types[name] !== undefined && b.types[name] !== a.types[name]);
  const rows = (run: LoadedRun) => (clashes.length ? withoutScores(run.rows(), clashes) : run.rows());
  // A results.jsonl tells its rows' lines, so that a row left out is said at its line.
  const input = (run: LoadedRun) => ({ name: run.label, rows: rows(run), ...(run.line && { line: run.line }) });
  // Recorded runs tell their row counts; results files do not.
  const total = a.info?.summary && b.info?.summary ? a.info.summary.rows + b.info.summary.rows : null;
  let c: Comparison;
  try {
    c = await compareRuns(input(a), input(b), {
      // A direction that comes from a type wins over a results.jsonl file's stand-in for an evaluator it has no type for.
      directions: { ...b.directions, ...a.directions, ...typedDirections(b), ...typedDirections(a) },
      seed,
      pairBy,
      onProgress: (read) => progress?.update(read, total),
      signal,
    });
    // A signal that came while the figures were computed (the loop did not turn meanwhile) is heard here.
    if (signal) await new Promise(setImmediate);
    signal?.throwIfAborted();
  } finally {
    progress?.done();
  }
  const early: string[] = [];
  // A CI step comparing a run with itself (`compare new new`, a name that finds the run just recorded) can never find a regression.
  const same = sameRun(a, b);
  if (same) early.push(`A and B are the same ${a.info ? "run" : "file"}: no row can differ, so nothing is significant and --fail-on-regression finds no regression; give two runs`);
  // One run's state is said once, as A's.
  for (const [side, run] of same ? ([["A", a]] as const) : ([["A", a], ["B", b]] as const)) {
    // results.jsonl files have no status: nothing to say.
    const unfinished = run.info && UNFINISHED[run.info.status];
    if (unfinished) early.push(`${sideLabel(side, run)} ${unfinished.is}: it covers ${unfinished.covers}`);
    const cut = run.cutShortLine?.();
    if (cut !== undefined) early.push(`${sideLabel(side, run)} ends in a line cut short (line ${cut}, not valid JSON, with no line break after it: a run killed while writing it), left out`);
  }
  // Equal counts can still hold different row numbers (two subsets of one dataset): say so whenever some row is in one run only.
  // Paired by key, what both runs have is keys, not row numbers (a row's number differs from run to run).
  const unit = pairBy === "key" ? "key" : "row number";
  if (c.rows.a_only || c.rows.b_only) {
    const apart = [c.rows.a_only ? `${formatInt(c.rows.a_only)} in A only` : "", c.rows.b_only ? `${formatInt(c.rows.b_only)} in B only` : ""].filter(Boolean).join(", ");
    const compared =
      c.rows.matched === 0
        ? `no ${unit} is in both, so nothing is compared`
        : `only the ${formatInt(c.rows.matched)} ${unit}${c.rows.matched === 1 ? "" : "s"} in both ${c.rows.matched === 1 ? "is" : "are"} compared`;
    early.push(`A has ${rowsText(c.rows.a)} and B ${formatInt(c.rows.b)}: ${compared} (${apart})`);
  }
  for (const name of clashes) early.push(`${name} is ${a.types[name]} in A but ${b.types[name]} in B: not compared`);
  early.push(...specWarnings(a, b, c));
  return { ...c, dataset_mismatch: c.dataset_mismatch && tracedMismatch(a, b, c.dataset_mismatch, pairBy), warnings: [...early, ...c.warnings] };
}

/**
 * Ids that disagree between two runs recorded from traces (neither read from a dataset file) are said to come from
 * the pairing: their rows are numbered in the order they arrived, and rows are paired by number, so that two runs
 * over the same traces in another order disagree too ("probably made on different datasets" misled).
 */
function tracedMismatch(a: LoadedRun, b: LoadedRun, mismatch: NonNullable<Comparison["dataset_mismatch"]>, pairBy: "row" | "key"): Comparison["dataset_mismatch"] {
  if (pairBy === "key" || a.info?.dataset_path !== null || b.info?.dataset_path !== null) return mismatch;
  const cause = /they were probably made on different datasets .*$/;
  const traced =
    "both runs were recorded from traces (no dataset file), whose rows are numbered in the order they arrived, and rows are paired by number: " +
    "runs over the same traces in another order disagree so too; if their rows were stored with keys, compare them with --pair-by key.";
  return { ...mismatch, message: mismatch.message.replace(cause, traced) };
}

/** A run's directions of the evaluators it knows the type of. */
function typedDirections(run: LoadedRun): LoadedRun["directions"] {
  return Object.fromEntries(Object.entries(run.directions).filter(([name]) => run.types[name] !== undefined));
}

/**
 * "A (name, id)" for a named run, "A (id)" or "A (file)" otherwise: one pair of brackets, where the label
 * "name (id)" inside them read "A (name (id))". A run named "A" is "A (01m…)".
 */
function sideLabel(side: "A" | "B", run: LoadedRun): string {
  const { info } = run;
  if (!info) return `${side} (${run.label})`;
  return info.name && info.name !== side ? `${side} (${info.name}, ${info.id})` : `${side} (${info.id})`;
}

/**
 * For each compared evaluator whose recorded specs differ in config or inputs (same name and type), a
 * warning naming the keys that differ: its scores may have moved because of them. results.jsonl files
 * record no specs: nothing to say.
 */
function specWarnings(a: LoadedRun, b: LoadedRun, c: Comparison): string[] {
  const out: string[] = [];
  for (const e of c.evaluators) {
    const specA = specOf(a, e.name);
    const specB = specOf(b, e.name);
    const warning = specA && specB ? specDifferenceWarning(e.name, specA, specB) : null;
    if (warning) out.push(warning);
  }
  return out;
}

/** A recorded run's spec of the evaluator named `name`; undefined for a results.jsonl file. */
function specOf(run: LoadedRun, name: string): EvaluatorSpec | undefined {
  return run.info ? evaluatorSpec(run.info, name) : undefined;
}

/**
 * Runs without an evaluator name in common (once names given to different types are left out) have
 * nothing to compare: a USAGE error naming each side's evaluators, as for ids that disagree under a gate,
 * rather than an empty table and exit 0. Without `c`, only recorded runs are checked (their evaluators
 * are declared, so no row need be read) and results.jsonl files pass; with `c`, a results.jsonl file's
 * evaluators are those its rows showed. A recorded run's declared evaluators count even when it has no rows. Two
 * files whose rows scored no evaluator (every row an error) are refused too: a gate over them would pass having compared nothing.
 */
export function refuseNoCommonEvaluator(a: LoadedRun, b: LoadedRun, c?: Comparison): void {
  const namesA = evaluatorNames(a, c && [...c.evaluators.map((e) => e.name), ...c.only_in_a]);
  const namesB = evaluatorNames(b, c && [...c.evaluators.map((e) => e.name), ...c.only_in_b]);
  if (namesA === undefined || namesB === undefined) return;
  const shared = namesA.filter((n) => namesB.includes(n));
  const clashes = shared.filter((n) => a.types[n] !== undefined && b.types[n] !== undefined && a.types[n] !== b.types[n]);
  if (shared.length > clashes.length) return;
  const list = (names: readonly string[]) => (names.length ? names.join(", ") : "no evaluator");
  const clashNote = clashes.map((n) => `; ${n} is ${a.types[n]} in A but ${b.types[n]} in B`).join("");
  throw new EvalError(
    "USAGE",
    `no evaluator in common: ${sideLabel("A", a)} has ${list(namesA)}; ${sideLabel("B", b)} has ${list(namesB)}${clashNote}; there is nothing to compare`,
  );
}

/**
 * A run's evaluator names: a recorded run's (the keys of its `types`, which come from its specs); a
 * results.jsonl file's from its first pass and the `seen` names its rows showed in the comparison;
 * undefined for a file before the comparison.
 */
function evaluatorNames(run: LoadedRun, seen: readonly string[] | undefined): string[] | undefined {
  if (run.info) return Object.keys(run.types);
  return seen && [...new Set([...Object.keys(run.types), ...seen])];
}

/** `--pair-by key` pairs the keys runs were stored with: a results.jsonl file keeps none (USAGE, before a row is read). */
function refuseKeylessFiles(a: LoadedRun, b: LoadedRun): void {
  const files = ([["A", a], ["B", b]] as const).filter(([, r]) => !r.info).map(([side, r]) => sideLabel(side, r));
  if (files.length) throw new EvalError("USAGE", `--pair-by key pairs rows by the keys a run was recorded with, and ${files.join(" and ")} ${files.length === 1 ? "is a results.jsonl file, which keeps" : "are results.jsonl files, which keep"} none; compare recorded runs, or pair by row number`);
}

/**
 * Why `--fail-on-regression` gives no verdict on the comparison as a whole, or null when it gives one: rows whose ids
 * disagree (the gate would judge different questions), a recorded run still being recorded or incomplete
 * (interrupted, killed, its file read only up to a fault), or a results.jsonl file cut short (its run killed while
 * writing it), which covers only some of its rows (on a shared database a
 * name finds the newest run of that name, which may be another job's still running). `compare --json` gives it as
 * `verdict.withheld`, so that a script reading `regressed_on` sees it too.
 */
export function withheldVerdict(c: Comparison, a: LoadedRun, b: LoadedRun): string | null {
  return mismatchWithheld(c) ?? unfinishedWithheld(a, b) ?? cutShortWithheld(a, b);
}

/**
 * Why there is no verdict on a results.jsonl file whose last line was cut short (see {@link withheldVerdict}), or null:
 * only a writer killed mid-line leaves one, so the file holds only the rows written before its run stopped, as an
 * incomplete recorded run does, and the rows it lost are not judged (a results file records no status to say so otherwise).
 */
function cutShortWithheld(a: LoadedRun, b: LoadedRun): string | null {
  for (const [side, run] of [["A", a], ["B", b]] as const) {
    const cut = run.cutShortLine?.();
    if (cut === undefined) continue;
    return `${sideLabel(side, run)} ends in a line cut short (line ${cut}: a run killed while writing it), so it holds only the rows written before it stopped: there is no verdict; compare a whole results file`;
  }
  return null;
}

/** Why there is no verdict on rows whose ids disagree (see {@link withheldVerdict}), or null. */
export function mismatchWithheld(c: Comparison): string | null {
  if (!c.dataset_mismatch) return null;
  const message = c.dataset_mismatch.message.replace(/\.$/, "");
  // "Runs … disagree" starts a sentence of its own in the text; here it follows the flag.
  const why = c.settings.pair_by === "key" ? "one key names different items in the two runs" : "the runs are not on the same dataset";
  return `${message.charAt(0).toLowerCase()}${message.slice(1)}; ${why}, so there is no verdict`;
}

/** What a recorded run not complete is, and which of its rows it covers: as the comparison warns of it, and withholds its verdict. */
const UNFINISHED: Partial<Record<RunInfo["status"], { is: string; covers: string }>> = {
  running: { is: "is still being recorded", covers: "only the rows recorded so far" },
  incomplete: { is: "is incomplete", covers: "only the rows recorded before it stopped" },
};

/** Why there is no verdict on a recorded run still being recorded or incomplete (see {@link withheldVerdict}), or null. */
function unfinishedWithheld(a: LoadedRun, b: LoadedRun): string | null {
  for (const [side, run] of [["A", a], ["B", b]] as const) {
    const unfinished = run.info && UNFINISHED[run.info.status];
    if (unfinished) return `run ${sideLabel(side, run)} ${unfinished.is}, so it covers ${unfinished.covers}: there is no verdict; compare a complete run (\`simeval runs\` lists them with their ids)`;
  }
  return null;
}

/** `--fail-on-regression` when `why` it gives no verdict ({@link withheldVerdict}): a USAGE error (exit 2), once the comparison is printed. */
export function refuseWithheldVerdict(why: string | null): void {
  if (why !== null) throw new EvalError("USAGE", `--fail-on-regression: ${why}`);
}

/**
 * What `--fail-on-regression` fails on: the evaluators on which B is significantly worse than A, and those
 * with no pair at all (no row scored in both runs), on which there is no verdict: a gate that cannot look
 * does not pass. `compare` and `run --baseline` both judge by it.
 */
export function regressionVerdict(c: Comparison): { regressed: string[]; no_verdict: string[]; compared: number } {
  return { regressed: c.verdict.regressed_on, no_verdict: c.verdict.no_verdict_on, compared: c.evaluators.length };
}

/** {@link regressionVerdict} as `compare` says it, long lists cut ({@link evaluatorList}: the table names each); empty when the gate passes. */
export function regressionFailures(c: Comparison, labelB: string, labelA: string): string[] {
  const { regressed, no_verdict, compared } = regressionVerdict(c);
  const noun = comparedNoun(c);
  const out: string[] = [];
  if (regressed.length) out.push(`${labelB} is significantly worse than ${labelA} on ${evaluatorList(regressed, compared, noun)}`);
  if (no_verdict.length) out.push(`no verdict on ${evaluatorList(no_verdict, compared, noun)}: no row has a score in both runs, so --fail-on-regression fails`);
  return out;
}

/** Everything the comparison warns about, ids that disagree first: the text and the HTML report show the same list. */
function comparisonWarnings(c: Comparison): string[] {
  return [...(c.dataset_mismatch ? [c.dataset_mismatch.message] : []), ...c.warnings];
}

async function* withoutScores(rows: Iterable<RowScores> | AsyncIterable<RowScores>, names: readonly string[]): AsyncGenerator<RowScores> {
  for await (const row of rows) {
    const scores = { ...row.scores };
    for (const name of names) delete scores[name];
    yield { ...row, scores };
  }
}

/** Below this many pairs, the text says that the bootstrap interval is rough. */
const FEW_PAIRS = 10;

/**
 * What the figures of evaluators with few pairs cannot tell: their bootstrap interval means little below
 * {@link FEW_PAIRS} pairs; and with m rows that differ (improved or regressed), the smallest two-sided
 * sign-flip p is 2 / 2^m, so below about 6 of them (at alpha 0.05) no result can be significant, and
 * `--fail-on-regression` cannot fire, whatever the rows say.
 */
function fewPairsNotes(c: Comparison): string[] {
  const notes: string[] = [];
  const few = c.evaluators.filter((e) => e.n_pairs > 0 && e.n_pairs < FEW_PAIRS);
  if (few.length) {
    notes.push(`Fewer than ${FEW_PAIRS} pairs (${evaluatorList(few.map((e) => e.name), c.evaluators.length, comparedNoun(c))}): the bootstrap interval can take only the few values those rows allow, so it looks surer than it is; the p-value, counting every sign pattern, is exact.`);
  }
  const alpha = c.settings.alpha;
  const differing = (e: EvaluatorComparison) => e.rows.improved + e.rows.regressed;
  const powerless = c.evaluators.filter((e) => differing(e) > 0 && 2 / 2 ** differing(e) >= alpha);
  if (powerless.length) {
    const { listed, more } = firstListed(powerless);
    const each = [...listed.map((e) => `${e.name}: ${rowsText(differing(e))}, smallest p ${String(2 / 2 ** differing(e))}`), ...(more ? [more] : [])].join("; ");
    notes.push(`Too few rows differ between the runs for a p-value below ${alpha} (${each}): no difference on these can be significant, and --fail-on-regression cannot fire on them; compare on more rows.`);
  }
  return notes;
}

/**
 * The comparison as text: a table with a line per evaluator (wider than `width`, no limit by default, it goes
 * on in further tables, each beginning with the evaluator), then the rows that regressed most; on a terminal
 * `proseWidth` columns wide, its sentences (the warnings, the methods, the closing "In short") are wrapped at spaces
 * to it (in a log or a file, unwrapped, one line each, as a script greps them). It goes to stdout, where
 * the rows' ids (any JSON value, from the data) and the warnings quoting them are shown as {@link forTerminal}
 * does on stderr: a control or bidi character in an id is written escaped (`\u001b`), so that it does not act
 * on the terminal or a CI log, and the table keeps its columns.
 */
export function printComparison(c: Comparison, width = Number.POSITIVE_INFINITY, proseWidth?: number): string {
  const prose = (text: string) => (proseWidth ? wrapWords(text, proseWidth).join("\n") : text);
  const lines = [`A: ${c.a}`, `B: ${c.b}`, `${rowsText(c.rows.matched)} in both runs (A ${formatInt(c.rows.a)}, B ${formatInt(c.rows.b)})`];
  for (const w of comparisonWarnings(c)) lines.push(prose(`warning: ${w}`));
  if (c.only_in_a.length) lines.push(prose(`only in A (not compared): ${c.only_in_a.join(", ")}`));
  if (c.only_in_b.length) lines.push(prose(`only in B (not compared): ${c.only_in_b.join(", ")}`));
  const rows = c.evaluators.map((e) => [
    e.name,
    e.n_pairs,
    formatFigure(e.mean_a),
    formatFigure(e.mean_b),
    formatSignedFigure(e.diff),
    e.ci ? `[${formatFigure(e.ci.low)}, ${formatFigure(e.ci.high)}]` : "-",
    e.p_value === null ? "-" : e.p_value < 0.0001 ? "<0.0001" : pDigits(e.p_value, c.settings.alpha),
    e.n_pairs === 0 ? "- (no pairs)" : e.better === "same" ? "neither (CI holds 0)" : `${e.better.toUpperCase()}${e.significant ? "" : " (not significant)"}`,
    `${e.rows.improved}/${e.rows.regressed}/${e.rows.unchanged}`,
  ]);
  lines.push("", renderTableBlocks(["evaluator", "pairs", "mean A", "mean B", "B - A", `${formatLevel(1 - c.settings.alpha)} CI`, "p", "closer to reference", "improved/regressed/same"], rows, 1, width));
  lines.push(prose(methodsNote(c)));
  lines.push(...fewPairsNotes(c).map(prose));
  for (const e of c.evaluators) {
    if (!e.worst.length || e.rows.regressed === 0) continue;
    lines.push("", `Rows that regressed most on ${e.name}:`);
    // Paired by key, a row has a number in each run.
    const byKey = c.settings.pair_by === "key";
    const row = (w: WorstRow) => (byKey ? `${w.row}/${w.row_b ?? w.row}` : w.row);
    lines.push(renderTable([byKey ? "row A/B" : "row", "id", "A", "B", "B - A"], e.worst.slice(0, 5).map((w) => [row(w), forTerminal(formatId(w.id)), formatFigure(w.score_a), formatFigure(w.score_b), formatSignedFigure(w.delta)])));
  }
  lines.push("", prose(inShort(c)));
  return forTerminal(lines.join("\n"));
}

/**
 * The table's last column in one sentence, printed after the rows that regressed most, so that it is on screen
 * once they have scrolled the table away: on which evaluators B, or A, is significantly closer to the reference
 * (the column's `B` or `A` without "(not significant)"), on which neither is, and which had no pairs. Neither
 * is closer where the interval holds 0 (the column's "neither (CI holds 0)"), said apart when p is below the
 * level all the same: "no significant difference" would gainsay the p column and `--json`'s `significant`.
 */
function inShort(c: Comparison): string {
  const names = (pick: (e: EvaluatorComparison) => boolean) => c.evaluators.filter(pick).map((e) => e.name);
  const closer = (side: "a" | "b") => names((e) => e.n_pairs > 0 && e.better === side && e.significant);
  const parts = [
    [closer("b"), "B is significantly closer to the reference on"],
    [closer("a"), "A is significantly closer to the reference on"],
    [names((e) => e.n_pairs > 0 && e.better === "same" && e.significant), `neither is closer to the reference (p is below ${c.settings.alpha}, but the CI holds 0) on`],
    [names((e) => e.n_pairs > 0 && !e.significant), "no significant difference on"],
    [names((e) => e.n_pairs === 0), "no pairs to compare on"],
  ] as const;
  const said = parts.filter(([list]) => list.length > 0).map(([list, text]) => `${text} ${evaluatorList(list, c.evaluators.length, comparedNoun(c))}`);
  // Rows paired whatever their ids say: figures, but no verdict (mismatchWithheld), which the sentence does not hide.
  const over = c.dataset_mismatch ? ", over rows paired although their ids disagree (see the warning above; --fail-on-regression gives no verdict)" : "";
  return `In short${over}: ${said.join("; ")}.`;
}

/** A compared run as `compare --json` names it. */
interface ComparedRunJson {
  /** As the text's `A:` and `B:` lines name it: "name (id)", the id, or the file's path. */
  label: string;
  /** A recorded run's id and name (null when it has none); both null for a results.jsonl file. */
  id: string | null;
  name: string | null;
  /** The results.jsonl file's path as given; null for a recorded run. */
  file: string | null;
}

/** A row named in `compare --json`: its id as the text and the HTML report show it (see {@link jsonRowId}). */
type RowIdJson = string | null;

/**
 * One evaluator in `compare --json`: its {@link EvaluatorComparison} (what its line in the table says, the same
 * fields in the same order; `better` is "same" too where there are no pairs, the text's "-"), with its type, and
 * its worst rows (up to `settings.worst`, 10, as the HTML report lists them; the text shows the first 5) naming
 * each row by {@link RowIdJson}.
 */
interface EvaluatorComparisonJson extends Omit<EvaluatorComparison, "worst"> {
  /** Its type, as either run records it; null when neither does (a results.jsonl evaluator with only errors). */
  type: string | null;
  worst: (Omit<WorstRow, "id"> & { id: RowIdJson })[];
}

/**
 * What `simeval compare A B --json` prints: one document, with the keys
 * `{a, b, rows, dataset_mismatch, evaluators, only_in_a, only_in_b, verdict, warnings, notes, settings}`.
 * - `a`, `b`: the runs ({@link ComparedRunJson}).
 * - `rows`: `{a, b, matched, a_only, b_only}`, rows read from each run, in both, in one only.
 * - `dataset_mismatch`: null, or `{message, rows, examples: [{row, id_a, id_b}]}` when ids at one row number disagree
 *   (paired by key, each example also has `row_b` and `key`, cut as an id is)
 *   (`--fail-on-regression` then gives no verdict: exit 2).
 * - `evaluators`: one per evaluator in both runs, in A's order ({@link EvaluatorComparisonJson}).
 * - `verdict`: `{regressed_on, no_verdict_on, withheld}`, the evaluator names `--fail-on-regression` fails on, as `run --summary`'s
 *   `baseline` gives them, and why it gives no verdict at all (exit 2), null when it gives one ({@link withheldVerdict}).
 * - `warnings`: every line the text prints as `warning:`, in its order; `notes`: the lines under its table (how p and the
 *   CI were computed, and what few pairs cannot tell).
 * - `settings`: `{seed, resamples, alpha, worst, pair_by}`.
 * Numbers are full precision (as `runs --json` and `show --json` give the means), not rounded as in the table.
 * Row ids come from the data and may be any JSON value of any size: each is given as the text and the HTML
 * report show it ({@link jsonRowId}), a string of at most 100 characters and "…", or null for a row without one.
 * Strings are not escaped for a terminal, as the text's are: JSON escapes control characters itself.
 */
export interface ComparisonJson {
  a: ComparedRunJson;
  b: ComparedRunJson;
  rows: { a: number; b: number; matched: number; a_only: number; b_only: number };
  dataset_mismatch: { message: string; rows: number; examples: { row: number; row_b?: number; key?: RowIdJson; id_a: RowIdJson; id_b: RowIdJson }[] } | null;
  evaluators: EvaluatorComparisonJson[];
  only_in_a: string[];
  only_in_b: string[];
  verdict: { regressed_on: string[]; no_verdict_on: string[]; withheld: string | null };
  warnings: string[];
  notes: string[];
  settings: Comparison["settings"];
}

/**
 * A row id as `compare --json` gives it: as {@link formatId} shows it in the text and the HTML report (a string
 * as it is, any other value as its JSON text, one over 100 UTF-16 code units cut to at most its first 100, at a grapheme boundary, and "…"), so
 * that a 5 MB id is not copied whole into the output; null for a row without an id.
 */
export function jsonRowId(id: unknown): RowIdJson {
  return id === null || id === undefined ? null : formatId(id);
}

/** The comparison of `a` and `b` as `compare --json` prints it: see {@link ComparisonJson}. */
export function comparisonJson(c: Comparison, a: LoadedRun, b: LoadedRun): ComparisonJson {
  const run = (r: LoadedRun): ComparedRunJson => ({ label: r.label, id: r.info?.id ?? null, name: r.info ? r.info.name : null, file: r.info ? null : r.label });
  return {
    a: run(a),
    b: run(b),
    rows: { ...c.rows },
    dataset_mismatch: c.dataset_mismatch && { message: c.dataset_mismatch.message, rows: c.dataset_mismatch.rows, examples: c.dataset_mismatch.examples.map((x) => ({ row: x.row, ...(x.row_b === undefined ? {} : { row_b: x.row_b, key: jsonRowId(x.key) }), id_a: jsonRowId(x.id_a), id_b: jsonRowId(x.id_b) })) },
    // The comparison's own fields, in its order (a name first, then its type), with each worst row's id as shown.
    evaluators: c.evaluators.map(({ name, worst, ...figures }) => ({
      name,
      type: a.types[name] ?? b.types[name] ?? null,
      ...figures,
      worst: worst.map((w) => ({ ...w, id: jsonRowId(w.id) })),
    })),
    only_in_a: [...c.only_in_a],
    only_in_b: [...c.only_in_b],
    verdict: { ...c.verdict, withheld: withheldVerdict(c, a, b) },
    warnings: comparisonWarnings(c),
    notes: [methodsNote(c), ...fewPairsNotes(c)],
    settings: { ...c.settings },
  };
}

/**
 * What the report shows of the regressed rows' texts when some could not be read back: one run's texts
 * are shown when only the other's are missing (the expected text then marked against its output), so the
 * warning says which, where it said "without their texts" also when A's were there.
 */
export function textsShown(input: ComparisonReportInput): string {
  const rows = input.evaluators.flatMap((e) => e.worst);
  if (rows.some((w) => w.output_a !== null)) return "the report shows A's outputs and the expected text, and B's scores without its outputs";
  if (rows.some((w) => w.output_b !== null)) return "the report shows B's outputs and the expected text, and A's scores without its outputs";
  return "the report shows the rows' scores without their texts";
}

/**
 * Joins the comparison with the texts of the regressed rows, read back from each run's dataset file when
 * it still holds the bytes the run read, or, for a stored run not read from a dataset file, from the records
 * its rows were stored with. When it does not (missing, changed, or no dataset: a results.jsonl file, or a
 * stored run whose rows hold no records), those texts are null and `texts_unavailable` says why, once.
 */
export async function comparisonReportInput(c: Comparison, a: LoadedRun, b: LoadedRun): Promise<ComparisonReportInput> {
  const label = (r: LoadedRun): RunLabel => ({
    id: r.info?.id ?? r.label,
    name: r.info?.name ?? r.label,
    started_at: r.info?.started_at ?? "",
    // A results.jsonl file records no dataset (""); a stored run not read from a dataset file has none (null).
    dataset_path: r.info ? r.info.dataset_path : "",
    dataset_hash: r.info ? r.info.dataset_hash : "",
  });
  const [datasetA, datasetB] = datasetTexts(a, b);
  // Each run's texts for every evaluator's worst rows, in one read of its dataset (or stored rows), one for both on one file.
  // Paired by key, a row's number in B is its own (row_b).
  const worstRows = (rowOf: (w: WorstRow) => number) => c.evaluators.map((e) => new Set(e.worst.map(rowOf)));
  const asks = (r: LoadedRun, rows: Set<number>[]) => c.evaluators.map((e, i) => ({ spec: specOf(r, e.name), rows: rows[i]! }));
  const [asksA, asksB] = [asks(a, worstRows((w) => w.row)), asks(b, worstRows((w) => w.row_b ?? w.row))];
  const n = c.evaluators.length;
  const [allTextsA, allTextsB] =
    datasetA === datasetB
      ? await datasetA.textsOf([...asksA, ...asksB]).then((all) => [all.slice(0, n), all.slice(n)])
      : [await datasetA.textsOf(asksA), await datasetB.textsOf(asksB)];
  const evaluators = [];
  for (const [i, e] of c.evaluators.entries()) {
    const specA = specOf(a, e.name);
    const textsA = allTextsA?.[i] ?? null;
    const textsB = allTextsB?.[i] ?? null;
    const type = a.types[e.name] ?? b.types[e.name] ?? "";
    evaluators.push({
      name: e.name,
      type,
      direction: e.direction,
      n_pairs: e.n_pairs,
      mean_a: e.mean_a,
      mean_b: e.mean_b,
      diff: e.diff,
      ci: e.ci ? ([e.ci.low, e.ci.high] as [number, number]) : null,
      p_value: e.p_value,
      better: e.better === "same" ? null : e.better,
      significant: e.significant,
      improved: e.rows.improved,
      regressed: e.rows.regressed,
      unchanged: e.rows.unchanged,
      highlight: highlightFor(type, specA?.config),
      worst: e.worst.map((w) => ({
        ...w,
        expected: textsA || textsB ? (textsA?.get(w.row)?.expected ?? textsB?.get(w.row_b ?? w.row)?.expected ?? "") : null,
        output_a: textsA ? (textsA.get(w.row)?.output ?? "") : null,
        output_b: textsB ? (textsB.get(w.row_b ?? w.row)?.output ?? "") : null,
      })),
    });
  }
  const warnings = [...comparisonWarnings(c), ...fewPairsNotes(c)];
  const input: ComparisonReportInput = { a: label(a), b: label(b), evaluators, confidence: 1 - c.settings.alpha, methods: methodsNote(c), warnings };
  if (c.only_in_a.length) input.only_in_a = [...c.only_in_a];
  if (c.only_in_b.length) input.only_in_b = [...c.only_in_b];
  // Only when some texts were asked for: a comparison without regressed rows reads no dataset.
  if (c.evaluators.some((e) => e.worst.length)) {
    const problems = await Promise.all([...new Set([datasetA, datasetB])].map((d) => d.unavailable()));
    const unavailable = problems.filter((p): p is string => p !== null);
    if (unavailable.length) input.texts_unavailable = unavailable;
  }
  return input;
}

/**
 * Each run's dataset texts. Two runs that recorded the same file with the same hash share one reader,
 * so the file is hashed once and a problem with it is said once (of "A and B"). Runs not read from a dataset
 * file share none: each one's texts are the records its own rows were stored with.
 */
function datasetTexts(a: LoadedRun, b: LoadedRun): [DatasetTexts, DatasetTexts] {
  const recorded = (r: LoadedRun): RecordedDataset | null => (r.info ? { path: r.info.dataset_path, sha256: r.info.dataset_hash } : null);
  const da = recorded(a);
  const db = recorded(b);
  if (da && db && da.path !== null && da.path === db.path && da.sha256 === db.sha256) {
    const both = new DatasetTexts(da, "A and B");
    return [both, both];
  }
  return [new DatasetTexts(da, a.info ? "A" : sideLabel("A", a), a.stored), new DatasetTexts(db, b.info ? "B" : sideLabel("B", b), b.stored)];
}
