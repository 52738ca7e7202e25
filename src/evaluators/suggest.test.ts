import { describe, expect, it } from "vitest";
import { evaluatorTypes } from "./registry.js";
import { didYouMean } from "./suggest.js";

describe("didYouMean", () => {
  it("suggests the closest known name within a third of its length in edits, case aside", () => {
    expect(didYouMean("levenstein", evaluatorTypes)).toBe(' Did you mean "levenshtein"?');
    expect(didYouMean("Exact_Match", evaluatorTypes)).toBe(' Did you mean "exact_match"?');
    expect(didYouMean("bleu", evaluatorTypes)).toBe("");
  });

  it("suggests the one known name that the given name is a part of (jaccard got nothing: 11 edits from jaccard_similarity)", () => {
    expect(didYouMean("jaccard", evaluatorTypes)).toBe(' Did you mean "jaccard_similarity"?');
    expect(didYouMean("TFIDF", evaluatorTypes)).toBe(' Did you mean "tfidf_similarity"?');
    expect(didYouMean("semantic", evaluatorTypes)).toBe(' Did you mean "semantic_similarity"?');
    // A part of several names, or only part of a part, names none of them.
    expect(didYouMean("similarity", evaluatorTypes)).toBe("");
    expect(didYouMean("jac", evaluatorTypes)).toBe("");
  });

  it("suggests the one known name with a part of 5 or more characters a few edits from the given name (jacard got nothing)", () => {
    expect(didYouMean("jacard", evaluatorTypes)).toBe(' Did you mean "jaccard_similarity"?');
    expect(didYouMean("semantik", evaluatorTypes)).toBe(' Did you mean "semantic_similarity"?');
    // Near a part of several names, or near only a short part, names none of them.
    expect(didYouMean("similarty", evaluatorTypes)).toBe("");
    expect(didYouMean("exakt", ["exact_match", "tf_idf"])).toBe(' Did you mean "exact_match"?');
    expect(didYouMean("idx", ["exact_match", "tf_idf"])).toBe("");
  });
});
