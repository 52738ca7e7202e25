import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bootstrapMeanInterval } from "./bootstrap.js";
import { distinctCounts, distinctCountsOf, listed, negatedOrder, negatedSorted, ValueCounter, type RunLengths } from "./distinct.js";
import { Xoshiro128 } from "./prng.js";
import { signFlipTest } from "./sign-flip.js";

/** The plain reference: every value listed, sorted, with −0 as 0. */
function sortedList(values: readonly number[]): Float64Array {
  return Float64Array.from(values, (x) => (x === 0 ? 0 : x)).sort();
}

/** Differences of scores: few values (rounded, 0/1) or many, and both zeros. */
const values = fc.oneof(
  fc.array(fc.integer({ min: -10, max: 10 }).map((k) => k / 10), { maxLength: 400 }),
  fc.array(fc.constantFrom(-1, 0, -0, 1), { maxLength: 400 }),
  fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { maxLength: 200 }),
);

describe("ValueCounter", () => {
  it("gives its values sorted, as run lengths while they take few values and listed past that (property)", () => {
    fc.assert(
      fc.property(values, fc.integer({ min: 1, max: 30 }), (list, maxDistinct) => {
        const counter = new ValueCounter(maxDistinct);
        for (const x of list) counter.add(x);
        const sorted = counter.sorted();
        const distinct = new Set(list.map((x) => (x === 0 ? 0 : x))).size;
        expect(sorted instanceof Float64Array).toBe(distinct > maxDistinct);
        expect([...listed(sorted)].map(Object.is.bind(null, -0)).includes(true)).toBe(false); // −0 is 0
        expect(listed(sorted)).toEqual(sortedList(list));
      }),
      { numRuns: 500 },
    );
  });
});

describe("run lengths", () => {
  const runLengths = (list: Float64Array): RunLengths => {
    const counter = new ValueCounter(Number.POSITIVE_INFINITY);
    for (const x of list) counter.add(x);
    return counter.sorted() as RunLengths;
  };

  it("count distinct values as the list they stand for does, with or without a map and a limit (property)", () => {
    fc.assert(
      fc.property(values, fc.integer({ min: 0, max: 25 }), fc.boolean(), (list, limit, abs) => {
        const sorted = sortedList(list);
        const map = abs ? Math.abs : undefined;
        expect(distinctCountsOf(runLengths(sorted), limit, map)).toEqual(distinctCounts(sorted, limit, map));
      }),
      { numRuns: 500 },
    );
  });

  it("give the bootstrap interval and the sign-flip p-value of the sorted list they stand for, whichever way they are drawn (property)", () => {
    fc.assert(
      fc.property(values, fc.integer(), fc.constantFrom("auto", "grouped", "direct") as fc.Arbitrary<"auto" | "grouped" | "direct">, (list, seed, method) => {
        const sorted = sortedList(list);
        const r = runLengths(sorted);
        const rng = (stream: number) => Xoshiro128.fromSeed(seed, stream);
        const interval = { resamples: 200, level: 0.9, method };
        expect(bootstrapMeanInterval(r, { ...interval, rng: rng(1) })).toEqual(bootstrapMeanInterval(sorted, { ...interval, rng: rng(1) }));
        for (const exactMax of [20, 2]) {
          const test = { resamples: 200, method, exactMax };
          expect(signFlipTest(r, { ...test, rng: rng(2) })).toEqual(signFlipTest(sorted, { ...test, rng: rng(2) }));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("negatedSorted and negatedOrder", () => {
  /** The plain reference: whether list b comes before list a, value by value. */
  const before = (b: Float64Array, a: Float64Array) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (b[i] as number) < (a[i] as number);
    return false;
  };

  it("negate a sorted list and its run lengths alike, and exactly one of a list and its negation comes first unless they are equal", () => {
    fc.assert(
      fc.property(values, (xs) => {
        const counter = new ValueCounter();
        for (const x of xs) counter.add(x);
        const list = sortedList(xs);
        const negated = sortedList(xs.map((x) => -x));
        const runs = counter.sorted();
        expect(negatedSorted(list)).toEqual(negated);
        expect(listed(negatedSorted(runs))).toEqual(negated);
        expect(negatedSorted(negatedSorted(list))).toEqual(list);
        const equal = negated.every((x, i) => x === list[i]);
        expect(negatedOrder(list)).toBe(equal ? 0 : before(negated, list) ? -1 : 1);
        expect(negatedOrder(runs)).toBe(negatedOrder(list));
        expect(negatedOrder(negated)).toBe(0 - negatedOrder(list));
        const symmetric = sortedList([...xs, ...xs.map((x) => 0 - x)]);
        expect(negatedOrder(symmetric)).toBe(0);
        expect([...negatedSorted(list)].some((x) => Object.is(x, -0))).toBe(false);
      }),
    );
  });
});

