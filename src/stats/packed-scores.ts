import { isResultError, type RowOutcome, type RowVerdict } from "../run/types.js";

/** What a summary needs of one result (row, evaluator), as bit flags. */
export const CELL = {
  /** An evaluator error, a missing result, or a score that is not a finite number. */
  ERROR: 1,
  SKIPPED: 2,
  /** `scores` holds the result's score (else the score was null). */
  SCORE: 4,
  /** The result has a verdict (`passed` is not null)… */
  VERDICT: 8,
  /** …and it passed. */
  PASSED: 16,
} as const;

/**
 * A batch of rows reduced to what a summary needs, in typed arrays that a scoring thread hands over
 * without copying: as objects, their structured clone cost about 4 µs a row, half as much as scoring it.
 * The cell of row i and evaluator j (in the run's evaluator order) is at `i * evaluators + j`.
 */
export interface PackedScores {
  rows: number;
  evaluators: number;
  /** 1 where the row itself could not be read; its cells are then empty. */
  rowErrors: Uint8Array;
  /** {@link CELL} flags per cell. */
  cells: Uint8Array;
  /** The score of each cell flagged SCORE. */
  scores: Float64Array;
}

/** Room for `rows` rows of `evaluators` results, all empty until {@link packRow} fills them. */
export function emptyPacked(rows: number, evaluators: number): PackedScores {
  return {
    rows,
    evaluators,
    rowErrors: new Uint8Array(rows),
    cells: new Uint8Array(rows * evaluators),
    scores: new Float64Array(rows * evaluators),
  };
}

/** Packs outcomes for the evaluators `names` (in this order). */
export function packScores(outcomes: readonly RowOutcome[], names: readonly string[]): PackedScores {
  const packed = emptyPacked(outcomes.length, names.length);
  outcomes.forEach((o, i) => packRow(packed, i, o, names));
  return packed;
}

/** Packs `o` as row `i` of `packed`, for the evaluators `names` (in this order). */
export function packRow(packed: PackedScores, i: number, o: RowOutcome<RowVerdict>, names: readonly string[]): void {
  if (o.error !== undefined) {
    packed.rowErrors[i] = 1;
    return;
  }
  const m = names.length;
  for (let j = 0; j < m; j++) {
    const r = o.results[names[j] as string];
    const at = i * m + j;
    if (r === undefined || isResultError(r)) {
      packed.cells[at] = CELL.ERROR;
      continue;
    }
    if (r.score !== null) packed.scores[at] = r.score;
    if (r.skipped) packed.cells[at] = CELL.SKIPPED | (r.score === null ? 0 : CELL.SCORE);
    // NaN or ±Infinity cannot be averaged: counted as an error rather than poison the mean.
    else if (r.score !== null && !Number.isFinite(r.score)) packed.cells[at] = CELL.ERROR;
    else packed.cells[at] = (r.score === null ? 0 : CELL.SCORE) | (r.passed === null ? 0 : CELL.VERDICT | (r.passed ? CELL.PASSED : 0));
  }
}

/**
 * Row `i`'s pairable scores, in evaluator order, NaN where there is none: the cells flagged SCORE and
 * neither SKIPPED nor ERROR, as `pairableScore` (run/row-scores.ts) decides from a result.
 */
export function pairableScores(packed: PackedScores, i: number): number[] {
  const m = packed.evaluators;
  const out = new Array<number>(m);
  for (let j = 0; j < m; j++) {
    const at = i * m + j;
    out[j] = ((packed.cells[at] as number) & (CELL.SCORE | CELL.SKIPPED | CELL.ERROR)) === CELL.SCORE ? (packed.scores[at] as number) : Number.NaN;
  }
  return out;
}

/** The buffers to transfer when posting `packed` to another thread. */
export function packedBuffers(packed: PackedScores): ArrayBuffer[] {
  return [packed.rowErrors.buffer, packed.cells.buffer, packed.scores.buffer] as ArrayBuffer[];
}
