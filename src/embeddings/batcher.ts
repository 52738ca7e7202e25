import { describeValue, EvalError } from "../errors.js";
import type { EmbeddingCache } from "./cache.js";
import type { EmbeddingBatch, EmbeddingProvider, EmbeddingUsage } from "./provider.js";

/** Texts per provider request when not configured: OpenAI's client default. */
const DEFAULT_BATCH_SIZE = 64;
/** Provider requests in flight at once when not configured. */
const DEFAULT_CONCURRENCY = 4;

/**
 * Optional properties a provider object may carry besides {@link EmbeddingProvider}'s, read by the
 * batcher: the model name to cache under when vectors depend on more than `model` (e.g. openai's
 * `dimensions`), and its preferred request size and parallelism (e.g. openai's `batch_size`, `concurrency`).
 */
/** The batching hints a provider may declare (see {@link EmbeddingProvider}). */
export type BatchingHints = Pick<EmbeddingProvider, "cacheModel" | "batchSize" | "concurrency">;

interface EmbeddingBatcherOptions {
  /** Most distinct texts per provider call (default: the provider's `batchSize` hint, else {@link DEFAULT_BATCH_SIZE}). */
  batchSize?: number;
  /** Most provider calls in flight (default: the provider's `concurrency` hint, else {@link DEFAULT_CONCURRENCY}). */
  concurrency?: number;
  /**
   * How long the first queued text waits for others before the queue is looked up and sent, in ms
   * (default 0: everything asked for in the same tick, microtasks included, goes together).
   */
  windowMs?: number;
  /** Looked up before, and filled after, each provider call. */
  cache?: EmbeddingCache;
  /**
   * Told once, on the cache's first failure (a full disk, a locked or corrupt database): the texts are embedded
   * all the same, but the cache may neither serve them nor keep them for a later run (see `EvaluatorEnv.notice`).
   */
  notice?: (message: string) => void;
}

/** One text's embedding as {@link EmbeddingBatcher.embed} returns it. */
export interface EmbeddedText {
  vector: Float32Array;
  /** True when the vector came from the cache (no tokens spent). */
  cached: boolean;
  /**
   * This caller's share of the tokens of the request that embedded the text: the request's usage split
   * across its texts in proportion to their length (UTF-16 code units), and a text's share split evenly
   * among the callers that asked for it while it was pending. Summed over every call, the shares give the
   * provider's reported usage. Absent for cached texts and when the provider reports no usage.
   */
  usage?: EmbeddingUsage;
}

/** Counters since the batcher was created. */
interface BatcherStats {
  /** Provider calls made (including the extra ones made to isolate a refused text). */
  requests: number;
  /** Texts sent to the provider. */
  embedded: number;
  /** Texts served from the cache. */
  cacheHits: number;
  /** Cache reads or writes that failed (treated as misses / skipped); the first error's message. */
  cacheErrors: number;
  firstCacheError?: string;
}

interface Entry {
  text: string;
  key: string;
  /** Callers waiting on this text; read when it settles, to split its usage among them. */
  waiters: number;
  resolve(r: Omit<EmbeddedText, "usage"> & { usage?: EmbeddingUsage }): void;
  reject(err: unknown): void;
  promise: Promise<Omit<EmbeddedText, "usage"> & { usage?: EmbeddingUsage }>;
}

/**
 * Whether a provider error says the request's *input* was refused (e.g. a text over the model's
 * context length), as opposed to a failure of the service or the configuration. Providers mark such
 * errors with `inputRejected: true` (the openai provider does for HTTP 400, 413 and 422).
 */
export function isInputRejection(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { inputRejected?: unknown }).inputRejected === true;
}

/**
 * Coalesces embedding requests from many concurrent callers into few provider calls: texts asked for
 * in the same tick (or within `windowMs`) are de-duplicated, looked up in the cache in one call, and
 * the misses sent in requests of at most `batchSize` texts with at most `concurrency` requests in
 * flight. A text already pending or in flight is not sent again: later callers join it.
 *
 * When a request of several texts is refused for its input ({@link isInputRejection}), the texts are
 * split in halves and retried, so that one over-long text fails only the rows that contain it; if both
 * halves are refused too, the refusal is taken to concern every text (say, an unsupported option) and
 * all of them fail with it, which bounds the extra requests to two per failed request.
 *
 * Vectors are returned as Float32Array whether they come from the provider or the cache, so a re-run
 * served from the cache scores exactly as the first run did.
 */
export class EmbeddingBatcher {
  readonly provider: EmbeddingProvider;
  /**
   * The model name under which vectors are cached: the provider's `cacheModel` when it has one, else its
   * `model`. Read at each use, since a provider may know it only once it has loaded (word_vectors: which file).
   */
  get cacheModel(): string {
    const m = this.provider.cacheModel;
    return typeof m === "string" && m !== "" ? m : this.provider.model;
  }
  readonly stats: BatcherStats = { requests: 0, embedded: 0, cacheHits: 0, cacheErrors: 0 };
  readonly #batchSize: number;
  readonly #concurrency: number;
  readonly #windowMs: number;
  readonly #cache: EmbeddingCache | undefined;
  readonly #notice: ((message: string) => void) | undefined;
  /** Texts pending or in flight, by text. */
  readonly #entries = new Map<string, Entry>();
  /** Entries not yet looked up in the cache. */
  #fresh: Entry[] = [];
  /** Cache misses waiting for a free request slot. */
  readonly #queue: Entry[] = [];
  #inFlight = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(provider: EmbeddingProvider & BatchingHints, opts: EmbeddingBatcherOptions = {}) {
    this.provider = provider;
    this.#batchSize = positiveInt(opts.batchSize ?? provider.batchSize ?? DEFAULT_BATCH_SIZE, "batchSize");
    this.#concurrency = positiveInt(opts.concurrency ?? provider.concurrency ?? DEFAULT_CONCURRENCY, "concurrency");
    this.#windowMs = Math.max(0, opts.windowMs ?? 0);
    this.#cache = opts.cache;
    this.#notice = opts.notice;
  }

  /** Embeds `texts` (in order; duplicates allowed). Rejects with the provider's error for any text that failed. */
  embed(texts: readonly string[]): Promise<EmbeddedText[]> {
    const mine = texts.map((text) => {
      let entry = this.#entries.get(text);
      if (!entry) {
        entry = this.#newEntry(text);
        this.#entries.set(text, entry);
        this.#fresh.push(entry);
      }
      entry.waiters++;
      return entry;
    });
    if (this.#fresh.length > 0 && this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        void this.#lookUp();
      }, this.#windowMs);
    }
    return Promise.all(
      mine.map((entry) =>
        entry.promise.then((r): EmbeddedText => {
          if (!r.usage) return { vector: r.vector, cached: r.cached };
          return { vector: r.vector, cached: r.cached, usage: scaleUsage(r.usage, 1 / entry.waiters) };
        }),
      ),
    );
  }

  #newEntry(text: string): Entry {
    let resolve!: Entry["resolve"];
    let reject!: Entry["reject"];
    const promise = new Promise<Parameters<Entry["resolve"]>[0]>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // The evaluator always awaits, but a caller that gives up must not turn a failure into an unhandled rejection.
    promise.catch(() => {});
    return { text, key: this.#cache ? this.#cache.key(text) : text, waiters: 0, resolve, reject, promise };
  }

  async #lookUp(): Promise<void> {
    const fresh = this.#fresh;
    this.#fresh = [];
    let hits = new Map<string, Float32Array>();
    if (this.#cache) {
      try {
        hits = await this.#cache.get(this.provider.name, this.cacheModel, [...new Set(fresh.map((e) => e.key))]);
      } catch (err) {
        this.#cacheFailed(err);
      }
    }
    for (const entry of fresh) {
      const hit = hits.get(entry.key);
      if (hit) {
        this.stats.cacheHits++;
        this.#settle(entry, { vector: hit, cached: true });
      } else this.#queue.push(entry);
    }
    this.#pump();
  }

  #pump(): void {
    while (this.#inFlight < this.#concurrency && this.#queue.length > 0) {
      const chunk = this.#queue.splice(0, this.#batchSize);
      this.#inFlight++;
      void this.#send(chunk).finally(() => {
        this.#inFlight--;
        this.#pump();
      });
    }
  }

  /** Embeds `chunk`, splitting it when its input is refused (see the class comment). Never rejects. */
  async #send(chunk: Entry[], known?: unknown): Promise<void> {
    const err = known ?? (await this.#attempt(chunk));
    if (err === undefined) return;
    if (chunk.length === 1 || !isInputRejection(err)) return this.#fail(chunk, err);
    const mid = chunk.length >> 1;
    const halves = [chunk.slice(0, mid), chunk.slice(mid)] as const;
    const errA = await this.#attempt(halves[0]);
    const errB = await this.#attempt(halves[1]);
    if (isInputRejection(errA) && isInputRejection(errB)) {
      this.#fail(halves[0], errA);
      this.#fail(halves[1], errB);
      return;
    }
    if (errA !== undefined) await this.#send(halves[0], errA);
    if (errB !== undefined) await this.#send(halves[1], errB);
  }

  /** One provider call for `chunk`: settles its entries on success and returns undefined, else returns the error. */
  async #attempt(chunk: Entry[]): Promise<unknown> {
    const texts = chunk.map((e) => e.text);
    this.stats.requests++;
    let vectors: Float32Array[];
    let usage: EmbeddingUsage | undefined;
    try {
      const batch: unknown = await this.provider.embed(texts);
      // A provider of one's own that resolves to null (or a bare array) is simeval's to name, not a TypeError of reading it.
      if (batch === null || typeof batch !== "object" || Array.isArray(batch)) {
        throw new EvalError("PROVIDER_FAILED", `${providerWho(this.provider)} returned ${describeValue(batch)} for ${texts.length} texts, not { vectors }`);
      }
      const { vectors: given, usage: used } = batch as EmbeddingBatch;
      vectors = checkVectors(this.provider, given, texts.length);
      usage = checkUsage(this.provider, used);
    } catch (err) {
      return err ?? new Error("embedding failed");
    }
    this.stats.embedded += texts.length;
    if (this.#cache) {
      try {
        await this.#cache.put(this.provider.name, this.cacheModel, chunk.map((e, i) => [e.key, vectors[i] as Float32Array] as const));
      } catch (err) {
        this.#cacheFailed(err);
      }
    }
    const totalLength = texts.reduce((n, t) => n + t.length, 0);
    chunk.forEach((entry, i) => {
      const vector = vectors[i] as Float32Array;
      // Texts of length 0 never reach a provider from semantic_similarity; split evenly if they do.
      const share = totalLength > 0 ? entry.text.length / totalLength : 1 / chunk.length;
      this.#settle(entry, usage ? { vector, cached: false, usage: scaleUsage(usage, share) } : { vector, cached: false });
    });
    return undefined;
  }

  #settle(entry: Entry, result: Parameters<Entry["resolve"]>[0]): void {
    this.#entries.delete(entry.text);
    entry.resolve(result);
  }

  #fail(chunk: readonly Entry[], err: unknown): void {
    for (const entry of chunk) {
      this.#entries.delete(entry.text);
      entry.reject(err);
    }
  }

  #cacheFailed(err: unknown): void {
    this.stats.cacheErrors++;
    if (this.stats.firstCacheError !== undefined) return;
    this.stats.firstCacheError = err instanceof Error ? err.message : String(err);
    this.#notice?.(
      `warning: ${this.provider.name} embeddings: the embedding cache failed (${this.stats.firstCacheError}); texts are embedded all the same, but the cache may neither serve them nor keep them for a later run (said once)`,
    );
  }
}

function positiveInt(n: number, what: string): number {
  if (!Number.isInteger(n) || n < 1) throw new EvalError("CONFIG_INVALID", `EmbeddingBatcher: ${what} must be an integer >= 1, received ${describeValue(n)}`);
  return n;
}

/**
 * A batch's `usage`, checked: nothing, or an object whose `prompt_tokens` and `total_tokens` are each nothing or a
 * finite number from 0. Else PROVIDER_FAILED naming the provider and the field: a provider of one's own giving
 * `"5"` had it summed as 5 into `details.usage`, and NaN as null.
 */
function checkUsage(provider: EmbeddingProvider, usage: unknown): EmbeddingUsage | undefined {
  if (usage === undefined) return undefined;
  const bad = (what: string, value: unknown) =>
    new EvalError("PROVIDER_FAILED", `${providerWho(provider)} returned ${what} ${describeValue(value)}, not ${what === "usage" ? "{ prompt_tokens?, total_tokens? }" : "a number from 0"}`);
  if (usage === null || typeof usage !== "object" || Array.isArray(usage)) throw bad("usage", usage);
  for (const key of ["prompt_tokens", "total_tokens"] as const) {
    const n = (usage as Record<string, unknown>)[key];
    if (n !== undefined && !(typeof n === "number" && Number.isFinite(n) && n >= 0)) throw bad(`usage.${key}`, n);
  }
  return usage as EmbeddingUsage;
}

function scaleUsage(usage: EmbeddingUsage, factor: number): EmbeddingUsage {
  const out: EmbeddingUsage = {};
  if (usage.prompt_tokens !== undefined) out.prompt_tokens = usage.prompt_tokens * factor;
  if (usage.total_tokens !== undefined) out.total_tokens = usage.total_tokens * factor;
  return out;
}

/** How an error names the provider: `embedding provider letters (letters-26)`. */
function providerWho(provider: EmbeddingProvider): string {
  return `embedding provider ${provider.name} (${provider.model})`;
}

/** The provider's vectors as Float32Array, checked: one per text, finite numbers, one common length. */
function checkVectors(provider: EmbeddingProvider, vectors: readonly ArrayLike<number>[], expected: number): Float32Array[] {
  const who = providerWho(provider);
  if (!Array.isArray(vectors) || vectors.length !== expected) {
    throw new EvalError("PROVIDER_FAILED", `${who} returned ${Array.isArray(vectors) ? vectors.length : "no"} vectors for ${expected} texts`);
  }
  const out: Float32Array[] = [];
  const dims = vectors[0]?.length ?? 0;
  vectors.forEach((v, i) => {
    if (v === null || typeof v !== "object" || typeof v.length !== "number") {
      throw new EvalError("PROVIDER_FAILED", `${who} returned something other than a vector at position ${i}`);
    }
    if (dims === 0) throw new EvalError("PROVIDER_FAILED", `${who} returned an empty vector`);
    if (v.length !== dims) {
      throw new EvalError("PROVIDER_FAILED", `${who} returned vectors of differing lengths: vector 0 has ${dims}, vector ${i} has ${v.length}`);
    }
    const f = v instanceof Float32Array ? v : Float32Array.from(v);
    for (let j = 0; j < f.length; j++) {
      if (!Number.isFinite(f[j])) throw new EvalError("PROVIDER_FAILED", `${who} returned a non-finite value (${String(v[j])}) at vector ${i}, element ${j}`);
    }
    out.push(f);
  });
  return out;
}
