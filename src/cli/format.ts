/**
 * How figures are printed on the command line. Gates compare the value as printed; the rounding
 * itself is report/format.ts's, shared with the HTML reports.
 */
import { formatFigure, formatPassRate, formatSignedFigure, passRatePrinted, type PassRateCounts } from "../report/format.js";

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
