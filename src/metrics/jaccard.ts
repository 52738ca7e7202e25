/**
 * Jaccard similarity of two token sets: `|A ∩ B| / |A ∪ B|`, in [0, 1].
 * Two empty sets give 1 by convention here; callers that need another rule for "no tokens"
 * (the `jaccard_similarity` evaluator does) decide before calling.
 */
export function jaccardSimilarity(a: Iterable<string>, b: Iterable<string>): number {
  const setA = a instanceof Set ? (a as Set<string>) : new Set(a);
  const setB = b instanceof Set ? (b as Set<string>) : new Set(b);
  if (setA.size === 0 && setB.size === 0) return 1;
  const [small, large] = setA.size <= setB.size ? [setA, setB] : [setB, setA];
  let shared = 0;
  for (const t of small) if (large.has(t)) shared++;
  const union = setA.size + setB.size - shared;
  // Identical sets give shared === union, hence exactly 1.
  return shared / union;
}
