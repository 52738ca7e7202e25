import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evalErrorOf, hashingProvider, thrownEvalError } from "../test-support.js";
import type { EvalRecord } from "../types.js";
import { createEvaluator } from "./create.js";
import { describeEvaluators } from "./describe.js";
import { evaluators } from "./registry.js";

const env = { embeddingProviders: { hashing: () => hashingProvider } };
const specFor = (type: string) => (type === "semantic_similarity" ? { type, config: { provider: "hashing" } } : { type });

describe.each(evaluators.map((e) => [e.type, e] as const))("contract: %s", (type, definition) => {
  it("type is snake_case and the file is its kebab-case form", () => {
    expect(type).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });

  it("creates from {type} alone: every config key has a default or is optional", () => {
    expect(() => createEvaluator(specFor(type), env)).not.toThrow();
  });

  it("rejects an unknown config key, naming it", () => {
    expect(() => createEvaluator({ ...specFor(type), config: { ...(specFor(type).config ?? {}), bogus_key: 1 } }, env)).toThrow(/unknown config key "bogus_key"/);
  });

  it("returns the full result shape, deterministically, with scores in range", async () => {
    const e = createEvaluator(specFor(type), env);
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40, unit: "grapheme" }), fc.string({ maxLength: 40, unit: "grapheme" }), async (output, expected) => {
        const r = await e.evaluate({ output, expected });
        expect(Object.keys(r).sort()).toEqual(["details", "label", "name", "passed", "reasoning", "score", "skipped", "type"]);
        expect(r.type).toBe(type);
        expect(typeof r.score).toBe("number");
        const s = r.score as number;
        // Within the range it declares, which a results.jsonl's scores are held to.
        expect(s).toBeGreaterThanOrEqual(definition.scores.min);
        expect(s).toBeLessThanOrEqual(definition.scores.max);
        if (definition.scores.whole) expect(Number.isInteger(s)).toBe(true);
        expect(r.label).toBe(r.passed === null ? null : r.passed ? "pass" : "fail");
        expect(r.reasoning.length).toBeGreaterThan(10);
        expect(await e.evaluate({ output, expected })).toEqual(r);
      }),
      { numRuns: 60 },
    );
  });

  it("declares the range its direction and type give: similarities within [0, 1] (a cosine [-1, 1]), a distance a whole number from 0", () => {
    const expected = definition.direction === "minimize" ? { min: 0, max: Number.POSITIVE_INFINITY, whole: true } : { min: type === "semantic_similarity" ? -1 : 0, max: 1 };
    expect(definition.scores).toMatchObject(expected);
  });

  it("identical texts give the best score", async () => {
    const r = await createEvaluator(specFor(type), env).evaluate({ output: "Same answer, twice.", expected: "Same answer, twice." });
    expect(r.score).toBe(definition.direction === "maximize" ? 1 : 0);
  });

  it("rejects a record that is not an object (INPUT_INVALID), naming the evaluator, the method and what it must be, rather than scoring it as a row without a reference", async () => {
    // Named unlike its type, so that both show: a service holding many evaluators sees only the error.
    const e = createEvaluator({ ...specFor(type), name: "mine" }, env);
    for (const [record, received] of [
      [null, "null"],
      [undefined, "nothing"],
      ["str", 'string "str"'],
      [[], "array of 0"],
      [42, "number 42"],
    ] as const) {
      const bad = record as unknown as EvalRecord;
      const message = (method: string) => `evaluator "mine" (${type}).${method}: the record must be an object such as {"output": "...", "expected": "..."}, received ${received}`;
      expect(await evalErrorOf(e.evaluate(bad))).toMatchObject({ code: "INPUT_INVALID", message: message("evaluate") });
      expect(thrownEvalError(() => e.evaluateNow(bad))).toMatchObject({ code: "INPUT_INVALID", message: message("evaluateNow") });
      if (e.verdictNow) expect(thrownEvalError(() => e.verdictNow?.(bad))).toMatchObject({ code: "INPUT_INVALID", message: message("verdictNow") });
      expect(thrownEvalError(() => e.texts(bad))).toMatchObject({ code: "INPUT_INVALID", message: message("texts") });
    }
    expect((await e.evaluate({})).skipped).toBe(true); // an object without expected is still skipped
  });

  it("names an evaluator without a name of its own by its type alone, in the error of a record that is not an object", async () => {
    const e = createEvaluator(specFor(type), env);
    expect((await evalErrorOf(e.evaluate(null as unknown as EvalRecord))).message).toMatch(new RegExp(`^evaluator "${type}"\\.evaluate: the record must be an object`));
  });

  it("is described for `simeval list` with its defaults", () => {
    const d = describeEvaluators().find((x) => x.type === type);
    expect(d?.config.map((f) => f.key)).toContain("unicode_normalization");
    expect(d?.description.length).toBeGreaterThan(10);
  });
});
