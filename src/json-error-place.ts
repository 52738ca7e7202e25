/** Where a JSON.parse error lies in its text, for messages that name a line and column. */
import { Tokenizer, TokenParser, TokenType } from "@streamparser/json";
import { codePointLabel, jsEscape } from "./unprintable.js";

/**
 * V8's "in JSON at position N" (from 0; Node 22 adds "(line L column C)"), at the end of its message only:
 * an "Unexpected token" message quotes the text, whose own "at position 3" must stay.
 */
const V8_POSITION = /(?: in JSON)? at position (\d+)(?: \(line \d+ column \d+\))?$/;

/**
 * JSON.parse's complaint on one line, without V8's 0-based position (messages give the place as a line and
 * column counted from 1, as editors do): V8 quotes a short text whole, line breaks and tabs written here as JSON escapes.
 */
export function jsonParseMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(V8_POSITION, "").replace(/[\r\n\t]/g, (c) => JSON.stringify(c).slice(1, -1));
}

/**
 * Where a JSON.parse error lies in `text`, as " at line L, column C" (1-based; the column counts
 * UTF-16 units, as the parser's position does), from the position V8 puts in most messages (for a
 * trailing comma it points past it, and the comma is named). Where it gives none ("Unexpected token", or
 * the text ended too soon), the text is tokenized: the first character no token starts with, trailing
 * comma or token out of place wins when it comes before the text's end. A comment there (`//` or `/*`), or a
 * line break inside a string, is named too. Empty when no place is found.
 */
export function jsonErrorPlace(text: string, error: unknown): string {
  const fault = jsonFault(text, error);
  return fault ? ` at ${linePlace(text, fault.offset)}${fault.note}` : "";
}

/**
 * The UTF-16 offset of a JSON.parse error in `text`, found as {@link jsonErrorPlace} says, and a note
 * naming a trailing comma, a comment or a line break inside a string there (" (a trailing comma: …)", or empty). Null when no place is found.
 */
export function jsonFault(text: string, error: unknown): { offset: number; note: string } | null {
  const message = error instanceof Error ? error.message : "";
  const at = V8_POSITION.exec(message);
  if (at) return faultAt(text, Number(at[1]));
  // No position: the text is tokenized, which on a text of megabytes costs several times JSON.parse.
  let offset = /Unexpected end of JSON input/.test(message) ? text.length : -1;
  let note = "";
  const found = lexicalFault(text);
  if (found && (offset < 0 || found.offset <= offset)) [offset, note] = [found.offset, found.trailingComma ? TRAILING_COMMA : placeNote(text, found.offset)];
  return offset < 0 || offset > text.length ? null : { offset, note };
}

const TRAILING_COMMA = " (a trailing comma: JSON allows none before ] or })";
const COMMENT = " (a comment: JSON allows none)";
export const LINE_BREAK = ' (a line break inside a string: close the string with " before the line ends, or write the break as \\n)';

/**
 * The note on a fault at `offset` that is not a trailing comma: a comment starting there, or a line break,
 * which is a fault only inside a string (outside one it is white space): most often a string left unclosed;
 * or another control character (a NUL byte, a tab in a string), which a reader of the line cannot see.
 */
function placeNote(text: string, offset: number): string {
  if (startsComment(text, offset)) return COMMENT;
  if (text[offset] === "\n" || text[offset] === "\r") return LINE_BREAK;
  const code = text.charCodeAt(offset);
  if (code < 0x20) {
    const cp = codePointLabel(code);
    return ` (the control character ${cp}${code === 0 ? ", a NUL byte" : code === 9 ? ", a tab" : ""}: JSON takes it only inside a string, escaped as ${jsEscape(text.charAt(offset))})`;
  }
  return "";
}

/** Whether a `//` or `/*` comment starts at `offset`. */
function startsComment(text: string, offset: number): boolean {
  return text.charCodeAt(offset) === 0x2f && (text.charCodeAt(offset + 1) === 0x2f || text.charCodeAt(offset + 1) === 0x2a);
}

/**
 * The fault at V8's position: where it stopped, but for a trailing comma, where it points at the } or ]
 * after it (`{"a":1,}`: "Expected double-quoted property name"), and the comma is what to delete.
 */
function faultAt(text: string, position: number): { offset: number; note: string } | null {
  if (position > text.length) return null;
  const closing = text[position] === "}" || text[position] === "]";
  let i = position - 1;
  while (closing && i >= 0 && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i--;
  if (closing && text[i] === ",") return { offset: i, note: TRAILING_COMMA };
  return { offset: position, note: placeNote(text, position) };
}

/** "line L, column C" of a UTF-16 offset into `text` (1-based; the column counts UTF-16 units, as JSON.parse's position does). */
export function linePlace(text: string, offset: number): string {
  const before = text.slice(0, offset);
  return `line ${before.split("\n").length}, column ${offset - before.lastIndexOf("\n")}`;
}

/** The UTF-16 offset into `text` of a UTF-8 byte offset (which the tokenizer of @streamparser/json counts). */
export function utf16Offset(text: string, byte: number): number {
  return Buffer.from(text).subarray(0, byte).toString().length;
}

/**
 * The first character no JSON token starts with, the first comma right before a ] or }, or the first
 * token where no token of its kind may stand (`{"a": }`, `[,1]`, for which V8 says "Unexpected token"
 * and gives no position): its UTF-16 offset.
 */
function lexicalFault(text: string): { offset: number; trailingComma: boolean } | null {
  const tokenizer = new Tokenizer();
  const parser = new TokenParser();
  let found: { byte: number; trailingComma: boolean } | null = null;
  let comma = -1;
  /** The offset of the token the parser was last given: where it stopped when it errs. */
  let at = -1;
  parser.onValue = () => {};
  parser.onError = () => {
    if (!found) found = { byte: at, trailingComma: false };
  };
  tokenizer.onToken = (parsed) => {
    const { token, offset } = parsed;
    if (found) return;
    if (comma >= 0 && (token === TokenType.RIGHT_BRACKET || token === TokenType.RIGHT_BRACE)) found = { byte: comma, trailingComma: true };
    comma = token === TokenType.COMMA ? offset : -1;
    if (found) return;
    at = offset;
    parser.write(parsed);
  };
  tokenizer.onError = (error) => {
    const place = /absolute position "(\d+)"/.exec(error.message);
    if (!found && place) found = { byte: Number(place[1]), trailingComma: false };
  };
  try {
    tokenizer.write(text);
    tokenizer.end();
  } catch {
    // onError has what there is to know.
  }
  // Set in the callbacks, which TypeScript does not follow. The tokenizer counts UTF-8 bytes.
  const fault = found as { byte: number; trailingComma: boolean } | null;
  return fault && { offset: utf16Offset(text, fault.byte), trailingComma: fault.trailingComma };
}
