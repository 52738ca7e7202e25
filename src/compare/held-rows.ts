/** One run's rows held by row number, for a comparison whose runs do not pair in order. */
import type { RowScores } from "../run/row-scores.js";
import { Float64Buffer } from "../stats/float64-buffer.js";
import { SeenRows } from "./run-reader.js";

/**
 * One run's rows by row number, in typed arrays: each evaluator's scores (8 bytes per row number up to the
 * highest held, so a run with gaps in its numbers costs more than its rows), and the ids.
 */
export class HeldRows {
  private readonly scores = new Map<string, Float64Buffer>();
  private readonly ids: unknown[] = [];
  private readonly present = new SeenRows();

  add(r: RowScores): void {
    this.present.set(r.row);
    if (r.id !== undefined && r.id !== null) this.ids[r.row] = r.id;
    for (const name in r.scores) {
      let column = this.scores.get(name);
      if (!column) this.scores.set(name, (column = new Float64Buffer()));
      const score = r.scores[name];
      if (Number.isFinite(score)) column.set(r.row, score as number);
    }
  }

  /** Row `row` as it was added (its scores that were finite), or null if it was not. */
  take(row: number): RowScores | null {
    if (!this.present.has(row)) return null;
    const scores: Record<string, number> = Object.create(null); // an evaluator may be named "__proto__"
    for (const [name, column] of this.scores) {
      const score = column.get(row);
      if (!Number.isNaN(score)) scores[name] = score;
    }
    return { row, id: this.ids[row], scores };
  }
}
