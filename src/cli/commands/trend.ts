import { basename } from "node:path";
import { scoreKeys, specDifferences } from "../../compare/spec-diff.js";
import type { EvaluatorSpec } from "../../evaluators/spec.js";
import { renderTrendReport } from "../../report/index.js";
import type { TrendReportInput } from "../../report/types.js";
import { NO_DATASET_CELL } from "../../report/format.js";
import { NO_ROW_SCORED } from "../../report/trend-report.js";
import { evaluatorSpec, type EvaluatorSummary, type RunInfo } from "../../run/types.js";
import { EXIT } from "../exit-codes.js";
import { formatFigure, forTerminal } from "../format.js";
import { warn, type CliIO } from "../io.js";
import { checkOutputPaths, databaseInputs, writeReportHearingStops } from "../output-file.js";
import { SAME_CONTENT_MARK, checkRunFilter, matchRuns, newest, noRunKept, sameContentNote, type RunFilterOptions } from "../run-filter.js";
import { terminalProgress } from "../progress.js";
import { watchInterrupts } from "../stop-signals.js";
import { renderTableBlocks, tableWidth } from "../table.js";
import { noDatabaseWarning, noRunsYet, recordedRunsIfAny } from "./recorded-runs.js";

/** One evaluator's means over the runs: an evaluator is its name and type, so a name given to two types is two series. */
interface Series {
  name: string;
  type: string;
  /** The column's title: the name, with the type when the name has several or is another's title (each title names one series). */
  title: string;
  /** Each run's summary of this evaluator, oldest run first; null when the run has none. */
  summaries: (EvaluatorSummary | null)[];
}

/**
 * `simeval trend`: each evaluator's mean over the recorded complete runs, oldest first; `--report` draws it.
 * `-n NAME` keeps the runs of that name; `--dataset PATH` keeps the runs recorded on PATH, and those whose
 * dataset's sha256 is that of the file at PATH (the same data in a moved or copied folder), marked as matched
 * by content; `--last N` keeps the newest N complete runs of those. Runs not read from a dataset file (a service's)
 * show "-" as their dataset, and count together as one dataset in the several-datasets warning. A table wider than the terminal (see
 * {@link tableWidth}) goes on in further tables, each beginning with the run and its start time.
 * Ctrl-C or SIGTERM while the report is drawn or written stops it (exit 130, or 143 for SIGTERM), saying so: one
 * before the write leaves the path as it was; one during it (heard once the write is done, its main thread busy)
 * lets the file be finished, so that no temporary file is left beside it.
 * `--json` prints what the table and the lines under it say as one JSON document ({@link trendJson}) instead; the
 * warnings go to stderr as well. With no complete run to show, it gives no runs (exit 0, as the text's message), as it
 * does when there is no run database at `opts.db` yet (creating none, as `runs` does, and warning of it); `--report` then writes a report
 * of no runs that says why.
 */
export async function trendCommand(opts: { db: string; report?: string; json?: boolean } & RunFilterOptions, io: CliIO): Promise<number> {
  if (opts.report) checkOutputPaths(databaseInputs(opts.db), [{ flag: "--report", path: opts.report }]);
  const checked = checkRunFilter(opts);
  const store = recordedRunsIfAny(opts.db);
  if (store === null) {
    // Warned of (a mistyped --db), in --json's warnings and the report's too, as the other warnings are.
    const warning = noDatabaseWarning(opts.db);
    warn(io, warning);
    return emptyTrend([noRunsYet(opts.db)], [], opts, io, [warning]);
  }
  try {
    const filter = await matchRuns(checked, io);
    const { dataset, byContent, keeps: kept } = filter;
    const isComplete = (r: RunInfo) => r.status === "complete" && r.summary !== null;
    const recorded = await store.listRuns();
    const complete = recorded.filter(isComplete);
    const matching = complete.filter(kept);
    const runs = newest(matching, filter.last).reverse();
    // The runs the filters keep that are not complete: left out, and said so, since a failed run is no point on the line;
    // when --last leaves older complete runs out, only those newer than the oldest run shown (the ones among the runs
    // shown, or after them). Oldest first, as the table lists the runs.
    const since = runs.length < matching.length ? recorded.indexOf(runs[0] as RunInfo) : recorded.length;
    const leftOutRuns = recorded.slice(0, since).filter((r) => kept(r) && !isComplete(r)).reverse();
    const leftOut = leftOutNote(leftOutRuns);
    if (!runs.length) {
      const none = complete.length && filter.described ? noRunKept("complete run", filter, complete.length, "`simeval runs` lists") : "No complete runs recorded yet.";
      return await emptyTrend([none, ...(leftOut ? [leftOut] : [])], leftOutRuns, opts, io);
    }
    const datasets = datasetCount(runs);
    const series = trendSeries(runs);
    // Runs kept by --dataset are on its file or its content: their paths may differ, their data does not.
    const moved = new Set(runs.filter(byContent).map((r) => r.id));
    const movedNote = moved.size ? sameContentNote(dataset ?? "") : null;
    const warnings = [
      ...(datasets > 1 && dataset === undefined
        ? [`these runs are on ${datasets} datasets${runs.some((r) => r.dataset_path === null) ? " (counting the runs not read from a dataset file as one)" : ""}, whose means need not be comparable; --dataset PATH keeps the runs on one`]
        : []),
      ...seriesWarnings(runs, series),
    ];
    for (const w of warnings) warn(io, w);
    const notes = [...(movedNote ? [movedNote] : []), ...(leftOut ? [leftOut] : [])];
    const cell = (s: Series, i: number) => (unscored(s, i) ? NO_ROW_SCORED : formatFigure(mean(s, i)));
    const label = datasetLabels(runs.flatMap((r) => (r.dataset_path === null ? [] : [r.dataset_path])));
    // A run's dataset as the table (`shown`: its short label) and the report (its path) give it, marked when matched by content.
    const datasetCell = (r: RunInfo, shown: (path: string) => string) => (r.dataset_path === null ? NO_DATASET_CELL : `${shown(r.dataset_path)}${moved.has(r.id) ? SAME_CONTENT_MARK : ""}`);
    if (opts.json) {
      io.stdout(JSON.stringify(trendJson({ runs, series, moved, warnings, notes, leftOut: leftOutRuns }), null, 2));
    } else {
      // Numbered as the report's table and chart number them: two runs of one name begun in the same second differ by it.
      const rows = runs.map((r, i) => [`#${i + 1}`, r.name ?? r.id, r.started_at.replace("T", " ").slice(0, 19), datasetCell(r, (path) => label.get(path) ?? path), ...series.map((s) => cell(s, i))]);
      io.stdout(renderTableBlocks(["#", "run", "started (UTC)", "dataset", ...series.map((s) => s.title)], rows, 3, tableWidth(io)));
      for (const note of notes) io.stdout(forTerminal(note));
    }
    if (!opts.report) return EXIT.ok;
    const drawn = series.map((s) => {
      const { direction, threshold } = latestSetting(s);
      return { name: s.title, type: s.type, direction, threshold, means: runs.map((_, i) => mean(s, i)), unscored: runs.map((_, i) => unscored(s, i)) };
    });
    const reportRuns = runs.map((r) => ({ id: r.id, name: r.name, started_at: r.started_at, dataset_path: datasetCell(r, (path) => path) }));
    return await writeTrendReport(opts.report, () => ({ runs: reportRuns, series: drawn, warnings: [...warnings, ...notes] }), opts.json === true, io);
  } finally {
    await store.close();
  }
}

/**
 * A trend with no complete run to show (or no run database yet): `notes` say why, as the text's lines or in `--json`'s
 * `notes` beside the runs left out, and `warnings` (said on stderr by the caller) are `--json`'s; `--report` is written all the same, with no runs and the notes in it, so that the
 * file asked for is there (a CI job that keeps it finds it).
 */
async function emptyTrend(notes: string[], leftOut: readonly RunInfo[], opts: { report?: string; json?: boolean }, io: CliIO, warnings: readonly string[] = []): Promise<number> {
  if (opts.json) io.stdout(JSON.stringify(trendJson({ runs: [], series: [], moved: new Set(), warnings, notes, leftOut }), null, 2));
  else for (const note of notes) io.stdout(forTerminal(note));
  return opts.report ? writeTrendReport(opts.report, () => ({ runs: [], series: [], warnings: [...warnings, ...notes] }), opts.json === true, io) : EXIT.ok;
}

/**
 * Draws the trend report (`input`, called once Ctrl-C is listened for) and writes it to `path`, hearing Ctrl-C and
 * SIGTERM as {@link trendCommand} says; resolves to the exit code. `json`: `Report: PATH` goes to stderr.
 */
async function writeTrendReport(path: string, input: () => TrendReportInput, json: boolean, io: CliIO): Promise<number> {
  const stop = watchInterrupts();
  const progress = terminalProgress(process.stderr, io.stderr);
  try {
    return (await writeReportHearingStops(path, renderTrendReport(input()), stop, progress, io, json)) ?? EXIT.ok;
  } finally {
    stop.dispose();
  }
}

/** Run `i`'s mean of series `s`: null where the run lacks the evaluator or it scored no row (see {@link unscored}). */
function mean(s: Series, i: number): number | null {
  return s.summaries[i]?.mean ?? null;
}

/** Whether run `i` has the evaluator of `s` but it scored no row there (every row skipped or an error): not a removed one's dash. */
function unscored(s: Series, i: number): boolean {
  return s.summaries[i] !== null && s.summaries[i] !== undefined && mean(s, i) === null;
}

/** A series' direction and threshold as its latest run that has it records them: the threshold the next run will be held to. */
function latestSetting(s: Series): { direction: EvaluatorSummary["direction"]; threshold: number | null } {
  const latest = [...s.summaries].reverse().find((x) => x !== null);
  return { direction: latest?.direction ?? "maximize", threshold: latest?.threshold ?? null };
}

/** One run in `trend --json`. */
interface TrendRunJson {
  id: string;
  name: string | null;
  started_at: string;
  /** The dataset file as recorded (absolute), and its sha256; both null for a run not read from a dataset file, as in `runs --json`. */
  dataset_path: string | null;
  dataset_hash: string | null;
  /** Kept by `--dataset` for its dataset's content, recorded at another path (the table's `(same content)`). */
  matched_by_content: boolean;
  /** Each evaluator's mean in this run, by its `title`, every evaluator listed: null where the run lacks it or it scored no row. */
  means: Record<string, number | null>;
  /** The titles of the evaluators the run has but that scored no row in it (the table's "no row scored", where a run without it shows "-"). */
  unscored: string[];
}

/**
 * What `simeval trend --json` prints: `{runs, evaluators, warnings, notes, left_out}`.
 * - `runs`: the runs the table shows, oldest first ({@link TrendRunJson}), each with every evaluator's mean.
 * - `evaluators`: the table's columns, `{title, name, type, direction, threshold}`: an evaluator is its name and type,
 *   and `title` (the key of `means`) is the name, with the type in brackets when the name has several or is another's title; its direction
 *   and threshold as the latest run that has it records them (the threshold the next run will be held to), as `--report` draws them.
 * - `warnings`: what the text warns of on stderr (several datasets, a name given to several types, settings that change scores).
 * - `notes`: the lines under the table (runs matched by content, runs left out), or, with no run to show, the text's message.
 * - `left_out`: the incomplete and still running runs the text says it left out (those the filters keep; with `--last`, those since the
 *   oldest run shown), oldest first, `{id, name, status, started_at}`: all of them, where the text names the newest 5 of each kind.
 * With no complete run to show, `runs` and `evaluators` are empty (exit 0, as the text's message is), as `runs --json` gives `[]`.
 * Means are full precision, as `runs --json` gives them, not rounded as in the table.
 */
export interface TrendJson {
  runs: TrendRunJson[];
  evaluators: { title: string; name: string; type: string; direction: EvaluatorSummary["direction"]; threshold: number | null }[];
  warnings: string[];
  notes: string[];
  left_out: { id: string; name: string | null; status: RunInfo["status"]; started_at: string }[];
}

/** The trend of `runs` (oldest first) as `trend --json` prints it: see {@link TrendJson}. `moved` holds the ids of the runs matched by content. */
function trendJson(t: { runs: readonly RunInfo[]; series: readonly Series[]; moved: ReadonlySet<string>; warnings: readonly string[]; notes: readonly string[]; leftOut: readonly RunInfo[] }): TrendJson {
  return {
    runs: t.runs.map((r, i) => ({
      id: r.id,
      name: r.name,
      started_at: r.started_at,
      dataset_path: r.dataset_path,
      dataset_hash: r.dataset_hash,
      matched_by_content: t.moved.has(r.id),
      means: Object.fromEntries(t.series.map((s) => [s.title, mean(s, i)])),
      unscored: t.series.filter((s) => unscored(s, i)).map((s) => s.title),
    })),
    evaluators: t.series.map((s) => ({ title: s.title, name: s.name, type: s.type, ...latestSetting(s) })),
    warnings: [...t.warnings],
    notes: [...t.notes],
    left_out: t.leftOut.map((r) => ({ id: r.id, name: r.name, status: r.status, started_at: r.started_at })),
  };
}

/**
 * Which of the runs a trend would show are left out as not complete (incomplete: interrupted, killed, or read
 * only up to a fault in its file; or still running), or null when none is. `runs` come oldest first, as the
 * table lists them, and are named in that order: the newest 5 of each kind, after how many older ones are not named.
 */
export function leftOutNote(runs: readonly RunInfo[]): string | null {
  if (!runs.length) return null;
  const names = (of: readonly RunInfo[]) => {
    const shown = of.slice(-5).map((r) => r.name ?? r.id);
    return `${of.length > shown.length ? `${of.length - shown.length} older, then ` : ""}${shown.join(", ")}`;
  };
  const running = runs.filter((r) => r.status === "running");
  const incomplete = runs.filter((r) => r.status !== "running");
  const parts = [
    ...(incomplete.length ? [`${incomplete.length} incomplete ${incomplete.length === 1 ? "run" : "runs"} (${names(incomplete)})`] : []),
    ...(running.length ? [`${running.length} ${running.length === 1 ? "run" : "runs"} still being recorded (${names(running)})`] : []),
  ];
  return `left out: ${parts.join(" and ")}; trend shows complete runs only (\`simeval show RUN\` prints one)`;
}

/**
 * How many datasets `runs` are on, for the several-datasets warning: runs on one path are on one dataset (a file
 * edited between runs is still the one the user means), and so are runs on one content (sha256) at several paths (a
 * CI runner whose checkout path changes between jobs), each joining the other's. Runs not read from a dataset file
 * (a service's, scoring traces) count as one more dataset, as their means need not be comparable with a file's either.
 */
export function datasetCount(runs: readonly Pick<RunInfo, "dataset_path" | "dataset_hash">[]): number {
  const parent = new Map<string, string>();
  const root = (k: string): string => {
    let r = k;
    for (let up = parent.get(r); up !== undefined && up !== r; up = parent.get(r)) r = up;
    return r;
  };
  const join = (a: string, b: string) => {
    for (const k of [a, b]) if (!parent.has(k)) parent.set(k, k);
    parent.set(root(a), root(b));
  };
  for (const r of runs) {
    // Keys of two kinds, a path's and a content's, that cannot be taken for each other.
    const path = `path ${r.dataset_path ?? ""}`;
    join(path, r.dataset_path !== null && r.dataset_hash ? `sha256 ${r.dataset_hash}` : path);
  }
  return new Set([...parent.keys()].filter((k) => k.startsWith("path ")).map(root)).size;
}

/**
 * How the table names each dataset: its file name, or its whole path when another of these datasets has
 * the same file name (a folder moved or copied), so that the runs the "several datasets" warning counts
 * can be told apart.
 */
export function datasetLabels(paths: readonly string[]): Map<string, string> {
  const distinct = [...new Set(paths)];
  const clash = (p: string) => distinct.some((o) => o !== p && basename(o) === basename(p));
  return new Map(distinct.map((p) => [p, clash(p) ? p : basename(p)]));
}

/** The runs' evaluators in order of first appearance, one series per name and type. */
export function trendSeries(runs: readonly RunInfo[]): Series[] {
  const byKey = new Map<string, Series>();
  runs.forEach((r, i) => {
    for (const e of r.summary?.evaluators ?? []) {
      const key = `${e.name}\u0000${e.type}`;
      let s = byKey.get(key);
      if (!s) byKey.set(key, (s = { name: e.name, type: e.type, title: e.name, summaries: runs.map(() => null) }));
      s.summaries[i] = e;
    }
  });
  const all = [...byKey.values()];
  const typed = (s: Series) => `${s.name} (${s.type})`;
  for (const s of all) if (all.some((o) => o !== s && o.name === s.name)) s.title = typed(s);
  // A name written as another's title (`x (levenshtein)` beside an `x` of two types) gets its type too, so titles stay keys;
  // again until none is shared, as a title so typed may be yet another's name (`x (levenshtein) (exact_match)`). Each pass
  // types at least one series not yet typed, and two typed titles never clash (one name and type is one series).
  for (;;) {
    const clashing = all.filter((s) => s.title !== typed(s) && all.some((o) => o !== s && o.title === s.title));
    if (!clashing.length) break;
    for (const s of clashing) s.title = typed(s);
  }
  return all;
}

/**
 * What makes a series' means hard to read as one line: a name given to several evaluator types (each has
 * a column of its own), and config or inputs that change scores and differ between the runs (the
 * threshold does not change a mean; see {@link scoreKeys}).
 */
export function seriesWarnings(runs: readonly RunInfo[], series: readonly Series[]): string[] {
  const out: string[] = [];
  for (const name of new Set(series.map((s) => s.name))) {
    const types = series.filter((s) => s.name === name).map((s) => s.type);
    if (types.length > 1) out.push(`${name} names different evaluators in these runs (${types.join(", ")}): each has a column of its own`);
  }
  for (const s of series) {
    const specs = runs.flatMap((r, i) => (s.summaries[i] ? [evaluatorSpec(r, s.name)] : [])).filter((x): x is EvaluatorSpec => x !== undefined);
    const keys = new Set(specs.slice(1).flatMap((spec) => scoreKeys(specDifferences(specs[0]!, spec))));
    if (keys.size) out.push(`${s.title}: its ${[...keys].join(", ")} ${keys.size === 1 ? "differs" : "differ"} between these runs, so its means may differ because of that; \`simeval compare\` names the values`);
  }
  // --count-skipped-as-zero averages skipped rows in as 0: such a run's means are not those of a run without it.
  const asZero = runs.filter((r) => r.summary?.skipped_as_zero).length;
  if (asZero > 0 && asZero < runs.length) {
    const others = runs.length - asZero === 1 ? "the other" : "the others";
    out.push(`${asZero} of these ${runs.length} runs counted skipped rows as 0 (--count-skipped-as-zero) and ${others} left them out, so their means may differ because of that, not the outputs`);
  }
  return out;
}
