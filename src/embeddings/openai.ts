import { z } from "zod";
import { EvalError } from "../errors.js";
import { parseEmbeddingsResponse } from "./openai-response.js";
import type { EmbeddingBatch, EmbeddingProvider, EmbeddingProviderDefinition, EmbeddingProviderOptions, EmbeddingUsage } from "./provider.js";
import type { BatchingHints } from "./batcher.js";
import { DEFAULT_BACKOFF, anySignal, backoffDelay, retryAfterMs, sleep, type BackoffOptions } from "./retry.js";
import { cutText } from "../cut-text.js";
import { processEnv } from "./process-env.js";
import { codePointLabel } from "../unprintable.js";

/** OpenAI's API root, the default `base_url`; only against it is an API key required. */
const OPENAI_BASE_URL = "https://api.openai.com/v1";
/** A wait before a retry at least this long (ms) is told to `notice`: a person watching sees why nothing moves. */
const NOTICE_WAIT_MS = 5_000;
/** The default embedding model. */
const OPENAI_DEFAULT_MODEL = "text-embedding-3-small";
/**
 * The longest `Retry-After` waited for, ms. A server that asks for longer (a quota reset in an hour) fails
 * the request at once, naming the wait: a run would otherwise sit silent for minutes per retry.
 */
const RETRY_AFTER_CAP_MS = 60_000;
/** The longest delay a timer keeps, ms (2^31 - 1): Node fires a longer one after 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;
/** The API key is masked in messages ("[redacted]") when it has at least this many characters. */
const MASK_MIN_LENGTH = 8;

/**
 * The openai provider's config keys, as given in a `semantic_similarity` spec. The key itself is never
 * a config value: only the name of the environment variable that holds it.
 */
const openaiOptions = {
  base_url: z
    .url({ protocol: /^https?$/ })
    .meta({ expected: "an http:// or https:// URL" })
    .default(OPENAI_BASE_URL)
    .describe("openai: API root; POST {base_url}/embeddings (Azure-style gateways, Ollama, vLLM, LM Studio, TEI)"),
  api_key_env: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
    // A key pasted here would be quoted, 40 characters of it, in the message (and a CI log): it is not.
    .meta({ expected: "the name of the environment variable that holds the key, not the key itself (letters, digits and _, not starting with a digit)", redact: true })
    .default("OPENAI_API_KEY")
    .describe("openai: environment variable holding the API key (required only for the default base_url)"),
  batch_size: z.number().int().min(1).max(2048).default(64).describe("openai: most texts per request"),
  concurrency: z.number().int().min(1).max(64).default(4).describe("openai: most requests in flight"),
  // At most the longest delay Node's timers keep (about 24.8 days): above it, AbortSignal.timeout() fired after
  // 1 ms (every request "timed out") or threw a RangeError naming neither the key nor the provider, on every row.
  timeout_ms: z.number().int().min(1).max(MAX_TIMER_MS).default(30_000).describe("openai: time limit per request attempt, ms"),
  max_retries: z.number().int().min(0).max(20).default(5).describe("openai: retries after a 429, 5xx, network error or timeout"),
  dimensions: z.number().int().min(1).optional().describe("openai: output dimensions, passed through (text-embedding-3 models)"),
} satisfies z.ZodRawShape;

const openaiConfig = z.strictObject({ model: z.string().min(1).default(OPENAI_DEFAULT_MODEL), ...openaiOptions });

/** The openai provider's settings, every default applied. */
type OpenAIEmbeddingOptions = z.output<typeof openaiConfig>;

/**
 * Test seams: retry timing, the environment and `fetch` (defaults: {@link DEFAULT_BACKOFF}, `process.env`,
 * global fetch); and `notice`, told of each wait of {@link NOTICE_WAIT_MS} or more before a retry.
 */
export interface OpenAITuning {
  backoff?: Partial<BackoffOptions>;
  retryAfterCapMs?: number;
  notice?: (message: string) => void;
  /** Default {@link NOTICE_WAIT_MS}. */
  noticeWaitMs?: number;
  env?: Readonly<Record<string, string | undefined>>;
  fetch?: typeof fetch;
}

/** The base64 of a text's UTF-8 bytes, as a Basic header carries it; `btoa`, not Node's `Buffer`, so the root export runs anywhere. */
function base64Utf8(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The provider object: an {@link EmbeddingProvider} with the batcher's hints. */
type OpenAIEmbeddingProvider = EmbeddingProvider & Required<BatchingHints>;

/**
 * An error from the embeddings endpoint. `inputRejected` (HTTP 400, 413, 422) tells the batcher that
 * the texts themselves were refused, so it may isolate the offending one. `transient` when the same
 * request may succeed later (a 429, 5xx, network failure or timeout that outlasted the retries, or a
 * Retry-After longer than simeval waits), so that the row's error says so and a service scores it again.
 */
class EmbeddingRequestError extends EvalError {
  readonly status: number | undefined;
  readonly inputRejected: boolean;
  constructor(message: string, status?: number, transient = false) {
    super("PROVIDER_FAILED", message, { transient });
    this.status = status;
    this.inputRejected = status === 400 || status === 413 || status === 422;
  }
}

/**
 * The `openai` embedding provider: any OpenAI-compatible `POST {base_url}/embeddings`.
 *
 * - Sends `{input, model, dimensions?}` with `Authorization: Bearer <key>`, the key read from the
 *   environment variable `api_key_env` when the provider is created. The key is required (a
 *   CONFIG_INVALID error naming the variable) only for the default base_url; elsewhere the header is
 *   sent when the variable is set. The key is masked out of every error message.
 * - `embed()` sends at most `batch_size` texts per request (longer lists go in sequential requests).
 * - Each attempt has `timeout_ms`, combined with the caller's signal. A 429, a 5xx, a network error or a
 *   timeout is retried up to `max_retries` times, waiting the response's `retry-after-ms` / `Retry-After`
 *   (one longer than {@link RETRY_AFTER_CAP_MS} fails the request at once, naming it) or else a full-jitter exponential backoff (500 ms doubling,
 *   at most 8 s). Any other 4xx fails at once with the server's message (`{error: {message, type, code}}`);
 *   after a 401 or 403 (the key, or its access to the model, refused) no further request is sent: each
 *   later call fails at once, naming the refusal.
 * - A malformed response fails with a message naming what was wrong (see `parseEmbeddingsResponse`).
 * - Vectors are cached under `model`, or `model@dimensions` when `dimensions` is set, followed by
 *   ` at <endpoint>` (without credentials or query) for any server but OpenAI's.
 */
export function createOpenAIProvider(options: OpenAIEmbeddingOptions, tuning: OpenAITuning = {}): OpenAIEmbeddingProvider {
  const env = tuning.env ?? processEnv() ?? {};
  const rawKey = env[options.api_key_env];
  const key = rawKey === undefined || rawKey.trim() === "" ? undefined : rawKey.trim();
  const endpoint = endpointOf(options.base_url);
  if (key === undefined && isOpenAI(endpoint)) {
    const message = `the API key environment variable ${options.api_key_env} is not set; export ${options.api_key_env}=<your key>, or set "api_key_env" to the variable that holds it`;
    throw new EvalError("CONFIG_INVALID", `semantic_similarity (openai): ${message}`, {
      issues: [{ path: ["config", "api_key_env"], message, expected: "the name of a set environment variable", received: options.api_key_env }],
    });
  }
  if (key !== undefined) checkHeaderSafe(key, options.api_key_env);
  const backoff: BackoffOptions = { ...DEFAULT_BACKOFF, ...tuning.backoff };
  const retryAfterCap = tuning.retryAfterCapMs ?? RETRY_AFTER_CAP_MS;
  const doFetch = tuning.fetch ?? fetch;
  const shown = displayUrl(endpoint);
  // The key as sent, and as a server might echo it back: URL-encoded or in base64 (as in a Basic header).
  // A form under MASK_MIN_LENGTH characters (a dummy key such as "x" for a local server) is no secret, and
  // masking it would garble every message ("rate_limit_e[redacted]ceeded").
  const forms = key === undefined ? [] : [...new Set([key, encodeURIComponent(key), base64Utf8(key)])].filter((f) => f.length >= MASK_MIN_LENGTH);
  const mask = (text: string) => forms.reduce((t, f) => t.split(f).join("[redacted]"), text);
  const fail = (message: string, status?: number, transient = false) =>
    new EmbeddingRequestError(mask(`openai: POST ${shown} (model ${options.model}): ${message}`), status, transient);

  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (key !== undefined) headers["authorization"] = `Bearer ${key}`;

  /**
   * The first 401 or 403: the server refused the key (or its access to the model), which every later
   * request would be refused for too, so none is sent: a run of a million rows fails each at once instead of
   * sending thousands of requests that count against the account's limits.
   */
  let refusal: string | undefined;

  /** One request of ≤ batch_size texts, with retries. */
  async function request(texts: readonly string[], signal: AbortSignal | undefined): Promise<EmbeddingBatch> {
    if (refusal !== undefined) throw fail(`not sent: an earlier request was refused (${refusal})`);
    const body = JSON.stringify({ input: texts, model: options.model, ...(options.dimensions !== undefined ? { dimensions: options.dimensions } : {}) });
    for (let attempt = 0; ; attempt++) {
      const outcome = await attemptOnce(body, texts.length, signal);
      if ("batch" in outcome) return outcome.batch;
      const retriesLeft = options.max_retries - attempt;
      if (outcome.status === 401 || outcome.status === 403) refusal ??= outcome.message;
      if (!outcome.retryable || retriesLeft <= 0) {
        const gaveUp = outcome.retryable && options.max_retries > 0 ? `gave up after ${attempt + 1} attempts; last: ` : "";
        throw fail(gaveUp + outcome.message, outcome.status, outcome.retryable);
      }
      const asked = outcome.retryAfter;
      if (asked !== undefined && asked > retryAfterCap) {
        throw fail(`${outcome.message}; the server asks to wait ${formatWait(asked)} before retrying, longer than the ${formatWait(retryAfterCap)} simeval waits, so it gave up`, outcome.status, true);
      }
      const wait = asked ?? backoffDelay(attempt, backoff);
      if (wait >= (tuning.noticeWaitMs ?? NOTICE_WAIT_MS)) {
        tuning.notice?.(mask(`openai: ${outcome.message}; retrying in ${formatWait(wait)}${asked !== undefined ? " as the server asks" : ""} (retry ${attempt + 1} of ${options.max_retries})`));
      }
      await sleep(wait, signal);
    }
  }

  type Outcome = { batch: EmbeddingBatch } | { retryable: boolean; message: string; status?: number; retryAfter?: number };

  async function attemptOnce(body: string, count: number, signal: AbortSignal | undefined): Promise<Outcome> {
    const timeout = AbortSignal.timeout(options.timeout_ms);
    const combined = signal ? anySignal([signal, timeout]) : timeout;
    let status: number;
    let text: string;
    let responseHeaders: Headers;
    try {
      const res = await doFetch(endpoint, { method: "POST", headers, body, signal: combined });
      status = res.status;
      responseHeaders = res.headers;
      // Reading the body is under the same signal, so a response that stalls mid-body times out too.
      text = await res.text();
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted) return { retryable: true, message: `no complete response within ${options.timeout_ms} ms (timeout_ms)` };
      return { retryable: true, message: `network error: ${networkReason(err)}` };
    }
    if (status >= 200 && status < 300) {
      try {
        const parsed = parseEmbeddingsResponse(text, count, options.dimensions);
        return { batch: parsed.usage ? { vectors: parsed.vectors, usage: parsed.usage } : { vectors: parsed.vectors } };
      } catch (err) {
        return { retryable: false, message: `malformed response: ${err instanceof Error ? err.message : String(err)}`, status };
      }
    }
    const message = `HTTP ${status}: ${serverMessage(text)}`;
    if (status === 429 || status >= 500) {
      const retryAfter = retryAfterMs(responseHeaders);
      return retryAfter === undefined ? { retryable: true, message, status } : { retryable: true, message, status, retryAfter };
    }
    return { retryable: false, message: status === 401 ? `${message} (check the key in ${options.api_key_env})` : message, status };
  }

  return {
    name: "openai",
    model: options.model,
    remote: true,
    // Another server may serve another model under the same name: its vectors are cached apart.
    cacheModel: `${options.model}${options.dimensions === undefined ? "" : `@${options.dimensions}`}${isOpenAI(endpoint) ? "" : ` at ${shown}`}`,
    batchSize: options.batch_size,
    concurrency: options.concurrency,
    async embed(texts, signal) {
      const vectors: ArrayLike<number>[] = [];
      let usage: Required<EmbeddingUsage> | undefined;
      let reported = true;
      for (let start = 0; start < texts.length; start += options.batch_size) {
        const batch = await request(texts.slice(start, start + options.batch_size), signal);
        vectors.push(...batch.vectors);
        if (!batch.usage) reported = false;
        else {
          usage ??= { prompt_tokens: 0, total_tokens: 0 };
          usage.prompt_tokens += batch.usage.prompt_tokens ?? 0;
          usage.total_tokens += batch.usage.total_tokens ?? batch.usage.prompt_tokens ?? 0;
        }
      }
      return usage && reported ? { vectors, usage } : { vectors };
    },
  };
}

/** Parses a provider's raw options (as `semantic_similarity` passes them), applying defaults; CONFIG_INVALID listing every problem. */
export function parseOpenAIOptions(raw: EmbeddingProviderOptions): OpenAIEmbeddingOptions {
  const result = openaiConfig.safeParse(raw);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ path: ["config", ...i.path.map(String)], message: `openai: ${i.path.map(String).join(".") || "options"}: ${i.message}` }));
  throw new EvalError("CONFIG_INVALID", `semantic_similarity (openai): invalid options:\n${issues.map((i) => `✖ ${i.message}`).join("\n")}`, { issues });
}

/** The `openai` entry of the embedding provider registry. */
export const openaiEmbeddingProvider: EmbeddingProviderDefinition = {
  name: "openai",
  description: "Any OpenAI-compatible POST {base_url}/embeddings endpoint (OpenAI by default, with text-embedding-3-small).",
  options: openaiOptions,
  create: (options, hooks) => createOpenAIProvider(parseOpenAIOptions(options), hooks?.notice ? { notice: hooks.notice } : {}),
};

/**
 * Throws CONFIG_INVALID naming `variable` when the key holds a character that cannot go in an HTTP header
 * (one above U+00FF, such as an en dash or "…" pasted with it, or a line break or NUL inside it): fetch
 * refused every request with it, each retried as a "network error", so a run failed every row slowly
 * after the first. The message gives the character's position and code point, never the key.
 */
function checkHeaderSafe(key: string, variable: string): void {
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    if (code <= 0xff && code !== 0x00 && code !== 0x0a && code !== 0x0d) continue;
    const point = key.codePointAt(i) ?? code;
    const what = codePointLabel(point);
    const message =
      `the API key in ${variable} has a character that cannot be sent in an HTTP header: character ${i + 1} is ${what}` +
      ` (a key holds only Latin-1 characters, without line breaks or NUL); check that the key was copied whole and unchanged`;
    throw new EvalError("CONFIG_INVALID", `semantic_similarity (openai): ${message}`, {
      issues: [{ path: ["config", "api_key_env"], message, expected: "a variable holding a key of Latin-1 characters without line breaks", received: variable }],
    });
  }
}

/** `{base_url}/embeddings`, keeping a query string (Azure's `?api-version=`) after the path. */
function endpointOf(baseUrl: string): URL {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/embeddings`;
  return url;
}

function isOpenAI(url: URL): boolean {
  return url.hostname === "api.openai.com";
}

/** The endpoint without credentials or query, for messages. */
function displayUrl(url: URL): string {
  const copy = new URL(url);
  copy.username = "";
  copy.password = "";
  copy.search = "";
  return copy.toString();
}

/** `message (type, code)` from an OpenAI error body, or the start of whatever else the server sent. */
function serverMessage(text: string): string {
  try {
    const json = JSON.parse(text) as { error?: unknown; message?: unknown };
    const error = json.error;
    if (error !== null && typeof error === "object") {
      const { message, type, code } = error as Record<string, unknown>;
      const tags = [type, code].filter((x): x is string | number => typeof x === "string" || typeof x === "number");
      if (typeof message === "string") return tags.length ? `${message} (${tags.join(", ")})` : message;
    }
    if (typeof error === "string") return error;
    if (typeof json.message === "string") return json.message;
  } catch {
    // Not JSON: fall through to the raw text.
  }
  const trimmed = text.trim();
  if (trimmed === "") return "(empty body)";
  return cutText(trimmed, 300);
}

/** undici reports "fetch failed" with the real reason (ECONNREFUSED, ENOTFOUND, "other side closed") in `cause`. */
function networkReason(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return `${err.message}: ${cause.message}${typeof code === "string" && !cause.message.includes(code) ? ` (${code})` : ""}`;
  }
  return err.message;
}

/** A wait as "3,600 s" or "0.05 s". */
function formatWait(ms: number): string {
  return `${(ms / 1000).toLocaleString("en-US", { maximumFractionDigits: 2 })} s`;
}
