import { describe, expect, it } from "vitest";
import { charNgrams, wordTokens } from "./tokens.js";

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
