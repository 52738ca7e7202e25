import { graphemeSegments } from "../metrics/text-units.js";
import { forTerminalLine } from "./format.js";

/**
 * A grapheme cluster a terminal draws two columns wide: an emoji (presented as one, or a flag) or an East
 * Asian wide or fullwidth character (Hangul, CJK, kana, fullwidth forms); UAX #11, in its main ranges.
 */
const WIDE = /^(?:\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F|\p{Regional_Indicator}|[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{20000}-\u{3FFFD}])/u;

/** The columns `text` takes on a terminal: one per grapheme cluster (a letter and its combining marks are one), two for a wide one. */
function displayWidth(text: string): number {
  // Most cells are ASCII: one column per character.
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let width = 0;
  for (const { segment } of graphemeSegments(text)) width += WIDE.test(segment) ? 2 : 1;
  return width;
}

/**
 * Renders rows as an aligned plain-text table, by the columns each cell takes on a terminal
 * ({@link displayWidth}); numbers are right-aligned. Cells often hold data (a run's
 * dataset path, a row id): each is written as {@link forTerminalLine} does, so that a control or bidi
 * character in it does not act on the terminal and a line break does not split its row.
 */
export function renderTable(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [header, ...rows].map((r) => r.map((c) => forTerminalLine(String(c))));
  const widths = header.map((_, i) => Math.max(...cells.map((r) => displayWidth(r[i] ?? ""))));
  const line = (r: readonly string[], source: readonly (string | number)[]) =>
    r
      .map((c, i) => {
        const pad = " ".repeat((widths[i] ?? 0) - displayWidth(c));
        return typeof source[i] === "number" ? pad + c : c + pad;
      })
      .join("  ")
      .trimEnd();
  const out = [line(cells[0] ?? [], header), widths.map((w) => "-".repeat(w)).join("  ")];
  rows.forEach((r, i) => out.push(line(cells[i + 1] ?? [], r)));
  return out.join("\n");
}
