import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeScores, encodeScores } from "./scores-column.js";

describe("the scores column", () => {
  it("gives back every finite score, and null for NaN and null (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null), fc.constant(Number.NaN)), { maxLength: 8 }), (values) => {
        const names = values.map((_, j) => `e${j}`);
        const back = decodeScores(encodeScores(values), names);
        // -0 comes back as 0, which compares equal.
        expect(back).toEqual(Object.fromEntries(values.map((v, j) => [`e${j}`, v === null || Number.isNaN(v) ? null : v === 0 ? 0 : v])));
      }),
    );
  });

  it("refuses text that does not hold one number or null per evaluator", () => {
    expect(encodeScores([1, Number.NaN, 0.5])).toBe("[1,null,0.5]");
    expect(decodeScores("[1,null]", ["a", "b"])).toEqual({ a: 1, b: null });
    for (const bad of ["[1]", "[1,2,3]", '[1,"2"]', "{}", "not json", "[1,[2]]"]) expect(decodeScores(bad, ["a", "b"])).toBeUndefined();
  });
});
