import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EvalError } from "../errors.js";
import { fakeTokens, fakeVector, startFakeOpenAI, type FakeOpenAI } from "../../test/openai-server.js";
import { evalErrorOf } from "../test-support.js";
import { createOpenAIProvider, parseOpenAIOptions, type OpenAITuning } from "./openai.js";

const KEY = "sk-test-SECRET-0123456789abcdef";
let server: FakeOpenAI;

beforeEach(async () => {
  server = await startFakeOpenAI();
});
afterEach(async () => {
  await server.close();
});

/** Fast retries: backoff ceilings of a few ms, deterministic jitter. */
const fast: OpenAITuning = { backoff: { baseMs: 2, maxMs: 10, random: () => 0.5 }, env: { OPENAI_API_KEY: KEY } };

function provider(options: Record<string, unknown> = {}, tuning: OpenAITuning = fast) {
  return createOpenAIProvider(parseOpenAIOptions({ base_url: server.url, ...options }), tuning);
}

describe("openai provider: the request", () => {
  it("posts {input, model, dimensions} with a Bearer key and returns vectors in input order with usage", async () => {
    const texts = ["the cat sat", "a dog ran far", "cat"];
    const batch = await provider({ dimensions: 16, model: "m-1" }).embed(texts);
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.body).toEqual({ input: texts, model: "m-1", dimensions: 16 });
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers["content-type"]).toBe("application/json");
    // The fake answers in reverse order; the client sorts by index.
    expect(batch.vectors.map((v) => Array.from(v))).toEqual(texts.map((t) => fakeVector(t, 16)));
    const tokens = texts.reduce((n, t) => n + fakeTokens(t), 0);
    expect(batch.usage).toEqual({ prompt_tokens: tokens, total_tokens: tokens });
  });

  it("defaults: model text-embedding-3-small, no dimensions sent; a trailing slash and a query string in base_url are kept right", async () => {
    await provider({ base_url: `${server.url}/` }).embed(["x"]);
    expect(server.requests[0]!.body).toEqual({ input: ["x"], model: "text-embedding-3-small" });
    await provider({ base_url: `${server.url}?api-version=1` }).embed(["x"]);
    expect(server.requests.map((r) => r.url)).toEqual(["/v1/embeddings", "/v1/embeddings?api-version=1"]);
  });

  it("splits more than batch_size texts into sequential requests and sums their usage", async () => {
    const texts = Array.from({ length: 7 }, (_, i) => `text number ${i}`);
    const batch = await provider({ batch_size: 3 }).embed(texts);
    expect(server.requests.map((r) => r.body.input.length)).toEqual([3, 3, 1]);
    expect(batch.vectors).toHaveLength(7);
    expect(Array.from(batch.vectors[6]!)).toEqual(fakeVector(texts[6]!));
    expect(batch.usage?.total_tokens).toBe(21);
  });

  it("exposes the batcher hints: batch size, concurrency, and a cache model that includes dimensions and any server but OpenAI's", () => {
    const p = provider({ batch_size: 10, concurrency: 2, dimensions: 256, model: "m" });
    expect({ batchSize: p.batchSize, concurrency: p.concurrency, cacheModel: p.cacheModel, model: p.model }).toEqual({ batchSize: 10, concurrency: 2, cacheModel: `m@256 at ${server.url}/embeddings`, model: "m" });
    expect(provider().cacheModel).toBe(`text-embedding-3-small at ${server.url}/embeddings`);
    // No credentials or query in the key (it is stored in the run database).
    expect(provider({ base_url: "http://user:pw@127.0.0.1:9/v1?api-version=1" }).cacheModel).toBe("text-embedding-3-small at http://127.0.0.1:9/v1/embeddings");
    expect(provider({ base_url: "https://api.openai.com/v1" }, { ...fast, env: { OPENAI_API_KEY: "k" } }).cacheModel).toBe("text-embedding-3-small");
  });
});

describe("openai provider: the key", () => {
  it("is required for the default base_url: a CONFIG_INVALID error naming the variable", () => {
    const make = () => createOpenAIProvider(parseOpenAIOptions({ api_key_env: "MY_EMBED_KEY" }), { env: {} });
    expect(make).toThrow(EvalError);
    expect(make).toThrow(/MY_EMBED_KEY is not set/);
  });

  it("with a character no HTTP header may hold is a CONFIG_INVALID error at once, naming the variable and the character, not the key", () => {
    for (const [key, at, point] of [
      ["sk\u2013proj-0123456789", 3, "U+2013"],
      ["sk-proj-0123\n4567-89ab", 13, "U+000A"],
      ["sk-proj-0123456789\u2026", 19, "U+2026"],
      ["sk-proj-0123\r4567-89ab", 13, "U+000D"],
      ["sk-proj-0123\u00004567-89ab", 13, "U+0000"],
      // A character past U+FFFF is named by its code point, not its first UTF-16 unit (U+D83D).
      ["sk-\u{1F511}-proj-0123456789", 4, "U+1F511"],
    ] as const) {
      const make = () => createOpenAIProvider(parseOpenAIOptions({ base_url: server.url, api_key_env: "MY_EMBED_KEY" }), { ...fast, env: { MY_EMBED_KEY: key } });
      let err: unknown;
      try {
        make();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(EvalError);
      const e = err as EvalError;
      expect(e.code).toBe("CONFIG_INVALID");
      expect(e.message).toContain(`the API key in MY_EMBED_KEY has a character that cannot be sent in an HTTP header: character ${at} is ${point}`);
      expect(e.issues?.[0]?.path).toEqual(["config", "api_key_env"]);
      expect(JSON.stringify(e) + e.message).not.toContain("0123");
    }
    // Latin-1 (é) goes in a header as is.
    expect(() => createOpenAIProvider(parseOpenAIOptions({ base_url: server.url }), { ...fast, env: { OPENAI_API_KEY: "sk-caf\u00e9-0123456789" } })).not.toThrow();
    // So does the last Latin-1 character, U+00FF.
    expect(() => createOpenAIProvider(parseOpenAIOptions({ base_url: server.url }), { ...fast, env: { OPENAI_API_KEY: "sk-\u00ff-0123456789" } })).not.toThrow();
  });

  it("is optional elsewhere: no Authorization header when the variable is unset", async () => {
    await provider({}, { ...fast, env: {} }).embed(["x"]);
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it("is read from api_key_env", async () => {
    await provider({ api_key_env: "OTHER_KEY" }, { ...fast, env: { OTHER_KEY: "k2" } }).embed(["x"]);
    expect(server.requests[0]!.headers.authorization).toBe("Bearer k2");
  });

  it("never appears in an error, even when the server echoes it; a 401 is not retried", async () => {
    server.expectKey = "the-right-key";
    const err = await evalErrorOf(provider().embed(["x"]));
    expect(server.requests).toHaveLength(1);
    expect(err.code).toBe("PROVIDER_FAILED");
    expect(err.message).toContain("HTTP 401: Incorrect API key provided: Bearer [redacted] (invalid_request_error, invalid_api_key)");
    expect(err.message).toContain("check the key in OPENAI_API_KEY");
    expect(err.message).not.toContain(KEY);
    expect(JSON.stringify(err)).not.toContain(KEY);
    expect(String(err.stack)).not.toContain(KEY);
  });

  it("once refused (401 or 403), sends no further request: each later call fails at once, naming the refusal", async () => {
    for (const status of [401, 403]) {
      server.requests.length = 0;
      server.faults.push({ kind: "status", status, message: status === 401 ? "Incorrect API key provided" : "You are not allowed to use this model" });
      const p = provider();
      const first = await evalErrorOf(p.embed(["x"]));
      expect(first.message).toContain(`HTTP ${status}`);
      const later = await evalErrorOf(p.embed(["y", "z"]));
      expect(server.requests).toHaveLength(1);
      expect(later.code).toBe("PROVIDER_FAILED");
      expect(later.message).toMatch(new RegExp(`: not sent: an earlier request was refused \\(HTTP ${status}: `));
      expect((later as unknown as { inputRejected: boolean }).inputRejected).toBe(false);
    }
    // A refusal is the provider's own: another provider (another run) asks again.
    await provider().embed(["x"]);
    expect(server.requests).toHaveLength(2);
  });

  it("after another 4xx (a batch the server cannot take) or a 429, later requests are still sent", async () => {
    for (const status of [400, 404, 422, 429]) {
      server.requests.length = 0;
      server.faults.push({ kind: "status", status, message: "not this batch" });
      const p = provider({ max_retries: 0 });
      expect((await evalErrorOf(p.embed(["x"]))).message).toContain(`HTTP ${status}`);
      await p.embed(["y"]);
      expect(server.requests).toHaveLength(2);
    }
  });

  it("is masked also when a server echoes it URL-encoded or in base64", async () => {
    const key = "sk-with space/and+plus";
    const echoed = `key=${encodeURIComponent(key)} basic=${Buffer.from(key).toString("base64")} raw=${key}`;
    server.faults.push({ kind: "status", status: 400, message: echoed });
    const err = await evalErrorOf(provider({}, { ...fast, env: { OPENAI_API_KEY: key } }).embed(["x"]));
    expect(err.message).toContain("key=[redacted] basic=[redacted] raw=[redacted]");
  });

  it("is not masked when it is a short dummy (as for a local server), which would garble every message", async () => {
    server.faults.push({ kind: "status", status: 400, message: "exceeded the max" });
    const err = await evalErrorOf(provider({}, { ...fast, env: { OPENAI_API_KEY: "x" } }).embed(["x"]));
    expect(err.message).toContain("HTTP 400: exceeded the max");
  });
});

describe("openai provider: retries", () => {
  it("retries a 500 and succeeds", async () => {
    server.faults.push({ kind: "status", status: 500 }, { kind: "status", status: 503 });
    const batch = await provider().embed(["a b"]);
    expect(server.requests).toHaveLength(3);
    expect(Array.from(batch.vectors[0]!)).toEqual(fakeVector("a b"));
  });

  it("gives up after max_retries, with the count and the last error", async () => {
    server.faults.push(...Array.from({ length: 5 }, () => ({ kind: "status" as const, status: 502, message: "bad gateway" })));
    const err = await evalErrorOf(provider({ max_retries: 2 }).embed(["x"]));
    expect(server.requests).toHaveLength(3);
    expect(err.message).toContain("gave up after 3 attempts; last: HTTP 502: bad gateway");
  });

  it("max_retries 0: one attempt", async () => {
    server.faults.push({ kind: "status", status: 500 });
    const err = await evalErrorOf(provider({ max_retries: 0 }).embed(["x"]));
    expect(server.requests).toHaveLength(1);
    expect(err.message).toMatch(/HTTP 500: fault 500 \(server_error\)$/);
  });

  it("honours Retry-After in seconds: the retry does not arrive earlier", async () => {
    server.faults.push({ kind: "status", status: 429, headers: { "retry-after": "1" }, message: "Rate limit reached" });
    await provider().embed(["x"]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(1000);
  });

  it("honours retry-after-ms first", async () => {
    server.faults.push({ kind: "status", status: 429, headers: { "retry-after-ms": "150", "retry-after": "30" } });
    await provider().embed(["x"]);
    const gap = server.requests[1]!.at - server.requests[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(150);
    expect(gap).toBeLessThan(5000);
  });

  it("tells a person watching why it waits before a retry, when the wait is long, without the key", async () => {
    server.faults.push({ kind: "status", status: 429, headers: { "retry-after-ms": "60" }, message: `slow down ${KEY}` }, { kind: "status", status: 503 });
    const notices: string[] = [];
    await provider({}, { ...fast, env: { OPENAI_API_KEY: KEY }, notice: (m) => notices.push(m), noticeWaitMs: 50 }).embed(["x"]);
    expect(server.requests).toHaveLength(3);
    // The 503's backoff (fast: a few ms) is below the notice wait: only the 429's wait is told.
    expect(notices).toEqual(["openai: HTTP 429: slow down [redacted] (server_error); retrying in 0.06 s as the server asks (retry 1 of 5)"]);
  });

  it("gives up at once on a Retry-After longer than it waits, naming both", async () => {
    server.faults.push({ kind: "status", status: 429, headers: { "retry-after": "3600" }, message: "quota exceeded" });
    const started = Date.now();
    const err = await evalErrorOf(provider({}, { ...fast, retryAfterCapMs: 50 }).embed(["x"]));
    expect(server.requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(err.code).toBe("PROVIDER_FAILED");
    expect(err.message).toContain("HTTP 429: quota exceeded");
    expect(err.message).toContain("the server asks to wait 3,600 s before retrying, longer than the 0.05 s simeval waits, so it gave up");
  });

  it("fails at once on another 4xx, with the server's message", async () => {
    server.faults.push({ kind: "status", status: 404, body: JSON.stringify({ error: { message: "The model `nope` does not exist", type: "invalid_request_error", code: "model_not_found" } }) });
    const err = await evalErrorOf(provider({ model: "nope" }).embed(["x"]));
    expect(server.requests).toHaveLength(1);
    expect(err.message).toContain("HTTP 404: The model `nope` does not exist (invalid_request_error, model_not_found)");
    expect(err.message).toContain(`POST ${server.url}/embeddings (model nope)`);
  });

  it("marks a 400 as an input rejection (for the batcher), a 401 or 500 not", async () => {
    server.refuse = (t) => t === "too long";
    const err = await evalErrorOf(provider().embed(["too long"]));
    expect((err as EvalError & { inputRejected: boolean }).inputRejected).toBe(true);
    server.faults.push({ kind: "status", status: 500 });
    const err500 = await evalErrorOf(provider({ max_retries: 0 }).embed(["x"]));
    expect((err500 as EvalError & { inputRejected: boolean }).inputRejected).toBe(false);
  });

  it("a response that hangs times out and is retried", async () => {
    server.faults.push({ kind: "hang" });
    const batch = await provider({ timeout_ms: 200 }).embed(["x"]);
    expect(server.requests).toHaveLength(2);
    expect(batch.vectors).toHaveLength(1);
  });

  it("a timeout on the last attempt names the limit", async () => {
    server.faults.push({ kind: "hang" });
    const err = await evalErrorOf(provider({ timeout_ms: 100, max_retries: 0 }).embed(["x"]));
    expect(err.message).toContain("no complete response within 100 ms (timeout_ms)");
  });

  it("a connection dropped mid-body is a network error, retried", async () => {
    server.faults.push({ kind: "drop" });
    await provider().embed(["x"]);
    expect(server.requests).toHaveLength(2);
  });

  it("an unreachable server: a network error after the retries", async () => {
    const url = server.url;
    await server.close();
    const err = await evalErrorOf(createOpenAIProvider(parseOpenAIOptions({ base_url: url, max_retries: 1 }), fast).embed(["x"]));
    expect(err.message).toMatch(/gave up after 2 attempts; last: network error: fetch failed: .*ECONNREFUSED/);
    server = await startFakeOpenAI();
  });

  it("the caller's abort stops at once, without retrying", async () => {
    server.faults.push({ kind: "hang" });
    const ac = new AbortController();
    const pending = provider().embed(["x"], ac.signal);
    setTimeout(() => ac.abort(new Error("stopped by the caller")), 50);
    await expect(pending).rejects.toThrow("stopped by the caller");
    expect(server.requests).toHaveLength(1);
  });
});

describe("openai provider: malformed responses name what was wrong", () => {
  const cases: [string, Parameters<FakeOpenAI["faults"]["push"]>[0], RegExp][] = [
    ["truncated JSON", { kind: "truncate" }, /malformed response: the response is not valid JSON \(truncated\?\)/],
    ["a vector one number short", { kind: "wrong_length" }, /malformed response: the vectors differ in length: data\[0\]\.embedding has 64 numbers, data\[1\]\.embedding has 63/],
    ["a missing embedding", { kind: "wrong_count" }, /malformed response: "data" has 1 embeddings for 2 input texts/],
    ["an index out of range", { kind: "bad_index" }, /malformed response: data\[1\]\.index is 2, out of range for 2 input texts/],
    ["a string in a vector", { kind: "not_numbers" }, /malformed response: data\[1\]\.embedding\[1\] is string "x", expected a finite number/],
    ["no data", { kind: "no_data" }, /malformed response: the response has no "data" array \(keys: object, model\)/],
    ["not an object", { kind: "raw", body: "[1,2]" }, /malformed response: the response is array of 2, expected an object/],
    ["base64", { kind: "raw", body: JSON.stringify({ data: [{ index: 0, embedding: "AAAA" }, { index: 1, embedding: "AAAA" }] }) }, /data\[0\]\.embedding is a string \(base64\?\)/],
  ];
  it.each(cases)("%s", async (_, fault, message) => {
    server.faults.push(fault);
    const err = await evalErrorOf(provider().embed(["one", "two"]));
    expect(err.message).toMatch(message);
    // Deterministic faults are not retried.
    expect(server.requests).toHaveLength(1);
  });

  it("vectors not of the requested dimensions", async () => {
    server.faults.push({ kind: "raw", body: JSON.stringify({ data: [{ index: 0, embedding: [1, 2, 3] }] }) });
    const err = await evalErrorOf(provider({ dimensions: 8 }).embed(["x"]));
    expect(err.message).toContain('data[0].embedding has 3 numbers, expected 8 (the "dimensions" asked for)');
  });
});

describe("parseOpenAIOptions", () => {
  it("applies the defaults", () => {
    expect(parseOpenAIOptions({})).toEqual({
      model: "text-embedding-3-small",
      base_url: "https://api.openai.com/v1",
      api_key_env: "OPENAI_API_KEY",
      batch_size: 64,
      concurrency: 4,
      timeout_ms: 30000,
      max_retries: 5,
    });
  });

  it("accepts a timeout_ms up to the longest delay a timer keeps, 2^31 - 1 ms, and refuses one above, naming it", () => {
    expect(parseOpenAIOptions({ timeout_ms: 2_147_483_647 }).timeout_ms).toBe(2_147_483_647);
    for (const timeout_ms of [2_147_483_648, 3_000_000_000, 1e10]) {
      expect(() => parseOpenAIOptions({ timeout_ms })).toThrow(/openai: timeout_ms: /);
    }
  });

  it("rejects bad values and unknown keys, listing each", () => {
    let err: unknown;
    try {
      parseOpenAIOptions({ batch_size: 0, base_url: "ftp://x", bogus: 1 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EvalError);
    expect((err as EvalError).issues.map((i) => i.path.join("."))).toEqual(expect.arrayContaining(["config.batch_size", "config.base_url", "config"]));
    expect((err as EvalError).message).toContain("bogus");
  });
});

/** A fetch that answers each request with the next of `answers` (a status and a body, and headers), recording nothing. */
function answering(...answers: { status?: number; body: string; headers?: Record<string, string> }[]): typeof fetch {
  return (async () => {
    const next = answers.shift();
    if (next === undefined) throw new Error("no more answers");
    return new Response(next.body, { status: next.status ?? 200, headers: next.headers ?? {} });
  }) as typeof fetch;
}

const vectors = (n: number, usage?: unknown) => JSON.stringify({ data: Array.from({ length: n }, (_, index) => ({ index, embedding: [1, index] })), ...(usage === undefined ? {} : { usage }) });

function local(options: Record<string, unknown>, tuning: OpenAITuning) {
  return createOpenAIProvider(parseOpenAIOptions({ base_url: "http://127.0.0.1:9/v1", ...options }), { ...fast, ...tuning });
}

describe("openai provider: answers told apart (fake fetch)", () => {
  it("marks a 422 as an input rejection", async () => {
    const err = await evalErrorOf(local({}, { fetch: answering({ status: 422, body: "{}" }) }).embed(["x"]));
    expect((err as EvalError & { inputRejected: boolean }).inputRejected).toBe(true);
  });

  it("masks a key of exactly 8 characters", async () => {
    const err = await evalErrorOf(local({}, { env: { OPENAI_API_KEY: "k2345678" }, fetch: answering({ status: 400, body: "bad key k2345678" }) }).embed(["x"]));
    expect(err.message).toContain("HTTP 400: bad key [redacted]");
  });

  it("marks a failure that may pass later transient (429, 5xx, network, a Retry-After past its wait), and a refusal not", async () => {
    const failing = (tuning: OpenAITuning) => evalErrorOf(local({ max_retries: 0 }, tuning).embed(["x"]));
    const offline = (async () => Promise.reject(new TypeError("fetch failed"))) as typeof fetch;
    expect((await failing({ fetch: answering({ status: 429, body: "Rate limit reached" }) })).transient).toBe(true);
    expect((await failing({ fetch: answering({ status: 503, body: "down" }) })).transient).toBe(true);
    expect((await failing({ fetch: offline })).transient).toBe(true);
    expect((await evalErrorOf(local({}, { retryAfterCapMs: 50, fetch: answering({ status: 429, body: "quota", headers: { "retry-after": "3600" } }) }).embed(["x"]))).transient).toBe(true);
    for (const status of [400, 401, 404, 422]) expect((await failing({ fetch: answering({ status, body: "no" }) })).transient).toBe(false);
    expect((await failing({ fetch: answering({ status: 200, body: "not json" }) })).transient).toBe(false);
  });

  it("with max_retries 0, a retryable failure does not say it gave up after attempts", async () => {
    const err = await evalErrorOf(local({ max_retries: 0 }, { fetch: answering({ status: 500, body: "down" }) }).embed(["x"]));
    expect(err.message).toMatch(/\): HTTP 500: down$/);
  });

  it("waits a Retry-After equal to the longest wait it accepts, and tells of a wait equal to the notice wait", async () => {
    const notices: string[] = [];
    const p = local({}, { retryAfterCapMs: 0, noticeWaitMs: 0, notice: (m) => notices.push(m), fetch: answering({ status: 429, body: "slow", headers: { "retry-after": "0" } }, { body: vectors(1) }) });
    expect((await p.embed(["x"])).vectors).toHaveLength(1);
    expect(notices).toEqual(["openai: HTTP 429: slow; retrying in 0 s as the server asks (retry 1 of 5)"]);
  });

  it("counts prompt_tokens as the total where the server gives no total_tokens", async () => {
    const batch = await local({}, { fetch: answering({ body: vectors(1, { prompt_tokens: 7 }) }) }).embed(["x"]);
    expect(batch.usage).toEqual({ prompt_tokens: 7, total_tokens: 7 });
  });

  it("gives no usage when one of its requests reported none (a partial sum would undercount)", async () => {
    const batch = await local({ batch_size: 1 }, { fetch: answering({ body: vectors(1, { prompt_tokens: 7, total_tokens: 7 }) }, { body: vectors(1) }) }).embed(["x", "y"]);
    expect(batch.vectors).toHaveLength(2);
    expect(batch.usage).toBeUndefined();
  });

  it("names the server's message: an \"error\" string, or the raw text cut to 300 characters", async () => {
    const asString = await evalErrorOf(local({}, { fetch: answering({ status: 400, body: JSON.stringify({ error: "input too long" }) }) }).embed(["x"]));
    expect(asString.message).toMatch(/HTTP 400: input too long$/);
    const raw = `<html>${"x".repeat(400)}</html>`;
    const cut = await evalErrorOf(local({}, { fetch: answering({ status: 400, body: raw }) }).embed(["x"]));
    expect(cut.message).toMatch(new RegExp(`HTTP 400: ${raw.slice(0, 300)}…$`));
  });

  it("names a network error's cause, and its code only where the cause's message does not hold it", async () => {
    const failing = (cause: Error): typeof fetch => (async () => {
      throw new TypeError("fetch failed", { cause });
    }) as typeof fetch;
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
    const err = await evalErrorOf(local({ max_retries: 0 }, { fetch: failing(refused) }).embed(["x"]));
    expect(err.message).toMatch(/network error: fetch failed: connect ECONNREFUSED 127\.0\.0\.1:9$/);
    const reset = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
    const err2 = await evalErrorOf(local({ max_retries: 0 }, { fetch: failing(reset) }).embed(["x"]));
    expect(err2.message).toMatch(/network error: fetch failed: other side closed \(UND_ERR_SOCKET\)$/);
  });
});
