import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createEvaluator } from "./create.js";
import { evaluators } from "./registry.js";

/** Configs that take each evaluator's verdict path through its other branches. */
const CONFIGS: Record<string, Record<string, unknown>[]> = {
  exact_match: [{}, { case_sensitive: true, trim: false }, { normalize_whitespace: true }],
  levenshtein: [{}, { case_sensitive: true, threshold: 0.5 }, { unit: "grapheme", max_chars: 5 }],
  levenshtein_distance: [{}, { threshold: 3 }, { case_sensitive: false, unit: "grapheme", max_chars: 4, threshold: 0 }],
  jaccard_similarity: [{}, { case_sensitive: true, threshold: 0.3 }],
  tfidf_similarity: [{}, { case_sensitive: true }, { tokenizer: "char_ngram", ngram_size: 2, threshold: 0.4 }, { tokenizer: "char_ngram", ngram_size: 4 }],
  semantic_similarity: [],
};

// Words from a small vocabulary, so that texts share some; with case, punctuation, white space and
// characters outside the BMP, so that every rule (case, trimming, graphemes, no words) gets its turn.
const word = fc.constantFrom("Paris", "paris", "the", "The", "is", "capital", "é", "e\u0301", "😀", "42", "!", ",", " ", "  ", "\n", "");
const text = fc.array(word, { maxLength: 10 }).map((w) => w.join(" "));
const value = fc.oneof({ weight: 6, arbitrary: text }, fc.constant(null), fc.constant(undefined), fc.integer({ min: -9, max: 99 }));
const record = fc.record({ output: value, expected: value }, { requiredKeys: [] });

describe("verdictNow: an evaluator's score without its explanation", () => {
  it("every synchronous evaluator offers one, and only those", () => {
    for (const e of evaluators) {
      const created = createEvaluator(e.type === "semantic_similarity" ? { type: e.type, config: { provider: "openai", base_url: "http://127.0.0.1:9/v1" } } : { type: e.type });
      expect(created.verdictNow !== undefined, e.type).toBe(e.type !== "semantic_similarity");
    }
  });

  describe.each(Object.entries(CONFIGS).flatMap(([type, configs]) => configs.map((config) => [type, config] as const)))("%s %j", (type, config) => {
    it("gives exactly the score, verdict and skip of evaluateNow, or throws the same error", () => {
      const e = createEvaluator({ type, config });
      const verdictNow = e.verdictNow;
      if (!verdictNow) throw new Error(`${type} has no verdictNow`);
      fc.assert(
        fc.property(record, (r) => {
          let full: unknown;
          try {
            const result = e.evaluateNow(r);
            if (result instanceof Promise) throw new Error("asynchronous");
            full = { score: result.score, passed: result.passed, skipped: result.skipped };
          } catch (error) {
            expect(() => verdictNow(r)).toThrow((error as Error).message);
            return;
          }
          expect(verdictNow(r)).toEqual(full);
        }),
        { numRuns: 300 },
      );
    });
  });
});
