import { badArgument, nonFiniteEntry, notNumbers } from "./arguments.js";

/**
 * Cosine similarity of two dense vectors: `a·b / (‖a‖ ‖b‖)`, in [-1, 1].
 * Throws EvalError (INPUT_INVALID) when the lengths differ or an entry is not a finite number (naming
 * it: `a[3]`); returns 0 when either vector is all zeros. Sums in float64 whatever the input's element type,
 * scaling vectors whose entries are so large or small that the sums would overflow or underflow.
 */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const bad = notNumbers("cosineSimilarity", "a", a) ?? notNumbers("cosineSimilarity", "b", b);
  if (bad) throw bad;
  if (a.length !== b.length) throw badArgument("cosineSimilarity", "b.length", `a.length (${a.length})`, b.length);
  // Arithmetic reads null as 0 and "1" or true as 1: entries of a list that may hold anything are checked
  // first (a float or integer typed array holds numbers only; NaN and ±Infinity are caught below).
  if (!holdsNumbers(a) || !holdsNumbers(b)) {
    const entry = nonFiniteEntry("cosineSimilarity", "a", a) ?? nonFiniteEntry("cosineSimilarity", "b", b);
    if (entry) throw entry;
  }
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  // A NaN or infinite entry leaves its vector's sum of squares NaN or Infinity: the loop itself is the check,
  // and only then are the entries scanned, for the one to name.
  if (!Number.isFinite(na + nb)) {
    const entry = nonFiniteEntry("cosineSimilarity", "a", a) ?? nonFiniteEntry("cosineSimilarity", "b", b);
    if (entry) throw entry;
  }
  const p = na * nb;
  if (na > SMALL && nb > SMALL && p > SMALL && p < Infinity) return clamp(dot / Math.sqrt(p));
  return scaledCosine(a, b);
}

/** Whether every entry of `v` is a number by its type: a typed array other than a BigInt one. */
function holdsNumbers(v: ArrayLike<number>): boolean {
  return ArrayBuffer.isView(v) && !(v instanceof BigInt64Array || v instanceof BigUint64Array);
}

/**
 * Sums of squares below this (about 1e-271) may have lost digits to underflow, or their product may
 * underflow to 0; their vectors are scaled first.
 */
const SMALL = 2 ** -900;

/** Rounding can push |c| a hair past 1. */
function clamp(c: number): number {
  return c > 1 ? 1 : c < -1 ? -1 : c;
}

/**
 * {@link cosineSimilarity} of finite vectors whose sums of squares, or their product, overflowed or
 * underflowed (entries beyond about 1e±77, or all zeros): computed on the vectors divided by their
 * largest magnitude, which leaves the cosine unchanged and the sums between 1 and the length. Gave NaN
 * for `[1e200]` with itself, 0 for `[1e100]`, 1 for `[3e-160, 4e-160]` against `[4e-160, 3e-160]`.
 * 0 when either vector is all zeros.
 */
function scaledCosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sa = 0;
  let sb = 0;
  for (let i = 0; i < a.length; i++) {
    sa = Math.max(sa, Math.abs(a[i] as number));
    sb = Math.max(sb, Math.abs(b[i] as number));
  }
  if (sa === 0 || sb === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = (a[i] as number) / sa;
    const y = (b[i] as number) / sb;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return clamp(dot / Math.sqrt(na * nb));
}
