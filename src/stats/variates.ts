/**
 * Random variates drawn from a seeded {@link Xoshiro128}: normal, gamma, beta and binomial. Each method
 * is exact (no normal approximation), so a resampling test built on them has the distribution it claims.
 */
import { EvalError } from "../errors.js";
import type { Xoshiro128 } from "./prng.js";

/** A standard normal variate, by Marsaglia's polar method (exact; the second value is discarded). */
export function normal(rng: Xoshiro128): number {
  for (;;) {
    const u = 2 * rng.nextDouble() - 1;
    const v = 2 * rng.nextDouble() - 1;
    const s = u * u + v * v;
    if (s > 0 && s < 1) return u * Math.sqrt((-2 * Math.log(s)) / s);
  }
}

/**
 * A Gamma(shape, 1) variate for shape ≥ 1, by Marsaglia & Tsang's squeeze-and-reject method
 * ("A simple method for generating gamma variables", 2000): d = shape − 1/3, c = 1/√(9d),
 * v = (1 + c·x)³ for a normal x, accepted with probability exp(x²/2 + d − d·v + d·ln v).
 */
export function gamma(rng: Xoshiro128, shape: number): number {
  if (!(shape >= 1)) throw invalid("gamma shape", "a number ≥ 1", shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal(rng);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = rng.nextDouble();
    const x2 = x * x;
    if (u < 1 - 0.0331 * x2 * x2) return d * v; // the squeeze accepts ~98% without a logarithm
    if (Math.log(u) < 0.5 * x2 + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** A Beta(a, b) variate for a, b ≥ 1, as G_a / (G_a + G_b) with independent gamma variates. */
export function beta(rng: Xoshiro128, a: number, b: number): number {
  const x = gamma(rng, a);
  const y = gamma(rng, b);
  return x / (x + y);
}

/** Above this mean, {@link binomial} halves the trials with a beta split rather than search from 0. */
const INVERSION_MAX_MEAN = 30;

/**
 * A Binomial(trials, p) variate: the number of successes in `trials` independent trials that each
 * succeed with probability p. Exact, in a few rounds whatever the size:
 * - while the mean trials·min(p, 1 − p) exceeds 30, a beta split (Knuth, TAOCP vol. 2, 3.4.1; Devroye,
 *   "Non-Uniform Random Variate Generation", X.4): the a-th smallest of the n uniforms behind the
 *   trials is X ~ Beta(a, n + 1 − a); if p < X, the successes are Binomial(a − 1, p/X) among the a − 1
 *   smaller ones, otherwise a plus Binomial(n − a, (p − X)/(1 − X)) among the larger ones. Any a works;
 *   a = ⌊n·p⌋ makes the next mean about the square root of this one, so few rounds are needed;
 * - then inversion by sequential search from 0 (Kachitvichyanukul & Schmeiser's BINV), using
 *   P(k)/P(k − 1) = ((n + 1)/k − 1)·p/(1 − p).
 * Symmetry Binomial(n, p) = n − Binomial(n, 1 − p) keeps p ≤ 1/2 throughout.
 * Throws CONFIG_INVALID unless trials is a non-negative safe integer and p is in [0, 1].
 */
export function binomial(rng: Xoshiro128, trials: number, p: number): number {
  if (!Number.isSafeInteger(trials) || trials < 0) throw invalid("binomial trials", "a non-negative integer", trials);
  if (!(p >= 0 && p <= 1)) throw invalid("binomial p", "a probability in [0, 1]", p);
  // result = offset + sign · Binomial(n, q)
  let offset = 0;
  let sign = 1;
  let n = trials;
  let q = p;
  for (;;) {
    if (q > 0.5) {
      offset += sign * n;
      sign = -sign;
      q = 1 - q;
    }
    if (n === 0 || q === 0) return offset;
    if (n * q <= INVERSION_MAX_MEAN) return offset + sign * binomialInversion(rng, n, q);
    // Split at the expected count: X then lands close to q, and either branch leaves a binomial whose
    // mean is about the square root of this one's (Knuth splits at n/2, which takes log2(n) rounds).
    const a = Math.min(n, Math.max(1, Math.floor(n * q)));
    const x = beta(rng, a, n + 1 - a);
    if (q < x) {
      n = a - 1;
      q = q / x;
    } else {
      offset += sign * a;
      n = n - a;
      q = (q - x) / (1 - x);
    }
  }
}

/** BINV for q ≤ 1/2 and n·q ≤ 30: expected n·q + 1 steps. */
function binomialInversion(rng: Xoshiro128, n: number, q: number): number {
  const s = q / (1 - q);
  const a = (n + 1) * s;
  const p0 = Math.exp(n * Math.log1p(-q)); // (1 − q)^n without the rounding of 1 − q for tiny q
  for (;;) {
    let u = rng.nextDouble();
    let k = 0;
    let pk = p0;
    // Rounding can leave u above the whole remaining mass; then pk reaches 0 (or k passes n): draw again.
    while (u > pk) {
      u -= pk;
      k++;
      pk *= a / k - s;
      if (pk === 0 || k > n) break;
    }
    if (u <= pk) return k;
  }
}

/** Set bits in a 32-bit integer (SWAR popcount). */
function popcount32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/**
 * A Binomial(trials, 1/2) variate, exactly, as the number of set bits among `trials` random bits:
 * ⌈trials/32⌉ generator outputs. This is a fair sign flip per trial, as a permutation test needs.
 */
export function binomialHalf(rng: Xoshiro128, trials: number): number {
  let count = 0;
  let left = trials;
  while (left >= 32) {
    count += popcount32(rng.nextUint32());
    left -= 32;
  }
  if (left > 0) count += popcount32(rng.nextUint32() >>> (32 - left));
  return count;
}

function invalid(what: string, expected: string, received: number): EvalError {
  const message = `Invalid ${what}: expected ${expected} but received ${String(received)}`;
  return new EvalError("CONFIG_INVALID", message, { issues: [{ path: [what], message, expected, received: String(received) }] });
}
