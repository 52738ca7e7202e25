import { describe, expect, it } from "vitest";
import { bootstrapMeanInterval } from "./bootstrap.js";
import { Xoshiro128 } from "./prng.js";

/** n values from `pick`, seeded. */
function sample(n: number, seed: number, pick: (u: number) => number): Float64Array {
  const rng = Xoshiro128.fromSeed(seed);
  return Float64Array.from({ length: n }, () => pick(rng.nextDouble()));
}

function normalInterval(values: Float64Array): { low: number; high: number } {
  const n = values.length;
  const m = values.reduce((s, v) => s + v, 0) / n;
  const sd = Math.sqrt(values.reduce((s, v) => s + (v - m) ** 2, 0) / n);
  return { low: m - 1.959964 * (sd / Math.sqrt(n)), high: m + 1.959964 * (sd / Math.sqrt(n)) };
}

describe("bootstrapMeanInterval", () => {
  it("is null for no values and a point for constant values", () => {
    expect(bootstrapMeanInterval(new Float64Array(0), { resamples: 10, level: 0.95, rng: Xoshiro128.fromSeed(1) })).toBeNull();
    const c = bootstrapMeanInterval(new Float64Array(5000).fill(0.25), { resamples: 100, level: 0.95, rng: Xoshiro128.fromSeed(1) });
    expect(c).toMatchObject({ low: 0.25, high: 0.25, level: 0.95, resamples: 100 });
  });

  // For a mean of thousands of values the bootstrap distribution is nearly normal, so both ways of
  // drawing must give the textbook interval mean ± 1.96·sd/√n, up to Monte Carlo error.
  const cases: [string, Float64Array][] = [
    ["three values (exact match differences)", sample(20_000, 1, (u) => (u < 0.2 ? -1 : u < 0.9 ? 0 : 1))],
    ["rounded differences", sample(20_000, 2, (u) => Math.round((u - 0.45) * 100) / 100)],
    ["continuous differences, n not a multiple of the block", sample(6_001, 3, (u) => u * u - 0.3)],
  ];
  it.each(cases)("draws grouped and direct resamples from the same distribution: %s", (_, values) => {
    const want = normalInterval(values);
    const width = want.high - want.low;
    for (const method of ["grouped", "direct", "auto"] as const) {
      const got = bootstrapMeanInterval(values, { resamples: 2000, level: 0.95, rng: Xoshiro128.fromSeed(9), method });
      expect(got?.method).toBe(method === "auto" ? got?.method : method);
      // Monte Carlo sd of a 2.5% quantile from 2000 resamples ≈ 0.015·width; allow 4 sd.
      expect(Math.abs((got?.low as number) - want.low)).toBeLessThan(0.06 * width);
      expect(Math.abs((got?.high as number) - want.high)).toBeLessThan(0.06 * width);
    }
  });

  it("crosses batches of resamples correctly (40,000 values in 10 blocks, 7,000 resamples)", () => {
    const values = sample(40_000, 6, (u) => Math.sqrt(u));
    const want = normalInterval(values);
    const width = want.high - want.low;
    const got = bootstrapMeanInterval(values, { resamples: 7000, level: 0.95, rng: Xoshiro128.fromSeed(2), method: "direct" });
    expect(Math.abs((got?.low as number) - want.low)).toBeLessThan(0.05 * width);
    expect(Math.abs((got?.high as number) - want.high)).toBeLessThan(0.05 * width);
  });

  it("rejects bad resamples and levels", () => {
    const values = Float64Array.of(1, 2);
    expect(() => bootstrapMeanInterval(values, { resamples: 1.5, level: 0.95, rng: Xoshiro128.fromSeed(1) })).toThrow(/Invalid bootstrap resamples: expected a positive integer but received 1.5/);
    expect(() => bootstrapMeanInterval(values, { resamples: 10, level: 95, rng: Xoshiro128.fromSeed(1) })).toThrow(/Invalid bootstrap level: expected a number between 0 and 1 \(exclusive\) but received 95/);
  });

  it("picks the grouped way for few distinct values and the direct way otherwise", () => {
    const opts = { resamples: 10, level: 0.9, rng: Xoshiro128.fromSeed(1) };
    expect(bootstrapMeanInterval(cases[0]?.[1] as Float64Array, opts)?.method).toBe("grouped");
    expect(bootstrapMeanInterval(cases[2]?.[1] as Float64Array, opts)?.method).toBe("direct");
  });

  it("narrows with the level and is reproducible from the seed", () => {
    const values = cases[2]?.[1] as Float64Array;
    const at = (level: number, seed = 4) => bootstrapMeanInterval(values, { resamples: 2000, level, rng: Xoshiro128.fromSeed(seed) });
    const wide = at(0.99);
    const narrow = at(0.5);
    expect((wide?.high as number) - (wide?.low as number)).toBeGreaterThan((narrow?.high as number) - (narrow?.low as number));
    expect(at(0.95)).toEqual(at(0.95));
    expect(at(0.95, 5)).not.toEqual(at(0.95));
  });
});
