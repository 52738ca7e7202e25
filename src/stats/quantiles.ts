/**
 * Compensated sums and quantiles of sorted score lists. Empty input gives `null` rather than NaN, so a
 * caller has to decide what an empty summary shows.
 */
import { EvalError } from "../errors.js";

/**
 * A running sum by Neumaier's compensated summation, fed one value at a time, so that millions of
 * scores lose no precision to rounding.
 */
export class CompensatedSum {
  private sum = 0;
  private compensation = 0;

  add(x: number): void {
    const t = this.sum + x;
    this.compensation += Math.abs(this.sum) >= Math.abs(x) ? this.sum - t + x : x - t + this.sum;
    this.sum = t;
  }

  get value(): number {
    return this.sum + this.compensation;
  }
}

/**
 * The p-quantile of values already sorted ascending, by linear interpolation between the closest ranks:
 * with h = (n − 1)·p, Q(p) = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋ + 1] − x[⌊h⌋]) (0-based).
 * This is Hyndman & Fan's definition 7, the default of R's `quantile()`, numpy's `percentile()` and
 * Excel's `PERCENTILE.INC`. Example: for [1, 2, 3, 4], p = 0.1 gives 1.3 and p = 0.9 gives 3.7.
 * `null` for an empty list; throws CONFIG_INVALID when p is not in [0, 1].
 */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number | null {
  checkProbability(p);
  const n = sorted.length;
  if (n === 0) return null;
  const [lo, frac] = quantileRank(n, p);
  const x = sorted[lo] as number;
  if (lo >= n - 1) return x;
  const y = sorted[lo + 1] as number;
  // x + frac·(y − x) can overshoot y by rounding; equal neighbours must give exactly that value.
  return frac === 0 || x === y ? x : Math.min(Math.max(x + frac * (y - x), x), y);
}

/** Millionths: a p that is a whole number of them (0.1, 0.9, 0.025) has its rank computed in integers. */
const MICRO = 1_000_000;

/**
 * h = (n − 1)·p as its whole part and fraction. In binary, 0.9 and (n − 1)·0.9 are not exact: the p90 of ten 0s
 * and two 10s came out 9.000000000000004 and that of 3,000 distances 1498.9999999999982 (where 1499 is the
 * value), which a summary prints in full, as a figure that is not whole. A p that is a whole number of
 * millionths, as every quantile simeval takes, gives the rank in integers, and the fraction as the nearest double.
 */
export function quantileRank(n: number, p: number): [number, number] {
  const micro = Math.round(p * MICRO);
  if (Math.abs(p * MICRO - micro) < 1e-6 && (n - 1) * MICRO <= Number.MAX_SAFE_INTEGER) {
    const whole = (n - 1) * micro;
    const lo = Math.floor(whole / MICRO);
    return [lo, (whole - lo * MICRO) / MICRO];
  }
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  return [lo, h - lo];
}

/** Throws CONFIG_INVALID unless p is a probability in [0, 1]. */
export function checkProbability(p: number): void {
  if (!(p >= 0 && p <= 1)) {
    throw new EvalError("CONFIG_INVALID", `Invalid quantile: expected a probability in [0, 1] but received ${String(p)}`, {
      issues: [{ path: ["p"], message: `Invalid quantile: expected a probability in [0, 1] but received ${String(p)}`, expected: "number in [0, 1]", received: String(p) }],
    });
  }
}
