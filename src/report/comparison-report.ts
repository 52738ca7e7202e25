/** The HTML report comparing two runs: per evaluator both means, the difference with its CI, and the rows that regressed most. */
import type { Direction } from "../types.js";
import { highlightFor } from "./choose.js";
import { checkReportInput } from "./check-input.js";
import { escapeHtml, escapeText, nameText, userText } from "./escape.js";
import { formatId, formatInt, formatLevel, formatP, formatTime, htmlFigure, htmlSignedFigure } from "./format.js";
import { cell, changeKind, deltaHtml, diffLegend, renderPage, scrollBox, slug } from "./html-page.js";
import { renderNotes, renderPanes, type Pane } from "./row-card.js";
import { NO_DATASET_HTML, directionText } from "./run-report.js";
import { MAX_SHOWN_CHARS, alignTexts, segmentsToHtml, type AlignedTexts } from "./text-diff.js";
import type { ComparisonEvaluator, ComparisonReportInput, ComparisonRow, HighlightOptions, RunLabel } from "./types.js";

/**
 * Renders two runs side by side as one self-contained HTML file. Run A is the run compared against (not
 * necessarily the one `simeval baseline set` marked, so not called the baseline) and B the candidate: "improved" and "regressed" are B relative to A, in each evaluator's direction. An input
 * that is not a {@link ComparisonReportInput} (nothing, `{}`) throws INPUT_INVALID naming the field.
 */
export function renderComparisonReport(input: ComparisonReportInput): string {
  checkReportInput("renderComparisonReport", "a comparison report's input ({ a, b, evaluators })", input,
    { a: "object", b: "object", evaluators: "array" },
    { confidence: "number", methods: "string", warnings: "array", texts_unavailable: "array", only_in_a: "array", only_in_b: "array", generated_at: "string" });
  const title = `${label(input.a)} → ${label(input.b)}`;
  const body = [
    renderHeader(input),
    renderTable(input),
    ...input.evaluators.map((ev, i) => (ev.worst.length ? renderWorst(ev, slug(ev.name, i)) : "")),
  ].join("\n");
  return renderPage(`${title} · simeval comparison`, body, input.generated_at);
}

/**
 * One sentence for every dataset whose texts could not be read back, e.g.
 * `texts unavailable: the dataset of A (/data/a.jsonl) is missing`: the report's note and the CLI's warning.
 */
export function textsUnavailableNote(reasons: readonly string[]): string {
  return `texts unavailable: ${reasons.join("; ")}`;
}

function label(run: RunLabel): string {
  return run.name ?? run.id;
}

function renderHeader(input: ComparisonReportInput): string {
  const side = (tag: string, run: RunLabel): string =>
    `<div><dt>${tag}</dt><dd>${escapeText(label(run))}<br><span class="muted mono">${escapeText(run.id)}</span><br><span class="sub">${escapeHtml(formatTime(run.started_at))}</span></dd></div>`;
  const sameData = input.a.dataset_hash === input.b.dataset_hash;
  const datasetSide = (tag: string, run: RunLabel): string =>
    `<div class="wide"><dt>${tag}</dt><dd>${
      run.dataset_path === null ? NO_DATASET_HTML : `<code>${escapeText(run.dataset_path)}</code><br><span class="muted mono">sha256 ${escapeHtml(run.dataset_hash ?? "")}</span>`
    }</dd></div>`;
  // Each prompt variant's outputs in a file of its own is the usual workflow: different files are shown, not warned about.
  const dataset = sameData ? datasetSide("Dataset", input.b) : datasetSide("Dataset A", input.a) + datasetSide("Dataset B", input.b);
  const notes = [...(input.warnings ?? []), ...(input.texts_unavailable?.length ? [textsUnavailableNote(input.texts_unavailable)] : [])];
  const warning = notes.map((w) => `<div class="warnbox">⚠ ${escapeText(w)}</div>`).join("");
  return (
    `<header class="card"><div class="eyebrow">simeval · comparison</div><h1>${userText(label(input.a))} → ${userText(label(input.b))}</h1>` +
    `<dl class="meta">${side("A · compared against", input.a)}${side("B · candidate", input.b)}${dataset}</dl>${warning}</header>`
  );
}

function renderTable(input: ComparisonReportInput): string {
  const level = formatLevel(input.confidence ?? 0.95);
  // The level p is judged at, as the comparison had it (1 - 0.99 is 0.010000000000000009 in floating point).
  const alpha = Number((1 - (input.confidence ?? 0.95)).toPrecision(12));
  // A non-breaking hyphen (U+2011): the narrow column broke its header in two, "P-" over "VALUE".
  const columns = ["Evaluator", "pairs", "mean A → B", `B − A · ${level} CI`, "p\u2011value", "verdict", "rows ▲ ▼ ="];
  const head = columns.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join("");
  const [, pairs = "", means = "", diff = "", p = "", verdictLabel = "", moves = ""] = columns;
  const rows = input.evaluators.map((ev) => {
    const d = ev.direction;
    const ci = ev.ci ? `<span class="ci">${htmlSignedFigure(ev.ci[0])} … ${htmlSignedFigure(ev.ci[1])}</span>` : `<span class="ci">no CI</span>`;
    return (
      `<tr class="cmp" data-evaluator="${escapeHtml(ev.name)}"><th scope="row" class="name">${nameText(ev.name)}<span class="type" title="${directionText(d)}">${nameText(ev.type)} ${d === "maximize" ? "↑" : "↓"}</span></th>` +
      cell(pairs, formatInt(ev.n_pairs)) +
      cell(means, `<span class="mean-a">${htmlFigure(ev.mean_a)}</span> → <b class="mean-b">${htmlFigure(ev.mean_b)}</b>`) +
      // The chart and the figures side by side in a flex box: a floated chart left the table unaware of
      // its width, and a long interval ("−25.5069 … −21.0476") ran out of the cell into the p-value.
      cell(diff, `<div class="diff-cell">${ciSvg(ev, level)}<div>${deltaHtml(ev.diff, d)}${ci}</div></div>`, "diff") +
      // Digits enough that p never reads across the comparison's own level (0.009995 at alpha 0.01 is not "0.0100").
      cell(p, escapeHtml(formatP(ev.p_value, alpha))) +
      cell(verdictLabel, verdict(ev)) +
      cell(
        moves,
        `<span data-improved="${ev.improved}" title="improved">▲ ${formatInt(ev.improved)}</span> ` +
          `<span data-regressed="${ev.regressed}" title="regressed">▼ ${formatInt(ev.regressed)}</span> ` +
          `<span data-unchanged="${ev.unchanged}" title="unchanged">= ${formatInt(ev.unchanged)}</span>`,
        "moves",
      ) +
      `</tr>`
    );
  });
  return (
    `<section class="card"><h2>Summary</h2><p class="sub">B − A over the rows scored in both runs; improved and regressed count rows that moved in the evaluator's direction.</p>` +
    `${scrollBox("Summary", `<table class="stack"><thead><tr>${head}</tr></thead><tbody>${rows.join("")}</tbody></table>`)}` +
    `${input.methods ? `<p class="sub methods">${escapeText(input.methods)}</p>` : ""}` +
    notCompared(input) +
    `</section>`
  );
}

/**
 * The verdict cell, in the words of `simeval compare`'s last column: "neither (CI holds 0)" whenever the interval
 * holds 0, whatever p (where it read "not significant" for p ≥ the level, unlike the terminal); the run the
 * interval favours with "(not significant)" when p is not below the level; else B better or worse.
 */
function verdict(ev: ComparisonEvaluator): string {
  if (ev.n_pairs === 0) return `<span class="badge none" title="no row has a score in both runs">no pairs: no verdict</span>`;
  // The interval holds 0: no run is called better, whether p agrees (not significant) or not (p < alpha).
  if (ev.better === null) {
    const why = ev.significant ? "p is below the level, but the confidence interval holds 0" : "the confidence interval holds 0, and the difference is not significant";
    return `<span class="badge none" title="${why}">= neither (CI holds 0)</span>`;
  }
  const favoured = ev.better.toUpperCase();
  if (!ev.significant) return `<span class="badge none" title="the interval favours ${favoured}, but the difference is not significant">= ${favoured} (not significant)</span>`;
  return ev.better === "b" ? `<span class="badge pass">▲ B better</span>` : `<span class="badge fail">▼ B worse</span>`;
}

/**
 * The difference and its CI on a small axis centred on zero, so "does the interval cross 0" reads at a
 * glance; each evaluator gets its own scale (the units differ).
 */
function ciSvg(ev: ComparisonEvaluator, level: string): string {
  if (ev.diff === null) return "";
  const w = 100;
  const h = 22;
  const ext = Math.max(Math.abs(ev.diff), ...(ev.ci ? ev.ci.map(Math.abs) : [])) * 1.15 || 1;
  const x = (v: number): number => Math.round((w / 2 + (v / ext) * (w / 2 - 6)) * 10) / 10;
  const cls = changeKind(ev.diff, ev.direction);
  const interval = ev.ci ? `<line class="ci-bar" x1="${x(ev.ci[0])}" x2="${x(ev.ci[1])}" y1="11" y2="11"/>` : "";
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="ci-chart" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${escapeHtml(ciLabel(ev, level))}">` +
    `<line class="zero" x1="${w / 2}" x2="${w / 2}" y1="2" y2="20"/>${interval}<circle class="ci-dot ${cls}" cx="${x(ev.diff)}" cy="11" r="4"/></svg>`
  );
}

/** The CI chart's text: "B − A −0.1000, worse, 95% CI −0.1500 … −0.0500", as the cell beside it prints them. */
function ciLabel(ev: ComparisonEvaluator, level: string): string {
  const ci = ev.ci ? `${level} CI ${htmlSignedFigure(ev.ci[0])} … ${htmlSignedFigure(ev.ci[1])}` : "no CI";
  const kind = ev.diff === null ? "" : changeKind(ev.diff, ev.direction);
  const way = kind ? `, ${kind}` : "";
  return `B − A ${htmlSignedFigure(ev.diff)}${way}, ${ci}`;
}

function renderWorst(ev: ComparisonEvaluator, id: string): string {
  const highlight = ev.highlight ?? highlightFor(ev.type);
  return (
    `<section class="card evaluator" id="${id}"><div class="ev-head"><h2><bdi>${nameText(ev.name)}</bdi>: rows that regressed most</h2>` +
    `<span class="muted mono">${escapeText(ev.type)} · ${directionText(ev.direction)}</span></div>${diffLegend(highlight)}` +
    ev.worst.map((row) => renderRow(row, ev.direction, highlight)).join("") +
    `</section>`
  );
}

/**
 * The expected text's pane, marked against B's output, or against A's when B's text is unavailable (its dataset
 * missing or changed): marked against no text, the whole expected text read as missing from B's output. With
 * neither output at hand it is shown unmarked.
 */
function expectedPane(row: ComparisonRow, vsA: AlignedTexts, vsB: AlignedTexts, pane: (title: string, text: string | null, html: string) => Pane): Pane {
  if (row.output_b !== null) return pane("Expected (marked vs B)", row.expected, segmentsToHtml(vsB.expected, "missing"));
  if (row.output_a !== null) return pane("Expected (marked vs A)", row.expected, segmentsToHtml(vsA.expected, "missing"));
  return pane("Expected", row.expected, segmentsToHtml(vsB.expected.map((s) => ({ ...s, changed: false })), "missing"));
}

function renderRow(row: ComparisonRow, direction: Direction, highlight: HighlightOptions): string {
  const id = formatId(row.id);
  // The expected text is marked against B (the candidate, which regressed); each output against the expected text.
  let vsB = alignTexts(row.expected ?? "", row.output_b ?? "", highlight);
  let vsA = alignTexts(row.expected ?? "", row.output_a ?? "", highlight);
  // The three panes start at the same character: a shared start left out is the shorter one of the two pairs.
  if (vsA.skipped !== vsB.skipped) {
    const limit = Math.min(vsA.skipped, vsB.skipped);
    vsB = alignTexts(row.expected ?? "", row.output_b ?? "", highlight, MAX_SHOWN_CHARS, undefined, limit);
    vsA = alignTexts(row.expected ?? "", row.output_a ?? "", highlight, MAX_SHOWN_CHARS, undefined, limit);
  }
  const pane = (title: string, text: string | null, html: string): Pane => ({ title, html, empty: text === "", unavailable: text === null });
  const panes: Pane[] = [
    expectedPane(row, vsA, vsB, pane),
    pane("Output A", row.output_a, segmentsToHtml(vsA.output, "extra")),
    pane("Output B", row.output_b, segmentsToHtml(vsB.output, "extra")),
  ];
  // Each output's cut named, A's and B's: two "Output cut to …" notes did not say which was which.
  const named = (notes: readonly string[], side: "A" | "B"): string[] => notes.map((n) => n.replace(/^Output /, `Output ${side} `));
  const notes = [...new Set([...named(vsB.notes, "B"), ...named(vsA.notes.filter((n) => !n.startsWith("Expected")), "A")])];
  return (
    `<div class="row regressed-row" data-row="${row.row}"><div class="row-head"><b>Row ${row.row_b === undefined ? row.row : `${row.row} in A, ${escapeText(String(row.row_b))} in B`}</b>` +
    `${id ? `<span class="muted">id <code>${escapeText(id)}</code></span>` : ""}` +
    `<span class="score">A ${htmlFigure(row.score_a)} → B ${htmlFigure(row.score_b)}</span>` +
    `${deltaHtml(row.delta, direction)}</div>${renderPanes(panes, 3)}${renderNotes(notes)}</div>`
  );
}

/** The evaluators of one run only, one line per run, as `simeval compare` prints them under its table. */
function notCompared(input: ComparisonReportInput): string {
  const line = (side: string, names: readonly string[] | undefined) =>
    names?.length ? `<p class="sub not-compared">Only in ${side} (not compared): ${names.map((n) => escapeText(String(n))).join(", ")}</p>` : "";
  return line("A", input.only_in_a) + line("B", input.only_in_b);
}
