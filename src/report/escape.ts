/**
 * Escaping for the two output languages. Model outputs are untrusted text, so every string that reaches
 * a report goes through one of these.
 */
import { codePointLabel } from "../unprintable.js";

const HTML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * Characters that are invisible or rearrange the text around them, so they must not reach a report
 * raw: controls (\p{Cc}) other than tab, LF and the CR of a CRLF; format characters (\p{Cf}: zero
 * width space, bidi marks, embeddings, overrides and isolates, BOM, …) except ZWNJ/ZWJ (U+200C/D)
 * and the emoji tag characters, which shape visible text (Persian, Indic scripts, emoji sequences);
 * lone surrogates, which UTF-8 cannot encode; and the line and paragraph separators (U+2028, U+2029),
 * which a browser shows as nothing or a space, never a line break (a name "a\u2028b" read "ab"); and the
 * noncharacters (U+FFFE, U+FFFF, U+FDD0–U+FDEF, the last two of each plane), which have no glyph and
 * which HTML calls a parse error (an id "\uFFFE\uFFFFx" read "x").
 * An output "abc\u202Edef" would otherwise read "abcfed".
 */
const HIDDEN = /(?![\t\n\u200C\u200D\u{E0020}-\u{E007F}])(?!\r\n)[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Noncharacter_Code_Point}]/gu;

/** Names for the hidden characters a reader most often meets; others show their code point only. */
const HIDDEN_NAMES: Record<number, string> = {
  0x00: "NULL",
  0x07: "BELL",
  0x08: "BACKSPACE",
  0x0b: "LINE TABULATION",
  0x0c: "FORM FEED",
  0x0d: "CARRIAGE RETURN",
  0x1b: "ESCAPE",
  0x7f: "DELETE",
  0x85: "NEXT LINE",
  0xad: "SOFT HYPHEN",
  0x061c: "ARABIC LETTER MARK",
  0x180e: "MONGOLIAN VOWEL SEPARATOR",
  0x200b: "ZERO WIDTH SPACE",
  0x200e: "LEFT-TO-RIGHT MARK",
  0x200f: "RIGHT-TO-LEFT MARK",
  0x202a: "LEFT-TO-RIGHT EMBEDDING",
  0x202b: "RIGHT-TO-LEFT EMBEDDING",
  0x202c: "POP DIRECTIONAL FORMATTING",
  0x202d: "LEFT-TO-RIGHT OVERRIDE",
  0x202e: "RIGHT-TO-LEFT OVERRIDE",
  0x2028: "LINE SEPARATOR",
  0x2029: "PARAGRAPH SEPARATOR",
  0x2060: "WORD JOINER",
  0x2066: "LEFT-TO-RIGHT ISOLATE",
  0x2067: "RIGHT-TO-LEFT ISOLATE",
  0x2068: "FIRST STRONG ISOLATE",
  0x2069: "POP DIRECTIONAL ISOLATE",
  0xfeff: "ZERO WIDTH NO-BREAK SPACE",
};

/** "U+202E", at least four hex digits. */
function codePoint(c: string): string {
  return codePointLabel(c.codePointAt(0) ?? 0);
}

/** The visible stand-in for a hidden character in plain text: "⟨U+202E⟩". */
function hiddenMarker(c: string): string {
  return `⟨${codePoint(c)}⟩`;
}

/**
 * Escapes `& < > " '`, so the result is safe as HTML text and inside a quoted attribute; hidden
 * characters (see {@link HIDDEN}) become a plain-text marker such as "⟨U+202E⟩", so no raw control or
 * bidi override reaches the file. For element text prefer {@link escapeText}, whose marker is styled.
 */
export function escapeHtml(text: string): string {
  return entities(text).replace(HIDDEN, hiddenMarker);
}

/** `& < > " '` as entities. */
function entities(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c] ?? c);
}

/**
 * Escapes user text for HTML element content (never for an attribute): like {@link escapeHtml}, but
 * each hidden character becomes `<span class="ctl" title="U+202E RIGHT-TO-LEFT OVERRIDE">⟨U+202E⟩</span>`,
 * styled apart so it cannot be mistaken for the same letters typed out.
 */
export function escapeText(text: string): string {
  return entities(text).replace(HIDDEN, (c) => {
    const name = HIDDEN_NAMES[c.codePointAt(0) ?? -1];
    return `<span class="ctl" title="${codePoint(c)}${name ? ` ${name}` : ""}">${hiddenMarker(c)}</span>`;
  });
}

/**
 * A name (an evaluator, a run, a path) as element HTML: {@link escapeText}, with a `<wbr>` after each
 * `_`, `-`, `.`, `/` and `:` so a narrow column wraps it between its parts ("jaccard_<wbr>similarity")
 * instead of mid-word ("jaccard_simil|arity"). The parts themselves are only broken when one alone is
 * wider than the line.
 */
export function nameText(text: string): string {
  return text
    .split(/(?<=[_\-./:])(?=.)/su)
    .map(escapeText)
    .join("<wbr>");
}

/**
 * User text set inside other text (a name in a heading, an id after "id"): {@link escapeText} in a
 * `<bdi>`, so a right-to-left run in it cannot reorder what surrounds it.
 */
export function userText(text: string): string {
  return `<bdi>${escapeText(text)}</bdi>`;
}

/**
 * Characters XML 1.0 forbids anywhere, even as `&#x..;` references: C0 controls other than tab, LF and
 * CR, lone surrogates, U+FFFE and U+FFFF (https://www.w3.org/TR/xml/#charsets).
 */
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Escapes text for XML 1.0 content and double-quoted attributes: `& < > "` become entities, each
 * forbidden character becomes U+FFFD (a parser would reject the whole file otherwise), and tab, LF
 * and CR become character references so attribute-value normalisation keeps them.
 * (fast-xml-builder was tried: it escapes `& < > "` but passes control characters through, so this
 * function would be needed anyway and the builder would add nothing for JUnit's flat shape.)
 */
export function escapeXml(text: string): string {
  return text.replace(XML_FORBIDDEN, "\uFFFD").replace(/[&<>"\t\n\r]/g, (c) => XML_ENTITIES[c] ?? c);
}

const XML_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "\t": "&#9;",
  "\n": "&#10;",
  "\r": "&#13;",
};

/**
 * Like {@link escapeXml} but keeps tab and LF as they are, for element text where they survive parsing
 * (CR still becomes `&#13;`: a parser would turn a literal CR into LF).
 */
export function escapeXmlText(text: string): string {
  return text.replace(XML_FORBIDDEN, "\uFFFD").replace(/[&<>\r]/g, (c) => XML_ENTITIES[c] ?? c);
}
