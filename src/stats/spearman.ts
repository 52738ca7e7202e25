/**
 * Spearman's rank correlation, as the STS literature reports it (Reimers & Gurevych 2019 print ρ × 100).
 */

/**
 * Ranks 1..n of `values`, ties sharing the average of the ranks they span ("fractional" ranking):
 * [10, 20, 20, 30] → [1, 2.5, 2.5, 4]. Throws a RangeError on a non-finite value.
 */
export function averageRanks(values: ArrayLike<number>): Float64Array {
  const n = values.length;
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(values[i])) throw new RangeError(`averageRanks: value ${i} is ${values[i]}, expected a finite number`);
  }
  order.sort((a, b) => (values[a] as number) - (values[b] as number));
  const ranks = new Float64Array(n);
  for (let start = 0; start < n; ) {
    let end = start + 1;
    while (end < n && values[order[end] as number] === values[order[start] as number]) end++;
    // Positions start..end-1 (0-based) hold ranks start+1..end; their mean is (start + 1 + end) / 2.
    const rank = (start + 1 + end) / 2;
    for (let k = start; k < end; k++) ranks[order[k] as number] = rank;
    start = end;
  }
  return ranks;
}

/** Pearson's correlation `cov(x, y) / (σx σy)`; null when n < 2 or either side is constant. */
export function pearson(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  if (x.length !== y.length) throw new RangeError(`pearson: the lists differ in length (${x.length} vs ${y.length})`);
  const n = x.length;
  if (n < 2) return null;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i] as number;
    my += y[i] as number;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (x[i] as number) - mx;
    const dy = (y[i] as number) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  const r = sxy / Math.sqrt(sxx * syy);
  return r > 1 ? 1 : r < -1 ? -1 : r;
}

/**
 * Spearman's ρ: Pearson's correlation of the {@link averageRanks} of `x` and of `y` (the definition
 * that stays exact with ties, as scipy's `spearmanr`), in [-1, 1]. Null when n < 2 or either list is
 * constant; throws a RangeError when the lengths differ or a value is not finite.
 */
export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  if (x.length !== y.length) throw new RangeError(`spearman: the lists differ in length (${x.length} vs ${y.length})`);
  return pearson(averageRanks(x), averageRanks(y));
}
