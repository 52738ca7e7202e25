import { describe, expect, it } from "vitest";
import { memoryEmbeddingCache } from "../embeddings/cache.js";
import { evaluatorsFor, usesCacheDb, type ScorerInit } from "./scorer-init.js";

const semantic = { type: "semantic_similarity", config: { provider: "openai", model: "m", api_key_env: "SIMEVAL_SCORER_INIT_TEST_KEY" } };

// Read when the evaluator is made; no request is sent.
process.env["SIMEVAL_SCORER_INIT_TEST_KEY"] = "sk-test";

describe("usesCacheDb / evaluatorsFor's openDb", () => {
  it("opens the run database only for an embedding evaluator with a database, through the openDb given", () => {
    const init = (specs: unknown[], db?: string): ScorerInit => ({ specs, worst: 0, explain: false, ...(db ? { db } : {}) });
    expect(usesCacheDb(init([{ type: "levenshtein" }], "run.db"))).toBe(false);
    expect(usesCacheDb(init([semantic]))).toBe(false);
    expect(usesCacheDb(init([{ type: "levenshtein" }, semantic], "run.db"))).toBe(true);

    // Another run's scorer opens nothing, and needs no openDb.
    expect(evaluatorsFor(init([{ type: "levenshtein" }], "run.db")).evaluators.map((e) => e.type)).toEqual(["levenshtein"]);
    const opened: string[] = [];
    let closed = 0;
    const openDb = (path: string) => {
      opened.push(path);
      return { getEmbeddings: () => new Map(), putEmbeddings: () => {}, closeNow: () => void closed++ };
    };
    const built = evaluatorsFor(init([semantic], "run.db"), undefined, {}, openDb);
    expect(opened).toEqual(["run.db"]);
    built.close();
    expect(closed).toBe(1);
    // Without openDb the cache cannot be kept: said, where it was dropped in silence.
    expect(() => evaluatorsFor(init([semantic], "run.db"))).toThrow("no openDb was given");
    // A caller's own cache is kept: the run database is not opened in its place.
    evaluatorsFor(init([semantic], "other.db"), undefined, { embeddingCache: memoryEmbeddingCache() }, openDb);
    expect(opened).toEqual(["run.db"]);
  });
});
