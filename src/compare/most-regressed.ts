/** Keeps the k rows that regressed most, without holding every regressed row. */
import type { Direction } from "../types.js";
import type { WorstRow } from "./types.js";

/** How much worse b is than a: positive for a regression, whatever the direction. */
function regression(direction: Direction, a: number, b: number): number {
  return direction === "maximize" ? a - b : b - a;
}

/**
 * The `limit` rows with the largest {@link regression} (> 0 only), worst first; ties go to the lower
 * row number, so the list does not depend on the order in which rows arrive.
 */
export class MostRegressed {
  private readonly rows: (WorstRow & { badness: number })[] = [];

  constructor(
    private readonly direction: Direction,
    private readonly limit: number,
  ) {}

  /** `rowB`: the row's number in run b, given where rows are paired by key (kept as `row_b`, even when it is `row`). */
  offer(row: number, id: unknown, a: number, b: number, rowB?: number): void {
    const badness = regression(this.direction, a, b);
    if (!(badness > 0) || this.limit === 0) return;
    const list = this.rows;
    const last = list[list.length - 1];
    if (list.length === this.limit && last && !worse(badness, row, last.badness, last.row)) return;
    let i = list.length;
    while (i > 0) {
      const prev = list[i - 1];
      if (!prev || !worse(badness, row, prev.badness, prev.row)) break;
      i--;
    }
    list.splice(i, 0, { row, ...(rowB !== undefined ? { row_b: rowB } : {}), id, score_a: a, score_b: b, delta: b - a, badness });
    if (list.length > this.limit) list.pop();
  }

  list(): WorstRow[] {
    return this.rows.map(({ badness: _, ...worst }) => worst);
  }
}

function worse(badness: number, row: number, otherBadness: number, otherRow: number): boolean {
  return badness > otherBadness || (badness === otherBadness && row < otherRow);
}
