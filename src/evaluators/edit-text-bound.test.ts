import { afterEach, describe, expect, it, vi } from "vitest";
import { EvalError } from "../errors.js";
import { measureEdits } from "./edit-text.js";

// The bound each code-point distance was measured with: the work budget is kept only if the engine is given the bound.
const bounds = vi.hoisted(() => [] as number[]);
vi.mock("../metrics/levenshtein.js", async (original) => {
  const real = await original<typeof import("../metrics/levenshtein.js")>();
  return {
    ...real,
    codePointLevenshtein: (a: string, b: string, k: number) => {
      bounds.push(k);
      return real.codePointLevenshtein(a, b, k);
    },
  };
});

afterEach(() => {
  bounds.length = 0;
});

const measure = (output: string, expected: string, budget: number) => measureEdits(output, expected, { caseSensitive: true, maxChars: undefined, unit: "code_point", budget });

describe("levenshtein_distance's work budget bounds the distance it measures", () => {
  it("measures a pair past the budget with the bound its error names (unbounded, texts said to take hours took them, to the same error)", () => {
    let error: unknown;
    try {
      measure("abcdefghij", "klmnopqrst", 1);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EvalError);
    const k = Number(/by more than ([\d,]+) edits/.exec((error as EvalError).message)?.[1]);
    expect(k).toBe(2); // ⌊(64·1/10 − 1)/2⌋
    expect(bounds).toEqual([k]);
  });

  it("measures a pair within the bound exactly, with the bound", () => {
    expect(measure("abcdefghij", "aXcdefghiY", 2).distance).toBe(2);
    expect(bounds).toEqual([6]); // ⌊(64·2/9 − 1)/2⌋, 9 units left once the common "a" is stripped
    bounds.length = 0;
    // Without a budget (levenshtein, or max_chars set), no bound.
    expect(measureEdits("abc", "abd", { caseSensitive: true, maxChars: undefined, unit: "code_point" }).distance).toBe(1);
    expect(bounds).toEqual([Infinity]);
  });
});
