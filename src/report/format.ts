/**
 * How numbers, times and ids read in reports. Everything here is locale-independent (en-US, UTC) so
 * the same run always renders the same bytes.
 */
import { roundFractionHalfUp } from "../metrics/rounding.js";
import { codePointCount, graphemeSegments, unitPrefixEnd } from "../metrics/text-units.js";
import type { EvaluatorSummary } from "../run/types.js";
import type { Direction } from "../types.js";
import { cutText } from "../cut-text.js";

/** What a pass rate is computed from: the rate and how many rows had a verdict. */
export type PassRateCounts = Pick<EvaluatorSummary, "pass_rate" | "verdicts">;

/** Shown for a missing value (no scored rows, no verdict). */
export const MISSING = "—";

/**
 * A score as text: maximizing evaluators score in [0, 1] and get 3 decimals ("0.742", "1.000");
 * minimizing ones count edits, so integers stay integers and other values get 2 decimals.
 * A similarity gets more decimals when 3 would put it on the other side of `threshold` (0.69996 under a
 * threshold of 0.7 reads "0.69996", not a failing "0.700") or make a fraction whole (0.99996 is not "1.000").
 */
export function formatScore(value: number | null | undefined, direction: Direction, threshold?: number | null): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING;
  if (direction === "minimize") return Number.isInteger(value) ? formatInt(value) : value.toFixed(2);
  const side = (shown: number) => threshold === null || threshold === undefined || shown >= threshold === value >= threshold;
  return fixedUntil(value, 3, (shown) => side(shown) && Number.isInteger(shown) === Number.isInteger(value));
}

/**
 * `value` to `decimals` decimals, or to the fewest more (up to 19) whose number, as printed, `keeps` accepts;
 * `String(value)` when none does. The figures here print so that rounding never changes what they say.
 */
function fixedUntil(value: number, decimals: number, keeps: (shown: number) => boolean): string {
  for (let d = decimals; d < 20; d++) {
    const text = value.toFixed(d);
    if (keeps(Number(text))) return text;
  }
  return String(value);
}

/** Whether a value passes `threshold` in `direction` (maximize: >=, minimize: <=). */
export function passes(value: number, threshold: number, direction: Direction): boolean {
  return direction === "maximize" ? value >= threshold : value <= threshold;
}

/** The sign a threshold's label puts before it, as {@link passes} compares: "≥" when maximizing, "≤" when minimizing. */
export function passSign(direction: Direction): string {
  return direction === "maximize" ? "≥" : "≤";
}

/**
 * A threshold as the evaluator holds it: a similarity to 3 decimals, or as many as it has (0.3334 reads
 * "0.3334", not "0.333", which a score of 0.3333 would seem to meet); a distance as {@link formatScore} does.
 */
export function formatThreshold(threshold: number, direction: Direction): string {
  if (direction === "minimize" || !Number.isFinite(threshold)) return formatScore(threshold, direction);
  return fixedUntil(threshold, 3, (shown) => shown === threshold);
}

/**
 * A pass rate in percent and its decimals: rounded half-up to 0.1 from the exact fraction passed /
 * verdicts, so that 2,470 of 20,000 reads 12.4%, not the 12.3% that `(0.1235 * 100).toFixed(1)`
 * gives. A rate that is not all or nothing never reads as 100.0% or 0.0%: it gets more decimals
 * until it does not (1,999 of 2,000 reads 99.95%), so that a gate at 1 fails when one row failed.
 * Null without verdicts.
 */
export function passRatePrinted(s: PassRateCounts): { percent: number; decimals: number } | null {
  if (s.pass_rate === null || !(s.verdicts > 0)) return null;
  const passed = Math.round(s.pass_rate * s.verdicts);
  for (let decimals = 1; ; decimals++) {
    const percent = roundFractionHalfUp(passed * 100, s.verdicts, decimals);
    // Ends: passed / verdicts is at least 1 / verdicts away from 0 and 1.
    if ((percent === 100 && passed !== s.verdicts) || (percent === 0 && passed !== 0)) continue;
    return { percent, decimals };
  }
}

/** The pass rate in percent as printed ({@link passRatePrinted}); null without verdicts. */
export function passRatePercent(s: PassRateCounts): number | null {
  return passRatePrinted(s)?.percent ?? null;
}

/** A pass rate as printed everywhere: "95.0%", "99.95%", or {@link MISSING} without verdicts. */
export function formatPassRate(s: PassRateCounts): string {
  const printed = passRatePrinted(s);
  return printed === null ? MISSING : `${printed.percent.toFixed(printed.decimals)}%`;
}

/**
 * A summary figure (a mean, a percentile, a difference): integers as they are, other values to 4
 * decimals; `missing` for none. A value that is not whole never reads as a whole number: 0.99996 reads
 * "0.99996", not "1.0000", so that a gate at 1 (or a distance gate at 0) fails when it should.
 */
export function formatFigure(value: number | null, missing = "-"): string {
  if (value === null) return missing;
  if (Number.isInteger(value)) return String(value);
  return fixedUntil(value, 4, (shown) => !Number.isInteger(shown));
}

/**
 * A difference as a summary figure ({@link formatFigure}) with its sign: "+0.0002", "-0.0002", and no change (0 or
 * -0) as "0", which is neither up nor down: "+0" read as a rise. `minus` stands for the hyphen (a true minus sign,
 * U+2212, in HTML). Like the figure, a difference that is not zero never reads as zero, so every figure but "0" has
 * its sign. `missing` for none. Every signed figure simeval shows, on the terminal and in the reports, is written here.
 */
export function formatSignedFigure(value: number | null, missing = "-", minus = "-"): string {
  if (value === null) return missing;
  const text = formatFigure(value);
  if (text === "0") return text;
  return text.startsWith("-") ? `${minus}${text.slice(1)}` : `+${text}`;
}

/** {@link formatFigure} in an HTML report: as `simeval` prints it on the terminal, {@link MISSING} for none. */
export function htmlFigure(value: number | null): string {
  return formatFigure(value, MISSING);
}

/** {@link formatSignedFigure} in an HTML report: {@link MISSING} for none, a true minus sign (U+2212). */
export function htmlSignedFigure(value: number | null): string {
  return formatSignedFigure(value, MISSING, "\u2212");
}

/** A p-value: 4 decimals, or "< 0.0001" below that (as `simeval compare` prints it). */
export function formatP(p: number | null | undefined, alpha = 0.05): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return MISSING;
  return p < 0.0001 ? "< 0.0001" : pDigits(p, alpha);
}

/**
 * p to 4 decimals, or more when rounding would carry it across alpha: 0.049995 (significant at 0.05)
 * reads "0.049995", not "0.0500".
 */
export function pDigits(p: number, alpha = 0.05): string {
  return fixedUntil(p, 4, (shown) => shown < alpha === p < alpha);
}

/** A confidence level as a percentage with the decimals it needs (ten significant digits at most): 0.95 → "95%", 0.9995 → "99.95%". */
export function formatLevel(confidence: number): string {
  return `${Number((confidence * 100).toPrecision(10))}%`;
}

/** An integer with thousands separators: 12345 → "12,345". */
export function formatInt(n: number): string {
  return n.toLocaleString("en-US", { maximumFractionDigits: 0 });
}

/** A text cut to a number of code points: its first `max`, how many it has, whether it was cut. */
export interface CappedText {
  text: string;
  length: number;
  cut: boolean;
}

/**
 * The first `max` code points of `text` and how many it has, counted in place: a report may be handed
 * a 50 MB text, and an array of its code points would cost gigabytes.
 */
export function capCodePoints(text: string, max: number): CappedText {
  const length = codePointCount(text);
  return length > max ? { text: text.slice(0, unitPrefixEnd(text, max, "code_point")), length, cut: true } : { text, length, cut: false };
}

/** An ISO 8601 time as "2024-05-01 12:30:05 UTC"; text that is not a time is returned as it is. */
export function formatTime(iso: string | null | undefined): string {
  if (iso === null || iso === undefined || iso === "") return MISSING;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return `${new Date(t).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/**
 * An unreadable row as `run` prints it and its report lists it: "row 2 (line 2): not valid JSON …", the line said
 * once (a reader's message starts with "line N: ", which follows the row's number otherwise).
 */
export function rowErrorText(e: { row: number; line?: number | null | undefined; message: string }): string {
  if (e.line === undefined || e.line === null) return `row ${e.row}: ${e.message}`;
  const prefix = `line ${e.line}: `;
  return `row ${e.row} (line ${e.line}): ${e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message}`;
}

/** "1 row", "2 rows", "1,234 rows": a count of rows as the messages and reports write it. */
export function rowsText(n: number): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? "row" : "rows"}`;
}

/**
 * The dataset of a run not read from a dataset file (`RunInfo.dataset_path` null: a service's, scoring traces), as
 * `show` and the HTML reports say it, and its cell in the tables of `runs` and `trend`.
 */
export const NO_DATASET_TEXT = "none (not read from a dataset file)";
export const NO_DATASET_CELL = "-";

/**
 * The longest row id shown, in UTF-16 code units: an id labels its row wherever the row is named (a JUnit
 * test case per evaluator, a worst row in a report, `compare`'s tables), so a 5 MB id would be copied
 * into each of those places whole; past this it is cut and ends in "…".
 */
const SHOWN_ID_LENGTH = 100;

/**
 * A row id as text: strings as they are, numbers and other values as JSON, none as ""; one longer than
 * {@link SHOWN_ID_LENGTH} code units is cut at the last character boundary within its first 100
 * ({@link cutAtGrapheme}) and "…".
 */
export function formatId(id: unknown): string {
  if (id === null || id === undefined) return "";
  let text: string;
  if (typeof id === "string") text = id;
  else {
    try {
      text = JSON.stringify(id) ?? String(id);
    } catch {
      text = String(id);
    }
  }
  return cutAtGrapheme(text, SHOWN_ID_LENGTH);
}

/**
 * `text` whole when it is at most `max` UTF-16 code units long, else cut at the last grapheme cluster boundary
 * at or before `max` and "…": a letter is not parted from its combining marks (`é` written `e` + U+0301), nor an
 * emoji sequence (👨‍👩‍👧, 👍🏽) or a flag (two regional indicators) cut into pieces that show as other characters.
 * A first cluster longer than `max` (a letter under hundreds of marks) is cut as {@link cutText} cuts, between
 * code points, rather than shown as "…" alone. Segments only the start of the text, however long it is.
 */
export function cutAtGrapheme(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (const { index } of graphemeSegments(text)) {
    if (index > max) break;
    end = index;
  }
  return end === 0 ? cutText(text, max) : `${text.slice(0, end)}…`;
}

/** An SVG coordinate rounded to 0.1 px, as the charts write them: smaller files, same picture. */
export function svgCoordinate(v: number): string {
  return String(Math.round(v * 10) / 10);
}
