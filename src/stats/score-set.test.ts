import { readdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { histogram } from "./histogram.js";
import { quantileSorted } from "./quantiles.js";
import { ScoreSet } from "./score-set.js";
import { SpillFile } from "./spill-file.js";
import { tempDir } from "../test-support.js";

const dir = tempDir("simeval-score-set-");

function filled(values: readonly number[], memoryValues: number): ScoreSet {
  const set = new ScoreSet({ memoryValues, dir });
  for (const x of values) set.add(x);
  return set;
}

/** The plain reference: sort everything and read the quantile off the sorted list. */
function reference(values: readonly number[], p: number): number | null {
  return quantileSorted(Float64Array.from(values).sort(), p);
}

/** Equal as numbers: 0 and -0 are one score. */
function expectSame(actual: number | null, expected: number | null): void {
  expect(actual === expected, `${String(actual)} should be ${String(expected)}`).toBe(true);
}

const PS = [0, 0.1, 0.25, 0.5, 0.9, 0.999, 1];
const score = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0, -0, 0.5, 1, Number.MIN_VALUE, -Number.MAX_VALUE),
);

describe("ScoreSet", () => {
  it("gives exactly the sorted list's quantiles, min, max and mean, in memory or spilled (property)", () => {
    fc.assert(
      fc.property(fc.array(score, { minLength: 1, maxLength: 300 }), fc.integer({ min: 1, max: 64 }), (values, memoryValues) => {
        const set = filled(values, memoryValues);
        try {
          expect(set.spilled).toBe(values.length > memoryValues);
          for (const p of PS) expectSame(set.quantile(p), reference(values, p));
          set.quantiles(PS).forEach((q, i) => expectSame(q, reference(values, PS[i]!)));
          expectSame(set.min(), Math.min(...values));
          expectSame(set.max(), Math.max(...values));
          expect(set.length).toBe(values.length);
        } finally {
          set.close();
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("gives the sorted list's quantiles and bins read between adds, its first digits many (property)", () => {
    // Scores over many exponents and both signs take hundreds of first digits: the sparse counts grow past 8, 16, … slots
    // between reads, and a read must not change what the next one counts.
    const wide = fc.oneof(score, fc.integer({ min: -1074, max: 1023 }).map((e) => 2 ** e), fc.integer({ min: -1074, max: 1023 }).map((e) => -(2 ** e) * 1.5));
    fc.assert(
      fc.property(fc.array(fc.array(wide, { minLength: 1, maxLength: 200 }), { minLength: 2, maxLength: 4 }), fc.integer({ min: 1, max: 32 }), (parts, memoryValues) => {
        const set = new ScoreSet({ memoryValues, dir });
        const values: number[] = [];
        const opts = { bins: 7, min: -1, max: 1 };
        try {
          for (const part of parts) {
            for (const x of part) set.add(x);
            values.push(...part);
            set.quantiles(PS).forEach((q, i) => expectSame(q, reference(values, PS[i]!)));
            expect(set.histogram(opts)).toEqual(histogram(values, opts));
          }
        } finally {
          set.close();
        }
      }),
      { numRuns: 300 },
    );
  });

  it("selects through every radix level when many scores share their leading bits", () => {
    // 200,000 scores in [0.5, 0.5 + 2^-40): the top 32 bits of every key are equal.
    const values = Array.from({ length: 200_000 }, (_, i) => 0.5 + ((i * 7919) % 200_000) * 2 ** -58);
    const set = filled(values, 1000);
    for (const p of PS) expect(set.quantile(p)).toBe(reference(values, p));
    set.close();
  });

  it("selects among a million equal scores without collecting them", () => {
    const set = new ScoreSet({ memoryValues: 1000, dir });
    for (let i = 0; i < 1_000_000; i++) set.add(i < 10 ? -0.25 : 0.75);
    expect(set.quantiles([0, 0.000005, 0.5, 1])).toEqual([-0.25, -0.25, 0.75, 0.75]);
    // h = (n − 1)·p = 9.5: halfway between the last −0.25 (index 9) and the first 0.75.
    expect(set.quantile(9.5 / 999_999)).toBeCloseTo(0.25, 9);
    set.close();
  });

  it("bins like histogram() over the same scores", () => {
    const values = Array.from({ length: 5000 }, (_, i) => ((i * 31) % 1001) / 1000);
    const set = filled(values, 100);
    const opts = { bins: 20, min: 0, max: 1 };
    expect(set.histogram(opts)).toEqual(histogram(values, opts));
    set.close();
  });

  it("bins like histogram() whether its scores take few values or many, in memory or spilled (property)", () => {
    const few = fc.constantFrom(0, -0, 0.2, 0.25, 1 / 3, 0.5, 0.7, 1, 2, -1);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(few, fc.double({ min: -0.5, max: 1.5, noNaN: true })), { minLength: 1, maxLength: 300 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 1, max: 30 }),
        (values, onlyFew, memoryValues, bins) => {
          const scores = onlyFew ? values.map((v, i) => [0, 0.2, 1 / 3, 0.7, 1, -0][(i + Math.round(v * 7)) % 6]!) : values;
          const set = filled(scores, memoryValues);
          try {
            const opts = { bins, min: 0, max: 1 };
            expect(set.histogram(opts)).toEqual(histogram(scores, opts));
          } finally {
            set.close();
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("gives each set its own quantiles and bins when sets share one file, their chunks interleaved (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(score, { minLength: 1, maxLength: 120 }), fc.integer({ min: 1, max: 16 })), { minLength: 2, maxLength: 5 }),
        fc.integer({ min: 0, max: 4 }),
        (sets, closedEarly) => {
          const file = new SpillFile(dir);
          const built = sets.map(([, memoryValues]) => new ScoreSet({ memoryValues }, file));
          // Round-robin adds, so that the sets' chunks alternate in the file.
          for (let i = 0; i < Math.max(...sets.map(([v]) => v.length)); i++) sets.forEach(([values], j) => values[i] !== undefined && built[j]!.add(values[i]!));
          built[closedEarly % built.length]!.close(); // a set closed early leaves the others' chunks readable
          try {
            sets.forEach(([values], j) => {
              if (j === closedEarly % built.length) return;
              const set = built[j]!;
              expect(set.spilled).toBe(values.length > sets[j]![1]);
              set.quantiles(PS).forEach((q, i) => expectSame(q, reference(values, PS[i]!)));
              const opts = { bins: 7, min: -1, max: 1 };
              expect(set.histogram(opts)).toEqual(histogram(values, opts));
            });
          } finally {
            for (const set of built) set.close();
            file.close();
          }
          expect(readdirSync(dir)).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("is empty without scores and leaves no file behind", () => {
    const empty = new ScoreSet({ dir });
    expect([empty.mean(), empty.min(), empty.max(), empty.quantile(0.5)]).toEqual([null, null, null, null]);
    const set = filled([3, 1, 2, 5, 4], 2);
    expect(set.spilled).toBe(true);
    expect(set.quantile(0.5)).toBe(3);
    set.close();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("keeps adding after a quantile was read", () => {
    const set = filled([5, 1], 3);
    expect(set.quantile(0.5)).toBe(3);
    for (const x of [9, 7, 0]) set.add(x);
    expect(set.quantile(0.5)).toBe(5);
    expect(set.mean()).toBeCloseTo(4.4, 15);
    set.close();
  });
  it("gives whole percentiles of whole scores, spilled or not (the p90 of 2,700 distances of 1490 and 300 of 1580 is 1499)", () => {
    const values = [...Array<number>(2700).fill(1490), ...Array<number>(300).fill(1580)];
    for (const memoryValues of [100_000, 1000]) {
      const set = filled(values, memoryValues);
      expect(set.quantiles([0.1, 0.9])).toEqual([1490, 1499]);
    }
    expect(filled([...Array<number>(10).fill(0), 10, 10], 4).quantiles([0.9])).toEqual([9]);
  });
});
