/**
 * Expected vs output, side by side, with the differing characters or words marked. The diff is Myers'
 * (prefix-diff.ts, with jsdiff's word tokens); this file caps the texts, maps the changes back onto each
 * original text and writes the marks. Token-set evaluators are marked without a diff (token-marks.ts).
 */
import { wordsWithSpaceDiff } from "diff";
import { lowerCase } from "../metrics/lower-case.js";
import { codePointCount, graphemeSegments } from "../metrics/text-units.js";
import { escapeText } from "./escape.js";
import { codePointLabel } from "../unprintable.js";
import { comparedTexts } from "./compared-texts.js";
import { capCodePoints } from "./format.js";
import { diffPrefixes, type Change } from "./prefix-diff.js";
import { markTokenSets, type ReportedTokens } from "./token-marks.js";
import type { HighlightOptions } from "./types.js";

/** Each text is shown up to this many code points, so a report with long outputs stays small. */
export const MAX_SHOWN_CHARS = 2000;
/**
 * Each text is diffed up to this many times the shown cap, and the marks cut with the shown text, so
 * that the marks near the cut are those a diff of the whole texts gives (a word the output moves
 * just past its cut is not marked missing). When those windows differ by more than the edit limits
 * allow, the shown parts alone are diffed.
 */
const DIFF_WINDOW_FACTOR = 3;
/**
 * Give up highlighting past this many edits beyond the length difference (which any diff needs):
 * the diff is O((N + M)·D), and two unrelated texts of a few thousand characters would take long; such
 * texts are shown unmarked with a note. An output that is a prefix of a long expected text is still
 * marked.
 */
const MAX_EDIT_LENGTH = 600;
/** Above this min(N, M)·D bound the extra allowance for the length difference is dropped (jsdiff, used before, took ~1 s at 1000·1600). */
const WORK_BUDGET = 1_500_000;

/** A run of one text: `changed` marks text the other side lacks. */
export interface Segment {
  text: string;
  changed: boolean;
}

/** Both sides of a row, cut into marked and unmarked runs. */
export interface AlignedTexts {
  /** The expected text; changed = missing from the output. */
  expected: Segment[];
  /** The output; changed = not in the expected text. */
  output: Segment[];
  /** False when the texts differ too much to mark (see {@link MAX_EDIT_LENGTH}). */
  highlighted: boolean;
  /** Sentences for the reader: which text was cut, or why nothing is marked. */
  notes: string[];
  /** Code points at the start of both texts, the same in each, not shown (see {@link sharedStartToSkip}). */
  skipped: number;
}

/**
 * Diffs `expected` against `output` by characters or words and returns both texts cut
 * into marked and unmarked runs; joining a side's runs gives back its (capped) text exactly. The marks
 * are those of a diff that reads on past the cap ({@link DIFF_WINDOW_FACTOR}), so a text the other side
 * has only past its own cut is not marked. For the
 * units of token-set evaluators ("word_tokens", "char_ngrams") there is no diff: each text's tokens that
 * the other lacks are marked (see {@link markTokenSets}, which takes the evaluator's `reported` lists).
 *
 * Words use `diffWordsWithSpace` rather than `diffWords`: its tokens (words, punctuation, runs of
 * spaces, newlines) cover the text exactly, so each change's token count maps back onto the
 * original; `diffWords` folds white space into neighbouring tokens and, with `ignoreCase`, reports
 * common runs in the output's spelling. White-space-only changes are not marked in word mode, because
 * the evaluators it is for (embeddings) compare meaning, not spacing.
 *
 * A character is a grapheme cluster, what a reader sees as one, and no word is cut inside one (see
 * {@link wholeClusters}): a mark around part of a cluster breaks it apart on screen ("👍🏽" against
 * "👍🏿" read 👍 and a loose colour swatch, "naïve" written with a combining diaeresis against "naive"
 * showed the diaeresis alone over a gap), and the side holding the shorter cluster ("👨‍👩‍👧" against
 * "👨‍👩‍👧‍👦") was left unmarked. The evaluator may count code points; the marks show whole characters.
 */
export function alignTexts(
  rawExpected: string,
  rawOutput: string,
  opts: HighlightOptions,
  maxChars = MAX_SHOWN_CHARS,
  reported?: ReportedTokens,
  skipLimit = Number.POSITIVE_INFINITY,
): AlignedTexts {
  if (opts.unit === "word_tokens" || opts.unit === "char_ngrams") return { ...markTokenSets(rawExpected, rawOutput, opts, maxChars, reported), skipped: 0 };
  // Diffed (and shown) as the evaluator compared them: "e" + U+0301 is no difference from "é" under NFC. A long
  // start both texts share is left out, so that the first difference shows (sharedStartToSkip).
  const { expected, output, shownExpected: e, shownOutput: o, notes, skipped } = comparedTexts(rawExpected, rawOutput, opts, maxChars, skipLimit);
  const wide = Math.min(maxChars * DIFF_WINDOW_FACTOR, Math.max(codePointCount(expected), codePointCount(output)));
  const sides = diffWindows(expected, output, wide, opts) ?? (wide > maxChars ? diffWindows(expected, output, maxChars, opts) : undefined);
  const plain = (text: string): Segment[] => (text === "" ? [] : [{ text, changed: false }]);
  if (sides === undefined) {
    notes.push("The texts differ too much to highlight.");
    return { expected: plain(e.text), output: plain(o.text), highlighted: false, notes, skipped };
  }
  return { expected: cutSegments(sides.expected, e.text.length), output: cutSegments(sides.output, o.text.length), highlighted: true, notes, skipped };
}

/**
 * Both texts' first `windowChars` code points diffed and marked, or undefined past the edit limits. The
 * diff of a cut text may end where that text does (see {@link diffPrefixes}): the rest of the other one
 * is left unmarked, as it may well be in the part that was cut.
 */
function diffWindows(expected: string, output: string, windowChars: number, opts: HighlightOptions): Pick<AlignedTexts, "expected" | "output"> | undefined {
  const e = capCodePoints(expected, windowChars);
  const o = capCodePoints(output, windowChars);
  const tokenize = opts.unit === "chars" ? clusters : (s: string): string[] => wholeClusters(wordsWithSpaceDiff.tokenize(s), s);
  const expTokens = tokenize(e.text);
  const outTokens = tokenize(o.text);
  const generous = Math.abs(expTokens.length - outTokens.length) + MAX_EDIT_LENGTH;
  const shorter = Math.min(expTokens.length, outTokens.length);
  const comparator = opts.ignore_case ? (a: string, b: string): boolean => a === b || lowerCase(a) === lowerCase(b) : (a: string, b: string): boolean => a === b;
  const diff = diffPrefixes(expTokens, outTokens, comparator, { aCut: e.cut, bCut: o.cut, maxEditLength: shorter * generous <= WORK_BUDGET ? generous : MAX_EDIT_LENGTH });
  if (diff === undefined) return undefined;
  const sides = mapChanges(absorbTinyEqualities(diff.changes, opts.unit === "chars" ? 3 : 1), expTokens, outTokens, opts.unit === "words");
  push(sides.expected, expTokens.slice(diff.aEnd).join(""), false, false);
  push(sides.output, outTokens.slice(diff.bEnd).join(""), false, false);
  return sides;
}

/** `segments` cut to their first `length` code units. */
function cutSegments(segments: readonly Segment[], length: number): Segment[] {
  const out: Segment[] = [];
  let left = length;
  for (const s of segments) {
    if (left <= 0) break;
    out.push(s.text.length <= left ? s : { text: s.text.slice(0, left), changed: s.changed });
    left -= s.text.length;
  }
  return out;
}

/** `text` as its grapheme clusters. */
function clusters(text: string): string[] {
  return Array.from(graphemeSegments(text), (g) => g.segment);
}

/**
 * `tokens`, which cover `text` exactly, with each one that starts inside a grapheme cluster joined to the
 * one before it: jsdiff's word tokens split a combining mark from its letter ("nai", "\u0308", "ve") and
 * an emoji sequence at its joiners and modifiers.
 */
function wholeClusters(tokens: readonly string[], text: string): string[] {
  const starts = new Set<number>();
  for (const g of graphemeSegments(text)) starts.add(g.index);
  const out: string[] = [];
  let at = 0;
  for (const token of tokens) {
    const last = out.length - 1;
    if (last >= 0 && !starts.has(at)) out[last] += token;
    else out.push(token);
    at += token.length;
  }
  return out;
}

/**
 * A minimal character diff of two unrelated sentences keeps every shared letter ("r-e-qu-e-st" vs
 * "Re-f-u-n-ds") and reads as noise. Like diff-match-patch's semantic cleanup, a common run shorter
 * than `minTokens` between two edits is treated as an edit on both sides, so marks join into words.
 */
function absorbTinyEqualities(changes: readonly Change[], minTokens: number): Change[] {
  return changes.flatMap((c, i) => {
    const before = changes[i - 1];
    const after = changes[i + 1];
    const edited = (x: Change | undefined): boolean => x !== undefined && (x.added || x.removed);
    if (c.added || c.removed || c.count >= minTokens || !edited(before) || !edited(after)) return [c];
    return [
      { ...c, removed: true, added: false },
      { ...c, removed: false, added: true },
    ];
  });
}

/** Walks the changes, taking each one's `count` tokens from the side(s) it belongs to. */
function mapChanges(changes: readonly Change[], expTokens: string[], outTokens: string[], unmarkSpace: boolean): Pick<AlignedTexts, "expected" | "output"> {
  const expected: Segment[] = [];
  const output: Segment[] = [];
  let i = 0;
  let j = 0;
  for (const change of changes) {
    if (!change.added) {
      push(expected, expTokens.slice(i, i + change.count).join(""), change.removed, unmarkSpace);
      i += change.count;
    }
    if (!change.removed) {
      push(output, outTokens.slice(j, j + change.count).join(""), change.added, unmarkSpace);
      j += change.count;
    }
  }
  return { expected, output };
}

function push(segments: Segment[], text: string, changed: boolean, unmarkSpace: boolean): void {
  if (text === "") return;
  const marked = changed && !(unmarkSpace && /^\s+$/u.test(text));
  const last = segments[segments.length - 1];
  if (last && last.changed === marked) last.text += text;
  else segments.push({ text, changed: marked });
}

/**
 * One side as HTML: unmarked runs escaped, marked runs in `<mark class="{cls}" title="{title}">`;
 * hidden characters show as markers (see escapeText), inside the mark when they are the change.
 * The caller puts it in an element with `white-space: pre-wrap`.
 */
export function segmentsToHtml(segments: readonly Segment[], cls: "missing" | "extra"): string {
  const title = cls === "missing" ? "missing from the output" : "not in the expected text";
  return segments
    .map((s) => (s.changed ? `<mark class="${cls}" title="${title}">${markedSpaces(markedLineBreaks(escapeText(s.text)))}</mark>` : escapeText(s.text)))
    .join("");
}

/** Space characters other than U+0020, tab and the line breaks: drawn like a space, and each a difference of its own. */
const OTHER_SPACE = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/gu;

/** Names for the {@link OTHER_SPACE} characters an output most often holds. */
const SPACE_NAMES: Record<number, string> = {
  0x00a0: "NO-BREAK SPACE",
  0x2002: "EN SPACE",
  0x2003: "EM SPACE",
  0x2007: "FIGURE SPACE",
  0x2009: "THIN SPACE",
  0x202f: "NARROW NO-BREAK SPACE",
  0x3000: "IDEOGRAPHIC SPACE",
};

/**
 * A marked space other than U+0020 (a no-break space, a thin space, an ideographic space) with its code point after
 * it, `<span class="sp" data-cp="U+00A0">` drawn "⟨U+00A0⟩" by the CSS (so a copied answer does not gain it): "a\u00A0b"
 * against "a b" was a marked blank on each side that looked the same, and the reader could not see what differed.
 */
function markedSpaces(html: string): string {
  return html.replace(OTHER_SPACE, (c) => {
    const cp = codePointLabel(c.codePointAt(0) ?? 0);
    const name = SPACE_NAMES[c.codePointAt(0) ?? -1];
    return `<span class="sp" data-cp="${cp}" title="${cp}${name ? ` ${name}` : ""}">${c}</span>`;
  });
}

/**
 * A marked line break (`\n`, or `\r\n` whole) with a visible sign before it, `<span class="nl">` drawn as "↵" (a CRLF "␍↵") by
 * the CSS (not text, so a copied answer does not gain it): a mark holding only a line break was a sliver at the
 * line's end, a blank line missing from the output a dot, and the change could not be seen.
 */
function markedLineBreaks(html: string): string {
  // A CRLF is drawn "␍↵": where one text has CRLF and the other LF, both breaks are marked, and the same sign on
  // each side did not show what differed.
  return html.replace(/\r?\n/g, (m) => (m === "\n" ? `<span class="nl" title="line break"></span>\n` : `<span class="nl crlf" title="line break (CR LF)"></span>\r\n`));
}
