import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeTokens, fakeVector, startFakeOpenAI, type FakeOpenAI } from "../../test/openai-server.js";
import type { EmbeddingProvider } from "../embeddings/provider.js";
import { builtinEmbeddingProviders } from "../embeddings/registry.js";
import { sqliteEmbeddingCache } from "../embeddings/sqlite-cache.js";
import { EvalError } from "../errors.js";
import { cosineSimilarity } from "../metrics/cosine.js";
import { openSqliteStore } from "../storage/sqlite.js";
import { createEvaluator, createEvaluators, type Evaluator } from "./create.js";
import { evalErrorOf, thrownEvalError } from "../test-support.js";

function issuesOf(f: () => unknown): EvalError {
  try {
    f();
  } catch (e) {
    if (e instanceof EvalError) return e;
    throw e;
  }
  throw new Error("expected an EvalError");
}

/** A deterministic provider for tests: a bag-of-letters vector, so cosine is easy to compute by hand. */
function letterProvider(calls: string[][]): EmbeddingProvider {
  return {
    name: "letters",
    model: "letters-26",
    async embed(texts) {
      calls.push([...texts]);
      return {
        vectors: texts.map((t) => {
          const v = new Array<number>(26).fill(0);
          for (const ch of t.toLowerCase()) {
            const i = ch.charCodeAt(0) - 97;
            if (i >= 0 && i < 26) v[i] = (v[i] ?? 0) + 1;
          }
          return v;
        }),
        usage: { prompt_tokens: texts.length, total_tokens: texts.length },
      };
    },
  };
}

describe("semantic_similarity", () => {
  it("scores the cosine of the provider's embeddings and reports usage", async () => {
    const calls: string[][] = [];
    const e = createEvaluator({ type: "semantic_similarity", config: { provider: "letters", threshold: 0.5 } }, { embeddingProviders: { letters: () => letterProvider(calls) } });
    const r = await e.evaluate({ output: "ab", expected: "ac" });
    expect(r.score).toBeCloseTo(0.5, 12);
    expect(r.passed).toBe(true);
    expect(r.details).toMatchObject({ provider: "letters", model: "letters-26", dimensions: 26, usage: { total_tokens: 2 } });
    expect(calls).toEqual([["ab", "ac"]]);
  });

  it("scores on when the embedding cache fails, and tells env.notice so once, as a warning", async () => {
    const notices: string[] = [];
    const embeddingCache = {
      key: (text: string) => text,
      get: () => {
        throw new Error("disk I/O error");
      },
      put: () => {
        throw new Error("disk I/O error");
      },
    };
    const e = createEvaluator({ type: "semantic_similarity", config: { provider: "letters" } }, { embeddingProviders: { letters: () => letterProvider([]) }, embeddingCache, notice: (m) => notices.push(m) });
    expect((await e.evaluate({ output: "ab", expected: "ac" })).score).toBeCloseTo(0.5, 12);
    expect((await e.evaluate({ output: "ab", expected: "ad" })).score).toBeCloseTo(0.5, 12);
    expect(notices).toEqual([expect.stringMatching(/^warning: letters embeddings: the embedding cache failed \(disk I\/O error\); texts are embedded all the same/)]);
  });

  it("says when a text's embedding is all zeros: the cosine is 0 by convention, not measured", async () => {
    const e = createEvaluator({ type: "semantic_similarity", config: { provider: "letters", threshold: 0.5 } }, { embeddingProviders: { letters: () => letterProvider([]) } });
    const r = await e.evaluate({ output: "123", expected: "456" });
    expect(r.score).toBe(0);
    expect(r.reasoning).toBe("The output and the expected output have an all-zero embedding (the model gave no direction), so the cosine is 0 by convention: 0.0000; below the threshold 0.5.");
    expect(r.details).toMatchObject({ zero_vector: ["output", "expected"] });
    expect((await e.evaluate({ output: "ab", expected: "ac" })).details).not.toHaveProperty("zero_vector");
  });

  it("no threshold: no verdict; identical or empty texts need no call", async () => {
    const calls: string[][] = [];
    const e = createEvaluator({ type: "semantic_similarity", config: { provider: "letters" } }, { embeddingProviders: { letters: () => letterProvider(calls) } });
    expect((await e.evaluate({ output: "ab", expected: "ba" })).passed).toBeNull();
    expect((await e.evaluate({ output: "same", expected: "same" })).score).toBe(1);
    expect((await e.evaluate({ output: "", expected: "x" })).score).toBe(0);
    expect(calls).toHaveLength(1);
  });

  it("two evaluators created together on the same provider and options share its requests: a text both ask for is sent and billed once", async () => {
    const calls: string[][] = [];
    let made = 0;
    const env = { embeddingProviders: { letters: () => (made++, letterProvider(calls)) } };
    const [raw, rescaled, other] = createEvaluators(
      [
        { type: "semantic_similarity", name: "raw", config: { provider: "letters" } },
        { type: "semantic_similarity", name: "rescaled", config: { provider: "letters", rescale: { from: 0.5 }, threshold: 0.1 } },
        { type: "semantic_similarity", name: "other_model", config: { provider: "letters", model: "m2" } },
      ],
      env,
    ) as [Evaluator, Evaluator, Evaluator];
    expect(made).toBe(2);
    const record = { output: "ab", expected: "ac" };
    const [a, b] = await Promise.all([raw.evaluate(record), rescaled.evaluate(record)]);
    expect(calls).toEqual([["ab", "ac"]]);
    expect(a.score).toBeCloseTo(0.5, 12);
    expect(b.score).toBeCloseTo(0, 12);
    // The two texts' 2 tokens, split between the two evaluators that asked for them.
    expect([a.details["usage"], b.details["usage"]]).toEqual([{ prompt_tokens: 1, total_tokens: 1 }, { prompt_tokens: 1, total_tokens: 1 }]);
    await other.evaluate(record);
    expect(calls).toEqual([["ab", "ac"], ["ab", "ac"]]);
    // Another createEvaluators call, even with the same env (another run), has its own provider.
    createEvaluators([{ type: "semantic_similarity", config: { provider: "letters" } }], env);
    expect(made).toBe(3);
  });

  it("shares a provider only between evaluators of one createEvaluators call that name the same provider", () => {
    const made: string[] = [];
    const env = { embeddingProviders: { letters: () => (made.push("letters"), letterProvider([])), other: () => (made.push("other"), letterProvider([])) } };
    // Two providers given the same options (none) are two providers.
    createEvaluators([{ type: "semantic_similarity", config: { provider: "letters" } }, { type: "semantic_similarity", name: "o", config: { provider: "other" } }], env);
    expect(made).toEqual(["letters", "other"]);
    // Each createEvaluator call, with the same env, has its own.
    createEvaluator({ type: "semantic_similarity", config: { provider: "letters" } }, env);
    createEvaluator({ type: "semantic_similarity", config: { provider: "letters" } }, env);
    expect(made).toEqual(["letters", "other", "letters", "letters"]);
  });

  it("the model is passed to the factory", () => {
    let seen: unknown;
    createEvaluator({ type: "semantic_similarity", config: { provider: "letters", model: "m1" } }, { embeddingProviders: { letters: (o) => ((seen = o), letterProvider([])) } });
    expect(seen).toEqual({ model: "m1" });
  });
});

describe("semantic_similarity: rescale and threshold", () => {
  const env = { embeddingProviders: { letters: () => letterProvider([]) } };
  // "ab" vs "ac": cosine 0.5; "ab" vs "cd": cosine 0; "abc" vs "abd": cosine 2/3.
  const cases: [string, number, { from: number } | undefined, number][] = [
    ["ab|ac", 0.5, undefined, 0.5],
    ["ab|ac", 0.5, { from: 0 }, 0.5],
    ["ab|ac", 0.5, { from: -1 }, 0.75],
    ["ab|ac", 0.5, { from: 0.5 }, 0],
    ["ab|cd", 0, { from: 0.7 }, 0], // below `from`: clamped to 0
    ["abc|abd", 2 / 3, { from: 0.5 }, 1 / 3],
    ["same|same", 1, { from: 0.7 }, 1],
  ];
  it.each(cases)("%s: cosine %d, rescale %j -> score %d", async (pair, cosine, rescale, score) => {
    const [output, expected] = pair.split("|") as [string, string];
    const e = createEvaluator({ type: "semantic_similarity", config: { provider: "letters", ...(rescale ? { rescale } : {}) } }, env);
    const r = await e.evaluate({ output, expected });
    expect(r.score).toBeCloseTo(score, 6);
    expect(r.details["cosine"]).toBeCloseTo(cosine, 6);
    expect(r.details["score"]).toBe(r.score);
    if (rescale) expect(r.details["rescale"]).toEqual(rescale);
  });

  it("the threshold decides on the displayed (rescaled) score, not the cosine", async () => {
    const make = (threshold: number) =>
      createEvaluator({ type: "semantic_similarity", config: { provider: "letters", rescale: { from: 0.5 }, threshold } }, env);
    // "abc" vs "abd": cosine 0.667 would pass 0.6, but the score is 0.333.
    const r = await make(0.6).evaluate({ output: "abc", expected: "abd" });
    expect(r.passed).toBe(false);
    expect(r.reasoning).toContain("0.6667, rescaled from [0.5, 1] to 0.3333; below the threshold 0.6");
    expect((await make(0.333).evaluate({ output: "abc", expected: "abd" })).passed).toBe(true);
    // An empty text: cosine 0, rescaled and compared the same way.
    const empty = await make(0).evaluate({ output: "", expected: "abd" });
    expect([empty.score, empty.passed]).toEqual([0, true]);
  });

  it("rejects a rescale `from` outside [-1, 1) and unknown keys inside it", () => {
    for (const rescale of [{ from: 1 }, { from: -1.5 }, { from: 0.5, to: 1 }, {}]) {
      expect(() => createEvaluator({ type: "semantic_similarity", config: { provider: "letters", rescale } }, env)).toThrow(/rescale/);
    }
  });

  it("names a problem inside rescale at its place, with what that place takes: from's range, rescale's own keys", () => {
    const problem = (rescale: unknown) => {
      const e = thrownEvalError(() => createEvaluator({ type: "semantic_similarity", config: { provider: "letters", rescale } }, env));
      expect(e.issues).toHaveLength(1);
      return e.issues[0];
    };
    expect(problem({ from: 1 })).toMatchObject({ path: ["config", "rescale", "from"], expected: "a number in [-1, 1)", received: "number 1" });
    expect(problem({ from: 1 })?.message).toContain("invalid config.rescale.from: expected a number in [-1, 1), received number 1");
    expect(problem({})).toMatchObject({ path: ["config", "rescale", "from"], expected: "a number in [-1, 1)", received: "nothing" });
    // It was "unknown config key "to"" at config.to, listing the config's keys (threshold, provider, …).
    expect(problem({ from: 0.5, to: 1 })).toMatchObject({ path: ["config", "rescale", "to"], received: "to" });
    expect(problem({ from: 0.5, to: 1 })?.message).toContain('unknown key "to" in config.rescale; known keys: from.');
  });
});

describe("semantic_similarity: provider config", () => {
  const env = { embeddingProviders: { letters: () => letterProvider([]), ...builtinEmbeddingProviders } };

  it("accepts every built-in provider's keys in its schema, and passes the chosen provider's keys to it", () => {
    let seen: unknown;
    createEvaluator(
      { type: "semantic_similarity", config: { provider: "openai", model: "m", base_url: "http://127.0.0.1:9/v1", batch_size: 8 } },
      { embeddingProviders: { openai: (o) => ((seen = o), letterProvider([])) } },
    );
    expect(seen).toEqual({ model: "m", base_url: "http://127.0.0.1:9/v1", batch_size: 8 });
  });

  it("a key of another provider is an error naming the key, its provider and the chosen one; all at once", () => {
    const e = issuesOf(() => createEvaluator({ type: "semantic_similarity", config: { provider: "letters", batch_size: 8, api_key_env: "K" } }, env));
    expect(e.code).toBe("CONFIG_INVALID");
    expect(e.issues.map((i) => i.path)).toEqual([["config", "api_key_env"], ["config", "batch_size"]]);
    expect(e.message).toContain('"batch_size" is an option of the "openai", "transformers" providers, not of the chosen provider "letters"');
    expect(e.message).toContain('"api_key_env" is an option of the "openai" provider');
    expect(e.message).toContain("(2 problems)");
  });

  it("a key of another provider than a built-in one chosen is named with the spec's other problems, not once they are fixed", () => {
    const e = issuesOf(() => createEvaluator({ type: "semantic_similarity", config: { threshold: 2, provider: "word_vectors", base_url: "http://127.0.0.1:9/v1" } }));
    expect(e.issues.map((i) => i.path.join("."))).toEqual(["config.threshold", "config.base_url"]);
    expect(e.message).toContain('"base_url" is an option of the "openai" provider, not of the chosen provider "word_vectors"');
  });

  it("an unknown provider lists the available ones, together with other problems", () => {
    const e = issuesOf(() => createEvaluator({ type: "semantic_similarity", config: { provider: "nope", timeout_ms: 5 } }, env));
    expect(e.issues).toHaveLength(2);
    expect(e.message).toContain('embedding provider "nope" is not available; available: letters, openai');
    expect(e.message).toContain('"timeout_ms" is an option of the "openai" provider');
  });

  it("a provider name one typo away from an available one suggests it, as an unknown type does (word_vector, OpenAI)", () => {
    const builtin = { embeddingProviders: builtinEmbeddingProviders };
    const e = issuesOf(() => createEvaluator({ type: "semantic_similarity", config: { provider: "word_vector" } }, builtin));
    expect(e.message).toContain('embedding provider "word_vector" is not available; available: openai, word_vectors, transformers. Did you mean "word_vectors"?');
    expect(issuesOf(() => createEvaluator({ type: "semantic_similarity", config: { provider: "OpenAI" } }, builtin)).message).toContain('Did you mean "openai"?');
    expect(issuesOf(() => createEvaluator({ type: "semantic_similarity", config: { provider: "nope" } }, env)).message).not.toContain("Did you mean");
  });

  it("a provider named as a method of every object (constructor, toString, __proto__) is not available, where it made a provider that threw a TypeError", () => {
    for (const provider of ["constructor", "toString", "hasOwnProperty", "__proto__"]) {
      const e = issuesOf(() => createEvaluator({ type: "semantic_similarity", config: { provider } }, env));
      expect(e.code).toBe("CONFIG_INVALID");
      expect(e.issues.map((i) => i.path)).toEqual([["config", "provider"]]);
      expect(e.message).toContain(`embedding provider "${provider}" is not available; available: letters, openai`);
    }
  });

  it("a bad value of a provider key is reported by the spec validation, with its expected type", () => {
    const e = issuesOf(() => createEvaluator({ type: "semantic_similarity", config: { provider: "openai", batch_size: 0 } }, env));
    expect(e.message).toContain("invalid config.batch_size: expected an integer in [1, 2048], received number 0");
  });

  it("a factory of one's own that gives no provider is refused at creation, naming it (was a TypeError there, or on every row)", () => {
    const made = (provider: unknown) => () => provider as EmbeddingProvider;
    const cases: [unknown, string][] = [
      [null, 'could not create embedding provider "mine": its factory returned null, not an embedding provider { name, model, embed }'],
      [{ name: "mine", model: "m" }, "its factory returned a provider whose embed is nothing, not a function"],
      [{ name: "mine", model: 5, embed: async () => ({ vectors: [] }) }, "its factory returned a provider whose model is number 5, not a non-empty string"],
      [{ model: "m", embed: async () => ({ vectors: [] }) }, "its factory returned a provider whose name is nothing, not a non-empty string"],
    ];
    for (const [provider, message] of cases) {
      const e = thrownEvalError(() => createEvaluator({ type: "semantic_similarity", config: { provider: "mine" } }, { embeddingProviders: { mine: made(provider) } }));
      expect(e.code).toBe("CONFIG_INVALID");
      expect(e.message).toContain(message);
      expect(e.issues[0]?.path).toEqual(["config", "provider"]);
    }
  });

  it("a factory of one's own is held to a whole provider: not a string, an embed that is no function, an empty name or model", () => {
    const embed = async () => ({ vectors: [] });
    const cases: [unknown, string][] = [
      ["mine", 'its factory returned string "mine", not an embedding provider { name, model, embed }'],
      [{ name: "mine", model: "m", embed: "openai" }, 'its factory returned a provider whose embed is string "openai", not a function (texts) => Promise<{ vectors }>'],
      [{ name: "", model: "m", embed }, 'its factory returned a provider whose name is string "", not a non-empty string'],
      [{ name: "mine", model: "", embed }, 'its factory returned a provider whose model is string "", not a non-empty string'],
    ];
    for (const [provider, message] of cases) {
      const e = thrownEvalError(() => createEvaluator({ type: "semantic_similarity", config: { provider: "mine" } }, { embeddingProviders: { mine: () => provider as EmbeddingProvider } }));
      expect(e.code).toBe("CONFIG_INVALID");
      expect(e.message).toContain(`could not create embedding provider "mine": ${message}\n`);
    }
  });

  it("the error a factory of one's own throws is the cause of createEvaluator's and createEvaluators' CONFIG_INVALID (its stack was lost)", () => {
    const boom = new Error("no model file at /models/x");
    const env = { embeddingProviders: { mine: (): EmbeddingProvider => { throw boom; } } };
    const spec = { type: "semantic_similarity", config: { provider: "mine" } };
    const one = thrownEvalError(() => createEvaluator(spec, env));
    expect(one.message).toContain('could not create embedding provider "mine": no model file at /models/x');
    expect(one.cause).toBe(boom);
    const several = thrownEvalError(() => createEvaluators([{ type: "exact_match" }, { ...spec, name: "s1" }, { ...spec, name: "s2" }], env));
    expect(several.issues).toHaveLength(2);
    expect(several.cause).toBe(boom);
    // A problem with no error behind it has no cause.
    expect(thrownEvalError(() => createEvaluator({ type: "exact_match", config: { threshold: 2 } })).cause).toBeUndefined();
  });

  it("openai against api.openai.com without the key variable: an error at creation naming it", () => {
    vi.stubEnv("SIMEVAL_TEST_NO_KEY", "");
    try {
      const e = issuesOf(() => createEvaluator({ type: "semantic_similarity", config: { api_key_env: "SIMEVAL_TEST_NO_KEY" } }, env));
      expect(e.message).toContain("SIMEVAL_TEST_NO_KEY is not set");
      expect(e.issues[0]?.path).toEqual(["config", "api_key_env"]);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("semantic_similarity over the OpenAI contract (loopback server)", () => {
  const KEY = "sk-e2e-DO-NOT-LEAK-42";
  let server: FakeOpenAI;
  beforeEach(async () => {
    server = await startFakeOpenAI();
    vi.stubEnv("SIMEVAL_E2E_KEY", KEY);
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await server.close();
  });
  const spec = (extra: Record<string, unknown> = {}) => ({
    type: "semantic_similarity",
    config: { provider: "openai", base_url: server.url, api_key_env: "SIMEVAL_E2E_KEY", ...extra },
  });
  const cosine = (a: string, b: string) => cosineSimilarity(Float32Array.from(fakeVector(a)), Float32Array.from(fakeVector(b)));

  it("batches concurrent rows, bounds concurrency, reports usage per row, and a second run is served from the cache", async () => {
    server.delayMs = 20;
    const store = openSqliteStore(":memory:");
    try {
      const env = { embeddingProviders: builtinEmbeddingProviders, embeddingCache: sqliteEmbeddingCache(store) };
      const reference = "the refund was issued to the original card";
      const records = Array.from({ length: 30 }, (_, i) => ({ output: `refund number ${i} went to the card`, expected: reference }));
      const e = createEvaluator(spec({ batch_size: 8, concurrency: 2 }), env);
      const results = await Promise.all(records.map((r) => e.evaluate(r)));
      // 31 distinct texts in requests of 8: 4 requests, never more than 2 at once.
      expect(server.requests.map((r) => r.body.input.length).sort()).toEqual([7, 8, 8, 8]);
      expect(server.maxConcurrent).toBe(2);
      expect(server.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
      results.forEach((r, i) => expect(r.score).toBeCloseTo(cosine(records[i]!.output, reference), 6));
      const billed = server.requests.reduce((n, r) => n + r.body.input.reduce((m, t) => m + fakeTokens(t), 0), 0);
      const reported = results.reduce((n, r) => n + ((r.details["usage"] as { total_tokens: number }).total_tokens ?? 0), 0);
      expect(reported).toBeCloseTo(billed, 0);
      expect(JSON.stringify(results)).not.toContain(KEY);

      const again = createEvaluator(spec({ batch_size: 8, concurrency: 2 }), env);
      const second = await Promise.all(records.map((r) => again.evaluate(r)));
      expect(server.requests).toHaveLength(4);
      expect(second.map((r) => r.score)).toEqual(results.map((r) => r.score));
      expect(second[0]!.details["usage"]).toBeUndefined();
    } finally {
      store.closeNow();
    }
  });

  it("the cache is keyed by dimensions too: another `dimensions` embeds again", async () => {
    const store = openSqliteStore(":memory:");
    try {
      const env = { embeddingProviders: builtinEmbeddingProviders, embeddingCache: sqliteEmbeddingCache(store) };
      await createEvaluator(spec({ dimensions: 16 }), env).evaluate({ output: "a b", expected: "c d" });
      await createEvaluator(spec({ dimensions: 16 }), env).evaluate({ output: "a b", expected: "c d" });
      expect(server.requests).toHaveLength(1);
      const r = await createEvaluator(spec({ dimensions: 32 }), env).evaluate({ output: "a b", expected: "c d" });
      expect(server.requests).toHaveLength(2);
      expect(r.details["dimensions"]).toBe(32);
    } finally {
      store.closeNow();
    }
  });

  it("a provider failure rejects the row with PROVIDER_FAILED, without the key", async () => {
    server.expectKey = "another-key";
    const e = createEvaluator(spec(), { embeddingProviders: builtinEmbeddingProviders });
    const err = await evalErrorOf(e.evaluate({ output: "a", expected: "b" }));
    expect(err.code).toBe("PROVIDER_FAILED");
    expect(err.message).toContain("HTTP 401");
    expect(err.message).not.toContain(KEY);
  });
});
