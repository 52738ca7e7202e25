/**
 * How figures are printed on the command line. Gates compare the value as printed; the rounding
 * itself is report/format.ts's, shared with the HTML reports.
 */
import { formatFigure, formatPassRate, formatSignedFigure, passRatePrinted, type PassRateCounts } from "../report/format.js";
import { jsEscape } from "../unprintable.js";

export { formatFigure, formatSignedFigure };

/** A pass rate as a percentage: 0.95 -> "95.0%" (exact, see {@link passRatePrinted}). */
export function formatRate(s: PassRateCounts): string {
  return s.pass_rate === null ? "-" : formatPassRate(s);
}

/** The printed value back as a number, which is what a gate compares. */
export function printedFigure(value: number): number {
  return Number(formatFigure(value));
}

/** The printed pass rate back as a fraction: the same double as the printed digits read as a number ("99.95%" → 0.9995). */
export function printedRate(s: PassRateCounts): number | null {
  const printed = passRatePrinted(s);
  return printed === null ? null : Number(`${printed.percent.toFixed(printed.decimals)}e-2`);
}

/** A size in bytes for people: "512 B", "3.4 MB", "1.25 GB" (powers of 1000, as `ls -h --si` and file managers). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ["kB", "MB", "GB", "TB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.5 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)} ${units[unit]}`;
}

/**
 * Characters a terminal would act on or that rearrange the text around them, when printed raw: controls
 * (\p{Cc}: ESC starts a sequence that recolours the terminal, sets its title, moves the cursor; CR rewrites
 * the line; C1 controls such as U+009B act like ESC [ on some terminals) other than the line feed that ends
 * a message's lines; format characters (\p{Cf}: bidi overrides and isolates, which reverse what follows,
 * zero width characters) other than ZWNJ and ZWJ, which shape visible text; lone surrogates; and the line
 * and paragraph separators.
 */
const UNPRINTABLE = /(?![\n\u200C\u200D])[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;

/**
 * `text` as it may be printed on a terminal: each character of {@link UNPRINTABLE} written as an escape
 * (`\u001b`, `\u202e`; `\u{e0001}` above U+FFFF). Messages quote user data (a dataset row a parser could
 * not read, a header name, a path), which must show as text and not drive the terminal. The files written
 * (results.jsonl, --summary) keep the data as it was.
 */
export function forTerminal(text: string): string {
  return text.replace(UNPRINTABLE, jsEscape);
}

/**
 * {@link forTerminal} for text that must stay on one line (a table cell, a path in a heading): the line
 * feed is escaped too (`\u000a`), so that an id or a file name holding one cannot break a table's rows.
 */
export function forTerminalLine(text: string): string {
  return forTerminal(text).replace(/\n/g, "\\u000a");
}
