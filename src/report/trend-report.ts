/** The HTML report of evaluator means across recorded runs: one line chart per evaluator and a table. */
import { escapeHtml, escapeText, nameText } from "./escape.js";
import { checkReportInput } from "./check-input.js";
import { MISSING, formatThreshold, formatTime, htmlFigure } from "./format.js";
import { NARROW_CHART_WIDTH, cell, deltaHtml, evaluatorNav, renderPage, responsiveChart, scrollBox, slug } from "./html-page.js";
import { renderLineChartSvg, type LinePoint } from "./line-chart-svg.js";
import { directionText } from "./run-report.js";
import type { TrendReportInput, TrendSeries } from "./types.js";

/**
 * Renders each evaluator's mean over the runs (oldest first) as its own line chart, since the
 * evaluators' scales differ (similarities in [0, 1], edit counts unbounded), followed by a table
 * of every value. A run where an evaluator is missing leaves a gap in its line. An input that is not a
 * {@link TrendReportInput} (nothing, `{}`) throws INPUT_INVALID naming the field.
 */
export function renderTrendReport(input: TrendReportInput): string {
  checkReportInput("renderTrendReport", "a trend report's input ({ runs, series })", input,
    { runs: "array", series: "array" },
    { warnings: "array", title: "string", generated_at: "string" });
  const title = input.title ?? "simeval trend";
  const runs = input.runs;
  const first = runs[0];
  const last = runs[runs.length - 1];
  const span = first && last ? `${escapeHtml(formatTime(first.started_at))} – ${escapeHtml(formatTime(last.started_at))}` : MISSING;
  const header =
    `<header class="card"><div class="eyebrow">simeval · trend</div><h1>${escapeText(title)}</h1><dl class="meta">` +
    `<div><dt>Runs</dt><dd>${runs.length}</dd></div><div class="wide"><dt>From – to</dt><dd>${span}</dd></div></dl>` +
    (input.warnings ?? []).map((w) => `<div class="warnbox">⚠ ${escapeText(w)}</div>`).join("") +
    `${evaluatorNav(input.series.map((s) => s.name))}</header>`;
  const charts = input.series.map((s, i) => renderSeries(input, s, slug(s.name, i)));
  return renderPage(title, [header, ...charts, renderTable(input)].join("\n"), input.generated_at);
}

/** What a run in which an evaluator scored no row shows for it, apart from the dash of a run without it. */
export const NO_ROW_SCORED = "no row scored";

function runLabel(run: TrendReportInput["runs"][number]): string {
  return run.name ?? formatTime(run.started_at).slice(0, 16);
}

function renderSeries(input: TrendReportInput, s: TrendSeries, id: string): string {
  const points: LinePoint[] = input.runs.map((run, i) => ({
    label: runLabel(run),
    detail: `#${i + 1} ${run.name ?? run.id} · ${formatTime(run.started_at)}`,
    value: s.means[i] ?? null,
    // As the table of runs tells them apart: an evaluator that scored no row in the run, or one the run does not have.
    none: s.unscored?.[i] ? NO_ROW_SCORED : "not in this run",
  }));
  // The runs with a mean, in order; the latest two give the change. It is "since the previous run" only when
  // the latest run has this evaluator and the run before it does too; otherwise (runs without it between, or
  // it is not in the latest run) the change is named by the run it is measured from.
  const at = s.means.flatMap((m, i) => (m === null || m === undefined ? [] : [i]));
  const latestAt = at[at.length - 1] ?? -1;
  const previousAt = at[at.length - 2] ?? -1;
  const latest = s.means[latestAt] ?? undefined;
  const previous = s.means[previousAt] ?? undefined;
  let change = "";
  if (latest !== undefined && previous !== undefined) {
    const d = latest - previous;
    const from = input.runs[previousAt];
    const since = (latestAt === input.runs.length - 1 && previousAt === latestAt - 1) || from === undefined ? "the previous run" : escapeText(from.name ?? from.id);
    change = `<span>since ${since} ${deltaHtml(d, s.direction, "b")}</span>`;
  }
  const options = { direction: s.direction, threshold: s.threshold, title: `Mean ${s.name} per run`, yLabel: "mean" };
  const chart = at.length
    ? responsiveChart(renderLineChartSvg(points, options), renderLineChartSvg(points, { ...options, width: NARROW_CHART_WIDTH, height: 200 }))
    : `<p class="empty-state">No run has a mean for this evaluator.</p>`;
  // An evaluator the latest run does not have (removed or renamed since): its last mean is not the latest run's.
  const lastRun = input.runs[latestAt];
  const stale = lastRun !== undefined && latestAt < input.runs.length - 1;
  // The latest run has the evaluator but it scored no row (a mapping that matched nothing): broken, not removed.
  const unscoredLast = s.unscored?.[input.runs.length - 1] === true;
  const latestText = stale
    ? `${unscoredLast ? NO_ROW_SCORED : "not"} in the latest run; last mean <b>${htmlFigure(latest ?? null)}</b> in ${escapeText(lastRun.name ?? lastRun.id)} (${escapeHtml(formatTime(lastRun.started_at))})`
    : `latest mean <b>${htmlFigure(latest ?? null)}</b>`;
  return (
    `<section class="card evaluator" id="${id}"><div class="ev-head"><h2>${nameText(s.name)}</h2>` +
    `<span class="muted mono">${escapeText(s.type)} · ${directionText(s.direction)}${s.threshold === null ? "" : ` · threshold ${formatThreshold(s.threshold, s.direction)}`}</span></div>` +
    `<div class="stats"><span>${latestText}</span>${change}</div>${chart}</section>`
  );
}

/**
 * The most evaluators whose columns the table of runs fits on a printed page (A4 or Letter) side by side; with more it
 * is printed as on a phone, a block per run (`print-stack`), since a page, unlike a screen, cannot scroll sideways.
 */
const PRINTED_EVALUATORS_MAX = 6;

/**
 * A run's start in the table of runs, "2024-05-01 12:30:05 UTC", which may wrap between the date and the time (each
 * kept whole): held on one line it was the table's widest column after the dataset's. Text that is not a time, as it is.
 */
function timeCell(iso: string): string {
  const text = formatTime(iso);
  const at = text.indexOf(" ");
  if (at < 0 || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/.test(text)) return escapeHtml(text);
  return `<span class="nw">${text.slice(0, at)}</span> <span class="nw">${text.slice(at + 1)}</span>`;
}

/**
 * The table of runs, one row each; with no run (a --name or --dataset that kept none) a sentence instead:
 * a table of bare column heads read as a page that failed to load its rows.
 *
 * It fits a 1280 px screen with six evaluators: a dataset path (`td.path`) and a run id (`.id`) break anywhere when a
 * part of them is too long for their column, and the start time wraps (see {@link timeCell}), where a path with a long
 * part between its separators, a 26-character id and a one-line time widened the table past the page, to scroll sideways;
 * so did a column of "no row scored", which wraps too (`td.wrap`).
 */
function renderTable(input: TrendReportInput): string {
  if (!input.runs.length) return `<section class="card"><h2>All runs</h2><p class="empty-state">No run to show.</p></section>`;
  const datasets = input.runs.some((r) => r.dataset_path !== undefined);
  // The run and its dataset are text: left-aligned (`left`) under their heads, where the table's right
  // alignment, meant for figures, set each name and path against the column's right edge.
  const head = [`<th scope="col">#</th>`, `<th scope="col" class="left">Run</th>`, `<th scope="col">Started</th>`, ...(datasets ? [`<th scope="col" class="name left">Dataset</th>`] : []), ...input.series.map((s) => `<th scope="col" class="name">${nameText(s.name)}</th>`)].join("");
  const rows = input.runs.map(
    (run, i) =>
      `<tr>${cell("#", `#${i + 1}`)}<th scope="row" class="name left">${nameText(run.name ?? run.id)}<span class="type id">${escapeText(run.id)}</span></th>${cell("Started", timeCell(run.started_at), "wrap")}` +
      (datasets ? cell("Dataset", nameText(run.dataset_path ?? ""), "name left path") : "") +
      input.series.map((s) => (s.unscored?.[i] ? cell(s.name, NO_ROW_SCORED, "wrap") : cell(s.name, htmlFigure(s.means[i] ?? null)))).join("") +
      `</tr>`,
  );
  const cls = input.series.length > PRINTED_EVALUATORS_MAX ? "stack print-stack" : "stack";
  return `<section class="card"><h2>All runs</h2>${scrollBox("All runs", `<table class="${cls}"><thead><tr>${head}</tr></thead><tbody>${rows.join("")}</tbody></table>`)}</section>`;
}
