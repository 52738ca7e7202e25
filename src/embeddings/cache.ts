/**
 * The embedding cache: vectors by (provider, cache model, text key). `semantic_similarity` receives one
 * through `EvaluatorEnv.embeddingCache` (the runner's SQLite store, see `sqlite-cache.ts`) or, without
 * one, keeps a {@link memoryEmbeddingCache} of its own. This file stays runtime-agnostic (no `node:`
 * imports), so the root export may use it.
 */
import { argumentError, EvalError, isPlainObject } from "../errors.js";

/**
 * A store of embeddings. `key(text)` turns a text into the cache's key (a SHA-256 hex digest for the
 * SQLite cache, the text itself in memory), so that callers never hash: the hashing, which may need
 * `node:crypto`, stays with the cache. `get` and `put` may be synchronous (SQLite, memory) or return a
 * promise (a cache reached through a worker thread's message port).
 */
export interface EmbeddingCache {
  key(text: string): string;
  /** The cached vectors among `keys`; a key absent from the map is a miss. */
  get(provider: string, model: string, keys: readonly string[]): Map<string, Float32Array> | Promise<Map<string, Float32Array>>;
  put(provider: string, model: string, entries: Iterable<readonly [string, Float32Array]>): void | Promise<void>;
}

/** An {@link EmbeddingCache} that answers synchronously, as the memory and SQLite caches do. */
export interface SyncEmbeddingCache extends EmbeddingCache {
  get(provider: string, model: string, keys: readonly string[]): Map<string, Float32Array>;
  put(provider: string, model: string, entries: Iterable<readonly [string, Float32Array]>): void;
}

/** Default byte budget of {@link memoryEmbeddingCache}: 64 MiB, about 10,000 vectors of 1536 floats. */
const DEFAULT_MEMORY_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * An in-memory LRU embedding cache keyed by the text itself, bounded by bytes: each entry counts its
 * vector's bytes plus two bytes per key character. Reading an entry makes it the most recent; the least
 * recently used entries are evicted once the total exceeds `maxBytes` (default
 * {@link DEFAULT_MEMORY_CACHE_BYTES}). A single entry larger than the budget is not kept.
 *
 * @throws EvalError (CONFIG_INVALID) when `opts` is given and not an object (`memoryEmbeddingCache(5)`
 *   is not a budget of 5 bytes), or `maxBytes` is given (null included) and not a number >= 0.
 */
export function memoryEmbeddingCache(opts: { maxBytes?: number } = {}): SyncEmbeddingCache & { readonly size: number; readonly bytes: number } {
  if (!isPlainObject(opts)) {
    throw configInvalid("opts", "an object ({ maxBytes? }) or nothing", opts);
  }
  const maxBytes = opts.maxBytes === undefined ? DEFAULT_MEMORY_CACHE_BYTES : opts.maxBytes;
  if (!(typeof maxBytes === "number" && maxBytes >= 0)) throw configInvalid("maxBytes", "a number >= 0", maxBytes);
  // A Map iterates in insertion order, so deleting and re-inserting on access keeps LRU order for free.
  const entries = new Map<string, Float32Array>();
  let bytes = 0;
  const cost = (k: string, v: Float32Array) => v.byteLength + 2 * k.length;
  // NUL cannot appear in a provider or model name that anyone types, so the composite key is unambiguous.
  const slot = (provider: string, model: string, key: string) => `${provider}\u0000${model}\u0000${key}`;

  return {
    key: (text) => text,
    get(provider, model, keys) {
      const found = new Map<string, Float32Array>();
      for (const key of keys) {
        const k = slot(provider, model, key);
        const v = entries.get(k);
        if (v === undefined) continue;
        entries.delete(k);
        entries.set(k, v);
        found.set(key, v);
      }
      return found;
    },
    put(provider, model, given) {
      for (const [key, v] of given) {
        const k = slot(provider, model, key);
        const old = entries.get(k);
        if (old !== undefined) {
          entries.delete(k);
          bytes -= cost(k, old);
        }
        if (cost(k, v) > maxBytes) continue;
        entries.set(k, v);
        bytes += cost(k, v);
      }
      for (const [k, v] of entries) {
        if (bytes <= maxBytes) break;
        entries.delete(k);
        bytes -= cost(k, v);
      }
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}

/** CONFIG_INVALID for an option of {@link memoryEmbeddingCache}, naming it, what it must be and what it was. */
function configInvalid(arg: string, expected: string, value: unknown): EvalError {
  return argumentError("CONFIG_INVALID", "memoryEmbeddingCache", arg, expected, value, [arg]);
}
