import { describe, expect, it } from "vitest";
import { createEvaluator } from "./create.js";

/**
 * Every example of the seed documents (../shared/seeds), as written, except where the issue says the
 * document contradicts its own formula (noted inline).
 */
interface Example {
  doc: string;
  spec: Record<string, unknown>;
  output: unknown;
  expected: unknown;
  score?: number;
  closeTo?: number;
  passed: boolean | null;
}

const lev = (config: Record<string, unknown>) => ({ type: "levenshtein", config });
const exact = (config: Record<string, unknown>) => ({ type: "exact_match", config });

const examples: Example[] = [
  // 000 Levenshtein, "Default threshold (0.7)"
  { doc: "000 default", spec: lev({ threshold: 0.7 }), expected: "The quick brown fox", output: "The quick brown fox", score: 1.0, passed: true },
  // The document prints 0.84; its own formula gives 1 - 2/19 = 0.8947 -> 0.89 (see README).
  { doc: "000 default", spec: lev({ threshold: 0.7 }), expected: "The quick brown fox", output: "The quick brown dog", score: 0.89, passed: true },
  { doc: "000 default", spec: lev({ threshold: 0.7 }), expected: "The quick brown fox", output: "Something entirely different", score: 0.18, passed: false },
  // 000 "Strict similarity"
  { doc: "000 strict", spec: lev({ threshold: 0.9, case_sensitive: true }), expected: "Hello World", output: "Hello World", score: 1.0, passed: true },
  { doc: "000 strict", spec: lev({ threshold: 0.9, case_sensitive: true }), expected: "Hello World", output: "Hello World!", score: 0.92, passed: true },
  { doc: "000 strict", spec: lev({ threshold: 0.9, case_sensitive: true }), expected: "Hello World", output: "hello world", score: 0.82, passed: false },
  // 000 "Lenient fuzzy match"
  { doc: "000 lenient", spec: lev({ threshold: 0.5 }), expected: "customer support", output: "customer service", passed: true },
  { doc: "000 lenient", spec: lev({ threshold: 0.5 }), expected: "customer support", output: "billing department", passed: false },
  // 002 Exact Match
  { doc: "002 case-insensitive", spec: exact({ case_sensitive: false }), expected: "positive", output: "Positive", score: 1, passed: true },
  { doc: "002 case-insensitive", spec: exact({ case_sensitive: false }), expected: "positive", output: "POSITIVE", score: 1, passed: true },
  { doc: "002 case-insensitive", spec: exact({ case_sensitive: false }), expected: "positive", output: "positive!", score: 0, passed: false },
  { doc: "002 case-sensitive", spec: exact({ case_sensitive: true }), expected: "OK", output: "OK", score: 1, passed: true },
  { doc: "002 case-sensitive", spec: exact({ case_sensitive: true }), expected: "OK", output: "ok", score: 0, passed: false },
  { doc: "002 case-sensitive", spec: exact({ case_sensitive: true }), expected: "OK", output: "Ok", score: 0, passed: false },
  { doc: "002 whitespace", spec: exact({ normalize_whitespace: true }), expected: "Hello World", output: "Hello   World", score: 1, passed: true },
  { doc: "002 whitespace", spec: exact({ normalize_whitespace: true }), expected: "Hello World", output: "Hello\nWorld", score: 1, passed: true },
  // 001 / 003 Levenshtein distance: 0 = identical; with a threshold, pass iff distance <= threshold.
  { doc: "001 identical", spec: { type: "levenshtein_distance" }, expected: "Paris", output: "Paris", score: 0, passed: null },
  { doc: "003 edit count", spec: { type: "levenshtein_distance" }, expected: "kitten on a mat", output: "sitting on a hat", score: 4, passed: null },
  { doc: "003 threshold", spec: { type: "levenshtein_distance", config: { threshold: 6 } }, expected: "abcdefghij", output: "abcdXXXXXX", score: 6, passed: true },
  { doc: "003 threshold", spec: { type: "levenshtein_distance", config: { threshold: 5 } }, expected: "abcdefghij", output: "abcdXXXXXX", score: 6, passed: false },
  { doc: "001 case-sensitive default", spec: { type: "levenshtein_distance" }, expected: "Hello", output: "hello", score: 1, passed: null },
  // 003 Similarity Match: Jaccard of word sets; "exceeds" read as "meets or exceeds".
  { doc: "003 jaccard", spec: { type: "jaccard_similarity", config: { similarity_threshold: 1 } }, expected: "The cat sat", output: "the CAT sat.", score: 1, passed: true },
  { doc: "003 jaccard", spec: { type: "jaccard_similarity" }, expected: "a b c d", output: "a b x y", closeTo: 2 / 6, passed: false },
  // 004 TF-IDF: the document says "high score" / "still scores well"; its own formula gives ~0.13 / ~0.17.
  { doc: "004 word", spec: { type: "tfidf_similarity" }, expected: "The refund was processed", output: "Your refund has been completed", closeTo: 0.127, passed: false },
  { doc: "004 char_ngram", spec: { type: "tfidf_similarity", config: { tokenizer: "char_ngram", ngram_size: 3, threshold: 0.6 } }, expected: "John Smith", output: "Jon Smth", closeTo: 0.171, passed: false },
  { doc: "004 identical", spec: { type: "tfidf_similarity", config: { threshold: 0.9 } }, expected: "Refunds take 5 days.", output: "refunds take 5 days", score: 1, passed: true },
];

describe("seed document examples", () => {
  it.each(examples)("$doc: $output vs $expected", async (ex) => {
    const result = await createEvaluator(ex.spec).evaluate({ output: ex.output, expected: ex.expected });
    if (ex.score !== undefined) expect(result.score).toBe(ex.score);
    if (ex.closeTo !== undefined) expect(result.score).toBeCloseTo(ex.closeTo, 3);
    expect(result.passed).toBe(ex.passed);
    expect(result.label).toBe(ex.passed === null ? null : ex.passed ? "pass" : "fail");
    expect(result.skipped).toBe(false);
  });

  it.each(["exact_match", "levenshtein", "jaccard_similarity", "tfidf_similarity"])(
    "%s returns 0.0 with an explanation when no expected output is provided",
    async (type) => {
      const result = await createEvaluator({ type }).evaluate({ output: "anything" });
      expect(result).toMatchObject({ score: 0, passed: false, label: "fail", skipped: true });
      expect(result.reasoning).toMatch(/no expected output/i);
    },
  );
});
