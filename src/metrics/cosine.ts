import { badArgument, nonFiniteEntry, notNumbers } from "./arguments.js";

/**
 * Cosine similarity of two dense vectors: `a·b / (‖a‖ ‖b‖)`, in [-1, 1].
 * Throws EvalError (INPUT_INVALID) when the lengths differ or an entry is not a finite number (naming
 * it: `a[3]`); returns 0 when either vector is all zeros. Sums in float64 whatever the input's element type.
 */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const bad = notNumbers("cosineSimilarity", "a", a) ?? notNumbers("cosineSimilarity", "b", b);
  if (bad) throw bad;
  if (a.length !== b.length) throw badArgument("cosineSimilarity", "b.length", `a.length (${a.length})`, b.length);
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
  if (na === 0 || nb === 0) return 0;
  const c = dot / Math.sqrt(na * nb);
  // Rounding can push |c| a hair past 1.
  return c > 1 ? 1 : c < -1 ? -1 : c;
}
