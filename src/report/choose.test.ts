import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { histogram } from "../stats/histogram.js";
import { MAX_INTEGER_BINS, UNIT_BINS, chooseBins, highlightFor } from "./choose.js";

describe("chooseBins", () => {
  it("gives the top value a bar of its own when the threshold is the top (exact_match passes only at 1)", () => {
    const c = chooseBins({ direction: "maximize", min: 0, max: 1, threshold: 1 });
    expect(c).toEqual({ bins: UNIT_BINS + 1, min: 0, max: 1.05, integer: false });
    const { counts } = histogram([0, 0.97, 1, 1], c);
    expect(counts[UNIT_BINS]).toBe(2); // [1, 1.05]: the passes
    expect(counts[UNIT_BINS - 1]).toBe(1); // [0.95, 1): a near miss
  });

  it("gives [0, 1] scores 20 bins of 0.05", () => {
    expect(chooseBins({ direction: "maximize", min: 0.2, max: 0.9, threshold: 0.7 })).toEqual({ bins: UNIT_BINS, min: 0, max: 1, integer: false });
  });

  it("widens the range for scores outside [0, 1]", () => {
    expect(chooseBins({ direction: "maximize", min: -0.5, max: 2, threshold: null })).toEqual({ bins: UNIT_BINS, min: -0.5, max: 2, integer: false });
  });

  it("gives small integer distances one bin per integer, centred on it", () => {
    expect(chooseBins({ direction: "minimize", min: 0, max: 5, threshold: 3 })).toEqual({ bins: 6, min: -0.5, max: 5.5, integer: true });
  });

  it("reaches the threshold even when every distance is below it", () => {
    expect(chooseBins({ direction: "minimize", min: 0, max: 2, threshold: 9 })).toEqual({ bins: 10, min: -0.5, max: 9.5, integer: true });
  });

  it("handles a run with no scores", () => {
    expect(chooseBins({ direction: "minimize", min: null, max: null, threshold: null })).toEqual({ bins: 1, min: -0.5, max: 0.5, integer: true });
  });

  it("covers every integer 0..max with at most 40 equal integer-aligned bins, the threshold on an edge", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.option(fc.integer({ min: 0, max: 200 })), (max, threshold) => {
        const c = chooseBins({ direction: "minimize", min: 0, max, threshold });
        const width = (c.max - c.min) / c.bins;
        expect(c.bins).toBeLessThanOrEqual(MAX_INTEGER_BINS);
        expect(Number.isInteger(width)).toBe(true);
        // Every edge sits half-way between integers, so no integer lies on an edge; the first bin holds 0.
        expect(Number.isInteger(c.min + 0.5)).toBe(true);
        expect(c.min).toBeLessThanOrEqual(-0.5);
        expect(c.min).toBeGreaterThan(-0.5 - width);
        expect(c.max).toBeGreaterThan(Math.max(max, threshold ?? 0));
        // No bin holds both a passing (<= threshold) and a failing distance.
        if (threshold !== null) expect(Number.isInteger((threshold + 0.5 - c.min) / width)).toBe(true);
      }),
    );
  });

  it("starts the bins so that a distance threshold is never inside a bin (threshold 10, bins of 2)", () => {
    const c = chooseBins({ direction: "minimize", min: 0, max: 46, threshold: 10 });
    const { counts } = histogram([0, 9, 10, 11, 46], c);
    const at = (v: number): number => Math.floor((v - c.min) / ((c.max - c.min) / c.bins));
    expect(at(10)).not.toBe(at(11));
    expect(at(9)).toBe(at(10));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(5);
  });

  it("starts the bins so that a threshold off the 0.05 grid is an edge (0.72)", () => {
    const c = chooseBins({ direction: "maximize", min: 0.7, max: 0.95, threshold: 0.72 });
    const { edges, counts } = histogram([0, 0.71, 0.72, 0.74, 1], c);
    expect(edges).toContain(0.72);
    const i = edges.indexOf(0.72);
    expect(counts[i - 1]).toBe(1); // 0.71 fails, alone below the edge
    expect(counts[i]).toBe(2); // 0.72 and 0.74 pass
    expect(counts.reduce((a, b) => a + b, 0)).toBe(5);
    expect(c.min).toBeGreaterThan(-0.05);
  });
});

describe("highlightFor", () => {
  it.each([
    ["levenshtein", undefined, { unit: "chars", ignore_case: false }],
    ["levenshtein", { case_sensitive: false }, { unit: "chars", ignore_case: true }],
    ["levenshtein_distance", { case_sensitive: true }, { unit: "chars", ignore_case: false }],
    ["exact_match", { case_sensitive: false }, { unit: "chars", ignore_case: true, trim: true, collapse_whitespace: false }],
    ["exact_match", { case_sensitive: false, trim: false, normalize_whitespace: true }, { unit: "chars", ignore_case: true, trim: false, collapse_whitespace: true }],
    ["jaccard_similarity", { case_sensitive: false }, { unit: "word_tokens", ignore_case: true }],
    ["jaccard_similarity", { case_sensitive: true }, { unit: "word_tokens", ignore_case: false }],
    // The token evaluators' own default: case-insensitive words.
    ["jaccard_similarity", undefined, { unit: "word_tokens", ignore_case: true }],
    ["tfidf_similarity", {}, { unit: "word_tokens", ignore_case: true }],
    ["tfidf_similarity", { tokenizer: "word", ngram_size: 3, case_sensitive: true }, { unit: "word_tokens", ignore_case: false }],
    ["tfidf_similarity", { tokenizer: "char_ngram", ngram_size: 4, case_sensitive: false }, { unit: "char_ngrams", ignore_case: true, ngram_size: 4 }],
    ["tfidf_similarity", { tokenizer: "char_ngram" }, { unit: "char_ngrams", ignore_case: true, ngram_size: 3 }],
    ["jaccard_similarity", { case_sensitive: false, unicode_normalization: "NFKC" }, { unit: "word_tokens", ignore_case: true, unicode_normalization: "NFKC" }],
    ["semantic_similarity", undefined, { unit: "words", ignore_case: false }],
    ["levenshtein", { case_sensitive: false, unicode_normalization: "NFKC" }, { unit: "chars", ignore_case: true, unicode_normalization: "NFKC" }],
    ["exact_match", { unicode_normalization: "NFC" }, { unit: "chars", ignore_case: false, unicode_normalization: "NFC", trim: true, collapse_whitespace: false }],
  ])("%s %j", (type, config, out) => {
    expect(highlightFor(type, config)).toEqual(out);
  });
});
