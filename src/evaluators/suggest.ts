import { levenshteinDistance } from "../metrics/levenshtein.js";

/** ` Did you mean "x"?` for the closest known name within a third of its length in edits, else "". */
export function didYouMean(given: string, known: readonly string[]): string {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    const d = levenshteinDistance(given.toLowerCase(), name.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(best.length / 3)) ? ` Did you mean "${best}"?` : "";
}
