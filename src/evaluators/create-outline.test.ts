import { describe, expect, it, vi } from "vitest";
import { thrownEvalError } from "../test-support.js";
import { createEvaluators, outlineEvaluatorSpecs } from "./create.js";
import { evaluatorTypes } from "./registry.js";

describe("outlineEvaluatorSpecs", () => {
  it("gives each spec the name, type, direction and threshold that createEvaluators gives it, for every type", () => {
    vi.stubEnv("OPENAI_API_KEY", "sk-test");
    try {
      // exact_match has no threshold to set: its verdict is the match.
      const strict = (type: string) => (type === "exact_match" ? [] : [{ type, name: `${type}_strict`, config: { threshold: type === "levenshtein_distance" ? 2 : 0.9 } }]);
      const specs = evaluatorTypes.flatMap((type) => [{ type }, ...strict(type)]);
      const built = createEvaluators(specs).map(({ name, type, direction, threshold }) => ({ name, type, direction, threshold }));
      expect(outlineEvaluatorSpecs(specs)).toEqual(built);
      // Each type, and a threshold given or not, is there to compare: the check is not of one shape only.
      expect(new Set(built.map((e) => e.direction))).toEqual(new Set(["maximize", "minimize"]));
      expect(built.some((e) => e.threshold === null) && built.some((e) => e.threshold === 0.9)).toBe(true);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("builds none (no API key needed) and refuses what createEvaluators refuses, with its error", () => {
    const semantic = [{ type: "semantic_similarity", config: { provider: "openai", threshold: 0.85 } }];
    vi.stubEnv("OPENAI_API_KEY", undefined);
    try {
      expect(thrownEvalError(() => createEvaluators(semantic)).message).toContain("OPENAI_API_KEY is not set");
      expect(outlineEvaluatorSpecs(semantic)).toEqual([{ name: "semantic_similarity", type: "semantic_similarity", direction: "maximize", threshold: 0.85 }]);
      const bad = [{ type: "levenshtein", threshold: 0.8 }, { type: "exact_match", name: "Levenshtein" }];
      const outlined = thrownEvalError(() => outlineEvaluatorSpecs(bad));
      expect(outlined.code).toBe("CONFIG_INVALID");
      expect(outlined.issues).toEqual(thrownEvalError(() => createEvaluators(bad)).issues);
      expect(thrownEvalError(() => outlineEvaluatorSpecs([], ["x"])).message).toContain("x must be a non-empty array of evaluator specs");
      expect(thrownEvalError(() => outlineEvaluatorSpecs([{ type: "exact_match" }], "x" as never)).message).toContain("outlineEvaluatorSpecs");
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
