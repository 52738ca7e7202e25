import { openaiEmbeddingProvider } from "./openai.js";
import type { EmbeddingProviderDefinition, EmbeddingProviderFactory } from "./provider.js";
import { transformersProviderDefinition } from "./transformers/definition.js";
import { wordVectorsProviderDefinition } from "./word-vectors/definition.js";

/**
 * The embedding providers simeval ships: the one list. To add one, import its definition and add it
 * here; `semantic_similarity`'s config schema (every provider's option keys), `simeval list`, the docs
 * and {@link builtinEmbeddingProviders} follow from it.
 *
 * A provider module is reachable from the root export (through `semantic_similarity`'s schema), so it
 * must not import `node:` modules at the top level: load them lazily inside `embed()`.
 */
export const embeddingProviderDefinitions: readonly EmbeddingProviderDefinition[] = [
  openaiEmbeddingProvider,
  wordVectorsProviderDefinition,
  transformersProviderDefinition,
];

/**
 * The built-in providers' factories by name, derived from {@link embeddingProviderDefinitions}. Worker
 * threads and the CLI create providers from this table (functions cannot cross a thread boundary);
 * library users may pass their own in `EvaluatorEnv.embeddingProviders`.
 */
export const builtinEmbeddingProviders: Readonly<Record<string, EmbeddingProviderFactory>> = Object.fromEntries(
  embeddingProviderDefinitions.map((d) => [d.name, d.create]),
);
