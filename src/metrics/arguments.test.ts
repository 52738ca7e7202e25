import fc from "fast-check";
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
    ["countTokens", "tokens", (bad) => metrics.countTokens(bad as string[])],
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
    // countTokens("abc") counted its characters.
    expect(thrownEvalError(() => metrics.countTokens("abc" as unknown as string[])).message).toContain("countTokens: argument tokens must be an array of tokens (split a text");
  });

  it("refuse a token that is not a string, naming it by index, rather than counting it (jaccardSimilarity([1, 2], [1]) was 0.5)", () => {
    const cases: [fn: string, call: () => unknown, message: string][] = [
      ["jaccardSimilarity", () => metrics.jaccardSimilarity(["a", 1 as unknown as string], ["a"]), "jaccardSimilarity: a[1] must be a string (a token), received number 1"],
      ["jaccardSimilarity", () => metrics.jaccardSimilarity(new Set(["a"]), new Set([null as unknown as string])), "jaccardSimilarity: b[0] must be a string (a token), received null"],
      // A Map iterates as [key, value] pairs, each an array where a token belongs.
      ["jaccardSimilarity", () => metrics.jaccardSimilarity(new Map([["a", 1]]) as unknown as string[], ["a"]), "jaccardSimilarity: a[0] must be a string (a token), received array of 2"],
      ["tfidfCosine", () => metrics.tfidfCosine(["a"], ["a", undefined as unknown as string]), "tfidfCosine: b[1] must be a string (a token), received nothing"],
      ["tfidfAnalysis", () => metrics.tfidfAnalysis([{} as unknown as string], ["a"]), "tfidfAnalysis: a[0] must be a string (a token), received object"],
      ["countTokens", () => metrics.countTokens(["1", 1 as unknown as string]), "countTokens: tokens[1] must be a string (a token), received number 1"],
    ];
    for (const [, call, message] of cases) {
      const error = thrownEvalError(call);
      expect(error.code).toBe("INPUT_INVALID");
      expect(error.message).toBe(message);
      expect(error.issues[0]?.expected).toBe("a string (a token)");
    }
    const frozen = Object.freeze(["a", "b"]);
    expect(metrics.jaccardSimilarity(frozen, new Set(["a"]))).toBe(0.5);
    expect(metrics.tfidfCosine(frozen, frozen)).toBe(1);
  });

  it("refuse a unit that is neither code_point nor grapheme, which toUnits and unitLength read as grapheme", () => {
    for (const unit of ["codepoint", "graphemes", undefined, null]) {
      for (const [fn, call] of [
        ["toUnits", () => metrics.toUnits("ab", unit as "grapheme")],
        ["unitLength", () => metrics.unitLength("ab", unit as "grapheme")],
      ] as const) {
        const error = thrownEvalError(call);
        expect(error.code).toBe("INPUT_INVALID");
        expect(error.message).toMatch(new RegExp(`^${fn}: unit must be "code_point" or "grapheme", received `));
      }
    }
    expect(metrics.unitLength("e\u0301", "grapheme")).toBe(1);
    expect(metrics.toUnits("e\u0301", "code_point")).toEqual(["e", "\u0301"]);
  });

  it("refuse an array-like whose length is no array's (sequenceDistance gave -0.5 for length 1.5, -3 for -3)", () => {
    for (const length of [1.5, -3, NaN, 2 ** 53]) {
      for (const [fn, arg, call] of numberCalls) {
        const error = thrownEvalError(() => call({ length, 0: 1, 1: 2 }));
        expect(error.code).toBe("INPUT_INVALID");
        expect(error.message).toBe(`${fn}: argument ${arg} must be an array of numbers, received an object of length ${length}`);
      }
    }
    expect(metrics.sequenceDistance({ length: 2, 0: 1, 1: 2 }, [1, 3])).toBe(1);
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

describe("public metrics given a number that is not finite or out of range", () => {
  /** Each public metric that takes vectors of numbers, called with `a` and `b` (of the same length). */
  const vectorCalls: [fn: string, call: (a: number[], b: number[]) => unknown][] = [
    ["cosineSimilarity", (a, b) => metrics.cosineSimilarity(a, b)],
    ["cosineSimilarity", (a, b) => metrics.cosineSimilarity(Float64Array.from(a), Float32Array.from(b))],
    ["sequenceDistance", (a, b) => metrics.sequenceDistance(a, b)],
    ["sequenceDistance", (a, b) => metrics.sequenceDistance(a, b, 2)],
  ];

  it.each([
    [NaN, "number NaN"],
    [Infinity, "number Infinity"],
    [-Infinity, "number -Infinity"],
  ])("refuse a vector entry %s with INPUT_INVALID naming the argument and the index (cosineSimilarity gave NaN)", (bad, received) => {
    for (const [fn, call] of vectorCalls) {
      const error = thrownEvalError(() => call([1, 2, 3, bad], [1, 2, 3, 4]));
      expect(error.code).toBe("INPUT_INVALID");
      expect(error.message).toBe(`${fn}: a[3] must be a finite number, received ${received}`);
      expect(error.issues).toEqual([{ path: ["a", 3], message: error.message, expected: "a finite number", received }]);
      expect(thrownEvalError(() => call([1, 2], [bad, 2])).message).toBe(`${fn}: b[0] must be a finite number, received ${received}`);
    }
  });

  it("refuse every vector with a non-finite entry, naming the first; finite vectors score as before", () => {
    const finite = fc.double({ min: -1e30, max: 1e30, noNaN: true }); // within float32 range, for the Float32Array call
    const vectors = fc.integer({ min: 1, max: 40 }).chain((n) => fc.tuple(fc.array(finite, { minLength: n, maxLength: n }), fc.array(finite, { minLength: n, maxLength: n })));
    const nonFinite = fc.constantFrom(NaN, Infinity, -Infinity);
    fc.assert(
      fc.property(vectors, fc.nat(), nonFinite, fc.boolean(), ([a, b], at, bad, inB) => {
        // The plain formula, as cosineSimilarity computed it before it checked its entries.
        let [dot, na, nb] = [0, 0, 0];
        for (let i = 0; i < a.length; i++) [dot, na, nb] = [dot + a[i]! * b[i]!, na + a[i]! * a[i]!, nb + b[i]! * b[i]!];
        const plain = na === 0 || nb === 0 ? 0 : Math.min(1, Math.max(-1, dot / Math.sqrt(na * nb)));
        // Sums neither so small nor so large that cosineSimilarity scales the vectors first (see cosine.test.ts).
        if (na >= 1e-100 && nb >= 1e-100) expect(metrics.cosineSimilarity(a, b)).toBe(plain);
        expect(metrics.sequenceDistance(a, b)).toBeGreaterThanOrEqual(0);
        const i = at % a.length;
        const spoilt = (inB ? b : a).map((x, j) => (j === i ? bad : x));
        const [x, y, arg] = inB ? [a, spoilt, "b"] : [spoilt, b, "a"];
        for (const [fn, call] of vectorCalls) {
          expect(thrownEvalError(() => call(x, y)).message).toBe(`${fn}: ${arg}[${i}] must be a finite number, received number ${String(bad)}`);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("refuse an entry that is not a number, in either metric (cosineSimilarity read null as 0 and \"1\" as 1)", () => {
    expect(thrownEvalError(() => metrics.cosineSimilarity([1, "x" as unknown as number], [1, 2])).message).toBe('cosineSimilarity: a[1] must be a finite number, received string "x"');
    expect(thrownEvalError(() => metrics.cosineSimilarity([1, 2], [null as unknown as number, 2])).message).toBe("cosineSimilarity: b[0] must be a finite number, received null");
    expect(thrownEvalError(() => metrics.cosineSimilarity(["1" as unknown as number], [1])).message).toBe('cosineSimilarity: a[0] must be a finite number, received string "1"');
    expect(thrownEvalError(() => metrics.cosineSimilarity([true as unknown as number], [1])).message).toBe("cosineSimilarity: a[0] must be a finite number, received boolean true");
    expect(thrownEvalError(() => metrics.cosineSimilarity(new BigInt64Array(1) as unknown as number[], [1])).message).toBe("cosineSimilarity: a[0] must be a finite number, received bigint");
    expect(thrownEvalError(() => metrics.sequenceDistance([1, null as unknown as number], [1, 2])).message).toBe("sequenceDistance: a[1] must be a finite number, received null");
  });

  it("refuse smoothIdf arguments that are not a document count and a frequency within it (smoothIdf(NaN, 1) was NaN)", () => {
    const cases: [n: number, df: number, message: string][] = [
      [NaN, 1, "smoothIdf: n must be an integer >= 0, received number NaN"],
      [Infinity, 1, "smoothIdf: n must be an integer >= 0, received number Infinity"],
      [-3, 1, "smoothIdf: n must be an integer >= 0, received number -3"],
      [2.5, 1, "smoothIdf: n must be an integer >= 0, received number 2.5"],
      [2, NaN, "smoothIdf: df must be an integer in [0, n = 2], received number NaN"],
      [2, 5, "smoothIdf: df must be an integer in [0, n = 2], received number 5"],
      [2, -1, "smoothIdf: df must be an integer in [0, n = 2], received number -1"],
      [2, 0.5, "smoothIdf: df must be an integer in [0, n = 2], received number 0.5"],
    ];
    for (const [n, df, message] of cases) {
      const error = thrownEvalError(() => metrics.smoothIdf(n, df));
      expect(error.code).toBe("INPUT_INVALID");
      expect(error.message).toBe(message);
    }
    fc.assert(
      fc.property(fc.nat(1e9), fc.double({ min: 0, max: 1, noNaN: true }), (n, share) => {
        const df = Math.floor(n * share);
        expect(metrics.smoothIdf(n, df)).toBe(Math.log((1 + n) / (1 + df)) + 1);
      }),
    );
  });
});
