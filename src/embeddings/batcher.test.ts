import { describe, expect, it } from "vitest";
import { EvalError } from "../errors.js";
import { EmbeddingBatcher, isInputRejection, type BatchingHints } from "./batcher.js";
import { memoryEmbeddingCache, type EmbeddingCache } from "./cache.js";
import type { EmbeddingProvider } from "./provider.js";

interface Recorder {
  calls: string[][];
  maxInFlight: number;
}

/** A local provider: vector = [length, vowels, 1]; usage = 1 token per character; optional delay and refusals. */
function localProvider(opts: { delayMs?: number; refuse?: (t: string) => boolean; hints?: BatchingHints } = {}): EmbeddingProvider & BatchingHints & Recorder {
  let inFlight = 0;
  const p = {
    name: "local",
    model: "m",
    ...opts.hints,
    calls: [] as string[][],
    maxInFlight: 0,
    async embed(texts: readonly string[]) {
      p.calls.push([...texts]);
      inFlight++;
      p.maxInFlight = Math.max(p.maxInFlight, inFlight);
      try {
        if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
        const refused = texts.find((t) => opts.refuse?.(t));
        if (refused !== undefined) throw Object.assign(new EvalError("PROVIDER_FAILED", `refused: ${refused}`), { inputRejected: true });
        const tokens = texts.reduce((n, t) => n + t.length, 0);
        return { vectors: texts.map((t) => [t.length, (t.match(/[aeiou]/g) ?? []).length, 1]), usage: { prompt_tokens: tokens, total_tokens: tokens } };
      } finally {
        inFlight--;
      }
    },
  };
  return p;
}

describe("EmbeddingBatcher", () => {
  it("merges calls of the same tick into ceil(distinct / batchSize) requests, embedding a shared text once", async () => {
    const p = localProvider();
    const b = new EmbeddingBatcher(p, { batchSize: 4 });
    // 10 rows sharing one reference: 11 distinct texts.
    const rows = Array.from({ length: 10 }, (_, i) => b.embed([`output ${i}`, "the reference"]));
    const results = await Promise.all(rows);
    expect(p.calls.map((c) => c.length)).toEqual([4, 4, 3]);
    expect(p.calls.flat().filter((t) => t === "the reference")).toHaveLength(1);
    expect(Array.from(results[3]![0]!.vector)).toEqual([8, 3, 1]); // "output 3": 8 characters, vowels o, u, u
    expect(results[3]![0]!.vector).toBeInstanceOf(Float32Array);
    expect(b.stats).toMatchObject({ requests: 3, embedded: 11 });
  });

  it("keeps at most `concurrency` requests in flight", async () => {
    const p = localProvider({ delayMs: 20 });
    const b = new EmbeddingBatcher(p, { batchSize: 2, concurrency: 3 });
    await Promise.all(Array.from({ length: 20 }, (_, i) => b.embed([`t${i}`])));
    expect(p.calls).toHaveLength(10);
    expect(p.maxInFlight).toBe(3);
  });

  it("takes batch size, concurrency and cache model from the provider's hints; options win", async () => {
    const p = localProvider({ hints: { batchSize: 3, concurrency: 1, cacheModel: "m@3" } });
    const cache = memoryEmbeddingCache();
    const b = new EmbeddingBatcher(p, { cache });
    expect(b.cacheModel).toBe("m@3");
    await Promise.all(["a", "b", "c", "d"].map((t) => b.embed([t])));
    expect(p.calls.map((c) => c.length)).toEqual([3, 1]);
    expect(cache.get("local", "m@3", ["a"]).size).toBe(1);
    const q = localProvider({ hints: { batchSize: 3 } });
    await Promise.all(["a", "b", "c", "d"].map((t) => new EmbeddingBatcher(q, { batchSize: 4 }).embed([t])));
    expect(q.calls.every((c) => c.length === 1)).toBe(true);
  });

  it("a text pending or in flight is joined, not sent again", async () => {
    const p = localProvider({ delayMs: 20 });
    const b = new EmbeddingBatcher(p);
    const first = b.embed(["shared"]);
    await new Promise((r) => setTimeout(r, 5)); // now in flight
    const second = b.embed(["shared", "shared"]);
    await Promise.all([first, second]);
    expect(p.calls).toEqual([["shared"]]);
  });

  it("serves cached texts without a request, and a second run of the same texts makes none", async () => {
    const cache = memoryEmbeddingCache();
    const p = localProvider();
    const texts = ["alpha", "beta", "gamma"];
    const first = await new EmbeddingBatcher(p, { cache }).embed(texts);
    expect(first.map((r) => r.cached)).toEqual([false, false, false]);
    const again = new EmbeddingBatcher(p, { cache });
    const second = await again.embed([...texts, "delta"]);
    expect(p.calls).toEqual([texts, ["delta"]]);
    expect(second.map((r) => r.cached)).toEqual([true, true, true, false]);
    expect(second.map((r) => Array.from(r.vector))).toEqual([...first.map((r) => Array.from(r.vector)), [5, 2, 1]]);
    expect(second[0]!.usage).toBeUndefined();
    expect(again.stats.cacheHits).toBe(3);
  });

  it("splits usage by text length and among the callers of a text: the shares sum to the billed total", async () => {
    const p = localProvider();
    const b = new EmbeddingBatcher(p);
    const [r1, r2] = await Promise.all([b.embed(["aa", "shared text"]), b.embed(["bbbb", "shared text"])]);
    // One request: 2 + 11 + 4 = 17 tokens; "shared text" (11) is split between the two callers.
    expect(p.calls).toHaveLength(1);
    expect(r1![0]!.usage).toEqual({ prompt_tokens: 2, total_tokens: 2 });
    expect(r1![1]!.usage?.total_tokens).toBeCloseTo(5.5, 12);
    const sum = [...r1!, ...r2!].reduce((n, r) => n + (r.usage?.total_tokens ?? 0), 0);
    expect(sum).toBeCloseTo(17, 12);
  });

  it("isolates a refused text by halving: only its callers fail", async () => {
    const p = localProvider({ refuse: (t) => t === "bad" });
    const b = new EmbeddingBatcher(p, { batchSize: 8 });
    const texts = ["t0", "t1", "t2", "bad", "t4", "t5", "t6", "t7"];
    const settled = await Promise.allSettled(texts.map((t) => b.embed([t])));
    expect(settled.map((s) => s.status)).toEqual(texts.map((t) => (t === "bad" ? "rejected" : "fulfilled")));
    expect((settled[3] as PromiseRejectedResult).reason.message).toBe("refused: bad");
    // 8 → halves of 4 (one fails) → halves of 2 (one fails) → halves of 1.
    expect(p.calls.map((c) => c.length)).toEqual([8, 4, 4, 2, 2, 1, 1]);
  });

  it("when both halves are refused too, fails them all after two extra requests", async () => {
    const p = localProvider({ refuse: () => true });
    const b = new EmbeddingBatcher(p, { batchSize: 8 });
    const settled = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => b.embed([`t${i}`])));
    expect(settled.every((s) => s.status === "rejected")).toBe(true);
    expect(p.calls.map((c) => c.length)).toEqual([8, 4, 4]);
  });

  it("another error fails the whole request without splitting", async () => {
    const p = localProvider();
    p.embed = async (texts) => {
      p.calls.push([...texts]);
      throw new EvalError("PROVIDER_FAILED", "HTTP 401");
    };
    const b = new EmbeddingBatcher(p);
    const settled = await Promise.allSettled([b.embed(["a"]), b.embed(["b"])]);
    expect(settled.map((s) => (s.status === "rejected" ? (s.reason as Error).message : "ok"))).toEqual(["HTTP 401", "HTTP 401"]);
    expect(p.calls).toHaveLength(1);
    // Failed texts are forgotten: asking again sends them again.
    await expect(b.embed(["a"])).rejects.toThrow("HTTP 401");
    expect(p.calls).toHaveLength(2);
  });

  it("checks the provider's vectors: count, common length, finite numbers", async () => {
    const cases: [ArrayLike<number>[], RegExp][] = [
      [[[1, 2]], /returned 1 vectors for 2 texts/],
      [[[1, 2], [1]], /vectors of differing lengths: vector 0 has 2, vector 1 has 1/],
      [[[1, 2], [1, Number.NaN]], /non-finite value \(NaN\) at vector 1, element 1/],
      [[[], []], /returned an empty vector/],
    ];
    for (const [vectors, message] of cases) {
      const b = new EmbeddingBatcher({ name: "odd", model: "m", embed: async () => ({ vectors }) });
      await expect(b.embed(["x", "y"])).rejects.toThrow(message);
    }
  });

  it("a provider of one's own that resolves to no batch (null, an array) is PROVIDER_FAILED naming it, not a TypeError of reading it", async () => {
    for (const [batch, said] of [
      [null, "null"],
      [[[1, 2], [3, 4]], "array of 2"],
      // Not an object at all: said as what it is, not as "no vectors".
      [5, "number 5"],
      ["[[1,2],[3,4]]", 'string "[[1,2],[3,4]]"'],
    ] as const) {
      const b = new EmbeddingBatcher({ name: "odd", model: "m", embed: async () => batch as never });
      const err = await b.embed(["x", "y"]).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(EvalError);
      expect((err as EvalError).code).toBe("PROVIDER_FAILED");
      expect((err as EvalError).message).toContain(`embedding provider odd (m) returned ${said} for 2 texts, not { vectors }`);
    }
  });

  it("a provider's usage of the wrong kind is PROVIDER_FAILED naming the field (\"5\" was summed as 5, NaN said as null); a right one is split among the texts", async () => {
    const vectors = [[1, 0], [0, 1]];
    for (const [usage, said] of [
      [{ prompt_tokens: "5" }, 'usage.prompt_tokens string "5", not a number from 0'],
      [{ total_tokens: Number.NaN }, "usage.total_tokens number NaN, not a number from 0"],
      [{ prompt_tokens: -1 }, "usage.prompt_tokens number -1, not a number from 0"],
      [null, "usage null, not { prompt_tokens?, total_tokens? }"],
      [7, "usage number 7, not { prompt_tokens?, total_tokens? }"],
    ] as const) {
      const b = new EmbeddingBatcher({ name: "odd", model: "m", embed: async () => ({ vectors, usage }) as never });
      const err = await b.embed(["x", "y"]).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ code: "PROVIDER_FAILED", message: `embedding provider odd (m) returned ${said}` });
    }
    const b = new EmbeddingBatcher({ name: "ok", model: "m", embed: async () => ({ vectors, usage: { prompt_tokens: 4 } }) });
    expect((await b.embed(["x", "y"])).map((r) => r.usage)).toEqual([{ prompt_tokens: 2 }, { prompt_tokens: 2 }]);
  });

  it("a failing cache is skipped (counted), not fatal", async () => {
    const broken: EmbeddingCache = {
      key: (t) => t,
      get: () => {
        throw new Error("database is locked");
      },
      put: async () => {
        throw new Error("disk full");
      },
    };
    const p = localProvider();
    const notices: string[] = [];
    const b = new EmbeddingBatcher(p, { cache: broken, notice: (m) => notices.push(m) });
    const [r] = await b.embed(["x"]);
    expect(Array.from(r!.vector)).toEqual([1, 0, 1]);
    expect(b.stats).toMatchObject({ cacheErrors: 2, firstCacheError: "database is locked" });
    // Said once, as a warning, whatever failed after.
    await b.embed(["y"]);
    expect(notices).toEqual([
      `warning: ${p.name} embeddings: the embedding cache failed (database is locked); texts are embedded all the same, but the cache may neither serve them nor keep them for a later run (said once)`,
    ]);
  });

  it("with windowMs, texts asked for within the window go in one request", async () => {
    const p = localProvider();
    const b = new EmbeddingBatcher(p, { windowMs: 30 });
    const first = b.embed(["a"]);
    await new Promise((r) => setTimeout(r, 5));
    await Promise.all([first, b.embed(["b"])]);
    expect(p.calls).toEqual([["a", "b"]]);
  });

  it("an empty cacheModel hint falls back to the model", () => {
    expect(new EmbeddingBatcher(localProvider({ hints: { cacheModel: "" } })).cacheModel).toBe("m");
  });

  it("asks the cache for each key once, when texts share a key", async () => {
    const asked: string[][] = [];
    const cache: EmbeddingCache = { key: (t) => t.toLowerCase(), get: (_p, _m, keys) => (asked.push([...keys]), new Map()), put: () => {} };
    await new EmbeddingBatcher(localProvider(), { cache }).embed(["A", "a", "b"]);
    expect(asked).toEqual([["a", "b"]]);
  });

  it("refuses a batch size or concurrency that is not a whole number >= 1", () => {
    for (const opts of [{ batchSize: 1.5 }, { concurrency: 2.5 }, { batchSize: 0 }]) {
      expect(() => new EmbeddingBatcher(localProvider(), opts)).toThrow(/EmbeddingBatcher: (batchSize|concurrency) must be an integer >= 1/);
    }
  });

  it("refuses an infinite number in a vector", async () => {
    const b = new EmbeddingBatcher({ name: "odd", model: "m", embed: async () => ({ vectors: [[1, Number.POSITIVE_INFINITY]] }) });
    await expect(b.embed(["x"])).rejects.toThrow(/non-finite value \(Infinity\) at vector 0, element 1/);
  });

  it("a provider that rejects with nothing fails its texts, rather than leaving them pending", async () => {
    const b = new EmbeddingBatcher({ name: "odd", model: "m", embed: () => Promise.reject(undefined) });
    await expect(b.embed(["x"])).rejects.toThrow("embedding failed");
  });

  it("isInputRejection reads the marker", () => {
    expect(isInputRejection(Object.assign(new Error("x"), { inputRejected: true }))).toBe(true);
    expect(isInputRejection(new Error("x"))).toBe(false);
    expect(isInputRejection(undefined)).toBe(false);
  });
});
