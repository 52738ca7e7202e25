/**
 * The embedding provider interface. An evaluator never reaches a provider through a global: the
 * caller passes factories by name in `EvaluatorEnv.embeddingProviders`, and `semantic_similarity`
 * creates its provider from its own config when it is created.
 */

/** Tokens the provider reports having used, when it reports them. */
export interface EmbeddingUsage {
  prompt_tokens?: number;
  total_tokens?: number;
}

export interface EmbeddingBatch {
  /** One vector per input text, in the same order, all of the same length. */
  vectors: ArrayLike<number>[];
  usage?: EmbeddingUsage;
}

export interface EmbeddingProvider {
  /** The provider's registered name, e.g. `"openai"`. */
  readonly name: string;
  /** The model it embeds with, as reported in results. */
  readonly model: string;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<EmbeddingBatch>;
}

/** What `semantic_similarity` passes a factory: its `model` (when set) and every other provider key. */
export interface EmbeddingProviderOptions {
  model?: string;
  [key: string]: unknown;
}

export type EmbeddingProviderFactory = (options: EmbeddingProviderOptions) => EmbeddingProvider;
