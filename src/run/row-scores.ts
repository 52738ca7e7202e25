import { argumentError, EvalError, isPlainObject } from "../errors.js";
import { isResultError, type RowOutcome, type RowResult } from "./types.js";

/**
 * What a comparison reads of one row: its number, its id, and each evaluator's pairable score, keyed by
 * evaluator name. A run store reads these without parsing the row's results (`RunStore.scores`).
 */
export interface RowScores {
  row: number;
  id?: unknown;
  /** The row's idempotency key ({@link RowOutcome.key}), when it has one: what `compareRuns` pairs by with `pairBy: "key"`. */
  key?: string;
  /** By evaluator name: the score, or null when it cannot be paired ({@link pairableScore}). */
  scores: Record<string, number | null>;
}

/**
 * A result's score when it can be paired with another run's: not an error, not skipped, a finite number; else null.
 * Throws INPUT_INVALID when `result` is neither an object nor undefined: `null` or 5 threw a TypeError.
 */
export function pairableScore(result: RowResult | undefined): number | null {
  if (result !== undefined && !isPlainObject(result)) {
    throw argumentInvalid("pairableScore", "result", "an evaluator's result ({ score, skipped, … } or { error }) or nothing", result);
  }
  return scoreOf(result);
}

/**
 * The scores of an outcome. A row that could not be read has none. Throws INPUT_INVALID, naming the field,
 * when `o` is not an object with a number `row` and `results` an object or nothing: `rowScores(5)` gave an
 * empty row, `rowScores(null)` threw a TypeError. The results themselves are read as given.
 */
export function rowScores(o: RowOutcome): RowScores {
  const expected = "a row outcome ({ row, id, results })";
  if (!isPlainObject(o)) throw argumentInvalid("rowScores", "outcome", expected, o);
  if (typeof o.row !== "number") throw argumentInvalid("rowScores", "outcome.row", "a number (the row number)", o.row);
  const results: unknown = o.results;
  if (results !== undefined && results !== null && (typeof results !== "object" || Array.isArray(results))) {
    throw argumentInvalid("rowScores", "outcome.results", "an object of results by evaluator name or nothing", results);
  }
  return scoresOfOutcome(o);
}

/** {@link rowScores} without the checks, for the callers that read the outcomes of a run (once per row). */
export function scoresOfOutcome(o: RowOutcome): RowScores {
  const scores: Record<string, number | null> = {};
  // `?? {}`: an outcome built by hand for an unreadable row may leave its (empty) results out.
  const results = o.results ?? {};
  for (const name of Object.keys(results)) scores[name] = scoreOf(results[name]);
  const row: RowScores = { row: o.row, id: o.id, scores };
  if (o.key !== undefined) row.key = o.key;
  return row;
}

/** {@link pairableScore} without the check, for the callers that read a run's results (once per result). */
export function scoreOf(result: RowResult | undefined): number | null {
  if (result === undefined || isResultError(result) || result.skipped) return null;
  return typeof result.score === "number" && Number.isFinite(result.score) ? result.score : null;
}

/** INPUT_INVALID for an argument of {@link rowScores} or {@link pairableScore}, naming it (`outcome.row`). */
function argumentInvalid(fn: string, arg: string, expected: string, value: unknown): EvalError {
  return argumentError("INPUT_INVALID", fn, arg, expected, value);
}
