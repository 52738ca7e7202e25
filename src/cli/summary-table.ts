import type { RunSummary } from "../run/types.js";
import { formatInt, rowsText } from "../report/format.js";
import { formatFigure, formatRate } from "./format.js";
import { renderTableBlocks } from "./table.js";

/**
 * The run summary as a plain-text table: one row per evaluator. Wider than `width` (no limit by default; long
 * evaluator names on a narrow terminal), its columns go on in further tables, each beginning with the evaluator.
 */
export function summaryTable(summary: RunSummary, width = Number.POSITIVE_INFINITY): string {
  const rows = summary.evaluators.map((e) => [
    e.name,
    e.n,
    e.skipped,
    e.errors,
    formatFigure(e.mean),
    formatFigure(e.median),
    formatFigure(e.p10),
    formatFigure(e.p90),
    formatFigure(e.min),
    formatFigure(e.max),
    formatRate(e),
  ]);
  const header = ["evaluator", "n", "skipped", "errors", "mean", "median", "p10", "p90", "min", "max", "pass rate"];
  const note = [rowsText(summary.rows), `${formatInt(summary.row_errors)} unreadable`];
  if (summary.skipped_as_zero) note.push("skipped rows counted as 0");
  return `${renderTableBlocks(header, rows, 1, width)}\n${note.join(", ")}`;
}
