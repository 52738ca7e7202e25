import type { z } from "zod";

/**
 * The embedding provider interface. An evaluator never reaches a provider through a global: the
 * caller passes factories by name in `EvaluatorEnv.embeddingProviders` (the built-in ones are in
 * `registry.ts`), and `semantic_similarity` creates its provider from its own config when created.
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
  /** The model it embeds with, as reported in results and used as the cache key. */
  readonly model: string;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<EmbeddingBatch>;
  /** Batching hints for the coalescing batcher: the cache key's model (e.g. `model@dimensions`)… */
  readonly cacheModel?: string;
  /** …the most texts per call… */
  readonly batchSize?: number;
  /** …and the most calls in flight. */
  readonly concurrency?: number;
  /**
   * True when texts are sent to a network service (billed per text): a dataset run then keeps to one
   * scoring thread by default, whose batcher sends each distinct text once.
   */
  readonly remote?: boolean;
  /** Why this provider gives a text an all-zero vector, for reasonings (e.g. "none of its words is in the vocabulary"). */
  readonly zeroVectorMeans?: string;
}

/**
 * What `semantic_similarity` passes a factory: its `model` (when set) and, for a built-in provider name, the config
 * keys that provider declares (`base_url`, `path`, …). A provider of one's own (`EvaluatorEnv.embeddingProviders`)
 * gets `model` alone: the spec refuses keys no built-in provider declares, so its other settings go in its factory.
 */
export interface EmbeddingProviderOptions {
  model?: string;
  [key: string]: unknown;
}

/** What a factory may use besides its options: `notice` tells a person watching why a call is waiting (see `EvaluatorEnv.notice`). */
export interface EmbeddingProviderHooks {
  notice?: (message: string) => void;
}

export type EmbeddingProviderFactory = (options: EmbeddingProviderOptions, hooks?: EmbeddingProviderHooks) => EmbeddingProvider;

/**
 * A built-in provider: its name, the config keys it accepts in a `semantic_similarity` spec (each
 * optional or defaulted, validated when the evaluator is created), and its factory.
 */
export interface EmbeddingProviderDefinition {
  name: string;
  description: string;
  /** Provider-specific config keys (besides `provider`, `model`, `threshold`, `rescale`). */
  options: z.ZodRawShape;
  create: EmbeddingProviderFactory;
}
