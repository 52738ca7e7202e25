/**
 * The HTML shell every report shares: one file with its CSS inline and no script. The
 * Content-Security-Policy forbids scripts and every network load, so even text that slipped past
 * escaping could not run or phone home, and the file opens the same offline.
 */
import { escapeHtml, escapeText } from "./escape.js";
import { formatInt, formatTime, htmlSignedFigure } from "./format.js";
import { DEFAULT_NGRAM_SIZE } from "../evaluators/tfidf-similarity.js";
import type { Direction } from "../types.js";
import type { HighlightOptions } from "./types.js";

/**
 * The width of a chart's second drawing, shown on a narrow screen (up to 760 px) in place of the
 * 1080-unit one. Scaled down to a phone's 340 px, the wide one's 11-unit labels were 3.5 px high, and
 * held at 900 px in a box that scrolled sideways it showed a third of its axis (a histogram's bars at 1,
 * a trend's only point, were off screen); this one is drawn for the width, its labels about 10 px high.
 */
export const NARROW_CHART_WIDTH = 360;

/** A chart drawn twice, for a wide and for a narrow screen (see {@link NARROW_CHART_WIDTH}): CSS shows one. */
export function responsiveChart(wide: string, narrow: string): string {
  return `<div class="chart-wide">${wide}</div><div class="chart-narrow">${narrow}</div>`;
}

/**
 * A row's texts (`.text`) take each paragraph's direction from its first strong character
 * (`unicode-bidi: plaintext`, isolated as well): an Arabic or Hebrew answer is laid out right to left,
 * with its final "?" or emoji at its left end, as its readers write it, rather than at the right end of
 * an English page's left-to-right line.
 *
 * Names in table cells (`td.name`, `th.name`: a row's name is its header, `th scope="row"`) wrap at the
 * `<wbr>` that `nameText` (escape.ts) puts between their parts and break inside a part only when it alone
 * overflows (`break-word`): `anywhere` let the table shrink the column to a few letters and cut
 * "levenshtein_distance" as "levenshtein_dis|tance". A dataset path (`td.path`) and a run id (`.id`) do break
 * anywhere, within their column's 9em: a path's part or an id held whole widened the trend's table past the page.
 * The evaluator links under the header (`nav.toc a`) stay one line, cut with an ellipsis, the full name
 * in their `title`: a long name wrapped into a pill three lines tall. Past 12 they are folded in a
 * `details.toc` ({@link evaluatorNav}, for the run and trend reports), so that a wide config's links do not
 * push the first section screens down.
 *
 * Okabe–Ito colours (blue for pass, vermillion for fail) stay distinct for the common colour-vision
 * deficiencies; pass/fail is also always said in words and marks (✓/✗, hatching, hollow points).
 * Text in those colours (badges, deltas) takes the darker `--pass-text` and `--fail-text`: at 12 px on its
 * badge's tint, `--fail` measured 3.81:1 and `--pass` 4.46:1, under WCAG AA's 4.5:1; fills keep the brighter ones.
 *
 * In print, the reports take the wide layout: the narrow one is for screens (`screen and (max-width:760px)`), where a
 * printed page, 718 px wide on A4 and 740 px on Letter within Chromium's margins, took the phone's stacked tables
 * and single-column panes. The page's own margins stand for `main`'s padding, and tables are set smaller and tighter
 * so that a run's summary, a comparison's and a trend's of six evaluators fit the page: it cannot scroll sideways, and
 * what overflowed was cut off. A table with more columns than fit (`print-stack`) is printed stacked.
 *
 * In print, the small parts are kept on one page (a worst row, a table row, a chart, with its heading) and a
 * card may break: a card is a whole section, often longer than a page, and kept whole it went to a new page,
 * leaving the one before blank under the header, only to be broken there all the same.
 */
/**
 * The rules that lay a `table.stack` out on a narrow screen (see {@link cell}), for the tables `selector` picks: every
 * one on a screen up to 760 px, and in print only those too wide for a page (`print-stack`: the trend's with many
 * evaluators), which, unlike a screen, cannot be scrolled.
 */
function stackedTable(t: string): string {
  return (
    `${t} thead{display:none}${t} tr{display:grid;grid-template-columns:repeat(auto-fill,minmax(7.5em,1fr));gap:8px 14px;padding:10px 2px;border-bottom:1px solid var(--line)}${t} tbody tr:last-child{border-bottom:0}` +
    `${t} td,${t} tbody th{display:block;border:0;padding:0;text-align:left;white-space:normal;min-width:0}${t} td.name,${t} tbody th.name,${t} td.diff,${t} td.moves{grid-column:1/-1}` +
    `${t} .rate .pct{min-width:0}${t} td[data-label]::before{content:attr(data-label);display:block;font-size:11px;letter-spacing:.04em;text-transform:uppercase;color:var(--muted);overflow-wrap:anywhere}`
  );
}

const CSS = `
:root{--ink:#1b2330;--muted:#5b6676;--line:#e2e6ec;--bg:#f5f6f8;--card:#fff;--pass:#0072b2;--pass-bg:#e3f0f9;--fail:#c94f00;--fail-bg:#fbe7da;--pass-text:#0067a3;--fail-text:#a84200;--neutral:#7a8699;--accent:#3b4a63;
--sans:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"DejaVu Sans",sans-serif;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:15px/1.5 var(--sans);-webkit-font-smoothing:antialiased}
main{max-width:1180px;margin:0 auto;padding:32px 28px 48px}
h1{font-size:26px;line-height:1.25;margin:2px 0 14px;font-weight:650;letter-spacing:-.01em;overflow-wrap:anywhere}
h2{font-size:19px;margin:0 0 4px;font-weight:650;letter-spacing:-.005em;overflow-wrap:anywhere;min-width:0}
h3,header h2{font-size:15px;margin:22px 0 10px;font-weight:650;letter-spacing:0}
a{color:var(--pass)}
.eyebrow{text-transform:uppercase;letter-spacing:.08em;font-size:12px;font-weight:600;color:var(--muted)}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:20px 22px;margin:18px 0;box-shadow:0 1px 2px rgba(20,30,50,.04)}
.meta{display:grid;grid-template-columns:repeat(auto-fill,minmax(240px,1fr));gap:10px 24px;margin:0}
.meta div{min-width:0}
.meta dt{font-size:12px;color:var(--muted);text-transform:uppercase;letter-spacing:.05em}
.meta dd{margin:2px 0 0;font-weight:550;overflow-wrap:anywhere}
.meta .wide{grid-column:1/-1}
code,.mono{font-family:var(--mono);font-size:.9em}
.sub{color:var(--muted);font-size:13.5px;margin:0;overflow-wrap:anywhere}
nav.toc{display:flex;flex-wrap:wrap;gap:8px;margin:6px 0 0}
details.toc{margin:6px 0 0}details.toc>summary{cursor:pointer;font-size:13px;color:var(--accent)}
nav.toc a{display:inline-block;max-width:min(100%,32em);white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-size:13px;text-decoration:none;border:1px solid var(--line);background:var(--card);padding:3px 10px;border-radius:999px;color:var(--accent)}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{padding:8px 10px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}
th{white-space:normal}
thead th{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);font-weight:600;background:#fafbfc}
th:first-child,td:first-child,th.left,td.left{text-align:left}
tbody tr:last-child>*{border-bottom:0}
td.name,tbody th.name{font-weight:600;white-space:normal;overflow-wrap:break-word;min-width:9em}
th.name{overflow-wrap:break-word}
td:not(.name){font-size:14px;padding:8px 7px}
td.name .type,tbody th.name .type{display:block;font-weight:400;color:var(--muted);font-size:12px;font-family:var(--mono)}
td.path,th.name .id{overflow-wrap:anywhere}
td.wrap{white-space:normal}.nw{white-space:nowrap}
.scroll{overflow-x:auto}
.rate{display:inline-flex;align-items:center;gap:8px}
.rate .track{width:70px;height:8px;border-radius:4px;background:var(--fail-bg);overflow:hidden;display:inline-block}
.rate .fill{display:block;height:100%;background:var(--pass)}
.rate .pct{min-width:4.2em;text-align:right}
.badge{display:inline-block;font-size:12px;font-weight:650;padding:1px 8px;border-radius:999px;border:1px solid transparent;white-space:nowrap}
.badge.pass{color:var(--pass-text);background:var(--pass-bg);border-color:#b5d5ec}
.badge.fail{color:var(--fail-text);background:var(--fail-bg);border-color:#f1c3a4}
.badge.none{color:var(--muted);background:#eef0f3;border-color:var(--line)}
.badge.warn{color:#7a5a00;background:#fff4cc;border-color:#f0dc8c}
.muted{color:var(--muted)}
.chart{display:block;width:100%;height:auto;font-family:var(--sans)}
.chart-narrow{display:none}
.chart .grid{stroke:#edf0f4}
.chart .axis{stroke:#9aa4b2}
.chart .tick{font-size:11px;fill:var(--muted)}
.chart .axis-label{font-size:11.5px;fill:var(--muted)}
.chart .hit{fill:transparent}
.chart .bin:hover .hit{fill:rgba(27,35,48,.05)}
.chart .bar{rx:2px}
.chart .bar.pass{fill:var(--pass)}
.chart .bar.neutral{fill:var(--neutral)}
.chart .bar.fail{stroke:var(--fail);stroke-width:1}
.chart .hatch-bg{fill:#f7d2ba}
.chart .hatch-fg{stroke:var(--fail);stroke-width:2.5}
.chart .threshold{stroke:var(--ink);stroke-width:1.5;stroke-dasharray:5 4}
.chart .threshold-label{font-size:12px;font-weight:650;fill:var(--ink);stroke:var(--card);stroke-width:4px;stroke-linejoin:round;paint-order:stroke}
.chart .mean path{fill:var(--ink)}
.chart .series{fill:none;stroke:var(--accent);stroke-width:2}
.chart .point{stroke-width:2}
.chart .point.pass,.chart .point.neutral{fill:var(--pass);stroke:var(--pass)}
.chart .point.fail{fill:#fff;stroke:var(--fail)}
.legend{display:flex;flex-wrap:wrap;gap:16px;font-size:12.5px;color:var(--muted);margin:6px 0 0}
.legend span{display:inline-flex;align-items:center;gap:6px}
.sw{display:inline-block;width:14px;height:10px;border-radius:2px}
.sw.pass{background:var(--pass)}
.sw.fail{background:repeating-linear-gradient(45deg,var(--fail) 0 2px,#f7d2ba 2px 5px);outline:1px solid var(--fail)}
.sw.thr{width:0;height:14px;border-left:2px dashed var(--ink);border-radius:0}
.sw.mean{width:0;height:0;border:5px solid transparent;border-bottom:9px solid var(--ink);border-top:0}
.ev-head{display:flex;flex-wrap:wrap;align-items:baseline;justify-content:space-between;gap:8px 16px}
.ev-head>*{min-width:0;overflow-wrap:anywhere}
.stats{display:flex;flex-wrap:wrap;gap:6px 18px;font-size:13.5px;color:var(--muted);margin:4px 0 12px}
.stats b{color:var(--ink);font-weight:650;font-variant-numeric:tabular-nums}
.row{border:1px solid var(--line);border-radius:8px;margin:12px 0;overflow:hidden}
.row-head{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;padding:8px 12px;background:#fafbfc;border-bottom:1px solid var(--line);font-size:13.5px;overflow-wrap:anywhere}
.row-head>*{min-width:0}
.row-head .score{font-weight:650;font-variant-numeric:tabular-nums}
.row-head .reason{flex-basis:100%;color:var(--muted)}
.panes{display:grid;grid-template-columns:repeat(var(--cols,2),minmax(0,1fr))}
.pane{padding:10px 12px;min-width:0}
.pane+.pane{border-left:1px solid var(--line)}
.pane h3,.pane h4{margin:0 0 4px;font-size:11.5px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);font-weight:600}
.text{white-space:pre-wrap;overflow-wrap:anywhere;font-size:14px;line-height:1.55;margin:0;max-height:22em;overflow-y:auto;unicode-bidi:plaintext}
.text.empty{color:var(--muted);font-style:italic}
mark{color:inherit;border-radius:2px;padding:0 1px}
.ctl{font-family:var(--mono);font-size:.75em;color:var(--muted);border:1px dashed #9aa4b2;border-radius:3px;padding:0 2px;margin:0 1px;white-space:nowrap;unicode-bidi:isolate}
bdi,code,.mono,.chip,.reason,td.name a,tbody th.name a,nav.toc a,.meta dd,.warnbox,h1,h2{unicode-bidi:isolate}
mark .nl::before{content:"↵";color:var(--muted)}
mark .nl.crlf::before{content:"␍↵"}
mark .sp::after{content:"⟨" attr(data-cp) "⟩";font-family:var(--mono);font-size:.75em;color:var(--muted);border:1px dashed #9aa4b2;border-radius:3px;padding:0 2px;margin:0 1px;white-space:nowrap;unicode-bidi:isolate}
mark.missing{background:var(--fail-bg);border-bottom:2px dotted var(--fail)}
mark.extra{background:var(--pass-bg);border-bottom:2px solid var(--pass)}
.tokens{padding:8px 12px;border-top:1px solid var(--line);font-size:12.5px;display:flex;flex-wrap:wrap;gap:4px 14px}
.tokens .chip{display:inline-block;max-width:100%;overflow-wrap:anywhere;font-family:var(--mono);font-size:12px;padding:0 6px;border-radius:4px;margin:1px 2px}
.chip.missing{background:var(--fail-bg);border-bottom:2px dotted var(--fail)}
.chip.extra{background:var(--pass-bg);border-bottom:2px solid var(--pass)}
.note{font-size:12.5px;color:var(--muted);padding:6px 12px;border-top:1px dashed var(--line)}
td.moves{white-space:normal}td.moves span{display:inline-block;min-width:2.9em;white-space:nowrap}
.delta.better{color:var(--pass-text);font-weight:650}
.delta.worse{color:var(--fail-text);font-weight:650}
.delta .mark{font-size:.8em;margin-right:.25em}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.ci{display:block;font-size:12px;color:var(--muted)}
.diff-cell{display:flex;align-items:center;justify-content:space-between;gap:14px}
.ci-chart{flex:none}
.ci-chart .zero{stroke:#9aa4b2;stroke-dasharray:2 2}
.ci-chart .ci-bar{stroke:var(--accent);stroke-width:2.5;stroke-linecap:round}
.ci-chart .ci-dot{fill:var(--neutral)}
.ci-chart .ci-dot.better{fill:var(--pass)}
.ci-chart .ci-dot.worse{fill:#fff;stroke:var(--fail);stroke-width:2}
.warnbox{background:#fff8db;border:1px solid #f0dc8c;border-radius:8px;padding:10px 14px;margin:12px 0;font-size:14px;overflow-wrap:anywhere}
.empty-state{color:var(--muted);font-style:italic;margin:8px 0}
footer{color:var(--muted);font-size:12.5px;text-align:center;margin-top:28px}
@media screen and (max-width:760px){main{padding:16px 10px 32px}.card{padding:16px 14px}.panes{grid-template-columns:1fr}.pane+.pane{border-left:0;border-top:1px solid var(--line)}.chart-wide{display:none}.chart-narrow{display:block}
${stackedTable("table.stack")}}
@media print{body{background:#fff}main{padding:0;max-width:none}.card{box-shadow:none;padding:14px 16px}.scroll{overflow:visible}table{font-size:12px}th,td,td:not(.name){padding:5px 4px;font-size:12px}thead th{font-size:10px;letter-spacing:0;text-transform:none}.diff-cell{gap:6px}.ci-chart{width:64px;height:auto}.ci{font-size:10.5px}td.name,tbody th.name{min-width:7em}.rate .track{width:36px}.rate{gap:4px}.rate .pct{min-width:0}${stackedTable("table.stack.print-stack")}.row,tr,.chart,.legend,.warnbox{break-inside:avoid}h2,h3,.ev-head,.stats{break-after:avoid}.text{max-height:none}}
`;

/** Forbids every script and every network load; inline styles and data: images only. */
const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** Wraps `body` (already HTML) in a complete document; `title` is plain text. */
export function renderPage(title: string, body: string, generatedAt?: string): string {
  const footer = `simeval report${generatedAt ? ` · generated ${escapeHtml(formatTime(generatedAt))}` : ""}`;
  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>${CSS}</style></head>\n` +
    `<body><main>\n${body}\n<footer>${footer}</footer></main></body></html>\n`
  );
}

/**
 * A wide table in a box that scrolls sideways when the page is too narrow for it, named `label` (the
 * section's heading). The box is a tab stop and a named region: keyboard users scroll it with the arrow
 * keys, where a box they could not focus hid its right-hand columns from them (axe's scrollable-region-focusable).
 */
export function scrollBox(label: string, table: string): string {
  return `<div class="scroll" tabindex="0" role="region" aria-label="${escapeHtml(label)}">${table}</div>`;
}

/** A change of `delta` (B − A, or the latest mean − the previous) in `direction`: "better", "worse", or "" for none (0). */
export function changeKind(delta: number, direction: Direction): "better" | "worse" | "" {
  if (delta === 0) return "";
  return (direction === "maximize" ? delta > 0 : delta < 0) ? "better" : "worse";
}

/**
 * A change (B − A, or the latest mean − the previous) in an element of class `delta`, said better or worse
 * in `direction` by a mark as well as by its colour: `▲ +0.0123` better, `▼ −2` worse (the ▲/▼ of rows
 * improved and regressed), with the word for screen readers; a bare figure for no change or none. The
 * sign alone cannot say it, since a lower distance is better.
 */
export function deltaHtml(delta: number | null, direction: Direction, tag: "span" | "b" = "span"): string {
  const kind = delta === null || !Number.isFinite(delta) ? "" : changeKind(delta, direction);
  const mark = kind === "" ? "" : `<span class="mark" aria-hidden="true">${kind === "better" ? "▲" : "▼"}</span>`;
  const word = kind === "" ? "" : `<span class="sr"> (${kind})</span>`;
  return `<${tag} class="delta${kind ? ` ${kind}` : ""}">${mark}${htmlSignedFigure(delta)}${word}</${tag}>`;
}

/**
 * A table cell that names its column in `data-label`: on a narrow screen a `table.stack` drops its head
 * and lays each row out as its name over a grid of labelled figures (see the CSS), since its dozen
 * columns would not fit and the ones that matter, the mean and the pass rate, scrolled out of sight.
 */
export function cell(label: string, html: string, cls = ""): string {
  return `<td${cls ? ` class="${cls}"` : ""} data-label="${escapeHtml(label)}">${html}</td>`;
}

/** `<span class="badge pass">✓ pass</span>` and friends: the mark and the word, never colour alone. */
export function verdictBadge(passed: boolean | null): string {
  if (passed === true) return `<span class="badge pass">✓ pass</span>`;
  if (passed === false) return `<span class="badge fail">✗ fail</span>`;
  return `<span class="badge none">no verdict</span>`;
}

/** A legend for the histogram marks. */
export function chartLegend(hasThreshold: boolean, hasMean: boolean): string {
  const items = hasThreshold
    ? [`<span><i class="sw pass"></i>passes</span>`, `<span><i class="sw fail"></i>fails</span>`, `<span><i class="sw thr"></i>threshold</span>`]
    : [`<span class="muted">no threshold, so no verdicts</span>`];
  if (hasMean) items.push(`<span><i class="sw mean"></i>mean</span>`);
  return `<div class="legend">${items.join("")}</div>`;
}

/**
 * A legend for the text highlights, saying exactly what is marked: a character or word diff (in
 * order), or for token-set evaluators the tokens one text has and the other lacks (in any order).
 */
export function diffLegend(highlight: HighlightOptions): string {
  const [missing, extra, note] = legendText(highlight);
  const cased = highlight.ignore_case ? "; case is ignored" : "";
  return (
    `<div class="legend"><span><mark class="missing">abc</mark> ${missing}</span>` +
    `<span><mark class="extra">abc</mark> ${extra}</span><span class="muted">${note}${cased}.</span></div>`
  );
}

/** What the two marks mean under a highlight unit, and a note on how the texts were compared. */
function legendText(highlight: HighlightOptions): [string, string, string] {
  switch (highlight.unit) {
    case "chars":
      return ["characters of the expected text the output lacks", "characters of the output not in the expected text", "A character diff, in order"];
    case "words":
      return ["words of the expected text the output lacks", "words of the output not in the expected text", "A word diff, in order"];
    case "word_tokens":
      return [
        "words of the expected text that the output does not have anywhere",
        "words of the output that the expected text does not have anywhere",
        "Words as the evaluator splits them, in any order: every occurrence is marked, and order and repeats are not",
      ];
    case "char_ngrams": {
      const n = highlight.ngram_size ?? DEFAULT_NGRAM_SIZE;
      return [
        `characters of the expected text in no ${n}-character sequence the output also has`,
        `characters of the output in no ${n}-character sequence the expected text also has`,
        `Character ${n}-grams as the evaluator takes them (white space runs as one space), in any order`,
      ];
    }
  }
}

/** A stable, HTML-id-safe slug for an evaluator name (names are unique within a run). */
export function slug(name: string, index: number): string {
  const s = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  return `ev-${index}-${s || "x"}`;
}

/** Past this many evaluators the links under a report's header are folded away. */
const OPEN_TOC_MAX = 12;

/**
 * Links under a report's header to each evaluator's section (whose id is {@link slug} of its name and
 * place). A wide config's (200 evaluators: a phone screen of pills nine times over before the first
 * section) are folded into a `<details>` that names how many there are. "" for none.
 */
export function evaluatorNav(names: readonly string[]): string {
  if (!names.length) return "";
  const links = names.map((name, i) => `<a href="#${slug(name, i)}" title="${escapeHtml(name)}">${escapeText(name)}</a>`).join("");
  const nav = `<nav class="toc" aria-label="Evaluators">${links}</nav>`;
  return names.length > OPEN_TOC_MAX ? `<details class="toc"><summary>All ${formatInt(names.length)} evaluators</summary>${nav}</details>` : nav;
}
