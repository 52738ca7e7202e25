import { describe, expect, it } from "vitest";
import { Xoshiro128, hashString } from "./prng.js";

describe("Xoshiro128", () => {
  it("reproduces the reference xoshiro128** outputs from state (1, 2, 3, 4)", () => {
    // The first three are worked by hand from the reference C code; the rest are from that code.
    const rng = new Xoshiro128(1, 2, 3, 4);
    expect(Array.from({ length: 6 }, () => rng.nextUint32())).toEqual([11520, 0, 5927040, 70819200, 2031721883, 1637235492]);
  });

  it("is reproducible from a seed, and different seeds or salts give different streams", () => {
    const take = (rng: Xoshiro128) => Array.from({ length: 8 }, () => rng.nextUint32());
    expect(take(Xoshiro128.fromSeed(42))).toEqual(take(Xoshiro128.fromSeed(42)));
    expect(take(Xoshiro128.fromSeed(42))).not.toEqual(take(Xoshiro128.fromSeed(43)));
    expect(take(Xoshiro128.fromSeed(42, 1))).not.toEqual(take(Xoshiro128.fromSeed(42, 2)));
    expect(take(Xoshiro128.fromSeed(0)).some((x) => x !== 0)).toBe(true);
    expect(take(new Xoshiro128(0, 0, 0, 0)).some((x) => x !== 0)).toBe(true);
  });

  it("nextDouble stays in [0, 1) with mean 1/2", () => {
    const rng = Xoshiro128.fromSeed(7);
    let sum = 0;
    for (let i = 0; i < 100_000; i++) {
      const x = rng.nextDouble();
      expect(x >= 0 && x < 1).toBe(true);
      sum += x;
    }
    expect(Math.abs(sum / 100_000 - 0.5)).toBeLessThan(5 * Math.sqrt(1 / 12 / 100_000));
  });

  it("nextBelow is uniform on a small range and stays below large ranges", () => {
    const rng = Xoshiro128.fromSeed(1);
    const n = 7;
    const draws = 700_000;
    const counts = new Array<number>(n).fill(0);
    for (let i = 0; i < draws; i++) {
      const k = rng.nextBelow(n);
      counts[k] = (counts[k] as number) + 1;
    }
    const expected = draws / n;
    const chi2 = counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
    expect(chi2).toBeLessThan(35); // df 6: P(χ² > 35) ≈ 4e-6
    for (const big of [3_000_000_000, 4294967295, 1_000_003]) {
      let max = 0;
      for (let i = 0; i < 20_000; i++) {
        const k = rng.nextBelow(big);
        expect(Number.isInteger(k) && k >= 0 && k < big).toBe(true);
        max = Math.max(max, k);
      }
      expect(max).toBeGreaterThan(big * 0.99); // the top of the range is reached, not cut off
    }
    expect(rng.nextBelow(1)).toBe(0);
  });

  it("hashString is FNV-1a", () => {
    expect(hashString("")).toBe(0x811c9dc5);
    expect(hashString("a")).toBe(0xe40c292c);
    expect(hashString("foobar")).toBe(0xbf9cf968);
  });
});

describe("Xoshiro128.sumOfPicks", () => {
  it.each([[1], [6], [4096], [5000]])("picks every position of a block of %i equally often", (size) => {
    const rng = Xoshiro128.fromSeed(size);
    // values = position + 1 inside the block, padding around it must never be read.
    const values = new Float64Array(size + 20).fill(Number.NaN);
    for (let i = 0; i < size; i++) values[10 + i] = i + 1;
    const draws = 200_000;
    const mean = rng.sumOfPicks(values, 10, size, draws) / draws;
    const sd = Math.sqrt((size * size - 1) / 12 / draws);
    expect(Math.abs(mean - (size + 1) / 2)).toBeLessThanOrEqual(5 * sd);
    // Position by position on a small block: a one-hot block counts the picks of its hot position.
    if (size <= 6) {
      for (let hot = 0; hot < size; hot++) {
        const oneHot = new Float64Array(size);
        oneHot[hot] = 1;
        const count = rng.sumOfPicks(oneHot, 0, size, 60_000);
        const p = 1 / size;
        expect(Math.abs(count - 60_000 * p)).toBeLessThan(5 * Math.sqrt(60_000 * p * (1 - p)) + 1e-9);
      }
    }
    expect(rng.sumOfPicks(values, 10, size, 0)).toBe(0);
  });
});
