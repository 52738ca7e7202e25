import { describe, expect, it } from "vitest";
import { specDifferences, specDifferenceWarning } from "./spec-diff.js";

describe("specDifferences", () => {
  it("names each config key that differs, with each run's value", () => {
    const d = specDifferences({ type: "exact_match" }, { type: "exact_match", config: { case_sensitive: true, trim: false } });
    expect(d).toEqual({
      config: [
        { key: "case_sensitive", a: "false", b: "true" },
        { key: "trim", a: "true", b: "false" },
      ],
      inputs: [],
    });
  });

  it("ignores key order, defaults spelled out and aliases", () => {
    const a = { type: "levenshtein", config: { threshold: 0.8, case_sensitive: true } };
    const b = { type: "levenshtein", name: "levenshtein", config: { case_sensitive: true, threshold: 0.8, unit: "code_point" } };
    expect(specDifferences(a, b)).toEqual({ config: [], inputs: [] });
    expect(specDifferences({ type: "jaccard_similarity", config: { similarity_threshold: 0.5 } }, { type: "jaccard_similarity", config: { threshold: 0.5 } }).config).toEqual([]);
    expect(specDifferences({ type: "exact_match" }, { type: "exact_match", config: { trim: true } })).toEqual({ config: [], inputs: [] });
  });

  it("says an optional key left unset is the default, and compares inputs canonically", () => {
    const a = { type: "exact_match", inputs: { output: "$.answer" } };
    const b = { type: "exact_match", config: { unicode_normalization: "NFC" }, inputs: { output: "$.answer", expected: { literal: { b: 1, a: 2 } } } };
    expect(specDifferences(a, b)).toEqual({
      config: [{ key: "unicode_normalization", a: "default", b: '"NFC"' }],
      inputs: [{ key: "expected", a: "default", b: '{"literal":{"a":2,"b":1}}' }],
    });
    expect(specDifferences(b, { ...b, inputs: { expected: { literal: { a: 2, b: 1 } }, output: "$.answer" } }).inputs).toEqual([]);
  });

  it("compares a spec that no longer parses as recorded", () => {
    expect(specDifferences({ type: "retired", config: { x: 1 } }, { type: "retired", config: { x: 2 } }).config).toEqual([{ key: "x", a: "1", b: "2" }]);
  });
});

describe("specDifferenceWarning", () => {
  it("is null for the same spec, else one sentence naming the evaluator and the keys", () => {
    expect(specDifferenceWarning("em", { type: "exact_match" }, { type: "exact_match", config: {} })).toBeNull();
    expect(specDifferenceWarning("em", { type: "exact_match" }, { type: "exact_match", config: { trim: false }, inputs: { output: "$.x" } })).toBe(
      'em: config differs between the runs (trim: true vs false); inputs differ between the runs (output: "$.output" vs "$.x"), so its scores may differ because of that, not the outputs',
    );
  });

  it("says a threshold alone changes pass/fail, not the scores, and says nothing of keys that change neither", () => {
    const lev = (config: Record<string, unknown>) => ({ type: "levenshtein", config });
    expect(specDifferenceWarning("lev", lev({ threshold: 0.8 }), lev({ threshold: 0.7 }))).toBe(
      "lev: config differs between the runs (threshold: 0.8 vs 0.7), so its scores compare, but pass/fail is decided differently",
    );
    expect(specDifferenceWarning("lev", lev({ threshold: 0.8 }), lev({ threshold: 0.7, case_sensitive: true }))).toContain("so its scores may differ because of that");
    const sem = (config: Record<string, unknown>) => ({ type: "semantic_similarity", config: { provider: "openai", base_url: "http://127.0.0.1:1/v1", ...config } });
    expect(specDifferenceWarning("sem", sem({ batch_size: 8, concurrency: 1 }), sem({ batch_size: 64, max_retries: 0 }))).toBeNull();
  });
});

describe("specDifferences on inputs", () => {
  it("takes an unmapped output as its default path, but not expected, whose default has a fallback", () => {
    expect(specDifferences({ type: "exact_match" }, { type: "exact_match", inputs: { output: "$.output" } }).inputs).toEqual([]);
    expect(specDifferences({ type: "exact_match" }, { type: "exact_match", inputs: { expected: "$.expected" } }).inputs).toEqual([{ key: "expected", a: "default", b: '"$.expected"' }]);
  });
});
