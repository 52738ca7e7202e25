/**
 * Whether a score is one an evaluator's type can give, and what it must be when not: one test and one wording for
 * the results.jsonl reader (`readResultsFile`) and the run store (`appendRows`), which both hold a result's score to
 * its evaluator's declared range ({@link ScoreRange}) so that no score `compare` or a summary would misjudge is taken in.
 */
import type { EvaluatorDefinition, ScoreRange } from "./define.js";

/**
 * The largest score magnitude taken: 2^53, past any evaluator's (at most 1, or a distance in characters). Near
 * 1e308 a paired difference or a sum overflows to Infinity, and `compare` gave p = 0 with no interval,
 * "significant" (qa129).
 */
const MAX_SCORE = 2 ** 53;

/** What a score beyond {@link MAX_SCORE}, or not a number, must be instead. */
const BOUNDED = "a finite number or null, from -2^53 to 2^53 (no evaluator scores beyond; larger ones overflow the comparison's sums)";

/**
 * What `score`, given as a result of an evaluator of `definition`'s type, must be when it is no score that type can
 * give: a finite number within ±{@link MAX_SCORE} (a string, NaN, ±Infinity or 1e300 is not), and within the type's
 * range (`"one that type levenshtein can give, from 0 to 1"`); null when it is one, or null (no score).
 */
export function scoreFault(definition: Pick<EvaluatorDefinition, "type" | "scores">, score: unknown): string | null {
  if (score === null) return null;
  if (typeof score !== "number" || !(Math.abs(score) <= MAX_SCORE)) return BOUNDED;
  const range = definition.scores;
  if (score < range.min || score > range.max || (range.whole && !Number.isInteger(score))) return `one that type ${definition.type} can give, ${rangeText(range)}`;
  return null;
}

/** "from 0 to 1", "a whole number from 0 up": a {@link ScoreRange} as messages say it. */
function rangeText(range: ScoreRange): string {
  const bounds = range.max === Number.POSITIVE_INFINITY ? `from ${range.min} up` : `from ${range.min} to ${range.max}`;
  return range.whole ? `a whole number ${bounds}` : bounds;
}
