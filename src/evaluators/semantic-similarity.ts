import { z } from "zod";
import { EvalError } from "../errors.js";
import { cosineSimilarity } from "../metrics/cosine.js";
import { defineEvaluator } from "./define.js";

/**
 * Embedding cosine similarity (the "Semantic Similarity" document): embeds both texts with the
 * configured provider and returns `a·b / (‖a‖ ‖b‖)`, raw, in [-1, 1].
 * Identical texts score 1.0 and a text against an empty one 0.0, without a provider call.
 * Passes iff score >= threshold when a threshold is set; otherwise no verdict.
 * Defaults: provider "openai", the provider's default model, no threshold.
 */
export const semanticSimilarityEvaluator = defineEvaluator({
  type: "semantic_similarity",
  title: "Semantic Similarity",
  description: "Cosine similarity of the two texts' embeddings, in [-1, 1].",
  direction: "maximize",
  config: {
    threshold: z.number().min(-1).max(1).optional().describe("Minimum cosine to pass (no verdict when unset)"),
    provider: z.string().min(1).default("openai").describe("Embedding provider name"),
    model: z.string().min(1).optional().describe("Embedding model (the provider's default when unset)"),
  },
  create(config, env) {
    const factories = env.embeddingProviders ?? {};
    const factory = factories[config.provider];
    if (!factory) {
      const known = Object.keys(factories);
      throw new EvalError(
        "CONFIG_INVALID",
        `semantic_similarity: embedding provider "${config.provider}" is not available; ` +
          (known.length ? `available: ${known.join(", ")}` : "no embedding provider is registered in this build"),
        { issues: [{ path: ["config", "provider"], message: `unknown embedding provider "${config.provider}"`, received: config.provider }] },
      );
    }
    const provider = factory(config.model === undefined ? {} : { model: config.model });
    const verdict = (score: number): boolean | null => (config.threshold === undefined ? null : score >= config.threshold);
    const about = { provider: provider.name, model: provider.model, threshold: config.threshold ?? null };
    return async ({ output, expected }) => {
      if (output === expected || output === "" || expected === "") {
        const score = output === expected ? 1 : 0;
        return {
          score,
          passed: verdict(score),
          reasoning: output === expected ? "The texts are identical: cosine 1.0 (no embedding needed)." : `The ${output === "" ? "output" : "expected output"} is empty: 0.0 (nothing to embed).`,
          details: { ...about, embedded: false },
        };
      }
      const batch = await provider.embed([output, expected]);
      const [va, vb] = batch.vectors;
      if (!va || !vb || batch.vectors.length !== 2) {
        throw new EvalError("PROVIDER_FAILED", `${provider.name}: expected 2 embeddings, received ${batch.vectors.length}`);
      }
      const score = cosineSimilarity(va, vb);
      const passed = verdict(score);
      return {
        score,
        passed,
        reasoning:
          `Cosine similarity of the ${provider.model} embeddings: ${score.toFixed(4)}` +
          (passed === null ? " (no threshold set)." : `; ${passed ? "meets" : "below"} the threshold ${config.threshold}.`),
        details: { ...about, dimensions: va.length, embedded: true, ...(batch.usage ? { usage: batch.usage } : {}) },
      };
    };
  },
});
