import { describe, expect, it } from "vitest";
import { EvalError } from "../errors.js";
import { createEvaluator, createEvaluators, type Evaluator } from "../evaluators/create.js";
import { hashingProvider } from "../test-support.js";
import { scoreRecord } from "./evaluate-row.js";

describe("scoreRecord", () => {
  const evaluators = createEvaluators(
    [
      { type: "semantic_similarity", name: "meaning", config: { provider: "hashing" } },
      { type: "exact_match" },
      { type: "levenshtein", name: "tags", inputs: { output: "$.tags[*]" } },
      { type: "jaccard_similarity" },
    ],
    { embeddingProviders: { hashing: () => hashingProvider } },
  );

  it("gives each evaluator's result by name, in evaluator order, and an evaluator's failure in its place", async () => {
    const record = { output: "Paris is the capital", expected: "Paris is the capital", tags: ["a", "b"] };
    const results = await scoreRecord(record, evaluators);
    // The asynchronous evaluator (embeddings) settles last, yet stays first.
    expect(Object.keys(results)).toEqual(["meaning", "exact_match", "tags", "jaccard_similarity"]);
    for (const [i, e] of evaluators.entries()) {
      if (e.name === "tags") continue;
      const { name: _, ...stored } = await e.evaluate(record);
      expect(results[e.name], `evaluator ${i}`).toEqual(stored);
    }
    // A JSONPath matching two values is that evaluator's error, as in a dataset run.
    expect(results["tags"]).toEqual({ error: { code: "INPUT_INVALID", message: expect.stringContaining("$.tags[*]") } });
  });

  it("gives EVALUATOR_FAILED for an error that is not an EvalError, and still scores the others", async () => {
    const failing = { ...(evaluators[1] as Evaluator), name: "broken", evaluateNow: () => { throw new TypeError("boom"); } };
    const results = await scoreRecord({ output: "a", expected: "a" }, [failing, evaluators[3] as Evaluator]);
    expect(results["broken"]).toEqual({ error: { code: "EVALUATOR_FAILED", message: "boom" } });
    expect(results["jaccard_similarity"]).toMatchObject({ score: 1, passed: true });
  });

  it("marks an error that may pass (a provider's rate limit) transient, so that a service scores the record again rather than store its error for good", async () => {
    const limited = () => ({ name: "limited", model: "m", remote: true, embed: async () => Promise.reject(new EvalError("PROVIDER_FAILED", "rate limited (429)", { transient: true })) });
    const refused = () => ({ name: "refused", model: "m", remote: true, embed: async () => Promise.reject(new EvalError("PROVIDER_FAILED", "invalid key (401)")) });
    const evs = createEvaluators(
      [
        { type: "semantic_similarity", name: "limited", config: { provider: "limited" } },
        { type: "semantic_similarity", name: "refused", config: { provider: "refused" } },
      ],
      { embeddingProviders: { limited, refused } },
    );
    const results = await scoreRecord({ output: "a", expected: "b" }, evs);
    expect(results["limited"]).toEqual({ error: { code: "PROVIDER_FAILED", message: expect.stringContaining("rate limited (429)"), transient: true } });
    expect(results["refused"]).toEqual({ error: { code: "PROVIDER_FAILED", message: expect.stringContaining("invalid key (401)") } });
  });

  it("refuses evaluators built apart that share a name (ignoring case), whose results one key would hold: the first's was lost", async () => {
    const [a, b] = [createEvaluator({ type: "exact_match", name: "x" }), createEvaluator({ type: "levenshtein", name: "X" })];
    const error = await scoreRecord({ output: "a", expected: "b" }, [a, b]).then(() => undefined, (e: unknown) => e as EvalError);
    expect(error).toBeInstanceOf(EvalError);
    expect(error).toMatchObject({ code: "CONFIG_INVALID", issues: [{ path: ["evaluators", 1, "name"] }] });
    expect(error?.message).toBe('scoreRecord: evaluators[1] is named "X", as evaluators[0] is ("x", ignoring case): results are keyed by name, so one would replace the other; give each evaluator a unique "name"');
    // The capitalised one first, likewise.
    await expect(scoreRecord({ output: "a", expected: "b" }, [b, a])).rejects.toMatchObject({ code: "CONFIG_INVALID", issues: [{ path: ["evaluators", 1, "name"] }] });
    // Names that differ stay scored, each under its own.
    expect(Object.keys(await scoreRecord({ output: "a", expected: "b" }, [a, createEvaluator({ type: "levenshtein", name: "y" })]))).toEqual(["x", "y"]);
  });

  it("refuses a record that is not an object and evaluators that are not a list of evaluators, naming the argument", async () => {
    await expect(scoreRecord("text" as never, evaluators)).rejects.toMatchObject({ code: "INPUT_INVALID", message: 'scoreRecord: record must be an object (an evaluation record: output, expected, …), received string "text"' });
    await expect(scoreRecord({ output: "a" }, "exact_match" as never)).rejects.toMatchObject({ code: "CONFIG_INVALID", message: 'scoreRecord: evaluators must be a list of evaluators from createEvaluators, received string "exact_match"' });
    await expect(scoreRecord({ output: "a" }, [evaluators[1], { type: "exact_match" }] as never)).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: "scoreRecord: evaluators[1] must be an evaluator from createEvaluators, received object",
      issues: [{ path: ["evaluators", 1] }],
    });
  });
});
