import stringWidth from "string-width";
import { forTerminalLine } from "./format.js";
import type { CliIO } from "./io.js";

/**
 * How wide a table may be when stdout is not a terminal (a CI log, a file): past it, a table's columns go on
 * in another table under the first, as on a terminal past its width.
 */
const PIPE_COLUMNS = 160;

/** The width a table printed on `io` may take: the terminal's, or {@link PIPE_COLUMNS} when stdout is not one (or says 0). */
export function tableWidth(io: Pick<CliIO, "columns">): number {
  return io.columns !== undefined && io.columns > 0 ? io.columns : PIPE_COLUMNS;
}

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

/**
 * {@link renderTable} for a table with a column per evaluator, which a wide config makes wider than a line:
 * when it is wider than `width` terminal columns, the columns after the first `keep` are dealt, in order, into
 * tables printed one after another (a blank line between), each repeating the first `keep` columns (what names
 * a row) and holding as many of the others as fit in `width`, at least one. Otherwise the one table.
 */
export function renderTableBlocks(header: readonly string[], rows: readonly (readonly (string | number)[])[], keep: number, width: number): string {
  const widths = header.map((h, i) => Math.max(stringWidth(forTerminalLine(h)), ...rows.map((r) => stringWidth(forTerminalLine(String(r[i] ?? ""))))));
  const span = (columns: readonly number[]) => columns.reduce((sum, i) => sum + (widths[i] ?? 0), 0) + 2 * (columns.length - 1);
  const kept = Array.from({ length: Math.min(keep, header.length) }, (_, i) => i);
  const blocks: number[][] = [];
  for (let i = kept.length; i < header.length; i++) {
    const block = blocks[blocks.length - 1];
    if (block && span([...kept, ...block, i]) <= width) block.push(i);
    else blocks.push([i]);
  }
  if (blocks.length <= 1) return renderTable(header, rows);
  const pick = <T>(r: readonly T[], block: readonly number[]): T[] => [...kept, ...block].map((i) => r[i] as T);
  return blocks.map((block) => renderTable(pick(header, block), rows.map((r) => pick(r, block)))).join("\n\n");
}

/** `text` cut into lines of at most `width` terminal columns at spaces (a word longer than that gets a line of its own). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && stringWidth(line) + 1 + stringWidth(word) > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line];
}
