import { describe, expect, it } from "vitest";
import { openSqliteStore } from "../storage/sqlite.js";
import { thrownEvalError } from "../test-support.js";
import { memoryEmbeddingCache } from "./cache.js";
import { sqliteEmbeddingCache, textHash } from "./sqlite-cache.js";

const vec = (...xs: number[]) => Float32Array.from(xs);

describe("memoryEmbeddingCache", () => {
  it("refuses a maxBytes that is not a number >= 0 with CONFIG_INVALID", () => {
    for (const bad of [-1, "x", Number.NaN]) {
      expect(thrownEvalError(() => memoryEmbeddingCache({ maxBytes: bad as number }))).toMatchObject({ code: "CONFIG_INVALID", message: expect.stringContaining("memoryEmbeddingCache: maxBytes must be a number >= 0") });
    }
    expect(thrownEvalError(() => memoryEmbeddingCache({ maxBytes: null as unknown as number })).message).toBe("memoryEmbeddingCache: maxBytes must be a number >= 0, received null");
  });

  it("refuses options that are not an object with CONFIG_INVALID (null threw a TypeError, 5 was read as no options)", () => {
    for (const [bad, received] of [[null, "null"], [5, "number 5"], ["64MB", 'string "64MB"'], [[], "array of 0"]] as const) {
      const e = thrownEvalError(() => memoryEmbeddingCache(bad as never));
      expect(e).toMatchObject({ code: "CONFIG_INVALID", issues: [{ path: ["opts"] }] });
      expect(e.message).toBe(`memoryEmbeddingCache: opts must be an object ({ maxBytes? }) or nothing, received ${received}`);
    }
    expect(memoryEmbeddingCache(undefined).size).toBe(0);
  });

  it("keys by the text and namespaces by provider and model", () => {
    const c = memoryEmbeddingCache();
    expect(c.key("héllo")).toBe("héllo");
    c.put("p", "m", [["a", vec(1, 2)]]);
    expect([...c.get("p", "m", ["a", "b"])]).toEqual([["a", vec(1, 2)]]);
    expect(c.get("p", "m2", ["a"]).size).toBe(0);
    expect(c.get("q", "m", ["a"]).size).toBe(0);
  });

  it("evicts the least recently used entries beyond its byte budget; reading refreshes an entry", () => {
    // Each entry: 4 floats (16 bytes) + 2 bytes per character of "p\0m\0x" (5 chars) = 26 bytes.
    const c = memoryEmbeddingCache({ maxBytes: 80 });
    c.put("p", "m", [["a", vec(1, 1, 1, 1)], ["b", vec(2, 2, 2, 2)], ["c", vec(3, 3, 3, 3)]]);
    expect(c.size).toBe(3);
    expect(c.bytes).toBe(78);
    c.get("p", "m", ["a"]); // a is now the most recent; b the least
    c.put("p", "m", [["d", vec(4, 4, 4, 4)]]);
    expect([...c.get("p", "m", ["a", "b", "c", "d"]).keys()]).toEqual(["a", "c", "d"]);
    expect(c.bytes).toBeLessThanOrEqual(80);
  });

  it("replacing an entry does not count it twice; an entry over the budget is not kept", () => {
    const c = memoryEmbeddingCache({ maxBytes: 40 });
    c.put("p", "m", [["a", vec(1)]]);
    c.put("p", "m", [["a", vec(2)]]);
    expect(c.bytes).toBe(4 + 10);
    expect(c.get("p", "m", ["a"]).get("a")).toEqual(vec(2));
    c.put("p", "m", [["big", new Float32Array(100)]]);
    expect(c.get("p", "m", ["big"]).size).toBe(0);
    expect(c.size).toBe(1);
  });
});

describe("memoryEmbeddingCache, at its edges", () => {
  it("keeps an entry that costs exactly its budget; maxBytes 0 keeps nothing", () => {
    // vec(1): 4 bytes + 2 per character of "p\0m\0a" (5) = 14 bytes.
    const c = memoryEmbeddingCache({ maxBytes: 14 });
    c.put("p", "m", [["a", vec(1)]]);
    expect(c.size).toBe(1);
    const none = memoryEmbeddingCache({ maxBytes: 0 });
    none.put("p", "m", [["a", vec(1)]]);
    expect([none.size, none.bytes]).toEqual([0, 0]);
  });

  it("replacing an entry makes it the most recent", () => {
    const c = memoryEmbeddingCache({ maxBytes: 28 });
    c.put("p", "m", [["a", vec(1)], ["b", vec(2)]]);
    c.put("p", "m", [["a", vec(3)]]); // a is now the most recent; b the least
    c.put("p", "m", [["c", vec(4)]]);
    expect([...c.get("p", "m", ["a", "b", "c"]).keys()]).toEqual(["a", "c"]);
  });
});

describe("sqliteEmbeddingCache", () => {
  it("refuses a store that is not an EmbeddingStore with CONFIG_INVALID (none or 5 gave a cache that threw a TypeError at its first lookup)", () => {
    const store = "an embedding store ({ getEmbeddings, putEmbeddings }, such as openSqliteStore(path))";
    const cases: [unknown, string][] = [
      [undefined, `store must be ${store}, received nothing`],
      [5, `store must be ${store}, received number 5`],
      [null, `store must be ${store}, received null`],
      [{ getEmbeddings: () => new Map() }, "store.putEmbeddings must be a function (the store is no EmbeddingStore), received nothing"],
    ];
    for (const [given, message] of cases) {
      expect(thrownEvalError(() => sqliteEmbeddingCache(given as never))).toMatchObject({ code: "CONFIG_INVALID", message: `sqliteEmbeddingCache: ${message}` });
    }
  });

  it("textHash refuses a text that is not a string with INPUT_INVALID (node:crypto threw a TypeError)", () => {
    for (const [text, received] of [[5, "number 5"], [undefined, "nothing"], [null, "null"], [new Uint8Array(1), "object"]] as const) {
      expect(thrownEvalError(() => textHash(text as never))).toMatchObject({ code: "INPUT_INVALID", message: `textHash: text must be a string, received ${received}` });
    }
  });

  it("textHash is SHA-256 of the UTF-8 bytes", () => {
    expect(textHash("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(textHash("é")).toBe(textHash("\u00e9"));
    expect(textHash("é")).not.toBe(textHash("e\u0301"));
  });

  it("round-trips vectors through the store's embedding_cache, keyed by hash, provider and model", () => {
    const store = openSqliteStore(":memory:");
    try {
      const c = sqliteEmbeddingCache(store);
      const k = c.key("some text");
      expect(k).toBe(textHash("some text"));
      c.put("openai", "m@8", [[k, vec(0.5, -1, 3)]]);
      expect(c.get("openai", "m@8", [k, textHash("other")])).toEqual(new Map([[k, vec(0.5, -1, 3)]]));
      expect(c.get("openai", "m", [k]).size).toBe(0);
      // A second cache over the same store sees it: it is the store, not the adapter, that holds vectors.
      expect(sqliteEmbeddingCache(store).get("openai", "m@8", [k]).get(k)).toEqual(vec(0.5, -1, 3));
    } finally {
      store.closeNow();
    }
  });
});
