import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { averageRanks, pearson, spearman } from "./spearman.js";

/** Plain reference: rank = (# smaller) + (# equal + 1) / 2, then the textbook Pearson formula. */
function referenceSpearman(x: number[], y: number[]): number | null {
  const rank = (v: number[]) => v.map((a) => v.filter((b) => b < a).length + (v.filter((b) => b === a).length + 1) / 2);
  const rx = rank(x);
  const ry = rank(y);
  const n = x.length;
  const mx = rx.reduce((s, a) => s + a, 0) / n;
  const my = ry.reduce((s, a) => s + a, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += ((rx[i] as number) - mx) * ((ry[i] as number) - my);
    sxx += ((rx[i] as number) - mx) ** 2;
    syy += ((ry[i] as number) - my) ** 2;
  }
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
}

describe("averageRanks", () => {
  it("gives ties the mean of the ranks they span", () => {
    expect([...averageRanks([10, 20, 20, 30])]).toEqual([1, 2.5, 2.5, 4]);
    expect([...averageRanks([3, 1, 3, 3, 2])]).toEqual([4, 1, 4, 4, 2]);
    expect([...averageRanks([])]).toEqual([]);
  });

  it("rejects a non-finite value", () => {
    expect(() => averageRanks([1, Number.NaN])).toThrow(/value 1 is NaN/);
  });
});

describe("spearman", () => {
  it("matches scipy.stats.spearmanr's documented example", () => {
    // scipy docs: spearmanr([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]).statistic == 0.8207826816681233
    expect(spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7])).toBeCloseTo(0.8207826816681233, 14);
  });

  it("is 1 for any increasing transform and -1 for a decreasing one", () => {
    expect(spearman([1, 2, 3, 4], [1, 8, 27, 1000])).toBe(1);
    expect(spearman([1, 2, 3, 4], [0.9, 0.5, 0.1, -3])).toBe(-1);
  });

  it("is null for fewer than 2 values or a constant list", () => {
    expect(spearman([1], [2])).toBeNull();
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNull();
  });

  it("rejects lists of different lengths", () => {
    expect(() => spearman([1, 2], [1])).toThrow(/differ in length/);
    expect(() => pearson([1, 2], [1])).toThrow(/differ in length/);
  });

  it("equals the plain reference on random lists with many ties", () => {
    const values = fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.double({ min: -1, max: 1, noNaN: true })), { minLength: 2, maxLength: 60 });
    fc.assert(
      fc.property(values, (pairs) => {
        const x = pairs.map((p) => p[0]);
        const y = pairs.map((p) => Math.round(p[1] * 4) / 4);
        const got = spearman(x, y);
        const want = referenceSpearman(x, y);
        if (want === null) expect(got).toBeNull();
        else expect(got).toBeCloseTo(want, 12);
      }),
      { numRuns: 300 },
    );
  });
});
