import { levenshteinDistance } from "../metrics/levenshtein.js";

/** The edits a name (or a part of one) of `length` code points may be away from what was given: a third of it, at least 2. */
function tolerance(length: number): number {
  return Math.max(2, Math.floor(length / 3));
}

/**
 * ` Did you mean "x"?` for the closest known name within a third of its length in edits (at least 2); else,
 * for the one known name that the given one is a part of (between `_`, `-` or `.`, case aside: `jaccard`
 * for `jaccard_similarity`), or, failing that, the one with a part of 5 or more characters within a third of
 * its length in edits (`jacard`); else "".
 */
export function didYouMean(given: string, known: readonly string[]): string {
  const lower = given.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    const d = levenshteinDistance(lower, name.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  if (best !== undefined && bestDistance <= tolerance(best.length)) return ` Did you mean "${best}"?`;
  const parts = known.map((name) => ({ name, parts: name.toLowerCase().split(/[_.-]/) }));
  const holding = parts.filter((n) => n.parts.includes(lower));
  if (holding.length > 0) return holding.length === 1 ? ` Did you mean "${holding[0]?.name}"?` : "";
  const near = parts.filter((n) => n.parts.some((p) => p.length >= 5 && levenshteinDistance(lower, p) <= tolerance(p.length)));
  return near.length === 1 ? ` Did you mean "${near[0]?.name}"?` : "";
}
