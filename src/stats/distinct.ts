/** Counting distinct values, so that resampling can work per value instead of per row. */
import { Float64Buffer } from "./float64-buffer.js";

/** Distinct values with how often each occurs, most frequent first. */
interface DistinctCounts {
  values: Float64Array;
  counts: Float64Array;
}

/**
 * A sorted list given by its distinct values, ascending, each with how many times it occurs: what a
 * list of many values that take few ({@link ValueCounter}) costs to keep.
 */
export interface RunLengths {
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
  return byFrequency(counts);
}

/** {@link distinctCounts} of a list, or of the list run lengths stand for, without listing it. */
export function distinctCountsOf(list: Float64Array | RunLengths, limit: number, map?: (x: number) => number): DistinctCounts | null {
  if (list instanceof Float64Array) return distinctCounts(list, limit, map);
  const r = list;
  const counts = new Map<number, number>();
  for (let j = 0; j < r.values.length; j++) {
    const x = map ? map(r.values[j] as number) : (r.values[j] as number);
    counts.set(x, (counts.get(x) ?? 0) + (r.counts[j] as number));
    if (counts.size > limit) return null;
  }
  return byFrequency(counts);
}

/** Most frequent first (ties by value), so that the result does not depend on the order of the rows. */
function byFrequency(counts: Map<number, number>): DistinctCounts {
  const entries = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return { values: Float64Array.from(entries, (e) => e[0]), counts: Float64Array.from(entries, (e) => e[1]) };
}

/** A list as it is, or the sorted list run lengths stand for. */
export function listed(list: Float64Array | RunLengths): Float64Array {
  if (list instanceof Float64Array) return list;
  const r = list;
  const out = new Float64Array(sizeOf(r));
  for (let j = 0, at = 0; j < r.values.length; at += r.counts[j] as number, j++) out.fill(r.values[j] as number, at, at + (r.counts[j] as number));
  return out;
}

/**
 * The sorted list of −x for each x of a sorted list (or run lengths), as run lengths when given so: the
 * differences b − a that a comparison of the two sides swapped gives. 0 stays 0 (not −0), as
 * {@link ValueCounter} counts it.
 */
export function negatedSorted<T extends Float64Array | RunLengths>(list: T): T {
  const negated = (values: Float64Array) => values.map((_, i, v) => 0 - (v[v.length - 1 - i] as number));
  if (list instanceof Float64Array) return negated(list) as T;
  const r = list as RunLengths;
  return { values: negated(r.values), counts: r.counts.slice().reverse() } as T;
}

/**
 * How {@link negatedSorted} of a sorted list stands to the list itself in lexicographic order: −1 when it comes
 * first, 1 when the list does, 0 when the two are equal (a list symmetric about 0: as many differences of each size
 * either way, as exact match's gains and losses often are). Of a comparison's differences and those of the same
 * comparison with its sides swapped, the one that comes first is the same whichever side was given, so that both
 * draw their random resamples from it.
 */
export function negatedOrder(list: Float64Array | RunLengths): -1 | 0 | 1 {
  const r = list instanceof Float64Array ? { values: list, counts: null } : list;
  const k = r.values.length;
  const count = (j: number) => (r.counts ? (r.counts[j] as number) : 1);
  // Walk the list's runs from its start and the negated list's (the list's from its end, negated) alongside.
  let i = 0;
  let j = k - 1;
  let leftI = k ? count(0) : 0;
  let leftJ = k ? count(k - 1) : 0;
  while (i < k && j >= 0) {
    const x = r.values[i] as number;
    const y = 0 - (r.values[j] as number);
    if (x !== y) return y < x ? -1 : 1;
    const step = Math.min(leftI, leftJ);
    leftI -= step;
    leftJ -= step;
    if (leftI === 0 && ++i < k) leftI = count(i);
    if (leftJ === 0 && --j >= 0) leftJ = count(j);
  }
  return 0;
}

/** How many values a list holds, or the list run lengths stand for. */
export function sizeOf(list: Float64Array | RunLengths): number {
  if (list instanceof Float64Array) return list.length;
  let n = 0;
  for (let j = 0; j < list.counts.length; j++) n += list.counts[j] as number;
  return n;
}

/**
 * Values added one at a time, kept as counts by value while they take at most `maxDistinct` values
 * (default 4,096), so that millions of them that take few values cost a few kilobytes; past that they
 * are listed, 8 bytes each. −0 is counted as 0.
 */
export class ValueCounter {
  private counts: Map<number, number> | null = new Map();
  private list: Float64Buffer | null = null;

  constructor(private readonly maxDistinct = 4096) {}

  add(x: number): void {
    const value = x === 0 ? 0 : x;
    if (this.counts) {
      const c = this.counts.get(value);
      if (c !== undefined) return void this.counts.set(value, c + 1);
      if (this.counts.size < this.maxDistinct) return void this.counts.set(value, 1);
      const list = new Float64Buffer();
      for (const [v, n] of this.counts) for (let i = 0; i < n; i++) list.push(v);
      this.list = list;
      this.counts = null;
    }
    (this.list as Float64Buffer).push(value);
  }

  /** The values sorted: as run lengths while they were counted, else as the list (sorted in place). */
  sorted(): RunLengths | Float64Array {
    if (this.list) return this.list.view().sort();
    const entries = [...(this.counts as Map<number, number>)].sort((a, b) => a[0] - b[0]);
    return { values: Float64Array.from(entries, (e) => e[0]), counts: Float64Array.from(entries, (e) => e[1]) };
  }
}
