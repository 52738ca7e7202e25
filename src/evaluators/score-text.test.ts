import { describe, expect, it } from "vitest";
import type { EmbeddingProvider } from "../embeddings/provider.js";
import { createEvaluator } from "./create.js";
import { scoreText } from "./score-text.js";

describe("scoreText", () => {
  it("keeps the usual decimals unless they would contradict the verdict", () => {
    expect(scoreText(0.5, 4, 0.5, true)).toBe("0.5000");
    expect(scoreText(2 / 3, 4)).toBe("0.6667");
    expect(scoreText(2 / 3, 4, 0.6, true)).toBe("0.6667");
    expect(scoreText(2 / 3, 4, 0.6667, false)).toBe("0.66667");
    expect(scoreText(1 / 3, 4, 0.333331, true)).toBe("0.333333");
    // A threshold a hair above the score: as many decimals as it takes.
    expect(Number(scoreText(0.7, 2, 0.7 + 1e-15, false))).toBeLessThan(0.7 + 1e-15);
  });

  it("never prints a score that is not whole as a whole number, nor a whole one with more decimals", () => {
    expect(scoreText(0.99999997, 4, 0.8, true)).toBe("0.99999997");
    expect(scoreText(0.99999997, 4)).toBe("0.99999997");
    expect(scoreText(3e-7, 4, 0.5, false)).toBe("0.0000003");
    expect(scoreText(1 - 1 / 200000, 2, 0.8, true)).toBe("0.99999");
    expect(scoreText(1, 4, 0.8, true)).toBe("1.0000");
    expect(scoreText(0, 2, 0.8, false)).toBe("0.00");
    expect(scoreText(0.99996, 4, 1, false)).toBe("0.99996");
  });

  it("prints a score with no verdict (passed null or undefined) with its decimals, the threshold aside", () => {
    expect(scoreText(0.5, 4, 0.8, null)).toBe("0.5000");
    expect(scoreText(0.5, 4, 0.8)).toBe("0.5000");
    expect(scoreText(0.99999997, 4, 0.8, null)).toBe("0.99999997");
  });
});

/** The last number before "meets"/"below" and the threshold after it must tell the verdict the result gives. */
function expectConsistent(reasoning: string, passed: boolean | null) {
  const m = /(-?\d+\.\d+)\D*?[.;,] (Meets|Below|meets|below|is below) the threshold (-?[\d.e-]+)\./.exec(reasoning);
  expect(m, reasoning).not.toBeNull();
  const [, shown, , threshold] = m!;
  expect(Number(shown) >= Number(threshold), reasoning).toBe(passed);
}

describe("a reasoning never contradicts its verdict through rounding", () => {
  it("jaccard_similarity: 2/3 against 0.6667 and 1/3 against 0.333331", async () => {
    const below = await createEvaluator({ type: "jaccard_similarity", config: { threshold: 0.6667 } }).evaluate({ output: "a b c", expected: "a b" });
    expect(below.passed).toBe(false);
    expect(below.reasoning).toBe("2 shared words out of 3 distinct: Jaccard 0.66667. Below the threshold 0.6667.");
    const meets = await createEvaluator({ type: "jaccard_similarity", config: { threshold: 0.333331 } }).evaluate({ output: "a", expected: "a b c" });
    expect(meets.passed).toBe(true);
    expect(meets.reasoning).toBe("1 shared word out of 3 distinct: Jaccard 0.333333. Meets the threshold 0.333331.");
    const plain = await createEvaluator({ type: "jaccard_similarity" }).evaluate({ output: "a b c", expected: "a b" });
    expect(plain.reasoning).toContain("Jaccard 0.6667. Meets the threshold 0.5.");
  });

  it("tfidf_similarity: a threshold at the score rounded up to 4 decimals", async () => {
    const record = { output: "the cat sat on the mat", expected: "a cat sat on a hat" };
    const score = (await createEvaluator({ type: "tfidf_similarity", config: { threshold: 0 } }).evaluate(record)).score as number;
    const up = Math.ceil(score * 1e4) / 1e4;
    const down = Math.floor(score * 1e4) / 1e4;
    expect(up).toBeGreaterThan(score);
    expect(Number(score.toFixed(4))).toBe(up); // 0.23298: printed with 4 decimals, it would equal the threshold
    for (const threshold of [up, down]) {
      const r = await createEvaluator({ type: "tfidf_similarity", config: { threshold } }).evaluate(record);
      expect(r.passed).toBe(score >= threshold);
      expectConsistent(r.reasoning, r.passed);
    }
  });

  it("semantic_similarity: 0.97336… against 0.9734, raw and rescaled", async () => {
    const cos = 0.97336;
    const provider = (): EmbeddingProvider => ({
      name: "fixed",
      model: "fixed-2",
      async embed(texts) {
        return { vectors: texts.map((t) => (t === "x" ? [1, 0] : [cos, Math.sqrt(1 - cos * cos)])) };
      },
    });
    const env = { embeddingProviders: { fixed: provider } };
    const raw = await createEvaluator({ type: "semantic_similarity", config: { provider: "fixed", threshold: 0.9734 } }, env).evaluate({ output: "x", expected: "y" });
    expect(raw.passed).toBe(false);
    expect(raw.reasoning).toBe("Cosine similarity of the fixed-2 embeddings: 0.97336; below the threshold 0.9734.");
    // Rescaled from 0: the score is the cosine again, and the rescaled figure is the one compared.
    const rescaled = await createEvaluator({ type: "semantic_similarity", config: { provider: "fixed", threshold: 0.9734, rescale: { from: 0 } } }, env).evaluate({ output: "x", expected: "y" });
    expect(rescaled.passed).toBe(false);
    expect(rescaled.reasoning).toContain("rescaled from [0, 1] to 0.97336; below the threshold 0.9734.");
    // Empty output with a negative `from`: 0.3 / 1.3 = 0.230769… against 0.2308.
    const empty = await createEvaluator({ type: "semantic_similarity", config: { provider: "fixed", threshold: 0.2308, rescale: { from: -0.3 } } }, env).evaluate({ output: "", expected: "y" });
    expect(empty.passed).toBe(false);
    expect(empty.reasoning).toContain("rescaled to 0.23077; below the threshold 0.2308.");
  });
});
