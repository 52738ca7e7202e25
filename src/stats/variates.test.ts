import { describe, expect, it } from "vitest";
import { EvalError } from "../errors.js";
import { Xoshiro128 } from "./prng.js";
import { beta, binomial, binomialHalf, gamma, normal } from "./variates.js";

/** Exact Binomial(n, p) probabilities, by the ratio recurrence in log space. */
function binomialPmf(n: number, p: number): number[] {
  const logs: number[] = [n * Math.log1p(-p)];
  const odds = Math.log(p / (1 - p));
  for (let k = 1; k <= n; k++) logs.push((logs[k - 1] as number) + Math.log((n - k + 1) / k) + odds);
  return logs.map(Math.exp);
}

/** Upper 1e-6 critical value of χ²(df), by the Wilson–Hilferty approximation. */
function chi2Critical(df: number): number {
  const z = 4.753;
  return df * (1 - 2 / (9 * df) + z * Math.sqrt(2 / (9 * df))) ** 3;
}

/**
 * Pearson's χ² of draws against exact probabilities, neighbouring classes merged until each expects
 * at least 20 draws. Returns the statistic and its degrees of freedom.
 */
function chiSquare(draws: number[], probabilities: number[]): { chi2: number; df: number } {
  const observed = new Array<number>(probabilities.length).fill(0);
  for (const k of draws) observed[k] = (observed[k] as number) + 1;
  const total = draws.length;
  let chi2 = 0;
  let classes = 0;
  let e = 0;
  let o = 0;
  for (let k = 0; k < probabilities.length; k++) {
    e += (probabilities[k] as number) * total;
    o += observed[k] as number;
    if (e >= 20) {
      chi2 += (o - e) ** 2 / e;
      classes++;
      e = 0;
      o = 0;
    }
  }
  if (e > 0 || o > 0) chi2 += (o - e) ** 2 / Math.max(e, 1e-300); // the tail, merged into its own class
  classes++;
  return { chi2, df: classes - 1 };
}

describe("binomial", () => {
  // Each case exercises a path: inversion, the beta split, the p > 1/2 symmetry, split then inversion.
  const cases: [number, number, number][] = [
    [10, 0.3, 100_000],
    [200, 0.5, 100_000],
    [1000, 0.97, 100_000],
    [5000, 0.01, 100_000],
    [100_000, 0.3, 50_000],
    [1, 0.5, 10_000],
  ];
  it.each(cases)("Binomial(%i, %f) matches the exact distribution (χ² test)", (n, p, draws) => {
    const rng = Xoshiro128.fromSeed(n);
    const sample: number[] = [];
    for (let i = 0; i < draws; i++) {
      sample.push(binomial(rng, n, p));
    }
    expect(sample.every((k) => Number.isInteger(k) && k >= 0 && k <= n)).toBe(true);
    const { chi2, df } = chiSquare(sample, binomialPmf(n, p));
    expect(chi2).toBeLessThan(chi2Critical(Math.max(df, 1)));
  });

  it("has the right mean and variance for a billion trials", () => {
    const rng = Xoshiro128.fromSeed(3);
    const n = 1e9;
    const p = 0.25;
    const draws = 20_000;
    let sum = 0;
    let sumSq = 0;
    for (let i = 0; i < draws; i++) {
      const k = binomial(rng, n, p);
      sum += k;
      sumSq += (k - n * p) ** 2;
    }
    const variance = n * p * (1 - p);
    expect(Math.abs(sum / draws - n * p)).toBeLessThan(5 * Math.sqrt(variance / draws));
    expect(Math.abs(sumSq / draws / variance - 1)).toBeLessThan(0.05);
  });

  it("handles the edges and rejects bad parameters", () => {
    const rng = Xoshiro128.fromSeed(1);
    expect(binomial(rng, 0, 0.5)).toBe(0);
    expect(binomial(rng, 50, 0)).toBe(0);
    expect(binomial(rng, 50, 1)).toBe(50);
    expect(() => binomial(rng, -1, 0.5)).toThrow(EvalError);
    expect(() => binomial(rng, 2.5, 0.5)).toThrow(/binomial trials: expected a non-negative integer but received 2.5/);
    expect(() => binomial(rng, 5, 1.5)).toThrow(/binomial p: expected a probability in \[0, 1\] but received 1.5/);
  });
});

describe("binomialHalf", () => {
  it.each([[1], [7], [32], [45], [1000]])("Binomial(%i, 1/2) by counting random bits matches the exact distribution", (n) => {
    const rng = Xoshiro128.fromSeed(100 + n);
    const sample = Array.from({ length: 100_000 }, () => binomialHalf(rng, n));
    expect(Math.max(...sample)).toBeLessThanOrEqual(n);
    const { chi2, df } = chiSquare(sample, binomialPmf(n, 0.5));
    expect(chi2).toBeLessThan(chi2Critical(Math.max(df, 1)));
  });
  it("is 0 for no trials", () => {
    expect(binomialHalf(Xoshiro128.fromSeed(1), 0)).toBe(0);
  });
});

describe("normal, gamma, beta", () => {
  function moments(draw: () => number, count: number): { mean: number; variance: number } {
    let sum = 0;
    let sumSq = 0;
    for (let i = 0; i < count; i++) {
      const x = draw();
      sum += x;
      sumSq += x * x;
    }
    const mean = sum / count;
    return { mean, variance: sumSq / count - mean * mean };
  }
  const rng = Xoshiro128.fromSeed(11);

  it("normal has mean 0 and variance 1", () => {
    const m = moments(() => normal(rng), 200_000);
    expect(Math.abs(m.mean)).toBeLessThan(0.012);
    expect(Math.abs(m.variance - 1)).toBeLessThan(0.015);
  });
  it.each([[1], [3.5], [1000]])("Gamma(%f) has mean and variance equal to its shape", (shape) => {
    const m = moments(() => gamma(rng, shape), 200_000);
    expect(Math.abs(m.mean / shape - 1)).toBeLessThan(5 * Math.sqrt(1 / shape / 200_000));
    expect(Math.abs(m.variance / shape - 1)).toBeLessThan(0.03);
  });
  it("Beta(2, 5) has mean 2/7 and variance 10/392", () => {
    const m = moments(() => beta(rng, 2, 5), 200_000);
    expect(Math.abs(m.mean - 2 / 7)).toBeLessThan(0.002);
    expect(Math.abs(m.variance - 10 / 392)).toBeLessThan(0.001);
  });
  it("gamma rejects a shape below 1", () => {
    expect(() => gamma(rng, 0.5)).toThrow(/gamma shape: expected a number ≥ 1 but received 0.5/);
  });
});
