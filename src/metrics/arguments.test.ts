import { describe, expect, it } from "vitest";
import * as root from "../index.js";
import { thrownEvalError } from "../test-support.js";
import * as metrics from "./index.js";

/** Each public metric that takes texts, called with `bad` in the place of the argument named. */
const calls: [fn: string, arg: string, call: (bad: unknown) => unknown][] = [
  ["levenshteinDistance", "a", (bad) => metrics.levenshteinDistance(bad as string, "a")],
  ["levenshteinDistance", "b", (bad) => metrics.levenshteinDistance("a", bad as string)],
  ["levenshteinDistance", "a", (bad) => metrics.levenshteinDistance(bad as string, "a", { unit: "grapheme" })],
  ["toUnits", "text", (bad) => metrics.toUnits(bad as string, "code_point")],
  ["unitLength", "text", (bad) => metrics.unitLength(bad as string, "code_point")],
  ["wordTokens", "text", (bad) => metrics.wordTokens(bad as string)],
  ["charNgrams", "text", (bad) => metrics.charNgrams(bad as string, 3)],
  ["charNgramCounts", "text", (bad) => metrics.charNgramCounts(bad as string, 3)],
  ["collapseWhitespace", "text", (bad) => metrics.collapseWhitespace(bad as string)],
];

describe("public metrics given a text that is not a string", () => {
  it.each([
    [null, "null"],
    [undefined, "nothing"],
    [1, "number 1"],
    [["a"], "array of 1"],
    [{ text: "a" }, "object"],
  ])("refuse %j with INPUT_INVALID naming the function, the argument and what was received", (bad, received) => {
    for (const [fn, arg, call] of calls) {
      const error = thrownEvalError(() => call(bad));
      expect(error.code).toBe("INPUT_INVALID");
      expect(error.message).toBe(`${fn}: argument ${arg} must be a string, received ${received}`);
      expect(error.issues).toEqual([{ path: [arg], message: error.message, expected: "string", received }]);
    }
  });

  it("are the same functions from the package root", () => {
    expect(root.levenshteinDistance).toBe(metrics.levenshteinDistance);
    expect(thrownEvalError(() => root.levenshteinDistance(null as unknown as string, "a")).message).toBe("levenshteinDistance: argument a must be a string, received null");
    expect(root.levenshteinDistance("kitten", "sitting")).toBe(3);
  });
});
