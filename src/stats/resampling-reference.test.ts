/**
 * The sign-flip test and the bootstrap checked against plain reference implementations written here:
 * every sign vector enumerated, and resamples drawn one value at a time from the same random stream.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bootstrapMeanInterval } from "./bootstrap.js";
import { Xoshiro128 } from "./prng.js";
import { signFlipTest } from "./sign-flip.js";

/** Two-sided p over all 2^n sign vectors of n integers (zeros included): exact, no rounding. */
function bruteSignFlipP(ints: number[]): number {
  const n = ints.length;
  const t = Math.abs(ints.reduce((s, x) => s + x, 0));
  let extreme = 0;
  for (let mask = 0; mask < 2 ** n; mask++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += mask & (1 << i) ? -(ints[i] as number) : (ints[i] as number);
    if (Math.abs(s) >= t) extreme++;
  }
  return extreme / 2 ** n;
}

/** Type-7 quantile of sorted numbers, written out. */
function q7(sorted: number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return (sorted[lo] as number) + (h - lo) * ((sorted[hi] as number) - (sorted[lo] as number));
}

/**
 * The percentile bootstrap drawn naively, one value at a time, from the stream the direct method
 * documents for one block (n ≤ 4096): each 32-bit output gives two 16-bit halves, high first, each cut
 * to the bits of the next power of two ≥ n and used when below n.
 */
function naiveBootstrap(values: number[], resamples: number, level: number, rng: Xoshiro128): { low: number; high: number } {
  const n = values.length;
  let bits = 0;
  while (1 << bits < n) bits++;
  const means: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    let left = n;
    while (left > 0) {
      const x = rng.nextUint32();
      for (const half of [x >>> 16, x & 0xffff]) {
        const j = bits === 0 ? 0 : half >>> (16 - bits);
        if (j < n && left > 0) {
          sum += values[j] as number;
          left--;
        }
      }
    }
    means.push(sum / n);
  }
  means.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return { low: q7(means, tail), high: q7(means, 1 - tail) };
}

/** Differences on a 1/100 grid, as 2-decimal scores give, with many zeros and ties. */
const gridDiffs = (maxLength: number) => fc.array(fc.integer({ min: -6, max: 6 }), { minLength: 0, maxLength });

describe("signFlipTest against every sign vector", () => {
  it("gives the exact p of all 2^n sign vectors, zeros and ties included (n ≤ 12)", () => {
    fc.assert(
      fc.property(gridDiffs(12), (ints) => {
        const got = signFlipTest(Float64Array.from(ints, (k) => k / 100), { resamples: 10, rng: Xoshiro128.fromSeed(1) });
        if (ints.length === 0) {
          expect(got).toBeNull();
          return;
        }
        expect(got?.method).toBe("exact");
        expect(got?.p).toBe(bruteSignFlipP(ints));
      }),
      { numRuns: 300 },
    );
  });

  it("gives the edge cases their textbook values", () => {
    const p = (d: number[]) => signFlipTest(Float64Array.from(d), { resamples: 10, rng: Xoshiro128.fromSeed(1) })?.p;
    expect(p([0])).toBe(1);
    expect(p([2])).toBe(1);
    expect(p([1, 1])).toBe(0.5);
    expect(p([1, -1])).toBe(1);
    expect(p([0, 0, 0, 0, 0, 0, 0])).toBe(1);
    expect(p([0, 0, 0, 0, 0, 0, -3])).toBe(1); // all equal but one: one non-zero difference
    expect(p([-1, -1, -1, -1, -1, -1])).toBe(2 / 64);
  });

  it("estimates the exact p by random sign patterns within 4 standard errors (m = 21..23)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 5 }).filter((k) => k !== 0), { minLength: 21, maxLength: 23 }), fc.integer(), (ints, seed) => {
        const d = Float64Array.from(ints, (k) => k / 100);
        const exact = signFlipTest(d, { resamples: 1, rng: Xoshiro128.fromSeed(1), exactMax: 23 });
        expect(exact?.p).toBe(bruteSignFlipPHalf(ints));
        const p = exact?.p as number;
        const resamples = 4000;
        for (const method of ["grouped", "direct"] as const) {
          const mc = signFlipTest(d, { resamples, rng: Xoshiro128.fromSeed(seed), method });
          expect(mc?.method).toBe("monte_carlo");
          // (1 + X) / (1 + R) with X ~ Binomial(R, p): bias (1 − p) / (1 + R), sd √(p(1 − p)R) / (1 + R).
          const se = Math.sqrt(p * (1 - p) * resamples) / (1 + resamples);
          expect(Math.abs((mc?.p as number) - p)).toBeLessThanOrEqual(4 * se + (1 - p) / (1 + resamples) + 1e-12);
        }
      }),
      { numRuns: 6, seed: 39 },
    );
  });
});

/** {@link bruteSignFlipP} with the first sign fixed (a vector and its mirror have the same |T*|): 2^(n−1) vectors. */
function bruteSignFlipPHalf(ints: number[]): number {
  const [first, ...rest] = ints;
  const t = Math.abs(ints.reduce((s, x) => s + x, 0));
  let extreme = 0;
  const half = 2 ** rest.length;
  for (let mask = 0; mask < half; mask++) {
    let s = first as number;
    for (let i = 0; i < rest.length; i++) s += mask & (1 << i) ? -(rest[i] as number) : (rest[i] as number);
    if (Math.abs(s) >= t) extreme++;
  }
  return extreme / half;
}

describe("bootstrapMeanInterval against a naive bootstrap", () => {
  it("is the type-7 percentile interval of the means of resamples drawn one value at a time from the same stream", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom(0.5, 0.9, 0.95, 0.99),
        fc.integer(),
        (values, resamples, level, seed) => {
          const got = bootstrapMeanInterval(Float64Array.from(values), { resamples, level, rng: Xoshiro128.fromSeed(seed), method: "direct" });
          const want = naiveBootstrap(values, resamples, level, Xoshiro128.fromSeed(seed));
          // The tool sums a resample in two halves: the same values, added in another order.
          const eps = 1e-12 * Math.max(1, ...values.map(Math.abs));
          expect(Math.abs((got?.low as number) - want.low)).toBeLessThanOrEqual(eps);
          expect(Math.abs((got?.high as number) - want.high)).toBeLessThanOrEqual(eps);
          expect(got?.low).toBeLessThanOrEqual(got?.high as number);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("draws grouped resamples from the exact bootstrap distribution (every resample enumerated, n ≤ 6)", () => {
    // Over all n^n resamples, the distribution of the mean; the tool's 2.5% and 97.5% points must lie
    // between its quantiles at those levels ± 4 standard errors of a sample proportion.
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 1, maxLength: 6 }), fc.integer(), (ints, seed) => {
        const n = ints.length;
        const means: number[] = [];
        for (let code = 0; code < n ** n; code++) {
          let s = 0;
          for (let c = code, i = 0; i < n; i++, c = Math.floor(c / n)) s += ints[c % n] as number;
          means.push(s / n);
        }
        means.sort((a, b) => a - b);
        const resamples = 3000;
        const slack = 4 * Math.sqrt((0.025 * 0.975) / resamples);
        const at = (p: number) => means[Math.min(means.length - 1, Math.max(0, Math.floor(p * means.length)))] as number;
        for (const method of ["grouped", "direct"] as const) {
          const got = bootstrapMeanInterval(Float64Array.from(ints), { resamples, level: 0.95, rng: Xoshiro128.fromSeed(seed), method });
          expect(got?.low).toBeGreaterThanOrEqual(at(0.025 - slack) - 1e-12);
          expect(got?.low).toBeLessThanOrEqual(at(0.025 + slack) + 1e-12);
          expect(got?.high).toBeGreaterThanOrEqual(at(0.975 - slack) - 1e-12);
          expect(got?.high).toBeLessThanOrEqual(at(0.975 + slack) + 1e-12);
        }
      }),
      { numRuns: 40, seed: 39 },
    );
  });
});
