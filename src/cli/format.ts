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
