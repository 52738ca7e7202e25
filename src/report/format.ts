/**
 * How numbers, times and ids read in reports. Everything here is locale-independent (en-US, UTC) so
 * the same run always renders the same bytes.
 */
import { roundFractionHalfUp } from "../metrics/rounding.js";
import type { EvaluatorSummary } from "../run/types.js";
import type { Direction } from "../types.js";

/** What a pass rate is computed from: the rate and how many rows had a verdict. */
export type PassRateCounts = Pick<EvaluatorSummary, "pass_rate" | "verdicts">;

/** Shown for a missing value (no scored rows, no verdict). */
export const MISSING = "—";

/**
 * A score as text: maximizing evaluators score in [0, 1] and get 3 decimals ("0.742", "1.000");
 * minimizing ones count edits, so integers stay integers and other values get 2 decimals.
 */
export function formatScore(value: number | null | undefined, direction: Direction): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING;
  if (direction === "minimize") return Number.isInteger(value) ? formatInt(value) : value.toFixed(2);
  return value.toFixed(3);
}

/** A signed difference, with a true minus sign: "+0.012", "−3.50". */
export function formatSigned(value: number | null | undefined, direction: Direction): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING;
  const digits = direction === "minimize" ? 2 : 3;
  const abs = Math.abs(value).toFixed(digits);
  if (Number(abs) === 0) return `±${abs}`;
  return `${value < 0 ? "\u2212" : "+"}${abs}`;
}

/**
 * A pass rate in percent, rounded half-up to 0.1 from the exact fraction passed / verdicts, so that
 * 2,470 of 20,000 reads 12.4%, not the 12.3% that `(0.1235 * 100).toFixed(1)` gives; null without verdicts.
 */
export function passRatePercent(s: PassRateCounts): number | null {
  if (s.pass_rate === null || !(s.verdicts > 0)) return null;
  return roundFractionHalfUp(Math.round(s.pass_rate * s.verdicts) * 100, s.verdicts, 1);
}

/** A pass rate as printed everywhere: "95.0%", or {@link MISSING} without verdicts. */
export function formatPassRate(s: PassRateCounts): string {
  const percent = passRatePercent(s);
  return percent === null ? MISSING : `${percent.toFixed(1)}%`;
}

/** A p-value: 3 decimals, or "< 0.001" below that. */
export function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return MISSING;
  return p < 0.001 ? "< 0.001" : p.toFixed(3);
}

/** An integer with thousands separators: 12345 → "12,345". */
export function formatInt(n: number): string {
  return n.toLocaleString("en-US", { maximumFractionDigits: 0 });
}

/** An ISO 8601 time as "2024-05-01 12:30:05 UTC"; text that is not a time is returned as it is. */
export function formatTime(iso: string | null | undefined): string {
  if (iso === null || iso === undefined || iso === "") return MISSING;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return `${new Date(t).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** A row id as text: strings as they are, numbers and other values as JSON, none as "". */
export function formatId(id: unknown): string {
  if (id === null || id === undefined) return "";
  if (typeof id === "string") return id;
  try {
    return JSON.stringify(id) ?? String(id);
  } catch {
    return String(id);
  }
}
