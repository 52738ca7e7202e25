import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wordList } from "./word-list.js";

describe("wordList", () => {
  it("lists none, one, two and several words as a sentence does", () => {
    expect(wordList([], "and")).toBe("");
    expect(wordList(["a"], "and")).toBe("a");
    expect(wordList(["a", "b"], "or")).toBe("a or b");
    expect(wordList(["a", "b", "c"], "and")).toBe("a, b and c");
  });

  it("keeps every word, in order, joined by commas but for the last", () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z_]{1,8}$/), { minLength: 2, maxLength: 10 }), (words) => {
        const text = wordList(words, "and");
        expect(text).toBe(`${words.slice(0, -1).join(", ")} and ${words.at(-1)}`);
        expect(text.split(/, | and /)).toEqual(words);
      }),
    );
  });
});
