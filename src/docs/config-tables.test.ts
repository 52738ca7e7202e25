import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { evaluatorTypes } from "../evaluators/registry.js";
import { updateConfigTables } from "./config-tables.js";

describe("README evaluator reference", () => {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

  it("documents every registered evaluator with its config table", () => {
    for (const type of evaluatorTypes) expect(readme).toContain(`<!-- config:${type} -->`);
  });

  it("config tables are current (run `npm run docs` after changing a schema)", () => {
    expect(updateConfigTables(readme)).toBe(readme);
  });
});
