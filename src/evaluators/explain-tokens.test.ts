import { describe, expect, it } from "vitest";
import { createEvaluator } from "./create.js";
import { listedToken } from "./explain-tokens.js";

describe("listedToken", () => {
  it("keeps a token of up to 100 code units whole and cuts a longer one to 100 and an ellipsis", () => {
    expect(listedToken("a".repeat(100))).toBe("a".repeat(100));
    expect(listedToken("b".repeat(101))).toBe(`${"b".repeat(100)}…`);
    expect(listedToken("")).toBe("");
  });
});

describe("a very long word in the token evaluators' results", () => {
  const long = `${"w".repeat(5_000_000)}x`;

  it("jaccard_similarity lists it cut short, and its counts stay exact", async () => {
    const r = await createEvaluator({ type: "jaccard_similarity" }).evaluate({ output: `${long} paris`, expected: "paris" });
    expect(r.details).toMatchObject({ shared: ["paris"], missing: [], extra: [`${"w".repeat(100)}…`], extra_count: 1, output_words: 2 });
    expect(JSON.stringify(r).length).toBeLessThan(2_000);
  });

  it("tfidf_similarity lists it cut short in details and reasoning", async () => {
    const r = await createEvaluator({ type: "tfidf_similarity" }).evaluate({ output: `${long} paris`, expected: `${long} lyon` });
    const shown = `${"w".repeat(100)}…`;
    expect(r.details).toMatchObject({ missing: ["lyon"], extra: ["paris"], shared_count: 1 });
    expect((r.details["top_terms"] as { token: string }[])[0]).toMatchObject({ token: shown, output_count: 1, expected_count: 1 });
    expect(r.reasoning).toContain(`the shared terms weighing most: ${JSON.stringify(shown)}`);
    expect(JSON.stringify(r).length).toBeLessThan(2_000);
  });
});
