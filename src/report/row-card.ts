/** One row's texts, side by side and highlighted: shared by the run and comparison reports. */
import { escapeHtml, escapeText } from "./escape.js";
import { capCodePoints, formatInt } from "./format.js";
import { MAX_SHOWN_CHARS, alignTexts, segmentsToHtml } from "./text-diff.js";
import type { ReportedTokens } from "./token-marks.js";
import type { HighlightOptions, TokenLists } from "./types.js";

/** One column of a row card: a heading and its text already as HTML. */
export interface Pane {
  title: string;
  html: string;
  empty: boolean;
  /** The text could not be read back (its dataset is missing or changed): shown as such, not as "(empty)". */
  unavailable?: boolean;
}

/**
 * `<div class="panes">` with one `<pre class="text">` per pane, each under a heading of `level`: one below
 * the section's, so headings never skip a level (the run report's panes sit under an h3, the comparison's
 * under an h2, where their h4 skipped one).
 */
export function renderPanes(panes: readonly Pane[], level: 3 | 4 = 4): string {
  const cols = panes.map((p) => `<div class="pane"><h${level}>${escapeHtml(p.title)}</h${level}>${paneText(p)}</div>`).join("");
  return `<div class="panes" style="--cols:${panes.length}">${cols}</div>`;
}

function paneText(p: Pane): string {
  if (p.unavailable) return `<pre class="text empty" data-unavailable>(text unavailable)</pre>`;
  return `<pre class="text${p.empty ? " empty" : ""}">${p.empty ? "(empty)" : p.html}</pre>`;
}

/**
 * Expected and output panes with the differences marked (missing in the expected pane, extra in
 * the output pane), plus notes about capped texts. `reported`: the evaluator's missing and extra
 * tokens of the row, which token-set marks use when the lists are complete.
 */
export function renderDiffPanes(expected: string, output: string, highlight: HighlightOptions, reported?: ReportedTokens): { panes: Pane[]; notes: string[] } {
  const aligned = alignTexts(expected, output, highlight, MAX_SHOWN_CHARS, reported);
  return {
    panes: [
      { title: "Expected", html: segmentsToHtml(aligned.expected, "missing"), empty: expected === "" },
      { title: "Output", html: segmentsToHtml(aligned.output, "extra"), empty: output === "" },
    ],
    notes: aligned.notes,
  };
}

/** Notes under a card, one `<div class="note">` each. */
export function renderNotes(notes: readonly string[]): string {
  return notes.map((n) => `<div class="note">${escapeHtml(n)}</div>`).join("");
}

/** Each token chip shows at most this many code points: one huge "word" must not swell a report. */
const MAX_TOKEN_CHARS = 80;

/**
 * `text` as element HTML, cut to its first `max` code points (as the row texts are cut) with a visible
 * "… (1,000,000 characters)" saying how long it was.
 */
function cutTextHtml(text: string, max: number): string {
  const c = capCodePoints(text, max);
  return c.cut ? `${escapeText(c.text)}<span class="muted" title="cut to its first ${formatInt(max)} characters">… (${formatInt(c.length)} characters)</span>` : escapeText(text);
}

/**
 * A reasoning as HTML, cut as {@link cutTextHtml} cuts, with each double-quoted string in it (the tokens
 * an evaluator quotes, JSON-escaped) set apart in `<bdi>`. Right-to-left tokens listed inside the English
 * sentence ("שלום", "עולם") would otherwise merge, with the quotes and commas between them, into one
 * right-to-left run and read in reverse order.
 */
export function reasoningHtml(text: string, max: number): string {
  return cutTextHtml(text, max).replace(/&quot;((?:\\&quot;|(?!&quot;)[^])*?)&quot;/g, "&quot;<bdi>$1</bdi>&quot;");
}

/** A token evaluator's lists: the tokens the output misses and the ones it adds, as chips (cut to {@link MAX_TOKEN_CHARS}). */
export function renderTokens(tokens: TokenLists): string {
  const list = (items: readonly string[], total: number, cls: "missing" | "extra"): string => {
    if (total === 0) return `<span class="muted">none</span>`;
    const chips = items.map((t) => `<span class="chip ${cls}">${cutTextHtml(t, MAX_TOKEN_CHARS)}</span>`).join("");
    return total > items.length ? `${chips} <span class="muted">and ${formatInt(total - items.length)} more</span>` : chips;
  };
  return (
    `<div class="tokens"><span><b>${formatInt(tokens.shared_count)}</b> shared</span>` +
    `<span><b>${formatInt(tokens.missing_count)}</b> missing: ${list(tokens.missing, tokens.missing_count, "missing")}</span>` +
    `<span><b>${formatInt(tokens.extra_count)}</b> extra: ${list(tokens.extra, tokens.extra_count, "extra")}</span></div>`
  );
}
