import { describe, expect, it } from "vitest";
import { configFields } from "./describe-schema.js";
import { evaluators } from "./registry.js";

describe("configFields", () => {
  it("converts each evaluator's schema once, giving the same fields to every caller", () => {
    for (const definition of evaluators) {
      const fields = configFields(definition.config);
      expect(Object.keys(fields).length).toBeGreaterThan(0);
      expect(configFields(definition.config)).toBe(fields);
    }
  });
});
