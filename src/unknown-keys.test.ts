import { describe, expect, it } from "vitest";
import { compareRuns } from "./compare/compare.js";
import { createEvaluator, createEvaluators } from "./evaluators/create.js";
import { runDataset } from "./run/run-dataset.js";
import { evalErrorOf, thrownEvalError } from "./test-support.js";
import { refuseUnknownKeys } from "./unknown-keys.js";

describe("refuseUnknownKeys", () => {
  it("passes known keys and names the first unknown one, with the closest known one", () => {
    expect(() => refuseUnknownKeys("f", "opts", { a: 1, bb: 2 }, ["a", "bb"])).not.toThrow();
    const error = thrownEvalError(() => refuseUnknownKeys("f", "opts", { a: 1, workerz: 2 }, ["a", "workers"]));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toBe('f: opts.workerz is not an option (opts takes a, workers). Did you mean "workers"?');
    expect(error.issues).toEqual([{ path: ["opts", "workerz"], message: error.message, expected: "one of a, workers", received: "number 2" }]);
  });
});

describe("a misspelt option of the library's entry points", () => {
  it("createEvaluator and createEvaluators refuse an env key they do not take (embeddingProvider used the built-in providers instead of the caller's)", () => {
    const own = { mine: () => ({ name: "mine", model: "m", embed: async () => ({ vectors: [] }) }) };
    for (const make of [() => createEvaluator({ type: "exact_match" }, { embeddingProvider: own } as never), () => createEvaluators([{ type: "exact_match" }], { embeddingProvider: own } as never)]) {
      const error = thrownEvalError(make);
      expect(error.code).toBe("CONFIG_INVALID");
      expect(error.message).toMatch(/^createEvaluators?: env\.embeddingProvider is not an option \(env takes embeddingProviders, embeddingCache, datasetIdf, notice\)\. Did you mean "embeddingProviders"\?$/);
    }
    expect(createEvaluator({ type: "exact_match" }, { embeddingProviders: own }).type).toBe("exact_match");
  });

  it("runDataset refuses an option it does not take before reading anything (countSkipedAsZero counted skipped rows out)", async () => {
    const error = await evalErrorOf(runDataset({ dataset: "/nonexistent/rows.jsonl", evaluators: [{ type: "exact_match" }], countSkipedAsZero: true } as never));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toContain('runDataset: opts.countSkipedAsZero is not an option');
    expect(error.message).toContain('Did you mean "countSkippedAsZero"?');
  });

  it("compareRuns refuses an option it does not take (resample ran 10,000 resamples)", async () => {
    const run = (name: string) => ({ name, rows: [{ row: 1, id: 1, scores: { em: 1 } }] });
    const error = await evalErrorOf(compareRuns(run("a"), run("b"), { directions: { em: "maximize" }, resample: 5 } as never));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toContain('compareRuns: opts.resample is not an option');
    expect(error.message).toContain('Did you mean "resamples"?');
  });
});
