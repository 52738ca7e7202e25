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

describe("public metrics given a list that is not one", () => {
  const tokenCalls: [fn: string, arg: string, call: (bad: unknown) => unknown][] = [
    ["jaccardSimilarity", "a", (bad) => metrics.jaccardSimilarity(bad as string[], ["a"])],
    ["jaccardSimilarity", "b", (bad) => metrics.jaccardSimilarity(["a"], bad as string[])],
    ["tfidfCosine", "a", (bad) => metrics.tfidfCosine(bad as string[], ["a"])],
    ["tfidfCosine", "b", (bad) => metrics.tfidfCosine(["a"], bad as string[])],
    ["tfidfAnalysis", "a", (bad) => metrics.tfidfAnalysis(bad as string[], ["a"])],
  ];
  const numberCalls: [fn: string, arg: string, call: (bad: unknown) => unknown][] = [
    ["cosineSimilarity", "a", (bad) => metrics.cosineSimilarity(bad as number[], [1])],
    ["cosineSimilarity", "b", (bad) => metrics.cosineSimilarity([1], bad as number[])],
    ["sequenceDistance", "a", (bad) => metrics.sequenceDistance(bad as number[], [1])],
    ["sequenceDistance", "b", (bad) => metrics.sequenceDistance([1], bad as number[])],
  ];

  it.each([
    [null, "null"],
    [undefined, "nothing"],
    [1, "number 1"],
  ])("refuse %j with INPUT_INVALID (jaccardSimilarity(null, []) was 1; the others threw bare TypeErrors)", (bad, received) => {
    for (const [fn, arg, call] of tokenCalls) {
      expect(thrownEvalError(() => call(bad)).message).toBe(`${fn}: argument ${arg} must be an array of tokens, received ${received}`);
    }
    for (const [fn, arg, call] of numberCalls) {
      const error = thrownEvalError(() => call(bad));
      expect(error.code).toBe("INPUT_INVALID");
      expect(error.message).toBe(`${fn}: argument ${arg} must be an array of numbers, received ${received}`);
    }
  });

  it("refuse a text where tokens belong, rather than comparing its characters", () => {
    // A string is an Iterable<string>, so TypeScript accepts it for jaccardSimilarity: it scored 1/6 here.
    const error = thrownEvalError(() => root.jaccardSimilarity("the cat sat", "a dog ran"));
    expect(error.code).toBe("INPUT_INVALID");
    expect(error.message).toBe('jaccardSimilarity: argument a must be an array of tokens (split a text with wordTokens(text) or charNgrams(text, n) first), received string "the cat sat"');
    expect(thrownEvalError(() => metrics.cosineSimilarity("ab" as unknown as number[], "ab" as unknown as number[])).code).toBe("INPUT_INVALID");
  });

  it("refuse vectors of different lengths with INPUT_INVALID", () => {
    expect(thrownEvalError(() => metrics.cosineSimilarity([1, 2], [1])).message).toBe("cosineSimilarity: b.length must be a.length (2), received number 1");
  });

  it("still take any list: arrays, Sets, typed arrays", () => {
    expect(metrics.jaccardSimilarity(new Set(["a", "b"]), ["a"])).toBe(0.5);
    expect(metrics.tfidfCosine(["a"], ["a"])).toBe(1);
    expect(metrics.cosineSimilarity(new Float32Array([1, 0]), [1, 0])).toBe(1);
    expect(metrics.sequenceDistance(new Int32Array([1, 2]), [1, 3])).toBe(1);
  });
});
