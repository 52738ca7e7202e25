import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EvalError } from "../errors.js";
import { CompensatedSum, quantileSorted } from "./quantiles.js";

/** The p-quantile of unsorted values: quantileSorted on a sorted copy. */
const quantile = (values: ArrayLike<number>, p: number): number | null => quantileSorted(Float64Array.from(values).sort(), p);

/**
 * Hyndman & Fan (1996) definition 7 as the paper writes it, 1-based, on a plainly sorted JS array:
 * j = ⌊np + m⌋ with m = 1 − p, γ = np + m − j, Q = (1 − γ)·x_j + γ·x_{j+1}, x_0 = x_1, x_{n+1} = x_n.
 */
function referenceQuantile(values: number[], p: number): number {
  const x = [...values].sort((a, b) => a - b);
  const n = x.length;
  const m = 1 - p;
  const j = Math.floor(n * p + m);
  const gamma = n * p + m - j;
  const at = (k: number): number => x[Math.min(Math.max(k, 1), n) - 1] as number;
  return (1 - gamma) * at(j) + gamma * at(j + 1);
}

const scores = fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 200 });
const probability = fc.double({ min: 0, max: 1, noNaN: true });

describe("quantileSorted (type 7)", () => {
  it("matches Hyndman & Fan's definition 7 on random lists", () => {
    fc.assert(
      fc.property(scores, probability, (values, p) => {
        const got = quantile(values, p) as number;
        const want = referenceQuantile(values, p);
        const scale = Math.max(1, ...values.map(Math.abs));
        expect(Math.abs(got - want)).toBeLessThanOrEqual(1e-9 * scale);
      }),
      { numRuns: 1000 },
    );
  });

  it("stays within the data and is monotone in p", () => {
    fc.assert(
      fc.property(scores, probability, probability, (values, p, q) => {
        const [lo, hi] = p <= q ? [p, q] : [q, p];
        const a = quantile(values, lo) as number;
        const b = quantile(values, hi) as number;
        expect(a).toBeLessThanOrEqual(b);
        expect(a).toBeGreaterThanOrEqual(Math.min(...values));
        expect(b).toBeLessThanOrEqual(Math.max(...values));
      }),
    );
  });

  it("gives numpy's figures on known lists", () => {
    // numpy.percentile([1, 2, 3, 4], [10, 50, 90]) == [1.3, 2.5, 3.7]
    expect([0.1, 0.5, 0.9].map((p) => Number(quantileSorted([1, 2, 3, 4], p)?.toFixed(12)))).toEqual([1.3, 2.5, 3.7]);
    // numpy.percentile([0, 10], 25) == 2.5; one value is every quantile.
    expect(quantileSorted([0, 10], 0.25)).toBe(2.5);
    // h = 11·0.9 is 9.900000000000000355… in binary: the p90 of ten 0s and two 10s is 9, not 9.000000000000004.
    expect(quantileSorted([...Array<number>(10).fill(0), 10, 10], 0.9)).toBe(9);
    expect(quantileSorted([1, 2, 3, 4], 0.1)).toBe(1.3);
    expect(quantileSorted([...Array<number>(2700).fill(1490), ...Array<number>(300).fill(1580)], 0.9)).toBe(1499);
    expect(quantileSorted([7], 0.9)).toBe(7);
    expect(quantileSorted([1, 2, 3], 0)).toBe(1);
    expect(quantileSorted([1, 2, 3], 1)).toBe(3);
  });

  it("returns null for an empty list and rejects p outside [0, 1]", () => {
    expect(quantileSorted([], 0.5)).toBeNull();
    expect(() => quantileSorted([1], 1.5)).toThrow(EvalError);
    expect(() => quantileSorted([1], Number.NaN)).toThrow(/probability in \[0, 1\] but received NaN/);
  });
});

describe("the 0.5-quantile and CompensatedSum", () => {
  it("the 0.5-quantile is the middle value or the mean of the two middle values", () => {
    expect(quantileSorted([1, 3, 5], 0.5)).toBe(3);
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted(new Float64Array([0.25, 0.75]), 0.5)).toBe(0.5);
  });

  it("CompensatedSum matches the plain sum on random lists and keeps precision on many small values", () => {
    const meanOf = (values: ArrayLike<number>): number => {
      const sum = new CompensatedSum();
      for (let i = 0; i < values.length; i++) sum.add(values[i] as number);
      return sum.value / values.length;
    };
    fc.assert(
      fc.property(scores, (values) => {
        const plain = values.reduce((s, v) => s + v, 0) / values.length;
        expect(meanOf(values)).toBeCloseTo(plain, 6);
      }),
    );
    // 0.1 a million times: a plain running sum drifts in the 11th digit; the compensated one does not.
    const many = new Float64Array(1_000_000).fill(0.1);
    expect(meanOf(many)).toBe(0.1);
    expect(meanOf([1e100, 1, -1e100])).toBe(1 / 3);
  });
});
