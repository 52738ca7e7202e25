import { createHash } from "node:crypto";
import type { SyncEmbeddingCache } from "./cache.js";

/**
 * The SQLite side of the embedding cache. Node-only (`node:crypto`), so nothing reachable from the root
 * export imports this file; the runner builds the cache and passes it in `EvaluatorEnv.embeddingCache`.
 */

/** SHA-256 of the text's UTF-8 bytes, as 64 lowercase hex digits: the `text_hash` of `embedding_cache`. */
export function textHash(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The part of `SqliteRunStore` the cache uses (structural, so tests and other stores can stand in). */
export interface EmbeddingStore {
  getEmbeddings(provider: string, model: string, hashes: readonly string[]): Map<string, Float32Array>;
  putEmbeddings(provider: string, model: string, entries: Iterable<readonly [string, Float32Array]>): void;
}

/**
 * An embedding cache over the run store's `embedding_cache` table, keyed by {@link textHash}.
 * Lookups are one query per call and writes one transaction per call, so callers should batch (the
 * embedding batcher does). Store failures throw the store's `EvalError("STORE_FAILED")`.
 */
export function sqliteEmbeddingCache(store: EmbeddingStore): SyncEmbeddingCache {
  return {
    key: textHash,
    get: (provider, model, keys) => store.getEmbeddings(provider, model, keys),
    put: (provider, model, entries) => store.putEmbeddings(provider, model, entries),
  };
}
