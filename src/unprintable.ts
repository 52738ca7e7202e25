/**
 * What a name printed in tables, reports and comparisons (an evaluator's, a run's) may not hold: controls
 * (C0, DEL, C1: line breaks, ESC), the line and paragraph separators, and the bidirectional marks
 * (U+061C, U+200E/F), embeddings and overrides (U+202A–U+202E) and isolates (U+2066–U+2069), which reorder the text around them,
 * and the invisible soft hyphen, zero width space, word joiner and invisible operators, and BOM, with which a
 * name prints as another ("a\u200bb" as "ab"). The zero width (non-)joiners, which shape visible text, are allowed.
 */
export const UNPRINTABLE_IN_NAME = /[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u00ad\u200b\u2060-\u2064\ufeff]/u;

/** The bidirectional characters {@link UNPRINTABLE_IN_NAME} refuses, as messages list them. */
export const BIDI_IN_NAME = "U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069";

/** The invisible characters {@link UNPRINTABLE_IN_NAME} refuses, as messages list them: "a\u200bb" would print as "ab". */
export const INVISIBLE_IN_NAME = "U+00AD, U+200B, U+2060–U+2064, U+FEFF";

/**
 * `text` with every character of {@link UNPRINTABLE_IN_NAME} written as its `\uXXXX` escape, so that a message quoting
 * a refused name or type (`evaluator "a\u202eb"`) shows it rather than being reordered or hidden by it.
 */
export function escapeUnprintable(text: string): string {
  return text.replace(new RegExp(UNPRINTABLE_IN_NAME.source, "gu"), codeEscape);
}

/** A character that shows: neither whitespace nor default-ignorable. */
const VISIBLE = /[^\s\p{Default_Ignorable_Code_Point}]/u;

/**
 * True when `text` shows a character. The zero width joiners that {@link UNPRINTABLE_IN_NAME} allows (they shape
 * visible text) print as nothing alone: a name of only "\u200d" would be listed as a blank.
 */
export function hasVisible(text: string): boolean {
  return VISIBLE.test(text);
}

/**
 * `text` quoted as JSON for a message, with {@link escapeUnprintable}'s escapes, and, when no character of it shows
 * ({@link hasVisible}), every character that is not ASCII escaped too: a refused name of only a zero width joiner or a
 * Hangul filler was quoted as `""` or a blank, which read as an empty name, or as no name at all.
 */
export function quoteForMessage(text: string): string {
  const json = escapeUnprintable(JSON.stringify(text));
  if (hasVisible(text)) return json;
  return json.replace(/[^\x20-\x7e]/gu, codeEscape);
}

/** "U+202E": a code point as Unicode writes it, in upper-case hex of at least four digits, for messages and reports. */
export function codePointLabel(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** A character as `\u` and its code point in hex, at least four digits (`\u200d`, `\u1f600`). */
function codeEscape(c: string): string {
  return `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`;
}

/**
 * A character as JavaScript writes it escaped: `\u` and four hex digits, or `\u{…}` above U+FFFF (`\u001b`,
 * `\u{e0001}`), for a message or a terminal line that shows a character rather than letting it act.
 */
export function jsEscape(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, "0")}`;
}
