import { describe, expect, it } from "vitest";
import { wordTokens } from "../../metrics/tokens.js";
import { Xoshiro128 } from "../../stats/prng.js";
import { commonComponent, NEGLIGIBLE_NORM, removeComponents, sifWeights, weightedAverage, zeroIfNegligible, zipfProbabilities } from "./sif.js";
import { indexWords, type WordTable } from "./table.js";

// A vocabulary small enough to check by hand: the=[2,0], cat=[0,5], sat=[1,1].
const table: WordTable = { words: ["the", "cat", "sat"], dim: 2, data: Float32Array.from([2, 0, 0, 5, 1, 1]), scales: null };
const index = indexWords(table.words);

describe("zipfProbabilities", () => {
  it("is 1 / (rank · H_n): for n = 3, H = 11/6 and p = 6/11, 3/11, 2/11", () => {
    const p = zipfProbabilities(3);
    expect([...p]).toEqual([6 / 11, 3 / 11, 2 / 11].map((x) => expect.closeTo(x, 15)));
  });

  it("sums to 1 and decreases with the rank on a large vocabulary", () => {
    const p = zipfProbabilities(341_479);
    let sum = 0;
    for (let i = 0; i < p.length; i++) sum += p[i] as number;
    expect(sum).toBeCloseTo(1, 12);
    expect(p[0]).toBeCloseTo(0.0751, 4);
    expect(p[0] as number).toBeGreaterThan(p[1] as number);
    expect(p[341_478]).toBeCloseTo((p[0] as number) / 341_479, 15);
  });
});

describe("sifWeights", () => {
  it("is a / (a + p): with a = 1, p = 1 → 1/2, p = 0.25 → 0.8, p = 0 → 1", () => {
    expect([...sifWeights([1, 0.25, 0], 1)]).toEqual([0.5, 0.8, 1].map((x) => expect.closeTo(x, 7)));
  });

  it("down-weights frequent words at the paper's a = 1e-3", () => {
    const w = sifWeights(zipfProbabilities(100_000), 1e-3);
    expect(w[0]).toBeLessThan(0.02); // "the": p ≈ 0.08
    expect(w[99_999]).toBeGreaterThan(0.99); // a rare word
  });
});

describe("weightedAverage", () => {
  const weights = sifWeights([1, 0.25, 0], 1); // the 0.5, cat 0.8, sat 1

  it("averages the weighted vectors of the known tokens: 'the cat' = (0.5·[2,0] + 0.8·[0,5]) / 2 = [0.5, 2]", () => {
    const r = weightedAverage(wordTokens("The, CAT!"), table, index, weights);
    expect([...r.vector]).toEqual([expect.closeTo(0.5, 6), expect.closeTo(2, 6)]);
    expect(r).toMatchObject({ known: 2, unknown: 0 });
  });

  it("counts a repeated word each time: 'sat sat the' = (1·[1,1]·2 + 0.5·[2,0]) / 3", () => {
    const r = weightedAverage(["sat", "sat", "the"], table, index, weights);
    expect([...r.vector]).toEqual([expect.closeTo(1, 6), expect.closeTo(2 / 3, 6)]);
  });

  it("skips unknown words and divides by the known ones only", () => {
    const r = weightedAverage(["the", "dog", "cat", "zebra"], table, index, weights);
    expect([...r.vector]).toEqual([expect.closeTo(0.5, 6), expect.closeTo(2, 6)]);
    expect(r).toMatchObject({ known: 2, unknown: 2 });
  });

  it("gives the zero vector when no word is known, or there are no words", () => {
    expect([...weightedAverage(["dog", "zebra"], table, index, weights).vector]).toEqual([0, 0]);
    expect(weightedAverage([], table, index, weights)).toMatchObject({ vector: new Float64Array(2), known: 0, unknown: 0 });
  });
});

describe("weightedAverage's scale and zeroIfNegligible", () => {
  const weights = sifWeights([1, 0.25, 0], 1); // the 0.5, cat 0.8, sat 1

  it("scale is the average of weight · ‖v_w‖: 'the cat sat' = (0.5·2 + 0.8·5 + 1·√2) / 3; 0 without known words", () => {
    expect(weightedAverage(["the", "cat", "sat"], table, index, weights).scale).toBeCloseTo((1 + 4 + Math.SQRT2) / 3, 6);
    expect(weightedAverage(["dog"], table, index, weights).scale).toBe(0);
  });

  it("zeroes a vector under NEGLIGIBLE_NORM of the scale, and keeps one just above it", () => {
    expect([...zeroIfNegligible(Float64Array.from([3e-17, -4e-17]), 1)]).toEqual([0, 0]);
    expect([...zeroIfNegligible(Float64Array.from([3, 4]), 5 / NEGLIGIBLE_NORM)]).toEqual([0, 0]);
    expect([...zeroIfNegligible(Float64Array.from([3, 4]), 4.9 / NEGLIGIBLE_NORM)]).toEqual([3, 4]);
    expect([...zeroIfNegligible(Float64Array.from([0, 0]), 0)]).toEqual([0, 0]);
  });
});

describe("removeComponents", () => {
  it("subtracts the projection on each unit component", () => {
    expect([...removeComponents(Float64Array.from([3, 4]), [Float64Array.from([1, 0])])]).toEqual([0, 4]);
    // [3,4]·[0.6,0.8] = 5, and 5·[0.6,0.8] = [3,4]: nothing is left.
    expect([...removeComponents(Float64Array.from([3, 4]), [Float64Array.from([0.6, 0.8])])].map((x) => Math.abs(x) < 1e-12)).toEqual([true, true]);
    // Orthogonal to the component: unchanged.
    expect([...removeComponents(Float64Array.from([4, -3]), [Float64Array.from([0.6, 0.8])])]).toEqual([expect.closeTo(4, 12), expect.closeTo(-3, 12)]);
  });

  it("changes nothing without components", () => {
    expect([...removeComponents(Float64Array.from([1, 2]), [])]).toEqual([1, 2]);
  });
});

describe("commonComponent", () => {
  it("is the unit direction of Σ p(w)·weight(w)·v_w over the given rows", () => {
    // p = [0.5, 0.25, 0.25], a = 1 → weights [2/3, 0.8, 0.8];
    // μ = 0.5·(2/3)·[2,0] + 0.25·0.8·[0,5] + 0.25·0.8·[1,1] = [2/3 + 0.2, 1 + 0.2] = [0.8667, 1.2].
    const p = [0.5, 0.25, 0.25];
    const u = commonComponent(table, [0, 1, 2], p, sifWeights(p, 1)) as Float64Array;
    const norm = Math.hypot(2 / 3 + 0.2, 1.2);
    expect([...u]).toEqual([expect.closeTo((2 / 3 + 0.2) / norm, 6), expect.closeTo(1.2 / norm, 6)]);
    // Only the rows given count: without "sat", μ = [2/3, 1].
    const v = commonComponent(table, [0, 1], p, sifWeights(p, 1)) as Float64Array;
    expect([...v]).toEqual([expect.closeTo(2 / 3 / Math.hypot(2 / 3, 1), 6), expect.closeTo(1 / Math.hypot(2 / 3, 1), 6)]);
  });

  it("is null when there is nothing to remove", () => {
    expect(commonComponent(table, [], [1, 1, 1], [1, 1, 1])).toBeNull();
  });

  it("matches the first principal component of SIF vectors of sentences drawn from the unigram distribution", () => {
    // 200 words of dimension 8 with a shared offset (as real word vectors have), Zipf frequencies.
    const rng = Xoshiro128.fromSeed(7);
    const n = 200;
    const dim = 8;
    const data = new Float32Array(n * dim);
    for (let i = 0; i < n * dim; i++) data[i] = rng.nextDouble() * 2 - 1 + (i % dim === 0 ? 1.5 : 0) + (i % dim === 3 ? -1 : 0);
    const vocab: WordTable = { words: Array.from({ length: n }, (_, i) => `w${i}`), dim, data, scales: null };
    const vocabIndex = indexWords(vocab.words);
    const p = zipfProbabilities(n);
    const w = sifWeights(p, 1e-2);
    const cumulative = Array.from(p).map((_, i) => Array.from(p).slice(0, i + 1).reduce((s, x) => s + x, 0));
    const draw = () => {
      const r = rng.nextDouble();
      const i = cumulative.findIndex((c) => c >= r);
      return `w${i < 0 ? n - 1 : i}`;
    };
    // The uncentred second moment of 3,000 sentences of 12 words, and its top eigenvector by power iteration.
    const moment = new Float64Array(dim * dim);
    for (let s = 0; s < 3000; s++) {
      const v = weightedAverage(Array.from({ length: 12 }, draw), vocab, vocabIndex, w).vector;
      for (let i = 0; i < dim; i++) for (let j = 0; j < dim; j++) moment[i * dim + j] = (moment[i * dim + j] as number) + (v[i] as number) * (v[j] as number);
    }
    let pc: Float64Array = new Float64Array(dim).fill(1);
    for (let step = 0; step < 500; step++) {
      const next = new Float64Array(dim);
      for (let i = 0; i < dim; i++) for (let j = 0; j < dim; j++) next[i] = (next[i] as number) + (moment[i * dim + j] as number) * (pc[j] as number);
      const norm = Math.hypot(...next);
      pc = next.map((x) => x / norm);
    }
    const u = commonComponent(vocab, Array.from({ length: n }, (_, i) => i), p, w) as Float64Array;
    expect(Math.hypot(...u)).toBeCloseTo(1, 12);
    const cos = Math.abs(u.reduce((s, x, i) => s + x * (pc[i] as number), 0));
    expect(cos).toBeGreaterThan(0.98);
  });
});
