/** One run's rows held whole, for a comparison whose runs do not pair in order. */
import type { RowScores } from "../run/row-scores.js";
import { Float64Buffer } from "../stats/float64-buffer.js";

/**
 * One run's rows in typed arrays, in the order they came: each evaluator's scores (8 bytes a row) and the row
 * numbers (8 bytes), then, once the first row is taken, the numbers sorted and where each came (12 bytes), so
 * that what it holds follows the run's row count, not its highest row number (up to 2^28, 2 GiB an evaluator
 * when the arrays were indexed by row number). Every row is added before the first is taken, and the reader
 * gives each row number once.
 */
export class HeldRows {
  private readonly scores = new Map<string, Float64Buffer>();
  private readonly ids: unknown[] = [];
  private readonly rows = new Float64Buffer();
  private index: { sorted: Float64Array; order: Uint32Array } | undefined;

  add(r: RowScores): void {
    if (this.index) throw new Error("HeldRows: a row was added after the first was taken");
    const at = this.rows.length;
    this.rows.push(r.row);
    if (r.id !== undefined && r.id !== null) this.ids[at] = r.id;
    for (const name in r.scores) {
      let column = this.scores.get(name);
      if (!column) this.scores.set(name, (column = new Float64Buffer()));
      const score = r.scores[name];
      if (Number.isFinite(score)) column.set(at, score as number);
    }
  }

  /** Row `row` as it was added (its scores that were finite), or null if it was not. */
  take(row: number): RowScores | null {
    const { sorted, order } = (this.index ??= this.sortRows());
    const p = positionOf(sorted, row);
    if (p < 0) return null;
    const at = order[p] as number;
    const scores: Record<string, number> = Object.create(null); // an evaluator may be named "__proto__"
    for (const [name, column] of this.scores) {
      const score = column.get(at);
      if (!Number.isNaN(score)) scores[name] = score;
    }
    return { row, id: this.ids[at], scores };
  }

  /** The row numbers sorted, and for each the place where its row came. */
  private sortRows(): { sorted: Float64Array; order: Uint32Array } {
    const rows = this.rows.view();
    const sorted = rows.slice().sort();
    const order = new Uint32Array(rows.length);
    for (let at = 0; at < rows.length; at++) order[positionOf(sorted, rows[at] as number)] = at;
    return { sorted, order };
  }
}

/** Where `value` is in `sorted` (ascending), or -1. */
function positionOf(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid] as number;
    if (v === value) return mid;
    if (v < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
