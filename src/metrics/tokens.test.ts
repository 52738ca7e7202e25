import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { thrownEvalError } from "../test-support.js";
import { charNgramCounts, charNgramSpans, charNgrams, collapseWhitespace, countTokens, wordCounts, wordTokenSpans, wordTokens, type TokenSpan } from "./tokens.js";

describe("wordTokens", () => {
  it.each([
    ["Hello, World!", ["hello", "world"]],
    ["don't", ["don", "t"]],
    ["snake_case and kebab-case v1.2", ["snake", "case", "and", "kebab", "case", "v1", "2"]],
    ["naïve café", ["naïve", "café"]],
    ["cafe\u0301", ["cafe\u0301"]],
    ["東京タワー 2024年", ["東京タワー", "2024年"]],
    ["ΣΊΣΥΦΟΣ", ["σίσυφοσ"]], // "ς" as "σ": lower-cased, a final "Σ" is either by what follows it
    ["ΟΔΟΣ.ΚΑΙ οδος", ["οδοσ", "και", "οδοσ"]],
    ["...", []],
    ["", []],
    // A mark with no letter or number before it is the symbol's (U+FE0F after an emoji, a keycap's U+20E3), no word.
    ["Done \u2714\ufe0f", ["done"]],
    ["#\ufe0f\u20e3 plan \u{1f3f3}\ufe0f\u200d\u{1f308}.", ["plan"]],
    ["\u0301abc", ["abc"]],
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
          const fresh = (caseSensitive ? text : text.toLowerCase().replace(/ς/g, "σ")).match(/[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu) ?? [];
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

describe("collapseWhitespace", () => {
  it("replaces every white space run with one space and trims, as /\\s+/gu does", () => {
    const text = fc.string({ unit: fc.constantFrom("a", " ", "  ", "\t", "\n", "\u00a0", "\u2028", "\u3000", "\ufeff", "😀", "\ud800"), maxLength: 40 });
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ unit: "binary", maxLength: 40 })), (t) => {
        expect(collapseWhitespace(t)).toBe(t.replace(/\s+/gu, " ").trim());
      }),
      { numRuns: 1000 },
    );
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

  it("rejects a bad n with INPUT_INVALID naming the function", () => {
    expect(thrownEvalError(() => charNgrams("abc", 0))).toMatchObject({ code: "INPUT_INVALID", message: "charNgrams: n must be an integer >= 1, received number 0" });
    expect(thrownEvalError(() => charNgramCounts("abc", 1.5))).toMatchObject({ code: "INPUT_INVALID", message: "charNgramCounts: n must be an integer >= 1, received number 1.5" });
    expect(thrownEvalError(() => charNgramSpans("abc", -1)).message).toContain("charNgramSpans: n must be");
  });

  it("refuses an n that is not a number (a Symbol) with INPUT_INVALID, not a TypeError from the cache key", () => {
    expect(thrownEvalError(() => charNgramCounts("abc", Symbol() as unknown as number))).toMatchObject({ code: "INPUT_INVALID", message: "charNgramCounts: n must be an integer >= 1, received symbol" });
    expect(thrownEvalError(() => charNgramCounts("abc", "2" as unknown as number)).message).toBe('charNgramCounts: n must be an integer >= 1, received string "2"');
  });

  it("refuses a caseSensitive flag that is not a boolean, which was read as true or false", () => {
    const calls: [string, (flag: boolean) => unknown][] = [
      ["wordTokens", (flag) => wordTokens("Abc", flag)],
      ["charNgrams", (flag) => charNgrams("Abc", 2, flag)],
      ["charNgramCounts", (flag) => charNgramCounts("Abc", 2, flag)],
    ];
    for (const [fn, call] of calls) {
      for (const [bad, received] of [["no", 'string "no"'], [0, "number 0"], [1, "number 1"], [null, "null"], [{}, "object"]] as const) {
        const e = thrownEvalError(() => call(bad as unknown as boolean));
        expect(e).toMatchObject({ code: "INPUT_INVALID", issues: [{ path: ["caseSensitive"] }] });
        expect(e.message).toBe(`${fn}: caseSensitive must be a boolean (true or false), received ${received}`);
      }
      expect(call(undefined as unknown as boolean)).toEqual(call(false));
    }
    expect(wordTokens("Abc", true)).toEqual(["Abc"]);
  });
});

describe("charNgramCounts", () => {
  /** The reference: every n-gram made and counted, in first-seen order. */
  const reference = (text: string, n: number, caseSensitive: boolean) => [...countTokens(charNgrams(text, n, caseSensitive))];
  // Few distinct characters (codes fit a double for any n here) or many (n-grams too many to code),
  // with white space, case, astral code points and lone surrogates.
  const few = fc.string({ unit: fc.constantFrom("a", "b", "A", " ", "\n", "😀", "é", "\ud800", "\udc00"), maxLength: 60 });
  const many = fc.string({ unit: "grapheme", maxLength: 60 });

  it("gives the tokens, counts and first-seen order of counting charNgrams", () => {
    fc.assert(
      fc.property(fc.oneof(few, many, fc.string({ unit: "binary", maxLength: 40 })), fc.integer({ min: 1, max: 12 }), fc.boolean(), (text, n, caseSensitive) => {
        expect([...charNgramCounts(text, n, caseSensitive)]).toEqual(reference(text, n, caseSensitive));
      }),
      { numRuns: 1000 },
    );
  });

  it("codes n-grams of a large alphabet, and slices them when codes would not be exact", () => {
    // 300 distinct code points: 300^6 < 2^53 is coded, 300^7 > 2^53 is sliced.
    const text = Array.from({ length: 900 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7) % 300))).join("");
    for (const n of [1, 2, 6, 7, 20]) expect([...charNgramCounts(text, n, true)]).toEqual(reference(text, n, true));
  });

  it("counts a long text's n-grams exactly", () => {
    const text = "the cat sat on the mat ".repeat(5000) + "x".repeat(10000);
    expect([...charNgramCounts(text, 3)]).toEqual(reference(text, 3, false));
    expect(charNgramCounts("x".repeat(100000), 3)).toEqual(new Map([["xxx", 99998]]));
  });

  it("shares the counts of a recent text under the same rule, and not under another", () => {
    expect(charNgramCounts("Abc abc", 2)).toBe(charNgramCounts("Abc abc", 2));
    expect([...charNgramCounts("Abc abc", 2, true)]).toEqual(reference("Abc abc", 2, true));
    expect([...charNgramCounts("Abc abc", 3)]).toEqual(reference("Abc abc", 3, false));
    expect(wordCounts("Abc abc")).toEqual(new Map([["abc", 2]]));
  });
});

describe("wordTokenSpans and charNgramSpans", () => {
  // Case that changes length ("İ") or context ("Σ"), astral code points, lone surrogates, white space runs.
  const text = fc.oneof(
    fc.string({ unit: fc.constantFrom("a", "B", "İ", "Σ", "ς", "'", " ", "  ", "\n", "\u00a0", "😀", "\ud800", "é", "猫", ".", "1"), maxLength: 40 }),
    fc.string({ unit: "binary", maxLength: 30 }),
  );
  /** `text.slice(start, end)` as the tokenizer sees it (lower-cased alone, a final "Σ" is "ς" where the whole text gives "σ": both are "σ"). */
  const made = (t: string, s: TokenSpan, caseSensitive: boolean, collapse: boolean): string => {
    const slice = caseSensitive ? t.slice(s.start, s.end) : t.slice(s.start, s.end).toLowerCase().replace(/ς/g, "σ");
    return collapse ? slice.replace(/\s+/gu, " ") : slice;
  };

  it("gives wordTokens, each with the part of the text it was made of", () => {
    fc.assert(
      fc.property(text, fc.boolean(), (t, caseSensitive) => {
        const spans = wordTokenSpans(t, caseSensitive);
        expect(spans.map((s) => s.token)).toEqual(wordTokens(t, caseSensitive));
        for (const s of spans) expect(made(t, s, caseSensitive, false)).toBe(s.token);
        spans.forEach((s, i) => i > 0 && expect(s.start).toBeGreaterThanOrEqual(spans[i - 1]?.end as number));
      }),
      { numRuns: 1000 },
    );
  });

  it("gives charNgrams, each with the part of the text it was made of (a white space run whole)", () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 5 }), fc.boolean(), (t, n, caseSensitive) => {
        const spans = charNgramSpans(t, n, caseSensitive);
        expect(spans.map((s) => s.token)).toEqual(charNgrams(t, n, caseSensitive));
        for (const s of spans) {
          // An n-gram may take only part of a lower-cased "İ" ("i̇" is two code points): it spans the whole "İ".
          if (t.includes("İ")) expect(made(t, s, caseSensitive, true)).toContain(s.token);
          else expect(made(t, s, caseSensitive, true)).toBe(s.token);
          // A run is taken whole: the text around a span is not white space that the span's ends are.
          if (/^\s/u.test(s.token)) expect(/\s/u.test(t[s.start - 1] ?? "")).toBe(false);
          if (/\s$/u.test(s.token)) expect(/\s/u.test(t[s.end] ?? "")).toBe(false);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("stops at the tokens that start before a limit, keeping one that crosses it whole", () => {
    fc.assert(
      fc.property(text, fc.nat(45), fc.integer({ min: 1, max: 4 }), (t, limit, n) => {
        expect(wordTokenSpans(t, false, limit)).toEqual(wordTokenSpans(t).filter((s) => s.start < limit));
        expect(charNgramSpans(t, n, false, limit)).toEqual(charNgramSpans(t, n).filter((s) => s.start < limit));
      }),
    );
    expect(wordTokenSpans("İstanbul Σ'Α elephants", false, 14)).toEqual([
      { token: "i̇stanbul", start: 0, end: 8 },
      { token: "σ", start: 9, end: 10 },
      { token: "α", start: 11, end: 12 },
      { token: "elephants", start: 13, end: 22 },
    ]);
    expect(charNgramSpans(" Ab \n\tc ", 3)).toEqual([
      { token: "ab ", start: 1, end: 6 },
      { token: "b c", start: 2, end: 7 },
    ]);
  });

  it("refuse a text that is not a string with INPUT_INVALID, naming the function (also when no limit is given)", () => {
    expect(thrownEvalError(() => wordTokenSpans(null as unknown as string))).toMatchObject({ code: "INPUT_INVALID", message: "wordTokenSpans: argument text must be a string, received null" });
    expect(thrownEvalError(() => charNgramSpans(undefined as unknown as string, 3))).toMatchObject({ code: "INPUT_INVALID", message: "charNgramSpans: argument text must be a string, received nothing" });
  });
});
