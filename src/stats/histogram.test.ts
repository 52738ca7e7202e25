import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EvalError } from "../errors.js";
import { histogram } from "./histogram.js";

/** Bin by scanning the edges: the first i with edges[i] ≤ v < edges[i + 1], the last bin closed. */
function referenceBin(edges: number[], v: number): number {
  const bins = edges.length - 1;
  for (let i = 0; i < bins; i++) {
    const last = i === bins - 1;
    if (v >= (edges[i] as number) && (v < (edges[i + 1] as number) || (last && v <= (edges[i + 1] as number)))) return i;
  }
  return -1;
}

describe("histogram", () => {
  it("counts a hand-made list, the last bin closed on the right", () => {
    const h = histogram([0, 0.1, 0.25, 0.5, 0.74, 0.75, 1, 1.2, -0.1, Number.NaN], { bins: 4, min: 0, max: 1 });
    expect(h.edges).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(h.counts).toEqual([2, 1, 2, 2]);
    expect(h.outside).toBe(3);
  });

  it("puts every value where the edges say, including values on an edge", () => {
    const setup = fc.record({
      bins: fc.integer({ min: 1, max: 50 }),
      min: fc.double({ min: -100, max: 100, noNaN: true }),
      span: fc.double({ min: 1e-3, max: 100, noNaN: true }),
    });
    fc.assert(
      fc.property(setup, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 50 }), ({ bins, min, span }, fractions) => {
        const max = min + span;
        const { edges } = histogram([], { bins, min, max });
        // Mix arbitrary values with values sitting exactly on edges.
        const values = [...fractions.map((f) => min + f * span), ...edges];
        const h = histogram(values, { bins, min, max });
        const want = new Array<number>(bins).fill(0);
        let outside = 0;
        for (const v of values) {
          const i = referenceBin(edges, v);
          if (i < 0) outside++;
          else want[i] = (want[i] as number) + 1;
        }
        expect(h.counts).toEqual(want);
        expect(h.outside).toBe(outside);
      }),
      { numRuns: 500 },
    );
  });

  it("accepts a Float64Array", () => {
    expect(histogram(new Float64Array([1, 2, 3]), { bins: 2, min: 1, max: 3 }).counts).toEqual([1, 2]);
  });

  it("rejects bad options, naming each", () => {
    expect(() => histogram([1], { bins: 0, min: 0, max: 1 })).toThrow(/Invalid bins: expected a positive integer but received 0/);
    expect(() => histogram([1], { bins: 2, min: 1, max: 1 })).toThrow(/expected finite min < max but received min 1, max 1/);
    try {
      histogram([1], { bins: 1.5, min: 0, max: Number.NaN });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(EvalError);
      expect((e as EvalError).code).toBe("CONFIG_INVALID");
      expect((e as EvalError).issues).toHaveLength(2);
    }
  });
});

describe("histogram edges on a decimal grid", () => {
  it("counts scores that sit on a 0.05 edge in the bin above it, as the bin's label says", () => {
    // 0 + 14 × 0.05 is 0.7000000000000001 in binary floating point: a score of 0.7 fell in [0.65, 0.7).
    const onEdges = Array.from({ length: 20 }, (_, i) => (i * 5) / 100);
    const h = histogram(onEdges, { bins: 20, min: 0, max: 1 });
    expect(h.edges).toEqual([...onEdges, 1]);
    expect(h.counts).toEqual(new Array<number>(20).fill(1));
    // The top bin of exact_match's layout, [1, 1.05], and the others below it.
    const top = histogram([...onEdges, 1], { bins: 21, min: 0, max: 1.05 });
    expect(top.counts).toEqual([...new Array<number>(20).fill(1), 1]);
    // Cosine scores over [-1, 1].
    const cos = Array.from({ length: 20 }, (_, i) => (i - 10) / 10);
    expect(histogram(cos, { bins: 20, min: -1, max: 1 }).counts).toEqual(new Array<number>(20).fill(1));
  });
});
