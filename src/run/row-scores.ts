import { isResultError, type RowOutcome, type RowResult } from "./types.js";

/**
 * What a comparison reads of one row: its number, its id, and each evaluator's pairable score, keyed by
 * evaluator name. A run store reads these without parsing the row's results (`RunStore.scores`).
 */
export interface RowScores {
  row: number;
  id?: unknown;
  /** By evaluator name: the score, or null when it cannot be paired ({@link pairableScore}). */
  scores: Record<string, number | null>;
}

/** A result's score when it can be paired with another run's: not an error, not skipped, a finite number; else null. */
export function pairableScore(result: RowResult | undefined): number | null {
  if (result === undefined || isResultError(result) || result.skipped) return null;
  return typeof result.score === "number" && Number.isFinite(result.score) ? result.score : null;
}

/** The scores of an outcome. A row that could not be read has none. */
export function rowScores(o: RowOutcome): RowScores {
  const scores: Record<string, number | null> = {};
  // `?? {}`: an outcome built by hand for an unreadable row may leave its (empty) results out.
  const results = o.results ?? {};
  for (const name of Object.keys(results)) scores[name] = pairableScore(results[name]);
  return { row: o.row, id: o.id, scores };
}
