import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { charNgrams, countTokens, wordCounts, wordTokens } from "./tokens.js";

describe("wordTokens", () => {
  it.each([
    ["Hello, World!", ["hello", "world"]],
    ["don't", ["don", "t"]],
    ["snake_case and kebab-case v1.2", ["snake", "case", "and", "kebab", "case", "v1", "2"]],
    ["naïve café", ["naïve", "café"]],
    ["cafe\u0301", ["cafe\u0301"]],
    ["東京タワー 2024年", ["東京タワー", "2024年"]],
    ["ΣΊΣΥΦΟΣ", ["σίσυφος"]],
    ["...", []],
    ["", []],
  ])("%j -> %j", (text, expected) => {
    expect(wordTokens(text)).toEqual(expected);
  });

  it("keeps case when asked", () => {
    expect(wordTokens("Hello World", true)).toEqual(["Hello", "World"]);
  });

  it("gives each text its own tokens and counts, however calls on recent texts and case rules interleave", () => {
    const texts = fc.constantFrom("Paris", "paris", "PARIS is", "the capital", "The Capital the", "", "é é", "東京");
    fc.assert(
      fc.property(fc.array(fc.tuple(texts, fc.boolean(), fc.boolean()), { maxLength: 40 }), (calls) => {
        for (const [text, caseSensitive, counts] of calls) {
          const fresh = (caseSensitive ? text : text.toLowerCase()).match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
          if (counts) expect(wordCounts(text, caseSensitive)).toEqual(countTokens(fresh));
          else expect(wordTokens(text, caseSensitive)).toEqual(fresh);
        }
      }),
    );
  });

  it("shares a frozen array between callers of the same text", () => {
    const tokens = wordTokens("shared words");
    expect(Object.isFrozen(tokens)).toBe(true);
    expect(() => (tokens as string[]).push("x")).toThrow(TypeError);
    expect(wordTokens("shared words")).toEqual(["shared", "words"]);
  });
});

describe("charNgrams", () => {
  it("windows over code points of the collapsed, trimmed, lower-cased text", () => {
    expect(charNgrams("  Ab \n C ", 2)).toEqual(["ab", "b ", " c"]);
    expect(charNgrams("a😀b", 2)).toEqual(["a😀", "😀b"]);
  });

  it("a text shorter than n is one token; empty is none", () => {
    expect(charNgrams("ab", 3)).toEqual(["ab"]);
    expect(charNgrams("abc", 3)).toEqual(["abc"]);
    expect(charNgrams(" \t ", 3)).toEqual([]);
  });

  it("rejects a bad n", () => {
    expect(() => charNgrams("abc", 0)).toThrow(RangeError);
  });
});
