/**
 * Code-point Levenshtein distance between JS strings without converting them
 * to arrays first: the common prefix and suffix are stripped on UTF-16 units
 * (never splitting a surrogate pair), short remainders run on the units
 * themselves when they hold no surrogate (then units are code points), and
 * only the rest goes to a slice engine (WebAssembly or TypeScript).
 */
import { codePointCount, commonAffixes } from "./text-units.js";
import { hasSurrogate, shortUnitDistance, strippedDistance, twoWordUnitDistance, unitSliceDistance } from "./levenshtein-bitparallel.js";

/**
 * Distance between two UTF-16 slices counted in code points, `m ≤ n` units
 * after affix stripping: exact when ≤ k, some value > k otherwise, or -1 when
 * the engine failed and the TypeScript engine must answer instead.
 */
export interface SliceEngine {
  units(a: string, aStart: number, m: number, b: string, bStart: number, n: number, k: number): number;
}

let codePointsA: Int32Array = new Int32Array(256);
let codePointsB: Int32Array = new Int32Array(256);

/** Decodes `s[start, start+length)` into `out` as code points; returns the count. */
function decode(s: string, start: number, length: number, out: Int32Array): number {
  let count = 0;
  for (let i = start, end = start + length; i < end; i++) {
    const c = s.codePointAt(i)!;
    out[count++] = c;
    // codePointAt joins a valid pair only; skip its low half.
    if (c > 0xffff) i++;
  }
  return count;
}

/**
 * The TypeScript slice engine: the 32-bit bit-parallel core on the code units
 * when there is no surrogate, else on code points decoded into reusable
 * Int32Arrays. O(m + n) plus the core's cost.
 */
export const jsSliceEngine: SliceEngine = {
  units(a, aStart, m, b, bStart, n, k) {
    if (m > 32) {
      const d = unitSliceDistance(a, aStart, m, b, bStart, n, k);
      if (d >= 0) return d;
    }
    if (codePointsA.length < m) codePointsA = new Int32Array(Math.max(m, codePointsA.length * 2));
    if (codePointsB.length < n) codePointsB = new Int32Array(Math.max(n, codePointsB.length * 2));
    const cm = decode(a, aStart, m, codePointsA);
    const cn = decode(b, bStart, n, codePointsB);
    return cm <= cn ? strippedDistance(codePointsA, 0, cm, codePointsB, 0, cn, k) : strippedDistance(codePointsB, 0, cn, codePointsA, 0, cm, k);
  },
};

/**
 * Levenshtein distance between `a` and `b` in code points (cost 1 per
 * insertion, deletion, substitution). Exact when ≤ k, some value > k
 * otherwise. Remainders whose shorter side has ≤ `shortLimit` units (≤ 64)
 * run on the units in one or two 32-bit words; the others go to `engine`.
 * O(m + n) for the affixes plus the engine's cost on what remains.
 */
export function codePointDistance(a: string, b: string, k: number, engine: SliceEngine, shortLimit: number): number {
  if (a === b) return 0;
  // Never cut between the halves of a surrogate pair: a common half is given back to the remainders.
  const { prefix, suffix } = commonAffixes(a, b);
  let m = a.length - prefix - suffix;
  let n = b.length - prefix - suffix;
  if (m === 0) return codePointCount(b, prefix, prefix + n);
  if (n === 0) return codePointCount(a, prefix, prefix + m);
  let s = a;
  let t = b;
  if (m > n) {
    s = b;
    t = a;
    const l = m;
    m = n;
    n = l;
  }
  if (m <= shortLimit) {
    // The length difference in units is the one in code points when there is
    // no surrogate, and then it alone can settle a bound.
    if (n - m > k && !hasSurrogate(s, prefix, m) && !hasSurrogate(t, prefix, n)) return k + 1;
    const d = m <= 32 ? shortUnitDistance(s, prefix, m, t, prefix, n, k) : twoWordUnitDistance(s, prefix, m, t, prefix, n, k);
    if (d >= 0) return d;
  }
  const d = engine.units(s, prefix, m, t, prefix, n, k);
  return d >= 0 ? d : jsSliceEngine.units(s, prefix, m, t, prefix, n, k);
}
