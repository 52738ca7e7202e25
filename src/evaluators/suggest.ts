import { levenshteinDistance } from "../metrics/levenshtein.js";

/**
 * ` Did you mean "x"?` for the closest known name within a third of its length in edits (at least 2); else,
 * for the one known name that the given one is a part of (between `_`, `-` or `.`, case aside: `jaccard`
 * for `jaccard_similarity`); else "".
 */
export function didYouMean(given: string, known: readonly string[]): string {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    const d = levenshteinDistance(given.toLowerCase(), name.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  if (best !== undefined && bestDistance <= Math.max(2, Math.floor(best.length / 3))) return ` Did you mean "${best}"?`;
  const part = given.toLowerCase();
  const holding = known.filter((name) => name.toLowerCase().split(/[_.-]/).includes(part));
  return holding.length === 1 ? ` Did you mean "${holding[0]}"?` : "";
}
