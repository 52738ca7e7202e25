import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cosineSimilarity } from "./cosine.js";

describe("cosineSimilarity", () => {
  it("gives the cosine of vectors whose entries are so large or small that the sums overflow or underflow", () => {
    // They gave NaN, 0, 0 and 1: a sum of squares or its product was Infinity or 0.
    expect(cosineSimilarity([1e200], [1e200])).toBe(1);
    expect(cosineSimilarity([1e100], [-1e100])).toBe(-1);
    expect(cosineSimilarity([1e-200, 0], [1e-200, 0])).toBe(1);
    expect(cosineSimilarity([3e-160, 4e-160], [4e-160, 3e-160])).toBeCloseTo(0.96, 14);
    expect(cosineSimilarity([1e-100, 0], [0, 1e-100])).toBe(0);
    expect(cosineSimilarity([1e300, 1e-300], [1e-300, 1e300])).toBeCloseTo(0, 14);
  });

  it("is unchanged by scaling either vector by a power of two, however large or small", () => {
    // Entries of magnitude 0 or at least 1e-3, so that a scaled entry is still a normal float64.
    const entry = fc.integer({ min: -1000, max: 1000 }).map((k) => k / 1000);
    const vectors = fc
      .integer({ min: 1, max: 30 })
      .chain((n) => fc.tuple(fc.array(entry, { minLength: n, maxLength: n }), fc.array(entry, { minLength: n, maxLength: n })))
      .filter(([a, b]) => a.some((x) => x !== 0) && b.some((y) => y !== 0));
    const power = fc.integer({ min: -1000, max: 1000 });
    fc.assert(
      fc.property(vectors, power, power, ([a, b], j, k) => {
        const c = cosineSimilarity(a, b);
        expect(cosineSimilarity(a.map((x) => x * 2 ** j), b.map((y) => y * 2 ** k))).toBeCloseTo(c, 12);
      }),
      { numRuns: 300 },
    );
  });

  it("is 0 when either vector is all zeros", () => {
    expect(cosineSimilarity([0, 0], [1, 2])).toBe(0);
    expect(cosineSimilarity(new Float32Array(3), new Float32Array(3))).toBe(0);
  });
});
