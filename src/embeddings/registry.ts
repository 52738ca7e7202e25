import type { EmbeddingProviderFactory } from "./provider.js";

/**
 * The embedding providers simeval ships, by name. Worker threads and the CLI create providers from
 * this table (functions cannot cross a thread boundary); library users may pass their own in
 * `EvaluatorEnv.embeddingProviders`.
 */
export const builtinEmbeddingProviders: Readonly<Record<string, EmbeddingProviderFactory>> = {};
