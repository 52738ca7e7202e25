import { describe, expect, it } from "vitest";
import type { EmbeddingProvider } from "../embeddings/provider.js";
import { createEvaluator } from "./create.js";

/** A deterministic provider for tests: a bag-of-letters vector, so cosine is easy to compute by hand. */
function letterProvider(calls: string[][]): EmbeddingProvider {
  return {
    name: "letters",
    model: "letters-26",
    async embed(texts) {
      calls.push([...texts]);
      return {
        vectors: texts.map((t) => {
          const v = new Array<number>(26).fill(0);
          for (const ch of t.toLowerCase()) {
            const i = ch.charCodeAt(0) - 97;
            if (i >= 0 && i < 26) v[i] = (v[i] ?? 0) + 1;
          }
          return v;
        }),
        usage: { prompt_tokens: texts.length, total_tokens: texts.length },
      };
    },
  };
}

describe("semantic_similarity", () => {
  it("scores the cosine of the provider's embeddings and reports usage", async () => {
    const calls: string[][] = [];
    const e = createEvaluator({ type: "semantic_similarity", config: { provider: "letters", threshold: 0.5 } }, { embeddingProviders: { letters: () => letterProvider(calls) } });
    const r = await e.evaluate({ output: "ab", expected: "ac" });
    expect(r.score).toBeCloseTo(0.5, 12);
    expect(r.passed).toBe(true);
    expect(r.details).toMatchObject({ provider: "letters", model: "letters-26", dimensions: 26, usage: { total_tokens: 2 } });
    expect(calls).toEqual([["ab", "ac"]]);
  });

  it("no threshold: no verdict; identical or empty texts need no call", async () => {
    const calls: string[][] = [];
    const e = createEvaluator({ type: "semantic_similarity", config: { provider: "letters" } }, { embeddingProviders: { letters: () => letterProvider(calls) } });
    expect((await e.evaluate({ output: "ab", expected: "ba" })).passed).toBeNull();
    expect((await e.evaluate({ output: "same", expected: "same" })).score).toBe(1);
    expect((await e.evaluate({ output: "", expected: "x" })).score).toBe(0);
    expect(calls).toHaveLength(1);
  });

  it("the model is passed to the factory", () => {
    let seen: unknown;
    createEvaluator({ type: "semantic_similarity", config: { provider: "letters", model: "m1" } }, { embeddingProviders: { letters: (o) => ((seen = o), letterProvider([])) } });
    expect(seen).toEqual({ model: "m1" });
  });
});
