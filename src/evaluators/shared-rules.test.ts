import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createEvaluator } from "./create.js";

const score = async (spec: Record<string, unknown>, record: Record<string, unknown>) => createEvaluator(spec).evaluate(record);

describe("text is compared by code point", () => {
  it("an emoji is one edit, not two UTF-16 units", async () => {
    const r = await score({ type: "levenshtein_distance" }, { output: "I 😀 it", expected: "I 😃 it" });
    expect(r.score).toBe(1);
    const s = await score({ type: "levenshtein" }, { output: "😀", expected: "😃" });
    expect(s.score).toBe(0);
    expect(s.details["max_length"]).toBe(1);
  });

  it("a combining mark is its own code point; unit grapheme counts the cluster", async () => {
    const composed = "caf\u00e9";
    const decomposed = "cafe\u0301";
    expect((await score({ type: "levenshtein_distance" }, { output: decomposed, expected: composed })).score).toBe(2);
    expect((await score({ type: "levenshtein_distance", config: { unit: "grapheme" } }, { output: decomposed, expected: composed })).score).toBe(1);
    expect((await score({ type: "levenshtein_distance", config: { unicode_normalization: "NFC" } }, { output: decomposed, expected: composed })).score).toBe(0);
    expect((await score({ type: "exact_match" }, { output: decomposed, expected: composed })).passed).toBe(false);
    expect((await score({ type: "exact_match", config: { unicode_normalization: "NFC" } }, { output: decomposed, expected: composed })).passed).toBe(true);
  });

  it("graphemes: a family emoji is one unit", async () => {
    const family = "👨‍👩‍👧";
    const r = await score({ type: "levenshtein", config: { unit: "grapheme" } }, { output: `a${family}`, expected: "ab" });
    expect(r.details["distance"]).toBe(1);
    expect(r.details["max_length"]).toBe(2);
  });
});

describe("the case rule", () => {
  // "ΟΔΟΣ" lower-cases to "οδος" before a space and to "οδοσ" before ".Κ" (Unicode's Final_Sigma), so that
  // case-insensitively these scored lower than case-sensitively: jaccard 0.33 against 1, distance 2 against 1.
  const pair = { output: "ΟΔΟΣ.ΚΑΙ", expected: "ΟΔΟΣ ΚΑΙ" };

  it("counts σ and ς as one letter, so that ignoring case never parts a word from itself", async () => {
    expect((await score({ type: "jaccard_similarity" }, pair)).score).toBe(1);
    expect((await score({ type: "tfidf_similarity" }, pair)).score).toBeCloseTo(1, 12);
    expect((await score({ type: "levenshtein_distance" }, pair)).score).toBe(1);
    expect((await score({ type: "levenshtein" }, { output: "ΟΔΟΣ.", expected: "οδοσ." })).score).toBe(1);
    expect((await score({ type: "exact_match" }, { output: "ΟΔΟΣ", expected: "οδοσ" })).passed).toBe(true);
    expect((await score({ type: "exact_match", config: { case_sensitive: true } }, { output: "οδος", expected: "οδοσ" })).passed).toBe(false);
  });

  it("a case-insensitive distance is at most the case-sensitive one (texts without İ, whose lower case is two code points)", async () => {
    const text = fc.string({ unit: fc.constantFrom("a", "A", "Σ", "σ", "ς", "Ο", ".", " ", "'", "ß", "ǅ", "😀"), maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(text, text, async (output, expected) => {
        const insensitive = await score({ type: "levenshtein_distance" }, { output, expected });
        const sensitive = await score({ type: "levenshtein_distance", config: { case_sensitive: true } }, { output, expected });
        expect(insensitive.score).toBeLessThanOrEqual(sensitive.score as number);
      }),
      { numRuns: 500 },
    );
  });
});

describe("word tokens", () => {
  it("punctuation neither splits nor sticks to words; apostrophes, hyphens, underscores and periods split", async () => {
    const r = await score({ type: "jaccard_similarity" }, { output: "Hello, world!", expected: "hello world" });
    expect(r.score).toBe(1);
    const split = await score({ type: "jaccard_similarity" }, { output: "don't e-mail foo_bar v1.2", expected: "don t e mail foo bar v1 2" });
    expect(split.score).toBe(1);
  });

  it("CJK text yields tokens", async () => {
    const r = await score({ type: "jaccard_similarity" }, { output: "東京 大阪", expected: "東京 京都" });
    expect(r.score).toBeCloseTo(1 / 3, 12);
  });

  it("every Unicode number is part of a word", async () => {
    const r = await score({ type: "jaccard_similarity" }, { output: "x² ½ ٣", expected: "x² ½ ٣" });
    expect(r.details["shared"]).toEqual(["x²", "½", "٣"]);
  });
});

describe("texts without tokens", () => {
  it.each(["jaccard_similarity", "tfidf_similarity"])("%s: both empty or only punctuation", async (type) => {
    expect((await score({ type }, { output: "", expected: "" })).score).toBe(1);
    expect((await score({ type }, { output: "!!", expected: "!!" })).score).toBe(1);
    expect((await score({ type }, { output: "?", expected: "!" })).score).toBe(0);
    expect((await score({ type }, { output: "", expected: "words here" })).score).toBe(0);
    expect((await score({ type }, { output: "words here", expected: "..." })).score).toBe(0);
  });

  it("char n-grams: a text shorter than n is one token; white space collapses", async () => {
    const spec = { type: "tfidf_similarity", config: { tokenizer: "char_ngram", ngram_size: 5 } };
    expect((await score(spec, { output: "ab", expected: "AB" })).score).toBe(1);
    expect((await score(spec, { output: "  hello   big \n world ", expected: "hello big world" })).score).toBe(1);
  });

  it("texts without a token are the same when equal with white space collapsed and trimmed, as words and n-grams see them", async () => {
    const specs = [{ type: "jaccard_similarity" }, { type: "tfidf_similarity" }, { type: "tfidf_similarity", config: { tokenizer: "char_ngram" } }];
    for (const spec of specs) {
      for (const [output, expected, same] of [
        ["  ", "", 1],
        [" !! ", "!!", 1],
        ["! \t !", "! !", 1],
        ["!!", "??", 0],
        ["! !", "!!", 0],
      ] as const) {
        if (spec.type === "tfidf_similarity" && spec.config && /[!?]/.test(output)) continue; // punctuation makes n-grams
        expect([spec, output, expected, (await score(spec, { output, expected })).score]).toEqual([spec, output, expected, same]);
      }
    }
  });
});

describe("identical token multisets score exactly 1.0", () => {
  it("tf-idf with repeated words in another order", async () => {
    const r = await score({ type: "tfidf_similarity" }, { output: "b a a c b a", expected: "a a a b b c" });
    expect(r.score).toBe(1);
  });
});

describe("exact_match white space", () => {
  it("trim uses Unicode white space (no-break space, ideographic space)", async () => {
    expect((await score({ type: "exact_match" }, { output: "\u00a0yes\u3000", expected: "yes" })).passed).toBe(true);
    expect((await score({ type: "exact_match", config: { trim: false } }, { output: " yes", expected: "yes" })).passed).toBe(false);
  });

  it("normalize_whitespace collapses tabs and newlines to one space", async () => {
    expect((await score({ type: "exact_match", config: { normalize_whitespace: true } }, { output: "a\t\n b", expected: "a b" })).passed).toBe(true);
    expect((await score({ type: "exact_match" }, { output: "a\t\n b", expected: "a b" })).passed).toBe(false);
  });
});

describe("Levenshtein evaluators do not trim", () => {
  it("leading and trailing white space counts", async () => {
    expect((await score({ type: "levenshtein_distance" }, { output: " yes ", expected: "yes" })).score).toBe(2);
  });
});

describe("missing values", () => {
  it("expected falls back to metadata.expectedOutput", async () => {
    const r = await score({ type: "exact_match" }, { output: "Paris", metadata: { expectedOutput: "paris" } });
    expect(r.passed).toBe(true);
    expect(r.skipped).toBe(false);
  });

  it("expected null is missing too; the empty string is not", async () => {
    expect((await score({ type: "exact_match" }, { output: "x", expected: null })).skipped).toBe(true);
    const empty = await score({ type: "exact_match" }, { output: "", expected: "" });
    expect(empty).toMatchObject({ skipped: false, passed: true, score: 1 });
  });

  it("a skipped levenshtein_distance has a null score, since 0 would read as identical", async () => {
    const r = await score({ type: "levenshtein_distance", config: { threshold: 3 } }, { output: "x" });
    expect(r).toMatchObject({ score: null, skipped: true, passed: false, label: "fail" });
  });

  it("a missing output is scored as the empty string, and the reasoning says so", async () => {
    const r = await score({ type: "levenshtein_distance" }, { expected: "abc" });
    expect(r.score).toBe(3);
    expect(r.reasoning).toMatch(/output was missing/);
  });
});

describe("max_chars truncation", () => {
  it("cuts the original text in code points and reports it", async () => {
    const long = "😀".repeat(30);
    const r = await score({ type: "levenshtein", config: { max_chars: 10 } }, { output: long, expected: "😀".repeat(10) });
    expect(r.score).toBe(1);
    expect(r.details["truncated"]).toEqual({ output: 30 });
    expect(r.reasoning).toMatch(/first 10 code points of output \(30\)/);
  });

  it("levenshtein_distance has no cap unless max_chars is set", async () => {
    const a = "a".repeat(12_000);
    expect((await score({ type: "levenshtein_distance" }, { output: a, expected: "" })).score).toBe(12_000);
    expect((await score({ type: "levenshtein_distance", config: { max_chars: 100 } }, { output: a, expected: "" })).score).toBe(100);
  });

  it("levenshtein caps at 10,000 by default; 0 means no cap", async () => {
    const a = "a".repeat(10_500);
    const capped = await score({ type: "levenshtein" }, { output: a, expected: "a".repeat(10_000) });
    expect(capped.score).toBe(1);
    const uncapped = await score({ type: "levenshtein", config: { max_chars: 0 } }, { output: a, expected: "a".repeat(10_000) });
    expect(uncapped.details["distance"]).toBe(500);
  });

  it("cuts before lower-casing (İ lower-cases to two code points)", async () => {
    const r = await score({ type: "levenshtein_distance", config: { case_sensitive: false, max_chars: 2 } }, { output: "İİİ", expected: "" });
    expect(r.score).toBe(4);
  });
});

describe("non-string inputs", () => {
  it("objects compare as canonical JSON, whatever the key order", async () => {
    const r = await score({ type: "exact_match", config: { case_sensitive: true } }, { output: { b: 2, a: { d: [1, "é"], c: null } }, expected: { a: { c: null, d: [1, "é"] }, b: 2 } });
    expect(r.passed).toBe(true);
  });

  it("numbers and booleans become their JSON text", async () => {
    expect((await score({ type: "exact_match" }, { output: 42, expected: "42" })).passed).toBe(true);
    expect((await score({ type: "exact_match" }, { output: true, expected: "true" })).passed).toBe(true);
    expect((await score({ type: "levenshtein_distance" }, { output: [1, 2], expected: "[1,2]" })).score).toBe(0);
  });
});

describe("rounding is exact at .xx5 boundaries", () => {
  // distance/max chosen so that the exact similarity ends in 5 at the third decimal.
  it.each([
    { max: 200, distance: 1, score: 1.0 }, // 0.995 -> 1.00
    { max: 200, distance: 3, score: 0.99 }, // 0.985 -> 0.99
    { max: 200, distance: 9, score: 0.96 }, // 0.955 -> 0.96
    { max: 200, distance: 29, score: 0.86 }, // 0.855 -> 0.86
    { max: 40, distance: 37, score: 0.08 }, // 0.075 -> 0.08
    { max: 3, distance: 1, score: 0.67 }, // 0.666.. -> 0.67
  ])("1 - $distance/$max = $score", async ({ max, distance, score: expected }) => {
    const reference = "a".repeat(max);
    const output = "b".repeat(distance) + "a".repeat(max - distance);
    const r = await score({ type: "levenshtein", config: { max_chars: 0 } }, { output, expected: reference });
    expect(r.details["distance"]).toBe(distance);
    expect(r.score).toBe(expected);
  });

  it("passes on the rounded score", async () => {
    // 1 - 3/200 = 0.985 -> 0.99 >= 0.99
    const r = await score({ type: "levenshtein", config: { threshold: 0.99 } }, { output: "bbb" + "a".repeat(197), expected: "a".repeat(200) });
    expect(r.passed).toBe(true);
  });
});

describe("input mapping", () => {
  it("maps parameters by JSONPath and literal", async () => {
    const spec = { type: "exact_match", inputs: { output: "$.model_response.text", expected: { literal: "yes" } } };
    expect((await score(spec, { model_response: { text: "YES" } })).passed).toBe(true);
  });

  it("a path that matches nothing is 'not provided'", async () => {
    const r = await score({ type: "exact_match", inputs: { expected: "$.reference.answer" } }, { output: "x" });
    expect(r.skipped).toBe(true);
    // The reason names where the expected output was looked for.
    expect(r.reasoning).toMatch(/^No expected output was provided \("\$\.reference\.answer" matched nothing or null\)/);
    expect((await score({ type: "exact_match" }, { output: "x" })).reasoning).toMatch(/^No expected output was provided \(neither "expected" nor "metadata\.expectedOutput"\)/);
  });

  it("a path that matches several nodes is an error naming the path", async () => {
    const e = createEvaluator({ type: "exact_match", inputs: { output: "$.answers[*]" } });
    await expect(e.evaluate({ answers: ["a", "b"], expected: "a" })).rejects.toThrow(/\$\.answers\[\*\] matched 2 values/);
  });

  it("filter expressions work and never evaluate code", async () => {
    const spec = { type: "exact_match", inputs: { output: "$.messages[?@.role == 'assistant'].content" } };
    const r = await score(spec, { messages: [{ role: "user", content: "q" }, { role: "assistant", content: "A" }], expected: "a" });
    expect(r.passed).toBe(true);
  });
});

describe("result shape", () => {
  it("name defaults to the type; a given name is kept", async () => {
    expect((await score({ type: "exact_match" }, { output: "a", expected: "a" })).name).toBe("exact_match");
    expect((await score({ type: "exact_match", name: "strict" }, { output: "a", expected: "a" })).name).toBe("strict");
  });
});
