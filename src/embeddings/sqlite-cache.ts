import { createHash } from "node:crypto";
import { argumentError } from "../errors.js";
import type { SyncEmbeddingCache } from "./cache.js";

/**
 * The SQLite side of the embedding cache. Node-only (`node:crypto`), so nothing reachable from the root
 * export imports this file; the runner builds the cache and passes it in `EvaluatorEnv.embeddingCache`.
 */

/**
 * SHA-256 of the text's UTF-8 bytes, as 64 lowercase hex digits: the `text_hash` of `embedding_cache`.
 * Throws INPUT_INVALID when `text` is not a string: node:crypto threw a TypeError for 5 or nothing.
 */
export function textHash(text: string): string {
  if (typeof text !== "string") throw argumentError("INPUT_INVALID", "textHash", "text", "a string", text);
  return hashText(text);
}

/** {@link textHash} without the check: the cache's `key`, called once per text looked up. */
function hashText(text: string): string {
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
 * embedding batcher does). Store failures throw the store's `EvalError("STORE_FAILED")`. A `store` that is
 * not an {@link EmbeddingStore} (nothing, 5, an object without `putEmbeddings`) throws CONFIG_INVALID at
 * once; the cache it gave threw a TypeError at its first lookup.
 */
export function sqliteEmbeddingCache(store: EmbeddingStore): SyncEmbeddingCache {
  if (typeof store !== "object" || store === null) {
    throw argumentError("CONFIG_INVALID", "sqliteEmbeddingCache", "store", "an embedding store ({ getEmbeddings, putEmbeddings }, such as openSqliteStore(path))", store);
  }
  for (const method of ["getEmbeddings", "putEmbeddings"] as const) {
    if (typeof store[method] !== "function") throw argumentError("CONFIG_INVALID", "sqliteEmbeddingCache", `store.${method}`, "a function (the store is no EmbeddingStore)", store[method]);
  }
  return {
    key: hashText,
    get: (provider, model, keys) => store.getEmbeddings(provider, model, keys),
    put: (provider, model, entries) => store.putEmbeddings(provider, model, entries),
  };
}
