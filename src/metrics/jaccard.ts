import { notAToken, notTokens } from "./arguments.js";

/** The distinct tokens of a text: a Set of them, or the keys of a token -> count Map. */
export type DistinctTokens = ReadonlySet<string> | ReadonlyMap<string, unknown>;

/**
 * Jaccard similarity of two token sets: `|A ∩ B| / |A ∪ B|`, in [0, 1]. Throws EvalError (INPUT_INVALID)
 * when `a` or `b` is not a list (an array, a Set) of strings.
 * Two empty sets give 1 by convention here; callers that need another rule for "no tokens"
 * (the `jaccard_similarity` evaluator does) decide before calling.
 */
export function jaccardSimilarity(a: Iterable<string>, b: Iterable<string>): number {
  const bad = notTokens("jaccardSimilarity", "a", a) ?? notTokens("jaccardSimilarity", "b", b);
  if (bad) throw bad;
  return jaccardOfDistinct(tokenSet("a", a), tokenSet("b", b));
}

/** The distinct tokens of jaccardSimilarity's argument `arg` (a Set as it is): INPUT_INVALID at its first entry that is not a string. */
function tokenSet(arg: string, tokens: Iterable<unknown>): ReadonlySet<string> {
  const set = tokens instanceof Set ? undefined : new Set<string>();
  let i = 0;
  for (const t of tokens) {
    if (typeof t !== "string") throw notAToken("jaccardSimilarity", arg, i, t);
    set?.add(t);
    i++;
  }
  return set ?? (tokens as Set<string>);
}

/** {@link jaccardSimilarity} of two texts' distinct tokens, given as Sets or as the keys of count Maps. */
export function jaccardOfDistinct(a: DistinctTokens, b: DistinctTokens): number {
  if (a.size === 0 && b.size === 0) return 1;
  const small = a.size <= b.size ? a : b;
  const large = small === a ? b : a;
  let shared = 0;
  for (const t of small.keys()) if (large.has(t)) shared++;
  const union = a.size + b.size - shared;
  // Identical sets give shared === union, hence exactly 1.
  return shared / union;
}
