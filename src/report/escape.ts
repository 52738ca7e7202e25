/**
 * Escaping for the two output languages. Model outputs are untrusted text, so every string that reaches
 * a report goes through one of these.
 */

const HTML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes `& < > " '`, so the result is safe as HTML text and inside a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c] ?? c);
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
