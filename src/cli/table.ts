import stringWidth from "string-width";
import { forTerminalLine } from "./format.js";

/**
 * Renders rows as an aligned plain-text table, by the columns each cell takes on a terminal (string-width:
 * a letter and its combining marks take one, an emoji or an East Asian wide character two); numbers are right-aligned. Cells often hold data (a run's
 * dataset path, a row id): each is written as {@link forTerminalLine} does, so that a control or bidi
 * character in it does not act on the terminal and a line break does not split its row.
 */
export function renderTable(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [header, ...rows].map((r) => r.map((c) => forTerminalLine(String(c))));
  const widths = header.map((_, i) => Math.max(...cells.map((r) => stringWidth(r[i] ?? ""))));
  const line = (r: readonly string[], source: readonly (string | number)[]) =>
    r
      .map((c, i) => {
        const pad = " ".repeat((widths[i] ?? 0) - stringWidth(c));
        return typeof source[i] === "number" ? pad + c : c + pad;
      })
      .join("  ")
      .trimEnd();
  const out = [line(cells[0] ?? [], header), widths.map((w) => "-".repeat(w)).join("  ")];
  rows.forEach((r, i) => out.push(line(cells[i + 1] ?? [], r)));
  return out.join("\n");
}
