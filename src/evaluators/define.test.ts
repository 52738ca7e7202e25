import { z } from "zod";
import { describe, expect, it } from "vitest";
import { thrownEvalError } from "../test-support.js";
import { defineEvaluator } from "./define.js";

const good = {
  type: "always",
  title: "Always",
  description: "Scores 1.",
  direction: "maximize" as const,
  scores: { min: 0, max: 1 },
  config: { threshold: z.number().default(0.5) },
  create: () => () => ({ score: 1, passed: true, reasoning: "", details: {} }),
};

describe("defineEvaluator", () => {
  it("takes a definition and adds the common config", () => {
    const def = defineEvaluator(good);
    expect(def.type).toBe("always");
    expect(def.config.parse({})).toEqual({ threshold: 0.5 });
  });

  it("refuses a definition that is not one with CONFIG_INVALID naming the field, not a TypeError", () => {
    const cases: [unknown, string][] = [
      [null, "defineEvaluator: def must be an evaluator definition ({ type, title, description, direction, config, create }), received null"],
      [5, "defineEvaluator: def must be an evaluator definition ({ type, title, description, direction, config, create }), received number 5"],
      [{ ...good, type: 3 }, "defineEvaluator: def.type must be a non-empty string, received number 3"],
      [{ ...good, title: undefined }, "defineEvaluator: def.title must be a string, received nothing"],
      [{ ...good, direction: "up" }, 'defineEvaluator: def.direction must be "maximize" or "minimize", received string "up"'],
      [{ ...good, scores: undefined }, "defineEvaluator: def.scores must be the scores it can give, { min, max, whole? } (a finite min, a max at least min, Infinity for no bound), received nothing"],
      [{ ...good, scores: { min: 1, max: 0 } }, "defineEvaluator: def.scores must be the scores it can give, { min, max, whole? } (a finite min, a max at least min, Infinity for no bound), received object"],
      [{ ...good, scores: { min: 0, max: 1, whole: false } }, "defineEvaluator: def.scores must be the scores it can give, { min, max, whole? } (a finite min, a max at least min, Infinity for no bound), received object"],
      [{ ...good, config: null }, "defineEvaluator: def.config must be an object of Zod schemas by config key, received null"],
      [{ ...good, config: { "a.b": 5 } }, 'defineEvaluator: def.config["a.b"] must be a Zod schema, received number 5'],
      [{ ...good, aliases: { old: 1 } }, "defineEvaluator: def.aliases.old must be a string (a config key), received number 1"],
      [{ ...good, create: undefined }, "defineEvaluator: def.create must be a function (config, env, name) => scorer, received nothing"],
      [{ ...good, passThreshold: 0.5 }, "defineEvaluator: def.passThreshold must be a function or nothing, received number 0.5"],
    ];
    for (const [bad, message] of cases) {
      expect(thrownEvalError(() => defineEvaluator(bad as never))).toMatchObject({ code: "CONFIG_INVALID", message });
    }
  });
});
