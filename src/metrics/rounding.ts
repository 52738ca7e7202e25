/**
 * Exact decimal rounding of fractions, so that a score on a 0.005 step rounds as a person expects and
 * never suffers binary floating-point noise (e.g. `Math.round(1.005 * 100)` gives 100).
 */
import { badArgument } from "./arguments.js";

/**
 * `numerator / denominator` rounded half-up to `decimals` places, computed in exact integer
 * arithmetic: `floor((2·num·10^d + den) / (2·den)) / 10^d`.
 * Both arguments must be non-negative integers with `2·num·10^d + den` below 2^53, and `den > 0`;
 * `decimals` defaults to 2. Throws EvalError (INPUT_INVALID) otherwise.
 * Example: `roundFractionHalfUp(11, 12)` = 0.92; `roundFractionHalfUp(1, 200)` = 0.01.
 */
export function roundFractionHalfUp(numerator: number, denominator: number, decimals = 2): number {
  if (!Number.isInteger(numerator) || numerator < 0) throw badArgument("roundFractionHalfUp", "numerator", "an integer >= 0", numerator);
  if (!Number.isInteger(denominator) || denominator <= 0) throw badArgument("roundFractionHalfUp", "denominator", "an integer > 0", denominator);
  if (!Number.isInteger(decimals) || decimals < 0) throw badArgument("roundFractionHalfUp", "decimals", "an integer >= 0", decimals);
  const scale = 10 ** decimals;
  const top = 2 * numerator * scale + denominator;
  const bottom = 2 * denominator;
  if (!Number.isSafeInteger(bottom)) throw badArgument("roundFractionHalfUp", "denominator", "small enough that 2·denominator is below 2^53", denominator);
  if (!Number.isSafeInteger(top)) {
    // Blame decimals when no numerator above 0 could be rounded to so many places, else the numerator.
    const cause = Number.isSafeInteger(2 * scale + denominator) ? "numerator" : "decimals";
    throw badArgument("roundFractionHalfUp", cause, `small enough that 2·numerator·10^decimals + denominator is below 2^53`, cause === "numerator" ? numerator : decimals);
  }
  // Exact, though the quotient is a float: it is the exact one correctly rounded, and an exact quotient
  // q = k - r/bottom (integer k, r >= 1) is farther below k than half the spacing of doubles near q,
  // which is below 1/bottom since q·bottom < 2^53. So the float never reaches the integer above q, and
  // floor gives the exact floor (held against BigInt arithmetic in the tests).
  return Math.floor(top / bottom) / scale;
}
