/** The HTML report of one run: header, summary table, and per evaluator a histogram and its worst rows. */
import type { Direction } from "../types.js";
import type { EvaluatorSummary } from "../run/types.js";
import { highlightFor, scoreRange } from "./choose.js";
import { checkReportInput } from "./check-input.js";
import { escapeHtml, escapeText, nameText } from "./escape.js";
import { MISSING, NO_DATASET_TEXT, formatId, formatInt, formatPassRate, formatScore, formatThreshold, formatTime, htmlFigure, passRatePercent, rowErrorText } from "./format.js";
import { renderHistogramSvg } from "./histogram-svg.js";
import { NARROW_CHART_WIDTH, cell, chartLegend, diffLegend, evaluatorNav, renderPage, responsiveChart, scrollBox, slug, verdictBadge } from "./html-page.js";
import { reasoningHtml, renderDiffPanes, renderNotes, renderPanes, renderTokens } from "./row-card.js";
import { MAX_SHOWN_CHARS } from "./text-diff.js";
import type { HighlightOptions, RunReportEvaluator, RunReportInput, WorstRow } from "./types.js";

/**
 * Renders a run as one self-contained HTML file (inline CSS and SVG, no script, no network).
 * Every string from the run (names, paths, ids, outputs) is HTML-escaped. An input that is not a
 * {@link RunReportInput} (nothing, `{}`, `evaluators: 5`) throws INPUT_INVALID naming the field.
 */
export function renderRunReport(input: RunReportInput): string {
  checkReportInput("renderRunReport", "a run report's input ({ run, summary, evaluators })", input,
    { run: "object", summary: "object", evaluators: "array" },
    { row_errors: "array", warnings: "array", gates: "array", generated_at: "string" });
  const { run } = input;
  const sections = input.evaluators.map((ev, i) => renderEvaluator(ev, slug(ev.summary.name, i), input.summary.skipped_as_zero));
  const body = [renderHeader(input), renderSummaryTable(input), ...sections].join("\n");
  return renderPage(`${runTitle(run)} · simeval run report`, body, input.generated_at);
}

function renderHeader(input: RunReportInput): string {
  const { run, summary } = input;
  const item = (label: string, html: string, cls = ""): string => `<div${cls ? ` class="${cls}"` : ""}><dt>${label}</dt><dd>${html}</dd></div>`;
  const status =
    run.status === "complete" ? `<span class="badge pass">✓ complete</span>` : `<span class="badge warn">${escapeHtml(run.status)}</span>`;
  const errors = input.row_errors?.length
    ? `<h2>Rows that could not be read</h2><ul class="sub">${input.row_errors
        .map((e) => `<li>${escapeText(rowErrorText(e))}</li>`)
        .join("")}</ul>${input.row_errors.length < summary.row_errors ? `<p class="sub">and ${formatInt(summary.row_errors - input.row_errors.length)} more</p>` : ""}`
    : "";
  const warnings = (input.warnings ?? []).map((w) => `<div class="warnbox">⚠ ${escapeText(w)}</div>`).join("");
  // The gates, failed first: a reader of the report sees whether the run passed what CI held it to.
  const gates = [...(input.gates ?? [])].sort((a, b) => Number(a.passed) - Number(b.passed));
  const failed = gates.filter((g) => !g.passed).length;
  const gateList = gates.length
    ? `<h2>Gates</h2><ul class="sub gates">${gates
        .map((g) => `<li>${g.passed ? `<span class="badge pass">✓ passed</span>` : `<span class="badge fail">✗ failed</span>`} ${escapeText(withoutOutcome(g))}</li>`)
        .join("")}</ul>`
    : "";
  return (
    `<header class="card"><div class="eyebrow">simeval · run report</div><h1>${escapeText(runTitle(run))}</h1><dl class="meta">` +
    item("Run id", `<code>${escapeText(run.id)}</code>`) +
    item("Started", escapeHtml(formatTime(run.started_at))) +
    item("Finished", escapeHtml(formatTime(run.finished_at))) +
    item("Status", status) +
    item("Rows", formatInt(summary.rows)) +
    item("Row errors", summary.row_errors === 0 ? "0" : `<span class="badge warn">⚠ ${formatInt(summary.row_errors)}</span>`) +
    (gates.length
      ? item("Gates", failed ? `<span class="badge fail">✗ ${failed} of ${gates.length} failed</span>` : `<span class="badge pass">✓ ${gates.length === 1 ? "passed" : `all ${gates.length} passed`}</span>`)
      : "") +
    item(
      "Dataset",
      run.dataset_path === null
        ? NO_DATASET_HTML
        : `<code>${escapeText(run.dataset_path)}</code><br><span class="muted mono" title="sha256 of the dataset file">sha256 ${escapeHtml(run.dataset_hash ?? "")}</span>`,
      "wide",
    ) +
    `</dl>${warnings}${gateList}${errors}${evaluatorNav(input.evaluators.map((ev) => ev.summary.name))}</header>`
  );
}

/** The Dataset item of a run (or comparison side) not read from a dataset file (a service's, scoring traces): `RunInfo.dataset_path` null. */
export const NO_DATASET_HTML = `<span class="muted">${NO_DATASET_TEXT}</span>`;

function runTitle(run: RunReportInput["run"]): string {
  return run.name ?? `Run ${run.id}`;
}

/** "↑ higher is better" / "↓ lower is better". */
export function directionText(direction: Direction): string {
  return direction === "maximize" ? "↑ higher is better" : "↓ lower is better";
}

function renderSummaryTable(input: RunReportInput): string {
  const columns = ["Evaluator", "n", "skipped", "errors", "mean", "median", "p10", "p90", "min", "max", "pass rate"];
  const head = columns.map((h) => `<th scope="col">${h}</th>`).join("");
  const rows = input.evaluators.map((ev, i) => {
    const s = ev.summary;
    // Summary figures as the command line prints them (htmlFigure), so that the report and the gates agree.
    return (
      `<tr><th scope="row" class="name"><a href="#${slug(s.name, i)}">${nameText(s.name)}</a><span class="type">${nameText(s.type)} · ${directionText(s.direction)}</span></th>` +
      [
        formatInt(s.n),
        formatInt(s.skipped),
        s.errors ? `<span class="badge warn">${formatInt(s.errors)}</span>` : "0",
        `<b>${htmlFigure(s.mean)}</b>`,
        ...[s.median, s.p10, s.p90, s.min, s.max].map(htmlFigure),
        passRate(s),
      ]
        .map((html, c) => cell(columns[c + 1] ?? "", html))
        .join("") +
      `</tr>`
    );
  });
  return (
    `<section class="card"><h2>Summary</h2><p class="sub">${skippedNote(input.summary.skipped_as_zero)}</p>` +
    `${scrollBox("Summary", `<table class="stack"><thead><tr>${head}</tr></thead><tbody>${rows.join("")}</tbody></table>`)}</section>`
  );
}

/**
 * A gate's message without the outcome its badge says already: `--fail-under lev=0.8: failed, mean 0.7 < 0.8`
 * read "✗ failed --fail-under lev=0.8: failed, …". Messages of another form (an interruption) are kept whole.
 */
function withoutOutcome(g: { name: string; passed: boolean; message: string }): string {
  const said = `${g.name}: ${g.passed ? "passed" : "failed"}, `;
  return g.message.startsWith(said) ? `${g.name}: ${g.message.slice(said.length)}` : g.message;
}

/**
 * How skipped rows and errors entered the figures; with `--count-skipped-as-zero`, as the summary
 * counts skipped rows: a failed verdict, and a score of 0 only where 0 is the worst score.
 */
function skippedNote(skippedAsZero: boolean): string {
  if (!skippedAsZero) return "Skipped rows and errors are counted apart and never averaged in.";
  return "Skipped rows (no expected output) were counted as failed, and as score 0 where higher is better (<code>--count-skipped-as-zero</code>); errors are counted apart and never averaged in.";
}

/**
 * The pass rate with a bar (its length, not only its colour, carries the value) and the verdict count. The
 * figure is set in a box of its own width (`.pct`, see the CSS) so that each row's bar starts at the same place:
 * right-aligned, a wider figure ("100.0%" under "68.7%") pushed its row's bar left of the others.
 */
function passRate(s: EvaluatorSummary): string {
  if (s.pass_rate === null) return `<span class="muted" title="no threshold, so no verdicts">${MISSING}</span>`;
  const pct = passRatePercent(s) ?? 0;
  return (
    `<span class="rate" title="${formatInt(Math.round(s.pass_rate * s.verdicts))} of ${formatInt(s.verdicts)} rows with a verdict passed">` +
    `<span class="track"><span class="fill" style="width:${pct}%"></span></span><span class="pct">${formatPassRate(s)}</span></span>`
  );
}

/**
 * How many of an evaluator's figures are zeros given to skipped rows: with `--count-skipped-as-zero`, each
 * skipped row of an evaluator where higher is better (its skipped result scores 0); none otherwise.
 */
function skippedZeros(s: EvaluatorSummary, skippedAsZero: boolean): number {
  return skippedAsZero && s.direction === "maximize" ? s.skipped : 0;
}

function renderEvaluator(ev: RunReportEvaluator, id: string, skippedAsZero: boolean): string {
  const s = ev.summary;
  // `n` counts the zeros given to skipped rows: the rows scored are the others, and the skipped ones say how they counted.
  const zeros = skippedZeros(s, skippedAsZero);
  const threshold = s.threshold === null ? "no threshold" : `threshold ${formatThreshold(s.threshold, s.direction)}`;
  const stat = (label: string, v: string): string => `<span>${label} <b>${v}</b></span>`;
  const histogram = ev.histogram;
  const options = {
    id,
    direction: s.direction,
    threshold: s.threshold,
    mean: s.mean,
    xLabel: s.direction === "minimize" ? "edit distance (lower is better)" : "score",
    title: `${s.name} scores`,
    range: scoreRange(s),
  };
  const chart =
    histogram && histogram.counts.length > 0
      ? `<figure style="margin:0">${responsiveChart(
          renderHistogramSvg(histogram, options),
          renderHistogramSvg(histogram, { ...options, id: `${id}-narrow`, width: NARROW_CHART_WIDTH, height: 220 }),
        )}${chartLegend(s.threshold !== null, s.mean !== null)}</figure>`
      : `<p class="empty-state">No row was scored, so there is nothing to chart.</p>`;
  const highlight = ev.highlight ?? highlightFor(s.type);
  const best = s.direction === "maximize" ? 1 : 0;
  // A row with the best score has nothing to show: when every row has it (the worst has it), a 13,000-pixel page of them said nothing.
  const shown = ev.worst.filter((w) => w.score === null || (s.direction === "maximize" ? w.score < best : w.score > best));
  const worst = shown.length
    ? `<h3>Worst rows</h3>${diffLegend(highlight)}${shown.map((w) => renderWorstRow(w, s.direction, s.threshold, highlight)).join("")}`
    : ev.worst.length
      ? `<h3>Worst rows</h3><p class="empty-state">${allBestText(s, best)}</p>`
      : "";
  return (
    `<section class="card evaluator" id="${id}"><div class="ev-head"><h2>${nameText(s.name)}</h2>` +
    `<span class="muted mono">${escapeText(s.type)} · ${directionText(s.direction)} · ${threshold}</span></div>` +
    `<div class="stats">${stat("scored", formatInt(s.n - zeros))}${stat("mean", htmlFigure(s.mean))}${stat("median", htmlFigure(s.median))}` +
    `${stat("p10", htmlFigure(s.p10))}${stat("p90", htmlFigure(s.p90))}${stat("pass rate", formatPassRate(s))}` +
    `${s.skipped ? stat(zeros ? "skipped, counted as 0" : "skipped", formatInt(s.skipped)) : ""}${s.errors ? stat("errors", formatInt(s.errors)) : ""}</div>` +
    `${chart}${worst}</section>`
  );
}

function renderWorstRow(w: WorstRow, direction: Direction, threshold: number | null, highlight: HighlightOptions): string {
  const id = formatId(w.id);
  const { panes, notes } = renderDiffPanes(w.expected, w.output, highlight, w.tokens);
  return (
    `<div class="row worst-row" data-row="${w.row}"><div class="row-head"><b>Row ${w.row}</b>` +
    `${id ? `<span class="muted">id <code>${escapeText(id)}</code></span>` : ""}` +
    `<span class="score">score ${formatScore(w.score, direction, threshold)}</span>${verdictBadge(w.passed)}` +
    // A reasoning may quote tokens (tfidf_similarity's top terms), which may be huge: cut like the texts.
    `${w.reasoning ? `<span class="reason">${reasoningHtml(w.reasoning, MAX_SHOWN_CHARS)}</span>` : ""}</div>` +
    `${renderPanes(panes)}${w.tokens ? renderTokens(w.tokens) : ""}${renderNotes(notes)}</div>`
  );
}

/**
 * Says that every scored row has the best score, so there is no worst row: "every row" only when none was skipped or
 * failed, since a row skipped or failed (its count in the summary) did not score 1 and is not among the worst rows.
 */
function allBestText(s: EvaluatorSummary, best: number): string {
  const unscored = [s.skipped ? `${formatInt(s.skipped)} skipped` : "", s.errors ? `${formatInt(s.errors)} failed` : ""].filter(Boolean);
  return unscored.length
    ? `Every scored row has ${best}, the best score (${unscored.join(" and ")}, not scored): there is no worse row to show.`
    : `Every row scored ${best}, the best score: there is no worse row to show.`;
}
