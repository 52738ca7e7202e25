import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
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

  it("refuses an idf whose n is no document count even when it asks for no df (the same tokens score 1 without asking)", () => {
    for (const same of [[], ["a"]]) {
      expect(thrownEvalError(() => tfidfCosine(same, same, { n: -1, df: () => 0 })).message).toBe("tfidfCosine: idf.n must be an integer >= 0, received number -1");
      expect(thrownEvalError(() => tfidfAnalysis(same, same, { n: 1.5, df: () => 0 })).message).toBe("tfidfAnalysis: idf.n must be an integer >= 0, received number 1.5");
    }
  });

  it("builds no message for a df it checks and finds right: the check runs for every token of every row", () => {
    // A dataset run's tables (tfidf_similarity's idf "dataset") are checked here, token by token.
    const corpus = { n: 10, df: (t: string) => (t === "the" ? 9 : 1) };
    const a = ["the", "cat", "sat", "on", "the", "mat"];
    const b = ["the", "dog", "sat", "on", "a", "log"];
    const stringify = vi.spyOn(JSON, "stringify");
    try {
      const score = tfidfCosine(a, b, corpus);
      expect(tfidfAnalysis(a, b, corpus).score).toBe(score);
      expect(stringify).not.toHaveBeenCalled();
    } finally {
      stringify.mockRestore();
    }
    // A wrong one is still named, token quoted.
    expect(thrownEvalError(() => tfidfCosine(a, b, { n: 10, df: (t) => (t === "mat" ? 11 : 1) })).message).toBe('tfidfCosine: idf.df("mat") must be an integer in [0, idf.n = 10], received number 11');
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

describe("the no-token rules and the bounds", () => {
  it("jaccardSimilarity: two empty lists give 1, one empty list 0 (as documented)", () => {
    expect(jaccardSimilarity([], [])).toBe(1);
    expect(jaccardSimilarity(new Set<string>(), [])).toBe(1);
    expect(jaccardSimilarity([], ["a"])).toBe(0);
    expect(jaccardSimilarity(["a", "a"], [])).toBe(0);
    expect(jaccardOfDistinct(new Map(), new Set())).toBe(1);
  });

  it("tfidfCosine and tfidfAnalysis: no tokens on both sides give 1, on one side 0 (as documented)", () => {
    for (const [a, b, score] of [[[], [], 1], [[], ["x"], 0], [["x", "y"], [], 0]] as [string[], string[], number][]) {
      expect(tfidfCosine(a, b)).toBe(score);
      expect(tfidfCosine(a, b, { n: 5, df: () => 1 })).toBe(score);
      expect(tfidfAnalysis(a, b).score).toBe(score);
    }
  });

  it("never exceeds 1 where rounding would: counts in proportion under a corpus IDF", () => {
    // Plain arithmetic gives 1.0000000000000002 here: (1, 3)·w and (1, 3)·w' are parallel, so the cosine is 1.
    const idf = { n: 3, df: () => 1 };
    expect(tfidfCosine(["x", "y"], ["x", "x", "x", "y", "y", "y"], idf)).toBe(1);
    expect(tfidfAnalysis(["x", "y"], ["x", "x", "x", "y", "y", "y"], idf).score).toBe(1);
    fc.assert(
      fc.property(tokens, fc.integer({ min: 2, max: 5 }), fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 }), (a, k, n, df) => {
        const corpus = { n: n + df, df: (t: string) => (t.length % 2 ? df : 0) };
        const scaled = a.flatMap((t) => Array<string>(k).fill(t));
        const s = tfidfCosine(a, scaled, corpus);
        expect(s).toBeLessThanOrEqual(1);
        expect(s).toBeGreaterThan(1 - 1e-12);
      }),
      { numRuns: 300 },
    );
  });
});

describe("tfidfAnalysis terms", () => {
  it("lists the largest contributions first, then the heavier weights", () => {
    fc.assert(
      fc.property(tokens, tokens, (a, b) => {
        const { terms } = tfidfAnalysis(a, b);
        const weight = (t: (typeof terms)[number]) => Math.max(t.countA, t.countB) * t.idf;
        for (let i = 1; i < terms.length; i++) {
          const [x, y] = [terms[i - 1]!, terms[i]!];
          expect(x.contribution).toBeGreaterThanOrEqual(y.contribution);
          if (x.contribution === y.contribution) expect(weight(x)).toBeGreaterThanOrEqual(weight(y));
        }
      }),
      { numRuns: 300 },
    );
    // By hand: "a" shared twice (2·2 of the dot product), "b" once (1·1), "c" and "d" in one text only.
    expect(tfidfAnalysis(["b", "a", "a", "c"], ["a", "a", "b", "d", "d"]).terms.map((t) => t.token)).toEqual(["a", "b", "d", "c"]);
  });
});
