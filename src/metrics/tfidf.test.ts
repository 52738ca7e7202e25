import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jaccardOfDistinct, jaccardSimilarity } from "./jaccard.js";
import { referenceJaccard, referenceTfidfCosine } from "./reference/tfidf.js";
import { thrownEvalError } from "../test-support.js";
import { tfidfAnalysis, tfidfCosine } from "./tfidf.js";

const tokens = fc.array(fc.constantFrom("a", "b", "c", "d", "e", "the", "refund", "é", "東京"), { minLength: 1, maxLength: 30 });

describe("tfidfCosine", () => {
  it("equals the textbook computation on random token lists", () => {
    fc.assert(
      fc.property(tokens, tokens, (a, b) => {
        expect(tfidfCosine(a, b)).toBeCloseTo(referenceTfidfCosine(a, b), 12);
      }),
      { numRuns: 500 },
    );
  });

  it("is symmetric, in [0, 1], and exactly 1 for identical multisets in any order", () => {
    fc.assert(
      fc.property(tokens, tokens, (a, b) => {
        const s = tfidfCosine(a, b);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1);
        expect(tfidfCosine(b, a)).toBeCloseTo(s, 14);
        expect(tfidfCosine(a, [...a].reverse())).toBe(1);
      }),
      { numRuns: 300 },
    );
  });

  it("weights a shared word with idf 1 and an unshared one with 1 + ln 1.5", () => {
    const { terms } = tfidfAnalysis(["x", "y"], ["x"]);
    expect(terms.find((t) => t.token === "x")?.idf).toBe(1);
    expect(terms.find((t) => t.token === "y")?.idf).toBeCloseTo(1 + Math.log(1.5), 15);
  });

  it("contributions sum to the score", () => {
    fc.assert(
      fc.property(tokens, tokens, (a, b) => {
        const { score, terms } = tfidfAnalysis(a, b);
        const sum = terms.reduce((s, t) => s + t.contribution, 0);
        if (score < 1) expect(sum).toBeCloseTo(score, 12);
      }),
    );
  });

  it("gives the very number tfidfAnalysis does, with or without a corpus IDF", () => {
    const corpus = { n: 7, df: (t: string) => t.length % 7 };
    fc.assert(
      fc.property(fc.array(fc.constantFrom("a", "b", "c", "the", "東京"), { maxLength: 12 }), tokens, fc.boolean(), (a, b, withCorpus) => {
        const idf = withCorpus ? corpus : undefined;
        expect(tfidfCosine(a, b, idf)).toBe(tfidfAnalysis(a, b, idf).score);
        expect(tfidfCosine(b, a, idf)).toBe(tfidfAnalysis(b, a, idf).score);
      }),
      { numRuns: 500 },
    );
  });

  it("uses a corpus IDF when given", () => {
    const corpus = { n: 10, df: (t: string) => (t === "the" ? 10 : 1) };
    // "the" is in every document: its weight drops to ln(11/11) + 1 = 1; "cat" and "dog" weigh 1 + ln(11/2).
    const s = tfidfCosine(["the", "cat"], ["the", "dog"], corpus);
    const w = 1 + Math.log(11 / 2);
    expect(s).toBeCloseTo(1 / (1 + w * w), 12);
  });

  it("refuses a malformed IDF table with INPUT_INVALID, naming the function and the field, rather than giving NaN", () => {
    const bad = (f: () => unknown) => thrownEvalError(f);
    expect(bad(() => tfidfCosine(["a"], ["b"], {} as never)).message).toBe("tfidfCosine: idf must be an IdfTable { n, df(token) }, received object");
    expect(bad(() => tfidfAnalysis(["a"], ["b"], { n: -1, df: () => 0 })).message).toBe("tfidfAnalysis: idf.n must be an integer >= 0, received number -1");
    expect(bad(() => tfidfCosine(["a"], ["b"], { n: 2, df: () => NaN })).message).toBe('tfidfCosine: idf.df("a") must be an integer in [0, idf.n = 2], received number NaN');
    expect(bad(() => tfidfCosine(["a"], ["b"], { n: 2, df: () => 3 })).code).toBe("INPUT_INVALID");
  });
});

describe("jaccardSimilarity", () => {
  it("equals the array-based reference on random token lists", () => {
    fc.assert(
      fc.property(tokens, tokens, (a, b) => {
        expect(jaccardSimilarity(a, b)).toBe(referenceJaccard(a, b));
      }),
      { numRuns: 500 },
    );
  });

  it("takes the keys of count Maps as the sets", () => {
    fc.assert(
      fc.property(tokens, tokens, (a, b) => {
        const counts = (t: string[]) => new Map(t.map((x) => [x, 1]));
        expect(jaccardOfDistinct(counts(a), new Set(b))).toBe(referenceJaccard(a, b));
        expect(jaccardOfDistinct(counts(a), counts(b))).toBe(referenceJaccard(a, b));
      }),
    );
  });
});
