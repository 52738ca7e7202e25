import { describe, expect, it } from "vitest";
import { Xoshiro128 } from "./prng.js";
import { signFlipTest } from "./sign-flip.js";

const rng = () => Xoshiro128.fromSeed(1);

describe("signFlipTest", () => {
  it("enumerates small cases exactly", () => {
    // [1, 1, 1]: only +++ and −−− reach |T| = 3 among 8 patterns.
    expect(signFlipTest(Float64Array.of(1, 1, 1), { resamples: 10, rng: rng() })).toEqual({ p: 0.25, method: "exact", resamples: 8 });
    // Zero differences change no pattern's sum and are left out: same p.
    expect(signFlipTest(Float64Array.of(0, 1, 0, 1, 1), { resamples: 10, rng: rng() })?.p).toBe(0.25);
    // One difference: both patterns reach |T|.
    expect(signFlipTest(Float64Array.of(-0.3), { resamples: 10, rng: rng() })?.p).toBe(1);
    // 0.1 + 0.2 vs 0.3 in floating point: the tie still counts.
    expect(signFlipTest(Float64Array.of(0.1, 0.2, -0.3), { resamples: 10, rng: rng() })?.p).toBe(1);
    // Ten positive differences: p = 2/1024.
    expect(signFlipTest(new Float64Array(10).fill(0.5), { resamples: 10, rng: rng() })?.p).toBe(2 / 1024);
  });

  it("rejects a resample count that is not a positive integer", () => {
    expect(() => signFlipTest(Float64Array.of(1), { resamples: 0, rng: rng() })).toThrow(/Invalid sign-flip resamples: expected a positive integer but received 0/);
  });

  it("gives p = 1 when every difference is 0, and null without differences", () => {
    expect(signFlipTest(new Float64Array(1000), { resamples: 10, rng: rng() })).toEqual({ p: 1, method: "exact", resamples: 1 });
    expect(signFlipTest(new Float64Array(0), { resamples: 10, rng: rng() })).toBeNull();
  });

  it("matches the exact p-value by random patterns, both ways of drawing them", () => {
    // 22 differences on a few values: exact p by enumerating 2^22 patterns, then by 20,000 random ones.
    const d = Float64Array.from({ length: 22 }, (_, i) => [0.25, -0.5, 0.75, 0.25, 1][i % 5] as number);
    const exact = signFlipTest(d, { resamples: 1, rng: rng(), exactMax: 22 });
    expect(exact?.method).toBe("exact");
    const p = exact?.p as number;
    expect(p).toBeGreaterThan(0.005); // not so extreme that a few random patterns could not tell
    expect(p).toBeLessThan(0.5);
    for (const method of ["grouped", "direct"] as const) {
      const mc = signFlipTest(d, { resamples: 20_000, rng: rng(), method });
      expect(mc?.method).toBe("monte_carlo");
      expect(Math.abs((mc?.p as number) - p)).toBeLessThan(5 * Math.sqrt((p * (1 - p)) / 20_000));
    }
  });

  it("agrees with the normal approximation on thousands of distinct differences (several chunks)", () => {
    // For many differences T* is close to N(0, Σd²), so p ≈ 2·(1 − Φ(|T| / √Σd²)).
    const g = Xoshiro128.fromSeed(77);
    const d = Float64Array.from({ length: 5001 }, () => g.nextDouble() - 0.492); // z ≈ 1.72, p ≈ 0.086
    const t = d.reduce((s, x) => s + x, 0);
    const z = Math.abs(t) / Math.sqrt(d.reduce((s, x) => s + x * x, 0));
    const want = 2 * (1 - phi(z));
    expect(want).toBeGreaterThan(0.01);
    expect(want).toBeLessThan(0.5);
    const got = signFlipTest(d, { resamples: 20_000, rng: rng() });
    expect(Math.abs((got?.p as number) - want)).toBeLessThan(5 * Math.sqrt((want * (1 - want)) / 20_000) + 0.005);
  });

  it("uses the +1 correction: a shift no pattern reaches gives 1 / (1 + resamples)", () => {
    const d = Float64Array.from({ length: 500 }, (_, i) => 0.01 + (i % 7) / 100);
    expect(signFlipTest(d, { resamples: 999, rng: rng() })).toEqual({ p: 1 / 1000, method: "monte_carlo", resamples: 999 });
  });

  it("is uniform-ish under the null: symmetric noise is rarely significant", () => {
    let significant = 0;
    for (let s = 0; s < 40; s++) {
      const g = Xoshiro128.fromSeed(1000 + s);
      const d = Float64Array.from({ length: 200 }, () => Math.round((g.nextDouble() - 0.5) * 100) / 100);
      if ((signFlipTest(d, { resamples: 500, rng: rng() })?.p as number) < 0.05) significant++;
    }
    expect(significant).toBeLessThanOrEqual(8); // ~2 expected at alpha 0.05
  });
});

/** Standard normal CDF, via Abramowitz & Stegun 7.1.26 (error below 1.5e-7). */
function phi(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}
