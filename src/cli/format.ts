/**
 * How figures are printed. Gates compare the value as printed, so the rounding lives here, once.
 */

/** A score or mean: 4 decimals for fractions, integers as they are; "-" for none. */
export function formatFigure(value: number | null): string {
  if (value === null) return "-";
  return Number.isInteger(value) ? String(value) : value.toFixed(4);
}

/** A pass rate as a percentage with one decimal: 0.95 -> "95.0%". */
export function formatRate(rate: number | null): string {
  return rate === null ? "-" : `${(rate * 100).toFixed(1)}%`;
}

/** The printed value back as a number, which is what a gate compares. */
export function printedFigure(value: number): number {
  return Number(formatFigure(value));
}

/** The printed pass rate back as a fraction. */
export function printedRate(rate: number): number {
  return Number((rate * 100).toFixed(1)) / 100;
}
