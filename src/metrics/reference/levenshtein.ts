/**
 * Reference Levenshtein distance for tests only (excluded from the build).
 *
 * Deliberately the textbook algorithm with no shortcuts, so that the fast
 * bit-parallel engines have an independent oracle to be compared against.
 */

/**
 * Edit distance (insert, delete, substitute; cost 1 each) between two symbol
 * sequences by the plain Wagner–Fischer dynamic programme.
 *
 * D[i][j] = min(D[i-1][j] + 1, D[i][j-1] + 1, D[i-1][j-1] + [a_i ≠ b_j]),
 * kept as two rows. Time O(n·m), memory O(m). Symbols compare with `===`.
 */
export function referenceDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const m = b.length;
  let prev = new Int32Array(m + 1);
  let curr = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const ai = a[i - 1];
    curr[0] = i;
    for (let j = 1; j <= m; j++) {
      const substitute = (prev[j - 1] ?? 0) + (ai === b[j - 1] ? 0 : 1);
      const remove = (prev[j] ?? 0) + 1;
      const insert = (curr[j - 1] ?? 0) + 1;
      curr[j] = Math.min(substitute, remove, insert);
    }
    [prev, curr] = [curr, prev];
  }
  return prev[m] ?? 0;
}

/**
 * {@link referenceDistance} over the Unicode code points of two strings
 * (`Array.from` splits surrogate pairs correctly; a lone surrogate is one
 * symbol). Time O(n·m).
 */
export function referenceStringDistance(a: string, b: string): number {
  return referenceDistance(codePoints(a), codePoints(b));
}

function codePoints(s: string): number[] {
  // codePointAt(0) is defined for every element Array.from yields.
  return Array.from(s, (c) => c.codePointAt(0) ?? 0);
}
