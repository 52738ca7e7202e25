/** Counting distinct values, so that resampling can work per value instead of per row. */

/** Distinct values with how often each occurs, most frequent first. */
export interface DistinctCounts {
  values: Float64Array;
  counts: Float64Array;
}

/**
 * The distinct values of `values` (after `map`, e.g. Math.abs) and their counts, or `null` as soon as
 * there are more than `limit` of them (so that a list of unique floats costs little to reject).
 * 0 and −0 count as one value.
 */
export function distinctCounts(values: Float64Array, limit: number, map?: (x: number) => number): DistinctCounts | null {
  const counts = new Map<number, number>();
  for (let i = 0; i < values.length; i++) {
    const x = map ? map(values[i] as number) : (values[i] as number);
    const c = counts.get(x);
    if (c === undefined) {
      if (counts.size >= limit) return null;
      counts.set(x, 1);
    } else counts.set(x, c + 1);
  }
  // Most frequent first (ties by value), so that the result does not depend on the order of the rows.
  const entries = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return { values: Float64Array.from(entries, (e) => e[0]), counts: Float64Array.from(entries, (e) => e[1]) };
}
