import { forTerminalLine } from "./format.js";

/**
 * Renders rows as an aligned plain-text table; numbers are right-aligned. Cells often hold data (a run's
 * dataset path, a row id): each is written as {@link forTerminalLine} does, so that a control or bidi
 * character in it does not act on the terminal and a line break does not split its row.
 */
export function renderTable(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [header, ...rows].map((r) => r.map((c) => forTerminalLine(String(c))));
  const widths = header.map((_, i) => Math.max(...cells.map((r) => [...(r[i] ?? "")].length)));
  const line = (r: readonly string[], source: readonly (string | number)[]) =>
    r
      .map((c, i) => {
        const pad = " ".repeat((widths[i] ?? 0) - [...c].length);
        return typeof source[i] === "number" ? pad + c : c + pad;
      })
      .join("  ")
      .trimEnd();
  const out = [line(cells[0] ?? [], header), widths.map((w) => "-".repeat(w)).join("  ")];
  rows.forEach((r, i) => out.push(line(cells[i + 1] ?? [], r)));
  return out.join("\n");
}
