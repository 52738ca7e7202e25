/**
 * How figures are printed. Gates compare the value as printed, so the rounding lives here, once.
 */
import { formatPassRate, passRatePercent, type PassRateCounts } from "../report/format.js";

/** A score or mean: 4 decimals for fractions, integers as they are; "-" for none. */
export function formatFigure(value: number | null): string {
  if (value === null) return "-";
  return Number.isInteger(value) ? String(value) : value.toFixed(4);
}

/** A pass rate as a percentage with one decimal: 0.95 -> "95.0%" (exact, see {@link passRatePercent}). */
export function formatRate(s: PassRateCounts): string {
  return s.pass_rate === null ? "-" : formatPassRate(s);
}

/** The printed value back as a number, which is what a gate compares. */
export function printedFigure(value: number): number {
  return Number(formatFigure(value));
}

/** The printed pass rate back as a fraction: the same double as the printed digits read as a number. */
export function printedRate(s: PassRateCounts): number | null {
  const percent = passRatePercent(s);
  return percent === null ? null : Math.round(percent * 10) / 1000;
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
